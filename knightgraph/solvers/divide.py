"""Divide and conquer: tours of every board that has one, in linear time, at any size.

The board is cut into blocks whose tours are known in advance (package data
made by ``scripts/make_blocks.py`` with knightgraph's own SAT solver); the
blocks' cycles are then joined into one by exchanging two moves at each join
(after Parberry 1997; Lin and Wei 2005 show that every board with a tour can
be done this way in O(mn)).  Everything happens on numpy arrays: a tour is
held as *neighbour codes*, one byte per square whose two nibbles name the
moves to the square's two tour neighbours, and read out into an order by one
linear walk (compiled, :func:`knightgraph.solvers.kernels.follow_python` is
the reference).

Boards
------
* Both sides at least 5 and one of them even (Schwenk allows a closed tour):
  blocks of 5..10 squares a side, never two odd sides in one block (the even
  side of the board is cut into even parts).  Each block's tour is
  *structured* (at every corner it uses the two moves joining the second and
  third squares of the two edges that meet there) and has two *ports*, the
  moves (1,1)-(3,0) and (1,1)-(0,3).  Blocks side by side are joined by
  swapping the left block's corner move (0,w-1)-(2,w-2) and the right block's
  port (1,1)-(3,0) for the two moves (0,w-1)-(1,w+1) and (2,w-2)-(3,w); blocks
  one above the other likewise with the bottom-left corner move and the port
  (1,1)-(0,3).  The joins follow a comb (every block row left to right, the
  rows down the first column), a spanning tree of the blocks, so each join
  merges two different cycles into one.
* Both sides odd, at least 5: the same with an odd block in the corner whose
  tour leaves out the corner square: a closed tour of the board minus a1
  (the existence table's ``e``), and from it an open tour a1, c2, ...
* Three or four ranks (or files): strips with a periodic middle.  A stored
  tour of a 3 x n0 or 4 x n0 strip repeats its columns ``x .. x+P-1`` in
  ``x+P .. x+2P-1``; inserting more copies of that window gives the same kind
  of tour on 3 x (n0 + kP).  Closed tours on 3 x even >= 10, closed tours
  minus a corner on 3 x odd >= 9, open tours on 4 x n >= 5; small strips are
  stored whole.
* A requested start: closed tours are re-rooted; open tours on boards with a
  closed tour are the closed tour from the start without its closing move.
  A requested end is honoured for closed tours without a start (the cycle is
  read so that it ends there); with a start, or for an open tour, an end is
  refused with :class:`~knightgraph.InvalidOptionError` (use ``auto`` or ``sat``).
  On odd boards the block holding the start is replaced by a closed tour of
  that block minus the start (solved by SAT with the joins' moves forced),
  and the tour leaves the start for a neighbour; on strips a short strip
  around the start is solved by SAT with a periodic window on each side.
  Where that fails, boards up to :data:`FALLBACK_LIMIT` squares go to
  ``auto``.

Complexity: O(mn) time; one byte per square for the codes plus the order
(4 bytes per square as ``int32``).

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers.divide import divide
>>> res = divide(Board(12, 12), closed=True, start="e5")
>>> res.status.name, res.tour.closed, res.tour.algebraic()[0]
('FOUND', True, 'e5')
>>> divide(Board(9, 11)).tour.algebraic()[:2]  # a1, then round the rest
['a1', 'c2']
>>> divide(Board(4, 4)).status.name
'PROVEN_ABSENT'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..board import KNIGHT, Board
from ..exceptions import InternalError, InvalidOptionError, InvalidTourError, describe_value
from ..existence import closed_tour_exists, open_tour_exists
from ..resources import require_memory
from ..results import Certificate, SearchResult, Status
from ..verify import check_closed
from .base import Budget, Problem, get_solver, solver

__all__ = [
    "DIRECTIONS",
    "FALLBACK_LIMIT",
    "PORTS",
    "block_tour",
    "codes_from_order",
    "divide",
    "follow_codes",
    "structure_moves",
]

DIRECTIONS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
"""The knight's moves as (dr, dc); code ``k`` is ``DIRECTIONS[k]``, its reverse ``k ^ 4``."""

NONE = 15
"""The nibble of a missing neighbour (a path end)."""

REMOVED = 0xFF
"""The code byte of a square not on the tour."""

PORTS = (((1, 1), (3, 0)), ((1, 1), (0, 3)))
"""The moves every grid block's tour contains for its left and upper joins."""

