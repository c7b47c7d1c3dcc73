"""Exact tour counts: the literature (OEIS), an independent brute force, and C == Python."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from independent import knight_moves, tour_defect, tour_ends

from knightgraph import Board, count_tours
from knightgraph.cli import main
from knightgraph.counting import count_symmetric, enumerate_tours, kernel_available
from knightgraph.exceptions import InvalidOptionError, InvalidSquareError, SearchAbortedError

needs_kernel = pytest.mark.skipif(
    not kernel_available(), reason="the C counting kernel is not built"
)


# ----------------------------------------------------------------- literature (OEIS)
@pytest.mark.parametrize(
    ("m", "n", "undirected"),
    [
        (3, 10, 16),  # A070030
        (3, 12, 176),  # A070030
        (5, 6, 8),  # A175855
        (6, 5, 8),  # the same board on its side
        (6, 6, 9862),  # A001230, A175881
        (3, 8, 0),  # Schwenk: no closed tour on 3x8
        (4, 7, 0),  # Schwenk: no closed tour on 4 x n
        (5, 5, 0),  # odd number of squares
    ],
)
def test_closed_counts_agree_with_the_oeis(m, n, undirected):
    result = count_tours(m, n, closed=True)
    assert result.undirected == undirected and result.directed == 2 * undirected


@needs_kernel
@pytest.mark.parametrize(("n", "undirected"), [(7, 1_067_638), (8, 55_488_142)])
def test_closed_6xn_agree_with_a175881(n, undirected):
    assert count_tours(6, n, closed=True).undirected == undirected


def test_open_counts_agree_with_the_oeis():
    # A165134 and its tables: 3x4 has 16 directed open tours; 5x5 has 1,728,
    # of which 304 start at a corner and 64 at the centre.
    assert count_tours(3, 4).directed == 16
    assert count_tours(3, 4).undirected == 8
    assert count_tours(5, 5).directed == 1728
    assert count_tours(5, 5).undirected == 864
    for corner in ("a1", "e1", "a5", "e5"):
        result = count_tours(5, 5, start=corner)
        assert result.directed == 304 and result.undirected is None
    assert count_tours(5, 5, start="c3").directed == 64
    assert count_tours(5, 5, end="c3").directed == 64


def test_closed_6x6_up_to_symmetry_is_1245():
    result = count_symmetric(6, 6, closed=True)
    assert result.total == 9862 and result.classes == 1245
    assert result.fixed["identity"] == 9862
    assert sum(result.fixed.values()) == 8 * 1245


def test_the_3x3_ring_has_one_closed_tour():
    # The 3x3 board without its centre is a single 8-cycle of knight moves.
    result = count_tours(Board(3, 3, removed=["b2"]), closed=True)
    assert (result.undirected, result.directed) == (1, 2)
    assert count_tours(Board(3, 3, removed=["b2"])).directed == 2 * 8


# -------------------------------------------------------- an independent brute force
def brute(m, n, closed=False, start=None, end=None, removed=(), leaper=(1, 2)):
    """Directed tours by plain enumeration (tests/independent.py)."""
    squares = [(r, c) for r in range(m) for c in range(n) if (r, c) not in set(removed)]
    starts = [start] if start is not None else squares
    total = 0
    for s in starts:
        ends = tour_ends(m, n, s, closed=closed, leaper=leaper, removed=removed)
        total += sum(k for t, k in ends.items() if end is None or t == end)
    return total


SMALL = [(3, 4), (4, 3), (3, 5), (4, 4), (3, 6), (4, 5), (3, 7), (2, 5), (1, 1), (1, 2), (1, 3)]


@pytest.mark.parametrize(("m", "n"), SMALL)
def test_counts_match_brute_force(m, n):
    assert count_tours(m, n).directed == brute(m, n)
    # closed tours: the brute force counts directed cycles from every start
    v = m * n
    if v > 1:
        assert count_tours(m, n, closed=True).directed * v == brute(m, n, closed=True)


def test_fixed_ends_match_brute_force():
    rng = random.Random(7)
    for m, n in [(3, 4), (4, 5), (3, 7), (5, 5)]:
        squares = [(r, c) for r in range(m) for c in range(n)]
        for _ in range(4):
            s, t = rng.sample(squares, 2)
            by_end = tour_ends(m, n, s)
            assert count_tours(m, n, start=s).directed == sum(by_end.values())
            assert count_tours(m, n, start=s, end=t).directed == by_end.get(t, 0)
            closed_ends = tour_ends(m, n, s, closed=True)
            assert count_tours(m, n, closed=True, start=s, end=t).directed == closed_ends.get(t, 0)


def test_removed_squares_and_other_leapers_match_brute_force():
    cases = [
        (4, 4, ((0, 0),), (1, 2)),
        (4, 5, ((1, 1), (2, 3)), (1, 2)),
        (3, 6, ((0, 5),), (1, 2)),
        (4, 4, (), (1, 3)),
        (3, 4, (), (0, 1)),  # the wazir: a rook's step
        (3, 3, (), (1, 1)),  # the ferz: no tour (it keeps its colour)
    ]
    for m, n, removed, leaper in cases:
        board = Board(m, n, removed=removed, leaper=leaper)
        assert count_tours(board).directed == brute(m, n, removed=removed, leaper=leaper), board
        v = board.num_squares
        assert count_tours(board, closed=True).directed * v == brute(
            m, n, closed=True, removed=removed, leaper=leaper
        )


def test_knuth_convention_leaves_out_closable_open_tours():
    for m, n in [(3, 4), (4, 5), (3, 7), (4, 6)]:
        closable = 0
        for s in [(r, c) for r in range(m) for c in range(n)]:
            for t, k in tour_ends(m, n, s).items():
                if t in knight_moves(m, n, *s):
                    closable += k
        oeis, knuth = count_tours(m, n), count_tours(m, n, convention="knuth")
        assert knuth.directed == oeis.directed - closable
        s = (0, 0)
        ends = tour_ends(m, n, s)
        near = set(knight_moves(m, n, *s))
        want = sum(k for t, k in ends.items() if t not in near)
        assert count_tours(m, n, start=s, convention="knuth").directed == want


# ------------------------------------------------------------- C == Python reference
@needs_kernel
def test_compiled_kernel_equals_python_reference():
    rng = random.Random(11)
    boards = [
        Board(3, 4),
        Board(4, 5),
        Board(3, 10),
        Board(3, 8),
        Board(4, 6),
        Board(5, 5, removed=["c3"]),
        Board(4, 6, removed=["a1", "f4"]),
        Board(4, 5, leaper=(1, 3)),
    ]
    for board in boards:
        for closed in (False, True):
            squares = board.squares()
            requests = [{}, {"start": rng.choice(squares)}]
            s, t = rng.sample(squares, 2)
            requests.append({"start": s, "end": t})
            for req in requests:
                c = count_tours(board, closed=closed, engine="c", **req)
                py = count_tours(board, closed=closed, engine="python", **req)
                assert (c.directed, c.undirected) == (py.directed, py.undirected), (board, req)
                assert c.stats.get("engine", "c") == "c"
                assert py.stats.get("engine", "python") == "python"


@needs_kernel
def test_counts_beyond_64_and_128_bits_stay_exact():
    # 3 x 60 closed: over 2^64, so the kernel starts again with 128-bit counts;
    # 3 x 80 open: over 2^128, so the kernel counts modulo primes below 2^62 and puts the
    # residues together (Chinese remainder theorem), checked against the Python engine's
    # unbounded integers.
    big = count_tours(3, 60, closed=True)
    assert big.undirected > 2**64 and big.stats["counts"] == "128-bit"
    assert big.undirected == count_tours(3, 60, closed=True, engine="python").undirected
    huge = count_tours(3, 80)
    assert huge.directed > 2**128 and huge.stats["engine"] == "c"
    assert huge.stats["counts"].startswith("modulo ")
    assert huge.directed == count_tours(3, 80, engine="python").directed
    assert count_tours(3, 80, engine="c").directed == huge.directed


# -------------------------------------------------------------------- enumeration
def test_enumeration_lists_every_tour_once_and_valid():
    for m, n, closed in [(3, 4, False), (5, 6, True), (3, 10, True), (4, 5, False)]:
        tours = list(enumerate_tours(m, n, closed=closed))
        expected = count_tours(m, n, closed=closed)
        assert len(tours) == (expected.undirected if closed else expected.directed)
        orders = {tuple(t.order.tolist()) for t in tours}
        assert len(orders) == len(tours)
        for t in tours:
            assert tour_defect(m, n, t.squares(), closed=closed) is None


def test_enumeration_with_ends_and_limit():
    tours = list(enumerate_tours(5, 5, start="a1", end="e5"))
    assert len(tours) == count_tours(5, 5, start="a1", end="e5").directed == 56
    for t in tours:
        assert tour_defect(5, 5, t.squares(), start=(0, 0), end=(4, 4)) is None
    assert len(list(enumerate_tours(6, 6, closed=True, limit=3))) == 3
    assert list(enumerate_tours(3, 8, closed=True)) == []


# ----------------------------------------------------------------------- symmetry
def _edges(order, closed):
    pairs = list(itertools.pairwise(order))
    if closed:
        pairs.append((order[-1], order[0]))
    return frozenset(frozenset(p) for p in pairs)


@pytest.mark.parametrize(("m", "n", "closed"), [(5, 6, True), (3, 4, False), (4, 5, False)])
def test_fixed_counts_match_enumeration(m, n, closed):
    board = Board(m, n)
    tours = list(enumerate_tours(board, closed=closed))
    sets = {_edges(t.order.tolist(), closed) for t in tours}  # undirected tours
    result = count_symmetric(board, closed=closed)
    assert result.total == len(sets)
    for name, perm in board.symmetries().items():
        mapped = sum(
            1 for e in sets if frozenset(frozenset(int(perm[x]) for x in p) for p in e) == e
        )
        assert result.fixed[name] == mapped, name

    def image(e, perm):
        return tuple(sorted(tuple(sorted(int(perm[x]) for x in p)) for p in e))

    classes = {min(image(e, perm) for perm in board.symmetries().values()) for e in sets}
    assert result.classes == len(classes)


def test_5x5_open_tours_up_to_symmetry():
    result = count_symmetric(5, 5)
    assert result.total == 864
    assert sum(result.fixed.values()) == 8 * result.classes


# ---------------------------------------------------------------------- API & CLI
def test_bad_input():
    with pytest.raises(InvalidSquareError):
        count_tours(5, 5, start="f6")
    with pytest.raises(InvalidSquareError):
        count_tours(5, 5, start="a1", end="a1")
    with pytest.raises(InvalidOptionError):
        count_tours(5, 5, convention="euler")
    with pytest.raises(InvalidOptionError):
        count_tours(5, 5, closed=True, convention="knuth")


def test_budgets_stop_the_count_cleanly(capsys):
    with pytest.raises(SearchAbortedError):
        count_tours(6, 8, closed=True, timeout=0).require_count()
    with pytest.raises(SearchAbortedError):
        count_tours(6, 6, closed=True, engine="python", timeout=0).require_count()
    if kernel_available():
        with pytest.raises(SearchAbortedError):
            count_tours(6, 6, closed=True, memory=1000).require_count()
    with pytest.raises(SearchAbortedError, match="memory"):
        count_tours(6, 6, closed=True, engine="python", memory=10**6).require_count()
    assert count_tours(6, 8, closed=True, timeout=0).status.name == "ABORTED"  # never raises
    assert main(["count", "6", "8", "--closed", "--timeout", "0"]) == 3
    assert "timeout" in capsys.readouterr().err


def test_count_cli_json(capsys):
    assert main(["count", "5", "5", "--start", "a1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {
        "rows",
        "cols",
        "closed",
        "start",
        "end",
        "directed",
        "undirected",
        "seconds",
    }
    assert (data["directed"], data["undirected"], data["start"]) == (304, None, "a1")
    assert main(["count", "6", "6", "--closed", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["directed"], data["undirected"], data["closed"]) == (19724, 9862, True)


def test_count_cli_list_and_symmetry(capsys):
    assert main(["count", "3", "4", "--list", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("open tours on 3x4: 16 directed, 8 undirected")
    assert len(lines) == 6
    for line in lines[1:]:
        squares = [Board(3, 4).parse_square(x) for x in line.split()]
        assert tour_defect(3, 4, squares) is None
    assert main(["count", "6", "6", "--closed", "--symmetry", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["symmetry"]["classes"] == 1245
    assert main(["count", "3", "8", "--closed"]) == 1
    capsys.readouterr()
    assert main(["count", "5", "5", "--start", "z9"]) == 2
    assert main(["count", "5", "5", "--start", "a1", "--symmetry"]) == 2


@needs_kernel
@pytest.mark.slow
def test_open_6x6_agrees_with_a165134():
    assert count_tours(6, 6).directed == 6_637_920


@pytest.mark.slow
def test_enumerating_every_closed_6x6_tour_gives_9862():
    tours = list(enumerate_tours(6, 6, closed=True))
    assert len(tours) == 9862
    assert len({_edges(t.order.tolist(), True) for t in tours}) == 9862
