"""Open tours between two prescribed squares, built in linear time (a corridor of path blocks).

The board is cut into blocks as for closed tours (:mod:`knightgraph.solvers.joins`).
The blocks from the block of ``s`` along its block row to the column of the
block of ``t``, then along that block column to the block of ``t``, form the
*corridor*.  Each corridor block holds a Hamiltonian path of the block: the
first from ``s`` to an exit square, the last from an entry square to ``t``,
and each other from its entry to its exit, where every exit is one knight's
move from the next block's entry; in sequence they make one path from ``s``
to ``t`` through the corridor.  Every other block keeps its stored cycle.

The cycles are joined to the corridor by the joins of ``divide`` (two moves
exchanged for two moves between the blocks).  A join between a cycle and a
path leaves a path with the same ends: removing the path's move ``a-b``
leaves two pieces ``s..a`` and ``b..t``, removing the cycle's move ``x-y``
leaves a path ``x..y``, and the two new moves ``a-x``, ``y-b`` (or ``a-y``,
``x-b``) give ``s..a, x..y, b..t``.  The joins follow a spanning tree of the
blocks in which the corridor counts as one node: each off-corridor stretch of a
block row inside the corridor's rows is joined to the corridor at its end
next to it, the rows above and below are joined row by row along the first
block column (as in ``divide``), so each join merges two different pieces.

The corridor blocks' paths come from SAT (:class:`~knightgraph.solvers.cnf.TourCNF`
with both ends given and the moves the joins need forced), cached in-process:
a long corridor repeats a few kinds of block, so a board of any size needs a
handful of SAT calls of at most 100 squares (about 3 ms each).

Colours: a path in a block with an even number of squares joins squares of
opposite colours; so every exit has the colour opposite to ``s`` (an even
board).  On a board with both sides odd, the one odd block is put over ``s``
(``s`` and ``t`` are then on the corner colour, as an open tour needs), its
path joins two squares of the corner colour, and every exit again has the
corner colour.

Examples
--------
>>> order = st_path(30, 40, (3, 5), (25, 30))
>>> len(order), int(order[0]), int(order[-1]) == 25 * 40 + 30
(1200, 125, True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..running.budget import Budget
from .blockpaths import Move, block_path, solve_path
from .blocks import PORTS
from .codes import DIRECTIONS, NONE, Codes, Square, codes_from_order, direction, follow_unchecked
from .joins import fill_around, grid_codes, join_blocks

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["MIN_SIDE", "st_path"]

MIN_SIDE = 6
"""Both sides of the board must be at least this long."""

CANDIDATES = 8
"""Crossing moves tried between two corridor blocks."""

FAILURES = 40
"""Block paths that may fail before a plan is given up."""

WHOLE_BOARD_SAT = 1600
"""Boards up to this many squares are solved whole by SAT when no plan of blocks works."""

Block = tuple[int, int]


def st_path(
    m: int, n: int, s: Square, t: Square, budget: Budget | None = None
) -> NDArray[Any] | None:
    """The order of an open tour of the m x n board from ``s`` to ``t``, or None.

    Parameters
    ----------
    m, n : int
        The board's ranks and files, both at least :data:`MIN_SIDE`.
    s, t : (int, int)
        The first and the last square, 0-based ``(r, c)``.
    budget : Budget, optional
        Its timeout is read before each block path and bounds the whole-board SAT.

    Returns
    -------
    numpy.ndarray or None
        The flat indices (``r * n + c``) from ``s`` to ``t``; None when the
        construction does not apply (a side under :data:`MIN_SIDE`, the colours
        forbid the pair) or no plan succeeded: the caller then decides by other
        means.  A returned order has not been verified yet (``Tour`` does it).

    Notes
    -----
    See the module notes.  Plans tried in turn: each cut of the sides of
    :func:`_plans` from ``s`` to ``t``, then from ``t`` to ``s`` (the order is
    then read backwards), then, on boards of at most :data:`WHOLE_BOARD_SAT`
    squares, SAT on the whole board.  Within a plan the crossings between
    corridor blocks are chosen depth first with at most :data:`FAILURES` block
    paths refused, so the SAT work is bounded whatever the board's size; the
    rest (filling the blocks, the joins, the walk) is O(mn).

    Examples
    --------
    >>> order = st_path(6, 6, (0, 0), (0, 1))
    >>> len(order), int(order[0]), int(order[-1])
    (36, 0, 1)
    >>> st_path(8, 8, (0, 0), (0, 2)) is None  # same colour on an even board: no tour
    True
    """
    if min(m, n) < MIN_SIDE or s == t:
        return None
    if m % 2 and n % 2:
        if (s[0] + s[1]) % 2 or (t[0] + t[1]) % 2:
            return None
    elif (s[0] + s[1] + t[0] + t[1]) % 2 == 0:
        return None
    for first, last, swap in ((s, t, False), (t, s, True)):
        for rows, cols in _plans(m, n, first):
            order = _build(m, n, rows, cols, first, last, budget)
            if order is not None:
                return order[::-1] if swap else order
            if budget is not None and budget.out_of_time():
                return None
    if m * n <= WHOLE_BOARD_SAT:  # small boards: the whole board is one block
        path = solve_path(m, n, s, t, (), budget)
        if path is not None:
            return np.array(path, dtype=np.int32)
    return None


def _plans(m: int, n: int, s: Square) -> list[tuple[list[int], list[int]]]:
    """Row and column parts to try: for odd x odd boards, the odd block over ``s``;
    otherwise one side cut into even parts and the other into parts of 6 to 12
    (so that every block has an even side), the small parts at either end or in
    the middle."""
    if m % 2 and n % 2:
        rows, cols = _odd_layouts(m, s[0]), _odd_layouts(n, s[1])
        return [(r, c) for r in rows for c in cols]
    rows_even = m % 2 == 0
    row_sets = _layouts(m, rows_even)
    col_sets = _layouts(n, not rows_even)
    return [(rows, cols) for rows in row_sets for cols in col_sets]


_EVEN = (10, 8, 12, 6)
_FREE = (10, 9, 11, 8, 12, 7, 6)


@functools.cache
def _layouts(size: int, even: bool) -> list[list[int]]:
    """Ways to cut a side (>= 6, even if ``even``) into parts of 6 to 12 (even ones if
    ``even``), mostly 10s."""
    allowed = _EVEN if even else _FREE
    tens, tail = size // 10, None
    while tail is None:
        tail = _few(size - 10 * tens, allowed)
        tens -= tail is None
    shapes = [tail + [10] * tens, [10] * tens + tail, tail[:1] + [10] * tens + tail[1:]]
    out: list[list[int]] = []
    for shape in shapes:
        if shape not in out:
            out.append(shape)
    return out


@functools.cache
def _odd_layouts(size: int, at: int) -> list[list[int]]:
    """Ways to cut an odd side into even parts and one odd part (5 to 11) holding ``at``:
    those with ``at`` farthest from the odd part's ends first, then the larger odd parts."""
    found = []
    for odd in (9, 11, 7, 5):
        for offset in range(max(0, at - odd + 1), at + 1, 1):
            after = size - offset - odd
            if offset % 2 or after < 0 or 0 < offset < 6 or 0 < after < 6:
                continue
            before = _layouts(offset, True)[0] if offset else []
            rest = _layouts(after, True)[-1] if after else []
            local = at - offset
            found.append((-min(local, odd - 1 - local), -odd, [*before, odd, *rest]))
    found.sort()
    return [parts for _, _, parts in found[:ODD_LAYOUTS]]


