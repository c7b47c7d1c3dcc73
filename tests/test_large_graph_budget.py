"""Timeouts on large graphs (issue 29): honoured within a fraction of a second.

On graphs beyond ``GRAPH_PROOF_LIMIT`` vertices the SAT session runs in a child process
that the parent kills at the timeout (no solver call and no release of a large formula
can outlast it); the reading of a networkx graph and the breadth-first search of the
cheap certificates read the clock every ``READ_CHUNK`` vertices.  No timed assertion
on speed here: the bounds below are several times what the behaviour needs, and the
speed itself is measured in ``benchmarks/bench_graphs.py``.
"""

from __future__ import annotations

import multiprocessing
import time

import networkx as nx
import pytest
from test_hamiltonian import answer_accepted, generalized_petersen, is_cycle

import knightgraph as kg
from knightgraph.boards.graphboard import READ_CHUNK, GraphBoard
from knightgraph.exceptions import InternalError, SearchAbortedError
from knightgraph.running.budget import Budget
from knightgraph.running.child import in_child
from knightgraph.solvers.problem import Problem, graph_obstruction
from knightgraph.solvers.sat import GRAPH_PROOF_LIMIT, LARGE_GRAPH_SOLVER


def test_a_large_graph_is_solved_in_a_child_process_and_checked() -> None:
    graph = nx.random_regular_graph(3, 3 * GRAPH_PROOF_LIMIT, seed=5)
    result = kg.find_tour(graph, closed=True, timeout=120)
    assert result.status is kg.Status.FOUND
    assert is_cycle(graph, result.tour.nodes())
    assert answer_accepted(graph, result, closed=True).startswith("tour:")
    assert not multiprocessing.active_children()


def test_without_a_timeout_the_session_stays_in_this_process() -> None:
    graph = nx.random_regular_graph(3, GRAPH_PROOF_LIMIT + 1000, seed=6)
    result = kg.find_tour(graph, closed=True)
    assert result.status is kg.Status.FOUND and is_cycle(graph, result.tour.nodes())


def test_a_hard_large_graph_is_stopped_at_its_timeout() -> None:
    """G(n, 2) with n = 5 (mod 6) has no Hamiltonian cycle (Alspach 1983); past
    GRAPH_PROOF_LIMIT vertices no proof is logged, so the search can only run until the
    timeout: it must end there, with no process left behind."""
    n = 6 * (GRAPH_PROOF_LIMIT // 12) + 5
    graph = generalized_petersen(n)
    assert graph.number_of_nodes() > GRAPH_PROOF_LIMIT
    began = time.monotonic()
    result = kg.find_tour(graph, closed=True, timeout=1.0)
    spent = time.monotonic() - began
    assert result.status is kg.Status.ABORTED
    assert "timeout of 1 s" in result.reason
    assert spent < 4.0, spent  # honoured within a fraction of a second; slack for a busy machine
    assert not multiprocessing.active_children()


def test_the_reading_of_a_graph_stops_at_the_timeout() -> None:
    graph = nx.path_graph(3 * READ_CHUNK)
    with pytest.raises(SearchAbortedError, match=r"0 of 196,608 vertices read"):
        GraphBoard.from_networkx(graph, stop=lambda: True)
    looks = iter([False, False, True])
    with pytest.raises(SearchAbortedError, match=r"131,072 of 196,608 vertices read"):
        GraphBoard.from_networkx(graph, stop=lambda: next(looks))
    result = kg.find_tour(graph, timeout=0)
    assert result.status is kg.Status.ABORTED
    assert result.reason == (
        "the search stopped at the timeout of 0 s (reading the graph: 0 of 196,608 vertices read)"
    )


def test_the_cheap_certificates_read_the_clock() -> None:
    """A stop answered True ends the breadth-first search with no certificate (the
    caller's budget says why); unasked, the same graph gets its connectivity certificate."""
    graph = nx.disjoint_union(*(nx.random_regular_graph(3, 2000, seed=k) for k in (1, 2)))
    board = GraphBoard.from_networkx(graph)
    assert graph_obstruction(Problem(board, True), stop=lambda: True) is None
    certificate = graph_obstruction(Problem(board, True))
    assert certificate is not None and certificate.kind == "connectivity"


def test_the_large_graph_solver_can_be_interrupted() -> None:
    from pysat.solvers import Solver

    with Solver(name=LARGE_GRAPH_SOLVER) as solver:
        solver.add_clause([1, 2])
        solver.interrupt()  # CaDiCaL raises NotImplementedError here
        solver.clear_interrupt()


def _fails() -> None:
    raise ValueError("bad value 7")


def test_in_child_returns_what_the_work_returns_and_names_its_failure() -> None:
    assert in_child(sorted, ([3, 1, 2],), Budget(timeout=30)) == [1, 2, 3]
    with pytest.raises(InternalError, match="ValueError: bad value 7"):
        in_child(_fails, (), Budget(timeout=30))
    assert in_child(time.sleep, (30,), Budget(timeout=0.1)) is None
    assert not multiprocessing.active_children()
