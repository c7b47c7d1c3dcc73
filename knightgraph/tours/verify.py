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

from collections.abc import Iterable, Mapping, Sequence, Set
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..boards.board import KNIGHT, Board, SquareLike, coerce_square, describe_square
from ..boards.coercion import as_board
from ..exceptions import (
    BoardTooLargeError,
    InvalidOptionError,
    InvalidSquareError,
    InvalidTourError,
    MissingBoardError,
    describe_value,
)
from .verifyfast import compiled_pass

if TYPE_CHECKING:
    from numpy.typing import NDArray


__all__ = ["TourBase", "check_closed", "is_knight_tour", "validate_tour"]


class TourBase:
    """The base of :class:`knightgraph.Tour` (on any board kind): a verified tour, what a
    :class:`~knightgraph.SearchResult` may carry.

    It lets the verifier and the results recognise (and annotate) a tour without
    importing the modules that define one (the arrows of the layers point down only).

    Examples
    --------
    >>> from knightgraph import Tour
    >>> issubclass(Tour, TourBase)
    True
    >>> from knightgraph import SearchResult, Status
    >>> SearchResult(Status.FOUND, tour=["a1"])  # a list of squares is not a verified Tour
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidResultError: invalid SearchResult tour ['a1']
    """

    __slots__ = ()

    board: Any
    order: Any
    closed: bool


_CHUNK = 1 << 23  # elements per vectorised pass: bounds temporary memory at 10^8 squares
_NONE = 2**63 - 1  # "no defect found" position
_MAX_AREA = 2**62  # flat indices r * n + c (and their differences) must fit in int64