ODD_LAYOUTS = 4
"""Placements of the odd block tried on a board with both sides odd."""


def _few(rest: int, allowed: Sequence[int]) -> list[int] | None:
    """``rest`` as at most two allowed parts (none for 0)."""
    if rest == 0:
        return []
    if rest in allowed:
        return [rest]
    for a in allowed:
        if rest - a in allowed:
            return sorted((a, rest - a))
    return None


def _part_of(parts: Sequence[int], x: int) -> int:
    """The index of the part that holds coordinate ``x``."""
    acc = 0
    for k, size in enumerate(parts):
        acc += size
        if x < acc:
            return k
    raise ValueError(x)  # pragma: no cover - x is on the board


def _build(
    m: int,
    n: int,
    rows: list[int],
    cols: list[int],
    s: Square,
    t: Square,
    budget: Budget | None,
) -> NDArray[Any] | None:
    """The tour for one plan of the parts, or None if a corridor block has no path."""
    r_off = np.cumsum([0, *rows]).tolist()
    c_off = np.cumsum([0, *cols]).tolist()
    nr, nc = len(rows), len(cols)
    i0, j0 = _part_of(rows, s[0]), _part_of(cols, s[1])
    i1, j1 = _part_of(rows, t[0]), _part_of(cols, t[1])
    step_j = 1 if j1 >= j0 else -1
    step_i = 1 if i1 >= i0 else -1
    corridor = [(i0, j) for j in range(j0, j1 + step_j, step_j)]
    corridor += [(i, j1) for i in range(i0 + step_i, i1 + step_i, step_i)]
    ia, ib = min(i0, i1), max(i0, i1)
    jl, jr = min(j0, j1), max(j0, j1)

    def bounds(b: Block) -> tuple[int, int, int, int]:
        return r_off[b[0]], r_off[b[0] + 1], c_off[b[1]], c_off[b[1] + 1]

    forced = {b: _forced(b, rows, cols, i0, (jl, jr), j1, (ia, ib)) for b in corridor}
    paths = _corridor_paths(corridor, bounds, forced, s, t, m % 2 == 1 and n % 2 == 1, budget)
    if paths is None or (budget is not None and budget.out_of_time()):
        return None
    if m % 2 and n % 2:
        codes = np.empty((m, n), dtype=np.uint8)
        fill_around(codes, rows, cols, i0, j0)
    else:
        codes = grid_codes(rows, cols)
    for b, (local, _, _) in zip(corridor, paths, strict=True):
        r0, r1, c0, c1 = bounds(b)
        codes[r0:r1, c0:c1] = _block_codes(r1 - r0, c1 - c0, local)
    for k in range(len(corridor) - 1):
        (_, _, u), (_, v, _) = paths[k], paths[k + 1]
        _link(codes, u, v)
    try:
        _corridor_joins(codes, r_off, c_off, nr, nc, i0, (jl, jr), (ia, ib))
    except AssertionError:  # pragma: no cover - the forced moves are on every path
        return None
    if budget is not None and budget.out_of_time():
        return None
    order = corridor_walk(codes, s[0] * n + s[1], budget)
    if order is None or len(order) != m * n or int(order[-1]) != t[0] * n + t[1]:
        return None  # pragma: no cover - the joins follow a spanning tree
    return order


