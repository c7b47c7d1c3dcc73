"""Directed answers for the independent checker: ``vertices`` and ``arcs``.

A directed cycle or path (``squares``) is checked arc by arc.  A certificate of absence
is about the *split graph*, which this module builds again from the arcs by itself: each
vertex ``i`` (its place in ``vertices``) becomes the path ``in<i> - mid<i> - out<i>``,
each arc ``u -> v`` the edge ``out<u> - in<v>``; an open request adds a hub, vertex
``n``, with arcs ``n -> s`` for the allowed first vertices (``start``, or all) and ``t ->
n`` for the allowed last ones (``end``, or all).  The digraph has the cycle or path asked
for exactly when the split graph has a Hamiltonian cycle (Karp 1972: each ``mid`` vertex
has only its ``in`` and ``out`` as neighbours, so a Hamiltonian cycle runs through every
triple the same way round, along arcs).  So the certificate is checked as a closed
request on that graph, by the same checks as any graph's
(:mod:`knightgraph.certcheck.checker`).

Examples
--------
>>> answer = {"vertices": ["a", "b"], "arcs": [["a", "b"]], "closed": True,
...           "certificate": {"kind": "degree", "vertices": ["in0"]}}
>>> check = digraph_board(answer)
>>> check({"kind": "tour", "squares": ["a", "b"]}, True, None, None)
(False, 'tour: step 2 b-a is not an arc')
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from .adjacency import Graph, Malformed
from .checker import check as check_on

__all__ = ["digraph_board"]


def digraph_board(answer: Mapping[str, Any]) -> Any:
    """The check of one item on a directed answer's graph: ``check(item, closed, start,
    end)`` as for the other boards (:func:`knightgraph.certcheck.answers.check_answer`).

    Examples
    --------
    >>> check = digraph_board({"vertices": ["a", "b", "c"], "arcs": [["a", "b"], ["b", "c"]]})
    >>> check({"kind": "tour", "squares": ["a", "b", "c"]}, False, "a", None)
    (True, 'tour: a verified directed path of 3 vertices')
    >>> check({"kind": "degree", "vertices": ["in0"]}, True, None, None)  # no arc into a
    (True, 'degree: in0 has 1 edges; a closed tour needs two (on the split graph of the 3-vertex digraph)')
    """
    vertices: Any = answer.get("vertices")
    arcs: Any = answer.get("arcs")
    if not (isinstance(vertices, list) and vertices and all(isinstance(v, str) for v in vertices)):
        raise Malformed("invalid 'vertices': a directed answer names its vertices")
    if len(set(vertices)) != len(vertices):
        raise Malformed("invalid 'vertices': the names are not unique")
    number = {name: i for i, name in enumerate(vertices)}
    if not isinstance(arcs, list) or not all(
        isinstance(a, list) and len(a) == 2 and all(x in number for x in a) for a in arcs
    ):
        raise Malformed("invalid 'arcs': pairs of vertex names")
    succ: dict[str, set[str]] = {v: set() for v in vertices}
    for u, v in arcs:
        if u != v:
            succ[u].add(v)

    def check(item: dict[str, Any], closed: bool, start: str | None, end: str | None) -> Any:
        for name in (start, end):
            if name is not None and name not in number:
                return False, f"the end {name!r} is not a vertex"
        if item.get("kind") == "tour":
            return _directed_tour(item.get("squares"), succ, closed, start, end)
        n = len(vertices)
        firsts = range(n) if start is None else [number[start]]
        lasts = range(n) if end is None else [number[end]]
        pairs = [(number[u], number[v]) for u in succ for v in sorted(succ[u])]
        size = n
        if not closed:
            pairs += [(n, s) for s in firsts] + [(t, n) for t in lasts]
            size = n + 1
        names = [f"{part}{i}" for i in range(size) for part in ("in", "mid", "out")]
        edges = [[f"in{i}", f"mid{i}"] for i in range(size)]
        edges += [[f"mid{i}", f"out{i}"] for i in range(size)]
        edges += [[f"out{u}", f"in{v}"] for u, v in pairs]
        verdict = check_on(item, lambda: Graph(names, edges), True, None, None)
        return verdict[0], f"{verdict[1]} (on the split graph of the {n}-vertex digraph)"

    return check


def _directed_tour(
    squares: Any, succ: dict[str, set[str]], closed: bool, start: str | None, end: str | None
) -> tuple[bool, str]:
    """Every vertex once, each step an arc (and the closing one for a cycle, of two
    vertices at least), from ``start`` and to ``end`` when asked."""
    if not isinstance(squares, list) or not all(isinstance(s, str) for s in squares):
        raise Malformed("invalid 'squares': a directed tour is a list of vertex names")
    if sorted(squares) != sorted(succ):
        return False, "tour: does not visit every vertex once"
    steps = list(itertools.pairwise(squares))
    if closed:
        if len(squares) < 2:
            return False, "tour: one vertex makes no directed cycle"
        steps.append((squares[-1], squares[0]))
    for k, (u, v) in enumerate(steps, start=1):
        if v not in succ[u]:
            return False, f"tour: step {k} {u}-{v} is not an arc"
    if start is not None and squares[0] != start:
        return False, f"tour: the start is {squares[0]}, not {start}"
    if end is not None and squares[-1] != end:
        return False, f"tour: the end is {squares[-1]}, not {end}"
    return (
        True,
        f"tour: a verified directed {'cycle' if closed else 'path'} of {len(squares)} vertices",
    )
