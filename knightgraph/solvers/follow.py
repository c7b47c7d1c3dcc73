"""Reading a tour held as neighbour codes: the walk, compiled and in plain Python.

A tour built by ``divide`` is held as neighbour codes (:mod:`.codes`): one byte a
square, whose two nibbles index ``delta``, the flat offsets of the knight's moves
(padded to 16 entries; 15 names no neighbour, at a path end).  Reading it out
into an order is one walk: leave each square by the nibble that does not lead
back.  :func:`follow_python` is the reference; ``kg_follow`` and
``kg_follow_cycle`` of ``knightgraph/_kernels.c`` follow it statement for
statement and are what :func:`knightgraph.solvers.kernels.kernels` hands out
when they are built.

Examples
--------
>>> from knightgraph.tours.blocktour import stored_order
>>> from knightgraph.solvers.codes import DIRECTIONS, codes_from_order
>>> cycle = stored_order("grid_5x6")  # a closed tour of 5x6
>>> codes = codes_from_order(5, 6, cycle, True).reshape(-1)
>>> delta = np.array([dr * 6 + dc for dr, dc in DIRECTIONS] + [0] * 8, dtype=np.int64)
>>> out = np.zeros(30, dtype=np.int64)
>>> follow_python(codes, delta, 0, 0, out), out.tolist()[:4], cycle[:4]
(30, [0, 13, 24, 20], [0, 13, 24, 20])
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["follow_python"]

Array = np.ndarray[Any, Any]


def follow_python(
    codes: Array, delta: Array, start: int, first: int, out: Array, *, cycle: bool = False
) -> int:
    """Follow a tour stored as neighbour codes; the squares go to ``out``.

    ``codes[i]`` holds the moves to the two tour neighbours of square ``i``,
    one per nibble (an index into ``delta``, the flat offsets of the moves,
    padded to 16 entries, or 15 for none at a path end).  Leaves ``start`` by
    nibble ``first`` (0 low, 1 high; a path end by its only neighbour), then
    always by the nibble that does not lead back.  Stops at a path end or after
    ``len(out)`` squares; returns how many were written.

    With ``cycle=True`` the codes are taken to hold one cycle of ``len(out)``
    squares, and the same order is read both ways at once: one walker fills
    ``out`` from the front, leaving ``start`` by nibble ``first``, the other
    from the back, leaving it by the other nibble, until they meet.  Returns 0
    (and writes nothing) when ``start`` is a path end or ``out`` holds fewer
    than 3 squares: the caller then walks one way.

    Notes
    -----
    O(len(out)) time.  Each step of a walk waits for the byte of the square it
    is on (the next square depends on it), so a long walk is bound by memory
    latency, not arithmetic; the compiled two-way walk keeps two such chains in
    flight and takes about half the time of the one-way walk on 1000 x 1000.  On
    codes that are not one cycle the two walks differ, and both orders are wrong:
    the tour check that follows every construction rejects either.

    Examples
    --------
    >>> from knightgraph.solvers.codes import DIRECTIONS, codes_from_order
    >>> order = [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4]  # an open tour of 3x4
    >>> codes = codes_from_order(3, 4, order, False).reshape(-1)
    >>> delta = np.array([dr * 4 + dc for dr, dc in DIRECTIONS] + [0] * 8, dtype=np.int64)
    >>> out = np.zeros(12, dtype=np.int64)
    >>> follow_python(codes, delta, 8, 0, out), out.tolist() == order  # from the end a3
    (12, True)
    >>> follow_python(codes, delta, 8, 0, out, cycle=True)  # a path: walk it one way
    0
    >>> from knightgraph.tours.blocktour import stored_order
    >>> codes = codes_from_order(5, 6, stored_order("grid_5x6"), True).reshape(-1)
    >>> delta[:8] = [dr * 6 + dc for dr, dc in DIRECTIONS]
    >>> one, both = np.zeros(30, dtype=np.int64), np.zeros(30, dtype=np.int64)
    >>> follow_python(codes, delta, 7, 1, one), follow_python(codes, delta, 7, 1, both, cycle=True)
    (30, 30)
    >>> one.tolist() == both.tolist()
    True
    """
    if cycle:
        return _follow_cycle(codes, delta, start, first, out)
    here, prev = start, -1
    for i in range(len(out)):
        c = int(codes[here])
        lo, hi = c & 15, c >> 4
        out[i] = here
        if i == 0:
            pick = hi if first else lo
            if pick >= 8:  # a path end: its only neighbour
                pick = lo if first else hi
        else:
            pick = lo if lo < 8 and here + int(delta[lo]) != prev else hi
        if pick >= 8:
            return i + 1
        prev, here = here, here + int(delta[pick])
    return len(out)


def _follow_cycle(codes: Array, delta: Array, start: int, first: int, out: Array) -> int:
    """The two-way walk of :func:`follow_python` (``cycle=True``)."""
    count = len(out)
    c = int(codes[start])
    lo, hi = c & 15, c >> 4
    if lo >= 8 or hi >= 8 or count < 3:
        return 0
    ahead = start + int(delta[hi if first else lo])
    behind = start + int(delta[lo if first else hi])
    came_ahead = came_behind = start
    out[0] = start
    i, j = 1, count - 1
    while i <= j:
        ca, cb = int(codes[ahead]), int(codes[behind])
        la, ha, lb, hb = ca & 15, ca >> 4, cb & 15, cb >> 4
        out[i] = ahead
        i += 1
        if i > j:
            break
        out[j] = behind
        j -= 1
        pa = ha if la >= 8 or ahead + int(delta[la]) == came_ahead else la
        pb = hb if lb >= 8 or behind + int(delta[lb]) == came_behind else lb
        came_ahead, came_behind = ahead, behind
        ahead += int(delta[pa])
        behind += int(delta[pb])
    return count
