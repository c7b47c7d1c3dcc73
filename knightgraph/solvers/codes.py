"""Neighbour codes: a tour held in one byte per square, and read out by one linear walk.

Each square's byte holds two nibbles, the moves (:data:`DIRECTIONS`) to its
two tour neighbours; :data:`NONE` marks a path end and :data:`REMOVED` a
square not on the tour.  The constructions of ``divide`` build and join tours
in this form on numpy arrays; :func:`follow_codes` reads one into an order
(compiled, :func:`knightgraph.solvers.follow.follow_python` is the
reference), and :func:`expand` repeats column windows of a strip.

Examples
--------
>>> codes = codes_from_order(3, 4, [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4], False)
>>> path_end(codes), follow_codes(codes, path_end(codes)).tolist()[:3]
(4, [4, 2, 11])
>>> expand(codes, [(1, 2, 1)]).shape  # one more copy of columns 1-2
(3, 6)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from ..boards.board import Board
from ..exceptions import InternalError, InvalidOptionError, InvalidTourError, describe_value
from ..running.resources import require_memory
from ..tours.verify import check_closed

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "DIRECTIONS",
    "NONE",
    "REMOVED",
    "codes_from_order",
    "expand",
    "follow_codes",
    "path_end",
]

DIRECTIONS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
"""The knight's moves as (dr, dc); code ``k`` is ``DIRECTIONS[k]``, its reverse ``k ^ 4``."""

NONE = 15
"""The nibble of a missing neighbour (a path end)."""

REMOVED = 0xFF
"""The code byte of a square not on the tour."""

Square = tuple[int, int]
Codes: TypeAlias = "NDArray[np.uint8]"


def direction(dr: int, dc: int) -> int:
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
                defect="bad-move",
                step=k + 1,
            )
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
            f"{board.m}x{board.n} board",
            defect="off-board",
            step=k,
        )
    seq = seq.astype(np.int64)
    # bincount, not np.unique: the first np.unique of a process imports numpy.ma (~5 ms)
    if seq.size and np.bincount(seq, minlength=board.area).max() > 1:
        raise InvalidTourError("the order visits a square twice", defect="repeated")
    return seq


@functools.cache
def _direction_table() -> NDArray[np.int64]:
    table = np.full((5, 5), -1, dtype=np.int64)
    for k, (dr, dc) in enumerate(DIRECTIONS):
        table[dr + 2, dc + 2] = k
    table.flags.writeable = False
    return table


def transposed_codes(codes: Codes) -> Codes:
    """The codes of the same tour on the transposed board."""
    swap = np.array([direction(dc, dr) for dr, dc in DIRECTIONS] + [NONE] * 8, dtype=np.uint8)
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
        isinstance(out, np.ndarray)
        and out.ndim == 1
        and out.dtype in (np.int32, np.int64)
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        raise InvalidOptionError(
            f"invalid out {describe_value(out)}: expected a contiguous writeable 1-D int32 "
            "or int64 array"
        )
    return follow_unchecked(codes, int(start), first=int(first), out=out)


def _check_codes(codes: object) -> None:
    """Refuse codes the compiled walk could follow off the array (it does no bounds checks)."""
    if not (
        isinstance(codes, np.ndarray)
        and codes.ndim == 2
        and codes.dtype == np.uint8
        and codes.size > 0
    ):
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


def follow_unchecked(
    codes: Codes,
    start: int,
    *,
    first: int = 0,
    out: NDArray[Any] | None = None,
    cycle: bool = False,
) -> Any:
    """:func:`follow_codes` without the checks, for codes the constructions built;
    ``cycle=True`` for codes that hold one closed tour: read both ways at once
    (:func:`knightgraph.solvers.follow.follow_python`), the same order in about half
    the time."""
    from .kernels import kernels

    cols = codes.shape[1]
    flat = codes.reshape(-1)
    if out is None:
        count = int(flat.size - np.count_nonzero(flat == REMOVED))
        out = np.empty(count, dtype=np.int32 if flat.size < 2**31 else np.int64)
    delta = np.zeros(16, dtype=np.int64)  # padded to 16: the compiled walk reads delta[15]
    delta[:8] = [dr * cols + dc for dr, dc in DIRECTIONS]
    follow = kernels().follow
    written = follow(flat, delta, int(start), int(first), out, cycle=cycle) if cycle else 0
    if written == 0:  # one way (also when the codes at start are not a cycle's)
        written = follow(flat, delta, int(start), int(first), out)
    return out[:written]


def expand(codes: Codes, windows: Sequence[tuple[int, int, int]]) -> Codes:
    """Insert ``k`` more copies of each window ``(x, P, k)`` (windows left to right).

    The window is columns ``x .. x+P-1``; the copies go in after it.  The
    result is a tour again when the codes at columns ``x .. x+2P-1`` repeat
    with period ``P`` (the stored strips are made so).

    Examples
    --------
    >>> codes = np.arange(8, dtype=np.uint8).reshape(2, 4)
    >>> expand(codes, [(1, 2, 1)]).tolist()
    [[0, 1, 2, 1, 2, 3], [4, 5, 6, 5, 6, 7]]
    """
    pieces, at = [], 0
    for x, period, copies in sorted(windows):
        pieces += [codes[:, at : x + period], np.tile(codes[:, x : x + period], (1, copies))]
        at = x + period
    pieces.append(codes[:, at:])
    return np.ascontiguousarray(np.concatenate(pieces, axis=1))


def path_end(codes: Codes) -> int:
    """The first square (flat index) at an end of the path held in ``codes``.

    Examples
    --------
    >>> path_end(codes_from_order(3, 4, [8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4], False))
    4
    """
    flat = codes.reshape(-1)
    ends = np.flatnonzero(((flat & 15) == NONE) | ((flat >> 4) == NONE))
    return int(ends[0])


def any_square(codes: Codes) -> int:
    """A square on the tour (not removed)."""
    return int(np.flatnonzero(codes.reshape(-1) != REMOVED)[0])


def read_cycle(codes: Codes, start: int, end: int | None) -> Any:
    """The closed tour held in ``codes`` read from ``start``, or, given ``end``, read so
    that it ends there: from a cycle neighbour of ``end``, walking away from it."""
    if end is None:
        return follow_unchecked(codes, start, cycle=True)
    cols = codes.shape[1]
    dr, dc = DIRECTIONS[int(codes.reshape(-1)[end]) & 15]
    after = end + dr * cols + dc
    dr, dc = DIRECTIONS[int(codes.reshape(-1)[after]) & 15]
    back = after + dr * cols + dc == end
    return follow_unchecked(codes, after, first=1 if back else 0, cycle=True)


def open_from_hole(codes: Codes, hole: Square) -> Any:
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
    follow_unchecked(codes, first, out=order[1:])
    return order
