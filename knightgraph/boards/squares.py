"""Squares and leapers, before any board: square names, ``(r, c)`` pairs, the pieces' moves.

Square ``(r, c)`` is 0-based (rank ``r``, file ``c``); its algebraic name is the
file letters of ``c`` (``a`` .. ``z``, then ``aa``, ``ab``, ... in bijective
base 26) followed by the rank ``r + 1``; ``"r,c"`` text and pairs name it too.
An ``(a, b)``-leaper moves ``a`` squares one way and ``b`` the other (the knight
is the ``(1, 2)``-leaper).  Nothing here knows a board: these functions read and
write names and moves, and :class:`~knightgraph.Board` checks that a square is on it.

Examples
--------
>>> square_name(3, 3), parse_square_text("d4"), coerce_square("3,3")
('d4', (3, 3), (3, 3))
>>> file_name(26), file_index("aa")
('aa', 26)
>>> LEAPERS["camel"], leaper_offsets((2, 1))[1][:2]
((1, 3), ((2, 1), (1, 2)))
"""

from __future__ import annotations

import re
import sys
from typing import Any, TypeAlias, TypeGuard, cast

from ..exceptions import InvalidBoardError, InvalidSquareError

__all__ = [
    "CAMEL",
    "GIRAFFE",
    "KNIGHT",
    "LEAPERS",
    "ZEBRA",
    "Square",
    "SquareLike",
    "coerce_square",
    "describe_square",
    "file_index",
    "file_name",
    "index_pairs",
    "is_whole",
    "names_line",
    "parse_square_text",
    "plain_pair",
    "square_name",
]

Square: TypeAlias = tuple[int, int]
"""A 0-based ``(rank, file)`` pair."""

SquareLike: TypeAlias = str | tuple[int, int]
"""Anything naming a square: ``"d4"``, ``"3,3"`` or ``(3, 3)``."""

KNIGHT: Square = (1, 2)
CAMEL: Square = (1, 3)
ZEBRA: Square = (2, 3)
GIRAFFE: Square = (1, 4)
LEAPERS: dict[str, Square] = {"knight": KNIGHT, "camel": CAMEL, "zebra": ZEBRA, "giraffe": GIRAFFE}
"""Named leapers; an ``(a, b)``-leaper jumps ``a`` one way and ``b`` the other."""

_ALGEBRAIC = re.compile(r"^([a-z]+)([0-9]+)$")
_COORDINATES = re.compile(r"^\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?$")


def is_whole(value: object) -> TypeGuard[int]:
    """True for an ``int`` or a numpy integer, not a ``bool``.

    numpy is not imported for the check: a numpy integer can only exist once numpy has
    been imported, so when it is not in :data:`sys.modules` an ``int`` is the only
    whole number (``knightgraph tour 8 8`` runs without numpy).

    Examples
    --------
    >>> is_whole(3), is_whole(True), is_whole(3.0), is_whole("3")
    (True, False, False, False)
    """
    if isinstance(value, int):
        return not isinstance(value, bool)
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.integer)


def file_name(c: int) -> str:
    """Return the file letters of 0-based file ``c`` (bijective base 26).

    Examples
    --------
    >>> [file_name(c) for c in (0, 7, 25, 26, 27, 51, 52, 701, 702)]
    ['a', 'h', 'z', 'aa', 'ab', 'az', 'ba', 'zz', 'aaa']
    """
    if not is_whole(c) or c < 0:
        raise InvalidSquareError(f"invalid file {c!r}: files are whole numbers from 0")
    letters = []
    k = c + 1
    while k:
        k, digit = divmod(k - 1, 26)
        letters.append(chr(ord("a") + digit))
    return "".join(reversed(letters))