WALK_CHUNK = 1 << 22
"""Squares read out between two looks at the clock (about 50 ms)."""


def corridor_walk(codes: Codes, start: int, budget: Budget | None) -> NDArray[Any] | None:
    """The path held in ``codes`` read from its end ``start``; None when the budget's
    time runs out (read every :data:`WALK_CHUNK` squares)."""
    flat = codes.reshape(-1)
    first = 0 if (int(flat[start]) & 15) != NONE else 1
    if budget is None or budget.timeout is None:
        whole: NDArray[Any] = follow_unchecked(codes, start, first=first)
        return whole
    cols = codes.shape[1]
    delta = [dr * cols + dc for dr, dc in DIRECTIONS]
    out = np.empty(flat.size, dtype=np.int32 if flat.size < 2**31 else np.int64)
    done = len(follow_unchecked(codes, start, first=first, out=out[:WALK_CHUNK]))
    while done < flat.size:
        if budget.out_of_time():
            return None
        last, before = int(out[done - 1]), int(out[done - 2]) if done > 1 else -1
        value = int(flat[last])
        lo, hi = value & 15, value >> 4
        step = lo if lo < 8 and last + delta[lo] != before else hi
        if step >= 8:  # the far end of the path
            break
        nxt = last + delta[step]
        value = int(flat[nxt])
        lo, hi = value & 15, value >> 4
        if lo >= 8 or hi >= 8:  # the other end: nothing after it
            out[done] = nxt
            done += 1
            break
        leave = 1 if nxt + delta[lo] == last else 0
        done += len(follow_unchecked(codes, nxt, first=leave, out=out[done : done + WALK_CHUNK]))
    return out[:done]


