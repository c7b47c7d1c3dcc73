"""Certificates of absence: cheap arguments that rule a tour out, cheapest first.

Each function returns a :class:`~knightgraph.Certificate` when its argument
shows that no tour exists, or None when it does not apply.  The data in a
certificate is what an independent checker needs: the colour counts, the
square whose degree is too low, two squares in different components.

* colour count — :func:`knightgraph.proofs.theorems.color_obstruction`;
* degree — a square with no move (when there are two squares or more); in a
  closed tour every square uses two of its moves, in an open tour every square
  but the two ends uses two, so squares of degree one can only be ends;
* closing move — a closed tour from ``s`` ending at ``t`` needs ``t`` one leap
  from ``s``;
* connectivity — a tour visits every square, so the leaper graph must be connected;
* Schwenk's partition (``4 x n``) — see :func:`partition_obstruction`;
* forced moves (an open tour between two given squares) — see
  :func:`knightgraph.proofs.forcing.forced_obstruction`.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.proofs.certificates import quick_obstruction
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

from ..boards.board import Board, SquareLike
from ..tours.results import Certificate
from .forcing import forced_obstruction
from .theorems import color_obstruction, requested_ends

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "check",
    "closing_move_obstruction",
    "connectivity_obstruction",
    "degree_obstruction",
    "partition_mask",
    "partition_obstruction",
    "quick_obstruction",
    "sat_refutation",
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

    Runs the colour count, the degree and closing-move conditions and
    Schwenk's partition (each O(1) on a board without removed squares
    beyond :data:`CONNECTIVITY_LIMIT` cells, O(mn) below), then, on boards up
    to that limit, connectivity, and last (open tours with both ends given)
    the forced moves near the ends and the corners.  None is a heuristic: a certificate returned
    here is a proof, and the independent checker re-checks it.

    Examples
    --------
    >>> quick_obstruction(Board(4, 5), closed=True).kind  # Schwenk: no closed tour on 4 x n
    'schwenk-4xn'
    >>> quick_obstruction(Board(8, 8)) is None
    True
    >>> quick_obstruction(Board(4, 4)) is None  # no open tour, but no cheap argument shows it
    True
    """
    return (
        color_obstruction(board, closed=closed, start=start, end=end)
        or degree_obstruction(board, closed=closed, start=start, end=end)
        or partition_obstruction(board, closed=closed, start=start, end=end)
        or (connectivity_obstruction(board) if board.area <= CONNECTIVITY_LIMIT else None)
        or forced_obstruction(board, start, end, closed=closed)
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
    start, end = requested_ends(board, start, end)
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
    degrees = _low_degrees(board)
    isolated = [i for i, d in degrees if d == 0]
    if isolated:
        return _degree_cert(
            f"square {board.name(isolated[0])} has no moves, so no tour can visit it and "
            "another square",
            board,
            isolated[0],
            0,
        )
    if closed:
        low = [i for i, d in degrees if d < 2]
        if low:
            return _degree_cert(
                f"in a closed tour every square uses two of its moves; {board.name(low[0])} "
                f"has only 1",
                board,
                low[0],
                1,
            )
        return None
    return _open_degree_obstruction(board, [i for i, d in degrees if d == 1], start, end)


def _low_degrees(board: Board) -> list[tuple[int, int]]:
    """``(square, degree)`` for squares of degree 0 or 1, in flat order.

    On boards up to :data:`CONNECTIVITY_LIMIT` cells, every square; beyond,
    and for the knight on any full board, only where low degrees can occur on
    a large board: the 3x3 blocks at the corners and the squares next to
    removed ones (a sound subset: it may miss a certificate, never invent one).
    For the knight on a full board with both sides at least 2 the subset is
    the whole answer: a square outside the corner blocks is three files from
    both side edges (or three ranks from the top and bottom), so its moves two
    files left and right (two ranks up and down) exist for a rank (file) next
    to it, which a board two wide has: at least two moves.  This keeps the
    cheap certificates of a 1000 x 1000 board from building its move table.
    """
    if board.area <= CONNECTIVITY_LIMIT and not (board.is_standard and min(board.m, board.n) >= 2):
        degrees = (board.move_table() >= 0).sum(axis=1)
        low = np.flatnonzero(board.available() & (degrees < 2))
        return [(int(i), int(degrees[i])) for i in low]
    m, n = board.m, board.n
    rows = sorted({*range(min(3, m)), *range(max(0, m - 3), m)})
    cols = sorted({*range(min(3, n)), *range(max(0, n - 3), n)})
    near = {(r, c) for r in rows for c in cols}
    for square in board.removed:
        near |= set(Board(board.m, board.n, leaper=board.leaper).neighbors(square))
    near -= board.removed
    out = [(r * n + c, len(board.neighbors((r, c)))) for r, c in sorted(near)]
    return [(i, d) for i, d in out if d < 2]


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
    board: Board, ones: list[int], start: SquareLike | None, end: SquareLike | None
) -> Certificate | None:
    ends = {board.index(sq) for sq in (start, end) if sq is not None}
    others = [i for i in ones if i not in ends]
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
    The knight on a full board with both sides at least 3, other than 3 x 3,
    is connected, and this is answered in O(1): the 3 x 4 board's knight graph
    is connected (it has an open tour, a1 c2 a3 b1 d2 c4 a3... checked by
    ``Board(3, 4)`` in the tests), every square of an m x n board lies in a
    3 x 4 or 4 x 3 window, and two windows one file (or rank) apart share
    squares, so the union of all windows, the whole board, is connected.

    Other boards: breadth-first search over the move table with numpy, each
    level gathering the moves of the whole frontier at once.  A square reached
    twice in one level is kept once by stamping each candidate with its
    position (the last stamp wins), not by sorting, so the cost is O(mn) array
    work over all levels, plus a constant per level.

    Examples
    --------
    >>> connectivity_obstruction(Board(2, 5)).reason
    'the leaper graph of 2x5 is disconnected: no sequence of moves leads from a1 to b1'
    >>> connectivity_obstruction(Board(5, 5)) is None
    True
    """
    if board.num_squares <= 1:
        return None
    if board.is_standard and min(board.m, board.n) >= 3 and (board.m, board.n) != (3, 3):
        return None  # connected: the windows of the Notes
    table = board.move_table()
    available = board.available()
    first = int(np.argmax(available))
    reached = np.zeros(board.area, dtype=bool)
    reached[first] = True
    stamp = np.zeros(board.area, dtype=np.int64)
    frontier = np.array([first])
    while frontier.size:
        nxt = table[frontier].ravel()
        nxt = nxt[nxt >= 0]
        nxt = nxt[~reached[nxt]]
        reached[nxt] = True
        where = np.arange(nxt.size)
        stamp[nxt] = where
        frontier = nxt[stamp[nxt] == where]  # each square once
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
    start, end = requested_ends(board, start, end)
    where = schwenk_partition(board)
    if where is None:
        return None
    data = {"partition": where, "squares": board.num_squares}
    axis = 0 if where.startswith("ranks") else 1
    lead = (
        f"Schwenk (1991): on {board.m}x{board.n} no move joins two squares of the outer "
        f"{where}, which hold half the board and both colours, so "
    )
    if closed:
        return Certificate("schwenk-4xn", lead + "there is no closed tour", data)
    for square in (start, end):
        if square is not None and board.parse_square(square)[axis] not in (0, 3):
            return Certificate(
                "schwenk-4xn",
                lead + f"an open tour has both ends there; {board.name(square)} is not",
                {**data, "end": board.name(square)},
            )
    return None


def schwenk_partition(board: Board) -> str | None:
    """Which outer lines (``"ranks 1 and 4"`` or ``"files a and d"``) of a board with
    four ranks or files satisfy properties (a)-(c) of :func:`partition_obstruction`;
    None when the argument does not apply.

    Checked without board-sized arrays: (a) from the leaper's jumps (no jump
    changes the line index by 0 or 3), (b) from the removed squares, (c) from
    the first squares of an outer line.

    Examples
    --------
    >>> schwenk_partition(Board(4, 5)), schwenk_partition(Board(10**9, 4))
    ('ranks 1 and 4', 'files a and d')
    >>> schwenk_partition(Board(5, 5)) is None, schwenk_partition(Board(4, 6, removed=["a1"]))
    (True, None)
    """
    if board.m == 4:
        axis, length, where = 0, board.n, "ranks 1 and 4"
    elif board.n == 4:
        axis, length, where = 1, board.m, "files a and d"
    else:
        return None
    if any(abs(jump[axis]) in (0, 3) for jump in board.offsets):  # (a)
        return None
    outer_removed = sum(1 for square in board.removed if square[axis] in (0, 3))
    if 2 * (2 * length - outer_removed) != board.num_squares:  # (b)
        return None
    firsts = [(0, k) if axis == 0 else (k, 0) for k in range(min(length, len(board.removed) + 2))]
    colours = {(r + c) % 2 for r, c in firsts if (r, c) not in board.removed}
    return where if colours == {0, 1} else None  # (c)


def partition_mask(board: Board, where: str) -> NDArray[np.bool_]:
    """The squares of the outer lines named by :func:`schwenk_partition`, over flat indices.

    Examples
    --------
    >>> board = Board(4, 5)
    >>> mask = partition_mask(board, schwenk_partition(board))
    >>> mask.reshape(4, 5).astype(int).tolist()  # ranks 1 and 4: half of the 20 squares
    [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1]]
    >>> partition_mask(Board(5, 4), "files a and d").reshape(5, 4)[0].astype(int).tolist()
    [1, 0, 0, 1]
    """
    grid = np.zeros((board.m, board.n), dtype=bool)
    if where == "ranks 1 and 4":
        grid[[0, 3], :] = True
    else:
        grid[:, [0, 3]] = True
    return grid.ravel() & board.available()


def check(
    certificate: Certificate,
    board: Board,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
) -> tuple[bool, str]:
    """Re-check ``certificate`` with the independent checker (:mod:`knightgraph.certcheck`).

    Examples
    --------
    >>> check(color_obstruction(Board(7, 7), closed=True), Board(7, 7), closed=True)
    (True, 'colour-count: 7x7 has 25 squares of one colour and 24 of the other')
    """
    from ..certcheck import check_certificate

    return check_certificate(
        certificate.to_dict(),
        board.m,
        board.n,
        closed=closed,
        start=None if start is None else board.name(start),
        end=None if end is None else board.name(end),
        leaper=board.leaper,
        removed=_removed_names(board),
    )


def _removed_names(board: Board) -> list[str]:
    """The names of the removed squares, in order, built by numpy (a disc of radius 300 on
    601 x 601 has 78,504 of them: one Python call per name took about a second)."""
    from ..boards.squares import names_line

    flat = sorted(r * board.n + c for r, c in board.removed)
    if len(flat) <= board.m + board.n:  # few: one by one (names_line tabulates every file)
        return [board.name(i) for i in flat]
    return names_line(flat, board.m, board.n).split()


def sat_refutation(session: Any, board: Board) -> Certificate | None:
    """The certificate of a SAT refutation, from a solved-UNSAT
    :class:`~knightgraph.solvers.incremental.SolverSession` (inside its ``with`` block).

    It holds the variables (as moves, the hub named ``"hub"``), every clause,
    the vertex set of each cut clause, and the solver's DRUP proof.  None when
    the CNF used auxiliary variables, which the independent checker cannot
    validate.

    Examples
    --------
    >>> from knightgraph.solvers.incremental import solving
    >>> with solving(Board(4, 4), proof=True) as session:
    ...     print(session.solve().status)
    ...     cert = sat_refutation(session, Board(4, 4))
    unsat
    >>> len(cert.data["edges"]), cert.data["edges"][0], cert.data["edges"][-1]  # 24 moves, 16 hub edges
    (40, ['a1', 'b3'], ['d4', 'hub'])
    >>> check(cert, Board(4, 4))[0]
    True
    """
    cnf = session.cnf
    if cnf.auxiliary:
        return None

    def name(vertex: int) -> str:
        return "hub" if vertex == cnf.hub else board.name(vertex)

    proof = session.proof()
    return Certificate(
        "sat-refutation",
        f"a SAT solver refuted the {len(cnf.clauses):,} clauses that every tour satisfies "
        f"(exactly two tour moves at each square, plus {len(cnf.cut_sets)} cut constraints); "
        f"its DRUP proof of {len(proof):,} lines was checked independently",
        {
            "solver": session.name,
            "edges": [[name(u), name(v)] for u, v in cnf.edges],
            "cuts": [[name(v) for v in cycle] for cycle in cnf.cut_sets],
            "cnf": cnf.clauses,
            "proof": proof,
        },
    )