FALLBACK_LIMIT = 2500
"""Requests the constructions cannot serve go to ``auto`` on boards up to this size."""

Square = tuple[int, int]
Codes = NDArray[np.uint8]


# ----------------------------------------------------------------- codes
def _direction(dr: int, dc: int) -> int:
    return DIRECTIONS.index((dr, dc))


def codes_from_order(
    rows: int, cols: int, order: Sequence[int] | NDArray[Any], closed: bool
) -> Codes:
    """Neighbour codes of a tour (or of a tour of the board minus some squares).

    Examples
    --------
    >>> codes = codes_from_order(3, 4, [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4], False)
    >>> DIRECTIONS[codes[0, 0] & 15], DIRECTIONS[codes[0, 0] >> 4]  # a1: on to b3, back to c2
    ((2, 1), (1, 2))
    >>> hex(codes[1, 0])  # a2 ends the path: low nibble 15 (no move on), high: back
    '0x7f'
    >>> codes_from_order(3, 4, [0, 1], False)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidTourError: step 1 of the order (a1 to b1) is not a knight's move

    Raises
    ------
    InvalidBoardError
        For sizes that are not whole numbers >= 1 (BoardTooLargeError when
        the codes would not fit in memory).
    InvalidTourError
        For an order that is not 1-D whole numbers on the board, visits a
        square twice, or has a step that is not a knight's move.
    """
    board = Board(rows, cols)  # checks the sizes, naming them
    closed = check_closed(closed)
    require_memory(board.area, f"the neighbour codes of {rows}x{cols}")
    seq = _order_indices(order, board)
    codes = np.full(board.area, REMOVED, dtype=np.uint8)
    if len(seq) == 0:
        return codes.reshape(rows, cols)
    codes[seq] = (NONE << 4) | NONE
    nxt = np.roll(seq, -1)
    pairs = [(seq, nxt)] if closed else [(seq[:-1], nxt[:-1])]
    for u, v in pairs:
        table = _direction_table()
        dr, dc = v // cols - u // cols, v % cols - u % cols
        bad = (np.abs(dr) > 2) | (np.abs(dc) > 2)
        forward = np.where(bad, -1, table[np.clip(dr + 2, 0, 4), np.clip(dc + 2, 0, 4)])
        backward = np.where(bad, -1, table[np.clip(2 - dr, 0, 4), np.clip(2 - dc, 0, 4)])
        if (forward < 0).any():
            k = int(np.argmax(forward < 0))
            a, b = board.name(int(u[k])), board.name(int(v[k]))
            where = "the closing step" if closed and k == len(seq) - 1 else f"step {k + 1}"
            raise InvalidTourError(
                f"{where} of the order ({a} to {b}) is not a knight's move",
                defect="bad-move", step=k + 1,
            )  # fmt: skip
        codes[u] = (codes[u] & 0xF0) | forward  # u's first nibble: its successor
        codes[v] = (codes[v] & 0x0F) | (backward << 4)  # v's second nibble: its predecessor
    return codes.reshape(rows, cols)


def _order_indices(order: object, board: Board) -> NDArray[np.int64]:
    """``order`` as distinct flat indices of ``board``, or InvalidTourError naming the defect."""
    try:
        seq = np.asarray(order)
    except (TypeError, ValueError, OverflowError):
        seq = np.asarray(None)
    if seq.size == 0 and seq.ndim == 1:
        return np.zeros(0, dtype=np.int64)
    if seq.ndim != 1 or not np.issubdtype(seq.dtype, np.integer):
        raise InvalidTourError(
            f"invalid order {describe_value(order)}: expected 1-D whole-number flat indices",
            defect="malformed",
        )
    off = (seq < 0) | (seq >= board.area)
    if off.any():
        k = int(np.argmax(off))
        raise InvalidTourError(
            f"square #{k + 1} (index {int(seq[k])}) of the order is off the "
            f"{board.m}x{board.n} board", defect="off-board", step=k,
        )  # fmt: skip
    seq = seq.astype(np.int64)
    if len(np.unique(seq)) != len(seq):
        raise InvalidTourError("the order visits a square twice", defect="repeated")
    return seq


@functools.cache
def _direction_table() -> NDArray[np.int64]:
    table = np.full((5, 5), -1, dtype=np.int64)
    for k, (dr, dc) in enumerate(DIRECTIONS):
        table[dr + 2, dc + 2] = k
    table.flags.writeable = False
    return table


