"""The compiled kernels give exactly the answers of their plain-Python references."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from independent import first_tour, tour_defect

from knightgraph import Board, Status
from knightgraph.running.budget import Budget
from knightgraph.solvers import kernels as K
from knightgraph.solvers._dfs import Search, compiled_run
from knightgraph.solvers.backtracking import backtrack
from knightgraph.solvers.base import Problem
from knightgraph.solvers.warnsdorff import RULES, warnsdorff

compiled = pytest.mark.skipif(
    not K.kernels().compiled, reason="the C kernels were not built (no compiler at install)"
)


def python_kernels(monkeypatch):
    monkeypatch.setenv("KNIGHTGRAPH_KERNELS", "python")
    assert not K.kernels().compiled


@compiled
def test_compiled_kernels_are_in_use():
    assert K.kernels().compiled


@st.composite
def dfs_cases(draw):
    m, n = draw(st.sampled_from([(3, 4), (4, 5), (3, 5), (3, 6), (5, 4), (4, 4), (2, 6)]))
    board = Board(m, n)
    moves = draw(st.permutations(list(board.offsets)))
    closed = draw(st.booleans()) and (m * n) % 2 == 0
    start = (draw(st.integers(0, m - 1)), draw(st.integers(0, n - 1)))
    end = draw(st.none() | st.tuples(st.integers(0, m - 1), st.integers(0, n - 1)))
    if end == start:
        end = None
    return board, list(moves), closed, start, end


@given(dfs_cases())
def test_dfs_kernel_matches_the_python_search(case):
    board, moves, closed, start, end = case
    problem = Problem.make(board, closed, start, end)
    python = Search(problem, Budget(), moves, False, False, None)
    compiled_search = Search(problem, Budget(), moves, False, False, None)
    s = board.index(start)
    expected = python.run(s)
    assert compiled_run(compiled_search, s) == expected
    assert compiled_search.stats == python.stats
    if expected is not None:
        squares = [board.square(i) for i in expected]
        assert squares == first_tour(
            board.m, board.n, start, moves, end=None if end is None else end, closed=closed
        )
        assert tour_defect(board.m, board.n, squares, closed, start, end) is None


def test_dfs_python_kernel_counts_the_seed_000_table(monkeypatch):
    python_kernels(monkeypatch)
    res = backtrack(Board(6, 6), start="a1", moves="-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1")
    assert (res.stats["placed"], res.stats["tried"]) == (5421, 43230)


def test_dfs_kernel_resumes_across_budget_checks(monkeypatch):
    monkeypatch.setattr("knightgraph.solvers._dfs._COMPILED_CHUNK", 1000)
    res = backtrack(Board(7, 6), start="a1", moves="-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1")
    assert (res.stats["placed"], res.stats["tried"]) == (760_580, 6_084_476)
    stopped = backtrack(Board(7, 6), start="a1", limit=12_345)
    assert stopped.status is Status.ABORTED and stopped.stats["placed"] == 12_345


def _walk_result(monkeypatch, engine, board, **kw):
    if engine == "python":
        python_kernels(monkeypatch)
    else:
        monkeypatch.delenv("KNIGHTGRAPH_KERNELS", raising=False)
    res = warnsdorff(board, **kw)
    return res.status, (res.tour.squares() if res.tour else None), res.stats


@compiled
@pytest.mark.parametrize("rule", RULES)
def test_walk_kernel_matches_python(monkeypatch, rule):
    rng = random.Random(rule)
    for _ in range(6):
        side = rng.randint(5, 10)
        board = Board(side, side if rule == "squirrel" else rng.randint(5, 10))
        kw = {
            "rule": rule,
            "seed": rng.randrange(1000),
            "closed": rule == "roth" and board.area % 2 == 0 and rng.random() < 0.5,
            "start": (rng.randrange(board.m), rng.randrange(board.n)),
            "repair": rng.random() < 0.5,
            "attempts": 3,
        }
        assert _walk_result(monkeypatch, "c", board, **kw) == _walk_result(
            monkeypatch, "python", board, **kw
        )


def test_walk_python_kernel_finds_verified_tours(monkeypatch):
    python_kernels(monkeypatch)
    for rule in RULES:
        board = Board(8, 8)
        res = warnsdorff(board, start="a8" if rule == "squirrel" else "a1", rule=rule)
        assert res.found, (rule, res.reason)
        assert tour_defect(8, 8, res.tour.squares()) is None


def test_splitmix64_is_the_published_generator():
    state = np.array([1234567], dtype=np.uint64)
    # First outputs of SplitMix64 seeded with 1234567 (Steele, Lea and Flood 2014).
    assert [K.splitmix64(state) for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]
