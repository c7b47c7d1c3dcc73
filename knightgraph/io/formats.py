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
>>> from knightgraph.io.formats import format_board, parse_tour_text
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

from ..boards.squares import file_name, names_line
from ..exceptions import InvalidTourError, describe_value
from ..running.disk import atomic_output, write_text
from .tourfiles import (
    parse_tour_bytes,
    parse_tour_text,
    read_npy,
    read_tour_file,
    tour_file_limit,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ..boards.board import Board
    from ..boards.graphboard import GraphBoard
    from ..tours.results import SearchResult
    from ..tours.tour import Tour

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

    The line is built by :func:`knightgraph.boards.squares.names_line` (bytes
    assembled by numpy, not one Python string per square).

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> format_squares(find_tour(3, 4, start="a1", method="backtrack").tour)
    'a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2'
    """
    from ..tours.tour import tour_of_rectangle

    tour = tour_of_rectangle(tour)
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
    from ..tours.tour import tour_of_rectangle

    board = tour_of_rectangle(tour).board
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
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> star = GraphBoard.from_networkx(nx.star_graph(3))
    >>> out = result_to_dict(find_tour(star), star, False, None, None)
    >>> out["vertices"], out["edges"], out["certificate"]["kind"]
    (['0', '1', '2', '3'], [['0', '1'], ['0', '2'], ['0', '3']], 'degree')
    """
    tour: Any = result.tour
    if tour is not None:
        closed = tour.closed
        start, end = board.names_at([tour.order[0], tour.order[-1]])
    else:
        start, end = _named(board, start), _named(board, end)
    head = {**board.answer_fields(closed, start, end), "squares": None}
    if tour is not None:
        head.update(tour.to_dict())  # the same keys in place, and the squares
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
    return board.checker_fields()


def outcome_fields(method: str, seconds: float, stats: dict[str, Any]) -> dict[str, Any]:
    """The fields the command line adds after a tour's own in its JSON: ``method``,
    ``seconds`` (to the microsecond) and ``stats`` (then ``status`` and ``reason``).

    Examples
    --------
    >>> outcome_fields("divide", 0.12345678, {"squares": 64})
    {'method': 'divide', 'seconds': 0.123457, 'stats': {'squares': 64}}
    """
    return {"method": method, "seconds": round(seconds, 6), "stats": stats}


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
            f"cannot write {describe_value(order)} as .npy: expected a 1-D integer order array"
        )
    with atomic_output(path, "wb") as handle:
        np.save(handle, order, allow_pickle=False)
