"""Certificates of absence: each one sound, checked against independent enumeration."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from independent import tour_defect, tour_ends

from knightgraph import Board, Status, find_tour
from knightgraph.proofs.certificates import (
    closing_move_obstruction,
    connectivity_obstruction,
    degree_obstruction,
    partition_mask,
    partition_obstruction,
    quick_obstruction,
    schwenk_partition,
)


@st.composite
def small_problems(draw):
    """A board of at most 16 squares (some removed, any of five leapers), and a request."""
    m = draw(st.integers(1, 4))
    n = draw(st.integers(1, 16 // m))
    leaper = draw(st.sampled_from([(1, 2), (1, 2), (1, 2), (1, 3), (2, 3), (1, 4), (0, 1)]))
    cells = [(r, c) for r in range(m) for c in range(n)]
    removed = draw(st.lists(st.sampled_from(cells), max_size=max(0, len(cells) - 1), unique=True))
    left = [s for s in cells if s not in removed]
    closed = draw(st.booleans())
    start = draw(st.none() | st.sampled_from(left))
    end = draw(st.none() | st.sampled_from(left))
    assume(start is None or end is None or start != end or len(left) == 1)
    return Board(m, n, leaper=leaper, removed=removed), closed, start, end


def brute_force_exists(board, closed, start, end):
    """Does a tour exist? By plain enumeration from every allowed start (independent code)."""
    squares = board.squares()
    if closed and len(squares) < 3:
        return False
    for s in [start] if start is not None else squares:
        ends = tour_ends(board.m, board.n, s, closed, board.leaper, board.removed)
        if (end in ends) if end is not None else bool(ends):
            return True
    return False


@given(small_problems())
def test_certificates_are_sound_and_auto_is_exact(problem):
    board, closed, start, end = problem
    exists = brute_force_exists(board, closed, start, end)
    cert = quick_obstruction(board, closed=closed, start=start, end=end)
    if cert is not None:
        assert not exists, cert.reason
    res = find_tour(board, closed=closed, start=start, end=end, timeout=60)
    assert res.status is not Status.ABORTED
    assert res.found == exists, res.reason
    if res.found:
        squares = res.tour.squares()
        assert (
            tour_defect(board.m, board.n, squares, closed, start, end, board.leaper, board.removed)
            is None
        )


def test_degree_certificates():
    assert degree_obstruction(Board(3, 3)).data == {
        "degree": 0,
        "clause": "low-degree",
        "square": "b2",
    }
    cert = degree_obstruction(Board(2, 4), closed=True)
    assert cert.data["clause"] == "low-degree" and cert.data["degree"] == 1
    cert = degree_obstruction(Board(2, 6))
    assert cert.data["clause"] == "degree-one" and len(cert.data["squares"]) > 2
    assert degree_obstruction(Board(8, 8), closed=True) is None
    assert degree_obstruction(Board(1, 1)) is None


def test_closing_move_certificate():
    cert = closing_move_obstruction(Board(8, 8), "a1", "h8")
    assert cert.data == {"start": "a1", "end": "h8", "clause": "closing-move"}
    assert closing_move_obstruction(Board(8, 8), "a1", "c2") is None


def test_connectivity_certificate_names_two_separated_squares():
    cert = connectivity_obstruction(Board(3, 3, removed=["b2"], leaper=(1, 1)))
    assert cert is not None and cert.data["clause"] == "disconnected"
    a, b = cert.data["squares"]
    assert (Board(3, 3).color(a) + Board(3, 3).color(b)) % 2 == 1  # diagonal leaper keeps colour
    assert connectivity_obstruction(Board(3, 4)) is None


@pytest.mark.parametrize("n", [4, 5, 6, 7, 9, 12, 40])
def test_schwenk_partition_on_4xn(n):
    where = schwenk_partition(Board(4, n))
    assert where == "ranks 1 and 4" and int(partition_mask(Board(4, n), where).sum()) == 2 * n
    assert schwenk_partition(Board(n, 4)) == ("files a and d" if n != 4 else "ranks 1 and 4")
    assert partition_obstruction(Board(4, n), closed=True).kind == "schwenk-4xn"
    assert partition_obstruction(Board(4, n), start="b2").data["end"] == "b2"
    assert partition_obstruction(Board(4, n), start="a1", end="b4") is None


def test_partition_needs_its_properties_on_the_actual_board():
    assert schwenk_partition(Board(4, 6, removed=["a1"])) is None  # no longer half
    assert schwenk_partition(Board(4, 6, leaper=(1, 3))) is None  # camel joins outer ranks
    assert schwenk_partition(Board(5, 6)) is None


@pytest.mark.parametrize("n", [5, 6, 7])
def test_partition_agrees_with_enumeration(n):
    for r in range(4):
        has_tours = bool(tour_ends(4, n, (r, 0)))
        assert has_tours == (partition_obstruction(Board(4, n), start=(r, 0)) is None)


def test_connectivity_answers_agree_with_a_plain_search():
    """The O(1) answer for full knight boards and the stamped breadth-first search on other
    boards, against networkx's connectivity of a graph built here from the moves."""
    import networkx as nx

    from knightgraph import Board
    from knightgraph.proofs.certificates import connectivity_obstruction

    def connected(board: Board) -> bool:
        squares = [(r, c) for r in range(board.m) for c in range(board.n)]
        squares = [s for s in squares if s not in set(board.removed)]
        g = nx.Graph()
        g.add_nodes_from(squares)
        a, b = board.leaper
        for r, c in squares:
            for dr, dc in {(a, b), (b, a), (-a, b), (-b, a), (a, -b), (b, -a), (-a, -b), (-b, -a)}:
                if (r + dr, c + dc) in g:
                    g.add_edge((r, c), (r + dr, c + dc))
        return nx.is_connected(g)

    boards = [Board(m, n) for m in range(1, 11) for n in range(1, 11)]
    boards += [Board(3, 30), Board(30, 3), Board(2, 30), Board(5, 5, leaper=(1, 3))]
    boards += [Board(6, 6, leaper=(2, 3)), Board(8, 8, removed=["b3", "c2"])]
    for board in boards:
        if board.num_squares > 1:
            assert (connectivity_obstruction(board) is None) == connected(board), board
