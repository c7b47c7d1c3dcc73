"""Exploring many searches at once: sweeps over every start square, existence tables.

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

import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .board import KNIGHT, Board, Square, SquareLike, as_board, square_name
from .budget import Budget
from .exceptions import InvalidBoardError, InvalidOptionError, KnightGraphError, SearchAbortedError
from .resources import require_memory
from .results import SearchResult, Status
from .solvers import find_tour
from .verify import check_closed

if TYPE_CHECKING:
    from .parallel import Executor

__all__ = [
    "CODES",
    "Cell",
    "ExistenceTable",
    "SweepResult",
    "TourMap",
    "end_map",
    "existence_table",
    "start_map",
    "sweep",
]


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
    not_started : int
        Start squares never searched because the total timeout had passed
        (counted as ABORTED too).
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
    progress: Callable[[int, int], None] | None = None,
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
        Called as ``progress(done, total)`` after each start square.
    executor : knightgraph.parallel.Executor, optional
        Where the searches run (local processes, dask); default in this process.
        The result is the same.
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
    closed = check_closed(closed)
    _check_timeout(timeout)
    _check_timeout(total_timeout)
    require_memory(board.area + board.num_squares * BYTES_PER_START,
                   f"a sweep of {board.m}x{board.n} ({board.num_squares:,} start squares)")  # fmt: skip
    ok = np.zeros((board.m, board.n), dtype=bool)
    statuses = {status.name: 0 for status in Status}
    flat = np.flatnonzero(board.available())
    if len(flat):  # bad options are refused before any work, even with no time left for it
        find_tour(board, closed=closed, start=board.square(int(flat[0])), method=method,
                  timeout=0, **options)  # fmt: skip
    began = time.perf_counter()
    clock = (timeout, _wall_deadline(total_timeout))

    def task(i: int) -> tuple[Any, ...]:
        return (board, closed, board.square(int(flat[i])), method, clock, options)

    results = _map(executor, _sweep_one, len(flat), task, progress, clock[1])
    skipped = len(flat) - len(results)  # not started: the total timeout had passed
    for i, status in enumerate(results):
        if status is None:
            skipped += 1
            continue
        ok.flat[flat[i]] = status is Status.FOUND
        statuses[status.name] += 1
    statuses[Status.ABORTED.name] += skipped
    return SweepResult(board, closed, method, dict(options), ok, time.perf_counter() - began,
                       statuses, skipped)  # fmt: skip


BYTES_PER_START = 400
"""What a sweep holds per start square besides the searches (the task, the result)."""

BYTES_PER_RESULT = 2000
"""What one kept :class:`~knightgraph.SearchResult` costs besides its tour."""

BYTES_PER_TOUR_SQUARE = 8
"""A kept tour's order: one 64-bit index per square."""


def _check_timeout(timeout: float | None) -> None:
    """InvalidOptionError for a timeout that is not seconds >= 0 (before any search starts)."""
    Budget.make(timeout)


Clock = tuple[float | None, float | None]
"""``(timeout, deadline)``: seconds per search, and the time of day (:func:`time.time`, the
same in every worker process) when the whole run ends, each None when not given."""


def _wall_deadline(total_timeout: float | None) -> float | None:
    return None if total_timeout is None else time.time() + total_timeout


def _allowed(clock: Clock) -> float | None:
    """Seconds the next search may take: its own timeout, cut to what the run has left;
    0 once the run is over."""
    timeout, deadline = clock
    if deadline is None:
        return timeout
    left = max(0.0, deadline - time.time())
    return left if timeout is None else min(timeout, left)


def _not_started() -> SearchResult:
    return SearchResult(Status.ABORTED, reason="not started: the total timeout had passed")


CODES = {
    "c": "closed tour",
    "e": "no closed tour; the board minus a corner has one",
    "o": "open tour only",
    "x": "no tour",
    "?": "undecided (a search gave up)",
}
"""The codes of :func:`existence_table` (seed 000's Figure 3.1, plus ``?``)."""