def file_index(letters: str) -> int:
    """Return the 0-based file of file letters (inverse of :func:`file_name`).

    Examples
    --------
    >>> file_index("a"), file_index("z"), file_index("aa"), file_index("AAA")
    (0, 25, 26, 702)
    """
    if not letters.isalpha() or not letters.isascii():
        raise InvalidSquareError(f"invalid file {letters!r}: expected letters a..z")
    k = 0
    for ch in letters.lower():
        k = k * 26 + (ord(ch) - ord("a") + 1)
    return k - 1


def square_name(r: int, c: int) -> str:
    """Return the algebraic name of square ``(r, c)``.

    Examples
    --------
    >>> square_name(0, 0), square_name(7, 7), square_name(0, 26)
    ('a1', 'h8', 'aa1')
    """
    if not is_whole(r) or r < 0:
        raise InvalidSquareError(f"invalid rank {r!r}: ranks are whole numbers from 0")
    return f"{file_name(c)}{r + 1}"


def parse_square_text(text: str) -> Square:
    """Parse ``"d4"`` or ``"r,c"`` (0-based) into ``(r, c)`` without a board check.

    Raises
    ------
    InvalidSquareError
        If the text is neither form; the message names the text.

    Examples
    --------
    >>> parse_square_text("d4"), parse_square_text("3,3"), parse_square_text("AA10")
    ((3, 3), (3, 3), (9, 26))
    """
    s = text.strip().lower()
    match = _ALGEBRAIC.match(s)
    if match:
        rank = int(match.group(2))
        if rank < 1:
            raise InvalidSquareError(f"invalid square {text!r}: ranks are numbered from 1")
        return rank - 1, file_index(match.group(1))
    match = _COORDINATES.match(s)
    if match:
        return int(match.group(1)), int(match.group(2))
    raise InvalidSquareError(f"invalid square {text!r}: expected a name like 'a1' or 'r,c'")


def coerce_square(square: Any) -> Square:
    """``(r, c)`` from a name, an ``"r,c"`` string or a pair of whole numbers (no board check).

    Raises
    ------
    InvalidSquareError
        For anything else (floats, booleans, wrong lengths), naming it.

    Examples
    --------
    >>> coerce_square("b3"), coerce_square((2, 1)), coerce_square([-1, 40])
    ((2, 1), (2, 1), (-1, 40))
    >>> coerce_square((1.5, 2))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidSquareError: invalid square (1.5, 2): expected a name like 'a1' or an (r, c) pair
    """
    if isinstance(square, str):
        return parse_square_text(square)
    if isinstance(square, bytes | bytearray | memoryview | set | frozenset | dict):
        raise InvalidSquareError(
            f"invalid square {square!r}: expected a name like 'a1' or an (r, c) pair"
        )
    try:
        r, c = square
    except (TypeError, ValueError):
        r = c = None
    if not all(is_whole(x) for x in (r, c)):
        raise InvalidSquareError(
            f"invalid square {square!r}: expected a name like 'a1' or an (r, c) pair"
        )
    return int(r), int(c)


def describe_square(r: int, c: int) -> str:
    """The algebraic name when it exists, else the pair (for squares off the board).

    Examples
    --------
    >>> describe_square(0, 0), describe_square(7, 27)
    ('a1', 'ab8')
    >>> describe_square(-1, 2)  # the move (-1, 2) from a1: off the board, so no name
    '(-1, 2)'
    """
    return square_name(r, c) if r >= 0 and c >= 0 else f"({r}, {c})"


def leaper_offsets(leaper: object) -> tuple[Square, tuple[Square, ...]]:
    """Validate an ``(a, b)`` leaper and list its moves in a fixed order.

    The order for ``a < b`` is ``(b, a), (a, b), (-a, b), (-b, a), (-b, -a),
    (-a, -b), (a, -b), (b, -a)``: for the knight this is the seed-004 order, a
    clockwise sweep starting two ranks up and one file right.
    """
    try:
        a, b = (int(x) for x in leaper)  # type: ignore[attr-defined]
        ok = all(is_whole(x) for x in leaper)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        ok = False
    if not ok or a < 0 or b < 0 or a == b == 0:
        raise InvalidBoardError(
            f"invalid leaper {leaper!r}: expected two whole numbers (a, b) >= 0, not both 0"
        )
    a, b = sorted((a, b))
    moves = [(b, a), (a, b), (-a, b), (-b, a), (-b, -a), (-a, -b), (a, -b), (b, -a)]
    unique = tuple(dict.fromkeys(moves))
    return (a, b), unique


