"""Tours of any graph: Hamiltonian paths and cycles of a :class:`~knightgraph.graphs.GraphBoard`.

:func:`solve_graph` is what :func:`~knightgraph.find_tour` and
:func:`~knightgraph.tour_exists` run when they are given a networkx graph (or a graph
board: a torus, a cylinder, a 3-D board).  It answers with the same three states as
the board strategies: FOUND with a verified :class:`~knightgraph.graphs.GraphTour`,
PROVEN_ABSENT with a certificate that the independent checker
(:mod:`knightgraph.graphcheck`) accepted, or ABORTED.

Methods: ``"sat"`` (the shared CNF of :mod:`~knightgraph.solvers.cnf` with lazy cut
constraints; a refutation carries its DRUP proof), ``"backtrack"`` (depth-first search
with sound pruning; its exhaustive "no" is re-proved by SAT for the checker) and
``"auto"`` (SAT); each runs after the cheap certificates (:func:`graph_obstruction`).  This module is not a strategy of the
registry (those take rectangular boards); it is a shared piece that uses the CNF only.

Examples
--------
>>> import networkx as nx
>>> from knightgraph.graphs import GraphBoard
>>> petersen = GraphBoard.from_networkx(nx.petersen_graph())
>>> solve_graph(petersen).status.name, solve_graph(petersen, closed=True).status.name
('FOUND', 'PROVEN_ABSENT')
>>> solve_graph(petersen, closed=True, method="backtrack").certificate.kind
'sat-refutation'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ..budget import Budget
from ..exceptions import InternalError, InvalidOptionError, InvalidSquareError, SearchAbortedError
from ..graphcheck import check_graph_certificate
from ..graphs import GraphBoard, GraphTour
from ..results import Certificate, SearchResult, Status
from ..verify import check_closed

__all__ = ["GRAPH_METHODS", "GraphProblem", "graph_obstruction", "solve_graph"]

GRAPH_METHODS = ("auto", "sat", "backtrack")
"""The methods :func:`solve_graph` takes."""

PROOF_LIMIT = 5000
"""Up to this many vertices the SAT solver logs a DRUP proof (a "no" needs one)."""

CLOCK_EVERY = 1024
"""Search nodes between two looks at the budget."""


@dataclass(frozen=True)
class GraphProblem:
    """A request on a graph board: open or closed, the ends as vertex indices.

    Examples
    --------
    >>> import networkx as nx
    >>> board = GraphBoard.from_networkx(nx.cycle_graph(4))
    >>> GraphProblem.make(board, True, 1, None).describe()
    'closed tour of the graph with 4 vertices from 1'
    """

    board: GraphBoard
    closed: bool = False
    start: int | None = None
    end: int | None = None

    @classmethod
    def make(cls, board: GraphBoard, closed: Any, start: Any, end: Any) -> GraphProblem:
        """Check and normalise the request (ends by vertex or name, distinct)."""
        s = None if start is None else board.index(start)
        t = None if end is None else board.index(end)
        if s is not None and s == t and board.num_squares > 1:
            raise InvalidSquareError(
                f"invalid end {board.names[t]}: the start and the end are the same vertex"
            )
        return cls(board, check_closed(closed), s, t)

    def describe(self) -> str:
        """E.g. ``'open tour of the graph with 10 vertices from 0'``."""
        text = f"{'closed' if self.closed else 'open'} tour of the {self.board.describe()}"
        if self.start is not None:
            text += f" from {self.board.names[self.start]}"
        if self.end is not None:
            text += f" to {self.board.names[self.end]}"
        return text

    def names(self) -> tuple[str | None, str | None]:
        """The ends by name."""
        return tuple(  # type: ignore[return-value]
            None if x is None else self.board.names[x] for x in (self.start, self.end)
        )

    def found(self, order: list[int], stats: dict[str, Any]) -> SearchResult:
        """FOUND, with ``order`` turned to honour the ends; building the tour verifies it."""
        order = _oriented(self, order)
        tour = GraphTour(self.board, order, self.closed)
        if (self.start is not None and order[0] != self.start) or (
            self.end is not None and order[-1] != self.end
        ):
            raise InternalError(f"internal error: a tour with the wrong ends for {self.describe()}")
        return SearchResult(Status.FOUND, tour, stats=stats)  # type: ignore[arg-type]

    def absent(self, certificate: Certificate, stats: dict[str, Any]) -> SearchResult:
        """PROVEN_ABSENT (checked later by the gate of :func:`solve_graph`)."""
        return SearchResult(
            Status.PROVEN_ABSENT,
            certificate=certificate,
            stats=stats,
            reason=f"no {self.describe()}: {certificate.reason}",
        )

    def aborted(self, reason: str, stats: dict[str, Any]) -> SearchResult:
        """ABORTED: existence unknown."""
        return SearchResult(Status.ABORTED, stats=stats, reason=reason)


def _oriented(problem: GraphProblem, order: list[int]) -> list[int]:
    """Read a path backwards, or rotate and reflect a cycle, to put the requested ends in place."""
    s, t = problem.start, problem.end
    if (s is None or order[0] == s) and (t is None or order[-1] == t):
        return order
    if not problem.closed:
        return order[::-1]
    anchor = s if s is not None else t
    at = order.index(cast(int, anchor))
    order = order[at:] + order[:at] if s is not None else order[at + 1 :] + order[: at + 1]
    if s is not None and t is not None and order[-1] != t:
        order = order[:1] + order[:0:-1]
    return order


# ----------------------------------------------------------------- certificates
def graph_obstruction(problem: GraphProblem) -> Certificate | None:
    """A cheap certificate of absence (degree, connectivity, colour count), or None.

    Notes
    -----
    Each is a proof: a closed tour uses two edges at every vertex, an open one two at
    every vertex but its ends (one each), so a vertex of degree below two (closed), of
    degree 0, or more than two vertices that must be ends (open) leave no tour.  A tour
    visits every vertex along edges, so the graph must be connected.  On a bipartite
    graph a tour alternates classes, so their sizes and the classes of the ends are
    fixed (see :mod:`knightgraph.graphcheck`).  O(V + E).

    Examples
    --------
    >>> import networkx as nx
    >>> star = GraphBoard.from_networkx(nx.star_graph(3))
    >>> graph_obstruction(GraphProblem(star)).kind
    'degree'
    >>> cube = GraphBoard.from_networkx(nx.hypercube_graph(3))
    >>> graph_obstruction(GraphProblem(cube, False, 0, 7)) is None  # ends of opposite classes
    True
    >>> graph_obstruction(GraphProblem(cube, False, 0, 3)).kind
    'colour-count'
    """
    board, names = problem.board, problem.board.names
    n, adj = board.num_squares, board.adj
    ends = [x for x in (problem.start, problem.end) if x is not None]
    if problem.closed:
        if n < 3:
            return Certificate("degree", f"a closed tour needs three vertices, there are {n}", {})
        if len(ends) == 2 and ends[1] not in adj[ends[0]]:
            return Certificate(
                "degree",
                f"a closed tour from {names[ends[0]]} to {names[ends[1]]} needs the edge "
                "between them",
                {},
            )
        low = [v for v in range(n) if len(adj[v]) < 2]
        if low:
            return Certificate(
                "degree",
                f"{names[low[0]]} has {len(adj[low[0]])} edges; a closed tour needs two",
                {"vertices": [names[low[0]]]},
            )
    elif n >= 2:
        isolated = [v for v in range(n) if not adj[v]]
        if isolated:
            v = isolated[0]
            return Certificate("degree", f"{names[v]} has no edge", {"vertices": [names[v]]})
        musts = sorted({v for v in range(n) if len(adj[v]) == 1} | set(ends))
        if len(musts) > 2:
            named = [names[v] for v in musts]
            return Certificate(
                "degree",
                f"{', '.join(named[:5])}{', ...' if len(named) > 5 else ''} "
                f"({len(named)} vertices) must all be ends of an open tour",
                {"vertices": named},
            )
    seen = {0}
    queue = [0]
    for u in queue:
        for w in adj[u]:
            if w not in seen:
                seen.add(w)
                queue.append(w)
    if len(seen) < n:
        return Certificate(
            "connectivity",
            f"the graph is not connected ({len(seen)} of {n} vertices reachable from {names[0]})",
            {"component": [names[v] for v in sorted(seen)]},
        )
    colour = board.bipartition()
    if colour is not None:
        side = [v for v in range(n) if colour[v] == 0]
        data = {"side": [names[v] for v in side]}
        a, b = len(side), n - len(side)
        text = f"the graph is bipartite with classes of {a} and {b} vertices"
        if problem.closed and a != b:
            return Certificate("colour-count", f"{text}; a closed tour needs equal classes", data)
        if not problem.closed:
            if abs(a - b) > 1:
                return Certificate("colour-count", f"{text}; a tour needs them within one", data)
            if a == b and len(ends) == 2 and colour[ends[0]] == colour[ends[1]]:
                return Certificate(
                    "colour-count", f"{text}; the ends must be of opposite classes", data
                )
            big = 0 if a > b else 1
            if a != b and any(colour[e] != big for e in ends):
                return Certificate(
                    "colour-count", f"{text}; an open tour starts and ends in the larger", data
                )
    return None


# ---------------------------------------------------------------------- SAT
def _sat(problem: GraphProblem, budget: Budget) -> SearchResult:
    """SAT on the shared CNF; an UNSAT answer becomes a ``sat-refutation`` certificate."""
    from .cnf import HamiltonCNF

    board = problem.board
    if board.num_squares == 1:
        if problem.closed:
            return problem.absent(Certificate("degree", "a closed tour needs three vertices"), {})
        return problem.found([0], {})
    if problem.closed and board.num_squares < 3:
        return problem.absent(Certificate("degree", "a closed tour needs three vertices"), {})
    logged = board.num_squares <= PROOF_LIMIT
    try:
        cnf = HamiltonCNF(
            cast(Any, board),
            problem.closed,
            problem.start,
            problem.end,
            proof=logged,
            budget=budget,
            lucky=True,
        )
    except SearchAbortedError as stop:
        return problem.aborted(str(stop), {"rounds": 0})
    try:
        outcome = cnf.solve(budget=budget)
        stats = {"rounds": outcome.rounds, "clauses": cnf.num_clauses, "conflicts": cnf.conflicts()}
        if outcome.status == "sat":
            return problem.found(list(outcome.order), stats)
        if outcome.status == "aborted":
            return problem.aborted(f"the SAT solver {budget.exceeded(cnf.conflicts())}", stats)
        if not logged or cnf.auxiliary:
            return problem.aborted(
                "the SAT solver found no tour, but its refutation cannot be re-checked "
                "(a counter encoding or no proof log)",
                stats,
            )
        names = board.names

        def name(v: int) -> str | None:
            return None if v == cnf.hub else names[v]

        proof = cnf.proof()
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
    finally:
        cnf.delete()


# --------------------------------------------------------------- backtracking
def _backtrack(problem: GraphProblem, budget: Budget) -> SearchResult:
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
        Its ``tour`` is a :class:`~knightgraph.graphs.GraphTour`; a certificate of
        absence has passed :func:`~knightgraph.graphcheck.check_graph_certificate`.

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
    problem = GraphProblem.make(board, closed, start, end)
    budget = Budget.make(timeout, limit, progress)
    began = time.perf_counter()
    cert = graph_obstruction(problem)  # every method: resolution is slow on colour counts
    if cert is not None:
        result = problem.absent(cert, {})
    elif method == "backtrack":
        result = _backtrack(problem, budget)
    else:
        result = _sat(problem, budget)
    result.method = result.method or method
    result = _gate(problem, budget, result)
    result.seconds = time.perf_counter() - began
    return result


def _gate(problem: GraphProblem, budget: Budget, result: SearchResult) -> SearchResult:
    """Every "no" on a graph passes the independent checker; an exhaustive search's is
    re-proved by SAT first (the checker cannot re-run a search)."""
    if result.status is not Status.PROVEN_ABSENT or result.certificate is None:
        return result
    if result.certificate.kind == "exhaustive-search":
        again = _sat(problem, Budget(budget.timeout, None, budget.progress, budget.started))
        if again.status is Status.FOUND:
            raise InternalError(f"internal error: backtracking missed a {problem.describe()}")
        if again.status is not Status.PROVEN_ABSENT:
            return problem.aborted(
                f"the search found no {problem.describe()}, but no checkable certificate "
                f"was found within the budget ({again.reason})",
                result.stats,
            )
        result = SearchResult(
            Status.PROVEN_ABSENT,
            certificate=again.certificate,
            method=result.method,
            stats={**result.stats, "certified_by": "sat"},
            reason=f"{result.reason}; re-proved for the independent checker",
        )
    assert result.certificate is not None
    board = problem.board
    accepted, why = check_graph_certificate(
        result.certificate.to_dict(),
        board.names,
        [[board.names[i], board.names[j]] for i, j in board.edges()],
        closed=problem.closed,
        start=problem.names()[0],
        end=problem.names()[1],
    )
    if not accepted:
        return problem.aborted(f"a certificate did not check ({why})", result.stats)
    result.stats["checked"] = why
    return result
