"""The blocks of ``divide``: tours of small boards found by SAT, and the stored library.

:func:`block_tour` finds a tour of a small block with given moves forced and,
for strips, a periodic window (knightgraph's own SAT encoding,
:class:`~knightgraph.solvers.cnf.TourCNF`); ``scripts/make_blocks.py``
stores such tours as package data (``knightgraph/data/blocks.txt``, read by
:mod:`knightgraph.tours.blocktour`), turned here into neighbour codes
(:mod:`knightgraph.solvers.codes`).  Strips of three and four ranks are stored
with a window that repeats (:data:`STRIP_WINDOW`), so any length comes from one
stored tour; a strip with a given start is solved around the start
(:func:`strip_around`).

Examples
--------
>>> len(block_tour(6, 8, closed=True, forced=structure_moves(6, 8) + list(PORTS)))
48
>>> strip_codes(3, 30, "closed").shape  # a stored strip with its window repeated
(3, 30)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..boards.board import Board
from ..exceptions import InvalidOptionError, describe_value
from ..running.budget import Budget
from ..tours.blocktour import stored_meta, stored_order
from .codes import Codes, Square, any_square, codes_from_order, expand, follow_unchecked

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from .cnf import TourCNF

__all__ = ["PORTS", "STRIP_CAP", "STRIP_WINDOW", "block_tour", "structure_moves"]

PORTS = (((1, 1), (3, 0)), ((1, 1), (0, 3)))
"""The moves every grid block's tour contains for its left and upper joins."""


def structure_moves(h: int, w: int, corners: str = "tl tr bl br") -> list[tuple[Square, Square]]:
    """Parberry's structure: at each named corner, the two moves joining the
    second and third squares of the two edges that meet there.

    Examples
    --------
    >>> structure_moves(6, 6, "tl")
    [((0, 1), (2, 0)), ((0, 2), (1, 0))]
    """
    moves = {
        "tl": [((0, 1), (2, 0)), ((0, 2), (1, 0))],
        "tr": [((0, w - 2), (2, w - 1)), ((0, w - 3), (1, w - 1))],
        "bl": [((h - 1, 1), (h - 3, 0)), ((h - 1, 2), (h - 2, 0))],
        "br": [((h - 1, w - 2), (h - 3, w - 1)), ((h - 1, w - 3), (h - 2, w - 1))],
    }
    if not isinstance(corners, str) or not set(corners.split()) <= set(moves):
        raise InvalidOptionError(
            f"invalid corners {describe_value(corners)}: expected names from 'tl tr bl br'"
        )
    return [move for corner in corners.split() for move in moves[corner]]


def block_tour(
    h: int,
    w: int,
    *,
    closed: bool,
    removed: Sequence[Square] = (),
    start: Square | None = None,
    forced: Sequence[tuple[Square, Square]] = (),
    windows: Sequence[tuple[int, int]] = (),
    lanes: int = 2,
    accept: Callable[[list[int]], bool] | None = None,
    budget: Budget | None = None,
) -> list[int] | None:
    """A tour of an ``h x w`` block found by SAT, or None when there is none.

    ``forced`` moves must be on the tour.  Each window ``(x, P)`` makes
    columns ``x .. x+P-1`` and ``x+P .. x+2P-1`` carry the same moves (shifted),
    with no path end inside and at most ``lanes`` tour moves across the line
    before column ``x``, so that the window can be repeated.  With two lanes
    (one each way) any number of copies leaves one cycle (or path); otherwise
    ``accept`` is asked about each solution, and a rejected one is excluded
    and the search goes on.

    Examples
    --------
    >>> len(block_tour(6, 6, closed=True, forced=structure_moves(6, 6) + list(PORTS)))
    36
    """
    from .incremental import solving

    board = Board(h, w, removed=removed)
    first = None if start is None else board.index(start)
    with solving(board, closed, first) as session:
        cnf = session.cnf
        try:
            units = [[cnf.var(board.index(u), board.index(v))] for u, v in forced]
        except (KeyError, ValueError):
            return None  # a forced move leaves the block or touches a removed square
        session.add_clauses(units + _window_clauses(cnf, board, closed, windows))
        crossing = [_crossing(cnf, board, x) for x, _ in windows]
        for literals in crossing:
            session.add_at_most(literals, lanes)
        for _ in range(REJECTIONS):
            outcome = session.solve(budget=budget)
            if outcome.status != "sat":
                return None
            if accept is None or accept(outcome.order):
                return outcome.order
            model = session.model()
            session.add_clauses([[-k for part in crossing for k in part if model[k - 1] > 0]])
        return None


REJECTIONS = 20
"""Solutions :func:`block_tour` may reject before it gives up."""