def names_line(order: Any, m: int, n: int) -> str:
    """The algebraic names of the flat indices ``order`` of an ``m x n`` board, space-separated.

    Parameters
    ----------
    order : array of int
        Flat indices ``r * n + c``.
    m, n : int
        The board's ranks and files.

    Returns
    -------
    str
        ``"a1 c2 ..."`` on one line.

    Notes
    -----
    The names are assembled as bytes by numpy, :data:`NAMES_CHUNK` squares at
    a time: each square is a row of a zero-padded byte table (file letters,
    rank digits, a space) and the padding is dropped at the end.  O(len(order))
    time, about 30 ms per million squares, where one Python string per square
    costs five times more; the scratch table is bounded by the chunk.

    Examples
    --------
    >>> names_line([0, 9, 16, 25], 4, 8)
    'a1 b2 a3 b4'
    >>> names_line([27], 1, 28)
    'ab1'
    """
    import numpy as np

    files = _padded([file_name(c) for c in range(n)])
    ranks = _padded([str(r + 1) for r in range(m)])
    flat_order = np.asarray(order, dtype=np.int64)
    parts = []
    for lo in range(0, len(flat_order), NAMES_CHUNK):
        rows, cols = np.divmod(flat_order[lo : lo + NAMES_CHUNK], n)
        cells = np.zeros((len(rows), files.shape[1] + ranks.shape[1] + 1), dtype=np.uint8)
        cells[:, : files.shape[1]] = files[cols]
        cells[:, files.shape[1] : -1] = ranks[rows]
        cells[:, -1] = ord(" ")
        flat = cells.ravel()
        parts.append(flat[flat != 0].tobytes())
    return b"".join(parts).decode("ascii")[:-1]


NAMES_CHUNK = 1 << 20
"""Squares :func:`names_line` names per step (bounds its scratch memory)."""


def _padded(names: list[str]) -> Any:
    """``names`` as rows of ASCII bytes, padded on the right with zero bytes."""
    import numpy as np

    width = max(len(name) for name in names)
    table = np.zeros((len(names), width), dtype=np.uint8)
    for i, name in enumerate(names):
        table[i, : len(name)] = np.frombuffer(name.encode("ascii"), dtype=np.uint8)
    return table


def index_pairs(order: Any, n: int) -> list[list[int]]:
    """``[[r, c], ...]`` of flat indices, built by numpy with the cyclic garbage collector
    paused: a million two-int lists hold no cycles, yet their allocation set off full
    collections that took 2-3 s of a million-square tour's JSON (0.5 s without).

    Examples
    --------
    >>> index_pairs([0, 9, 16], 8)
    [[0, 0], [1, 1], [2, 0]]
    """
    import gc

    import numpy as np

    paused = gc.isenabled()
    gc.disable()
    try:
        return cast(list[list[int]], np.stack(np.divmod(order, n), axis=1).tolist())
    finally:
        if paused:
            gc.enable()


def plain_pair(square: Any, m: int, n: int) -> TypeGuard[Square]:
    """True for a tuple of two plain ints on an ``m x n`` board (no parsing needed).

    Examples
    --------
    >>> plain_pair((2, 3), 8, 8), plain_pair((True, 3), 8, 8), plain_pair((8, 0), 8, 8)
    (True, False, False)
    """
    return (
        type(square) is tuple
        and len(square) == 2
        and type(square[0]) is int
        and type(square[1]) is int
        and 0 <= square[0] < m
        and 0 <= square[1] < n
    )