def _transposed(codes: Codes) -> Codes:
    """The codes of the same tour on the transposed board."""
    swap = np.array([_direction(dc, dr) for dr, dc in DIRECTIONS] + [NONE] * 8, dtype=np.uint8)
    lo, hi = swap[codes & 15], swap[codes >> 4]
    out = np.where(codes == REMOVED, REMOVED, lo | (hi << 4)).astype(np.uint8)
    return np.ascontiguousarray(out.T)


def follow_codes(
    codes: Codes, start: int, *, first: int = 0, out: NDArray[Any] | None = None
) -> Any:
    """The tour held in ``codes`` read from ``start`` (flat index), as an order array.

    Leaves ``start`` by its first (``first=0``) or second neighbour (a path
    end by its only one) and stops at a path end or when ``out`` (default: a
    new array with room for every square not removed, ``int32`` where the
    board allows) is full.  Returns the part of ``out`` written.

    Raises
    ------
    InvalidOptionError
        For codes that are not a 2-D ``uint8`` array whose moves stay on the
        board, a start off the board, ``first`` not 0 or 1, or an ``out``
        that is not a contiguous writeable 1-D ``int32``/``int64`` array (the
        compiled walk relies on all of these).

    Examples
    --------
    >>> codes = codes_from_order(3, 4, [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4], False)
    >>> follow_codes(codes, 4).tolist()  # from the other end
    [4, 2, 11, 5, 3, 10, 1, 7, 9, 0, 6, 8]
    >>> follow_codes(codes, 12)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid start 12: expected a flat index in 0..11
    """
    _check_codes(codes)
    size = codes.size
    if isinstance(start, bool) or not isinstance(start, int | np.integer) or not 0 <= start < size:
        raise InvalidOptionError(
            f"invalid start {describe_value(start)}: expected a flat index in 0..{size - 1}"
        )
    if isinstance(first, bool) or first not in (0, 1):
        raise InvalidOptionError(f"invalid first {describe_value(first)}: expected 0 or 1")
    if out is not None and not (
        isinstance(out, np.ndarray) and out.ndim == 1 and out.dtype in (np.int32, np.int64)
        and out.flags.c_contiguous and out.flags.writeable
    ):  # fmt: skip
        raise InvalidOptionError(
            f"invalid out {describe_value(out)}: expected a contiguous writeable 1-D int32 "
            "or int64 array"
        )
    return _follow(codes, int(start), first=int(first), out=out)


def _check_codes(codes: object) -> None:
    """Refuse codes the compiled walk could follow off the array (it does no bounds checks)."""
    if not (isinstance(codes, np.ndarray) and codes.ndim == 2 and codes.dtype == np.uint8
            and codes.size > 0):  # fmt: skip
        raise InvalidOptionError(
            f"invalid codes {describe_value(codes)}: expected a 2-D uint8 array of neighbour codes"
        )
    m, n = codes.shape
    flat = codes.reshape(-1)
    steps = np.array(DIRECTIONS + ((0, 0),) * 8, dtype=np.int64)
    for lo in range(0, flat.size, _CHUNK):
        chunk = flat[lo : lo + _CHUNK]
        r, c = np.divmod(np.arange(lo, lo + len(chunk), dtype=np.int64), n)
        for nibble in (chunk & 15, chunk >> 4):
            move = nibble < 8
            dr, dc = steps[nibble, 0], steps[nibble, 1]
            off = move & ((r + dr < 0) | (r + dr >= m) | (c + dc < 0) | (c + dc >= n))
            if off.any():
                k = lo + int(np.argmax(off))
                raise InvalidOptionError(
                    f"invalid codes: the code {int(flat[k]):#04x} of square {divmod(k, n)} "
                    f"leads off the {m}x{n} board"
                )


_CHUNK = 1 << 20
"""Squares per vectorised pass when codes are checked (bounds the temporary memory)."""


def _follow(codes: Codes, start: int, *, first: int = 0, out: NDArray[Any] | None = None) -> Any:
    """:func:`follow_codes` without the checks, for codes this module built."""
    from .kernels import kernels

    cols = codes.shape[1]
    flat = codes.reshape(-1)
    if out is None:
        count = int(flat.size - np.count_nonzero(flat == REMOVED))
        out = np.empty(count, dtype=np.int32 if flat.size < 2**31 else np.int64)
    delta = np.zeros(16, dtype=np.int64)  # padded to 16: the compiled walk reads delta[15]
    delta[:8] = [dr * cols + dc for dr, dc in DIRECTIONS]
    written = kernels().follow(flat, delta, int(start), int(first), out)
    return out[:written]


