"""Sweeps: one search method from every start square, and which starts gave a tour.

Examples
--------
>>> result = sweep(3, 4, method="warnsdorff")
>>> result.failures, result.failed_squares()
(6, ['b1', 'c1', 'b2', 'c2', 'b3', 'c3'])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..boards.board import KNIGHT, Board, Square, SquareLike, square_name
from ..boards.coercion import as_board
from ..running.budget import Budget
from ..running.resources import require_memory
from ..solvers import find_tour
from ..tours.results import Status
from ..tours.verify import check_closed
from ._chunks import Clock, allowed_time, check_timeout, run_map

if TYPE_CHECKING:
    from ..running.parallel import Executor

BYTES_PER_START = 400
"""What a sweep holds per start square besides the searches (the task, the result)."""


@dataclass(frozen=True)
class SweepResult:
    """Which start squares gave a tour.

    Attributes
    ----------
    ok : numpy.ndarray of bool, shape (m, n)
        ``ok[r, c]`` is True when the search from ``(r, c)`` found a tour
        (False for removed squares).
    statuses : dict
        How many searches ended FOUND, PROVEN_ABSENT and ABORTED.
    not_started : int
        Start squares never searched because the total timeout had passed
        (counted as ABORTED too).

    Examples
    --------
    >>> result = sweep(6, 6)   # Warnsdorff's rule (Roth's tie-break) from every square
    >>> result.failures, result.statuses["FOUND"], result.to_dict()["statuses"]["found"]
    (0, 36, 36)
    """

    board: Board
    closed: bool
    method: str
    options: dict[str, Any]
    ok: np.ndarray[Any, Any]
    seconds: float
    statuses: dict[str, int] = field(default_factory=dict)
    not_started: int = 0

    @property
    def failures(self) -> int:
        """Start squares (on the board) from which no tour was found."""
        return self.board.num_squares - int(self.ok.sum())

    def failed_squares(self, limit: int | None = None) -> list[str]:
        """The failed start squares, by name, in flat-index order (the first ``limit``)."""
        available = self.board.available().reshape(self.board.m, self.board.n)
        failed = np.flatnonzero(available & ~self.ok)[:limit]
        return [square_name(*divmod(int(i), self.board.n)) for i in failed]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph sweep --format json``: ``rows, cols, ok, failures,
        seconds`` (``ok[r][c]`` is square (r, c)), plus the method, its options and counts
        (``statuses`` spelt as everywhere in JSON: ``found``, ``proven_absent``, ``aborted``)."""
        return {
            "rows": self.board.m,
            "cols": self.board.n,
            "ok": self.ok.tolist(),
            "failures": self.failures,
            "seconds": round(self.seconds, 6),
            "closed": self.closed,
            "method": self.method,
            "options": self.options,
            "statuses": {Status[name].value: count for name, count in self.statuses.items()},
            "not_started": self.not_started,
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
    total_timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    executor: Executor | None = None,
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
        Seconds allowed to the search from each start square (each search
        honours it; the sweep takes at most about that times the squares).
    total_timeout : float, optional
        Seconds for the whole sweep: each search gets at most what is left, and
        the searches not started by then are not run (they count as ABORTED).
    progress : callable, optional
        Called as ``progress({"done": k, "total": n})`` after each start square.
    executor : knightgraph.running.parallel.Executor, optional
        Where the searches run (local processes, dask); default in this process.
        The result is the same.
    **options
        Passed to the strategy (``rule``, ``attempts``, ``seed``, ``repair``...).

    Returns
    -------
    SweepResult

    Examples
    --------
    >>> sweep(5, 5, method="auto").failed_squares()[:4]   # the 12 squares of the minority colour
    ['b1', 'd1', 'a2', 'c2']
    >>> sweep(8, 8, total_timeout=0).not_started
    64

    Notes
    -----
    The searches are independent; the move tables are built once per board
    (cached by the solvers), so a sweep of a 70x70 board (4,900 tours of
    4,900 squares) takes a few seconds with the compiled Warnsdorff walk.
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    closed = check_closed(closed)
    check_timeout(timeout)
    check_timeout(total_timeout)
    require_memory(
        board.area + board.num_squares * BYTES_PER_START,
        f"a sweep of {board.m}x{board.n} ({board.num_squares:,} start squares)",
    )
    ok = np.zeros((board.m, board.n), dtype=bool)
    statuses = {status.name: 0 for status in Status}
    flat = np.flatnonzero(board.available())
    if len(flat):  # bad options are refused before any work, even with no time left for it
        find_tour(
            board,
            closed=closed,
            start=board.square(int(flat[0])),
            method=method,
            timeout=0,
            **options,
        )
    began = time.perf_counter()
    clock = (timeout, Budget(total_timeout).wall_deadline())

    def task(i: int) -> tuple[Any, ...]:
        return (board, closed, board.square(int(flat[i])), method, clock, options)

    results = run_map(executor, _sweep_one, len(flat), task, progress, clock[1])
    skipped = len(flat) - len(results)  # not started: the total timeout had passed
    for i, status in enumerate(results):
        if status is None:
            skipped += 1
            continue
        ok.flat[flat[i]] = status is Status.FOUND
        statuses[status.name] += 1
    statuses[Status.ABORTED.name] += skipped
    return SweepResult(
        board, closed, method, dict(options), ok, time.perf_counter() - began, statuses, skipped
    )


def _sweep_one(task: tuple[Board, bool, Square, str, Clock, dict[str, Any]]) -> Status | None:
    board, closed, square, method, clock, options = task
    timeout = allowed_time(clock)
    if clock[1] is not None and timeout == 0:
        return None  # not started: the total timeout had passed
    return find_tour(
        board, closed=closed, start=square, method=method, timeout=timeout, **options
    ).status