@dataclass
class Cell:
    """One board of the table: its code and the evidence behind it."""

    rows: int
    cols: int
    code: str
    evidence: dict[str, SearchResult]
    disagreements: list[str]


@dataclass
class ExistenceTable:
    """Codes ``c`` / ``e`` / ``o`` / ``x`` for every board up to ``rows x cols``."""

    rows: int
    cols: int
    cells: dict[tuple[int, int], Cell]
    seconds: float

    def code(self, m: int, n: int) -> str:
        """The code of the m x n board."""
        return self.cells[(m, n)].code

    @property
    def codes(self) -> list[list[str]]:
        """``codes[m - 1][n - 1]`` is the code of the m x n board."""
        return [[self.code(m, n) for n in range(1, self.cols + 1)] for m in range(1, self.rows + 1)]

    @property
    def disagreements(self) -> list[str]:
        """Cells where a proof contradicts Schwenk's or the open-tour theorem (there are none)."""
        return [d for cell in self.cells.values() for d in cell.disagreements]

    def to_dict(self) -> dict[str, Any]:
        """``{"rows", "cols", "codes", "disagreements", "certificates", "seconds"}``;
        ``certificates`` counts the evidence by kind."""
        kinds: dict[str, int] = {}
        for cell in self.cells.values():
            for result in cell.evidence.values():
                kind = "tour" if result.tour is not None else (
                    result.certificate.kind if result.certificate else "none")  # fmt: skip
                kinds[kind] = kinds.get(kind, 0) + 1
        return {"rows": self.rows, "cols": self.cols, "codes": self.codes,
                "disagreements": self.disagreements, "certificates": kinds,
                "seconds": round(self.seconds, 3)}  # fmt: skip

    def text(self) -> str:
        """The table laid out like seed 000's Figure 3.1, with a legend."""
        width = max(2, len(str(self.cols)) + 1)
        lines = ["n".rjust(3) + "".join(str(n).rjust(width) for n in range(1, self.cols + 1)),
                 "m"]  # fmt: skip
        lines += [str(m).rjust(3) + "".join(code.rjust(width) for code in row)
                  for m, row in enumerate(self.codes, start=1)]  # fmt: skip
        lines += [""] + [f"{code}  {meaning}" for code, meaning in CODES.items() if code != "?"]
        return "\n".join(lines)