def _forced(
    b: Block,
    rows: Sequence[int],
    cols: Sequence[int],
    i0: int,
    row_span: tuple[int, int],
    j1: int,
    row_range: tuple[int, int],
) -> tuple[Move, ...]:
    """The moves of corridor block ``b`` that the joins exchange."""
    i, j = b
    h, w = rows[i], cols[j]
    lo, hi = row_span if i == i0 else (j1, j1)
    ia, ib = row_range
    moves: list[Move] = []
    if j == lo and j > 0:  # the stretch on its left is joined to it
        moves.append(PORTS[0])
    if j == hi and j + 1 < len(cols):  # the stretch on its right
        moves.append(((0, w - 1), (2, w - 2)))
    if j == 0 and i == ia and i > 0:  # the rows above, along the first column
        moves.append(PORTS[1])
    if j == 0 and i == ib and i + 1 < len(rows):  # the rows below
        moves.append(((h - 1, 0), (h - 2, 2)))
    return tuple(moves)


def _corridor_joins(
    codes: Codes,
    r_off: list[int],
    c_off: list[int],
    nr: int,
    nc: int,
    i0: int,
    row_span: tuple[int, int],
    row_range: tuple[int, int],
) -> None:
    """Every join of the spanning tree: right joins between neighbours in a block row
    (except between two corridor blocks), down joins along the first block column
    (except between two rows the corridor already connects)."""
    rs = np.array(r_off[:nr], dtype=np.int64)
    cs = np.array(c_off[1:nc], dtype=np.int64)
    r, c = np.meshgrid(rs, cs, indexing="ij")
    keep = np.ones(r.shape, dtype=bool)
    jl, jr = row_span
    keep[i0, jl:jr] = False  # join column index j+1 holds the right block (i0, j+1)
    join_blocks(codes, "right", r[keep], c[keep])
    ia, ib = row_range
    lower = [i for i in range(1, nr) if not ia < i <= ib]
    join_blocks(
        codes,
        "down",
        np.array([r_off[i] for i in lower], dtype=np.int64),
        np.zeros(len(lower), dtype=np.int64),
    )


def _link(codes: Codes, u: Square, v: Square) -> None:
    """Give the path ends ``u`` and ``v`` (in neighbouring blocks) the move between them."""
    for a, b in ((u, v), (v, u)):
        value = int(codes[a])
        code = direction(b[0] - a[0], b[1] - a[1])
        if value & 15 == NONE:
            codes[a] = (value & 0xF0) | code
        else:
            codes[a] = (value & 0x0F) | (code << 4)


