"""Budgets that hold (issue 12): the mechanisms that stop work at a timeout, a work limit or a
memory budget, and the sizes refused before any work.

No test here measures seconds (``benchmarks/bench_timeouts.py`` does): a timeout of 0,
a clock that the test moves, or a deadline already past makes every stop deterministic.
"""

from __future__ import annotations

import pytest
from independent import tour_defect

from knightgraph import Board, Status, count_tours, find_tour
from knightgraph import counting as kc
from knightgraph.cli import main
from knightgraph.counting import (
    CountAbortedError,
    count_symmetric,
    enumerate_tours,
    kernel_available,
)
from knightgraph.counting import compiled as kc_compiled
from knightgraph.counting import plan as kc_plan
from knightgraph.counting import python_engine as kc_python
from knightgraph.exceptions import (
    BoardTooLargeError,
    InvalidBoardError,
    InvalidOptionError,
    KnightGraphError,
    SearchAbortedError,
)
from knightgraph.explore import end_map, existence_table, start_map, sweep
from knightgraph.running import budget as kc_budget
from knightgraph.running.budget import Budget
from knightgraph.solvers.clauses import cnf_bytes
from knightgraph.solvers.cnf import TourCNF
from knightgraph.solvers.incremental import FIRST_SLICE, SLICE_SECONDS, solving

needs_kernel = pytest.mark.skipif(
    not kernel_available(), reason="the C counting kernel is not built"
)
ENGINES = ["python", pytest.param("c", marks=needs_kernel)]
HUGE = 99999999999999999999