def _crossing(cnf: TourCNF, board: Board, x: int) -> list[int]:
    """Variables of the moves across the line between columns ``x - 1`` and ``x``."""
    n = board.n
    return [
        k
        for (u, v), k in cnf.index.items()
        if v != cnf.hub and min(u % n, v % n) < x <= max(u % n, v % n)
    ]


def _window_clauses(
    cnf: TourCNF, board: Board, closed: bool, windows: Sequence[tuple[int, int]]
) -> list[list[int]]:
    clauses: list[list[int]] = []
    n = board.n
    for x, period in windows:
        for (u, v), k in cnf.index.items():
            if v == cnf.hub:
                continue
            (ru, cu), (rv, cv) = divmod(u, n), divmod(v, n)
            if x <= cu < x + period or x <= cv < x + period:
                twin = cnf.var(board.index((ru, cu + period)), board.index((rv, cv + period)))
                clauses += [[-k, twin], [k, -twin]]
        if not closed:
            for c in range(x, x + 2 * period):
                clauses += [[-cnf.var(board.index((r, c)), cnf.hub)] for r in range(board.m)]
    return clauses


@functools.cache
def _order(name: str) -> NDArray[np.int16]:
    """The stored order of one block tour (read by :func:`knightgraph.tours.blocktour.stored_order`:
    one line of the library, parsed when a board needs it)."""
    order = np.asarray(stored_order(name), dtype=np.int16)
    order.flags.writeable = False
    return order


def _library() -> dict[str, tuple[dict[str, Any], NDArray[np.int16]]]:
    """Every stored block tour, by name, as (metadata, order)."""
    return {name: (info, _order(name)) for name, info in stored_meta().items()}


@functools.cache
def named_block(name: str) -> Codes:
    """The codes of a stored block tour."""
    info, order = stored_meta()[name], _order(name)
    codes = codes_from_order(info["rows"], info["cols"], order.astype(np.int64), info["closed"])
    codes.flags.writeable = False
    return codes


# ----------------------------------------------------------- strips
def _strip_names(h: int, kind: str) -> list[str]:
    return [
        name
        for name, info in stored_meta().items()
        if info.get("strip") == h and info["kind"] == kind
    ]


def strip_codes(h: int, n: int, kind: str) -> Codes | None:
    """A stored strip tour of kind ``closed``/``corner``/``open`` on h x n, expanded."""
    for name in _strip_names(h, kind):
        info, codes = stored_meta()[name], named_block(name)
        n0 = info["cols"]
        if "window" not in info:
            if n0 == n:
                return codes
            continue
        x, period = info["window"]
        if n >= n0 and (n - n0) % period == 0:
            return expand(codes, [(x, period, (n - n0) // period)])
    return None


STRIP_WINDOW = 4
"""The period of the repeated window on strips of 3 and 4 ranks."""

STRIP_CAP = {3: 8, 4: 6}
"""Columns kept between a strip's end and its window (the lanes turn there)."""


def strip_around(h: int, n: int, kind: str, start: Square, budget: Budget) -> Codes | None:
    """A strip tour with the start inside, expanded to length ``n``.

    SAT solves a short strip: the start with a cap's width of columns on
    either side, then (where the strip goes on) a periodic window with two
    lanes and a cap (:data:`STRIP_CAP`); the windows are then repeated.
    ``kind`` is ``open`` (a path from ``start``) or ``hole`` (a closed tour of
    the strip minus ``start``).
    """
    period, cap = STRIP_WINDOW, STRIP_CAP[h]
    r, c = start
    reach = 2 * cap + 2 * period  # a cap, a window, and a cap's width before the start
    copies_left = (c - reach) // period + 1 if c >= reach else 0
    base_c = c - copies_left * period
    right = n - 1 - c  # columns after the start
    copies_right = (right - reach) // period + 1 if right >= reach else 0
    width = n - (copies_left + copies_right) * period
    windows = []
    if copies_left:
        windows.append((cap, period, copies_left))
    if copies_right:
        windows.append((width - cap - 2 * period, period, copies_right))
    local = (r, base_c)
    hole = kind == "hole"
    area = h * n - (1 if hole else 0)

    def expanded(order: list[int]) -> Codes:
        return expand(codes_from_order(h, width, order, hole), windows)

    def accept(order: list[int]) -> bool:
        codes = expanded(order)
        start_at = any_square(codes) if hole else r * n + c
        return len(follow_unchecked(codes, start_at)) == area

    for lanes in (2, 3):
        order = block_tour(
            h,
            width,
            closed=hole,
            removed=[local] if hole else [],
            start=None if hole else local,
            windows=[w[:2] for w in windows],
            lanes=lanes,
            accept=accept,
            budget=budget,
        )
        if order is not None:
            return expanded(order)
        if budget.out_of_time():
            break
    return None