# ------------------------------------------------------------ SAT blocks
def structure_moves(h: int, w: int, corners: str = "tl tr bl br") -> list[tuple[Square, Square]]:
    """Parberry's structure: at each named corner, the two moves joining the
    second and third squares of the two edges that meet there.

    Examples
    --------
    >>> structure_moves(6, 6, "tl")
    [((0, 1), (2, 0)), ((0, 2), (1, 0))]
    """
    moves = {
        "tl": [((0, 1), (2, 0)), ((0, 2), (1, 0))],
        "tr": [((0, w - 2), (2, w - 1)), ((0, w - 3), (1, w - 1))],
        "bl": [((h - 1, 1), (h - 3, 0)), ((h - 1, 2), (h - 2, 0))],
        "br": [((h - 1, w - 2), (h - 3, w - 1)), ((h - 1, w - 3), (h - 2, w - 1))],
    }
    if not isinstance(corners, str) or not set(corners.split()) <= set(moves):
        raise InvalidOptionError(
            f"invalid corners {describe_value(corners)}: expected names from 'tl tr bl br'"
        )
    return [move for corner in corners.split() for move in moves[corner]]


def block_tour(
    h: int,
    w: int,
    *,
    closed: bool,
    removed: Sequence[Square] = (),
    start: Square | None = None,
    forced: Sequence[tuple[Square, Square]] = (),
    windows: Sequence[tuple[int, int]] = (),
    lanes: int = 2,
    accept: Callable[[list[int]], bool] | None = None,
    budget: Budget | None = None,
) -> list[int] | None:
    """A tour of an ``h x w`` block found by SAT, or None when there is none.

    ``forced`` moves must be on the tour.  Each window ``(x, P)`` makes
    columns ``x .. x+P-1`` and ``x+P .. x+2P-1`` carry the same moves (shifted),
    with no path end inside and at most ``lanes`` tour moves across the line
    before column ``x``, so that the window can be repeated.  With two lanes
    (one each way) any number of copies leaves one cycle (or path); otherwise
    ``accept`` is asked about each solution, and a rejected one is excluded
    and the search goes on.

    Examples
    --------
    >>> len(block_tour(6, 6, closed=True, forced=structure_moves(6, 6) + list(PORTS)))
    36
    """
    from .cnf import HamiltonCNF

    board = Board(h, w, removed=removed)
    first = None if start is None else board.index(start)
    cnf = HamiltonCNF(board, closed, first)
    try:
        try:
            units = [[cnf.var(board.index(u), board.index(v))] for u, v in forced]
        except (KeyError, ValueError):
            return None  # a forced move leaves the block or touches a removed square
        cnf.add_clauses(units + _window_clauses(cnf, board, closed, windows))
        crossing = [_crossing(cnf, board, x) for x, _ in windows]
        for literals in crossing:
            cnf.add_at_most(literals, lanes)
        for _ in range(REJECTIONS):
            outcome = cnf.solve(budget=budget)
            if outcome.status != "sat":
                return None
            if accept is None or accept(outcome.order):
                return outcome.order
            model = cnf.solver.get_model()
            cnf.add_clauses([[-k for part in crossing for k in part if model[k - 1] > 0]])
        return None
    finally:
        cnf.delete()


REJECTIONS = 20
"""Solutions :func:`block_tour` may reject before it gives up."""


def _crossing(cnf: Any, board: Board, x: int) -> list[int]:
    """Variables of the moves across the line between columns ``x - 1`` and ``x``."""
    n = board.n
    return [k for (u, v), k in cnf.index.items()
            if v != cnf.hub and min(u % n, v % n) < x <= max(u % n, v % n)]  # fmt: skip


def _window_clauses(
    cnf: Any, board: Board, closed: bool, windows: Sequence[tuple[int, int]]
) -> list[list[int]]:
    clauses: list[list[int]] = []
    n = board.n
    for x, period in windows:
        for (u, v), k in cnf.index.items():
            if v == cnf.hub:
                continue
            (ru, cu), (rv, cv) = divmod(u, n), divmod(v, n)
            if x <= cu < x + period or x <= cv < x + period:
                twin = cnf.var(board.index((ru, cu + period)), board.index((rv, cv + period)))
                clauses += [[-k, twin], [k, -twin]]
        if not closed:
            for c in range(x, x + 2 * period):
                clauses += [[-cnf.var(board.index((r, c)), cnf.hub)] for r in range(board.m)]
    return clauses


