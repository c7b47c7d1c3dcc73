"""Open tours of the 4 x n board between two squares of its outer ranks, any length.

Every move from an outer square (ranks 1 and 4) lands on an inner one (ranks
2 and 3), and every move changes the colour.  So the moves between outer and
inner squares fall into two graphs: ``H_c`` joins the outer squares of colour
``c`` to the inner squares of colour ``1 - c``.  Each is a copy of one graph
``X_n``: with ``T_f`` the outer square of ``H_c`` on file ``f`` (rank 1 when
``f`` has the parity of ``c``, else rank 4) and ``B_f`` its inner square
(rank 2, else 3), ``T_i`` and ``B_j`` are joined exactly when
``1 <= |i - j| <= 2``.  The other moves join two inner squares (ranks 2 and 3,
two files apart): ``B_f`` of one copy to ``B_{f +- 2}`` of the other.

An open tour from ``s`` to ``t``, both outer, has its ``2n`` outer squares
(half the board, no two adjacent) at every other place but once: it makes
exactly one inner-inner move.  Before it the tour alternates outer squares of
the colour of ``s`` and inner squares of the other colour, that is, it is a
Hamiltonian path of ``H_c`` (``c`` the colour of ``s``) from ``s`` to an
inner square ``x``; after it, a Hamiltonian path of ``H_{1-c}`` from ``y`` to
``t``, with ``x - y`` an inner-inner move.  The construction builds exactly
that: two paths of ``X_n``, from ``T_a`` to ``B_x`` and from ``T_b`` to
``B_y`` with ``|x - y| = 2`` and ``x, y`` near file 0, joined by the move.

Each path of ``X_n`` runs from ``T_a`` out to the far end, turns back, and
runs to file 0 (or, the board mirrored, the other way).  Away from ``a`` and
the ends it follows one of two patterns of period one file: two *strands*
(``T_f`` joined to ``B_{f-1}`` and ``B_{f+1}``) beyond ``a``, where it goes
out and comes back; three (``T_f`` joined to ``B_{f-1}`` and ``B_{f+2}``) before
``a``, where it passes three times.  The board is therefore a short
*template* (at most 61 files; both paths found by a depth-first search, the
patterns forced on the stretches between the windows around ``a``, ``b`` and
the two ends) whose stretches are then repeated, 2 files at a time where two
strands run and 6 where three do (a multiple of 3 keeps each strand on
itself), by :func:`~knightgraph.solvers.codes.expand` to the board's length.

Examples
--------
>>> order = four_rank_path(60, (0, 25), (3, 29))  # z1 to ad4
>>> len(order), int(order[0]), int(order[-1]) == 3 * 60 + 29
(240, 25, True)
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING, Any

import numpy as np

from .codes import NONE, Codes, Square, direction, expand
from .corridor import corridor_walk

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["four_rank_path"]

LEFT = 6
"""Files of the window at file 0, where the inner-inner move is made."""

HALF = 3
"""Files kept each side of an end's file in its window."""

RIGHT = 4
"""Files of the window at the far end, where the strands turn."""

NODES = (5_000, 100_000, 1_000_000)
"""Search nodes allowed per template path before it counts as not found: every pair of
inner ends is tried with the first allowance, then again with the next (most templates
are found in a few hundred nodes; a few need some 10^5)."""

STRANDS = (-1, 1)
THREE = (-1, 2)
"""The file offsets of the neighbours of ``T_f`` in the two patterns (those of
``B_f`` are their negatives): two strands, out and back; three strands, each
``T_f, B_{f-1}, T_{f-3}, ...`` (out, back and out again)."""

INNER_PAIRS = ((0, 2), (2, 0), (1, 3), (3, 1), (2, 4), (4, 2), (3, 5), (5, 3), (4, 6), (5, 7))
"""Files ``(x, y)`` of the inner ends of the two halves, tried in turn."""


