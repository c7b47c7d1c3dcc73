"""The cheap certificates of absence on any graph (:func:`graph_obstruction`) for a
:class:`~knightgraph.solvers.problem.Problem` on a graph board, used by :mod:`~knightgraph.solvers.general`.

Examples
--------
>>> import networkx as nx
>>> from knightgraph.boards.graphboard import GraphBoard
>>> board = GraphBoard.from_networkx(nx.star_graph(3))
>>> graph_obstruction(Problem(board)).reason
'1, 2, 3 (3 vertices) must all be ends of an open tour'
"""

from __future__ import annotations

from ..tours.results import Certificate
from .problem import Problem

__all__ = ["graph_obstruction"]


# ----------------------------------------------------------------- certificates
def graph_obstruction(problem: Problem) -> Certificate | None:
    """A cheap certificate of absence (degree, connectivity, colour count), or None.

    Notes
    -----
    Each is a proof: a closed tour uses two edges at every vertex, an open one two at
    every vertex but its ends (one each), so a vertex of degree below two (closed), of
    degree 0, or more than two vertices that must be ends (open) leave no tour.  A tour
    visits every vertex along edges, so the graph must be connected.  On a bipartite
    graph a tour alternates classes, so their sizes and the classes of the ends are
    fixed (see :mod:`knightgraph.certcheck.graphcheck`).  O(V + E).

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> star = GraphBoard.from_networkx(nx.star_graph(3))
    >>> graph_obstruction(Problem(star)).kind
    'degree'
    >>> cube = GraphBoard.from_networkx(nx.hypercube_graph(3))
    >>> graph_obstruction(Problem(cube, False, 0, 7)) is None  # ends of opposite classes
    True
    >>> graph_obstruction(Problem(cube, False, 0, 3)).kind
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
