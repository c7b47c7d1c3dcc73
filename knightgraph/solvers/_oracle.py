"""The SAT oracle of ``backtrack``: plain search's first tour, found without searching.

:func:`oracle_search` walks down the fixed-order search tree, asking a SAT
solver (:func:`~knightgraph.solvers.incremental.solving`) at each level which is
the first child whose subtree holds a tour (``backtrack(..., oracle=True)``).

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.running.budget import Budget
>>> from knightgraph.solvers.base import Problem
>>> problem = Problem.make(Board(5, 5), start="a1")
>>> def search():
...     return Search(problem, Budget(), list(problem.board.offsets), False, False, None)
>>> plain, asked = search(), oracle_search(problem, search(), [problem.start])
>>> asked.tour.order.tolist() == plain.run(problem.start)
True
>>> asked.stats["queries"], plain.stats["placed"]  # SAT calls against squares placed
(15, 8839)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..tours.results import Certificate, SearchResult
from ._dfs import Abort, Search
from .base import Problem

if TYPE_CHECKING:
    from .incremental import SolverSession


def oracle_search(problem: Problem, search: Search, starts: Iterable[int]) -> SearchResult:
    """The first tour of plain search in the fixed order, found by a SAT oracle.

    Plain depth-first search meets the first tour in the first child (in move
    order) whose subtree holds a tour.  So, from the start, ask for each child
    in order whether a tour completes the path through it, and go down into
    the first child that says yes: the path grows by one square per level and
    never backtracks.  The solver's answers come with a whole tour, which
    answers later questions for free (a child on that tour needs no query).
    """
    from .incremental import solving

    board = search.problem.board
    stats: dict[str, Any] = {"queries": 0, "rounds": 0}
    for start in starts:
        with solving(board, search.problem.closed, start, search.problem.end) as session:
            try:
                search.tables()
                path = _descend(session, search, start, stats)
            except Abort as stop:
                return problem.aborted(str(stop), stats)
            finally:
                stats["rounds"] += session.rounds
        if path is not None:
            return problem.found(path, stats)
    return problem.absent(
        Certificate(
            "exhaustive-search",
            f"a SAT solver found no tour ({stats['queries']} queries)",
            {"queries": stats["queries"], "starts": [board.name(s) for s in starts]},
        ),
        stats,
    )


def _descend(
    session: SolverSession, search: Search, start: int, stats: dict[str, Any]
) -> list[int] | None:
    """Grow the path from ``start`` child by child (see :func:`oracle_search`)."""
    problem, budget = search.problem, search.budget
    total, end = problem.board.num_squares, problem.end

    def ask(assumptions: list[int]) -> dict[int, int] | None:
        stats["queries"] += 1
        outcome = session.solve(assumptions, budget)
        if outcome.status == "aborted":
            raise Abort(budget.exceeded(0) or "the SAT solver stopped")
        if outcome.status == "unsat":
            return None
        order = outcome.order if outcome.order[0] == start else outcome.order[::-1]
        return dict(itertools.pairwise(order))

    successor = ask([])
    if successor is None:
        return None
    path, seen, assumed = [start], {start}, list[int]()
    while len(path) < total:
        here = path[-1]
        for nxt in search.targets[here]:
            if nxt < 0 or nxt in seen or (nxt == end and len(path) < total - 1):
                continue
            literal = session.cnf.var(here, nxt)
            if successor.get(here) == nxt:
                break
            answer = ask([*assumed, literal])
            if answer is not None:
                successor = answer
                break
        else:  # pragma: no cover - the last answer's tour always offers a child
            raise AssertionError("the oracle lost its tour")
        assumed.append(literal)
        path.append(nxt)
        seen.add(nxt)
    return path