def four_rank_path(n: int, s: Square, t: Square) -> NDArray[Any] | None:
    """The order of an open tour of the 4 x n board from ``s`` to ``t``, or None.

    Parameters
    ----------
    n : int
        The number of files (the long side); at least 7.
    s, t : (int, int)
        The ends, 0-based ``(rank, file)``, both on ranks 0 or 3, of different
        colours (else None: there is no such tour).

    Returns
    -------
    numpy.ndarray or None
        The flat indices (``rank * n + file``) from ``s`` to ``t``; None when the
        pair is outside this construction or a template search gave up.  The order
        is not verified here (``Tour`` does it).

    Notes
    -----
    See the module docstring for the decomposition.  The templates are found
    by a depth-first search on ``X`` with the patterns forced, from the inner
    end back to ``T_a`` first (pruned by degree: an unvisited square needs two
    free neighbours, the last one; a forced move that can no longer be made
    ends the branch; sound, as every square of a Hamiltonian path but its ends
    uses two moves), cached by their shape: a board of any length needs a bounded number of searches of at
    most :data:`NODES` nodes each.  Filling the codes and repeating the stretches is
    O(n), the final walk (compiled) O(n).

    Examples
    --------
    >>> order = four_rank_path(7, (0, 0), (0, 1))
    >>> len(order), int(order[0]), int(order[-1])
    (28, 0, 1)
    >>> four_rank_path(9, (1, 0), (0, 1)) is None  # b1 is inner: not this construction
    True
    """
    if n < 7 or s[0] not in (0, 3) or t[0] not in (0, 3) or sum(s) % 2 == sum(t) % 2:
        return None
    layouts = [(s, t, False), ((s[0], n - 1 - s[1]), (t[0], n - 1 - t[1]), True)]
    for nodes in NODES:
        for u, v, mirrored in layouts:  # the inner ends near file 0, or near file n - 1
            m, su, sv, key, copies = _layout(n, u, v)
            for x, y in INNER_PAIRS:
                codes = _template(m, su, sv, x, y, *key, nodes)
                if codes is None:
                    continue
                big = expand(codes, [w for w in copies if w[2] > 0])
                order = corridor_walk(big, u[0] * n + u[1], None)
                if order is None or len(order) != 4 * n or int(order[-1]) != v[0] * n + v[1]:
                    return None  # pragma: no cover - the stretches repeat the pattern
                if mirrored:  # file f -> n - 1 - f, in place but for one temporary
                    files = order % n
                    files *= -2
                    files += n - 1
                    order += files
                return order
    return None


