"""Grid boards for ``divide``: blocks laid side by side, and their cycles joined into one.

A board with both sides at least 5 is cut into blocks of 5 to 10 squares a
side (:func:`_grid_plan`), each filled with its stored tour
(:mod:`knightgraph.solvers.blocks`); the blocks' cycles are then joined along
a comb, each join exchanging two moves of two cycles for two moves between
them (after Parberry 1997).  :func:`grid_without` does the same for an odd
board minus a square, with the block over that square solved by SAT.

Examples
--------
>>> from knightgraph.solvers.codes import follow_codes
>>> _grid_plan(23, 18)
([10, 5, 8], [10, 8])
>>> len(follow_codes(grid_board(23, 18), 0))  # one cycle through all 414 squares
414
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..running.budget import Budget
from .blocks import PORTS, block_tour, named_block
from .codes import Codes, Square, codes_from_order, direction

if TYPE_CHECKING:
    from numpy.typing import NDArray


def _even_parts(size: int) -> list[int]:
    """``size`` (even, >= 6) as a sum of 6, 8 and 10, mostly 10."""
    tens, rest = divmod(size, 10)
    tail = {0: [], 2: [6, 6], 4: [6, 8], 6: [6], 8: [8]}[rest]
    if rest in (2, 4):
        tens -= 1
    return [10] * tens + tail


def _free_parts(size: int) -> list[int]:
    """``size`` (>= 5) as a sum of parts from 5 to 10, mostly 10."""
    tens, rest = divmod(size, 10)
    if rest == 0:
        return [10] * tens
    if rest >= 5:
        return [10] * tens + [rest]
    return [10] * (tens - 1) + [5, 5 + rest]


def _odd_parts(size: int) -> list[int]:
    """``size`` (odd, >= 5) as one odd part (5, 7 or 9) followed by even parts."""
    if size <= 9:
        return [size]
    return [5, *_even_parts(size - 5)]


def _runs(parts: Sequence[int]) -> list[tuple[int, int, int]]:
    """Consecutive equal parts as (offset, size, count)."""
    runs: list[tuple[int, int, int]] = []
    offset = 0
    for size in parts:
        if runs and runs[-1][1] == size:
            runs[-1] = (runs[-1][0], size, runs[-1][2] + 1)
        else:
            runs.append((offset, size, 1))
        offset += size
    return runs


def grid_codes(rows: Sequence[int], cols: Sequence[int], out: Codes | None = None) -> Codes:
    """Every block's stored tour in place (no joins yet), written into ``out`` if given."""
    codes = np.empty((sum(rows), sum(cols)), dtype=np.uint8) if out is None else out
    for r0, h, kr in _runs(rows):
        for c0, w, kc in _runs(cols):
            block = named_block(f"grid_{h}x{w}")
            view = codes[r0 : r0 + h * kr, c0 : c0 + w * kc].reshape(kr, h, kc, w)
            view[...] = block[None, :, None, :]
    return codes


# (square offset from the join point, old move, new move) for each join kind;
# the join point is (row of the upper/left block's first row, first column of the
# right block) for "right", and (first row of the lower block, its first column) for "down".
_JOINS: dict[str, list[tuple[Square, Square, Square]]] = {
    "right": [
        ((0, -1), (2, -1), (1, 2)),
        ((2, -2), (-2, 1), (1, 2)),
        ((1, 1), (2, -1), (-1, -2)),
        ((3, 0), (-2, 1), (-1, -2)),
    ],
    "down": [
        ((-1, 0), (-1, 2), (2, 1)),
        ((-2, 2), (1, -2), (2, 1)),
        ((1, 1), (-1, 2), (-2, -1)),
        ((0, 3), (1, -2), (-2, -1)),
    ],
}


def join_blocks(codes: Codes, kind: str, rows: NDArray[np.int64], cols: NDArray[np.int64]) -> None:
    """Apply the join ``kind`` at the join points ``(rows[i], cols[i])`` (vectorised)."""
    if len(rows) == 0:
        return
    flat = codes.reshape(-1)
    n = codes.shape[1]
    for (dr, dc), old, new in _JOINS[kind]:
        at = (rows + dr) * n + (cols + dc)
        value = flat[at]
        lo = value & 15
        old_code, new_code = direction(*old), direction(*new)
        on_lo = lo == old_code
        if not np.all(on_lo | ((value >> 4) == old_code)):
            raise AssertionError(f"a {kind} join does not find its move {old}")
        flat[at] = np.where(on_lo, (value & 0xF0) | new_code, (value & 0x0F) | (new_code << 4))


def _comb_joins(codes: Codes, rows: Sequence[int], cols: Sequence[int]) -> None:
    """Join every block row left to right and the rows down the first column."""
    row_starts = np.cumsum([0, *rows[:-1]], dtype=np.int64)
    col_starts = np.cumsum([0, *cols[:-1]], dtype=np.int64)
    r, c = np.meshgrid(row_starts, col_starts[1:], indexing="ij")
    join_blocks(codes, "right", r.ravel(), c.ravel())
    join_blocks(codes, "down", row_starts[1:], np.zeros(len(rows) - 1, dtype=np.int64))


