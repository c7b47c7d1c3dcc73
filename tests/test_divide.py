"""Divide and conquer: stored blocks, every board up to 60 x 60, requested starts, scale."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from independent import tour_defect

from knightgraph import Board, InvalidOptionError, Status, find_tour, is_knight_tour, validate_tour
from knightgraph.proofs.theorems import closed_tour_exists, open_tour_exists
from knightgraph.running.native import python_only
from knightgraph.solvers import divide as dv
from knightgraph.solvers.blocks import _library
from knightgraph.solvers.codes import expand, path_end
from knightgraph.solvers.follow import follow_python
from knightgraph.solvers.joins import grid_board
from knightgraph.solvers.kernels import kernels
from knightgraph.tours.verifyfast import compiled_pass as _compiled_pass

KNIGHT_STEPS = {(1, 2), (2, 1)}


def numpy_defect(m, n, order, closed):
    """A second independent check for large boards (numpy, no knightgraph)."""
    order = np.asarray(order, dtype=np.int64)
    if len(order) != m * n or len(np.unique(order)) != m * n or order.min() < 0:
        return "not every square once"
    seq = np.concatenate([order, order[:1]]) if closed else order
    r, c = seq // n, seq % n
    dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
    if not np.all(((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))):
        return "a step is not a knight's move"
    return None


def check(res, m, n, closed, start=None, removed=()):
    assert res.status is Status.FOUND, res.reason
    tour = res.tour
    assert tour.closed == closed
    validate_tour(tour.order, m, n, closed=closed, start=start) if not removed else None
    squares = tour.squares()
    if m * n <= 40_000:
        assert tour_defect(m, n, squares, closed=closed, start=start, removed=removed) is None
    elif not removed:
        assert numpy_defect(m, n, tour.order, closed) is None
        assert start is None or tuple(squares[0]) == tuple(start)


def expected(m, n):
    """What --method divide must give, from the theorems (Schwenk 1991; Conrad et al. 1994)."""
    if closed_tour_exists(m, n):
        return "closed"
    if open_tour_exists(m, n):
        return "open"
    return "none"


def run_board(m, n):
    kind = expected(m, n)
    if kind == "none":
        res = find_tour(m, n, method="divide")
        assert res.status is Status.PROVEN_ABSENT, (m, n, res.reason)
        return
    res = find_tour(m, n, closed=kind == "closed", method="divide")
    check(res, m, n, kind == "closed")


# --------------------------------------------------------------- blocks
def test_grid_blocks_are_structured_with_ports():
    names = [name for name in _library() if name.startswith("grid_")]
    assert len(names) == 64 - 16
    assert {"grid_6x6", "grid_6x8", "grid_8x8", "grid_8x10", "grid_10x10", "grid_10x12"} <= set(
        names
    )
    for name in names:
        info, order = _library()[name]
        h, w = info["rows"], info["cols"]
        squares = [divmod(int(i), w) for i in order]
        assert tour_defect(h, w, squares, closed=True) is None
        moves = {frozenset((a, b)) for a, b in zip(squares, squares[1:] + squares[:1], strict=True)}
        for a, b in dv.structure_moves(h, w) + list(dv.PORTS):
            assert frozenset((a, b)) in moves, (name, a, b)


def test_corner_blocks_leave_out_a1():
    for h in (5, 7, 9):
        for w in (5, 7, 9):
            _, order = _library()[f"corner_{h}x{w}"]
            squares = [divmod(int(i), w) for i in order]
            assert tour_defect(h, w, squares, closed=True, removed=[(0, 0)]) is None


@pytest.mark.parametrize("name", [n for n in _library() if "window" in _library()[n][0]])
def test_strip_windows_repeat(name):
    info, order = _library()[name]
    h, w, closed = info["rows"], info["cols"], info["closed"]
    removed = [(0, 0)] if info["kind"] == "corner" else []
    x, period = info["window"]
    codes = dv.codes_from_order(h, w, order, closed)
    for copies in range(0, 8):
        longer = expand(codes, [(x, period, copies)])
        start = 1 if removed else 0 if closed else path_end(longer)
        seq = dv.follow_codes(longer, start)
        width = w + copies * period
        squares = [divmod(int(i), width) for i in seq]
        assert tour_defect(h, width, squares, closed=closed, removed=removed) is None


def test_block_generation_is_reproducible():
    """The script's SAT calls give the stored tours again (spot check)."""
    order = dv.block_tour(6, 8, closed=True, forced=dv.structure_moves(6, 8) + list(dv.PORTS))
    assert order == _library()["grid_6x8"][1].tolist()


