"""Board: sizes, square names, colours, the move table and symmetries."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from independent import knight_moves

from knightgraph import (
    CAMEL,
    GIRAFFE,
    KNIGHT,
    ZEBRA,
    Board,
    InvalidBoardError,
    InvalidSquareError,
    file_name,
    square_name,
)
from knightgraph.boards.board import file_index, parse_square_text

sizes = st.integers(min_value=1, max_value=12)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "8", True, None])
def test_bad_sizes_are_rejected_with_the_value(bad):
    with pytest.raises(InvalidBoardError, match=repr(bad).replace("(", r"\(").replace(")", r"\)")):
        Board(bad, 8)  # type: ignore[arg-type]


@pytest.mark.parametrize("leaper", [(0, 0), (1,), (1, 2, 3), (-1, 2), "ab", (1.5, 2)])
def test_bad_leapers_are_rejected(leaper):
    with pytest.raises(InvalidBoardError, match="invalid leaper"):
        Board(8, 8, leaper=leaper)  # type: ignore[arg-type]


def test_leaper_is_normalised_and_named_leapers():
    assert Board(5, 5, leaper=(2, 1)).leaper == KNIGHT
    assert (CAMEL, ZEBRA, GIRAFFE) == ((1, 3), (2, 3), (1, 4))


@pytest.mark.parametrize(
    ("text", "square"),
    [
        ("a1", (0, 0)),
        ("h8", (7, 7)),
        ("H8", (7, 7)),
        ("d4", (3, 3)),
        ("aa1", (0, 26)),
        ("az3", (2, 51)),
        ("ba1", (0, 52)),
        ("3,4", (3, 4)),
        (" 3 , 4 ", (3, 4)),
        ("(0, 0)", (0, 0)),
    ],
)
def test_parse_square_text(text, square):
    assert parse_square_text(text) == square


@pytest.mark.parametrize("text", ["", "a", "1", "a0", "1a", "a-1", "é1", "a1b", "3;4"])
def test_malformed_squares_name_the_text(text):
    with pytest.raises(InvalidSquareError, match="invalid"):
        parse_square_text(text)


@given(st.integers(min_value=0, max_value=100_000))
def test_file_names_are_bijective_base_26(c):
    name = file_name(c)
    assert name.isalpha() and name.islower()
    assert file_index(name) == c


def test_file_name_order():
    names = [file_name(c) for c in range(26 * 27 + 1)]
    assert names[:3] == ["a", "b", "c"] and names[25:28] == ["z", "aa", "ab"]
    assert names[-1] == "aaa"
    assert len(set(names)) == len(names)


@given(sizes, sizes, st.data())
def test_square_round_trips(m, n, data):
    board = Board(m, n)
    r = data.draw(st.integers(0, m - 1))
    c = data.draw(st.integers(0, n - 1))
    name = board.name((r, c))
    assert name == square_name(r, c)
    assert board.parse_square(name) == (r, c)
    assert board.parse_square(f"{r},{c}") == (r, c)
    assert board.square(board.index(name)) == (r, c)
    assert board.index((r, c)) == r * n + c
    assert board.color(name) == (r + c) % 2


def test_off_board_and_removed_squares_are_named():
    board = Board(8, 8, removed=["e4"])
    with pytest.raises(InvalidSquareError, match="i1"):
        board.parse_square("i1")
    with pytest.raises(InvalidSquareError, match="a9"):
        board.parse_square("a9")
    with pytest.raises(InvalidSquareError, match=r"e4: it is removed"):
        board.parse_square("e4")
    with pytest.raises(InvalidSquareError, match=r"\(-1, 0\)"):
        board.parse_square((-1, 0))
    assert "e4" not in board and "e5" in board and "zz" not in board


def test_removed_squares_are_validated():
    with pytest.raises(InvalidSquareError, match="z9"):
        Board(8, 8, removed=["z9"])
    assert Board(3, 3, removed="b2").removed == {(1, 1)}


def test_colour_counts_and_availability():
    assert Board(5, 5).color_counts() == (13, 12)
    assert Board(4, 6).color_counts() == (12, 12)
    board = Board(4, 4, removed=["a1", "b1", "c1"])
    assert board.color_counts() == (6, 7)
    assert board.num_squares == 13 and board.area == 16
    assert board.available().sum() == 13
    assert board.squares()[0] == (0, 3)


@given(sizes, sizes, st.sampled_from([KNIGHT, CAMEL, ZEBRA, GIRAFFE, (0, 1), (1, 1), (2, 2)]))
def test_move_table_matches_brute_force(m, n, leaper):
    board = Board(m, n, leaper=leaper)
    table = board.move_table()
    assert table.shape == (m * n, len(board.offsets))
    for i in range(m * n):
        r, c = divmod(i, n)
        got = sorted(divmod(int(t), n) for t in table[i] if t >= 0)
        assert got == sorted(knight_moves(m, n, r, c, leaper))
    assert (board.degrees() == (table >= 0).sum(axis=1)).all()


def test_move_order_is_the_seed_004_order_and_neighbours_follow_it():
    assert Board(8, 8).offsets == (
        (2, 1),
        (1, 2),
        (-1, 2),
        (-2, 1),
        (-2, -1),
        (-1, -2),
        (1, -2),
        (2, -1),
    )
    assert Board(8, 8).neighbors("d4") == [
        (5, 4),
        (4, 5),
        (2, 5),
        (1, 4),
        (1, 2),
        (2, 1),
        (4, 1),
        (5, 2),
    ]
    assert len(Board(5, 5, leaper=(1, 1)).offsets) == 4


def test_move_table_drops_removed_squares():
    board = Board(3, 4, removed=["b3"])
    table = board.move_table()
    b3 = 2 * 4 + 1
    assert (table[b3] == -1).all()
    assert b3 not in table
    assert board.neighbors("a1") == [(1, 2)]


def test_symmetries_are_permutations_that_preserve_moves():
    for board in (Board(5, 5), Board(3, 6), Board(6, 6, removed=["a1", "f6"])):
        table = board.move_table()
        for name, perm in board.symmetries().items():
            assert sorted(perm.tolist()) == list(range(board.area)), name
            for i in range(board.area):
                if board.available()[i]:
                    image = {int(perm[t]) for t in table[i] if t >= 0}
                    assert image == {int(t) for t in table[int(perm[i])] if t >= 0}, name
    assert sorted(Board(6, 6, removed=["a1", "f6"]).symmetries()) == [
        "antitranspose",
        "identity",
        "rot180",
        "transpose",
    ]


def test_equality_hash_and_repr():
    assert Board(8, 8) == Board(8, 8) and hash(Board(8, 8)) == hash(Board(8, 8))
    assert Board(8, 8) != Board(8, 8, removed=["a1"])
    assert repr(Board(3, 4, leaper=(1, 3), removed=["c1", "a1"])) == (
        "Board(3, 4, leaper=(1, 3), removed=('a1', 'c1'))"
    )
    assert Board(8, 8).is_standard and not Board(8, 8, leaper=CAMEL).is_standard


def test_huge_board_is_cheap_and_uses_int64_indices():
    board = Board(100_000, 100_000)
    assert board.area == 10**10 and board.index_dtype() is np.int64
    assert Board(1000, 1000).index_dtype() is np.int32
    assert board.name((99_999, 99_999)) == "eqxd100000"


def test_entry_points_refuse_a_board_with_conflicting_arguments():
    """A Board and a leaper or removed squares that disagree with it: an error, not ignored."""
    import knightgraph as kg
    from knightgraph import InvalidOptionError

    for call in (
        lambda: kg.find_tour(Board(8, 8), leaper=(1, 3)),
        lambda: kg.tour_exists(Board(5, 5), removed=["a1"]),
        lambda: kg.count_tours(Board(5, 5), 6),
    ):
        with pytest.raises(InvalidOptionError):
            call()
    board = Board(5, 5, leaper=(1, 3), removed=["a1"])  # agreeing values are fine
    assert kg.tour_exists(board, leaper=(1, 3), removed=["a1"]).status.name in (
        "FOUND",
        "PROVEN_ABSENT",
    )