def _corridor_paths(
    corridor: list[Block],
    bounds: Any,
    forced: dict[Block, tuple[Move, ...]],
    s: Square,
    t: Square,
    odd: bool,
    budget: Budget | None,
) -> list[tuple[tuple[int, ...], Square, Square]] | None:
    """For each corridor block (local order, entry, exit), in global squares; or None.

    A depth-first choice of the crossing moves: each block's path is asked of
    SAT (cached), and a block with no path sends the search back to try the
    previous crossing's next candidate.
    """
    exit_colour = (s[0] + s[1]) % 2 if odd else 1 - (s[0] + s[1]) % 2
    k_last = len(corridor) - 1
    chosen: list[tuple[tuple[int, ...], Square, Square]] = []
    options: list[list[tuple[Square, Square]]] = []
    entry = s
    failures = 0
    k = 0
    while True:
        if budget is not None and budget.out_of_time():
            return None
        b = corridor[k]
        r0, r1, c0, c1 = bounds(b)
        if k == len(options):  # first visit: the crossings to try
            if k == k_last:
                options.append([(t, t)])
            else:
                options.append(_crossings(bounds(b), bounds(corridor[k + 1]), exit_colour, t))
        placed = False
        while options[k]:
            exit_, nxt = options[k].pop(0)
            if exit_ == entry:
                continue
            order = block_path(
                r1 - r0,
                c1 - c0,
                (entry[0] - r0, entry[1] - c0),
                (exit_[0] - r0, exit_[1] - c0),
                forced[b],
            )
            if order is None:
                failures += 1
                if failures > FAILURES:
                    return None
                continue
            chosen.append((order, entry, exit_))
            entry = nxt
            placed = True
            break
        if placed:
            if k == k_last:
                return chosen
            k += 1
            continue
        options.pop()  # k has no option left: back to k - 1
        if k == 0:
            return None
        k -= 1
        entry = chosen.pop()[1]


def _crossings(
    here: tuple[int, int, int, int], there: tuple[int, int, int, int], colour: int, t: Square
) -> list[tuple[Square, Square]]:
    """Knight's moves from block ``here`` into block ``there`` (its neighbour), the exit
    of the colour given and the entry not ``t``; those near the middle of the shared
    side first (at most :data:`CANDIDATES`)."""
    r0, c0 = here[0], here[2]
    shape = tuple(x - (c0 if k % 4 >= 2 else r0) for k, x in enumerate(here + there))
    local = _local_crossings(shape, (colour + r0 + c0) % 2)
    moves = [((a + r0, b + c0), (x + r0, y + c0)) for (a, b), (x, y) in local]
    return [move for move in moves if move[1] != t][:CANDIDATES]


@functools.lru_cache(maxsize=1024)
def _local_crossings(shape: tuple[int, ...], colour: int) -> list[tuple[Square, Square]]:
    """:func:`_crossings` for blocks given relative to the first one's corner."""
    r0, r1, c0, c1, q0, q1, d0, d1 = shape
    found = []
    for r in range(max(r0, q0 - 2), min(r1, q1 + 2)):
        for c in range(max(c0, d0 - 2), min(c1, d1 + 2)):
            if (r + c) % 2 != colour:
                continue
            for dr, dc in DIRECTIONS:
                v = (r + dr, c + dc)
                if q0 <= v[0] < q1 and d0 <= v[1] < d1:
                    found.append(((r, c), v))
    mid = ((max(r0, q0) + min(r1, q1) - 1) / 2, (max(c0, d0) + min(c1, d1) - 1) / 2)

    def key(move: tuple[Square, Square]) -> tuple[float, ...]:
        (a, b), (x, y) = move
        vertical = r1 == q0 or q1 == r0  # one above the other: distance along the side
        along = abs((b + y) / 2 - mid[1]) if vertical else abs((a + x) / 2 - mid[0])
        return (along, abs(a - x) + abs(b - y), a, b, x, y)

    found.sort(key=key)
    return found[: CANDIDATES + 1]  # one more: the caller drops an entry on t


@functools.lru_cache(maxsize=1024)
def _block_codes(h: int, w: int, order: tuple[int, ...]) -> Codes:
    """The neighbour codes of a block path (read-only, shared by the blocks of one kind)."""
    codes = codes_from_order(h, w, np.array(order, dtype=np.int64), False)
    codes.flags.writeable = False
    return codes