# ------------------------------------------------------------ the walk
def test_follow_matches_python_reference():
    codes = grid_board(23, 18)
    delta = np.zeros(16, dtype=np.int64)
    delta[:8] = [dr * 18 + dc for dr, dc in dv.DIRECTIONS]
    for start, first in [(0, 0), (17, 1), (200, 0)]:
        a = np.empty(23 * 18, dtype=np.int32)
        b = np.empty(23 * 18, dtype=np.int32)
        assert kernels().follow(codes.reshape(-1), delta, start, first, a) == 23 * 18
        assert follow_python(codes.reshape(-1), delta, start, first, b) == 23 * 18
        assert a.tolist() == b.tolist()


@pytest.mark.parametrize(("m", "n"), [(23, 18), (6, 6), (5, 6), (10, 31), (40, 40)])
def test_the_two_way_walk_of_a_cycle_reads_the_one_way_order(m, n):
    """``cycle=True`` (both ways at once, compiled and Python) gives the one-way order
    from every start and both first nibbles, into int32 and int64; a path end or a
    path is walked one way by the caller (0 written)."""
    codes = grid_board(m, n).reshape(-1)
    delta = np.zeros(16, dtype=np.int64)
    delta[:8] = [dr * n + dc for dr, dc in dv.DIRECTIONS]
    area = m * n
    starts = range(area) if area <= 100 else [0, 1, n, area // 2, area - 1]
    for start in starts:
        for first in (0, 1):
            for dtype in (np.int32, np.int64):
                one, both, plain = (np.full(area, -1, dtype=dtype) for _ in range(3))
                assert kernels().follow(codes, delta, start, first, one) == area
                assert kernels().follow(codes, delta, start, first, both, cycle=True) == area
                assert follow_python(codes, delta, start, first, plain, cycle=True) == area
                assert one.tolist() == both.tolist() == plain.tolist(), (start, first)
    squares = [divmod(int(i), n) for i in one]
    assert tour_defect(m, n, squares, closed=True) is None
    path = dv.codes_from_order(3, 4, [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4], False).reshape(-1)
    delta[:8] = [dr * 4 + dc for dr, dc in dv.DIRECTIONS]
    out = np.full(12, -1, dtype=np.int64)
    for walk in (kernels().follow, follow_python):
        assert walk(path, delta, 8, 0, out, cycle=True) == 0 and (out == -1).all()
        assert walk(path, delta, 6, 0, out[:2], cycle=True) == 0  # fewer than 3 squares


TOUR_64x80 = None


def tour_64x80():
    global TOUR_64x80
    if TOUR_64x80 is None:
        TOUR_64x80 = np.asarray(find_tour(64, 80, closed=True, method="divide").tour.order)
    return TOUR_64x80


@given(st.lists(st.tuples(st.integers(0, 5119), st.integers(-2, 5200)), max_size=3), st.booleans())
def test_compiled_verify_agrees_with_independent_checker(edits, swap):
    """The compiled fast path accepts exactly the sequences the independent checker accepts.

    With the compiled code switched off (``KNIGHTGRAPH_KERNELS=python``) the fast
    path must stay off, and the numpy checks must agree instead.
    """
    seq = tour_64x80().astype(np.int64)
    for i, value in edits:
        if swap:
            j = value % len(seq)
            seq[i], seq[j] = seq[j], seq[i]
        else:
            seq[i] = value
    expected = tour_defect(64, 80, [divmod(int(x), 80) for x in seq]) is None
    if python_only():
        assert not _compiled_pass(seq, Board(64, 80))
        assert is_knight_tour(seq, 64, 80) == expected
        assert is_knight_tour(seq.astype(np.int32), 64, 80) == expected
        return
    assert _compiled_pass(seq, Board(64, 80)) == expected
    assert _compiled_pass(seq.astype(np.int32), Board(64, 80)) == expected


# ------------------------------------------------------------ every board
SAMPLE = random.Random(5).sample([(m, n) for m in range(1, 61) for n in range(1, 61)], 150)


@pytest.mark.parametrize(("m", "n"), SAMPLE[:150])
def test_every_board_sample(m, n):
    run_board(m, n)


@pytest.mark.slow
def test_every_board_up_to_60():
    for m in range(1, 61):
        for n in range(1, 61):
            run_board(m, n)


@pytest.mark.parametrize(
    ("m", "n", "closed"),
    [
        (8, 11, True),
        (10, 12, True),
        (3, 10, True),
        (6, 50, True),
        (3, 12, True),
        (3, 9, False),
        (4, 5, False),
        (5, 5, False),
        (3, 7, False),
        (4, 301, False),
        (301, 3, False),
        (3, 302, True),
        (99, 101, False),
        (1, 1, False),
    ],
)
def test_named_boards(m, n, closed):
    check(find_tour(m, n, closed=closed, method="divide"), m, n, closed)


def test_boards_without_tours_are_proven():
    for m, n, closed in [
        (4, 4, False),
        (3, 6, False),
        (3, 8, True),
        (4, 12, True),
        (7, 7, True),
        (2, 9, False),
        (31, 29, True),
    ]:
        res = find_tour(m, n, closed=closed, method="divide")
        assert res.status is Status.PROVEN_ABSENT, (m, n, closed)
        assert res.certificate is not None


@pytest.mark.parametrize(("m", "n"), [(5, 5), (9, 9), (7, 11), (3, 9), (3, 31), (41, 3)])
def test_closed_tours_of_odd_boards_minus_a_corner(m, n):
    board = Board(m, n, removed=["a1"])
    res = find_tour(board, closed=True, method="divide")
    check(res, m, n, True, removed=[(0, 0)])


# ------------------------------------------------------------ requested starts
def random_requests(count, limit, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        m, n = rng.randint(3, limit), rng.randint(3, limit)
        closed = rng.random() < 0.4
        if (closed and not closed_tour_exists(m, n)) or not open_tour_exists(m, n):
            continue
        r, c = rng.randrange(m), rng.randrange(n)
        if m % 2 and n % 2 and (r + c) % 2:
            continue  # an open tour of an odd board starts on the corner colour
        out.append((m, n, closed, (r, c)))
    return out


@pytest.mark.parametrize(("m", "n", "closed", "start"), random_requests(40, 120, 7))
def test_requested_starts(m, n, closed, start):
    res = find_tour(m, n, closed=closed, start=start, method="divide")
    check(res, m, n, closed, start=start)


@pytest.mark.parametrize(("m", "n", "closed", "start"), random_requests(12, 500, 11))
def test_requested_starts_up_to_500(m, n, closed, start):
    res = find_tour(m, n, closed=closed, start=start, method="divide")
    check(res, m, n, closed, start=start)


@pytest.mark.parametrize(
    ("m", "n", "start"),
    [
        (4, 100, (0, 40)),
        (4, 100, (3, 50)),
        (100, 4, (40, 0)),
        (3, 101, (0, 50)),
        (101, 3, (50, 2)),
        (4, 5000, (0, 2501)),
        (3, 777, (2, 300)),
    ],
)
def test_strips_from_inner_squares(m, n, start):
    check(find_tour(m, n, start=start, method="divide"), m, n, False, start=start)


def test_wrong_colour_start_on_odd_board_is_proven_absent():
    res = find_tour(499, 497, start="k200", method="divide")
    assert res.status is Status.PROVEN_ABSENT
    assert res.certificate.kind == "colour-count"


def test_an_end_with_a_start_is_not_supported_for_closed_tours():
    with pytest.raises(InvalidOptionError, match="end"):
        find_tour(8, 8, closed=True, start="a1", end="c2", method="divide")


def test_auto_uses_divide_on_large_boards():
    res = find_tour(300, 301, closed=True)
    assert res.status is Status.FOUND
    assert res.method == "divide"


@pytest.mark.slow
def test_large_rectangle_and_odd_board():
    for m, n, closed in [(2000, 3001, True), (1999, 2001, False)]:
        res = find_tour(m, n, closed=closed, method="divide")
        check(res, m, n, closed)