def existence_table(
    rows: int,
    cols: int | None = None,
    *,
    timeout: float | None = None,
    total_timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> ExistenceTable:
    """Decide the code of every board from 1 x 1 to ``rows x cols``, each by proof.

    For every board: a closed tour, or a certificate that none exists; if none,
    a closed tour of the board minus the corner a1 (all four corners are alike
    by symmetry) or a certificate; if none, an open tour or a certificate.  On
    boards with no closed tour the open tour is decided too, so that every cell
    is held against both theorems.  Tours are verified, certificates checked
    independently (see :func:`~knightgraph.find_tour`, method ``auto``).

    Parameters
    ----------
    rows, cols : int
        The largest board; ``cols`` defaults to ``rows``.
    timeout : float, optional
        Seconds allowed to each search (a cell whose search gives up is ``?``).
        A cell runs up to three searches: a closed tour, one of the board minus
        a corner, an open tour.
    total_timeout : float, optional
        Seconds for the whole table: each search gets at most what is left,
        and the cells not started by then are ``?``.
    progress : callable, optional
        Called as ``progress(done, total)`` after each cell.
    executor : knightgraph.parallel.Executor, optional
        Where the cells are decided (local processes, dask); default in this
        process.  The table is the same.

    Examples
    --------
    >>> table = existence_table(5)
    >>> print("\\n".join(" ".join(row) for row in table.codes))
    o x x x x
    x x x x x
    x x x o x
    x x o x o
    x x x o e
    >>> table.disagreements
    []
    """
    cols = rows if cols is None else cols
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise InvalidBoardError(f"invalid table size {value!r}: the {name} must be a whole "
                                    "number >= 1")  # fmt: skip
    _check_timeout(timeout)
    _check_timeout(total_timeout)
    require_memory(table_bytes(rows, cols), f"an existence table of {rows}x{cols} boards")
    began = time.perf_counter()
    sizes = list(itertools.product(range(1, rows + 1), range(1, cols + 1)))
    clock = (timeout, _wall_deadline(total_timeout))
    results = _map(executor, _decide_cell_task, len(sizes), lambda i: (*sizes[i], clock), progress,
                   clock[1])  # fmt: skip
    results += [_undecided_cell(m, n) for m, n in sizes[len(results):]]
    cells = dict(zip(sizes, results, strict=True))
    return ExistenceTable(rows, cols, cells, time.perf_counter() - began)


def table_bytes(rows: int, cols: int) -> int:
    """About the memory :func:`existence_table` keeps: up to two tours per cell, and the cells.

    Examples
    --------
    >>> table_bytes(8, 8) < 2**20 < table_bytes(10**6, 5)
    True
    """
    squares = rows * (rows + 1) // 2 * (cols * (cols + 1) // 2)  # the sum of m * n over the cells
    return 2 * BYTES_PER_TOUR_SQUARE * squares + 3 * BYTES_PER_RESULT * rows * cols


MAP_CHUNK = 1024
"""Tasks handed to the executor at a time: the next chunk is made only when it is needed,
and none is started once the total timeout has passed."""


def _map(
    executor: Executor | None,
    fn: Callable[[Any], Any],
    count: int,
    task: Callable[[int], Any],
    progress: Callable[[int, int], None] | None,
    deadline: float | None,
) -> list[Any]:
    """``[fn(task(i)) for i in range(count)]``, run a chunk at a time on ``executor``.

    Once ``deadline`` (:func:`time.time`) has passed no further chunk is made or
    started, and the results stop there (a prefix of the list; the rest were not
    started), so that a run over millions of squares stops within a chunk of
    its deadline instead of walking every square.
    """
    from .parallel import SerialExecutor

    run = executor or SerialExecutor()
    out: list[Any] = []
    while len(out) < count and (deadline is None or time.time() < deadline):
        base = len(out)
        part = [task(i) for i in range(base, min(count, base + MAP_CHUNK))]
        report = None
        if progress is not None:
            def report(done: int, _: int, base: int = base) -> None:
                progress(base + done, count)
        out.extend(run.map(fn, part, progress=report))
    if progress is not None and len(out) < count:
        progress(count, count)
    return out


def _sweep_one(task: tuple[Board, bool, Square, str, Clock, dict[str, Any]]) -> Status | None:
    board, closed, square, method, clock, options = task
    timeout = _allowed(clock)
    if clock[1] is not None and timeout == 0:
        return None  # not started: the total timeout had passed
    return find_tour(board, closed=closed, start=square, method=method, timeout=timeout,
                     **options).status  # fmt: skip


def _undecided_cell(m: int, n: int) -> Cell:
    """The cell of a board not started before the total timeout."""
    return Cell(m, n, "?", {"closed": _not_started()}, [])


def _decide_cell_task(task: tuple[int, int, Clock]) -> Cell:
    return _decide_cell(*task)


def _decide_cell(m: int, n: int, clock: Clock) -> Cell:
    from .existence import closed_tour_exists, open_tour_exists

    def search(board: Board, closed: bool) -> SearchResult:
        timeout = _allowed(clock)
        if clock[1] is not None and timeout == 0:
            return _not_started()
        return find_tour(board, closed=closed, timeout=timeout)

    evidence = {"closed": search(Board(m, n), True)}
    closed = evidence["closed"].status
    if closed is Status.FOUND:
        code = "c"
    else:
        if m * n > 1:
            evidence["closed minus a1"] = search(Board(m, n, removed=["a1"]), True)
        evidence["open"] = search(Board(m, n), False)
        minus = evidence.get("closed minus a1")
        if closed is Status.ABORTED or (minus is not None and minus.status is Status.ABORTED):
            code = "?"
        elif minus is not None and minus.found:
            code = "e"
        else:
            code = {Status.FOUND: "o", Status.PROVEN_ABSENT: "x"}.get(evidence["open"].status, "?")
    disagreements = []
    claims = [("closed", closed_tour_exists(m, n), closed)]
    if "open" in evidence:
        claims.append(("open", open_tour_exists(m, n), evidence["open"].status))
    for kind, verdict, status in claims:
        if status is not Status.ABORTED and (status is Status.FOUND) != bool(verdict):
            disagreements.append(
                f"{m}x{n} {kind}: the proof says {status.name}, but {verdict.reason}"
            )
    return Cell(m, n, code, evidence, disagreements)


# ---------------------------------------------------------------------- maps
@dataclass
class TourMap:
    """Which start squares admit a tour (``starts``), or which end squares a tour from a
    fixed start can reach (``ends``), each cell decided by proof.

    Attributes
    ----------
    ok : numpy.ndarray of bool, shape (m, n)
        ``ok[r, c]``: a tour starts (``starts``) or ends (``ends``) on ``(r, c)``.
    evidence : dict
        For every candidate square, the :class:`~knightgraph.SearchResult` that
        decides it: a verified tour, or a checked certificate of absence.
    counts : numpy.ndarray of object, or None
        Directed tours starting (ending) on each square, where counting was
        done; ``None`` entries elsewhere (and where a count ran out of time).
    unknown : list of str
        Squares whose search gave up (only with a timeout); ``ok`` is False there.
    """

    board: Board
    kind: str
    closed: bool
    start: Square | None
    ok: np.ndarray[Any, Any]
    evidence: dict[Square, SearchResult]
    counts: np.ndarray[Any, Any] | None
    seconds: float

    @property
    def candidates(self) -> list[Square]:
        """The squares decided: every square for ``starts``; all but the start for ``ends``."""
        return [
            sq for sq in self.board.squares() if sq != self.start or self.board.num_squares == 1
        ]

    @property
    def failures(self) -> int:
        """Candidate squares with no tour (proved, or unknown)."""
        return sum(1 for sq in self.candidates if not self.ok[sq])

    @property
    def unknown(self) -> list[str]:
        return [self.board.name(sq) for sq in self.candidates
                if self.evidence[sq].status is Status.ABORTED]  # fmt: skip

    def squares(self) -> list[str]:
        """The squares marked ok, by name, in flat-index order."""
        return [self.board.name(sq) for sq in self.candidates if self.ok[sq]]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph starts|ends --format json``: ``rows, cols, ok,
        failures, seconds`` (``ok[r][c]`` is square (r, c)), plus ``closed``, ``start``,
        ``counts`` (null where not counted), ``unknown`` and the evidence by kind."""
        kinds: dict[str, int] = {}
        for result in self.evidence.values():
            kind = "tour" if result.tour is not None else (
                result.certificate.kind if result.certificate else "none")  # fmt: skip
            kinds[kind] = kinds.get(kind, 0) + 1
        counts = None
        if self.counts is not None:
            counts = [[None if x is None else int(x) for x in row] for row in self.counts.tolist()]
        return {
            "rows": self.board.m,
            "cols": self.board.n,
            "ok": self.ok.tolist(),
            "failures": self.failures,
            "seconds": round(self.seconds, 6),
            "closed": self.closed,
            "start": None if self.start is None else self.board.name(self.start),
            "counts": counts,
            "unknown": self.unknown,
            "evidence": kinds,
        }

    def text(self) -> str:
        """A picture of the board (rank 1 at the bottom): ``.`` ok, ``X`` none, ``?`` unknown,
        ``S`` the fixed start; then the counts when there are any."""
        lines = []
        label = len(str(self.board.m))
        available = self.board.available().reshape(self.board.m, self.board.n)
        unknown = {self.board.parse_square(sq) for sq in self.unknown}
        for r in range(self.board.m - 1, -1, -1):
            cells = []
            for c in range(self.board.n):
                if not available[r, c]:
                    cells.append(" ")
                elif (r, c) == self.start and self.kind == "ends":
                    cells.append("S")
                else:
                    cells.append("?" if (r, c) in unknown else "." if self.ok[r, c] else "X")
            lines.append(f"{str(r + 1).rjust(label)} | {''.join(cells)}")
        what = "start" if self.kind == "starts" else "end"
        lines.append(f"{len(self.squares())} of {len(self.candidates)} {what} squares admit "
                     f"{'a closed' if self.closed else 'an open'} tour ({self.seconds:.2f} s)")  # fmt: skip
        if self.counts is not None:
            width = max(len(str(x)) for x in self.counts.flat if x is not None) if any(
                x is not None for x in self.counts.flat) else 1  # fmt: skip
            lines.append(f"directed tours per {what} square:")
            for r in range(self.board.m - 1, -1, -1):
                row = ["-".rjust(width) if x is None else str(x).rjust(width)
                       for x in self.counts[r]]  # fmt: skip
                lines.append(f"{str(r + 1).rjust(label)} | {' '.join(row)}")
        return "\n".join(lines)


COUNT_AUTO_SQUARES = 36
"""``counts="auto"`` counts tours per square on boards of at most this many squares."""

COUNT_AUTO_SQUARES_PYTHON = 25
"""The same without the compiled counting kernel (the Python engine is some 30x slower: a 5x5
map is counted in a second or two, a 6x6 one would take minutes)."""


def start_map(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    counts: bool | str = "auto",
    timeout: float | None = None,
    total_timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> TourMap:
    """Which start squares admit a tour: exact, each cell backed by a tour or a certificate.

    Every square is decided with :func:`~knightgraph.tour_exists` (a verified
    tour, or a checked certificate of absence), and, where counting is feasible
    (``counts=True``, or ``"auto"``: at most 36 squares with the compiled
    kernel, 25 without), the directed tours from each square are counted too (once per
    orbit of the board's symmetries) and held against the existence answers.
    ``timeout`` bounds the work on each square, its search and its count
    together: a square whose search gives up is listed in ``unknown``, a count
    that runs out of time is left out (``None``).  ``total_timeout`` bounds
    the whole map: each square gets at most what is left, and the squares not
    started by then are ``unknown``.

    Examples
    --------
    >>> result = start_map(5, 5)
    >>> len(result.squares()), result.failures, int(result.counts[0, 0]), int(result.counts[2, 2])
    (13, 12, 304, 64)
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    return _tour_map(board, "starts", closed, None, counts, (timeout, total_timeout), progress,
                     executor)  # fmt: skip


def end_map(
    m: int | Board,
    n: int | None = None,
    *,
    start: SquareLike,
    closed: bool = False,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    counts: bool | str = "auto",
    timeout: float | None = None,
    total_timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> TourMap:
    """Which end squares a tour from ``start`` can reach: exact, each cell proved.

    As :func:`start_map`, with the start fixed; the start itself is not a
    candidate (its cell is False).  A closed tour ends next to its start.

    Examples
    --------
    >>> result = end_map(5, 5, start="a1")
    >>> result.squares()[:4], int(result.counts[4, 4])
    (['c1', 'e1', 'b2', 'd2'], 56)
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    s = board.parse_square(start)
    return _tour_map(board, "ends", closed, s, counts, (timeout, total_timeout), progress,
                     executor)  # fmt: skip


def _tour_map(
    board: Board,
    kind: str,
    closed: bool,
    start: Square | None,
    counts: bool | str,
    timeouts: tuple[float | None, float | None],
    progress: Callable[[int, int], None] | None,
    executor: Executor | None,
) -> TourMap:
    from .counting import kernel_available

    if counts not in (True, False, "auto"):
        raise InvalidOptionError(f"invalid counts {counts!r}: expected True, False or 'auto'")
    timeout, total_timeout = timeouts
    closed = check_closed(closed)
    _check_timeout(timeout)
    _check_timeout(total_timeout)
    require_memory(map_bytes(board), f"a map of {board.m}x{board.n} ({board.num_squares:,} "
                   "squares, each decided by a tour or a certificate)")  # fmt: skip
    if counts == "auto":
        limit = COUNT_AUTO_SQUARES if kernel_available() else COUNT_AUTO_SQUARES_PYTHON
        counts = board.num_squares <= limit
    began = time.perf_counter()
    candidates = [sq for sq in board.squares() if sq != start or board.num_squares == 1]
    # Count once per orbit of the symmetries that fix the start.
    sym = [p for p in board.symmetries().values()
           if start is None or int(p[start[0] * board.n + start[1]]) == start[0] * board.n + start[1]]  # fmt: skip
    representative: dict[Square, Square] = {}
    for sq in candidates:
        images = {board.square(int(p[sq[0] * board.n + sq[1]])) for p in sym}
        representative[sq] = min(images)
    clock = (timeout, _wall_deadline(total_timeout))
    results = _map(
        executor, _map_cell, len(candidates),
        lambda i: (board, kind, closed, start, candidates[i], clock,
                   bool(counts) and representative[candidates[i]] == candidates[i]),
        progress, clock[1],
    )  # fmt: skip
    results += [(_not_started(), None)] * (len(candidates) - len(results))
    ok = np.zeros((board.m, board.n), dtype=bool)
    evidence: dict[Square, SearchResult] = {}
    table = np.full((board.m, board.n), None, dtype=object) if counts else None
    counted: dict[Square, int] = {}
    for sq, (result, number) in zip(candidates, results, strict=True):
        ok[sq] = result.found
        evidence[sq] = result
        if number is not None:
            counted[sq] = number
    if table is not None:
        for sq in candidates:
            found = counted.get(representative[sq])  # None: the count stopped at the timeout
            table[sq] = found
            if found is None:
                continue
            number = found
            if evidence[sq].status is not Status.ABORTED and (number > 0) != evidence[sq].found:
                raise KnightGraphError(
                    f"internal error: {board.name(sq)} has {number} tours but the search says "
                    f"{evidence[sq].status.name}"
                )
    return TourMap(board, kind, closed, start, ok, evidence, table, time.perf_counter() - began)


def map_bytes(board: Board) -> int:
    """About the memory of :func:`start_map` or :func:`end_map`: a result per square, most with
    a tour of the whole board.

    Examples
    --------
    >>> map_bytes(Board(8, 8)) < 2**20 < map_bytes(Board(1000, 1000))
    True
    """
    squares = board.num_squares
    return squares * (BYTES_PER_RESULT + BYTES_PER_TOUR_SQUARE * squares)


def _map_cell(
    task: tuple[Board, str, bool, Square | None, Square, Clock, bool],
) -> tuple[SearchResult, int | None]:
    """Decide one square; count its tours too when asked.  The timeout bounds both together:
    the count gets what the search left, and is dropped (None) when it runs out."""
    from .counting import count_tours
    from .solvers import tour_exists

    board, kind, closed, start, square, clock, with_count = task
    timeout = _allowed(clock)
    if clock[1] is not None and timeout == 0:
        return _not_started(), None
    began = time.monotonic()
    ends = {"start": square} if kind == "starts" else {"start": start, "end": square}
    result = tour_exists(board, closed=closed, timeout=timeout, **ends)
    if not with_count:
        return result, None
    left = None if timeout is None else timeout - (time.monotonic() - began)
    if left is not None and left <= 0:
        return result, None
    try:
        return result, count_tours(board, closed=closed, timeout=left, **ends).directed
    except SearchAbortedError:
        return result, None
