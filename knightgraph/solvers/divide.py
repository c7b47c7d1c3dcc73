"""Divide and conquer: tours of every board that has one, in linear time, at any size.

The board is cut into blocks whose tours are known in advance (package data
made by ``scripts/make_blocks.py`` with knightgraph's own SAT solver); the
blocks' cycles are then joined into one by exchanging two moves at each join
(after Parberry 1997; Lin and Wei 2005 show that every board with a tour can
be done this way in O(mn)).  Everything happens on numpy arrays: a tour is
held as *neighbour codes*, one byte per square whose two nibbles name the
moves to the square's two tour neighbours, and read out into an order by one
linear walk (compiled, :func:`knightgraph.solvers.follow.follow_python` is
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
  read so that it ends there), and for open tours: an end alone is a start
  read backwards; a start and an end on a board with both sides at least 6
  are joined by a corridor of path blocks (:mod:`knightgraph.solvers.corridor`).
  An end with a start for a closed tour is refused with
  :class:`~knightgraph.InvalidOptionError` (use ``auto`` or ``sat``).
  On odd boards the block holding the start is replaced by a closed tour of
  that block minus the start (solved by SAT with the joins' moves forced),
  and the tour leaves the start for a neighbour; on strips a short strip
  around the start is solved by SAT with a periodic window on each side.
  Where that fails, the public method ``divide`` hands the request to
  ``auto`` on boards up to :data:`FALLBACK_LIMIT` squares
  (:func:`knightgraph.solvers.methods.divide`; this module never calls ``auto``).

Complexity: O(mn) time; one byte per square for the codes plus the order
(4 bytes per square as ``int32``).

This module picks the construction for a request and answers it; the pieces
are shared modules: neighbour codes in :mod:`knightgraph.solvers.codes`, the
SAT-made and stored blocks and the strips in :mod:`knightgraph.solvers.blocks`,
the grid boards and their joins in :mod:`knightgraph.solvers.joins`.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers.divide import construct
>>> res = construct(Board(12, 12), closed=True, start="e5")
>>> res.status.name, res.tour.closed, res.tour.algebraic()[0]
('FOUND', True, 'e5')
>>> construct(Board(9, 11)).tour.algebraic()[:2]  # a1, then round the rest
['a1', 'c2']
>>> construct(Board(4, 4)).reason  # no construction: the public method asks auto
'divide: no construction applies'
>>> from knightgraph import find_tour
>>> find_tour(4, 4, method="divide").status.name
'PROVEN_ABSENT'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..boards.board import KNIGHT, Board
from ..exceptions import InvalidOptionError
from ..proofs.certificates import quick_obstruction
from ..proofs.theorems import closed_tour_exists, open_tour_exists
from ..running.budget import Budget
from ..tours.results import SearchResult
from .base import Problem, solver
from .blocks import PORTS, block_tour, strip_around, strip_codes, structure_moves

# REJECTIONS, STRIP_CAP, STRIP_WINDOW, NONE, REMOVED, Square: importable from here as before
# the blocks and the codes moved to their own modules.
from .blocks import REJECTIONS as REJECTIONS
from .blocks import STRIP_CAP as STRIP_CAP
from .blocks import STRIP_WINDOW as STRIP_WINDOW
from .codes import (
    DIRECTIONS,
    Codes,
    any_square,
    codes_from_order,
    follow_codes,
    follow_unchecked,
    open_from_hole,
    path_end,
    read_cycle,
    transposed_codes,
)
from .codes import NONE as NONE
from .codes import REMOVED as REMOVED
from .codes import Square as Square
from .joins import grid_board, grid_without

__all__ = [
    "DIRECTIONS",
    "FALLBACK_LIMIT",
    "PORTS",
    "block_tour",
    "codes_from_order",
    "construct",
    "construction",
    "follow_codes",
    "structure_moves",
    "unserved",
]

FALLBACK_LIMIT = 2500
"""Requests the constructions cannot serve go to ``auto`` on boards up to this size (the
public method ``divide``, :func:`knightgraph.solvers.methods.divide`, does that)."""


def _refusal(board: Board) -> str | None:
    """Why divide and conquer does not take ``board`` (None: it does): its blocks are knight
    tours of whole boards, and of odd boards minus the corner a1."""
    others = "use method auto, backtrack, warnsdorff or sat"
    if board.leaper != KNIGHT:
        return (
            f"method divide builds tours for the knight only, not the leaper "
            f"{tuple(board.leaper)}: {others}"
        )
    if board.removed and not _standard(board):
        return (
            "method divide builds tours of whole boards (and of odd boards minus a1) only, "
            f"not with {len(board.removed):,} square{'s' * (len(board.removed) != 1)} "
            f"removed: {others}"
        )
    return None


SPEC: dict[str, Any] = {
    "exact": True,
    "bytes_per_square": 6,
    "fixed_bytes": 64 * 2**20,
    "summary": "divide and conquer: joined block tours on any board, linear time",
    "accepts": _refusal,
}
"""What the method ``divide`` is to the registry (:func:`~knightgraph.solvers.base.solver`):
the construction here and the public method in :mod:`knightgraph.solvers.methods` share it."""


@solver("divide", register=False, **SPEC)
def construct(problem: Problem, budget: Budget, *, seed: int | None = None) -> SearchResult:
    """Construct a tour by joining stored block tours (Parberry 1997), and nothing else.

    This is the construction that ``auto`` runs.  The public method ``divide``
    (:func:`knightgraph.solvers.methods.divide`, ``find_tour(..., method="divide")``)
    is this construction, then ``auto`` on the requests it leaves, on boards up to
    :data:`FALLBACK_LIMIT` squares.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature (``seed`` is unused: the construction is
        deterministic).  An ``end`` is taken for a closed tour without a
        start (the cycle is read so that it ends there) and for open tours.

    Returns
    -------
    SearchResult
        FOUND on every knight board with a tour of the kind asked for
        (from the requested start where the construction can place it, and
        to the requested end); PROVEN_ABSENT where a cheap certificate
        (colour counts, Schwenk's partition, forced moves) rules the tour out;
        ABORTED otherwise (``divide: <why>`` where no construction serves the request).

    Raises
    ------
    InvalidOptionError
        For an ``end`` with a ``start`` for a closed tour (use ``auto`` or ``sat``).

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

    Examples
    --------
    >>> from knightgraph import Board
    >>> res = construct(Board(1000, 1000), closed=True)  # a million squares, verified
    >>> res.found, len(res.tour), res.tour.closed
    (True, 1000000, True)
    >>> construct(Board(6, 6), closed=True, start="c3").tour.start  # the cycle, re-rooted
    (2, 2)
    >>> construct(Board(4, 8), closed=True).certificate.kind  # no closed tour on 4 x n (Schwenk)
    'schwenk-4xn'
    >>> res = construct(Board(1000, 999), start="a1", end="b1")  # prescribed ends
    >>> res.tour.algebraic()[0], res.tour.algebraic()[-1], len(res.tour)
    ('a1', 'b1', 999000)
    >>> construct(Board(8, 8), start="a1", end="h8").certificate.kind  # same colour
    'colour-count'
    >>> construct(Board(8, 8), closed=True, start="a1", end="c2")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: method divide does not take --end/end (c2) for a closed tour with a start: use method auto or sat (divide honours an end for closed tours without a start and for open tours)
    """
    del seed
    built = construction(problem, budget)
    return unserved(problem, built) if isinstance(built, str) else built


def construction(problem: Problem, budget: Budget) -> SearchResult | str:
    """The construction's answer to ``problem``, or why no construction serves it (a str).

    The str cases are the requests the public method ``divide`` hands on to ``auto``:
    no construction applies to the board, or the construction cannot start there.
    A board this strategy does not take, a board minus a1 without a stored construction
    and a budget that ran out are ABORTED results, not handed on.

    Examples
    --------
    >>> from knightgraph import Board
    >>> problem = Problem.make(Board(6, 6), closed=True, start="c3")
    >>> construction(problem, Budget.make()).tour.algebraic()[0]
    'c3'
    >>> construction(Problem.make(Board(4, 4)), Budget.make())
    'no construction applies'
    """
    board = problem.board
    if problem.end is not None and problem.closed and problem.start is not None:
        raise InvalidOptionError(
            f"method divide does not take --end/end ({board.name(problem.end)}) for "
            "a closed tour with a start: use method auto or sat (divide honours an end "
            "for closed tours without a start and for open tours)"
        )
    refused = _refusal(board)
    if refused is not None:  # called from another strategy (directly: refused before any work)
        return problem.aborted(refused)
    m, n = board.m, board.n
    if board.removed:  # _standard: the odd board minus a1
        codes = _corner_board(m, n)
        if codes is None:
            return problem.aborted("no stored construction for this board minus a1")
        anywhere = any_square(codes) if problem.start is None else problem.start
        return _found(problem, read_cycle(codes, anywhere, problem.end))
    if not (closed_tour_exists(m, n) if problem.closed else open_tour_exists(m, n)):
        return "no construction applies"
    if problem.start is not None and min(m, n) <= 5:  # Schwenk, forced moves: many ends
        certificate = quick_obstruction(board, closed=problem.closed, **problem.ends())
        if certificate is not None:
            return problem.absent(certificate)
    if not problem.closed and problem.end is not None:
        order = _open_to_end(board, problem, budget)
    else:
        order = _construct(board, problem.closed, problem.start, budget, problem.end)
    if order is None:
        if budget.out_of_time():
            return problem.aborted("the time ran out")
        return "the construction cannot start there"
    return _found(problem, order)


def unserved(problem: Problem, why: str) -> SearchResult:
    """The answer where no construction serves the request: absence with a cheap
    certificate, else ABORTED ``divide: <why>``.

    Examples
    --------
    >>> from knightgraph import Board
    >>> unserved(Problem.make(Board(4, 4)), "no construction applies").reason
    'divide: no construction applies'
    >>> unserved(Problem.make(Board(5, 5), closed=True), "no construction applies").certificate.kind
    'colour-count'
    """
    certificate = quick_obstruction(problem.board, closed=problem.closed, **problem.ends())
    if certificate is not None:
        return problem.absent(certificate)
    return problem.aborted(f"divide: {why}")


def _open_to_end(board: Board, problem: Problem, budget: Budget) -> Any:
    """An open tour to the requested end: from the start through a corridor of path
    blocks, or (no start) a tour from the end, which :meth:`Problem.found` reads backwards."""
    assert problem.end is not None
    if problem.start is None:
        return _construct(board, False, problem.end, budget)
    from .corridor import MIN_SIDE, st_path  # the path blocks: only for two ends
    from .strips import THIN, strip_path

    if min(board.m, board.n) in THIN:  # 3, 4 or 5 ranks: the strips of blocks
        s, t = board.square(problem.start), board.square(problem.end)
        return strip_path(board.m, board.n, s, t, budget)
    if min(board.m, board.n) < MIN_SIDE:
        return None
    return st_path(board.m, board.n, board.square(problem.start), board.square(problem.end), budget)


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


def _corner_board(m: int, n: int) -> Codes | None:
    """Codes of a closed tour of the m x n board minus a1 (both sides odd)."""
    if min(m, n) >= 5:
        return grid_board(m, n)
    if min(m, n) == 3 and max(m, n) >= 9:
        return _oriented_strip(m, n, "corner")
    return None


def _oriented_strip(m: int, n: int, kind: str) -> Codes | None:
    if m <= n:
        return strip_codes(m, n, kind)
    codes = strip_codes(n, m, kind)
    return None if codes is None else transposed_codes(codes)


def _construct(
    board: Board, closed: bool, start: int | None, budget: Budget, end: int | None = None
) -> Any:
    """The order of a tour of the requested kind, or None (``end`` only for closed tours)."""
    m, n = board.m, board.n
    if m * n == 1:
        return np.zeros(1, dtype=np.int32)
    if closed_tour_exists(m, n):
        codes = grid_board(m, n) if min(m, n) >= 5 else _oriented_strip(m, n, "closed")
        if codes is None:
            return None
        return read_cycle(codes, 0 if start is None else start, end)
    short = min(m, n)
    corner = _corner_board(m, n) if m % 2 and n % 2 else None
    if corner is not None and (start is None or start == 0):
        return open_from_hole(corner, (0, 0))
    if start is None and short in (3, 4):
        codes = _oriented_strip(m, n, "open")
        if codes is not None:
            return follow_unchecked(codes, path_end(codes))
        return None
    if start is None:
        return None
    square = board.square(start)
    if m % 2 and n % 2 and sum(square) % 2:
        return None  # an open tour of an odd board starts on the corner colour
    if short >= 5:
        codes = grid_without(m, n, square, budget)
        return None if codes is None else open_from_hole(codes, square)
    transposed = m > n
    h, length = (n, m) if transposed else (m, n)
    local = (square[1], square[0]) if transposed else square
    kind = "hole" if m % 2 and n % 2 else "open"
    codes = strip_around(h, length, kind, local, budget)
    if codes is None:
        return None
    if transposed:
        codes = transposed_codes(codes)
    if kind == "hole":
        return open_from_hole(codes, square)
    return follow_unchecked(codes, start)