def validate_tour(
    tour: TourBase | Sequence[Any] | NDArray[Any],
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
    check_form(tour)
    closed = check_closed(closed)
    board = _resolve_board(tour, m, n, leaper, removed)
    for square in (start, end):  # a bad start or end is named before any defect
        if square is not None:
            board.index(square)
    check_order(board, to_flat(tour, board), closed, start=start, end=end)


def is_knight_tour(
    tour: TourBase | Sequence[Any] | NDArray[Any],
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


def check_closed(closed: object) -> bool:
    """``closed`` as a bool; raise :class:`~knightgraph.InvalidOptionError` for anything else.

    Examples
    --------
    >>> check_closed(True)
    True
    >>> check_closed("yes")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid closed 'yes': expected True or False
    """
    if not isinstance(closed, bool | np.bool_):
        raise InvalidOptionError(f"invalid closed {describe_value(closed)}: expected True or False")
    return bool(closed)


_FORMS = (
    "expected a sequence of squares (names like 'a1' or (r, c) pairs), "
    "an (N, 2) array of pairs or a 1-D integer array of flat indices r * n + c"
)


def check_form(tour: object) -> None:
    """Refuse, naming it, what cannot be read as a sequence of squares at all."""
    if isinstance(tour, np.ndarray) or getattr(tour, "order", None) is not None:
        return  # arrays are checked by dtype and shape in to_flat; Tours are tours
    if isinstance(tour, str | bytes | bytearray):
        why = f"a {type(tour).__name__} is not a sequence of squares (split it into names)"
    elif isinstance(tour, Mapping | Set):
        why = f"a {type(tour).__name__} has no visiting order; {_FORMS}"
    elif not isinstance(tour, Iterable):
        why = _FORMS
    else:
        return
    raise InvalidTourError(f"invalid tour {describe_value(tour)}: {why}", defect="malformed")


def _resolve_board(
    tour: object,
    m: int | Board | None,
    n: int | None,
    leaper: tuple[int, int],
    removed: Iterable[SquareLike],
) -> Board:
    if m is None:
        board: Board | None = getattr(getattr(tour, "board", None), "rectangle", None)
        if board is None:  # no board, or a graph board's (no rectangle)
            raise MissingBoardError(
                f"no board given for the tour {describe_value(tour)}: pass the board size "
                "m, n (only a Tour carries its own board)"
            )
        return board
    return as_board(m, n, leaper=leaper, removed=removed)


class Flat(NamedTuple):
    """A tour as flat indices, cut before its first square off the board (if any)."""

    order: NDArray[Any]
    first_off: int = _NONE
    off_name: str = ""
    verified: bool = False  # the compiled pass accepted every step


def to_flat(tour: object, board: Board) -> Flat:
    """Convert any accepted tour form to flat indices, noting the first off-board step.

    The order is cut just before that step: nothing after it can be the first defect.
    """
    if board.area > _MAX_AREA:
        raise BoardTooLargeError(
            f"cannot check tours of the {board.m}x{board.n} board: its {board.area} squares "
            f"are too many to number (at most 2^62)"
        )
    order = getattr(tour, "order", None)
    if isinstance(order, np.ndarray) and getattr(tour, "board", None) == board:
        return Flat(order)
    if isinstance(tour, np.ndarray) and tour.size == 0 and tour.ndim in (1, 2):
        return Flat(np.zeros(0, dtype=np.int64))  # no squares: the length check names it
    if isinstance(tour, np.ndarray) and tour.ndim == 1 and tour.dtype.kind in "OU":
        tour = tour.tolist()  # names or pairs held in an array
    elif isinstance(tour, np.ndarray) and tour.ndim == 1 and _whole(tour):
        if compiled_pass(tour, board):
            return Flat(tour, verified=True)
        first = _first_true((tour < 0) | (tour >= board.area))
        if first == _NONE:
            return Flat(tour)
        return Flat(tour[:first], first, f"(index {int(tour[first])})")
    if isinstance(tour, np.ndarray):
        if not (tour.ndim == 2 and tour.shape[1] == 2 and _whole(tour)):
            raise InvalidTourError(
                f"invalid tour {describe_value(tour)}: a tour array must hold whole numbers, "
                "1-D flat indices r * n + c or (N, 2) pairs (r, c)",
                defect="malformed",
            )
        r, c = tour[:, 0].astype(np.int64), tour[:, 1].astype(np.int64)
        first = _first_true((r < 0) | (r >= board.m) | (c < 0) | (c >= board.n))
    else:
        pairs = _to_pairs(tour)
        first = next(
            (
                k
                for k, (r0, c0) in enumerate(pairs)
                if not (0 <= r0 < board.m and 0 <= c0 < board.n)
            ),
            _NONE,
        )
        rc = np.array(pairs[: min(first, len(pairs))], dtype=np.int64).reshape(-1, 2)
        r, c = rc[:, 0], rc[:, 1]
    if first == _NONE:
        return Flat(r * board.n + c)
    r0, c0 = (int(x) for x in (tour[first] if isinstance(tour, np.ndarray) else pairs[first]))
    name = describe_square(r0, c0)
    return Flat((r[:first] * board.n + c[:first]), first, name)


def _whole(array: NDArray[Any]) -> bool:
    """True for arrays of whole numbers (signed or unsigned, never booleans)."""
    return bool(np.issubdtype(array.dtype, np.integer))


def _to_pairs(tour: Any) -> list[tuple[int, int]]:
    """Python ``(r, c)`` pairs from pairs or algebraic names; malformed items are named."""
    pairs = []
    for k, item in enumerate(tour):
        try:
            pairs.append(coerce_square(item))
        except InvalidSquareError:
            hint = ""
            if isinstance(item, int | np.integer) and not isinstance(item, bool):
                hint = " (flat indices r * n + c must come as a 1-D integer numpy array)"
            raise InvalidTourError(
                f"square #{k + 1} {describe_value(item)} is not a square{hint}",
                defect="malformed",
                step=k,
            ) from None
    return pairs


def _first_true(mask: NDArray[np.bool_]) -> int:
    if mask.size and mask.any():
        return int(np.argmax(mask))
    return int(_NONE)


def check_order(
    board: Board,
    order: Flat | NDArray[Any],
    closed: bool,
    *,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
) -> None:
    """Validate flat indices (or a :class:`Flat` cut at its first off-board step).

    This is the engine behind :func:`validate_tour` and ``Tour(...)``.  Each
    finder only looks before the earliest defect found so far, so on a tie the
    earlier kind wins: off the board, removed, repeated, not a leap.
    """
    flat = order if isinstance(order, Flat) else Flat(order)
    seq = flat.order
    step, kind = flat.first_off, "off-board"
    finders = (
        ()
        if flat.verified
        else (
            ("removed", _first_removed),
            ("repeated", _first_repeat),
            ("bad-move", _first_bad_move),
        )
    )
    for name, finder in finders:
        found = finder(seq[: min(step, len(seq))], board)
        if found < step:
            step, kind = found, name
    if step != _NONE:
        raise _step_error(board, flat, step, kind)
    if len(seq) != board.num_squares:
        _raise_length(board, seq)
    ends = ((start, 0, "starts", "wrong-start"), (end, len(seq) - 1, "ends", "wrong-end"))
    for want, pos, verb, defect in ends:
        if want is not None and int(seq[pos]) != board.index(want):
            raise InvalidTourError(
                f"{verb} at {board.name(int(seq[pos]))}, not {board.name(board.index(want))}",
                defect=defect,
                step=pos,
            )
    if closed:
        _check_closing(board, seq)


def _check_closing(board: Board, seq: NDArray[Any]) -> None:
    """A closed tour is a cycle: at least three squares, the last one leap from the first."""
    last, first = board.name(int(seq[-1])), board.name(int(seq[0]))
    if not _is_leap(board, int(seq[-1]), int(seq[0])):
        why = f"the last square {last} is not {_leap_words(board)} from the first square {first}"
    elif len(seq) < 3:
        why = f"two squares make no cycle ({first} and {last} would use one move twice)"
    else:
        return
    raise InvalidTourError(f"not closed: {why}", defect="not-closed", step=len(seq) - 1)


def _short(order: NDArray[Any], board: Board) -> bool:
    """True when the sequence is much shorter than the board: use sorting, not board-sized arrays."""
    return len(order) * 64 < board.area


def _first_removed(order: NDArray[Any], board: Board) -> int:
    if not board.removed:
        return int(_NONE)
    gone = np.fromiter((r * board.n + c for r, c in board.removed), dtype=np.int64)
    return _first_true(np.isin(order, gone))


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
    """Position of the first square visited for the second time.

    A board-sized boolean array answers "no repeat" in one linear pass; only
    when there is one (or the sequence is short) does sorting locate it.
    """
    if not _short(order, board):
        seen = np.zeros(board.area, dtype=bool)
        for lo in range(0, len(order), _CHUNK):
            seen[order[lo : lo + _CHUNK]] = True
        if int(np.count_nonzero(seen)) == len(order):
            return int(_NONE)
    _, first_positions = np.unique(order, return_index=True)
    is_first = np.zeros(len(order), dtype=bool)
    is_first[first_positions] = True
    return _first_true(~is_first)


def _step_error(board: Board, flat: Flat, step: int, kind: str) -> InvalidTourError:
    if kind == "off-board":
        message = f"square #{step + 1} {flat.off_name} is off the {board.m}x{board.n} board"
        return InvalidTourError(message, defect=kind, step=step)
    order = flat.order
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
    detail = ""
    if 0 < count < board.num_squares:
        detail = f" ({board.name(_first_unvisited(board, order))} is never visited)"
    raise InvalidTourError(
        f"the tour visits {count} squares, the {board.m}x{board.n} board has {board.num_squares}"
        + detail,
        defect="length",
        step=None,
    )


def _first_unvisited(board: Board, order: NDArray[Any]) -> int:
    """The lowest flat index on the board that ``order`` misses (it misses one)."""
    if _short(order, board):
        visited = set(order.tolist())
        return next(
            i
            for i in range(board.area)
            if i not in visited and board.square(i) not in board.removed
        )
    missing = board.available()
    missing[order] = False
    return int(np.argmax(missing))
