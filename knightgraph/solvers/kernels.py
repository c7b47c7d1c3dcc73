"""The inner loops of plain depth-first search and of Warnsdorff walks.

Two implementations with the same semantics, statement for statement:

* compiled C (``knightgraph/_kernels.c``, built when the package is
  installed and called through :mod:`ctypes`), used when available;
* plain Python (:func:`dfs_python`, :func:`walk_python`), the reference the
  tests compare the C code with, and the fallback when the library could not
  be built (correct, about a hundred times slower).

Set the environment variable ``KNIGHTGRAPH_KERNELS=python`` to force the
Python versions.

Conventions shared with the callers:

* ``targets[i, j]`` is the square reached from ``i`` by move ``j``; a missing
  move points at the sentinel square ``m * n``, which is always "visited"
  (:meth:`knightgraph.Board.move_table` with ``missing=m*n, pad=1``);
* ``degree[i]`` counts the unvisited neighbours of ``i``, kept up to date;
* random choices use :func:`splitmix64` on a one-element ``uint64`` state;
* each call does a bounded amount of work (``stop``) and returns, with all
  state in the caller's arrays, so the caller can check its budget and call
  again.

Examples
--------
>>> import numpy as np
>>> state = np.array([0], dtype=np.uint64)
>>> hex(splitmix64(state)), hex(splitmix64(state))
('0xe220a8397b1dcdaf', '0x6e789e6aa1b965f4')
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import InvalidOptionError
from ..running.native import load_library, python_only
from .follow import follow_python

__all__ = [
    "DFS_EXHAUSTED",
    "DFS_FOUND",
    "DFS_RUNNING",
    "Kernels",
    "declare",
    "dfs_python",
    "follow_python",
    "kernels",
    "splitmix64",
    "walk_python",
]

DFS_RUNNING, DFS_FOUND, DFS_EXHAUSTED = 0, 1, 2
PYTHON_DFS_CHUNK = 1 << 15
"""Placements per call of the plain-Python search that :func:`kernels` hands out
(a few hundredths of a second): the caller checks its budget between calls, which
it would otherwise do only after its compiled-size chunk, seconds later."""
_MASK = (1 << 64) - 1
Array = np.ndarray[Any, Any]


def splitmix64(state: np.ndarray[Any, Any]) -> int:
    """Advance a one-element ``uint64`` state; the next 64-bit output (Steele et al. 2014).

    Examples
    --------
    The reference generator's outputs from the seed 1234567:

    >>> state = np.array([1234567], dtype=np.uint64)
    >>> [splitmix64(state) for _ in range(3)]
    [6457827717110365317, 3203168211198807973, 9817491932198370423]
    """
    z = (int(state[0]) + 0x9E3779B97F4A7C15) & _MASK
    state[0] = z
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def dfs_python(
    targets: np.ndarray[Any, Any],
    closers: np.ndarray[Any, Any],
    path: np.ndarray[Any, Any],
    cursor: np.ndarray[Any, Any],
    visited: np.ndarray[Any, Any],
    counters: np.ndarray[Any, Any],
    end: int,
    closed: bool,
    stop: int,
) -> int:
    """Plain depth-first search in the fixed column order of ``targets``.

    ``path[0 .. depth]`` is the current path (``counters = [depth, placed,
    tried]``), ``cursor[d]`` the next move to try at depth ``d``.  Runs until a
    tour is found, the search is exhausted, or ``placed`` reaches ``stop``;
    returns :data:`DFS_FOUND`, :data:`DFS_EXHAUSTED` or :data:`DFS_RUNNING`.  A
    tour must end on ``end`` (if >= 0) and, if ``closed``, on a square with
    ``closers[square]`` set (the start's neighbours), with at least 3 squares.

    Examples
    --------
    The first open tour of 5x5 from a1, with the counts of
    ``backtrack(Board(5, 5), start="a1")``:

    >>> from knightgraph import Board
    >>> board = Board(5, 5)
    >>> targets = board.move_table(missing=25, sentinel=True)  # no move: the sentinel 25
    >>> visited = np.zeros(26, dtype=np.uint8)
    >>> visited[[0, 25]] = 1  # the start a1 and the sentinel
    >>> path, cursor = np.zeros(25, dtype=np.int32), np.zeros(25, dtype=np.int8)
    >>> counters, closers = np.zeros(3, dtype=np.int64), np.zeros(26, dtype=np.uint8)
    >>> dfs_python(targets, closers, path, cursor, visited, counters, -1, False, 10**6)
    1
    >>> [board.name(int(i)) for i in path[:5]], counters.tolist()  # depth, placed, tried
    (['a1', 'b3', 'c5', 'e4', 'd2'], [24, 8839, 70624])
    """
    total, moves = len(path), targets.shape[1]
    depth, placed, tried = (int(x) for x in counters)
    status = DFS_EXHAUSTED
    while depth >= 0:
        k = int(cursor[depth])
        if k == moves:
            visited[path[depth]] = 0
            depth -= 1
            continue
        cursor[depth] = k + 1
        tried += 1
        nxt = int(targets[path[depth], k])
        if visited[nxt]:
            continue
        placed += 1
        depth += 1
        path[depth] = nxt
        visited[nxt] = 1
        if depth == total - 1:
            if (end < 0 or nxt == end) and (not closed or (closers[nxt] and total > 2)):
                status = DFS_FOUND
                break
            visited[nxt] = 0
            depth -= 1
        else:
            cursor[depth] = 0
        if placed >= stop:
            status = DFS_RUNNING
            break
    counters[:] = (depth, placed, tried)
    return status


@functools.wraps(dfs_python)
def _dfs_python_chunked(
    targets: Array,
    closers: Array,
    path: Array,
    cursor: Array,
    visited: Array,
    counters: Array,
    end: int,
    closed: bool,
    stop: int,
) -> int:
    """:func:`dfs_python` returning (RUNNING) after :data:`PYTHON_DFS_CHUNK` placements at most."""
    stop = min(stop, int(counters[1]) + PYTHON_DFS_CHUNK)
    return dfs_python(targets, closers, path, cursor, visited, counters, end, closed, stop)


def _keep_smallest(cand: list[int], values: list[int]) -> list[int]:
    low = min(values)
    return [c for c, v in zip(cand, values, strict=True) if v == low]


def walk_python(
    targets: np.ndarray[Any, Any],
    order: np.ndarray[Any, Any],
    key: np.ndarray[Any, Any],
    degree: np.ndarray[Any, Any],
    visited: np.ndarray[Any, Any],
    path: np.ndarray[Any, Any],
    pos: np.ndarray[Any, Any],
    counters: np.ndarray[Any, Any],
    rng: np.ndarray[Any, Any],
    end: int,
    border: bool,
    use_key: bool,
    pohl: bool,
    randomize: bool,
    stop_length: int,
    stop_steps: int,
    stop_square: int = -1,
) -> None:
    """Extend the path (``counters = [length, steps]``) by a Warnsdorff-family rule.

    From the last square the candidates are its unvisited neighbours, in the
    move order ``order`` (a required ``end`` only as the very last square).

    * Warnsdorff (``border`` false): keep those with the fewest unvisited
      neighbours; then, if ``use_key``, those with the smallest ``key``; then,
      if ``pohl``, those whose unvisited neighbours have the smallest total
      degree; then take the first, or a random one if ``randomize``.
    * Seed 003's rule (``border`` true): the first candidate with at most one
      unvisited neighbour, else the first with the smallest ``key`` (the
      distance to the edge).

    Stops when stuck, complete, at ``stop_length`` squares, after
    ``stop_steps`` steps in all, or right after visiting ``stop_square``.

    Examples
    --------
    Warnsdorff's rule from a1 on 8x8, ties to the first move (``rule="first"``):

    >>> from knightgraph import Board
    >>> board = Board(8, 8)
    >>> targets = board.move_table(missing=64, sentinel=True)
    >>> degree = (targets != 64).sum(axis=1, dtype=np.int32)  # unvisited neighbours
    >>> degree[targets[0]] -= 1  # a1 is on the path
    >>> visited, pos = np.zeros(65, dtype=np.uint8), np.full(65, -1, dtype=np.int32)
    >>> visited[[0, 64]], pos[0] = 1, 0
    >>> path, counters = np.zeros(64, dtype=np.int32), np.array([1, 0], dtype=np.int64)
    >>> order, key, rng = np.arange(8), np.zeros(65, dtype=np.int64), np.zeros(1, np.uint64)
    >>> walk_python(targets, order, key, degree, visited, path, pos, counters, rng,
    ...             -1, False, False, False, False, 64, 10**6)
    >>> counters.tolist(), [board.name(int(i)) for i in path[:4]]  # length, steps; the walk
    ([64, 63], ['a1', 'b3', 'c1', 'a2'])
    """
    total, moves = len(path), targets.shape[1]
    length, steps = int(counters[0]), int(counters[1])
    here = int(path[length - 1])
    while length < total and length < stop_length and steps < stop_steps:
        cand = []
        for j in order:
            t = int(targets[here, j])
            if not visited[t] and not (t == end and length < total - 1):
                cand.append(t)
        if not cand:
            break
        if border:
            low = [t for t in cand if degree[t] <= 1]
            choice = low[0] if low else min(cand, key=lambda t: int(key[t]))
        else:
            ties = _keep_smallest(cand, [int(degree[t]) for t in cand])
            if use_key and len(ties) > 1:
                ties = _keep_smallest(ties, [int(key[t]) for t in ties])
            if pohl and len(ties) > 1:
                sums = [sum(int(degree[u]) for u in targets[t] if not visited[u]) for t in ties]
                ties = _keep_smallest(ties, sums)
            choice = ties[0]
            if randomize and len(ties) > 1:
                choice = ties[splitmix64(rng) % len(ties)]
        visited[choice] = 1
        path[length] = choice
        pos[choice] = length
        length += 1
        for j in range(moves):
            degree[targets[choice, j]] -= 1
        here = choice
        steps += 1
        if choice == stop_square:
            break
    counters[0], counters[1] = length, steps


@dataclass(frozen=True)
class Kernels:
    """The pair of inner loops in use, compiled or not.

    Examples
    --------
    >>> k = kernels()  # compiled, unless not built or KNIGHTGRAPH_KERNELS=python
    >>> k.compiled == (k.follow is not follow_python)
    True

    Compiled or not, the loops give the same answers:

    >>> from knightgraph.solvers.codes import DIRECTIONS, codes_from_order
    >>> codes = codes_from_order(3, 4, [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4], False).reshape(-1)
    >>> delta = np.array([dr * 4 + dc for dr, dc in DIRECTIONS] + [0] * 8, dtype=np.int64)
    >>> a, b = np.zeros(12, dtype=np.int64), np.zeros(12, dtype=np.int64)
    >>> k.follow(codes, delta, 8, 0, a), follow_python(codes, delta, 8, 0, b), a.tolist() == b.tolist()
    (12, 12, True)
    """

    dfs: Any
    walk: Any
    follow: Any
    compiled: bool


def _ctypes_kernels(library: ctypes.CDLL) -> Kernels:
    """The compiled kernels of ``library``: depth-first search, the walk and the follower."""
    return Kernels(
        _ctypes_dfs(library), _ctypes_walk(library), _ctypes_follow(library), compiled=True
    )


_C_TYPES: dict[str, Any] = {"i": ctypes.c_int64, "p": ctypes.c_void_p}


def declare(function: Any, restype: Any, spec: str) -> Any:
    """Give a C ``function`` its result type and argument types, ``spec`` one word each.

    A word is ``i`` (``int64``), ``p`` (a bare pointer) or a numpy dtype name (a
    C-contiguous array of it).

    Examples
    --------
    >>> import types
    >>> f = declare(types.SimpleNamespace(), None, "uint8 i p")
    >>> f.argtypes[0]._dtype_, f.argtypes[1:] == [ctypes.c_int64, ctypes.c_void_p]
    (dtype('uint8'), True)
    """
    function.restype = restype
    function.argtypes = [
        _C_TYPES.get(word) or np.ctypeslib.ndpointer(dtype=word, flags="C_CONTIGUOUS")
        for word in spec.split()
    ]
    return function


def _ctypes_dfs(library: ctypes.CDLL) -> Callable[..., int]:
    """``kg_dfs`` of ``library`` as a Python function (see :class:`Kernels`)."""
    c_dfs = declare(library.kg_dfs, ctypes.c_int64, "int32 i uint8 int32 int8 uint8 int64 i i i i")

    def dfs(
        targets: Array,
        closers: Array,
        path: Array,
        cursor: Array,
        visited: Array,
        counters: Array,
        end: int,
        closed: bool,
        stop: int,
    ) -> int:
        arrays = (closers, path, cursor, visited, counters)
        return int(c_dfs(targets, targets.shape[1], *arrays, len(path), end, int(closed), stop))

    return dfs


def _ctypes_walk(library: ctypes.CDLL) -> Callable[..., None]:
    """``kg_walk`` of ``library`` as a Python function (see :class:`Kernels`)."""
    spec = "int32 i int64 int64 int32 uint8 int32 int32 int64 uint64" + " i" * 9
    c_walk = declare(library.kg_walk, None, spec)

    def walk(
        targets: Array,
        order: Array,
        key: Array,
        degree: Array,
        visited: Array,
        path: Array,
        pos: Array,
        counters: Array,
        rng: Array,
        end: int,
        border: bool,
        use_key: bool,
        pohl: bool,
        randomize: bool,
        stop_length: int,
        stop_steps: int,
        stop_square: int = -1,
    ) -> None:
        arrays = (order, key, degree, visited, path, pos, counters, rng)
        flags = (int(border), int(use_key), int(pohl), int(randomize))
        stops = (stop_length, stop_steps, stop_square)
        c_walk(targets, targets.shape[1], *arrays, len(path), end, *flags, *stops)

    return walk


def _ctypes_follow(library: ctypes.CDLL) -> Any:
    """:func:`follow_python`, compiled: ``kg_follow`` and ``kg_follow_cycle`` of the library."""
    one_way, both_ways = (
        declare(function, ctypes.c_int64, "uint8 int64 i i p p i")
        for function in (library.kg_follow, library.kg_follow_cycle)
    )

    def follow(
        codes: Array, delta: Array, start: int, first: int, out: Array, *, cycle: bool = False
    ) -> int:
        # The C walk checks no bounds: refuse what would make it read or write outside.
        if not 0 <= start < len(codes) or len(delta) != 16:
            raise InvalidOptionError(f"invalid start {start} for {len(codes)} codes")
        if out.dtype not in (np.int32, np.int64) or not out.flags.c_contiguous:
            raise InvalidOptionError(
                f"invalid out array: {out.dtype}, contiguous "
                f"{out.flags.c_contiguous}; expected int32 or int64"
            )
        pointer = out.ctypes.data
        wide = out.dtype == np.int64
        narrow_out, wide_out = (None, pointer) if wide else (pointer, None)
        walk = both_ways if cycle else one_way
        return int(walk(codes, delta, start, first, narrow_out, wide_out, len(out)))

    return follow


@functools.cache
def _compiled() -> Kernels | None:
    library = load_library("_kernels")
    try:
        return None if library is None else _ctypes_kernels(library)
    except AttributeError:  # a stale build without some function
        return None


def kernels() -> Kernels:
    """The compiled kernels when built (and not disabled), else the Python ones.

    The Python search is handed out in short chunks (:data:`PYTHON_DFS_CHUNK`
    placements a call), so that a timeout holds although it is slower.

    Examples
    --------
    >>> kernels().dfs.__name__ in ("dfs", "dfs_python")
    True
    """
    if not python_only():
        compiled = _compiled()
        if compiled is not None:
            return compiled
    return Kernels(_dfs_python_chunked, walk_python, follow_python, compiled=False)
