"""Uniform random tours (issue 15, part 5): ``sample_tours`` and ``knightgraph sample``.

Uniformity is tested with chi-square tests against an independent exhaustive
enumeration written here (plain depth-first search, no knightgraph code), whose counts
are checked against the literature first: 8 undirected open tours of 3x4 (OEIS A169696,
so 16 directed) and 8 closed tours of 5x6 (OEIS A175855).  Every tour drawn is checked
with ``validate_tour`` and with the independent checker.  Everything is seeded.
"""

from __future__ import annotations

import functools
import json
from collections import Counter

import pytest
from independent import knight_moves, tour_defect

from knightgraph import (
    Board,
    BoardTooLargeError,
    InvalidOptionError,
    Status,
    count_tours,
    sample_tours,
    validate_tour,
)
from knightgraph.cli import main

# Upper 0.1 % points of the chi-square distribution (tables), by degrees of freedom.
CHI2_999 = {1: 10.828, 3: 16.266, 7: 24.322, 15: 37.697, 55: 93.168}


@functools.cache
def all_tours(m, n, closed=False, start=None, end=None):
    """Every tour as a tuple of (r, c): open tours as directed paths; closed ones as
    directed tours from ``start`` (default (0, 0)), both directions.  Depth-first search
    with two sound cuts: every unvisited square keeps two possible neighbours (the head,
    the other unvisited squares, and for a closed tour the first square), except the one
    an open tour may end on; and the unvisited squares stay connected."""
    squares = [(r, c) for r in range(m) for c in range(n)]
    nbr = {sq: set(knight_moves(m, n, *sq)) for sq in squares}
    out = []

    def alive(path, free):
        ones = 0
        for x in free:
            links = len(nbr[x] & free) + (path[-1] in nbr[x]) + (closed and path[0] in nbr[x])
            if links < 2:
                if links == 0 or closed or (end is not None and x != end):
                    return False
                ones += 1
        if ones > 1:
            return False
        first = next(iter(free))
        seen, stack = {first}, [first]
        while stack:
            for x in nbr[stack.pop()] & free:
                if x not in seen:
                    seen.add(x)
                    stack.append(x)
        return len(seen) == len(free)

    def go(path, free):
        if not free:
            if closed and path[0] not in nbr[path[-1]]:
                return
            if end is not None and path[-1] != end:
                return
            out.append(tuple(path))
            return
        for x in sorted(nbr[path[-1]] & free):
            rest = free - {x}
            path.append(x)
            if not rest or alive(path, rest):
                go(path, rest)
            path.pop()

    firsts = [start if start is not None else (0, 0)] if closed or start else squares
    for first in firsts:
        go([first], set(squares) - {first})
    return out


def check_all(result, m, n, closed, start=None, end=None):
    for tour in result.tours:
        squares = tour.squares()
        validate_tour(squares, m, n, closed=closed)
        assert tour_defect(m, n, squares, closed=closed, start=start, end=end) is None


def chi_square(drawn, categories):
    expected = len(drawn) / len(categories)
    tally = Counter(drawn)
    assert set(tally) <= set(categories)
    return sum((tally.get(c, 0) - expected) ** 2 / expected for c in categories)


def test_the_independent_enumeration_agrees_with_the_literature():
    assert len(all_tours(3, 4)) == 16  # A169696: 8 undirected open tours of 3x4
    closed = all_tours(5, 6, closed=True)
    assert len({frozenset(frozenset(p) for p in _moves(t)) for t in closed}) == 8  # A175855
    assert len(closed) == 16  # from a1, both directions


def _moves(tour):
    return [(tour[i], tour[(i + 1) % len(tour)]) for i in range(len(tour))]


def test_3x4_open_tours_are_uniform():
    tours = all_tours(3, 4)
    result = sample_tours(3, 4, k=3200, seed=15)
    assert result.status is Status.FOUND and result.directed == 16 == len(tours)
    check_all(result, 3, 4, False)
    drawn = [tuple(t.squares()) for t in result.tours]
    assert set(drawn) == set(tours)
    assert chi_square(drawn, tours) < CHI2_999[15]