class FakeClock:
    """A monotonic clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


# ------------------------------------------------------------------------- SAT
def test_sat_encoding_reads_the_clock():
    """A budget already spent stops the encoding before the solver sees a clause."""
    with (
        pytest.raises(SearchAbortedError, match="encoding stopped at the timeout of 0 s"),
        solving(Board(30, 30), budget=Budget(timeout=0)),
    ):
        pass


def test_sat_timeout_of_zero_is_aborted_not_a_crash():
    res = find_tour(30, 30, method="sat", timeout=0)
    assert res.status is Status.ABORTED and "timeout" in res.reason
    assert res.tour is None and res.certificate is None


def test_sat_limit_counts_conflicts_and_is_never_exceeded():
    """A refutation needs thousands of conflicts; a limit of 50 stops at 50 at most."""
    res = find_tour(4, 30, closed=True, method="sat", shortcuts=False, limit=50)
    assert res.status is Status.ABORTED and "work limit of 50" in res.reason
    assert 0 < res.stats["conflicts"] <= 50


def test_sat_slices_follow_the_limit_and_the_pace():
    with solving(Board(5, 6), closed=True) as cnf:
        assert cnf._slice(Budget(limit=10), 3) == 7
        assert cnf._slice(Budget(limit=10), 10) == 1  # never 0: the budget check stops first
        assert cnf._slice(Budget(timeout=100.0), 0) == FIRST_SLICE  # the pace is not known yet
        cnf._pace = 1e-3  # a millisecond per conflict
        assert cnf._slice(Budget(timeout=100.0), 0) == int(SLICE_SECONDS / 1e-3)
        assert cnf._slice(Budget(timeout=0.02), 0) <= 10  # at most half the time left


class InstantTimer:
    """threading.Timer that fires as soon as it is started (no race with the solver)."""

    def __init__(self, seconds: float, action) -> None:
        self.action = action

    def start(self) -> None:
        self.action()

    def cancel(self) -> None:
        pass


def test_interruptible_solvers_are_interrupted_at_the_deadline(monkeypatch):
    """MiniSat can be interrupted: the timer set for the deadline interrupts the call, which
    then answers "unknown" (None); the interrupt is cleared for the next call."""
    import threading

    with solving(Board(30, 30), closed=True, solver="minisat22") as cnf:
        with monkeypatch.context() as patch:
            patch.setattr(threading, "Timer", InstantTimer)
            assert cnf._solve_limited([], Budget(timeout=60.0)) is None
        assert cnf._solve_once([], None) is True


def test_hub_counter_means_exactly_two():
    """The hub of a large open board: at most two (a sequential counter) and at least one;
    with every square of degree two the parity makes it exactly two.  The counter alone
    allows one or two true literals, never zero or three."""
    from pysat.solvers import Solver

    from knightgraph.solvers.clauses import hub_clauses

    cnf = TourCNF(Board(3, 4))  # only for its variable count; 66 fresh literals follow
    literals = list(range(cnf.top + 1, cnf.top + 67))
    cnf.top += 66
    clauses = cnf._counted(hub_clauses(literals, cnf.top))
    assert cnf.auxiliary
    with Solver(name="minisat22", bootstrap_with=clauses) as oracle:
        for chosen in [(), (0,), (65,), (3, 40), (0, 65), (1, 2, 3), (0, 30, 65)]:
            assumptions = [x if i in chosen else -x for i, x in enumerate(literals)]
            assert oracle.solve(assumptions=assumptions) == (1 <= len(chosen) <= 2), chosen


def test_large_open_board_by_sat_is_a_tour():
    """An open board of more than 64 squares uses the hub counter; the tour is checked
    independently."""
    res = find_tour(9, 9, method="sat")
    assert res.status is Status.FOUND
    assert tour_defect(9, 9, res.tour.squares()) is None


def test_cnf_memory_is_estimated_before_anything_is_built():
    assert cnf_bytes(Board(8, 8), closed=True) < cnf_bytes(
        Board(8, 8), closed=True, keep_clauses=True
    )
    with pytest.raises(BoardTooLargeError):
        find_tour(10**5, 10**5, method="sat", limit=10)


def test_clauses_are_kept_only_when_asked():
    with (
        solving(Board(5, 6), closed=True) as plain,
        solving(Board(5, 6), closed=True, proof=True) as proving,
    ):
        small, logged = plain.cnf, proving.cnf
        assert small.clauses == [] and small.num_clauses > 0
        assert len(logged.clauses) == logged.num_clauses == small.num_clauses


# -------------------------------------------------------------------- counting
@pytest.mark.parametrize("engine", ENGINES)
def test_count_timeout_of_zero_raises_the_budget_error_with_counters(engine):
    result = count_tours(6, 6, closed=True, timeout=0, engine=engine)  # ABORTED, as searches
    assert result.aborted and result.directed is None and result.status.name == "ABORTED"
    with pytest.raises(CountAbortedError) as caught:
        result.require_count()
    err = caught.value
    assert isinstance(err, SearchAbortedError) and isinstance(err, KnightGraphError)
    assert err.done["phase"] == "graph" and err.done["steps"] == 36
    assert "counting stopped at the timeout" in str(err)


def _layers(board: Board) -> tuple[list, list[int]]:
    """The plan of a closed count of ``board`` and the size of the layer each step starts from."""
    graph = kc_plan.build_graph(board, False)
    steps = kc_plan.make_plan(graph, None, frozenset(), frozenset())
    sizes: list[int] = []
    kc_python.run_python(steps, progress=lambda p: sizes.append(p["states"]))
    return steps, [1, *sizes[:-1]]


def test_python_engine_reads_the_clock_inside_a_step(monkeypatch):
    """With a clock that moves a second per reading, a deadline a few readings away passes in
    the middle of a step: the engine stops there, with the states of that step it handled."""
    steps, layers = _layers(Board(6, 6))
    big = next(i for i, size in enumerate(layers) if size > 3 * kc.CLOCK_EVERY)
    # The engine reads the clock every CLOCK_EVERY states of a layer: 1 + (size - 1) // CLOCK_EVERY
    # readings a step.  The deadline falls on the second reading of step `big`.
    readings = sum(1 + (size - 1) // kc.CLOCK_EVERY for size in layers[:big])
    monkeypatch.setattr(kc_budget, "_clock", FakeClock())
    with pytest.raises(CountAbortedError) as caught:
        kc_python.run_python(steps, budget=Budget(readings + 2.0, started=0.0))
    done = caught.value.done
    assert done["step"] == big + 1 and done["engine"] == "python"
    assert done["states_done"] == kc.CLOCK_EVERY < done["states"] == layers[big]


@needs_kernel
def test_compiled_kernel_stops_inside_a_step():
    """The deadline is handed to the kernel, which reads the clock inside the step: a
    deadline already past stops the very first state of a step of thousands."""
    board = Board(6, 6)
    steps, layers = _layers(board)
    width, plan = kc_compiled.slot_plan(kc_plan.build_graph(board, False), steps)
    big = next(i for i, size in enumerate(layers) if size > 1000)
    lib = kc_compiled.compiled_kernel().lib
    ctx = lib.kgc_new(width, 2**30, 0)
    try:
        for step in plan[: big + 1]:
            dest, vleaves, vneed, cands, forced, leave, need, last, _ = step
            args = (
                dest,
                vleaves,
                vneed,
                cands,
                forced,
                len(cands),
                leave,
                len(leave),
                need,
                len(need),
                int(last),
            )
            if step is plan[big]:
                lib.kgc_set_deadline(ctx, 0.0)
                assert lib.kgc_step(ctx, *args) == kc_compiled._STOPPED
                assert lib.kgc_done(ctx) == 0
            else:
                assert lib.kgc_step(ctx, *args) > 0
    finally:
        lib.kgc_free(ctx)


@needs_kernel
def test_compiled_kernel_with_a_past_deadline_raises_the_budget_error():
    stats: dict = {}
    board = Board(6, 6)
    graph = kc_plan.build_graph(board, False)
    width, plan = kc_compiled.slot_plan(
        graph, kc_plan.make_plan(graph, None, frozenset(), frozenset())
    )
    with pytest.raises(CountAbortedError) as caught:
        kc_compiled.run_compiled(
            kc_compiled.compiled_kernel(),
            width,
            plan,
            memory=2**30,
            budget=Budget(0.0, started=0.0),
            progress=None,
            stats=stats,
        )
    assert caught.value.done["engine"] == "c" and caught.value.done["step"] == 1


def test_plan_reads_the_clock(monkeypatch):
    """The plan reads the clock every 64 squares (readings 1, 2, ...: the second stops it)."""
    graph = kc_plan.build_graph(Board(8, 20), True)
    monkeypatch.setattr(kc_budget, "_clock", FakeClock())
    with pytest.raises(CountAbortedError) as caught:
        kc_plan.make_plan(graph, None, frozenset(), frozenset(), budget=Budget(2.0, started=0.0))
    assert caught.value.done["phase"] == "plan" and caught.value.done["step"] == 64


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("memory", [1, 1000, 100_000])
def test_count_memory_budget_stops_with_the_budget_error(engine, memory):
    result = count_tours(6, 6, closed=True, memory=memory, engine=engine)
    assert result.aborted
    with pytest.raises(CountAbortedError, match=f"memory limit of {memory:,} bytes") as caught:
        result.require_count()
    assert caught.value.done["engine"] == engine


@pytest.mark.parametrize(
    "kwargs",
    [
        {"memory": 0},
        {"memory": -5},
        {"memory": True},
        {"memory": 1.5},
        {"timeout": -1},
        {"timeout": float("nan")},
        {"timeout": float("inf")},
        {"timeout": "1"},
        {"engine": "fortran"},
    ],
)
def test_count_budget_arguments_are_checked_first(kwargs):
    value = next(iter(kwargs.values()))
    with pytest.raises(InvalidOptionError) as caught:
        count_tours(HUGE, 8, **kwargs)  # checked before the size
    assert repr(value) in str(caught.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: count_tours(HUGE, 8),
        lambda: count_tours(10**6, 10**6, closed=True, timeout=1),
        lambda: count_symmetric(10**7, 10**7),
        lambda: enumerate_tours(10**12, 8),  # at the call, not at the first tour
    ],
)
def test_counting_refuses_boards_it_cannot_plan(call):
    with pytest.raises(BoardTooLargeError, match="needs about"):
        call()


def test_count_symmetric_timeout_bounds_all_symmetries():
    result = count_symmetric(6, 6, closed=True, timeout=0)
    assert result.aborted and result.classes is None and "timeout" in result.reason


def test_enumerate_tours_has_no_recursion_limit():
    """A tour of 1,600 squares is deeper than Python's recursion limit."""
    tour = next(enumerate_tours(40, 40))
    assert tour_defect(40, 40, tour.squares()) is None


