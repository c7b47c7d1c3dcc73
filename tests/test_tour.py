"""Result types and tour formats: construction, views, transforms and round trips."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from independent import tour_defect

from knightgraph import (
    Board,
    Certificate,
    InvalidSquareError,
    InvalidTourError,
    NoTourError,
    SearchAbortedError,
    SearchResult,
    Status,
    Tour,
    TourFormatError,
    find_tour,
)
from knightgraph.io.formats import (
    format_board,
    format_squares,
    parse_tour_text,
    read_npy,
    read_tour_file,
    write_npy,
    write_text,
)

RING = ["a1", "c2", "a3", "b1", "c3", "a2", "c1", "b3"]
RING_BOARD = Board(3, 3, removed=["b2"])

# A few verified tours of different shapes, found once for the whole module.
TOURS = {
    "5x5 open": find_tour(5, 5, start="a1").require_tour(),
    "6x6 closed": find_tour(6, 6, closed=True, seed=3).require_tour(),
    "3x4 open": find_tour(3, 4).require_tour(),
    "5x6 open": find_tour(5, 6, start="c3", end="b1").require_tour(),
    "6x8 closed": find_tour(6, 8, closed=True, start="b2").require_tour(),
    "ring": Tour.from_squares(RING, RING_BOARD, closed=True),
}


def test_tour_is_validated_and_read_only():
    with pytest.raises(InvalidTourError):
        Tour(Board(3, 3, removed=["b2"]), [0, 5, 1])
    with pytest.raises(InvalidTourError):
        Tour(Board(2, 2), np.zeros((2, 2), dtype=int))
    with pytest.raises(InvalidTourError):
        Tour(Board(3, 3), [0])
    order = np.array([RING_BOARD.index(s) for s in RING])
    tour = Tour(RING_BOARD, order, closed=True)
    order[0] = 99  # the caller's array is copied
    assert tour.order[0] == 0
    with pytest.raises(ValueError):
        tour.order[0] = 5
    assert tour.order.dtype == np.int32


def test_views():
    tour = TOURS["ring"]
    assert tour.squares()[:2] == [(0, 0), (1, 2)]
    assert tour.algebraic() == RING
    assert tour.start == (0, 0) and tour.end == (2, 1) and len(tour) == 8
    assert tour.numbered().tolist() == [[1, 4, 7], [6, 0, 2], [3, 8, 5]]
    assert list(tour) == tour.squares()
    assert tour == Tour.from_squares(RING, RING_BOARD, closed=True)
    assert tour != Tour.from_squares(RING, RING_BOARD, closed=True).reversed()
    assert "closed" in repr(tour) and "a1 c2" in repr(tour)
    assert "..." in repr(TOURS["6x8 closed"])


def test_numbered_grid_is_a_permutation_following_the_order():
    for tour in TOURS.values():
        grid = tour.numbered()
        for k, (r, c) in enumerate(tour.squares(), start=1):
            assert grid[r, c] == k
        assert sorted(grid[grid > 0].tolist()) == list(range(1, len(tour) + 1))


def test_rerooting_and_reversing():
    closed = TOURS["6x8 closed"]
    for square in ["a1", "h6", "d3"]:
        moved = closed.rerooted(square)
        assert moved.algebraic()[0] == square
        assert tour_defect(6, 8, moved.squares(), closed=True) is None
    opened = TOURS["5x5 open"]
    assert opened.rerooted("a1") is opened
    assert opened.rerooted(opened.end).squares() == opened.squares()[::-1]
    with pytest.raises(InvalidSquareError, match="not one of its ends"):
        opened.rerooted("c3" if opened.end != (2, 2) else "b3")
    assert opened.reversed().reversed() == opened


def test_symmetries_map_tours_to_tours():
    for tour in TOURS.values():
        for name in tour.board.symmetries():
            image = tour.transformed(name)
            assert (
                tour_defect(
                    tour.m, tour.n, image.squares(), tour.closed, removed=tour.board.removed
                )
                is None
            )
        assert tour.transformed("identity") == tour
    with pytest.raises(ValueError, match="rot90"):
        TOURS["3x4 open"].transformed("rot90")


@given(
    st.sampled_from(sorted(TOURS)),
    st.sampled_from(["identity", "rot180", "flip_ranks", "flip_files"]),
)
def test_json_round_trip(key, symmetry):
    tour = TOURS[key].transformed(symmetry)
    data = json.loads(tour.to_json())
    assert data["squares"] == [list(s) for s in tour.squares()]
    assert data["start"] == tour.board.name(tour.start) and data["closed"] == tour.closed
    assert Tour.from_json(tour.to_json()) == tour
    assert Tour.from_dict(tour.to_dict()) == tour


@given(st.sampled_from(sorted(TOURS)))
def test_npy_round_trip(tmp_path_factory, key):
    tour = TOURS[key]
    path = tmp_path_factory.mktemp("npy") / "tour.npy"
    tour.save_npy(str(path))
    assert np.load(path).tolist() == tour.order.tolist()
    assert Tour.load_npy(str(path), tour.board, closed=tour.closed) == tour


def test_from_json_rejects_garbage():
    for text in [
        "",
        "[1, 2",
        '"a1"',
        '{"rows": 3}',
        '{"rows": 3, "cols": 3, "squares": 5}',
        '{"rows": 3, "cols": 3, "squares": [], "closed": "yes"}',
    ]:
        with pytest.raises((TourFormatError, InvalidTourError)):
            Tour.from_json(text)


def test_search_result_states():
    tour = TOURS["ring"]
    found = SearchResult(Status.FOUND, tour=tour)
    assert found.found and found.require_tour() is tour
    cert = Certificate("colour-count", "odd", {"counts": [5, 4]})
    absent = SearchResult(Status.PROVEN_ABSENT, certificate=cert)
    assert absent.reason == "odd" and not absent.found
    with pytest.raises(NoTourError):
        absent.require_tour()
    with pytest.raises(SearchAbortedError, match="budget"):
        SearchResult(Status.ABORTED, reason="budget").require_tour()
    with pytest.raises(ValueError):
        SearchResult(Status.FOUND)
    with pytest.raises(ValueError):
        SearchResult(Status.PROVEN_ABSENT)
    assert cert.to_dict() == {"kind": "colour-count", "reason": "odd", "counts": [5, 4]}


# ------------------------------------------------------------------- formats
def test_format_squares_and_board_parse_back():
    for tour in TOURS.values():
        assert parse_tour_text(format_squares(tour), tour.board) == tour.squares()
        assert parse_tour_text(format_board(tour), tour.board) == tour.squares()
    text = format_board(TOURS["5x5 open"])
    lines = text.splitlines()
    assert lines[0].startswith("5 |") and lines[-2].startswith("1 |")
    assert lines[-1].split() == ["a", "b", "c", "d", "e"]
    assert lines[-2].split()[2] == "1"  # a1 is square number 1


def test_parse_tour_text_errors():
    board = Board(5, 5)
    with pytest.raises(TourFormatError, match="'x9y'"):
        parse_tour_text("a1 x9y", board)
    with pytest.raises(TourFormatError, match="5 rows"):
        parse_tour_text("1 2\n3 4", board)
    grid = format_board(TOURS["5x5 open"]).replace(" 25", "  3", 1).replace("25", " 3")
    with pytest.raises(InvalidTourError, match="appears twice"):
        parse_tour_text(grid, board)


def test_atomic_writes_leave_nothing_behind(tmp_path):
    target = tmp_path / "out.txt"
    write_text("hello", target)
    assert target.read_text() == "hello\n"
    with pytest.raises(OSError, match="missing"):
        write_text("x", tmp_path / "missing" / "out.txt")

    class Boom(Exception):
        pass

    from knightgraph.io.formats import atomic_output

    with pytest.raises(Boom), atomic_output(tmp_path / "half.txt") as handle:
        handle.write("partial")
        raise Boom
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_read_tour_file_all_formats(tmp_path):
    tour = TOURS["6x6 closed"]
    board = tour.board
    files = {
        "t.txt": format_squares(tour),
        "t.board": format_board(tour),
        "t.json": tour.to_json(),
        "list.json": json.dumps([board.name(s) for s in tour.squares()]),
    }
    for name, text in files.items():
        write_text(text, tmp_path / name)
        squares, closed = read_tour_file(str(tmp_path / name), board)
        assert [tuple(s) for s in squares] == tour.squares(), name
        assert closed == (name == "t.json")
    write_npy(tour.order, tmp_path / "t.npy")
    squares, _ = read_tour_file(str(tmp_path / "t.npy"), board)
    assert squares.tolist() == tour.order.tolist()
    assert read_npy(tmp_path / "t.npy").dtype == np.int32


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\x01\x02\xff",
        b'{"rows": 6, "cols": 6}',
        b'{"squares": [[0, 0], [1]]}',
        b'{"squares": 7}',
        b"\x93NUMPY garbage",
        b"[[0, 0], [true, 1]]",
    ],
)
def test_read_tour_file_rejects_corrupt_files(tmp_path, content):
    path = tmp_path / "bad"
    path.write_bytes(content)
    if content == b"":
        squares, _ = read_tour_file(str(path), Board(6, 6))
        assert squares == []
        return
    with pytest.raises(TourFormatError):
        read_tour_file(str(path), Board(6, 6))


def test_read_tour_file_wrong_board_is_an_invalid_tour(tmp_path):
    path = tmp_path / "t.json"
    write_text(TOURS["5x5 open"].to_json(), path)
    with pytest.raises(InvalidTourError, match="5x5, not of 6x6"):
        read_tour_file(str(path), Board(6, 6))
    with pytest.raises(TourFormatError, match="No such file"):
        read_tour_file(str(tmp_path / "absent.txt"), Board(6, 6))
