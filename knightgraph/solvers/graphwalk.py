"""Warnsdorff's rule with Posa rotations on any graph: the fast first try of
:func:`~knightgraph.solvers.general.solve_graph` on large graph boards (tori, cylinders,
3-D boards, big networkx graphs).  A heuristic: it finds a tour or gives up, never
claims absence.

Examples
--------
>>> import random
>>> from knightgraph.boards.topology import topology_board
>>> from knightgraph import Tour
>>> torus = topology_board(20, 20, wrap="both")
>>> order = graph_walk(torus.adj, 0, True, random.Random(0), steps=100_000)
>>> Tour(torus, order, closed=True).closed
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

__all__ = ["graph_walk"]


def graph_walk(
    adj: Sequence[Sequence[int]],
    start: int,
    closed: bool,
    rng: random.Random,
    *,
    steps: int,
    stop: Callable[[], bool] | None = None,
) -> list[int] | None:
    """A Hamiltonian path from ``start`` (a cycle if ``closed``) by Warnsdorff's rule, or None.

    Parameters
    ----------
    adj : sequence of sequences of int
        Neighbours of each vertex.
    start : int
    closed : bool
    rng : random.Random
        Breaks ties between equally constrained vertices.
    steps : int
        Moves and rotations allowed before giving up.
    stop : callable, optional
        Asked every 1024 steps; True stops the walk (a budget).

    Notes
    -----
    The walk moves to the unvisited neighbour with the fewest unvisited neighbours
    (Warnsdorff 1823).  When it is stuck, or complete but not closing, it makes a Posa
    rotation: for a neighbour ``p[i]`` of the head, the path ``p[0..i], p[k], ...,
    p[i+1]`` has the same vertices and the new head ``p[i+1]``; one is chosen at random
    (its head preferably with unvisited neighbours, or next to the start when
    closing).  The start never moves.  Each rotation costs O(k).

    Examples
    --------
    >>> graph_walk([[1], [0, 2], [1]], 1, False, random.Random(0), steps=10) is None
    True
    >>> graph_walk([[1, 2], [0, 2], [0, 1]], 0, True, random.Random(0), steps=10)
    [0, 2, 1]
    """
    n = len(adj)
    free = [len(a) for a in adj]  # unvisited neighbours
    seen = [False] * n
    path: list[int] = []

    def visit(v: int) -> None:
        seen[v] = True
        path.append(v)
        for w in adj[v]:
            free[w] -= 1

    visit(start)
    for done in range(steps):
        if stop is not None and done % 1024 == 0 and stop():
            return None
        head = path[-1]
        options = [w for w in adj[head] if not seen[w]]
        if options:
            least = min(free[w] for w in options)
            visit(rng.choice([w for w in options if free[w] == least]))
            continue
        if len(path) == n and (not closed or (n >= 3 and start in adj[head])):
            return path
        if n == 1:
            return path if not closed else None
        position = {v: i for i, v in enumerate(path)}
        pivots = [position[w] for w in adj[head] if position[w] < len(path) - 2]
        if not pivots:
            return None
        good = [
            i
            for i in pivots
            if (len(path) < n and any(not seen[w] for w in adj[path[i + 1]]))
            or (len(path) == n and start in adj[path[i + 1]])
        ]
        i = rng.choice(good or pivots)
        path[i + 1 :] = path[:i:-1]
    return None
