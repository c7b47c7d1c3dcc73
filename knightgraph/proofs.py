"""Certificates of absence: cheap arguments that rule a tour out, cheapest first.

Each function returns a :class:`~knightgraph.Certificate` when its argument
shows that no tour exists, or None when it does not apply.  The data in a
certificate is what an independent checker needs: the colour counts, the
square whose degree is too low, two squares in different components.

* colour count — :func:`knightgraph.existence.colour_obstruction`;
* degree — a square with no move (when there are two squares or more); in a
  closed tour every square uses two of its moves, in an open tour every square
  but the two ends uses two, so squares of degree one can only be ends;
* closing move — a closed tour from ``s`` ending at ``t`` needs ``t`` one leap
  from ``s``;
* connectivity — a tour visits every square, so the leaper graph must be connected;
* Schwenk's partition (``4 x n``) — see :func:`partition_obstruction`.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.proofs import quick_obstruction
>>> quick_obstruction(Board(3, 3)).reason
'square b2 has no moves, so no tour can visit it and another square'
>>> quick_obstruction(Board(2, 4), closed=True).reason
'in a closed tour every square uses two of its moves; a1 has only 1'
>>> quick_obstruction(Board(8, 8, leaper=(1, 3))).reason  # the camel keeps its colour
'the leaper graph of 8x8 is disconnected: no sequence of moves leads from a1 to b1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .board import Board, SquareLike
from .existence import colour_obstruction
from .tour import Certificate

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "closing_move_obstruction",
    "connectivity_obstruction",
    "degree_obstruction",
    "partition_obstruction",
    "quick_obstruction",
    "schwenk_partition",
]

CONNECTIVITY_LIMIT = 4_000_000
"""Largest board (in cells) on which :func:`quick_obstruction` runs the arguments that
need board-sized arrays (degree, connectivity, partition)."""


def quick_obstruction(
    board: Board,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
) -> Certificate | None:
    """The first cheap certificate of absence that applies, or None.

    Runs the colour count (O(1)), then, for boards up to
    :data:`CONNECTIVITY_LIMIT` cells, the degree and closing-move conditions,
    connectivity and Schwenk's partition (O(mn) each).  None is a heuristic:
    a certificate returned here is a proof.
    """
    cert = colour_obstruction(board, closed=closed, start=start, end=end)
    if cert is not None or board.area > CONNECTIVITY_LIMIT:
        return cert
    return (
        degree_obstruction(board, closed=closed, start=start, end=end)
        or connectivity_obstruction(board)
        or partition_obstruction(board, closed=closed, start=start, end=end)
    )


def degree_obstruction(
    board: Board,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
) -> Certificate | None:
    """A square whose number of moves rules a tour out, or None.

    Examples
    --------
    >>> degree_obstruction(Board(1, 1), closed=True).reason
    'a closed tour needs a move back to its first square; the 1x1 board has no moves'
    >>> degree_obstruction(Board(8, 8), closed=True, start="a1", end="h8").reason
    'a closed tour from a1 ends one move away from a1; h8 is not'
    >>> degree_obstruction(Board(5, 5, removed=["c2"]), start="c3", end="e5").reason
    'squares with one move can only be ends of an open tour; a1 has 1 move and is not an end'
    """
    table = board.move_table()
    degrees = (table >= 0).sum(axis=1)
    available = board.available()
    if board.num_squares == 1:
        if closed:
            return _degree_cert(
                f"a closed tour needs a move back to its first square; the {board.m}x{board.n} "
                "board has no moves",
                board,
                None,
                0,
            )
        return None
    if closed and start is not None and end is not None:
        closing = closing_move_obstruction(board, start, end)
        if closing is not None:
            return closing
    isolated = np.flatnonzero(available & (degrees == 0))
    if isolated.size:
        return _degree_cert(
            f"square {board.name(int(isolated[0]))} has no moves, so no tour can visit it and "
            "another square",
            board,
            int(isolated[0]),
            0,
        )
    if closed:
        low = np.flatnonzero(available & (degrees < 2))
        if low.size:
            return _degree_cert(
                f"in a closed tour every square uses two of its moves; {board.name(int(low[0]))} "
                f"has only 1",
                board,
                int(low[0]),
                1,
            )
        return None
    return _open_degree_obstruction(board, np.flatnonzero(available & (degrees == 1)), start, end)


def closing_move_obstruction(
    board: Board, start: SquareLike, end: SquareLike
) -> Certificate | None:
    """A closed tour from ``start`` to ``end`` needs ``end`` one leap from ``start``.

    Examples
    --------
    >>> closing_move_obstruction(Board(8, 8), "a1", "b3") is None
    True
    """
    s, t = board.index(start), board.index(end)
    if board.square(t) in board.neighbors(start):
        return None
    return Certificate(
        "degree",
        f"a closed tour from {board.name(s)} ends one move away from {board.name(s)}; "
        f"{board.name(t)} is not",
        {"start": board.name(s), "end": board.name(t), "clause": "closing-move"},
    )


def _open_degree_obstruction(
    board: Board, ones: NDArray[Any], start: SquareLike | None, end: SquareLike | None
) -> Certificate | None:
    ends = {board.index(sq) for sq in (start, end) if sq is not None}
    others = [int(i) for i in ones if int(i) not in ends]
    free_ends = 2 - len(ends)
    if len(others) <= free_ends:
        return None
    square = others[free_ends]
    if ends:
        reason = (
            f"squares with one move can only be ends of an open tour; {board.name(square)} "
            "has 1 move and is not an end"
        )
    else:
        names = ", ".join(board.name(i) for i in others[:3])
        reason = (
            f"an open tour has two ends, and every square with one move must be one; "
            f"{names} each have 1 move"
        )
    return Certificate(
        "degree",
        reason,
        {
            "squares": [board.name(i) for i in others],
            "degree": 1,
            "ends": sorted(board.name(i) for i in ends),
            "clause": "degree-one",
        },
    )


def _degree_cert(reason: str, board: Board, square: int | None, degree: int) -> Certificate:
    data: dict[str, Any] = {"degree": degree, "clause": "low-degree"}
    if square is not None:
        data["square"] = board.name(square)
    return Certificate("degree", reason, data)


def connectivity_obstruction(board: Board) -> Certificate | None:
    """Two squares in different components of the leaper graph, or None if it is connected.

    Notes
    -----
    Breadth-first search over the move table with numpy: each level gathers the
    moves of the whole frontier at once, so the cost is O(mn) array work.

    Examples
    --------
    >>> connectivity_obstruction(Board(2, 5)).reason
    'the leaper graph of 2x5 is disconnected: no sequence of moves leads from a1 to b1'
    >>> connectivity_obstruction(Board(5, 5)) is None
    True
    """
    if board.num_squares <= 1:
        return None
    table = board.move_table()
    available = board.available()
    first = int(np.argmax(available))
    reached = np.zeros(board.area, dtype=bool)
    reached[first] = True
    frontier = np.array([first])
    while frontier.size:
        nxt = table[frontier].ravel()
        nxt = np.unique(nxt[nxt >= 0])
        nxt = nxt[~reached[nxt]]
        reached[nxt] = True
        frontier = nxt
    missing = np.flatnonzero(available & ~reached)
    if not missing.size:
        return None
    a, b = board.name(first), board.name(int(missing[0]))
    return Certificate(
        "degree",
        f"the leaper graph of {board.m}x{board.n} is disconnected: no sequence of moves leads "
        f"from {a} to {b}",
        {"clause": "disconnected", "squares": [a, b], "reached": int(reached.sum())},
    )


def partition_obstruction(
    board: Board,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
) -> Certificate | None:
    """Schwenk's ``4 x n`` argument, checked on the actual board; None if it does not apply.

    Take ``O``, the squares of the two outer ranks of a board with four ranks
    (or the two outer files of one with four files), and check on the board:

    (a) no move joins two squares of ``O``;
    (b) ``O`` holds exactly half of the squares;
    (c) ``O`` holds squares of both colours.

    In a tour no two squares of ``O`` are consecutive (a).  In a closed tour
    of ``N`` squares that leaves room for ``N / 2`` squares of ``O`` only if
    they take every second place (b); as the tour alternates colours, they
    would all have one colour, against (c).  So there is no closed tour.  In an
    open tour starting on a square outside ``O``, the ``N / 2`` squares of
    ``O`` fit in the remaining ``N - 1`` places without touching only at
    every second place, with the same contradiction: so both ends of an open
    tour lie in ``O``.

    Examples
    --------
    >>> partition_obstruction(Board(4, 26), start="f2").reason
    'Schwenk (1991): on 4x26 no move joins two squares of the outer ranks 1 and 4, which hold half the board and both colours, so an open tour has both ends there; f2 is not'
    >>> partition_obstruction(Board(4, 26), start="f1") is None
    True
    >>> partition_obstruction(Board(4, 12), closed=True).kind
    'schwenk-4xn'
    """
    partition = schwenk_partition(board)
    if partition is None:
        return None
    mask, where = partition
    data = {"partition": where, "outer": int(mask.sum()), "squares": board.num_squares}
    lead = (
        f"Schwenk (1991): on {board.m}x{board.n} no move joins two squares of the outer "
        f"{where}, which hold half the board and both colours, so "
    )
    if closed:
        return Certificate("schwenk-4xn", lead + "there is no closed tour", data)
    for square in (start, end):
        if square is not None and not mask[board.index(square)]:
            return Certificate(
                "schwenk-4xn",
                lead + f"an open tour has both ends there; {board.name(square)} is not",
                {**data, "end": board.name(square)},
            )
    return None


def schwenk_partition(board: Board) -> tuple[NDArray[np.bool_], str] | None:
    """The outer two ranks (or files) of a board with four of them, as a mask over
    flat indices, when properties (a)-(c) of :func:`partition_obstruction` hold
    on this board; else None.

    Examples
    --------
    >>> mask, where = schwenk_partition(Board(4, 5))
    >>> where, int(mask.sum())
    ('ranks 1 and 4', 10)
    >>> schwenk_partition(Board(5, 5)) is None
    True
    """
    grid = np.zeros((board.m, board.n), dtype=bool)
    if board.m == 4:
        grid[[0, 3], :] = True
        where = "ranks 1 and 4"
    elif board.n == 4:
        grid[:, [0, 3]] = True
        where = "files a and d"
    else:
        return None
    mask = grid.ravel() & board.available()
    inside = np.flatnonzero(mask)
    moves = board.move_table()[inside]
    if mask[moves[moves >= 0]].any():  # (a)
        return None
    colours = {board.color(board.square(int(i))) for i in inside}
    if 2 * len(inside) != board.num_squares or len(colours) != 2:  # (b), (c)
        return None
    return mask, where