# ---------------------------------------------------------- package data
@functools.cache
def _library() -> dict[str, tuple[dict[str, Any], NDArray[np.int16]]]:
    """The stored block tours, by name, as (metadata, order)."""
    source = resources.files("knightgraph") / "data" / "blocks.npz"
    with source.open("rb") as handle, np.load(handle) as data:
        meta = json.loads(str(data["meta"]))
        return {name: (info, data[name]) for name, info in meta.items()}


@functools.cache
def _block(name: str) -> Codes:
    """The codes of a stored block tour."""
    info, order = _library()[name]
    codes = codes_from_order(info["rows"], info["cols"], order.astype(np.int64), info["closed"])
    codes.flags.writeable = False
    return codes


# ----------------------------------------------------------- grid boards
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


def _grid_codes(rows: Sequence[int], cols: Sequence[int], out: Codes | None = None) -> Codes:
    """Every block's stored tour in place (no joins yet), written into ``out`` if given."""
    codes = np.empty((sum(rows), sum(cols)), dtype=np.uint8) if out is None else out
    for r0, h, kr in _runs(rows):
        for c0, w, kc in _runs(cols):
            block = _block(f"grid_{h}x{w}")
            view = codes[r0 : r0 + h * kr, c0 : c0 + w * kc].reshape(kr, h, kc, w)
            view[...] = block[None, :, None, :]
    return codes


# (square offset from the join point, old move, new move) for each join kind;
# the join point is (row of the upper/left block's first row, first column of the
# right block) for "right", and (first row of the lower block, its first column) for "down".
_JOINS: dict[str, list[tuple[Square, Square, Square]]] = {
    "right": [((0, -1), (2, -1), (1, 2)), ((2, -2), (-2, 1), (1, 2)),
              ((1, 1), (2, -1), (-1, -2)), ((3, 0), (-2, 1), (-1, -2))],
    "down": [((-1, 0), (-1, 2), (2, 1)), ((-2, 2), (1, -2), (2, 1)),
             ((1, 1), (-1, 2), (-2, -1)), ((0, 3), (1, -2), (-2, -1))],
}  # fmt: skip


def _join(codes: Codes, kind: str, rows: NDArray[np.int64], cols: NDArray[np.int64]) -> None:
    """Apply the join ``kind`` at the join points ``(rows[i], cols[i])`` (vectorised)."""
    if len(rows) == 0:
        return
    flat = codes.reshape(-1)
    n = codes.shape[1]
    for (dr, dc), old, new in _JOINS[kind]:
        at = (rows + dr) * n + (cols + dc)
        value = flat[at]
        lo = value & 15
        old_code, new_code = _direction(*old), _direction(*new)
        on_lo = lo == old_code
        if not np.all(on_lo | ((value >> 4) == old_code)):
            raise AssertionError(f"a {kind} join does not find its move {old}")
        flat[at] = np.where(on_lo, (value & 0xF0) | new_code, (value & 0x0F) | (new_code << 4))


def _comb_joins(codes: Codes, rows: Sequence[int], cols: Sequence[int]) -> None:
    """Join every block row left to right and the rows down the first column."""
    row_starts = np.cumsum([0, *rows[:-1]], dtype=np.int64)
    col_starts = np.cumsum([0, *cols[:-1]], dtype=np.int64)
    r, c = np.meshgrid(row_starts, col_starts[1:], indexing="ij")
    _join(codes, "right", r.ravel(), c.ravel())
    _join(codes, "down", row_starts[1:], np.zeros(len(rows) - 1, dtype=np.int64))


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


def _grid_board(m: int, n: int) -> Codes:
    """A closed tour of the board, or of the board minus a1 when both sides are odd."""
    plan = _grid_plan(m, n)
    assert plan is not None
    rows, cols = plan
    if m % 2 and n % 2:
        # all blocks but the corner are grid blocks: fill with the grid shape of the
        # first even parts, then overwrite the corner block
        codes = np.empty((m, n), dtype=np.uint8)
        _fill_around(codes, rows, cols, 0, 0)
        codes[: rows[0], : cols[0]] = _block(f"corner_{rows[0]}x{cols[0]}")
    else:
        codes = _grid_codes(rows, cols)
    _comb_joins(codes, rows, cols)
    return codes


def _grid_without(m: int, n: int, hole: Square, budget: Budget) -> Codes | None:
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
            _fill_around(codes, rows, cols, i, j)
            codes[r0 : r0 + h, c0 : c0 + w] = codes_from_order(h, w, order, True)
            _comb_joins(codes, rows, cols)
            return codes
    return None


