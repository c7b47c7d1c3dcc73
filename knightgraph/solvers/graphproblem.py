"""The request on a graph board (:class:`GraphProblem`) and the cheap certificates of
absence on any graph (:func:`graph_obstruction`), shared by :mod:`~knightgraph.solvers.general`.

Examples
--------
>>> import networkx as nx
>>> from knightgraph.graphs import GraphBoard
>>> board = GraphBoard.from_networkx(nx.star_graph(3))
>>> graph_obstruction(GraphProblem(board)).reason
'1, 2, 3 (3 vertices) must all be ends of an open tour'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from ..exceptions import InternalError, InvalidSquareError
from ..graphs import GraphBoard
from ..results import Certificate, SearchResult, Status
from ..tour import Tour
from ..verify import check_closed

__all__ = ["GraphProblem", "graph_obstruction"]


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
        tour = Tour(self.board, order, self.closed)
        if (self.start is not None and order[0] != self.start) or (
            self.end is not None and order[-1] != self.end
        ):
            raise InternalError(f"internal error: a tour with the wrong ends for {self.describe()}")
        return SearchResult(Status.FOUND, tour, stats=stats)

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