def test_5x6_closed_tours_are_uniform_in_cycle_and_direction():
    tours = all_tours(5, 6, closed=True)
    result = sample_tours(5, 6, k=1600, closed=True, seed=4)
    assert result.directed == 16 and len(result.tours) == 1600
    check_all(result, 5, 6, True)
    drawn = [tuple(t.squares()) for t in result.tours]
    assert all(t[0] == (0, 0) for t in drawn)  # rooted at a1 without --start
    assert chi_square(drawn, tours) < CHI2_999[15]


@pytest.mark.parametrize(
    ("m", "n", "closed", "start", "end", "dof"),
    [
        (3, 4, False, (0, 0), None, 1),  # 2 tours from a1
        (3, 4, False, None, (1, 0), 3),  # 4 tours ending on a2
        (5, 6, True, (2, 2), None, 15),  # closed, from c3: 16
        (5, 6, True, None, (2, 2), 15),  # closed, ending on c3
        (5, 6, True, (2, 2), (0, 1), 3),  # closed, c3 to b1 (one move apart)
    ],
)
def test_fixed_ends_are_uniform(m, n, closed, start, end, dof):
    if closed and start is None:
        # closed tours ending on `end`: listed from `end`, then rotated
        tours = [t[1:] + t[:1] for t in all_tours(m, n, closed=True, start=end)]
    else:
        tours = all_tours(m, n, closed=closed, start=start, end=end)
        if closed and end is not None:
            tours = [t for t in tours if t[-1] == end]
    assert len(tours) == dof + 1
    names = Board(m, n).name
    result = sample_tours(
        m,
        n,
        k=200 * len(tours),
        closed=closed,
        start=None if start is None else names(start),
        end=None if end is None else names(end),
        seed=7,
    )
    assert result.directed == len(tours)
    check_all(result, m, n, closed, start, end)
    drawn = [tuple(t.squares()) for t in result.tours]
    assert chi_square(drawn, tours) < CHI2_999[dof]


def test_5x5_from_a1_to_e5_is_uniform():
    tours = all_tours(5, 5, start=(0, 0), end=(4, 4))
    assert len(tours) == 56
    result = sample_tours(5, 5, k=56 * 150, start="a1", end="e5", seed=3)
    check_all(result, 5, 5, False, (0, 0), (4, 4))
    assert chi_square([tuple(t.squares()) for t in result.tours], tours) < CHI2_999[55]


def test_the_same_seed_gives_the_same_tours():
    a = sample_tours(5, 6, k=5, closed=True, seed=9)
    b = sample_tours(5, 6, k=5, closed=True, seed=9)
    assert [t.algebraic() for t in a.tours] == [t.algebraic() for t in b.tours]


@pytest.mark.slow
def test_6x6_closed_count_agrees_with_the_oeis():
    result = sample_tours(6, 6, k=20, closed=True, seed=0)
    assert result.directed == 2 * 9862  # A001230
    check_all(result, 6, 6, True)


def test_counts_agree_with_count_tours_and_the_oeis():
    assert sample_tours(5, 5, k=1, start="a1", seed=0).directed == 304  # A165134 corner
    assert sample_tours(3, 10, k=1, closed=True, seed=0).directed == 2 * 16  # A070030
    assert sample_tours(5, 5, k=1, seed=0).directed == count_tours(5, 5).directed == 1728


def test_no_tour_is_proven_absent():
    result = sample_tours(6, 6, k=3, leaper=(1, 3))  # camel: disconnected, any size
    assert result.status is Status.PROVEN_ABSENT and result.tours == []
    assert result.certificate.data["clause"] == "disconnected"
    assert sample_tours(4, 4, k=1).status is Status.PROVEN_ABSENT  # no cheap argument
    assert sample_tours(4, 4, k=1).certificate is None
    assert sample_tours(50, 51, k=1, leaper=(1, 3)).status is Status.PROVEN_ABSENT


def test_one_square():
    result = sample_tours(1, 1, k=2)
    assert [t.squares() for t in result.tours] == [[(0, 0)], [(0, 0)]]
    assert sample_tours(1, 1, k=1, closed=True).status is Status.PROVEN_ABSENT