def _fill_around(codes: Codes, rows: list[int], cols: list[int], i: int, j: int) -> None:
    """Grid blocks everywhere except block (i, j) (all other blocks have an even side)."""
    r0, c0 = sum(rows[:i]), sum(cols[:j])
    r1, c1 = r0 + rows[i], c0 + cols[j]
    bands = [(rows[:i], 0, r0), (rows[i : i + 1], r0, r1), (rows[i + 1 :], r1, codes.shape[0])]
    stripes = [(cols[:j], 0, c0), (cols[j : j + 1], c0, c1), (cols[j + 1 :], c1, codes.shape[1])]
    for band, top, bottom in bands:
        for stripe, left, right in stripes:
            if band and stripe and (top, left) != (r0, c0):
                _grid_codes(band, stripe, out=codes[top:bottom, left:right])


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


# ----------------------------------------------------------- strips
def _strip_names(h: int, kind: str) -> list[str]:
    return [name for name, (info, _) in _library().items()
            if info.get("strip") == h and info["kind"] == kind]  # fmt: skip


def _strip_codes(h: int, n: int, kind: str) -> Codes | None:
    """A stored strip tour of kind ``closed``/``corner``/``open`` on h x n, expanded."""
    for name in _strip_names(h, kind):
        info, codes = _library()[name][0], _block(name)
        n0 = info["cols"]
        if "window" not in info:
            if n0 == n:
                return codes
            continue
        x, period = info["window"]
        if n >= n0 and (n - n0) % period == 0:
            return _expand(codes, [(x, period, (n - n0) // period)])
    return None


def _expand(codes: Codes, windows: Sequence[tuple[int, int, int]]) -> Codes:
    """Insert ``k`` more copies of each window ``(x, P, k)`` (windows left to right)."""
    pieces, at = [], 0
    for x, period, copies in sorted(windows):
        pieces += [codes[:, at : x + period], np.tile(codes[:, x : x + period], (1, copies))]
        at = x + period
    pieces.append(codes[:, at:])
    return np.ascontiguousarray(np.concatenate(pieces, axis=1))


STRIP_WINDOW = 4
"""The period of the repeated window on strips of 3 and 4 ranks."""

STRIP_CAP = {3: 8, 4: 6}
"""Columns kept between a strip's end and its window (the lanes turn there)."""


def _strip_around(h: int, n: int, kind: str, start: Square, budget: Budget) -> Codes | None:
    """A strip tour with the start inside, expanded to length ``n``.

    SAT solves a short strip: the start with a cap's width of columns on
    either side, then (where the strip goes on) a periodic window with two
    lanes and a cap (:data:`STRIP_CAP`); the windows are then repeated.
    ``kind`` is ``open`` (a path from ``start``) or ``hole`` (a closed tour of
    the strip minus ``start``).
    """
    period, cap = STRIP_WINDOW, STRIP_CAP[h]
    r, c = start
    reach = 2 * cap + 2 * period  # a cap, a window, and a cap's width before the start
    copies_left = (c - reach) // period + 1 if c >= reach else 0
    base_c = c - copies_left * period
    right = n - 1 - c  # columns after the start
    copies_right = (right - reach) // period + 1 if right >= reach else 0
    width = n - (copies_left + copies_right) * period
    windows = []
    if copies_left:
        windows.append((cap, period, copies_left))
    if copies_right:
        windows.append((width - cap - 2 * period, period, copies_right))
    local = (r, base_c)
    hole = kind == "hole"
    area = h * n - (1 if hole else 0)

    def expanded(order: list[int]) -> Codes:
        return _expand(codes_from_order(h, width, order, hole), windows)

    def accept(order: list[int]) -> bool:
        codes = expanded(order)
        start_at = _any_square(codes) if hole else r * n + c
        return len(_follow(codes, start_at)) == area

    for lanes in (2, 3):
        order = block_tour(h, width, closed=hole, removed=[local] if hole else [],
                           start=None if hole else local, windows=[w[:2] for w in windows],
                           lanes=lanes, accept=accept, budget=budget)  # fmt: skip
        if order is not None:
            return expanded(order)
        if budget.out_of_time():
            break
    return None


def _any_square(codes: Codes) -> int:
    """A square on the tour (not removed)."""
    return int(np.flatnonzero(codes.reshape(-1) != REMOVED)[0])


# ----------------------------------------------------------- the solver
@solver("divide", exact=True, bytes_per_square=6, fixed_bytes=64 * 2**20,
        summary="divide and conquer: joined block tours on any board, linear time")  # fmt: skip
def divide(
    problem: Problem, budget: Budget, *, seed: int | None = None, delegate: bool = True
) -> SearchResult:
    """Construct a tour by joining stored block tours (Parberry 1997).

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature (``seed`` is unused: the construction is
        deterministic).  An ``end`` is taken only for a closed tour without a
        start (the cycle is read so that it ends there).
    delegate : bool
        Hand what no construction serves to ``auto`` on boards up to
        :data:`FALLBACK_LIMIT` squares (default); ``auto`` itself calls
        ``divide`` with ``delegate=False``.

    Returns
    -------
    SearchResult
        FOUND on every knight board with a tour of the kind asked for
        (from the requested start where the construction can place it);
        PROVEN_ABSENT where no tour exists (the certificate comes from
        ``auto``: colour counts, Schwenk's partition, or a checked SAT
        refutation on the small boards); ABORTED otherwise.

    Raises
    ------
    InvalidOptionError
        For an ``end`` with a ``start`` or for an open tour (no construction
        can honour it: use ``auto`` or ``sat``), or ``delegate`` not a bool.

    Notes
    -----
    See the module notes for the blocks and the joins.  Each join exchanges
    two tour moves of two different cycles for two moves between them, which
    leaves one cycle through all their squares; joins along a spanning tree
    of the blocks therefore leave one cycle.  The strip windows are sound
    because a tour's moves span at most two columns: when the moves at
    columns ``x .. x+2P-1`` repeat with period ``P``, so do the moves after
    inserting a copy, and every square still has its two tour moves; the
    stored strips are checked to stay one cycle (or path) for every length,
    and every tour is verified when it is built.
    """
    del seed
    board = problem.board
    if not isinstance(delegate, bool):
        raise InvalidOptionError(
            f"invalid delegate {describe_value(delegate)}: expected True or False"
        )
    if problem.end is not None and (not problem.closed or problem.start is not None):
        raise InvalidOptionError(
            f"method divide does not take --end/end ({board.name(problem.end)}) for "
            + ("a closed tour with a start" if problem.closed else "an open tour")
            + ": use method auto or sat (divide honours an end only for closed tours "
            "without a start)"
        )
    if not _standard(board):
        return problem.aborted("divide builds tours of plain knight boards (and odd boards "
                               "minus a corner)")  # fmt: skip
    m, n = board.m, board.n
    if board.removed:  # _standard: the odd board minus a1
        codes = _corner_board(m, n)
        if codes is None:
            return problem.aborted("no stored construction for this board minus a1")
        anywhere = _any_square(codes) if problem.start is None else problem.start
        return _found(problem, _read_cycle(codes, anywhere, problem.end))
    if not (closed_tour_exists(m, n) if problem.closed else open_tour_exists(m, n)):
        return _delegate(problem, budget, "no construction applies", delegate)
    if problem.start is not None and min(m, n) <= 4:  # Schwenk's partition decides many starts
        certificate = _checked_obstruction(problem)
        if certificate is not None:
            return problem.absent(certificate)
    order = _construct(board, problem.closed, problem.start, budget, problem.end)
    if order is None:
        if budget.out_of_time():
            return problem.aborted("the time ran out")
        return _delegate(problem, budget, "the construction cannot start there", delegate)
    return _found(problem, order)


def _found(problem: Problem, order: Any) -> SearchResult:
    """FOUND: the order (and the array it is a view of) is handed to the Tour read-only,
    so that it is not copied."""
    base = order
    while isinstance(base, np.ndarray):
        base.flags.writeable = False
        base = base.base
    return problem.found(order, {"squares": len(order)})


def _standard(board: Board) -> bool:
    if board.leaper != KNIGHT:
        return False
    if not board.removed:
        return True
    return set(board.removed) == {(0, 0)} and board.m % 2 == 1 and board.n % 2 == 1


def _checked_obstruction(problem: Problem) -> Certificate | None:
    """A cheap certificate of absence (colour, degree, Schwenk's partition), checked."""
    from ..proofs import check, quick_obstruction

    board = problem.board
    start = None if problem.start is None else board.square(problem.start)
    certificate = quick_obstruction(board, closed=problem.closed, start=start)
    if certificate is not None and check(certificate, board, closed=problem.closed, start=start)[0]:
        return certificate
    return None


def _delegate(problem: Problem, budget: Budget, why: str, delegate: bool) -> SearchResult:
    """Absence is settled with a checked certificate; small leftovers go to ``auto``."""
    board = problem.board
    start = None if problem.start is None else board.square(problem.start)
    certificate = _checked_obstruction(problem)
    if certificate is not None:
        return problem.absent(certificate)
    if board.num_squares > FALLBACK_LIMIT or not delegate:
        return problem.aborted(f"divide: {why}")
    end = None if problem.end is None else board.square(problem.end)
    result = get_solver("auto")(board, closed=problem.closed, start=start, end=end, budget=budget)
    if result.status is Status.FOUND and result.tour is not None:
        return problem.found(result.tour.order, {"fallback": result.method})
    return result


def _corner_board(m: int, n: int) -> Codes | None:
    """Codes of a closed tour of the m x n board minus a1 (both sides odd)."""
    if min(m, n) >= 5:
        return _grid_board(m, n)
    if min(m, n) == 3 and max(m, n) >= 9:
        return _oriented_strip(m, n, "corner")
    return None


def _oriented_strip(m: int, n: int, kind: str) -> Codes | None:
    if m <= n:
        return _strip_codes(m, n, kind)
    codes = _strip_codes(n, m, kind)
    return None if codes is None else _transposed(codes)


def _construct(
    board: Board, closed: bool, start: int | None, budget: Budget, end: int | None = None
) -> Any:
    """The order of a tour of the requested kind, or None (``end`` only for closed tours)."""
    m, n = board.m, board.n
    if m * n == 1:
        return np.zeros(1, dtype=np.int32)
    if closed_tour_exists(m, n):
        codes = _grid_board(m, n) if min(m, n) >= 5 else _oriented_strip(m, n, "closed")
        if codes is None:
            return None
        return _read_cycle(codes, 0 if start is None else start, end)
    short = min(m, n)
    corner = _corner_board(m, n) if m % 2 and n % 2 else None
    if corner is not None and (start is None or start == 0):
        return _open_from_hole(corner, (0, 0))
    if start is None and short in (3, 4):
        codes = _oriented_strip(m, n, "open")
        if codes is not None:
            return _follow(codes, _path_end(codes))
        return None
    if start is None:
        return None
    square = board.square(start)
    if m % 2 and n % 2 and sum(square) % 2:
        return None  # an open tour of an odd board starts on the corner colour
    if short >= 5:
        codes = _grid_without(m, n, square, budget)
        return None if codes is None else _open_from_hole(codes, square)
    transposed = m > n
    h, length = (n, m) if transposed else (m, n)
    local = (square[1], square[0]) if transposed else square
    kind = "hole" if m % 2 and n % 2 else "open"
    codes = _strip_around(h, length, kind, local, budget)
    if codes is None:
        return None
    if transposed:
        codes = _transposed(codes)
    if kind == "hole":
        return _open_from_hole(codes, square)
    return _follow(codes, start)


def _read_cycle(codes: Codes, start: int, end: int | None) -> Any:
    """The closed tour held in ``codes`` read from ``start``, or, given ``end``, read so
    that it ends there: from a cycle neighbour of ``end``, walking away from it."""
    if end is None:
        return _follow(codes, start)
    cols = codes.shape[1]
    dr, dc = DIRECTIONS[int(codes.reshape(-1)[end]) & 15]
    after = end + dr * cols + dc
    dr, dc = DIRECTIONS[int(codes.reshape(-1)[after]) & 15]
    back = after + dr * cols + dc == end
    return _follow(codes, after, first=1 if back else 0)


def _path_end(codes: Codes) -> int:
    flat = codes.reshape(-1)
    ends = np.flatnonzero(((flat & 15) == NONE) | ((flat >> 4) == NONE))
    return int(ends[0])


def _open_from_hole(codes: Codes, hole: Square) -> Any:
    """The hole, then round the closed tour of the rest from one of its neighbours."""
    m, n = codes.shape
    r, c = hole
    for dr, dc in DIRECTIONS:
        if 0 <= r + dr < m and 0 <= c + dc < n and codes[r + dr, c + dc] != REMOVED:
            first = (r + dr) * n + (c + dc)
            break
    else:  # pragma: no cover - a hole of a tour always has a neighbour
        raise InternalError(f"divide: the hole {hole} has no neighbour on the tour")
    order = np.empty(m * n, dtype=np.int32 if m * n < 2**31 else np.int64)
    order[0] = r * n + c
    _follow(codes, first, out=order[1:])
    return order
