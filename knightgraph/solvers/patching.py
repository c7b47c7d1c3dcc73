"""Joining the cycles of a 2-factor into one Hamiltonian cycle by exchanges of two edges.

The SAT encoding's models are 2-factors: two chosen edges at every vertex, so a union of
disjoint cycles.  When a model has several, the incremental loop adds a cut clause per
cycle and solves again.  On large sparse graphs with many short cycles in every model
(grid graphs: their 4-cycles), that takes many rounds; but two cycles that run side by
side can often be joined directly (Karp's *patching*, 1979): if ``u -> u'`` is an edge of
one cycle and ``v' -> v`` an edge of another, and the graph has the edges ``u - v`` and
``u' - v'``, then dropping ``u -> u'`` and ``v' -> v`` and adding those two gives one cycle
``u -> v -> ... -> v' -> u' -> ... -> u`` through the vertices of both.  :func:`patch`
joins cycles this way until one is left, or gives up.

Examples
--------
>>> import networkx as nx
>>> grid = nx.grid_2d_graph(2, 4)
>>> index = {v: i for i, v in enumerate(sorted(grid))}  # (0, 0) .. (1, 3): 0 .. 7
>>> adj = [set() for _ in index]
>>> for a, b in grid.edges():
...     adj[index[a]].add(index[b]); adj[index[b]].add(index[a])
>>> patch([[0, 1, 5, 4], [2, 3, 7, 6]], adj)  # two squares side by side
[0, 1, 2, 3, 7, 6, 5, 4]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["exchange_exists", "patch"]


def patch(
    cycles: Sequence[Sequence[int]],
    adj: Sequence[Collection[int]],
    *,
    stop: Callable[[], bool] | None = None,
) -> list[int] | None:
    """One Hamiltonian cycle through the vertices of ``cycles`` (disjoint cycles of the
    graph ``adj``, together covering the vertices that matter), or None when the exchanges
    find no way to join them all.

    Parameters
    ----------
    cycles : sequence of sequences of int
        The cycles, each as its vertices in order (three or more each).
    adj : sequence of collections of int
        The neighbours of every vertex (sets, or short tuples: each is asked ``in``).
    stop : callable, optional
        Asked once per pass over the cycles; True gives up (a budget).

    Returns
    -------
    list of int or None
        The joined cycle, starting at ``cycles[0][0]``: every vertex of ``cycles`` once,
        each step an edge of ``adj``.  The caller checks it as it checks every tour.

    Notes
    -----
    The cycles are kept as successor and predecessor arrays and a label per vertex.  A
    pass visits the cycles other than the largest, smallest first; for each vertex ``u``
    of one and each neighbour ``v`` in another cycle it tries the two exchanges
    ``(u -> u', v' -> v)`` and ``(u' -> u, v -> v')`` with ``u'`` and ``v'`` the
    neighbours along the cycles (the second after turning ``u``'s cycle round, which
    costs its length: the cycles visited first are the short ones).  The smaller of the
    two cycles takes the label of the larger, so each vertex is relabelled O(log V)
    times; a pass costs O(V + E) on top.  Passes repeat while they join something.

    Soundness needs no argument beyond the result: the joined cycle is a sequence of
    edges of ``adj`` through every vertex once, which the caller verifies; when the
    exchanges cannot join the cycles, nothing is claimed (the caller goes on with cut
    clauses, whose "no" has its own proof).

    Examples
    --------
    >>> patch([[0, 1, 2]], [{1, 2}, {0, 2}, {0, 1}])
    [0, 1, 2]
    >>> patch([[0, 1, 2], [3, 4, 5]], [{1, 2}, {0, 2}, {0, 1}, {4, 5}, {3, 5}, {3, 4}]) is None
    True
    """
    if not cycles:
        return None
    size = 1 + max(max(c) for c in cycles)
    nxt = [-1] * size
    prv = [-1] * size
    label = [-1] * size
    members: dict[int, list[int]] = {}
    for k, cycle in enumerate(cycles):
        for a, b in zip(cycle, [*cycle[1:], cycle[0]], strict=True):
            nxt[a], prv[b] = b, a
        for v in cycle:
            label[v] = k
        members[k] = list(cycle)
    while len(members) > 1:
        if stop is not None and stop():
            return None
        joined = False
        order = sorted(members, key=lambda k: len(members[k]))
        for k in order[:-1]:
            if k not in members:
                continue
            for u in members[k]:
                if _join_at(u, adj, nxt, prv, label, members):
                    joined = True
                    break
        if not joined:
            return None
    first = cycles[0][0]
    out, v = [first], nxt[first]
    while v != first:
        out.append(v)
        v = nxt[v]
    return out


def _join_at(
    u: int,
    adj: Sequence[Collection[int]],
    nxt: list[int],
    prv: list[int],
    label: list[int],
    members: dict[int, list[int]],
) -> bool:
    """Join ``u``'s cycle with another through an exchange at ``u``; whether one was made."""
    here = label[u]
    u1 = nxt[u]
    for v in adj[u]:
        there = label[v]
        if there == here or there < 0:
            continue
        # u -> u1 and v0 -> v, with u1 - v0 an edge: u -> v -> ... -> v0 -> u1 -> ... -> u
        v0 = prv[v]
        if v0 in adj[u1]:
            _exchange(u, u1, v0, v, nxt, prv, label, members)
            return True
        # u -> u1 and v -> v1, with u1 - v1 an edge: turn u's cycle round (u1 -> u), then
        # v -> v1 and u1 -> u join as above
        v1 = nxt[v]
        if v1 in adj[u1]:
            for w in members[here]:
                nxt[w], prv[w] = prv[w], nxt[w]
            _exchange(v, v1, u1, u, nxt, prv, label, members)
            return True
    return False


