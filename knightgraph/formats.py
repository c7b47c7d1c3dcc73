"""Reading and writing tours: algebraic text, numbered boards, JSON and ``.npy``.

Formats
-------
squares
    Algebraic names separated by single spaces on one line (``a1 c2 e1 ...``).
    When reading, ``r,c`` pairs (0-based) are accepted too, separated by any
    white space.
board
    The numbered board: each square shows its visiting number 1..N; rank
    ``m`` is printed first (as on a chess diagram) and files are labelled
    underneath; removed squares show ``.``.
json
    ``{"rows", "cols", "closed", "start", "end", "squares": [[r, c], ...]}``
    (the command line adds ``method``, ``seconds`` and ``stats``).
npy
    The order as a 1-D array of flat indices ``r * n + c`` (``int32`` when it
    fits); the board size and closedness are not stored.

Every file is written atomically: to a temporary file in the same folder,
renamed into place only when complete, so a failure never leaves a partial
file behind.

Examples
--------
>>> from knightgraph import Board, Tour
>>> from knightgraph.formats import format_board, parse_tour_text
>>> t = Tour.from_squares("a1 c2 a3 b1 c3 a2 c1 b3".split(), Board(3, 3, removed=["b2"]))
>>> print(format_board(t))
3 | 3 8 5
2 | 6 . 2
1 | 1 4 7
    a b c
>>> parse_tour_text(format_board(t), t.board) == t.squares()
True
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .exceptions import InvalidSquareError, InvalidTourError, TourFormatError
from .files import atomic_output, check_path, write_text
from .squares import Square, coerce_square, file_name, names_line, parse_square_text

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from .board import Board
    from .graphs import GraphBoard
    from .results import SearchResult
    from .tour import Tour

__all__ = [
    "atomic_output",
    "board_fields",
    "format_board",
    "format_squares",
    "numbered_board",
    "outcome_fields",
    "parse_tour_bytes",
    "parse_tour_text",
    "read_npy",
    "read_tour_file",
    "result_to_dict",
    "tour_file_limit",
    "write_npy",
    "write_text",
]


# --------------------------------------------------------------------- writing
def format_squares(tour: Tour) -> str:
    """Algebraic names separated by single spaces, on one line.

    The line is built by :func:`knightgraph.squares.names_line` (bytes
    assembled by numpy, not one Python string per square).

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> format_squares(find_tour(3, 4, start="a1", method="backtrack").tour)
    'a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2'
    """
    tour = _tour(tour)
    return names_line(tour.order, tour.board.m, tour.board.n)


def format_board(tour: Tour) -> str:
    """The numbered board, rank ``m`` first, files labelled underneath.

    Examples
    --------
    The first tour of plain depth-first search from a1 on 5x5:

    >>> from knightgraph import find_tour
    >>> print(format_board(find_tour(5, 5, start="a1", method="backtrack").tour))
    5 | 25 18  3 12 23
    4 |  8 13 24 17  4
    3 | 19  2  7 22 11
    2 | 14  9 20  5 16
    1 |  1  6 15 10 21
         a  b  c  d  e
    """
    board = _tour(tour).board
    return numbered_board(tour.numbered().ravel().tolist(), board.m, board.n)


def numbered_board(numbers: list[int], m: int, n: int) -> str:
    """The numbered board of :func:`format_board` from the visiting numbers of the squares
    in flat order (``r * n + c``; 0 marks a square not visited, shown ``.``).

    Examples
    --------
    >>> print(numbered_board([1, 4, 0, 3, 2, 5], 2, 3))
    2 | 3 2 5
    1 | 1 4 .
        a b c
    """
    width = max(len(str(max(numbers, default=0))), len(file_name(n - 1)))
    label = len(str(m))
    lines = []
    for r in range(m - 1, -1, -1):
        cells = (str(v).rjust(width) if v else ".".rjust(width) for v in numbers[r * n : r * n + n])
        lines.append(f"{str(r + 1).rjust(label)} | {' '.join(cells)}")
    files = " ".join(file_name(c).rjust(width) for c in range(n))
    lines.append(" " * (label + 3) + files)
    return "\n".join(lines)


def result_to_dict(
    result: SearchResult,
    board: Board | GraphBoard,
    closed: bool,
    start: Any | None,
    end: Any | None,
) -> dict[str, Any]:
    """The JSON object of ``knightgraph tour --format json`` for any outcome.

    A found tour gives the contract's ``rows, cols, closed, start, end,
    squares, method, seconds, stats``; every outcome also has ``status`` and
    ``reason``, and a proof of absence its ``certificate``.  The board is
    always described whole (:func:`board_fields`: ``leaper`` and ``removed``
    with or without a tour; a graph board's ``vertices`` and ``edges``), so that
    ``python -m knightgraph.certcheck`` can re-check the answer from it alone.

    Examples
    --------
    >>> from knightgraph import Board
    >>> from knightgraph import find_tour
    >>> out = result_to_dict(find_tour(4, 4), Board(4, 4), False, None, None)
    >>> out["status"], out["squares"], out["certificate"]["kind"]
    ('proven_absent', None, 'sat-refutation')
    >>> res = find_tour(3, 4, start="a1", method="backtrack")
    >>> out = result_to_dict(res, Board(3, 4), False, (0, 0), None)
    >>> out["status"], out["start"], out["end"], out["squares"][:2], out["stats"]
    ('found', 'a1', 'a2', [[0, 0], [1, 2]], {'placed': 61, 'tried': 450})
    >>> board = Board(3, 3, leaper=(1, 3))  # no tour: the board is still described
    >>> out = result_to_dict(find_tour(board), board, False, None, None)
    >>> out["leaper"], out["certificate"]["kind"]
    ([1, 3], 'degree')
    >>> import networkx as nx
    >>> from knightgraph.graphs import GraphBoard
    >>> star = GraphBoard.from_networkx(nx.star_graph(3))
    >>> out = result_to_dict(find_tour(star), star, False, None, None)
    >>> out["vertices"], out["edges"], out["certificate"]["kind"]
    (['0', '1', '2', '3'], [['0', '1'], ['0', '2'], ['0', '3']], 'degree')
    """
    tour: Any = result.tour
    if hasattr(board, "adj"):  # a graph board: its vertices and edges, squares by name
        head = {**board_fields(board), "closed": closed}
        if tour is not None:
            names = tour.algebraic()
            head.update(closed=tour.closed, start=names[0], end=names[-1], squares=names)
        else:
            head.update(start=_named(board, start), end=_named(board, end), squares=None)
    elif tour is not None:
        head = tour.to_dict()
    else:
        head = {
            "rows": board.m,
            "cols": board.n,
            "closed": closed,
            "start": _named(board, start),
            "end": _named(board, end),
            **board_fields(board),
            "squares": None,
        }
    fields = outcome_fields(result.method, result.seconds, result.stats)
    out = {**head, **fields, "status": result.status.value, "reason": result.reason}
    if result.certificate is not None:
        out["certificate"] = result.certificate.to_dict()
    return out


def _named(board: Any, square: Any) -> str | None:
    return None if square is None else str(board.name(square))


def board_fields(board: Board | GraphBoard) -> dict[str, Any]:
    """What an independent checker needs to know of a board beyond ``rows`` and ``cols``:
    ``leaper`` and ``removed`` (square names) when they differ from the knight and the
    whole board; for a graph board, ``graph`` (its kind), ``vertices`` (names) and
    ``edges`` (pairs of names).

    Examples
    --------
    >>> from knightgraph import Board
    >>> board_fields(Board(3, 4, leaper=(1, 3), removed=["b2", "a1"]))
    {'leaper': [1, 3], 'removed': ['a1', 'b2']}
    >>> board_fields(Board(8, 8))
    {}
    """
    if hasattr(board, "adj"):
        graph: Any = board
        names = graph.names
        edges = [[names[i], names[j]] for i, j in graph.edges()]
        return {"graph": graph.kind, "vertices": list(names), "edges": edges}
    out: dict[str, Any] = {}
    if tuple(board.leaper) != (1, 2):
        out["leaper"] = list(board.leaper)
    if board.removed:
        out["removed"] = [board.name(s) for s in sorted(board.removed)]
    return out


def outcome_fields(method: str, seconds: float, stats: dict[str, Any]) -> dict[str, Any]:
    """The fields the command line adds after a tour's own in its JSON: ``method``,
    ``seconds`` (to the microsecond) and ``stats`` (then ``status`` and ``reason``).

    Examples
    --------
    >>> outcome_fields("divide", 0.12345678, {"squares": 64})
    {'method': 'divide', 'seconds': 0.123457, 'stats': {'squares': 64}}
    """
    return {"method": method, "seconds": round(seconds, 6), "stats": stats}


def _tour(tour: object) -> Tour:
    from .tour import Tour

    if not isinstance(tour, Tour):
        raise InvalidTourError(f"not a Tour: {_describe(tour)}")
    return tour


def _describe(value: object) -> str:
    from .exceptions import describe_value

    return describe_value(value)


def write_npy(order: NDArray[Any], path: str | os.PathLike[str]) -> None:
    """Write a 1-D order array as ``.npy`` atomically (streamed, no extra copy).

    Examples
    --------
    >>> import numpy as np
    >>> import os, tempfile
    >>> from knightgraph import find_tour
    >>> tour = find_tour(3, 4, start="a1", method="backtrack").tour
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.npy")
    ...     write_npy(tour.order, path)
    ...     np.array_equal(np.load(path), tour.order)
    True
    >>> write_npy(tour.squares(), "tour.npy")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidTourError: cannot write [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1), ...] as .npy: expected a 1-D integer order array
    """
    import numpy as np

    if not (
        isinstance(order, np.ndarray) and order.ndim == 1 and np.issubdtype(order.dtype, np.integer)
    ):
        raise InvalidTourError(
            f"cannot write {_describe(order)} as .npy: expected a 1-D integer order array"
        )
    with atomic_output(path, "wb") as handle:
        np.save(handle, order, allow_pickle=False)


# --------------------------------------------------------------------- reading
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
    bytes (:func:`knightgraph.files.read_input`):

    >>> read_tour_file("/dev/zero", tour.board)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read tour '/dev/zero': it is a character device, not a regular file
    """
    from .exceptions import InvalidOptionError
    from .files import read_input

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
        raise TourFormatError(f"cannot read {name!r}: expected bytes, not {_describe(raw)}")
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
        raise TourFormatError(f"cannot read {name!r}: expected text, not {_describe(text)}")
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