def _needed_moves(
    h: int, w: int, i: int, j: int, nrows: int, ncols: int
) -> list[tuple[Square, Square]]:
    """The moves a block at block position (i, j) gives up to the comb's joins."""
    moves = []
    if j + 1 < ncols:
        moves.append(((0, w - 1), (2, w - 2)))
    if j > 0:
        moves.append(PORTS[0])
    if j == 0 and i + 1 < nrows:
        moves.append(((h - 1, 0), (h - 2, 2)))
    if j == 0 and i > 0:
        moves.append(PORTS[1])
    return moves


def _grid_plan(m: int, n: int) -> tuple[list[int], list[int]] | None:
    """Row and column parts for a board with both sides >= 5 (odd sides: odd part first)."""
    if m < 5 or n < 5:
        return None
    if m % 2 and n % 2:
        return _odd_parts(m), _odd_parts(n)
    if m % 2 == 0:
        return _even_parts(m), _free_parts(n)
    return _free_parts(m), _even_parts(n)


def grid_board(m: int, n: int) -> Codes:
    """A closed tour of the board, or of the board minus a1 when both sides are odd."""
    plan = _grid_plan(m, n)
    assert plan is not None
    rows, cols = plan
    if m % 2 and n % 2:
        # all blocks but the corner are grid blocks: fill with the grid shape of the
        # first even parts, then overwrite the corner block
        codes = np.empty((m, n), dtype=np.uint8)
        fill_around(codes, rows, cols, 0, 0)
        codes[: rows[0], : cols[0]] = named_block(f"corner_{rows[0]}x{cols[0]}")
    else:
        codes = grid_codes(rows, cols)
    _comb_joins(codes, rows, cols)
    return codes


def grid_without(m: int, n: int, hole: Square, budget: Budget) -> Codes | None:
    """A closed tour of an odd x odd board minus ``hole`` (a square of the corner colour).

    The odd block is placed over the hole and solved by SAT minus the hole,
    keeping the moves its joins need; None if no placement works.
    """
    for rows, i in _odd_placements(m, hole[0]):
        for cols, j in _odd_placements(n, hole[1]):
            r0, c0 = sum(rows[:i]), sum(cols[:j])
            h, w = rows[i], cols[j]
            local = (hole[0] - r0, hole[1] - c0)
            forced = _needed_moves(h, w, i, j, len(rows), len(cols))
            if any(local in move for move in forced):
                continue
            order = block_tour(h, w, closed=True, removed=[local], forced=forced, budget=budget)
            if order is None:
                if budget.out_of_time():
                    return None
                continue
            codes = np.empty((m, n), dtype=np.uint8)
            fill_around(codes, rows, cols, i, j)
            codes[r0 : r0 + h, c0 : c0 + w] = codes_from_order(h, w, order, True)
            _comb_joins(codes, rows, cols)
            return codes
    return None


def fill_around(codes: Codes, rows: list[int], cols: list[int], i: int, j: int) -> None:
    """Grid blocks everywhere except block (i, j) (all other blocks have an even side)."""
    r0, c0 = sum(rows[:i]), sum(cols[:j])
    r1, c1 = r0 + rows[i], c0 + cols[j]
    bands = [(rows[:i], 0, r0), (rows[i : i + 1], r0, r1), (rows[i + 1 :], r1, codes.shape[0])]
    stripes = [(cols[:j], 0, c0), (cols[j : j + 1], c0, c1), (cols[j + 1 :], c1, codes.shape[1])]
    for band, top, bottom in bands:
        for stripe, left, right in stripes:
            if band and stripe and (top, left) != (r0, c0):
                grid_codes(band, stripe, out=codes[top:bottom, left:right])


def _odd_placements(size: int, at: int) -> list[tuple[list[int], int]]:
    """Ways to cut an odd side into even parts and one odd part holding ``at``.

    Each comes with the index of the odd part; placements that keep ``at``
    three or more squares inside the odd part come first (the joins' moves
    are near the block's edges).
    """
    if size <= 9:
        return [([size], 0)]
    found = []
    for odd in (5, 7, 9):
        for offset in range(max(0, at - odd + 1), at + 1):
            after = size - offset - odd
            if after < 0 or offset % 2 or offset in (2, 4) or after in (2, 4):
                continue
            before = _even_parts(offset) if offset else []
            parts = [*before, odd, *(_even_parts(after) if after else [])]
            local = at - offset
            found.append((min(local, odd - 1 - local) < 3, parts, len(before)))
    found.sort(key=lambda item: item[0])
    return [(parts, k) for _, parts, k in found]
