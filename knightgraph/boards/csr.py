"""Compressed sparse rows (CSR) of a simple graph, in numpy: how a large graph board is built.

A graph on vertices ``0 .. N-1`` is held as two integer arrays: ``indices[indptr[v] :
indptr[v + 1]]`` are the neighbours of ``v``, sorted.  :func:`csr_from_pairs` builds them from
the two ends of every edge (repeated edges counted once) with a sort, in O(E log E) numpy
steps and no Python loop over the edges; :func:`adjacency_tuples` turns them into the
tuple-of-tuples adjacency :class:`~knightgraph.boards.graphboard.GraphBoard` shows;
:func:`upper_edges` lists each edge once as ``(i, j)`` with ``i < j``, sorted; and
:func:`first_non_edge` finds the first step of a walk that is not an edge, by binary search
(O(L log E) for a walk of L steps).

Examples
--------
>>> import numpy as np
>>> indptr, indices = csr_from_pairs(4, np.array([0, 1, 2, 3, 1]), np.array([1, 2, 3, 0, 0]))
>>> indptr.tolist(), indices.tolist()  # the 4-cycle, edge 1 - 0 given twice
([0, 2, 4, 6, 8], [1, 3, 0, 2, 1, 3, 0, 2])
>>> adjacency_tuples(indptr, indices)
((1, 3), (0, 2), (1, 3), (0, 2))
>>> [pair.tolist() for pair in upper_edges(indptr, indices)]
[[0, 0, 1, 2], [1, 3, 2, 3]]
>>> first_non_edge(indptr, indices, np.array([0, 1, 2, 0]))  # 2 - 0 is no edge
2
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import chain, pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import SearchAbortedError

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "SMALL_FRONTIER",
    "adjacency_tuples",
    "bfs_colours",
    "csr_from_pairs",
    "first_non_edge",
    "pairs_from_adjacency",
    "upper_edges",
]


def csr_from_pairs(
    size: int, first: NDArray[Any], second: NDArray[Any]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The CSR arrays ``(indptr, indices)`` of the graph on ``range(size)`` whose edges join
    ``first[k]`` and ``second[k]`` (no loops; an edge given twice counts once).

    Notes
    -----
    Each edge is keyed ``u * size + w`` in both directions; one sort orders the keys by
    (vertex, neighbour) and repeats are dropped: O(E log E) in numpy, O(V + E) memory.

    Examples
    --------
    >>> import numpy as np
    >>> [a.tolist() for a in csr_from_pairs(3, np.array([2]), np.array([0]))]
    [[0, 1, 1, 2], [2, 0]]
    """
    a = np.asarray(first, dtype=np.int64)
    b = np.asarray(second, dtype=np.int64)
    keys = np.minimum(a, b) * size + np.maximum(a, b)
    keys = np.sort(np.concatenate((keys, (keys % size) * size + keys // size)))
    if len(keys):
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    indptr = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys // size, minlength=size), out=indptr[1:])
    return indptr, keys % size


def adjacency_tuples(
    indptr: NDArray[np.int64], indices: NDArray[np.int64]
) -> tuple[tuple[int, ...], ...]:
    """The neighbours of each vertex as a tuple of tuples of ints (O(V + E)).

    Examples
    --------
    >>> import numpy as np
    >>> adjacency_tuples(np.array([0, 1, 2]), np.array([1, 0]))
    ((1,), (0,))
    """
    flat = indices.tolist()
    return tuple(tuple(flat[a:b]) for a, b in pairwise(indptr.tolist()))


def upper_edges(
    indptr: NDArray[np.int64], indices: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each edge once, as the arrays ``(i, j)`` with ``i < j``, sorted by ``(i, j)`` (O(E)).

    Examples
    --------
    >>> import numpy as np
    >>> [a.tolist() for a in upper_edges(np.array([0, 1, 2]), np.array([1, 0]))]
    [[0], [1]]
    """
    rows = np.repeat(np.arange(len(indptr) - 1, dtype=np.int64), np.diff(indptr))
    keep = indices > rows
    return rows[keep], indices[keep]


def first_non_edge(
    indptr: NDArray[np.int64], indices: NDArray[np.int64], walk: NDArray[np.int64]
) -> int:
    """The first ``k`` such that ``walk[k] - walk[k + 1]`` is not an edge, or -1 (every
    vertex of ``walk`` in range).

    Notes
    -----
    The edges' keys ``i * V + j`` (``i < j``) are sorted in CSR order, so each step is one
    binary search: O(L log E) in numpy for a walk of L vertices.

    Examples
    --------
    >>> import numpy as np
    >>> first_non_edge(np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1]), np.array([0, 1, 2]))
    -1
    """
    size = len(indptr) - 1
    if len(walk) < 2:
        return -1
    low, high = upper_edges(indptr, indices)
    keys = low * size + high
    a, b = walk[:-1], walk[1:]
    wanted = np.minimum(a, b) * size + np.maximum(a, b)
    at = np.searchsorted(keys, wanted)
    hit = at < len(keys)
    hit[hit] = keys[at[hit]] == wanted[hit]
    missing = np.flatnonzero(~hit)
    return int(missing[0]) if len(missing) else -1


def pairs_from_adjacency(
    table: Any,
    nodes: Sequence[Hashable],
    index: dict[Hashable, int],
    chunk: int,
    stop: Callable[[], bool] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The two ends' index arrays of every edge, from an adjacency mapping (networkx's
    ``graph._adj``: ``table[v]`` iterates over the neighbours of ``v``), each edge once from
    each end; ``index`` numbers the vertices.

    Read ``chunk`` vertices at a time; before each chunk ``stop()`` (a search's clock) may
    end the reading with :class:`~knightgraph.SearchAbortedError`.  O(V + E), one pass.

    Examples
    --------
    >>> first, second = pairs_from_adjacency({"a": ["b"], "b": ["a"]}, ["a", "b"], {"a": 0, "b": 1}, 1)
    >>> first.tolist(), second.tolist()
    ([0, 1], [1, 0])
    """
    rows = list(map(len, map(table.__getitem__, nodes)))
    renumber = _renumbering(nodes)
    parts = [np.zeros(0, dtype=np.int64)]
    for low in range(0, len(nodes), chunk):
        if stop is not None and stop():
            raise SearchAbortedError(f"reading the graph: {low:,} of {len(nodes):,} vertices read")
        ends: Iterator[Any] = chain.from_iterable(map(table.__getitem__, nodes[low : low + chunk]))
        if renumber is None:
            ends = map(index.__getitem__, ends)
        parts.append(np.fromiter(ends, dtype=np.int64, count=sum(rows[low : low + chunk])))
    cols = np.concatenate(parts)
    if renumber is not None:
        cols = renumber[cols]
    return np.repeat(np.arange(len(nodes), dtype=np.int64), rows), cols


def _renumbering(nodes: Sequence[Hashable]) -> NDArray[np.int64] | None:
    """When the vertices are the ints ``0 .. N-1`` in any order (networkx's generators), the
    array that maps each to its index (a numpy lookup instead of a dictionary's per
    neighbour); None for any other vertices."""
    if not all(type(v) is int for v in nodes):  # not bool, float or numpy scalars
        return None
    values = np.fromiter(nodes, dtype=np.int64, count=len(nodes)) if nodes else np.zeros(0)
    if len(values) and (values.min() < 0 or values.max() >= len(values)):
        return None
    renumber = np.full(len(values), -1, dtype=np.int64)
    renumber[values] = np.arange(len(values), dtype=np.int64)
    return renumber if not np.any(renumber < 0) else None


SMALL_FRONTIER = 32
"""Below this many vertices, a level of :func:`bfs_colours` is walked in Python (a numpy
step costs a few microseconds per call, whatever its size)."""


def bfs_colours(
    indptr: NDArray[np.int64], indices: NDArray[np.int64], stop: Callable[[], bool] | None = None
) -> tuple[NDArray[np.int8], bool] | None:
    """Breadth-first search from vertex 0: each vertex's colour (0 at even distance, 1 at odd,
    -1 not reached) and whether an edge joins two vertices at the same distance (an odd
    cycle: the component is not bipartite); None when ``stop()`` answered True.

    Notes
    -----
    Level by level: the neighbours of a level are gathered from the CSR arrays in one numpy
    step, those not yet reached form the next level, and a neighbour already at the level's
    own distance closes an odd cycle (in a breadth-first search every edge joins two levels
    at most one apart, so a graph is bipartite exactly when no edge stays in a level).
    Levels of fewer than :data:`SMALL_FRONTIER` vertices (long thin graphs: a path has a
    million levels of one vertex) are walked in Python instead.  O(V + E); ``stop`` is asked
    every 1,024 levels and before every large level.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = csr_from_pairs(5, np.array([0, 1, 2, 3]), np.array([1, 2, 0, 4]))
    >>> colours, odd = bfs_colours(indptr, indices)  # a triangle 0-1-2; 3-4 apart
    >>> colours.tolist(), odd
    ([0, 1, 1, -1, -1], True)
    """
    size = len(indptr) - 1
    colours = np.full(size, -1, dtype=np.int8)
    colours[0] = 0
    frontier: Any = [0]
    here, odd, level = 0, False, 0
    lists: tuple[list[int], list[int]] | None = None  # the CSR as lists, for small levels
    while len(frontier):
        level += 1
        if len(frontier) < SMALL_FRONTIER:
            if lists is None:
                lists = indptr.tolist(), indices.tolist()
            starts, flat = lists
            if stop is not None and not level % 1024 and stop():
                return None
            following = []
            for u in frontier:
                for w in flat[starts[u] : starts[u + 1]]:
                    seen = colours[w]
                    if seen < 0:
                        colours[w] = 1 - here
                        following.append(w)
                    elif seen == here:
                        odd = True
            frontier = following
        else:
            if stop is not None and stop():
                return None
            at = np.asarray(frontier, dtype=np.int64)
            first, counts = indptr[at], indptr[at + 1] - indptr[at]
            shift = np.repeat(first - (np.cumsum(counts) - counts), counts)
            near = indices[shift + np.arange(int(counts.sum()), dtype=np.int64)]
            seen = colours[near]
            odd = odd or bool(np.any(seen == here))
            frontier = np.unique(near[seen < 0])
            colours[frontier] = 1 - here
        here = 1 - here
    return colours, odd
