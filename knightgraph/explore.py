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
from typing import Any

import numpy as np

from .board import KNIGHT, Board, SquareLike, square_name
from .solvers import find_tour
from .tour import SearchResult, Status
from .verify import as_board

__all__ = ["CODES", "Cell", "ExistenceTable", "SweepResult", "existence_table", "sweep"]


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
    progress: Callable[[int, int], None] | None = None,
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
    progress : callable, optional
        Called as ``progress(done, total)`` after each cell.

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
    began = time.perf_counter()
    cells = {}
    total = rows * cols
    for done, (m, n) in enumerate(itertools.product(range(1, rows + 1), range(1, cols + 1)), 1):
        cells[(m, n)] = _decide_cell(m, n, timeout)
        if progress is not None:
            progress(done, total)
    return ExistenceTable(rows, cols, cells, time.perf_counter() - began)


def _decide_cell(m: int, n: int, timeout: float | None) -> Cell:
    from .existence import closed_tour_exists, open_tour_exists

    evidence = {"closed": find_tour(m, n, closed=True, timeout=timeout)}
    closed = evidence["closed"].status
    if closed is Status.FOUND:
        code = "c"
    else:
        if m * n > 1:
            evidence["closed minus a1"] = find_tour(Board(m, n, removed=["a1"]), closed=True,
                                                    timeout=timeout)  # fmt: skip
        evidence["open"] = find_tour(m, n, timeout=timeout)
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
