"""Open tours of 4 x n between two squares of the outer ranks, at any length (issue 14).

Facts checked come from outside knightgraph's answers: every tour by
``validate_tour`` and the checker of ``tests/independent.py`` (the numpy one
of ``tests/test_stpath.py`` for a million files, the shared
``check_tour.py`` for the command line); the move structure the construction
rests on (outer squares only reach inner ones; each colour class of outer
squares only reaches the other colour's inner squares) is re-derived here
with the independent move generator.  Which pairs have a tour is known
independently: Schwenk's partition rules out inner ends, the colour count
rules out equal colours; every other pair of the outer ranks has one for
n >= 7 (found by whole-board SAT on every pair of 4 x 7 .. 4 x 14, see
docs/prescribed-ends.md), and here by the tours themselves.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import knightgraph as kg
from knightgraph.solvers.fourranks import four_rank_path
from tests.independent import knight_moves, tour_defect
from tests.test_stpath import colour_valid, order_defect

CHECKER = Path("/work/shared/tools/check_tour.py")


def outer_pairs(n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every ordered colour-valid pair with both ends on ranks 1 and 4."""
    cells = [(r, c) for r in (0, 3) for c in range(n)]
    return [(s, t) for s in cells for t in cells if colour_valid(4, n, s, t)]


def built(n: int, s: tuple[int, int], t: tuple[int, int]) -> list[tuple[int, int]]:
    """A tour through the API, checked twice; its squares."""
    res = kg.find_tour(4, n, start=s, end=t)
    assert res.status is kg.Status.FOUND, (n, s, t, res.reason)
    squares = [tuple(x) for x in res.tour.squares()]
    kg.validate_tour(squares, 4, n)
    assert tour_defect(4, n, squares, start=s, end=t) is None
    return squares


def test_outer_squares_reach_inner_squares_of_the_other_colour():
    """The split into two graphs, re-derived: outer -> inner, colour changes, and the
    only other moves join ranks 2 and 3 two files apart."""
    n = 12
    for r in range(4):
        for c in range(n):
            for x, y in knight_moves(4, n, r, c):
                assert (x + y) % 2 != (r + c) % 2
                if r in (0, 3):
                    assert x in (1, 2)
                elif x in (1, 2):
                    assert {r, x} == {1, 2} and abs(y - c) == 2


@pytest.mark.parametrize(
    ("n", "s", "t"),
    [
        (60, (0, 25), (3, 29)),  # both far from the short edges
        (60, (3, 40), (0, 14)),
        (60, (0, 30), (3, 30)),  # one file
        (61, (0, 20), (0, 41)),
        (200, (0, 50), (3, 150)),  # ay1 -> eu4
        (7, (0, 0), (0, 1)),
        (9, (3, 4), (0, 8)),
    ],
)
def test_far_ends_are_built(n, s, t):
    assert colour_valid(4, n, s, t)
    squares = built(n, s, t)
    steps = itertools.pairwise(squares)
    inner = sum(1 for u, v in steps if u[0] in (1, 2) and v[0] in (1, 2))
    assert inner == 1  # exactly one inner-inner move, as the counting requires


@pytest.mark.parametrize("n", [7, 8, 13])
def test_every_outer_pair_of_short_boards(n):
    for s, t in outer_pairs(n):
        order = four_rank_path(n, s, t)
        assert order_defect(4, n, order, s, t) is None, (n, s, t)


def test_four_files_and_long_ranks():
    """The transposed board (60 ranks, 4 files): a26 and d34, both far from the ends."""
    res = kg.find_tour(60, 4, start="a26", end="d34", method="divide")
    assert res.status is kg.Status.FOUND, res.reason
    squares = [tuple(x) for x in res.tour.squares()]
    kg.validate_tour(squares, 60, 4)
    assert tour_defect(60, 4, squares, start=(25, 0), end=(33, 3)) is None


def test_the_mirrored_layout(monkeypatch):
    """With every template of the first layout refused, the mirrored one (inner ends near
    the last file) gives the tour, read back onto the board."""
    from knightgraph.solvers import fourranks

    real, refused = fourranks._template.__wrapped__, []

    def template(m, s, t, *rest):
        if len(refused) < len(fourranks.INNER_PAIRS):
            refused.append((s, t))
            return None
        return real(m, s, t, *rest)

    monkeypatch.setattr(fourranks, "_template", template)
    for s, t in [((0, 300), (3, 700)), ((3, 10), (0, 990))]:
        refused.clear()
        order = four_rank_path(1000, s, t)
        assert order_defect(4, 1000, order, s, t) is None
        assert len(refused) == len(fourranks.INNER_PAIRS)


def test_the_named_pair_of_4_by_250000_exists():
    res = kg.tour_exists(4, 250_000, start="fuml1", end="gakh4")
    assert res.status is kg.Status.FOUND, res.reason


def test_not_this_construction():
    assert four_rank_path(60, (1, 30), (0, 35)) is None  # an inner end: Schwenk
    assert four_rank_path(60, (0, 30), (0, 32)) is None  # same colour
    assert four_rank_path(6, (0, 0), (0, 1)) is None  # shorter than 7


# ------------------------------------------------------------------ slow
@pytest.mark.slow
def test_every_outer_pair_of_4_by_60():
    """All 7,200 ordered colour-valid pairs of the outer ranks, through the API."""
    for s, t in outer_pairs(60):
        built(60, s, t)


@pytest.mark.slow
def test_a_seeded_sample_of_4_by_1000():
    rng = random.Random(1414)
    pairs = outer_pairs(1000)
    for s, t in rng.sample(pairs, 200):
        built(1000, s, t)


@pytest.mark.slow
def test_the_named_pair_of_4_by_250000_on_the_command_line(tmp_path):
    out = tmp_path / "t.json"
    cmd = [sys.executable, "-m", "knightgraph", "tour", "4", "250000"]
    cmd += ["--start", "fuml1", "--end", "gakh4", "--format", "json", "-o", str(out)]
    assert subprocess.run(cmd, check=False).returncode == 0
    exists = [sys.executable, "-m", "knightgraph", "exists", "4", "250000"]
    exists += ["--start", "fuml1", "--end", "gakh4"]
    assert subprocess.run(exists, check=False, capture_output=True).returncode == 0
    if CHECKER.exists():
        with out.open() as fh:
            check = [sys.executable, str(CHECKER), "--start", "fuml1", "--end", "gakh4"]
            done = subprocess.run(check, stdin=fh, capture_output=True, text=True, check=False)
        assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout
    else:  # pragma: no cover - the shared checker lives outside the repository
        board = kg.Board(4, 250_000)
        s, t = board.parse_square("fuml1"), board.parse_square("gakh4")
        order = kg.find_tour(4, 250_000, start=s, end=t).tour.order
        assert order_defect(4, 250_000, order, s, t) is None


@pytest.mark.slow
def test_a_million_files(tmp_path):
    out = tmp_path / "t.npy"
    cmd = [sys.executable, "-m", "knightgraph", "tour", "4", "1000000"]
    cmd += ["--start", "aaaa1", "--end", "bbbc4", "--format", "npy", "-o", str(out)]
    assert subprocess.run(cmd, check=False).returncode == 0
    board = kg.Board(4, 1_000_000)
    s, t = board.parse_square("aaaa1"), board.parse_square("bbbc4")
    assert min(s[1], t[1], 999_999 - s[1], 999_999 - t[1]) > 10_000  # far from both edges
    assert order_defect(4, 1_000_000, np.load(out), s, t) is None
