"""Reading tour files: algebraic text, numbered boards, JSON and ``.npy``, read bounded.

The readers behind ``knightgraph verify`` and ``draw file`` (and
:func:`knightgraph.read_npy`); the formats themselves are described in
:mod:`knightgraph.io.formats`, which writes them and re-exports these names.  Every file
is read through :func:`knightgraph.running.disk.read_input` with a size limit derived from the
board (:func:`tour_file_limit`), so a device, a FIFO or a huge file is refused before
anything is read.

Examples
--------
>>> from knightgraph import Board
>>> parse_tour_text("a1 c2 a3", Board(3, 3))
[(0, 0), (1, 2), (2, 0)]
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..boards.squares import Square, coerce_square, parse_square_text
from ..exceptions import InvalidSquareError, InvalidTourError, TourFormatError, describe_value
from ..running.disk import check_path

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ..boards.board import Board

__all__ = [
    "parse_tour_bytes",
    "parse_tour_text",
    "read_npy",
    "read_tour_file",
    "tour_file_limit",
]


def read_npy(path: str | os.PathLike[str]) -> NDArray[Any]:
    """Read a ``.npy`` tour: a 1-D array of flat indices or an ``(N, 2)`` array of pairs.

    Examples
    --------
    >>> import numpy as np
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.npy")
    ...     np.save(path, np.array([[0, 0], [1, 2], [2, 0]]))
    ...     read_npy(path).tolist()
    [[0, 0], [1, 2], [2, 0]]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.npy")
    ...     np.save(path, np.array([0.5, 1.5]))
    ...     read_npy(path)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: '...tour.npy' does not hold a tour: expected integer flat indices or (N, 2) pairs
    """
    name = check_path(path, "input")
    return _load_npy(name, name)


def _load_npy(source: Any, name: str) -> NDArray[Any]:
    import numpy as np

    try:
        arr = np.load(source, allow_pickle=False)
    except (ValueError, OSError, EOFError) as err:
        raise TourFormatError(f"cannot read {name!r} as .npy: {err}") from None
    if (
        not isinstance(arr, np.ndarray)
        or not np.issubdtype(arr.dtype, np.integer)
        or not (arr.ndim == 1 or (arr.ndim == 2 and arr.shape[1] == 2))
    ):
        raise TourFormatError(
            f"{name!r} does not hold a tour: expected integer flat indices or (N, 2) pairs"
        )
    return arr


def read_tour_file(path: str | os.PathLike[str] | None, board: Board) -> tuple[Any, bool]:
    """Read a tour file (or standard input for None) in any format.

    Returns the squares as something :func:`~knightgraph.validate_tour`
    accepts, and whether the file itself says the tour is closed.  Raises
    :class:`TourFormatError` when the file cannot be read as a tour (exit 2 on
    the command line) and :class:`InvalidTourError` when it clearly describes
    something that is not a tour of ``board`` (exit 1).

    Examples
    --------
    The format is told by the content, not by the file name:

    >>> import os, tempfile
    >>> from knightgraph import find_tour
    >>> from knightgraph.io.formats import format_board, write_npy, write_text
    >>> tour = find_tour(3, 4, start="a1", method="backtrack").tour
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour")
    ...     write_text(format_board(tour), path)
    ...     board_squares, _ = read_tour_file(path, tour.board)
    ...     write_npy(tour.order, path)
    ...     npy_order, _ = read_tour_file(path, tour.board)
    >>> board_squares == tour.squares(), npy_order.tolist() == tour.order.tolist()
    (True, True)
    >>> read_tour_file("no-such-folder/tour.txt", tour.board)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read tour 'no-such-folder/tour.txt': No such file or directory

    Only regular files (or standard input) are read, at most :func:`tour_file_limit`
    bytes (:func:`knightgraph.running.disk.read_input`):

    >>> read_tour_file("/dev/zero", tour.board)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read tour '/dev/zero': it is a character device, not a regular file
    """
    from ..exceptions import InvalidOptionError
    from ..running.disk import read_input

    if path is not None:
        check_path(path, "input")
    limit = tour_file_limit(board)
    try:
        raw = read_input(path, "tour", limit=limit)
    except InvalidOptionError as err:
        raise TourFormatError(str(err)) from None
    name = "<stdin>" if path is None or os.fspath(path) == "-" else os.fspath(path)
    npy_limit = (1 << 12) + 16 * int(board.num_squares)  # header, then (N, 2) int64 pairs
    if raw.startswith(b"\x93NUMPY") and len(raw) > npy_limit:
        raise TourFormatError(
            f"cannot read tour {name!r}: {len(raw)} bytes is more than the {npy_limit} bytes "
            f"a .npy tour of {board.m}x{board.n} may hold"
        )
    return parse_tour_bytes(raw, board, name)


def tour_file_limit(board: Any) -> int:
    """The most bytes a tour file of ``board`` may hold: 64 KiB plus 64 a square, room
    for every format (``.npy`` pairs take 16 bytes a square, a numbered board or
    indented JSON some 40 on the largest boards).

    Examples
    --------
    >>> from knightgraph import Board
    >>> tour_file_limit(Board(8, 8))
    69632
    """
    return (1 << 16) + 64 * int(board.num_squares)


def parse_tour_bytes(raw: bytes, board: Board, name: str) -> tuple[Any, bool]:
    """A tour (and whether it says it is closed) from the bytes of a file named ``name``:
    ``.npy``, JSON, algebraic text or a numbered board, told apart by their content.

    Examples
    --------
    >>> from knightgraph import Board
    >>> board = Board(3, 4)
    >>> parse_tour_bytes(b"a1 c2 a3", board, "t.txt")
    ([(0, 0), (1, 2), (2, 0)], False)
    >>> parse_tour_bytes(b'{"rows": 3, "cols": 4, "closed": true, "squares": [[0, 0], [1, 2]]}',
    ...                  board, "t.json")
    ([(0, 0), (1, 2)], True)
    >>> parse_tour_bytes(b'{"rows": 8, "cols": 8, "squares": []}', board, "t.json")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidTourError: t.json holds a tour of 8x8, not of 3x4
    >>> parse_tour_bytes(bytes([0xFF, 0xFE]), board, "t.bin")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read 't.bin': not text, JSON or .npy
    """
    if not isinstance(raw, bytes | bytearray):
        raise TourFormatError(f"cannot read {name!r}: expected bytes, not {describe_value(raw)}")
    if raw.startswith(b"\x93NUMPY"):
        import io

        return _load_npy(io.BytesIO(raw), name), False
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TourFormatError(f"cannot read {name!r}: not text, JSON or .npy") from None
    if text.lstrip().startswith(("{", "[")):
        return _parse_json(text, board, name)
    return parse_tour_text(text, board, name=name), False


def _parse_json(text: str, board: Board, name: str) -> tuple[Any, bool]:
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise TourFormatError(f"cannot read {name!r}: invalid JSON ({err})") from None
    except RecursionError:
        raise TourFormatError(f"cannot read {name!r}: JSON nested too deeply") from None
    closed = False
    if isinstance(data, dict):
        if "squares" not in data:
            raise TourFormatError(f"cannot read {name!r}: the JSON object has no 'squares'")
        size = (data.get("rows", board.m), data.get("cols", board.n))
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in size):
            raise TourFormatError(f"cannot read {name!r}: 'rows' and 'cols' must be whole numbers")
        if size != (board.m, board.n):
            raise InvalidTourError(
                f"{name} holds a tour of {size[0]}x{size[1]}, not of {board.m}x{board.n}",
                defect="board",
            )
        closed = data.get("closed") is True
        data = data["squares"]
    if not isinstance(data, list):
        raise TourFormatError(f"cannot read {name!r}: 'squares' must be a list")
    squares: list[Square] = []
    for k, item in enumerate(data):
        squares.append(_json_square(item, k, name))
    return squares, closed


def _json_square(item: object, k: int, name: str) -> Square:
    try:
        return coerce_square(item)
    except InvalidSquareError:
        raise TourFormatError(
            f"cannot read {name!r}: square #{k + 1} {item!r} is not a square"
        ) from None


def parse_tour_text(text: str, board: Board, *, name: str = "<text>") -> list[Square]:
    """Parse algebraic/``r,c`` squares or a numbered board into ``(r, c)`` pairs.

    Examples
    --------
    >>> from knightgraph import Board
    >>> parse_tour_text("a1 c2\\n 2,0", Board(3, 3))
    [(0, 0), (1, 2), (2, 0)]
    >>> parse_tour_text("a1 hello", Board(3, 3))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read '<text>': 'hello' (token 2) is not a square
    """
    if not isinstance(text, str):
        raise TourFormatError(f"cannot read {name!r}: expected text, not {describe_value(text)}")
    if "|" in text:
        return _parse_numbered(text, board, name)
    tokens = [tok for tok in text.split() if tok not in ("-", "->", "→")]
    if tokens and all(tok.isdecimal() for tok in tokens):
        return _from_numbers([tok.split() for tok in text.strip().splitlines()], board, name)
    squares = []
    for k, tok in enumerate(tokens):
        try:
            squares.append(parse_square_text(tok))
        except InvalidSquareError:
            raise TourFormatError(
                f"cannot read {name!r}: {tok!r} (token {k + 1}) is not a square"
            ) from None
    return squares


def _parse_numbered(text: str, board: Board, name: str) -> list[Square]:
    rows = [line.split("|", 1)[1].split() for line in text.splitlines() if "|" in line]
    return _from_numbers(rows, board, name)


def _from_numbers(rows: list[list[str]], board: Board, name: str) -> list[Square]:
    """Squares in numbered order from grid rows printed rank ``m`` first."""
    if len(rows) != board.m or any(len(row) != board.n for row in rows):
        raise TourFormatError(
            f"cannot read {name!r}: a numbered board for {board.m}x{board.n} needs {board.m} rows "
            f"of {board.n} numbers"
        )
    where: dict[int, Square] = {}
    for i, row in enumerate(rows):
        r = board.m - 1 - i
        for c, cell in enumerate(row):
            if cell == ".":
                continue
            if not cell.isdecimal():
                raise TourFormatError(f"cannot read {name!r}: {cell!r} is not a number")
            k = int(cell)
            if k in where:
                raise InvalidTourError(
                    f"number {k} appears twice, on {board.name(where[k])} and {board.name((r, c))}",
                    defect="repeated",
                    step=k - 1,
                )
            where[k] = (r, c)
    missing = next((k for k in range(1, len(where) + 1) if k not in where), None)
    if missing is not None:
        raise InvalidTourError(
            f"number {missing} is missing from the numbered board", defect="length"
        )
    return [where[k] for k in range(1, len(where) + 1)]
