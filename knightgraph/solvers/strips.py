"""Open tours between two prescribed squares on thin boards (3, 4 or 5 ranks), any length.

The long side is cut into blocks, left to right.  Between two neighbouring
blocks the tour crosses once or twice, by fixed knight's moves (the
*crossings*, the same at every cut of a kind): once between the block of
``s`` and the block of ``t`` (taking ``s`` left of ``t``), twice elsewhere:
the tour runs out to the end of the board and back.

Each block is solved on its own as a path with *virtual links*
(:func:`~knightgraph.solvers.pathsat.block_path`): the part of the board on
one side of a block joins the block's two crossing squares on that side by a
path, which the block sees as one extra link.  By induction, the part of the
board left of a cut is one path between the two crossing squares on its right
(or from ``s`` to the single one), so the blocks' paths and the crossings
together make one path from ``s`` to ``t``.

Kinds of block: the *end* blocks (a U-turn between the two crossing squares),
the *double* blocks repeated between an end and the block of ``s`` or ``t``,
the *single* blocks between them, and the *windows* around ``s`` and ``t``
(one window when they are close).  A long board repeats the double and single
blocks, a few kinds of block whatever its length: a handful of SAT calls on
small blocks, cached; the rest is filling arrays (the neighbour codes, as in
:mod:`knightgraph.solvers.corridor`) and one linear walk: O(length).

On 4 ranks with both ends on the outer ranks (the only ends a tour of 4 x n
can have) :mod:`knightgraph.solvers.fourranks` is tried first: it builds every
such pair, including those far from both short edges, where a cut beyond the
ends must be crossed four times and the blocks here cannot.

Examples
--------
>>> order = strip_path(5, 40, (2, 0), (4, 37))
>>> len(order), int(order[0]), int(order[-1]) == 4 * 40 + 37
(200, 80, True)
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ..running.budget import Budget
from .codes import NONE, Codes, Square, direction
from .corridor import corridor_walk
from .fourranks import four_rank_path
from .pathsat import block_path

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["THIN", "strip_path"]

THIN = (3, 4, 5)
"""The short sides treated here."""

PERIOD = {3: 8, 4: 6, 5: 6}
"""Width of the repeated blocks for each short side."""

MARGINS = (3, 4, 2, 5, 7)
"""Files kept on each side of ``s`` and ``t`` in their windows, tried in turn."""

SHIFTS = 3
"""Extra files tried for each window edge (the colours of the crossings change with it)."""

FAILURES = 30
"""Layouts whose blocks may fail (a SAT call each, cached) before an orientation of the
board is given up (four orientations are tried)."""

STANDARDS = 18
"""Choices of crossings (single, double left of s, double right of t) tried: one of each
colour class."""

Move = tuple[Square, Square]


def strip_path(
    m: int, n: int, s: Square, t: Square, budget: Budget | None = None
) -> NDArray[Any] | None:
    """The order of an open tour of the thin m x n board from ``s`` to ``t``, or None.

    Parameters
    ----------
    m, n : int
        The board; its short side in :data:`THIN`.
    s, t : (int, int)
        The first and the last square, 0-based ``(r, c)``.
    budget : Budget, optional
        Its timeout is read between the attempts.

    Returns
    -------
    numpy.ndarray or None
        The flat indices from ``s`` to ``t``; None when no layout of blocks worked
        (or the time ran out): the pair may have no tour at all, which this
        function does not decide.  The order is not verified here (``Tour`` does it).

    Notes
    -----
    Layouts tried: margins :data:`MARGINS` around the ends, each window edge
    moved by up to :data:`SHIFTS` files, :data:`STANDARDS` choices of the
    crossings.  Each layout costs a bounded number of cached SAT calls on
    blocks of at most a few hundred squares; the fill and the walk are O(mn).

    Examples
    --------
    >>> order = strip_path(40, 3, (0, 0), (39, 2))  # the long side may be either
    >>> len(order), int(order[0]), int(order[-1])
    (120, 0, 119)
    >>> strip_path(5, 10, (2, 1), (4, 2)) is None  # b3 and c5: no tour (forced moves)
    True
    """
    if s == t or min(m, n) not in THIN:
        return None
    if m > n:  # work on the transposed board: k ranks, long side along the files
        order = strip_path(n, m, (s[1], s[0]), (t[1], t[0]), budget)
        if order is None:
            return None
        files = order // m  # in place but for one temporary: 4 bytes a square at most
        np.remainder(order, m, out=order)
        order *= n
        order += files
        return order
    k, length = m, n
    if k == 4:  # both ends on the outer ranks: two paths joined by one move (fourranks)
        order = four_rank_path(length, s, t)
        if order is not None:
            return order
    for flip_r, flip_c in ((False, False), (False, True), (True, False), (True, True)):
        failures = [0]  # each orientation has its own allowance
        a, b = s, t
        if flip_r:
            a, b = (k - 1 - a[0], a[1]), (k - 1 - b[0], b[1])
        if flip_c:
            a, b = (a[0], length - 1 - a[1]), (b[0], length - 1 - b[1])
        order = _oriented(k, length, a, b, budget, failures)
        if order is None:
            if budget is not None and budget.out_of_time():
                return None
            continue
        if not (flip_r or flip_c):
            return order
        files = order % length  # in place but for one temporary
        order -= files  # rank * length
        if flip_r:
            np.subtract((k - 1) * length, order, out=order)
        if flip_c:
            np.subtract(length - 1, files, out=files)
        order += files
        return order
    return None


def _oriented(
    k: int, length: int, s: Square, t: Square, budget: Budget | None, failures: list[int]
) -> NDArray[Any] | None:
    """:func:`strip_path` for one orientation of the board."""
    swap = s[1] > t[1]
    first, last = (t, s) if swap else (s, t)
    tried = set()
    for margin in MARGINS:
        for shift_s in range(SHIFTS):
            for shift_t in range(SHIFTS):
                layout = _layout(k, length, first[1], last[1], margin, (shift_s, shift_t))
                if layout is None or tuple(layout) in tried:
                    continue
                tried.add(tuple(layout))
                for choice in range(STANDARDS):
                    if budget is not None and budget.out_of_time():
                        return None
                    order = _attempt(
                        k, length, first, last, margin, (shift_s, shift_t), choice, swap
                    )
                    if isinstance(order, np.ndarray):
                        return order
                    failures[0] += order
                    if failures[0] > FAILURES:
                        return None
    return None


def _attempt(
    k: int,
    length: int,
    s: Square,
    t: Square,
    margin: int,
    shifts: tuple[int, int],
    choice: int,
    backwards: bool = False,
) -> NDArray[Any] | int:
    """One layout: its blocks solved (cached), filled in, and walked (from ``t`` when
    ``backwards``: no reversed copy); else 1 if a block has no path, 0 if the layout does
    not apply."""
    standard = _standard(k, choice)
    if standard is None:
        return 0
    single, double, back = standard
    layout = _layout(k, length, s[1], t[1], margin, shifts)
    if layout is None or not _colours_fit(k, length, layout, s, single, double, back):
        return 0
    codes = np.full((k, length), (NONE << 4) | NONE, dtype=np.uint8)
    for x0, width, copies, kind in layout:
        left = () if x0 == 0 else (single if kind in ("single", "t") else double)
        right = (
            () if x0 + width * copies == length else (single if kind in ("single", "s") else double)
        )
        ends: Any = None
        if kind == "s":
            ends = (s[0], s[1] - x0)
        elif kind == "t":
            ends = (t[0], t[1] - x0)
        elif kind == "st":
            ends = ((s[0], s[1] - x0), (t[0], t[1] - x0))
        block = _solve(k, width, kind, ends, left, right)
        if block is None:
            return 1
        codes[:, x0 : x0 + width * copies] = np.tile(block, (1, copies))
    first, last = s[0] * length + s[1], t[0] * length + t[1]
    if backwards:
        first, last = last, first
    order = corridor_walk(codes, first, None)
    if order is None or len(order) != k * length or int(order[-1]) != last:
        return 1  # pragma: no cover - the blocks' links make one path
    return order


def _layout(
    k: int, length: int, cs: int, ct: int, margin: int, shifts: tuple[int, int]
) -> list[tuple[int, int, int, str]] | None:
    """Blocks ``(first file, width, copies, kind)`` left to right, or None.

    Kinds: ``end`` (left or right end), ``double`` (left of ``s``), ``double-right``
    (right of ``t``), ``single``, ``s``, ``t``
    and ``st`` (one window holding both ends)."""
    period = PERIOD[k]
    least = period  # an end block is period..2*period-1 files wide
    a_s = cs - margin - shifts[0]
    a_s = a_s if a_s >= least else 0
    b_t = ct + margin + 1 + shifts[1]
    b_t = b_t if length - b_t >= least else length
    b_s = max(cs + margin + 1, 2 * margin + 1) if a_s == 0 else cs + margin + 1
    a_t = min(ct - margin, length - 2 * margin - 1) if b_t == length else ct - margin
    gap = a_t - b_s
    blocks: list[tuple[int, int, int, str]] = []
    if a_s > 0:
        end = least + (a_s - least) % period
        blocks.append((0, end, 1, "end"))
        if a_s > end:
            blocks.append((end, period, (a_s - end) // period, "double"))
    if gap >= period:
        b_s = a_t - period * (gap // period)
        blocks.append((a_s, b_s - a_s, 1, "s"))
        blocks.append((b_s, period, gap // period, "single"))
        blocks.append((a_t, b_t - a_t, 1, "t"))
    else:
        blocks.append((a_s, b_t - a_s, 1, "st"))
    if b_t < length:
        end = least + (length - b_t - least) % period
        if length - b_t > end:
            blocks.append((b_t, period, (length - b_t - end) // period, "double-right"))
        blocks.append((length - end, end, 1, "end"))
    return blocks


def _colours_fit(
    k: int,
    length: int,
    layout: list[tuple[int, int, int, str]],
    s: Square,
    single: tuple[Move, ...],
    double: tuple[Move, ...],
    back: tuple[Move, ...],
) -> bool:
    """Whether every cut passes the colour count (a necessary condition, O(blocks)).

    Left of a cut, the board is a path from ``s`` to the crossing square (a
    single cut) or between the two crossing squares (a double cut left of
    ``s``); right of a double cut beyond ``t``, a path between the two crossing
    squares.  A path through an even number of squares joins two colours; through
    an odd number, two squares of the majority colour (that of the part's corner).
    The cuts inside a run of repeated blocks have the parity of its first (the
    period is even).  The triple cuts of 4-rank boards are not checked.
    """

    def colour(square: Square) -> int:
        return (square[0] + square[1]) % 2

    def fits(squares: int, corner: int, u: Square, v: Square) -> bool:
        if squares % 2 == 0:
            return colour(u) != colour(v)
        return colour(u) == colour(v) == corner

    for x0, _, _, kind in layout:
        if x0 == 0:
            continue
        near = [(a[0], a[1] + x0) for a, _ in (single if kind in ("single", "t") else double)]
        far = [(b[0], b[1] + x0) for _, b in back]
        if kind in ("single", "t"):
            ok = len(single) > 1 or fits(k * x0, 0, s, near[0])
        elif kind in ("double-right", "end"):
            ok = fits(k * (length - x0), x0 % 2, far[0], far[1])
        else:  # "double", "s", "st": left of s
            ok = fits(k * x0, 0, near[0], near[1])
        if not ok:
            return False
    return True


def _crossing_moves(k: int) -> list[Move]:
    """Knight's moves across a cut at file 0: from files -2, -1 to files 0, 1; middle
    ranks first."""
    found = []
    for r in range(k):
        for dr, dc in ((2, 1), (-2, 1), (1, 2), (-1, 2)):
            for c in (-2, -1):
                x, y = r + dr, c + dc
                if 0 <= x < k and 0 <= y <= 1:
                    found.append(((r, c), (x, y)))
    centre = (k - 1) / 2
    found.sort(key=lambda mv: (abs(mv[0][0] - centre) + abs(mv[1][0] - centre), mv))
    return found


@functools.cache
def _standard(
    k: int, choice: int
) -> tuple[tuple[Move, ...], tuple[Move, ...], tuple[Move, ...]] | None:
    """The ``choice``-th triple (single crossing, double crossing left of ``s``, double
    crossing right of ``t``) whose repeated blocks have their paths, or None.

    The colours the cuts need depend on the parity of the cut's file and of the
    ends, so the crossings are taken one of each colour class: singles by the
    colour of the square left of the cut, doubles by the colours of both."""
    period = PERIOD[k]
    moves = _crossing_moves(k)
    cuts: list[tuple[Move, ...]]
    if k == 4:  # Schwenk: a cut of 4 x n is crossed an odd number of times, never once
        cuts = [
            (x, y, z)
            for x in moves
            for y in moves
            for z in moves
            if y < z and len({*x, *y, *z}) == 6
        ]
    else:
        cuts = [(mv,) for mv in moves]
    singles: dict[int, tuple[Move, ...]] = {}
    for cut in cuts:
        colour = sum(cut[0][0]) % 2
        if colour not in singles and _solve(k, period, "single", None, cut, cut) is not None:
            singles[colour] = cut
    lefts: dict[tuple[int, int], tuple[Move, ...]] = {}  # the doubles left of s
    rights: dict[tuple[int, int], tuple[Move, ...]] = {}  # and right of t
    for i, one in enumerate(moves):
        for two in moves[i + 1 :]:
            x, y = sum(one[0]) % 2, sum(two[0]) % 2
            key = (min(x, y), max(x, y))
            if {*one} & {*two}:
                continue
            pair = (one, two)
            if key not in lefts and _solve(k, period, "double", None, pair, pair) is not None:
                lefts[key] = pair
            if (
                key not in rights
                and _solve(k, period, "double-right", None, pair, pair) is not None
            ):
                rights[key] = pair
    combos = [(x, y, z) for x in singles.values() for y in lefts.values() for z in rights.values()]
    return combos[choice] if choice < len(combos) else None


@functools.lru_cache(maxsize=4096)
def _solve(
    k: int,
    width: int,
    kind: str,
    ends: Any,
    left: tuple[Move, ...],
    right: tuple[Move, ...],
) -> Codes | None:
    """The neighbour codes of one block of ``kind`` (with the crossings' halves at its
    sides), or None when it has no path; read-only and shared."""
    ins = [(b[0], b[1]) for _, b in left]  # crossing squares on the left side
    outs = [(a[0], a[1] + width) for a, _ in right]  # on the right side
    links: list[Move] = []
    if kind == "end" and not ins:
        a, b = outs[0], outs[1]
    elif kind == "end":
        a, b = ins[0], ins[1]
    elif kind == "double-right":
        a, b, links = ins[0], ins[1], [(outs[0], outs[1])]
    elif kind == "double":
        a, b, links = outs[0], outs[1], [(ins[0], ins[1])]
    elif kind == "single":  # the first crossing carries the path; the others are linked
        a, b, links = ins[0], outs[-1], _pairs(ins[1:]) + _pairs(outs[:-1])
    elif kind == "s":
        a, b, links = ends, outs[-1], _pairs(ins) + _pairs(outs[:-1])
    elif kind == "t":
        a, b, links = ins[0], ends, _pairs(ins[1:]) + _pairs(outs)
    else:  # "st"
        a, b = ends
        links = _pairs(ins) + _pairs(outs)
    # With three crossings (4 ranks) the path from a must leave by the first one.
    first = (outs[0], outs[1]) if kind in ("single", "s") and len(outs) == 3 else None
    if a == b or not all(0 <= sq[1] < width for sq in (a, b, *ins, *outs)):
        return None
    moves = block_path(k, width, a, b, tuple(links), first)
    if moves is None:
        return None
    codes = np.full((k, width), (NONE << 4) | NONE, dtype=np.uint8)
    halves = [(b_, (a_[0] - b_[0], a_[1] - b_[1])) for a_, b_ in left]
    halves += [((a_[0], a_[1] + width), (b_[0] - a_[0], b_[1] - a_[1])) for a_, b_ in right]
    for u, v in moves:
        halves += [(u, (v[0] - u[0], v[1] - u[1])), (v, (u[0] - v[0], u[1] - v[1]))]
    for (r, c), (dr, dc) in halves:
        value = int(codes[r, c])
        code = direction(dr, dc)
        codes[r, c] = (value & 0xF0) | code if value & 15 == NONE else (value & 0x0F) | (code << 4)
    codes.flags.writeable = False
    return codes


def _pairs(squares: list[Square]) -> list[Move]:
    """Consecutive squares two by two: the links the other side of a cut provides."""
    return [(squares[i], squares[i + 1]) for i in range(0, len(squares) - 1, 2)]