def _exchange(
    u: int,
    u1: int,
    v0: int,
    v: int,
    nxt: list[int],
    prv: list[int],
    label: list[int],
    members: dict[int, list[int]],
) -> None:
    """Drop ``u -> u1`` and the other cycle's ``v0 -> v``; add ``u -> v`` and ``v0 -> u1``."""
    here, there = label[u], label[v]
    nxt[u], prv[v] = v, u
    nxt[v0], prv[u1] = u1, v0
    small, large = sorted((here, there), key=lambda k: len(members[k]))
    for w in members[small]:
        label[w] = large
    members[large].extend(members.pop(small))


def exchange_exists(cycles: Sequence[Sequence[int]], edges: NDArray[Any]) -> bool:
    """Whether any exchange of :func:`patch` applies to ``cycles`` at all: an edge ``u - v``
    between two cycles with ``u'`` (after ``u``) joined to the vertex before or after ``v``.

    ``edges`` is the graph's edge list, an ``(E, 2)`` integer array.  When this is False,
    :func:`patch` would fail after a whole pass; this answers in numpy instead.

    Notes
    -----
    Each vertex's successor, predecessor and cycle are laid out in arrays; the edges whose
    ends lie on different cycles are kept, in both directions, and the two exchanges'
    closing edges are looked up by binary search in the sorted edge keys: O(E log E) numpy
    steps, no Python loop over the vertices.

    Examples
    --------
    >>> import numpy as np
    >>> ladder = np.array([(0, 1), (1, 5), (5, 4), (4, 0), (1, 2), (5, 6), (2, 3), (3, 7),
    ...                    (7, 6), (6, 2)])  # two squares side by side: 1 - 2 and 5 - 6
    >>> exchange_exists([[0, 1, 5, 4], [2, 3, 7, 6]], ladder)
    True
    >>> exchange_exists([[0, 1, 2], [3, 4, 5]], np.array([(0, 1), (1, 2), (2, 0), (3, 4),
    ...                                                      (4, 5), (5, 3), (0, 3)]))
    False
    """
    sizes = np.array([len(c) for c in cycles], dtype=np.int64)
    flat = np.fromiter((v for c in cycles for v in c), dtype=np.int64, count=int(sizes.sum()))
    pairs = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    size = int(max(flat.max(), pairs.max())) + 1
    first = np.cumsum(sizes) - sizes
    cycle_of = np.repeat(np.arange(len(sizes)), sizes)
    after = np.arange(len(flat)) + 1
    after[first + sizes - 1] = first  # each cycle's last vertex is followed by its first
    label = np.full(size, -1, dtype=np.int64)
    nxt = np.full(size, -1, dtype=np.int64)
    prv = np.full(size, -1, dtype=np.int64)
    label[flat] = cycle_of
    nxt[flat] = flat[after]
    prv[flat[after]] = flat
    a, b = pairs[:, 0], pairs[:, 1]
    across = (label[a] >= 0) & (label[b] >= 0) & (label[a] != label[b])
    u = np.concatenate((a[across], b[across]))
    v = np.concatenate((b[across], a[across]))
    if len(u) == 0:
        return False
    keys = np.sort(np.minimum(a, b) * size + np.maximum(a, b))

    def joined(x: NDArray[np.int64], y: NDArray[np.int64]) -> NDArray[np.bool_]:
        wanted = np.minimum(x, y) * size + np.maximum(x, y)
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        found: NDArray[np.bool_] = keys[at] == wanted
        return found

    u1 = nxt[u]
    return bool(np.any(joined(u1, prv[v])) or np.any(joined(u1, nxt[v])))
