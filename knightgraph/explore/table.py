"""The existence table: the code of every board up to ``rows x cols``, each by proof.

Examples
--------
>>> table = existence_table(3, 4)
>>> table.codes, table.code(3, 4)
([['o', 'x', 'x', 'x'], ['x', 'x', 'x', 'x'], ['x', 'x', 'x', 'o']], 'o')
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..boards.board import Board
from ..exceptions import InvalidBoardError
from ..running.budget import Budget
from ..running.resources import require_memory
from ..solvers import find_tour
from ..tours.htmlrepr import GRID_LIMIT, Html, escape, fields_table, grid_table, name_list
from ..tours.results import SearchResult, Status
from ._chunks import (
    BYTES_PER_RESULT,
    BYTES_PER_TOUR_SQUARE,
    Clock,
    allowed_time,
    check_timeout,
    not_started,
    proof_of,
    run_map,
)

if TYPE_CHECKING:
    from ..running.parallel import Executor

CODES = {
    "c": "closed tour",
    "e": "no closed tour; the board minus a corner has one",
    "o": "open tour only",
    "x": "no tour",
    "?": "undecided (a search gave up)",
}
"""The codes of :func:`existence_table` (seed 000's Figure 3.1, plus ``?``)."""

CODE_COLOURS = {"c": "#1a9641", "e": "#a6d96a", "o": "#fdae61", "x": "#d7191c", "?": "#ffffff"}
"""The colour of each code in a notebook, as in the pictures
(:data:`knightgraph.draw.TABLE_COLOURS`)."""


@dataclass(frozen=True)
class Cell:
    """One board of the table: its code and the evidence behind it.

    Examples
    --------
    >>> cell = existence_table(3, 4).cells[(3, 4)]   # 3x4: open tours only (Schwenk: no closed)
    >>> cell.code, sorted(cell.evidence), cell.evidence["closed"].certificate.kind
    ('o', ['closed', 'closed minus a1', 'open'], 'schwenk-4xn')
    """

    rows: int
    cols: int
    code: str
    evidence: dict[str, SearchResult]
    disagreements: list[str]


@dataclass(frozen=True)
class ExistenceTable:
    """Codes ``c`` / ``e`` / ``o`` / ``x`` for every board up to ``rows x cols``.

    Examples
    --------
    >>> table = existence_table(3, 4)
    >>> table.codes, table.code(1, 1), table.disagreements
    ([['o', 'x', 'x', 'x'], ['x', 'x', 'x', 'x'], ['x', 'x', 'x', 'o']], 'o', [])
    """

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
        """``{"rows", "cols", "codes", "disagreements", "certificates", "seconds",
        "proofs"}``; ``certificates`` counts the evidence by kind; ``proofs`` holds, for
        every board, ``{"rows": m, "cols": n, "code", "evidence"}``: each search its code
        rests on (``request`` ``closed``, ``closed minus a1`` or ``open``, with
        ``found`` and its tour's ``squares`` or its ``certificate``), every search that gave
        up left out; ``python -m knightgraph.certcheck`` re-checks them and the code.

        Examples
        --------
        >>> cell = existence_table(3, 4).to_dict()["proofs"][-1]   # 3x4: open tours only
        >>> cell["code"], [(e["request"], e["found"]) for e in cell["evidence"]]
        ('o', [('closed', False), ('closed minus a1', False), ('open', True)])
        """
        return {
            "rows": self.rows,
            "cols": self.cols,
            "codes": self.codes,
            "disagreements": self.disagreements,
            "certificates": self.evidence_kinds(),
            "seconds": round(self.seconds, 3),
            "proofs": [self._cell_proofs(cell) for cell in self.cells.values()],
        }

    def evidence_kinds(self) -> dict[str, int]:
        """How many searches each kind of evidence decided: ``tour`` or a certificate's kind
        (``none`` for a search that gave up).

        Examples
        --------
        >>> sorted(existence_table(3, 4).evidence_kinds().items())
        [('colour-count', 12), ('degree', 20), ('schwenk-4xn', 1), ('tour', 2)]
        """
        kinds: dict[str, int] = {}
        for cell in self.cells.values():
            for result in cell.evidence.values():
                kind = (
                    "tour"
                    if result.tour is not None
                    else (result.certificate.kind if result.certificate else "none")
                )
                kinds[kind] = kinds.get(kind, 0) + 1
        return kinds

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the codes as a coloured grid (up to 400 boards), how
        many boards have each code, the evidence by kind and the disagreements (none).

        Examples
        --------
        >>> html = existence_table(5, 6)._repr_html_()
        >>> html.count("<td style"), "</span> no closed tour; the board minus a corner" in html
        (30, True)
        """
        codes = self.codes
        tally = {code: sum(row.count(code) for row in codes) for code in CODES}
        legend = ", ".join(
            f'<span style="background-color:{CODE_COLOURS[code]};color:#000;padding:0 3px">'
            f"{code}</span> {escape(CODES[code])}: {escape(k)}"
            for code, k in tally.items()
            if k or code != "?"
        )
        kinds = self.evidence_kinds()
        grid = grid_table(
            [[(code, CODE_COLOURS[code]) for code in row] for row in codes],
            range(1, self.rows + 1),
            range(1, self.cols + 1),
            "m down, n across",
        )
        fields = [
            ("boards", Html(legend)),
            ("evidence", ", ".join(f"{kind} {k:,}" for kind, k in sorted(kinds.items()))),
            ("disagreements", name_list(self.disagreements, 3) or "none"),
            ("seconds", f"{self.seconds:.2f}"),
            (
                "grid",
                None
                if grid
                else f"more than {GRID_LIMIT} boards: table.text(), or "
                "knightgraph.draw.draw_existence_table(table)",
            ),
        ]
        return fields_table(f"Existence table 1..{self.rows} x 1..{self.cols}", fields, grid or "")

    @staticmethod
    def _cell_proofs(cell: Cell) -> dict[str, Any]:
        evidence = []
        for request, result in cell.evidence.items():
            proof = proof_of(result)
            if proof is not None:
                evidence.append({"request": request, **proof})
        return {"rows": cell.rows, "cols": cell.cols, "code": cell.code, "evidence": evidence}

    def text(self) -> str:
        """The table laid out like seed 000's Figure 3.1, with a legend."""
        width = max(2, len(str(self.cols)) + 1)
        lines = ["n".rjust(3) + "".join(str(n).rjust(width) for n in range(1, self.cols + 1)), "m"]
        lines += [
            str(m).rjust(3) + "".join(code.rjust(width) for code in row)
            for m, row in enumerate(self.codes, start=1)
        ]
        lines += [""] + [f"{code}  {meaning}" for code, meaning in CODES.items() if code != "?"]
        return "\n".join(lines)


def existence_table(
    rows: int,
    cols: int | None = None,
    *,
    timeout: float | None = None,
    total_timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
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
        Called as ``progress({"done": k, "total": n})`` after each cell.
    executor : knightgraph.running.parallel.Executor, optional
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
            raise InvalidBoardError(
                f"invalid table size {value!r}: the {name} must be a whole number >= 1"
            )
    check_timeout(timeout)
    check_timeout(total_timeout)
    require_memory(table_bytes(rows, cols), f"an existence table of {rows}x{cols} boards")
    began = time.perf_counter()
    sizes = list(itertools.product(range(1, rows + 1), range(1, cols + 1)))
    clock = (timeout, Budget(total_timeout).wall_deadline())
    results = run_map(
        executor, _decide_cell_task, len(sizes), lambda i: (*sizes[i], clock), progress, clock[1]
    )
    results += [_undecided_cell(m, n) for m, n in sizes[len(results) :]]
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


def _undecided_cell(m: int, n: int) -> Cell:
    """The cell of a board not started before the total timeout."""
    return Cell(m, n, "?", {"closed": not_started()}, [])


def _decide_cell_task(task: tuple[int, int, Clock]) -> Cell:
    return _decide_cell(*task)


def _decide_cell(m: int, n: int, clock: Clock) -> Cell:
    from ..proofs.theorems import closed_tour_exists, open_tour_exists

    def search(board: Board, closed: bool) -> SearchResult:
        timeout = allowed_time(clock)
        if clock[1] is not None and timeout == 0:
            return not_started()
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