def test_enumerate_tours_agrees_with_counting():
    assert sum(1 for _ in enumerate_tours(5, 5)) == count_tours(5, 5).directed
    assert (
        sum(1 for _ in enumerate_tours(3, 8, start="a1")) == count_tours(3, 8, start="a1").directed
    )
    assert sum(1 for _ in enumerate_tours(5, 6, closed=True)) == 8


# ------------------------------------------------------------------ explore
def test_map_count_gets_what_the_search_left():
    """A timeout of 0 leaves nothing for the counts: the map is still made, counts None."""
    result = start_map(5, 5, counts=True, timeout=0)
    assert result.counts is not None
    assert all(x is None for x in result.counts.flat)


def test_map_total_timeout_leaves_squares_unknown():
    result = end_map(5, 5, start="a1", counts=False, total_timeout=0)
    assert len(result.unknown) == 24 and not result.ok.any()
    assert all("not started" in r.reason for r in result.evidence.values())


def test_sweep_total_timeout():
    result = sweep(6, 6, method="warnsdorff", total_timeout=0)
    assert result.statuses["ABORTED"] == 36 and result.failures == 36


def test_table_total_timeout_gives_question_marks():
    table = existence_table(3, 2, total_timeout=0)
    assert table.codes == [["?", "?"], ["?", "?"], ["?", "?"]]
    assert table.disagreements == []


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: sweep(HUGE, 8), BoardTooLargeError),
        (lambda: sweep(10**6, 10**6), BoardTooLargeError),
        (lambda: existence_table(5, HUGE), BoardTooLargeError),
        (lambda: existence_table(HUGE), BoardTooLargeError),
        (lambda: existence_table(5, 0), InvalidBoardError),
        (lambda: start_map(HUGE, 8), BoardTooLargeError),
        (lambda: start_map(1000, 1000), BoardTooLargeError),
        (lambda: end_map(10**5, 10**5, start="a1"), BoardTooLargeError),
        (lambda: sweep(5, 5, timeout=-1), InvalidOptionError),
        (lambda: start_map(5, 5, total_timeout=float("nan")), InvalidOptionError),
    ],
)
def test_explore_refuses_up_front(call, error):
    with pytest.raises(error):
        call()


# ------------------------------------------------------------ command line
def test_cli_count_timeout_exits_3_with_what_was_done(capsys):
    assert main(["count", "6", "6", "--closed", "--timeout", "0"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "counting stopped at the timeout" in err[0]


def test_cli_sat_limit_exits_3(capsys):
    code = main(
        ["tour", "4", "30", "--closed", "--method", "sat", "--limit", "0", "--format", "json"]
    )
    assert code == 3


@pytest.mark.parametrize("m", [7, 8])
def test_counts_are_unchanged_by_the_budget_checks(m):
    """A generous timeout changes nothing: the same counts as without one."""
    assert (
        count_tours(5, m, closed=True, timeout=600).undirected
        == count_tours(5, m, closed=True).undirected
    )


def test_budget_errors_are_in_the_tree():
    assert issubclass(CountAbortedError, SearchAbortedError)
    assert issubclass(BoardTooLargeError, KnightGraphError)
