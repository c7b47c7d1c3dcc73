"""Exploring many searches at once: sweeps over every start square.

:func:`sweep` runs one search method from every square of a board and
records which starts gave a tour: the experiment of seed 003 (its border rule
failed from 16, 43 and 187 start squares on 50x50, 60x60 and 70x70).  Every
tour found is verified (a :class:`~knightgraph.Tour` is verified when built).

Examples
--------
>>> from knightgraph.explore import sweep
>>> result = sweep(5, 5, method="auto")
>>> result.failures, result.failed_squares()[:3]
(12, ['b1', 'd1', 'a2'])
>>> plain = sweep(8, 8, method="warnsdorff", rule="first")  # Warnsdorff, ties in move order
>>> plain.failures, plain.failed_squares()
(1, ['e3'])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .board import KNIGHT, Board, SquareLike, square_name
from .solvers import find_tour
from .tour import Status
from .verify import as_board

__all__ = ["SweepResult", "sweep"]


@dataclass
class SweepResult:
    """Which start squares gave a tour.

    Attributes
    ----------
    ok : numpy.ndarray of bool, shape (m, n)
        ``ok[r, c]`` is True when the search from ``(r, c)`` found a tour
        (False for removed squares).
    statuses : dict
        How many searches ended FOUND, PROVEN_ABSENT and ABORTED.
    """

    board: Board
    closed: bool
    method: str
    options: dict[str, Any]
    ok: np.ndarray[Any, Any]
    seconds: float
    statuses: dict[str, int] = field(default_factory=dict)

    @property
    def failures(self) -> int:
        """Start squares (on the board) from which no tour was found."""
        return self.board.num_squares - int(self.ok.sum())

    def failed_squares(self) -> list[str]:
        """The failed start squares, by name, in flat-index order."""
        available = self.board.available().reshape(self.board.m, self.board.n)
        return [square_name(int(r), int(c)) for r, c in np.argwhere(available & ~self.ok)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph sweep --format json``: ``rows, cols, ok, failures,
        seconds`` (``ok[r][c]`` is square (r, c)), plus the method, its options and counts."""
        return {
            "rows": self.board.m,
            "cols": self.board.n,
            "ok": self.ok.tolist(),
            "failures": self.failures,
            "seconds": round(self.seconds, 6),
            "closed": self.closed,
            "method": self.method,
            "options": self.options,
            "statuses": self.statuses,
        }


def sweep(
    m: int | Board,
    n: int | None = None,
    *,
    method: str = "warnsdorff",
    closed: bool = False,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> SweepResult:
    """Run ``method`` from every start square; record which starts gave a tour.

    Parameters
    ----------
    m, n, closed, leaper, removed
        The board and the kind of tour, as for :func:`~knightgraph.find_tour`.
    method : str
        A registered strategy; default ``"warnsdorff"``.
    timeout : float, optional
        Seconds allowed to the search from each start square.
    progress : callable, optional
        Called as ``progress(done, total)`` after each start square.
    **options
        Passed to the strategy (``rule``, ``attempts``, ``seed``, ``repair``...).

    Returns
    -------
    SweepResult

    Notes
    -----
    The searches are independent; the move tables are built once per board
    (cached by the solvers), so a sweep of a 70x70 board (4,900 tours of
    4,900 squares) takes a few seconds with the compiled Warnsdorff walk.
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    ok = np.zeros((board.m, board.n), dtype=bool)
    statuses = {status.name: 0 for status in Status}
    squares = board.squares()
    began = time.perf_counter()
    for done, square in enumerate(squares, start=1):
        result = find_tour(board, closed=closed, start=square, method=method, timeout=timeout,
                           **options)  # fmt: skip
        ok[square] = result.found
        statuses[result.status.name] += 1
        if progress is not None:
            progress(done, len(squares))
    return SweepResult(board, closed, method, dict(options), ok, time.perf_counter() - began,
                       statuses)  # fmt: skip
