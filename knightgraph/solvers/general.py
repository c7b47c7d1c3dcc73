"""Tours of any graph: Hamiltonian paths and cycles of a :class:`~knightgraph.boards.graphboard.GraphBoard`.

:func:`solve_graph` is what :func:`~knightgraph.find_tour` and
:func:`~knightgraph.tour_exists` run when they are given a networkx graph (or a graph
board: a torus, a cylinder, a 3-D board).  It answers with the same three states as
the board strategies: FOUND with a verified :class:`~knightgraph.Tour` of the graph,
PROVEN_ABSENT with a certificate that the independent checker
(:mod:`knightgraph.certcheck.graphcheck`) accepted, or ABORTED.

Methods: ``"sat"`` (the shared CNF of :mod:`~knightgraph.solvers.cnf` with lazy cut
constraints; a refutation carries its DRUP proof), ``"backtrack"`` (depth-first search
with sound pruning; its exhaustive "no" is re-proved by SAT for the checker) and
``"auto"`` (Warnsdorff walks with rotations on graphs of more than 64 vertices, then
SAT); each runs after the cheap certificates (:func:`graph_obstruction`).  This module is not a strategy of the
registry (those take rectangular boards); it is a shared piece that uses the CNF only.

Examples
--------
>>> import networkx as nx
>>> from knightgraph.boards.graphboard import GraphBoard
>>> petersen = GraphBoard.from_networkx(nx.petersen_graph())
>>> solve_graph(petersen).status.name, solve_graph(petersen, closed=True).status.name
('FOUND', 'PROVEN_ABSENT')
>>> solve_graph(petersen, closed=True, method="backtrack").certificate.kind
'sat-refutation'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from ..boards.graphboard import GraphBoard
from ..certcheck.graphcheck import check_graph_certificate
from ..exceptions import InternalError, InvalidOptionError, SearchAbortedError
from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult
from .gate import gate
from .graphproblem import graph_obstruction
from .problem import Problem

__all__ = ["GRAPH_METHODS", "graph_obstruction", "solve_graph"]

GRAPH_METHODS = ("auto", "sat", "backtrack")
"""The methods :func:`solve_graph` takes."""

PROOF_LIMIT = 5000
"""Up to this many vertices the SAT solver logs a DRUP proof (a "no" needs one)."""

WALK_FROM = 64
"""``auto`` tries Warnsdorff walks (:mod:`~knightgraph.solvers.graphwalk`) before SAT on
graphs with more vertices than this."""

WALK_ATTEMPTS = 3
"""Walks ``auto`` tries."""

WALK_SECONDS = 3.0
"""Most seconds the walks take (and at most 30 % of a timeout), leaving the rest to SAT."""

CLOCK_EVERY = 1024
"""Search nodes between two looks at the budget."""


# ---------------------------------------------------------------------- SAT
def _sat(problem: Problem, budget: Budget) -> SearchResult:
    """SAT on the shared CNF; an UNSAT answer becomes a ``sat-refutation`` certificate."""
    from .incremental import solving

    board = problem.board
    if board.num_squares == 1:
        if problem.closed:
            return problem.absent(Certificate("degree", "a closed tour needs three vertices"), {})
        return problem.found([0], {})
    if problem.closed and board.num_squares < 3:
        return problem.absent(Certificate("degree", "a closed tour needs three vertices"), {})
    logged = board.num_squares <= PROOF_LIMIT
    try:  # SearchAbortedError comes only from writing the CNF, at the timeout
        with solving(
            cast(Any, board),
            problem.closed,
            problem.start,
            problem.end,
            proof=logged,
            budget=budget,
            lucky=True,
        ) as session:
            cnf = session.cnf
            outcome = session.solve(budget=budget)
            stats = {
                "rounds": outcome.rounds,
                "clauses": cnf.num_clauses,
                "conflicts": session.conflicts(),
            }
            if outcome.status == "sat":
                return problem.found(list(outcome.order), stats)
            if outcome.status == "aborted":
                why = budget.exceeded(session.conflicts())
                return problem.aborted(f"the SAT solver {why}", stats)
            if not logged or cnf.auxiliary:
                return problem.aborted(
                    "the SAT solver found no tour, but its refutation cannot be re-checked "
                    "(a counter encoding or no proof log)",
                    stats,
                )
            names = board.names

            def name(v: int) -> str | None:
                return None if v == cnf.hub else names[v]

            proof = session.proof()
            cert = Certificate(
                "sat-refutation",
                f"a SAT solver refuted the {len(cnf.clauses):,} clauses every tour satisfies "
                f"(exactly two tour edges at each vertex, plus {len(cnf.cut_sets)} cut "
                f"constraints); its DRUP proof of {len(proof):,} lines was checked independently",
                {
                    "edges": [[name(u), name(v)] for u, v in cnf.edges],
                    "cuts": [[name(v) for v in cycle] for cycle in cnf.cut_sets],
                    "cnf": cnf.clauses,
                    "proof": proof,
                },
            )
            return problem.absent(cert, stats)
    except SearchAbortedError as stop:
        return problem.aborted(str(stop), {"rounds": 0})


# --------------------------------------------------------------- backtracking
def _backtrack(problem: Problem, budget: Budget) -> SearchResult:
    """Depth-first search over simple paths, fewest onward edges first, with sound pruning.

    Notes
    -----
    Vertex sets are Python integers used as bit sets.  A branch is cut when the
    vertices left cannot all be reached from the head through unvisited vertices
    (a path visits them through such vertices only), or when more unvisited
    vertices have a single usable neighbour than a path has last vertices (one; for
    a closed tour, the start counts as usable for the last vertex).  Exhaustive: a
    search that ends without a tour proves there is none, which the gate re-proves
    with SAT for the checker.  Exponential in the worst case.
    """
    board = problem.board
    n, adj = board.num_squares, board.adj
    nbr = [sum(1 << w for w in a) for a in adj]
    everyone = (1 << n) - 1
    starts = [problem.start] if problem.start is not None else list(range(n))
    if problem.closed and problem.start is None:
        starts = [problem.end if problem.end is not None else 0]
    end = problem.end
    if problem.start is None and problem.end is not None:
        # Search from the end: the path is read backwards (the cycle rotated) afterwards.
        starts, end = [problem.end], None
    nodes = 0

    def reachable(head: int, free: int) -> int:
        seen, frontier = 0, nbr[head] & free
        while frontier:
            seen |= frontier
            grow = 0
            f = frontier
            while f:
                low = f & -f
                grow |= nbr[low.bit_length() - 1]
                f ^= low
            frontier = grow & free & ~seen
        return seen

    def viable(head: int, free: int, first: int) -> bool:
        if not free:
            return True
        if reachable(head, free) != free:
            return False
        usable = free | (1 << head) | ((1 << first) if problem.closed else 0)
        single = 0
        f = free
        while f:
            low = f & -f
            v = low.bit_length() - 1
            if bin(nbr[v] & usable).count("1") < 2:
                if end is not None and v != end:
                    return False
                single += 1
                if single > 1:
                    return False
            f ^= low
        return True

    def search(first: int) -> list[int] | None:
        nonlocal nodes
        path = [first]
        free = everyone & ~(1 << first)
        if n == 1:
            return path
        stack: list[list[int]] = [_ordered(first, free, adj, nbr)]
        while stack:
            nodes += 1
            if nodes % CLOCK_EVERY == 0:
                budget.report({"done": nodes, "depth": len(path)})
                why = budget.exceeded(nodes)
                if why:
                    raise SearchAbortedError(f"backtracking {why}")
            options = stack[-1]
            if not options:
                stack.pop()
                free |= 1 << path.pop()
                continue
            v = options.pop()
            if end is not None and v == end and free != 1 << v:
                continue
            free &= ~(1 << v)
            path.append(v)
            if not free:
                if not problem.closed or first in adj[v]:
                    return path
                free |= 1 << path.pop()
                continue
            if viable(v, free, first):
                stack.append(_ordered(v, free, adj, nbr))
            else:
                free |= 1 << path.pop()
        return None

    try:
        for first in starts:
            found = search(first)
            if found is not None:
                return problem.found(found, {"nodes": nodes})
    except SearchAbortedError as stop:
        return problem.aborted(str(stop), {"nodes": nodes})
    return problem.absent(
        Certificate(
            "exhaustive-search",
            f"depth-first search visited {nodes:,} nodes and found no tour",
            {"nodes": nodes},
        ),
        {"nodes": nodes},
    )


def _ordered(v: int, free: int, adj: Any, nbr: list[int]) -> list[int]:
    """Unvisited neighbours of ``v``, the one with fewest onward edges last (tried first)."""
    options = [w for w in adj[v] if free >> w & 1]
    options.sort(key=lambda w: -bin(nbr[w] & free).count("1"))
    return options


def _walk(problem: Problem, budget: Budget, seed: int | None) -> SearchResult | None:
    """Warnsdorff walks with rotations first on graphs of more than :data:`WALK_FROM`
    vertices (a few attempts of ``20 V`` steps); None when they find nothing."""
    import random

    from .graphwalk import graph_walk

    board = problem.board
    n = board.num_squares
    if n <= WALK_FROM or (problem.end is not None and problem.start is not None):
        return None
    if problem.end is not None and not problem.closed:
        return None
    first = problem.start if problem.start is not None else problem.end
    if first is None:
        first = 0 if problem.closed else min(range(n), key=lambda v: len(board.adj[v]))
    rng = random.Random(0 if seed is None else seed)
    left = budget.remaining()
    cap = time.monotonic() + min(WALK_SECONDS, 0.3 * left if left is not None else WALK_SECONDS)

    def stop() -> bool:
        return time.monotonic() > cap

    for attempt in range(WALK_ATTEMPTS):
        order = graph_walk(board.adj, first, problem.closed, rng, steps=20 * n + 1000, stop=stop)
        if order is not None:
            return problem.found(order, {"method": "warnsdorff", "attempts": attempt + 1})
        if stop():
            break
    return None


# ---------------------------------------------------------------------- entry
def solve_graph(
    board: GraphBoard,
    *,
    closed: bool = False,
    start: Any = None,
    end: Any = None,
    method: str = "auto",
    seed: int | None = None,
    limit: int | None = None,
    timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> SearchResult:
    """Find a Hamiltonian path (open tour) or cycle (closed tour) of a graph, or prove none.

    Parameters
    ----------
    board : GraphBoard
    closed, start, end
        The request; ends are vertices or their names.
    method : {"auto", "sat", "backtrack"}
    seed : int, optional
        Accepted for the common signature (the methods here are deterministic).
    limit, timeout, progress
        The budget (``limit`` counts search nodes or SAT conflicts).

    Returns
    -------
    SearchResult
        Its ``tour`` is a :class:`~knightgraph.Tour` of the graph board; a certificate of
        absence has passed :func:`~knightgraph.certcheck.graphcheck.check_graph_certificate`.

    Examples
    --------
    >>> import networkx as nx
    >>> q4 = GraphBoard.from_networkx(nx.hypercube_graph(4))
    >>> res = solve_graph(q4, closed=True, start=(0, 0, 0, 0))
    >>> res.status.name, res.tour.start, res.tour.closed
    ('FOUND', (0, 0, 0, 0), True)
    """
    if method not in GRAPH_METHODS:
        raise InvalidOptionError(
            f"unknown method {method!r} for a graph: choose from {', '.join(GRAPH_METHODS)}"
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidOptionError(f"invalid seed {seed!r}: expected a whole number")
    problem = Problem.make(board, closed, start, end)
    budget = Budget.make(timeout, limit, progress)
    began = time.perf_counter()
    cert = graph_obstruction(problem)  # every method: resolution is slow on colour counts
    if cert is not None:
        result = problem.absent(cert, {})
    elif method == "backtrack":
        result = _backtrack(problem, budget)
    else:
        walked = _walk(problem, budget, seed) if method == "auto" else None
        result = walked if walked is not None else _sat(problem, budget)
    order = None if result.tour is None else result.tour.order
    if order is not None and (
        (problem.start is not None and int(order[0]) != problem.start)
        or (problem.end is not None and int(order[-1]) != problem.end)
    ):  # no registry wrapper checks a graph's answer (see base._check_answer)
        raise InternalError(f"internal error: a tour with the wrong ends for {problem.describe()}")
    if not result.method:
        result = replace(result, method=method)
    result = _gate(problem, budget, result)
    return replace(result, seconds=time.perf_counter() - began)


def _gate(problem: Problem, budget: Budget, result: SearchResult) -> SearchResult:
    """Pass a graph's answer through :func:`knightgraph.solvers.gate.gate`, the one gate:
    the checker is :func:`~knightgraph.certcheck.graphcheck.check_graph_certificate`, the fallback
    for a "no" it cannot re-check (an exhaustive search's) is this module's SAT."""
    board = problem.board
    names = problem.names()

    def check(certificate: Certificate) -> tuple[bool, str]:
        return check_graph_certificate(
            certificate.to_dict(),
            board.names,
            [[board.names[i], board.names[j]] for i, j in board.edges()],
            closed=problem.closed,
            start=names[0],
            end=names[1],
        )

    return gate(
        result,
        what=problem.describe(),
        budget=budget,
        check=check,
        refute=lambda deadline: _sat(problem, deadline or Budget()),
    )