def test_bad_input_and_boards_too_large():
    for k in (0, -1, True, 1.5, "3"):
        with pytest.raises(InvalidOptionError, match="invalid k"):
            sample_tours(5, 6, k=k)
    with pytest.raises(InvalidOptionError, match="invalid seed"):
        sample_tours(5, 6, k=1, seed="x")
    with pytest.raises(BoardTooLargeError, match="too large to sample"):
        sample_tours(8, 8, k=1)
    with pytest.raises(BoardTooLargeError, match="too large to sample"):
        sample_tours(7, 7, k=1)
    with pytest.raises(BoardTooLargeError, match="too large to sample"):
        sample_tours(1000, 1000, k=1, leaper=(1, 3))  # refused before any board-sized array


def test_budgets_abort_cleanly():
    result = sample_tours(6, 6, k=10, closed=True, timeout=0.05, seed=1)
    assert result.status is Status.ABORTED and "timeout" in result.reason
    assert result.stats["done"]["phase"] == "count"
    result = sample_tours(6, 6, k=10, closed=True, memory=10**6, seed=1)
    assert result.status is Status.ABORTED and "memory" in result.reason


def test_progress_takes_one_dict():
    seen = []
    sample_tours(3, 4, k=3, seed=1, progress=seen.append)
    assert all({"done", "total"} <= set(d) for d in seen)
    assert seen[-1]["done"] == seen[-1]["total"] == 3 + 12  # 12 steps (one a square), 3 tours
    assert [d["done"] for d in seen] == list(range(1, 16))


def test_cli_squares_and_json(capsys, tmp_path):
    assert main(["sample", "5", "6", "--closed", "-k", "3", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    board = Board(5, 6)
    for line in lines:
        squares = [board.parse_square(x) for x in line.split()]
        assert tour_defect(5, 6, squares, closed=True) is None
    assert main(["sample", "3", "4", "--start", "a1", "-k", "2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, list) and len(out) == 2
    for tour in out:
        assert tour["start"] == "a1" and tour["method"] == "sample"
        assert tour_defect(3, 4, tour["squares"], start=(0, 0)) is None
    path = tmp_path / "t.txt"
    assert main(["sample", "3", "4", "-k", "2", "--seed", "1", "-o", str(path)]) == 0
    assert len(path.read_text().splitlines()) == 2


def _exit_code(argv):
    try:
        return main(argv)
    except SystemExit as stop:  # argparse's own errors
        return stop.code


def test_cli_exit_codes(capsys, tmp_path):
    assert main(["sample", "4", "4", "-k", "1"]) == 1
    assert main(["sample", "6", "6", "--leaper", "1,3", "-k", "1"]) == 1
    assert "disconnected" in capsys.readouterr().err
    for argv in (
        ["sample", "5", "6"],  # -k missing
        ["sample", "5", "6", "-k", "0"],
        ["sample", "5", "6", "-k", "x"],
        ["sample", "8", "8", "-k", "1"],  # too large to sample
        ["sample", "5", "6", "-k", "1", "--start", "z9"],
        ["sample", "5", "6", "-k", "1", "--seed", "1.5"],
        ["sample", "5", "6", "-k", "1", "--timeout", "-1"],
        ["sample", "5", "6", "-k", "1", "-o", str(tmp_path / "no" / "t.txt")],
    ):
        assert _exit_code(argv) == 2, argv
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "no").exists()
    assert main(["sample", "6", "6", "--closed", "-k", "1", "--timeout", "0.05"]) == 3


def test_exact_integer_completions_agree_and_sample(monkeypatch):
    """Counts of 2**53 or more take the Python-integer path: forced here on a small board."""
    from knightgraph.counting import transitions as sampling

    monkeypatch.setattr(sampling, "_backward", lambda layers, final: None)
    result = sample_tours(3, 4, k=800, seed=5)
    assert result.directed == 16 and result.stats["counts"] == "python integers"
    check_all(result, 3, 4, False)
    assert chi_square([tuple(t.squares()) for t in result.tours], all_tours(3, 4)) < CHI2_999[15]
