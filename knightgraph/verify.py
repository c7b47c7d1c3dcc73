"""Checking tours: name the first defect, in linear time, at any size.

:func:`validate_tour` accepts a :class:`~knightgraph.Tour`, a sequence of
``(r, c)`` pairs or algebraic names, an ``(N, 2)`` array, or a 1-D array of flat
indices ``r * n + c``.  It raises :class:`~knightgraph.InvalidTourError` naming
the first defect; :func:`is_knight_tour` answers True/False.

Squares are numbered from 1 in messages, as on a numbered board.

Examples
--------
>>> from knightgraph import validate_tour, is_knight_tour
>>> is_knight_tour(["a1", "b3", "c1"], 3, 3)
False
>>> validate_tour(["a1", "b3", "c1"], 3, 3)
Traceback (most recent call last):
...
knightgraph.exceptions.InvalidTourError: the tour visits 3 squares, the 3x3 board has 9 (b1 is never visited)
>>> validate_tour(["a1", "c2", "a3", "b1", "c3", "a2", "c1", "b3"], 3, 3)  # b2 missing
Traceback (most recent call last):
...
knightgraph.exceptions.InvalidTourError: the tour visits 8 squares, the 3x3 board has 9 (b2 is never visited)
>>> validate_tour(["a1", "b3", "c2"], 3, 3)
Traceback (most recent call last):
...
knightgraph.exceptions.InvalidTourError: square #3 c2 is not a knight's move from #2 b3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .board import KNIGHT, Board, SquareLike, parse_square_text, square_name
from .exceptions import InvalidSquareError, InvalidTourError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from .tour import Tour

__all__ = ["as_board", "is_knight_tour", "validate_tour"]

_CHUNK = 1 << 23  # elements per vectorised pass: bounds temporary memory at 10^8 squares
_NONE = 2**63 - 1  # "no defect found" position


def as_board(
    m: int | Board,
    n: int | None = None,
    *,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
) -> Board:
    """Return ``m`` if it is a :class:`Board`, else ``Board(m, n or m, ...)``.

    Examples
    --------
    >>> as_board(5), as_board(Board(3, 4))
    (Board(5, 5), Board(3, 4))
    """
    if isinstance(m, Board):
        return m
    return Board(m, m if n is None else n, leaper=leaper, removed=removed)


def validate_tour(
    tour: Tour | Sequence[Any] | NDArray[Any],
    m: int | Board | None = None,
    n: int | None = None,
    closed: bool = False,
    *,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
) -> None:
    """Check that ``tour`` is a knight's tour of the board; raise naming the first defect.

    Parameters
    ----------
    tour : Tour, sequence of squares, or array
        ``(r, c)`` pairs, algebraic names, an ``(N, 2)`` array, or a 1-D array
        of flat indices ``r * n + c``.
    m, n : int, or a Board as ``m``
        The board (``n`` defaults to ``m``); may be omitted for a ``Tour``.
    closed : bool, default False
        Also require the last square to be a leap from the first.
    start, end : square, optional
        Required first and last squares.
    leaper, removed
        As for :class:`~knightgraph.Board`.

    Raises
    ------
    InvalidTourError
        With ``defect`` and 0-based ``step`` set.  Defects are found in
        sequence order (a square off the board or removed, a square visited
        again, a move that is not a leap), then the length (a square never
        visited), then the ends, then the closing move.

    Notes
    -----
    Every check is a vectorised numpy pass over the sequence in chunks, so the
    time is O(N) and the extra memory about one byte per board square plus a
    fixed buffer: a 10^8-square tour takes about a second.  A move is checked
    without division: with ``c = i mod n``, a step from ``i`` to ``j`` is the
    leap ``(dr, dc)`` exactly when ``j - i - dc == dr * n`` with
    ``{|dr|, |dc|} = {a, b}``.  Repeats are found by marking a boolean array;
    only a failing tour pays an O(N log N) pass to locate the first repeat.

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> t = find_tour(5, 5, start="a1").tour
    >>> validate_tour(t.squares(), 5, 5, start="a1")
    >>> validate_tour(t.squares(), 5, 5, closed=True)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidTourError: not closed: the last square ... is not a knight's move from the first square a1
    """
    board = _resolve_board(tour, m, n, leaper, removed)
    order, first_off = _to_flat(tour, board)
    check_order(board, order, closed, start=start, end=end, first_off=first_off)


def is_knight_tour(
    tour: Tour | Sequence[Any] | NDArray[Any],
    m: int | Board | None = None,
    n: int | None = None,
    closed: bool = False,
    **kwargs: Any,
) -> bool:
    """Return True if :func:`validate_tour` accepts ``tour``, else False.

    Examples
    --------
    >>> is_knight_tour(["a1"], 1, 1), is_knight_tour(["a1"], 1, 1, closed=True)
    (True, False)
    """
    try:
        validate_tour(tour, m, n, closed, **kwargs)
    except InvalidTourError:
        return False
    return True


def _resolve_board(
    tour: object,
    m: int | Board | None,
    n: int | None,
    leaper: tuple[int, int],
    removed: Iterable[SquareLike],
) -> Board:
    if m is None:
        board = getattr(tour, "board", None)
        if not isinstance(board, Board):
            raise TypeError("validate_tour needs the board size unless it is given a Tour")
        return board
    return as_board(m, n, leaper=leaper, removed=removed)


def _to_flat(tour: object, board: Board) -> tuple[NDArray[np.int64], int]:
    """Convert any accepted tour form to flat indices; report the first off-board step.

    Off-board entries are replaced by 0 in the returned array; the second value
    is the position of the first one (``_NONE`` if there is none).
    """
    order = getattr(tour, "order", None)
    if isinstance(order, np.ndarray) and getattr(tour, "board", None) == board:
        return order, int(_NONE)
    if isinstance(tour, np.ndarray) and tour.ndim == 1 and np.issubdtype(tour.dtype, np.integer):
        bad = (tour < 0) | (tour >= board.area)
        return tour, _first_true(bad)
    rc = _to_pairs(tour)
    r, c = rc[:, 0], rc[:, 1]
    bad = (r < 0) | (r >= board.m) | (c < 0) | (c >= board.n)
    first = _first_true(bad)
    if first != _NONE:
        r0, c0 = int(r[first]), int(c[first])
        where = square_name(r0, c0) if r0 >= 0 and c0 >= 0 else f"({r0}, {c0})"
        raise InvalidTourError(
            f"square #{first + 1} {where} is off the {board.m}x{board.n} board",
            defect="off-board",
            step=first,
        )
    return r * board.n + c, int(_NONE)


def _to_pairs(tour: Any) -> NDArray[np.int64]:
    if isinstance(tour, np.ndarray):
        if tour.ndim == 2 and tour.shape[1] == 2 and np.issubdtype(tour.dtype, np.integer):
            return tour.astype(np.int64, copy=False)
        raise InvalidTourError(
            f"a tour array must be 1-D flat indices or (N, 2) pairs, not shape {tour.shape}"
        )
    pairs = []
    for k, item in enumerate(tour):
        try:
            if isinstance(item, str):
                pairs.append(parse_square_text(item))
            else:
                r, c = item
                if isinstance(r, bool) or isinstance(c, bool):
                    raise TypeError
                pairs.append((int(r), int(c)))
        except (InvalidSquareError, TypeError, ValueError):
            raise InvalidTourError(
                f"square #{k + 1} {item!r} is not a square", defect="malformed", step=k
            ) from None
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def _first_true(mask: NDArray[np.bool_]) -> int:
    if mask.size and mask.any():
        return int(np.argmax(mask))
    return int(_NONE)


def check_order(
    board: Board,
    order: NDArray[Any],
    closed: bool,
    *,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    first_off: int = int(_NONE),
) -> None:
    """Validate flat indices ``order`` (all within ``0 .. m*n - 1`` before ``first_off``).

    This is the engine behind :func:`validate_tour` and ``Tour(...)``.  Each
    finder only looks before the earliest defect found so far, so on a tie the
    earlier kind in the list wins.
    """
    step, kind = first_off, "off-board"
    finders = (
        ("removed", _first_removed),
        ("bad-move", _first_bad_move),
        ("repeated", _first_repeat),
    )
    for name, finder in finders:
        found = finder(order[: min(step, len(order))], board)
        if found < step:
            step, kind = found, name
    if step != _NONE:
        raise _step_error(board, order, step, kind)
    if len(order) != board.num_squares:
        _raise_length(board, order)
    ends = ((start, 0, "starts", "wrong-start"), (end, len(order) - 1, "ends", "wrong-end"))
    for want, pos, verb, defect in ends:
        if want is not None and int(order[pos]) != board.index(want):
            raise InvalidTourError(
                f"{verb} at {board.name(int(order[pos]))}, not {board.name(board.index(want))}",
                defect=defect,
                step=pos,
            )
    if closed and not _is_leap(board, int(order[-1]), int(order[0])):
        raise InvalidTourError(
            f"not closed: the last square {board.name(int(order[-1]))} is not "
            f"{_leap_words(board)} from the first square {board.name(int(order[0]))}",
            defect="not-closed",
            step=len(order) - 1,
        )


def _first_removed(order: NDArray[Any], board: Board) -> int:
    if not board.removed:
        return int(_NONE)
    return _first_true(~board.available()[order])


def _leap_words(board: Board) -> str:
    return "a knight's move" if board.leaper == KNIGHT else f"a {board.leaper}-leap"


def _is_leap(board: Board, i: int, j: int) -> bool:
    (ri, ci), (rj, cj) = divmod(i, board.n), divmod(j, board.n)
    return sorted((abs(ri - rj), abs(ci - cj))) == list(board.leaper)


def _first_bad_move(order: NDArray[Any], board: Board) -> int:
    """Position of the first square that is not a leap from its predecessor."""
    n = board.n
    a, b = board.leaper
    for lo in range(1, len(order), _CHUNK):
        seg = order[lo - 1 : lo + _CHUNK].astype(np.int64, copy=False)
        cols = seg % n
        dc = np.abs(np.diff(cols))
        dr_n = np.abs(np.diff(seg) - np.diff(cols))
        ok = ((dc == b) & (dr_n == a * n)) | ((dc == a) & (dr_n == b * n))
        first = _first_true(~ok)
        if first != _NONE:
            return lo + first
    return int(_NONE)


def _first_repeat(order: NDArray[Any], board: Board) -> int:
    """Position of the first square visited for the second time."""
    seen = np.zeros(board.area, dtype=bool)
    for lo in range(0, len(order), _CHUNK):
        seen[order[lo : lo + _CHUNK]] = True
    if int(np.count_nonzero(seen)) == len(order):
        return int(_NONE)
    _, first_positions = np.unique(order, return_index=True)
    is_first = np.zeros(len(order), dtype=bool)
    is_first[first_positions] = True
    return _first_true(~is_first)


def _step_error(board: Board, order: NDArray[Any], step: int, kind: str) -> InvalidTourError:
    if kind == "off-board":
        return InvalidTourError(
            f"square #{step + 1} (index {int(order[step])}) is off the {board.m}x{board.n} board",
            defect=kind,
            step=step,
        )
    here = f"#{step + 1} {board.name(int(order[step]))}"
    if kind == "removed":
        message = f"square {here} is removed from the board"
    elif kind == "repeated":
        earlier = int(np.argmax(order[:step] == order[step]))
        message = f"square {here} is visited again (first as #{earlier + 1})"
    else:
        prev = f"#{step} {board.name(int(order[step - 1]))}"
        message = f"square {here} is not {_leap_words(board)} from {prev}"
    return InvalidTourError(message, defect=kind, step=step)


def _raise_length(board: Board, order: NDArray[Any]) -> None:
    count = len(order)
    if count > board.num_squares:
        detail = ""
    else:
        missing = board.available()
        missing[order] = False
        detail = f" ({board.name(int(np.argmax(missing)))} is never visited)" if count else ""
    raise InvalidTourError(
        f"the tour visits {count} squares, the {board.m}x{board.n} board has {board.num_squares}"
        + detail,
        defect="length",
        step=None,
    )