def _layout(
    n: int, s: Square, t: Square
) -> tuple[int, Square, Square, tuple[Any, Any], list[tuple[int, int, int]]]:
    """The template of the board: its files, the ends on it, its stretches (kept and
    forced, short and forced first) and the copies (``expand`` windows) that restore the
    board's length."""
    a, b = s[1], t[1]
    cuts = sorted({a, b})
    # the stretches between the windows: (first file, length), left to right
    bounds = [LEFT] + [x for c in cuts for x in (c - HALF, c + HALF + 1)] + [n - RIGHT]
    spans = [(bounds[i], bounds[i + 1] - bounds[i]) for i in range(0, len(bounds), 2)]
    template: list[tuple[int, int]] = []  # template coordinates
    short: list[tuple[int, int]] = []
    copies: list[tuple[int, int, int]] = []
    removed: list[tuple[int, int]] = []  # board coordinates
    for x0, length in spans:
        period = 2 if x0 > cuts[-1] else 6  # three strands: a multiple of 3 files
        x1 = x0 - sum(r for _, r in removed)
        if length >= period + 4:
            kept = period + 4 + (length - period - 4) % period
            template.append((x1, kept))
            copies.append((x1 + 2, period, (length - kept) // period))
            removed.append((x0, length - kept))
        elif length > 0:
            short.append((x1, length))

    def squeeze(f: int) -> int:  # a file of a window, on the template
        return f - sum(r for x0, r in removed if x0 < f)

    key = (tuple(template), tuple(short))
    return squeeze(n), (s[0], squeeze(a)), (t[0], squeeze(b)), key, copies


@functools.lru_cache(maxsize=1024)
def _template(
    m: int,
    s: Square,
    t: Square,
    x: int,
    y: int,
    stretches: tuple[tuple[int, int], ...],
    short: tuple[tuple[int, int], ...],
    nodes: int,
) -> Codes | None:
    """The codes of the 4 x m template: both halves' paths (inner ends on files ``x``
    and ``y``) with the patterns forced on the ``stretches`` (and first also on the
    ``short`` ones, which prunes the search); read-only, or None."""
    c = sum(s) % 2  # the colour of s: its half is H_c
    paths = []
    for end, inner in ((s, x), (t, y)):
        found = _half(m, end[1], inner, stretches, short, nodes)
        if found is None:
            return None
        paths.append(found)
    codes = np.full((4, m), (NONE << 4) | NONE, dtype=np.uint8)
    pieces: dict[Square, list[int]] = {}
    for half, path in ((c, paths[0]), (1 - c, paths[1])):
        squares = [_square(half, v, m) for v in path]
        for u, v in itertools.pairwise(squares):
            pieces.setdefault(u, []).append(direction(v[0] - u[0], v[1] - u[1]))
            pieces.setdefault(v, []).append(direction(u[0] - v[0], u[1] - v[1]))
    u, v = _square(c, paths[0][-1], m), _square(1 - c, paths[1][-1], m)
    pieces[u].append(direction(v[0] - u[0], v[1] - u[1]))  # the inner-inner move
    pieces[v].append(direction(u[0] - v[0], u[1] - v[1]))
    for (r, f), dirs in pieces.items():
        lo, hi = (NONE, dirs[0]) if len(dirs) == 1 else sorted(dirs)
        codes[r, f] = lo | (hi << 4)
    codes.flags.writeable = False
    return codes


@functools.lru_cache(maxsize=4096)
def _half(
    m: int,
    a: int,
    x: int,
    stretches: tuple[tuple[int, int], ...],
    short: tuple[tuple[int, int], ...],
    nodes: int,
) -> list[int] | None:
    """A path of ``X_m`` from ``T_a`` to ``B_x`` with the patterns forced on the
    ``stretches`` (and, tried first, on the ``short`` ones), or None; cached, as one half
    serves several pairs ``(x, y)``."""
    for kept in (stretches + short, stretches) if short else (stretches,):
        forced = _pattern(m, a, kept)
        # From B_x back to T_a first: the same search on X with T and B swapped (T_f's
        # forced offsets become B_f's), much the faster near the turns; then forwards.
        swapped = {(v + m) % (2 * m): d for v, d in forced.items()}
        found = _search(m, x, a, swapped, nodes)
        if found is not None:
            return [(v + m) % (2 * m) for v in reversed(found)]
        found = _search(m, a, x, forced, nodes)
        if found is not None:
            return found
    return None


def _square(half: int, v: int, m: int) -> Square:
    """The board square of vertex ``v`` of ``X_m`` (``T_f = f``, ``B_f = m + f``) in
    ``H_half``."""
    f = v % m
    if v < m:
        return (0 if f % 2 == half else 3, f)
    return (1 if f % 2 == half else 2, f)


def _pattern(m: int, a: int, stretches: tuple[tuple[int, int], ...]) -> dict[int, tuple[int, ...]]:
    """The forced neighbours (file offsets, by vertex) on the stretches: strands beyond
    ``a``, three strands before it."""
    forced: dict[int, tuple[int, ...]] = {}
    for x0, length in stretches:
        offsets = STRANDS if x0 > a else THREE
        for f in range(x0, x0 + length):
            forced[f] = offsets
            forced[m + f] = tuple(-d for d in offsets)
    return forced


def _search(
    m: int, a: int, x: int, forced: dict[int, tuple[int, ...]], nodes: int
) -> list[int] | None:
    """A Hamiltonian path of ``X_m`` from ``T_a`` to ``B_x`` that uses the ``forced``
    moves, by depth-first search (at most ``nodes`` nodes), or None."""
    size, start, goal = 2 * m, a, m + x
    adj = [
        [(v + m if v < m else v - m) + d for d in (-2, -1, 1, 2) if 0 <= v % m + d < m]
        for v in range(size)
    ]
    need = [set((w + m if w < m else w - m) + d for d in forced.get(w, ())) for w in range(size)]
    if any(len(need[v]) > (1 if v in (start, goal) else 2) for v in range(size)):
        return None
    seen = [False] * size
    free = [len(adj[v]) for v in range(size)]  # unvisited neighbours (or the head)
    path = [start]
    seen[start] = True
    count = [0]

    def ok(v: int) -> bool:
        for w in adj[v]:
            if not seen[w] and (free[w] < 2 - (w == goal) or v in need[w]):
                return False
        return True

    def step(v: int) -> bool:
        count[0] += 1
        if count[0] > nodes:
            return False
        if len(path) == size:
            return v == goal
        if v == goal:
            return False
        prev = path[-2] if len(path) > 1 else -1
        rest = need[v] - {prev}
        if len(rest) > 1:
            return False
        # fewest free neighbours first (Warnsdorff), the inner end last
        options = list(rest) if rest else sorted(adj[v], key=lambda w: (w == goal, free[w]))
        for w in options:
            if seen[w] or (need[w] and v not in need[w] and len(need[w]) > 1 - (w == goal)):
                continue
            seen[w] = True
            path.append(w)
            for z in adj[v]:
                free[z] -= 1
            if ok(v) and step(w):
                return True
            for z in adj[v]:
                free[z] += 1
            path.pop()
            seen[w] = False
        return False

    return path if step(start) else None
