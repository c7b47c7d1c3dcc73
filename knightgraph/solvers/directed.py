"""Hamiltonian cycles and paths of directed graphs, by the split graph, and of tournaments.

A directed graph ``D`` has a Hamiltonian cycle exactly when its *split graph* ``S(D)``, an
undirected graph, has one (Karp 1972): every vertex ``v`` becomes a path ``in v - mid v -
out v`` and every arc ``u -> v`` the edge ``out u - in v``.  A Hamiltonian cycle of
``S(D)`` must pass each ``mid v`` between its only two neighbours, so it runs through every
triple in the same direction, and reading the triples in that direction gives the cycle of
``D``.  A Hamiltonian path of ``D`` (from ``source``, to ``target``) is a cycle of ``D``
with one extra vertex, the hub, joined by arcs ``hub -> s`` for every allowed first
vertex ``s`` and ``t -> hub`` for every allowed last one.  So every directed question is
one closed question on an undirected graph, answered by :func:`~knightgraph.find_tour`:
a cycle it finds is mapped back and checked arc by arc; a certificate of absence it
gives is about ``S(D)``, which the independent checker builds again by itself from the
arcs (:func:`digraph_answer`: ``python -m knightgraph.certcheck`` reads ``vertices`` and
``arcs``), so a "no" rests on the checker alone, not on this module.

A tournament (exactly one arc between every two vertices) always has a Hamiltonian path
(Rédei 1934): :func:`tournament_path` inserts the vertices one at a time into a path by
binary search, in O(n log n) arc lookups.

Examples
--------
>>> import networkx as nx
>>> D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 1)])
>>> directed_search(D, closed=False).order  # 3 -> 1 -> 2 -> 0
[3, 1, 2, 0]
>>> directed_search(D, closed=True).result.certificate.kind  # 0 -> 1 -> 2 -> 3 -> 1 ...
'sat-refutation'
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..exceptions import InternalError, InvalidBoardError
from ..tours.results import SearchResult

__all__ = [
    "Digraph",
    "DirectedAnswer",
    "digraph_answer",
    "directed_search",
    "split_graph",
    "tournament_path",
]


@dataclass(frozen=True)
class Digraph:
    """A finite directed graph with its vertices numbered ``0 .. n-1``: their nodes, unique
    names (``str(node)``, or ``v<i>`` when two would clash, as for graph boards) and arcs
    (loops dropped: a Hamiltonian cycle or path never uses one).

    Examples
    --------
    >>> import networkx as nx
    >>> Digraph.from_networkx(nx.DiGraph([("a", "b"), ("b", "b")])).arcs
    ((0, 1),)
    """

    nodes: tuple[Hashable, ...]
    names: tuple[str, ...]
    arcs: tuple[tuple[int, int], ...]

    @classmethod
    def from_networkx(cls, graph: Any) -> Digraph:
        nodes = tuple(graph.nodes)
        if not nodes:
            raise InvalidBoardError("invalid graph: it has no vertices")
        index = {v: i for i, v in enumerate(nodes)}
        names = [str(v) for v in nodes]
        if len(set(names)) != len(names):
            names = [f"v{i}" for i in range(len(nodes))]
        arcs = tuple(sorted({(index[u], index[v]) for u, v in graph.edges() if u != v}))
        return cls(nodes, tuple(names), arcs)

    def index(self, vertex: Hashable) -> int:
        """The number of a vertex, given as itself or by its name."""
        from ..exceptions import InvalidSquareError

        for i, (node, name) in enumerate(zip(self.nodes, self.names, strict=True)):
            if node == vertex or (isinstance(vertex, str) and name == vertex):
                return i
        raise InvalidSquareError(f"invalid square {vertex!r}: not a vertex of the graph")


def split_graph(
    n: int, arcs: Sequence[tuple[int, int]], closed: bool, source: int | None, target: int | None
) -> tuple[list[str], list[tuple[str, str]]]:
    """The split graph of the request (vertex names and edges): ``in<i>``, ``mid<i>``,
    ``out<i>`` for each vertex ``i`` of ``0 .. n-1``, and for an open request the hub as
    vertex ``n`` (arcs ``n -> s`` for the allowed first vertices, ``t -> n`` for the
    allowed last ones).

    Examples
    --------
    >>> split_graph(2, [(0, 1)], False, 0, None)[1]
    [('in0', 'mid0'), ('mid0', 'out0'), ('in1', 'mid1'), ('mid1', 'out1'), ('in2', 'mid2'), ('mid2', 'out2'), ('out0', 'in1'), ('out2', 'in0'), ('out0', 'in2'), ('out1', 'in2')]
    """
    arcs = list(arcs)
    size = n
    if not closed:
        size = n + 1
        firsts = range(n) if source is None else [source]
        lasts = range(n) if target is None else [target]
        arcs += [(n, s) for s in firsts] + [(t, n) for t in lasts]
    names = [f"{part}{i}" for i in range(size) for part in ("in", "mid", "out")]
    edges = [
        (f"{a}{i}", f"{b}{i}") for i in range(size) for a, b in (("in", "mid"), ("mid", "out"))
    ]
    edges += [(f"out{u}", f"in{v}") for u, v in arcs]
    return names, edges


@dataclass(frozen=True)
class DirectedAnswer:
    """A directed request's answer: ``order`` (vertex numbers of the digraph, checked arc by
    arc) or None, and ``result``, :func:`~knightgraph.find_tour`'s answer on the split
    graph (its certificate of absence, its reason, stats and seconds).

    Examples
    --------
    >>> import networkx as nx
    >>> answer = directed_search(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), closed=False, source=1)
    >>> answer.order, answer.source, answer.result.status.name
    ([1, 2, 0], 1, 'FOUND')
    """

    digraph: Digraph
    closed: bool
    source: int | None
    target: int | None
    order: list[int] | None
    result: SearchResult


def directed_search(
    graph: Any,
    *,
    closed: bool,
    source: Hashable | None = None,
    target: Hashable | None = None,
    method: str = "auto",
    timeout: float | None = None,
    seed: int | None = None,
) -> DirectedAnswer:
    """A Hamiltonian cycle (``closed``) or path of a networkx ``DiGraph``, through the split
    graph (see the module's notes); the order is checked arc by arc before it is returned.

    Examples
    --------
    >>> import networkx as nx
    >>> answer = directed_search(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), closed=True)
    >>> answer.order, answer.result.status.name
    ([0, 1, 2], 'FOUND')
    >>> directed_search(nx.DiGraph([(0, 1), (1, 0)]), closed=True).order  # two vertices
    [0, 1]
    """
    from ..boards.graphboard import GraphBoard
    from . import find_tour

    digraph = Digraph.from_networkx(graph)
    n = len(digraph.nodes)
    s = None if source is None else digraph.index(source)
    t = None if target is None else digraph.index(target)
    if not closed and n > 1 and s is not None and s == t:
        raise InvalidBoardError(f"invalid ends: the path cannot start and end on {source!r}")
    names, edges = split_graph(n, digraph.arcs, closed, s, t)
    board: Any = GraphBoard(names, edges, kind="split graph")
    if method == "auto" and 8 * len(digraph.arcs) < n * n:
        method = "sat"  # auto's walks fail on sparse split graphs (measured: 3 s lost)
    result = find_tour(board, closed=True, method=method, timeout=timeout, seed=seed)
    order = None
    if result.tour is not None:
        order = _unsplit([board.names[i] for i in result.tour.order.tolist()], n, closed)
        _check(order, digraph, closed, s, t)
    return DirectedAnswer(digraph, closed, s, t, order, result)


def _unsplit(cycle: list[str], n: int, closed: bool) -> list[int]:
    """The digraph's cycle (or path, for an open request: the hub ``n`` cut out) read from
    a Hamiltonian cycle of the split graph, in the direction in -> mid -> out."""
    at = cycle.index("mid0")
    forward = cycle[(at + 1) % len(cycle)] == "out0"
    mids = [int(name[3:]) for name in cycle if name.startswith("mid")]
    if not forward:
        mids.reverse()
    k = mids.index(n if not closed else 0)
    mids = mids[k:] + mids[:k]
    return mids if closed else mids[1:]


def _check(order: list[int], digraph: Digraph, closed: bool, s: int | None, t: int | None) -> None:
    """InternalError unless ``order`` is what was asked (every vertex once, every step an arc)."""
    arcs = set(digraph.arcs)
    steps = list(itertools.pairwise(order))
    if closed:
        steps.append((order[-1], order[0]))
    good = sorted(order) == list(range(len(digraph.nodes))) and all(a in arcs for a in steps)
    good = good and (s is None or order[0] == s) and (t is None or order[-1] == t)
    if not good or (closed and len(order) < 2):
        raise InternalError(f"the split graph's cycle gave no Hamiltonian path: {order[:10]}")


def tournament_path(graph: Any) -> list[Hashable] | None:
    """A Hamiltonian path of a tournament by binary insertion; on another digraph the
    same insertion's candidate if it checks, else None.

    Notes
    -----
    Rédei (1934): every tournament (exactly one arc between every two vertices) has a
    Hamiltonian path.  The proof is the algorithm: with a path ``p`` and a new vertex
    ``v``, if ``p[-1] -> v`` put ``v`` last, if ``v -> p[0]`` put it first; otherwise a
    binary search keeps an interval ``[lo, hi]`` with ``p[lo] -> v`` and ``v -> p[hi]``
    (in a tournament, no arc ``p[mid] -> v`` means ``v -> p[mid]``) until it is one step
    wide, and ``v`` goes between.  That is O(log n) arc lookups per vertex, O(n log n) in
    all (networkx's ``tournament.hamiltonian_path`` recurses once per vertex and scans the
    path: O(n^2), and past about 250 vertices Python's recursion limit).  The tournament
    itself is never checked (that would cost O(n^2)): the candidate is checked instead,
    arc by arc in O(n), so a digraph that is not a tournament gets a path only when the
    candidate happens to be one.

    Examples
    --------
    >>> import networkx as nx
    >>> T = nx.DiGraph([(0, 1), (1, 2), (0, 2), (3, 0), (3, 1), (2, 3)])
    >>> tournament_path(T)
    [0, 1, 2, 3]
    >>> tournament_path(nx.DiGraph([(0, 1), (2, 1)])) is None  # 0 and 2 not joined
    True
    """
    succ = graph.succ
    path: list[Hashable] = []
    for v in graph.nodes:
        if not path or v in succ[path[-1]]:
            path.append(v)
            continue
        if path[0] in succ[v]:
            path.insert(0, v)
            continue
        lo, hi = 0, len(path) - 1  # p[lo] -> v, and (in a tournament) v -> p[hi]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if v in succ[path[mid]]:
                lo = mid
            else:
                hi = mid
        path.insert(hi, v)
    return path if all(b in succ[a] for a, b in itertools.pairwise(path)) else None


def digraph_answer(answer: DirectedAnswer) -> dict[str, Any]:
    """The JSON object of a directed answer, which ``python -m knightgraph.certcheck``
    re-checks from itself alone: ``vertices`` and ``arcs`` (names), the request
    (``closed``, ``start``, ``end``), ``squares`` (the cycle or path, or null),
    ``status``, ``reason`` and the ``certificate`` of absence, which is about the split
    graph the checker builds again from the arcs.

    Examples
    --------
    >>> import networkx as nx
    >>> out = digraph_answer(directed_search(nx.DiGraph([(0, 1), (1, 2)]), closed=True))
    >>> out["arcs"], out["status"], out["certificate"]["kind"]
    ([['0', '1'], ['1', '2']], 'proven_absent', 'degree')
    """
    d = answer.digraph
    names = d.names
    result = answer.result
    cert = result.certificate
    return {
        "vertices": list(names),
        "arcs": [[names[u], names[v]] for u, v in d.arcs],
        "closed": answer.closed,
        "start": None if answer.source is None else names[answer.source],
        "end": None if answer.target is None else names[answer.target],
        "squares": None if answer.order is None else [names[i] for i in answer.order],
        "status": result.status.value,
        "reason": result.reason,
        **({} if cert is None else {"certificate": cert.to_dict()}),
    }
