"""The value of a start or end map, for every board kind, and how it is shown.

A map's cells are a board's squares ``(r, c)`` or a graph board's vertex indices (the
board's ``cells``; :func:`on_squares` asks for what only a grid has); :class:`TourMap` holds
each cell's answer and evidence, and shows itself as the board's kind asks (a grid of
squares, the picture of a torus, cylinder or 3-D board, or vertices by name).  The maps are
made by :func:`~knightgraph.explore.maps.start_map` and :func:`~knightgraph.explore.maps.end_map`.

Examples
--------
>>> from knightgraph import start_map
>>> m = start_map(3, 4, counts=False)
>>> type(m).__name__, m.candidates[:2], m.squares()[:2]
('TourMap', [(0, 0), (0, 1)], ['a1', 'd1'])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..boards.board import Board, Square, file_name
from ..tours.htmlrepr import GRID_LIMIT, Html, fields_table, grid_table, name_list, side_by_side
from ..tours.results import SearchResult, Status
from ._chunks import proof_of

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from ..boards.graphboard import GraphBoard


MAP_COLOURS = {".": "#a6d96a", "X": "#f4a582", "?": "#dddddd", "S": "#ffd700", " ": "#555555"}
"""The colours of a map's cells in a notebook: a tour, none, undecided, the start, removed."""


def on_squares(board: Board | GraphBoard) -> TypeIs[Board]:
    """The one question a map asks about its board's kind: is it a grid of squares (a
    :class:`~knightgraph.Board`), for what only a grid has (a sample, symmetries, a settled
    map, the grid's JSON and picture)?  The cells are the board's (``cells``, ``cell_table``).

    Examples
    --------
    >>> from knightgraph.boards.topology import topology_board
    >>> on_squares(Board(3, 4)), on_squares(topology_board(3, 4, wrap="rows"))
    (True, False)
    """
    return isinstance(board, Board)


def map_candidates(board: Board | GraphBoard, start: Any) -> list[Any]:
    """The board's cells a map decides: all but the fixed start (unless it is the only one)."""
    return [cell for cell in board.cells() if cell != start or board.num_squares == 1]


@dataclass(frozen=True)
class TourMap:
    """Which start cells admit a tour (``starts``), or which end cells a tour from a fixed
    start can reach (``ends``), each cell decided by proof.

    The cells are a board's squares ``(r, c)`` or a graph board's vertex indices (the order of
    :class:`~knightgraph.boards.graphboard.GraphBoard`): see :func:`on_squares`.

    Attributes
    ----------
    ok : numpy.ndarray of bool, shape (m, n); or list of bool by vertex index
        ``ok[cell]``: a tour starts (``starts``) or ends (``ends``) on the cell.
    evidence : dict
        For every candidate cell, the :class:`~knightgraph.SearchResult` that
        decides it: a verified tour, or a checked certificate of absence.
    counts : numpy.ndarray of object, list, or None
        Directed tours starting (ending) on each cell, where counting was
        done; ``None`` entries elsewhere (and where a count ran out of time).
    unknown : list of str
        Cells whose search gave up (only with a timeout); ``ok`` is False there.

    Examples
    --------
    >>> from knightgraph import end_map, start_map
    >>> m = start_map(5, 5, counts=False)   # open tours of 5x5 start on one colour only
    >>> len(m.squares()), bool(m.ok[0, 0]), bool(m.ok[0, 1]), m.evidence[(0, 1)].certificate.kind
    (13, True, False, 'colour-count')
    >>> import networkx as nx
    >>> m = end_map(nx.path_graph(4), start=0)
    >>> m.squares(), m.counts, m.evidence[1].certificate.kind
    (['3'], [None, 0, 0, 1], 'degree')
    """

    board: Board | GraphBoard
    kind: str
    closed: bool
    start: Any
    ok: Any
    evidence: dict[Any, SearchResult]
    counts: Any
    seconds: float
    sampled: list[Square] | None = None
    seed: int | None = None

    @property
    def candidates(self) -> list[Any]:
        """The cells decided: every cell for ``starts``; all but the start for ``ends``;
        only the sampled ones with ``sample``."""
        if self.sampled is not None:
            return list(self.sampled)
        return map_candidates(self.board, self.start)

    @property
    def failures(self) -> int:
        """Candidate cells with no tour (proved, or unknown)."""
        return sum(1 for cell in self.candidates if not self.ok[cell])

    @property
    def unknown(self) -> list[str]:
        """The names of the cells whose search gave up."""
        return [
            self.board.cell_name(cell)
            for cell in self.candidates
            if self.evidence[cell].status is Status.ABORTED
        ]

    def squares(self) -> list[str]:
        """The names of the cells marked ok, in index order."""
        return [self.board.cell_name(cell) for cell in self.candidates if self.ok[cell]]

    def _repr_html_(self) -> str:
        """A small table for Jupyter: how many cells admit a tour, the evidence by kind, and
        the board as a grid coloured by the answers (the number of tours in each cell where
        they were counted; up to 400 cells; a graph without a shape lists its cells).

        Examples
        --------
        >>> from knightgraph import start_map
        >>> html = start_map(5, 5)._repr_html_()
        >>> "13 of 25 start squares" in html, ">304</td>" in html, html.count("<td style")
        (True, True, 25)
        """
        what = "start" if self.kind == "starts" else "end"
        tour = "a closed tour" if self.closed else "an open tour"
        src = "" if self.kind == "starts" else f" from {self.board.cell_name(self.start)}"
        total, admit, unknown = len(self.candidates), len(self.squares()), len(self.unknown)
        kinds = self._evidence_kinds()
        cells = {"vertex": "vertices"}.get(self.board.wording()[1], "squares")
        answer = f"{admit:,} of {total:,} {what} {cells} admit {tour}{src}"
        answer += f", {total - admit - unknown:,} do not"
        grid = self._html_grid()
        fields = [
            ("answer", answer + (f", {unknown:,} undecided" if unknown else "")),
            ("evidence", ", ".join(f"{kind} {k:,}" for kind, k in sorted(kinds.items()))),
            ("undecided", name_list(self.unknown) or None),
            ("sampled", None if self.sampled is None else f"seed {self.seed}"),
            (f"{what}s", None if grid else name_list(self.squares()) or "none"),
            ("seconds", f"{self.seconds:.2f}"),
        ]
        kind = "closed" if self.closed else "open"
        caption = f"{what.title()} map: {kind} tours{src} {self.board.wording()[0]}"
        return fields_table(caption, fields, Html(grid))

    def _html_mark(self, cell: Any) -> tuple[str, str | None]:
        """A cell of the grid: its text (a count, or the mark of :meth:`text`) and colour."""
        if self.kind == "ends" and cell == self.start:
            return "S", MAP_COLOURS["S"]
        if cell not in self.evidence:  # not sampled
            return "", None
        if self.evidence[cell].status is Status.ABORTED:
            return "?", MAP_COLOURS["?"]
        mark = "." if self.ok[cell] else "X"
        count = None if self.counts is None else self.counts[cell]
        return (mark if count is None else f"{count:,}"), MAP_COLOURS[mark]

    def _html_grid(self) -> str:
        """The map as a grid (a 3-D board's levels side by side), or "" past the size or
        for a graph without a shape."""
        board = self.board
        if on_squares(board):
            available = board.available().reshape(board.m, board.n)
            cells = [
                [
                    self._html_mark((r, c)) if available[r, c] else ("", MAP_COLOURS[" "])
                    for c in range(board.n)
                ]
                for r in range(board.m - 1, -1, -1)
            ]
            files = [file_name(c) for c in range(board.n)]
            return grid_table(cells, range(board.m, 0, -1), files) or ""
        shape = board.shape or ()
        if len(shape) not in (2, 3) or math.prod(shape) > GRID_LIMIT:
            return ""
        m, n, levels = shape[0], shape[1], shape[2] if len(shape) == 3 else 1
        files = [file_name(c) for c in range(n)]
        grids = [
            grid_table(
                [
                    [self._html_mark(board.index((r, c, level)[: len(shape)])) for c in range(n)]
                    for r in range(m - 1, -1, -1)
                ],
                range(m, 0, -1),
                files,
                f"level {level + 1}" if len(shape) == 3 else "",
            )
            or ""
            for level in range(levels)
        ]
        return side_by_side(grids) if len(shape) == 3 else grids[0]

    def _evidence_kinds(self) -> dict[str, int]:
        """How many cells each kind of evidence decides: ``tour`` (a verified tour comes
        first, also on a result that carries a certificate too), a certificate's kind, or
        ``none`` (undecided): one tally for every board kind."""
        kinds: dict[str, int] = {}
        for result in self.evidence.values():
            kind = "tour" if result.tour is not None else "none"
            if result.tour is None and result.certificate is not None:
                kind = result.certificate.kind
            kinds[kind] = kinds.get(kind, 0) + 1
        return kinds

    def _proofs(self) -> list[dict[str, Any]]:
        """The evidence behind each decided cell, in candidate order: its name as
        ``square`` and its :func:`~knightgraph.explore._chunks.proof_of`; a cell whose search
        gave up carries none (it is listed in ``unknown``)."""
        out = []
        for cell in self.candidates:
            proof = proof_of(self.evidence[cell])
            if proof is not None:
                out.append({"square": self.board.cell_name(cell), **proof})
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph starts|ends --format json``.

        On a board of squares: ``rows, cols, ok, failures, seconds`` (``ok[r][c]`` is
        square (r, c)), plus ``closed``, ``start``, ``counts`` (null where not counted),
        ``unknown``, the evidence by kind, and ``proofs``: for every decided square
        ``{"square", "found": true, "squares"}`` (a verified tour from it, or to it from
        ``start``) or ``{"square", "found": false, "certificate"}``, which ``python -m
        knightgraph.certcheck`` re-checks.  On a graph board: ``graph``, ``vertices``,
        ``ok`` and ``counts`` by vertex name, ``failures``, ``unknown``, the evidence by
        kind, and ``proofs`` (squares by vertex name).

        Examples
        --------
        >>> from knightgraph import end_map, start_map
        >>> proofs = end_map(3, 4, start="a1", counts=False).to_dict()["proofs"]
        >>> proofs[0]["square"], proofs[0]["found"], proofs[0]["certificate"]["kind"]
        ('b1', False, 'schwenk-4xn')
        >>> [p["square"] for p in proofs if p["found"]], proofs[-1]["squares"][0]
        (['a2', 'd3'], [0, 0])
        >>> import networkx as nx
        >>> start_map(nx.path_graph(3)).to_dict()["ok"]
        {'0': True, '1': False, '2': True}
        """
        if on_squares(self.board):
            return self._grid_dict(self.board)
        names = self.board.names
        return {
            "graph": self.board.kind,
            "vertices": self.board.num_squares,
            "closed": self.closed,
            "start": None if self.start is None else names[self.start],
            "ok": {names[v]: self.ok[v] for v in self.candidates},
            "counts": None
            if self.counts is None
            else {names[v]: self.counts[v] for v in self.candidates},
            "failures": self.failures,
            "unknown": self.unknown,
            "evidence": self._evidence_kinds(),
            "seconds": round(self.seconds, 6),
            "proofs": self._proofs(),
        }

    def _grid_dict(self, board: Board) -> dict[str, Any]:
        counts = None
        if self.counts is not None:
            counts = [[None if x is None else int(x) for x in row] for row in self.counts.tolist()]
        ok: list[list[bool | None]] = self.ok.tolist()
        extra: dict[str, Any] = {}
        if self.sampled is not None:  # cells not sampled are null
            ok = [[None] * board.n for _ in range(board.m)]
            for r, c in self.sampled:
                ok[r][c] = bool(self.ok[r, c])
            extra = {"sampled": [board.name(sq) for sq in self.sampled], "seed": self.seed}
        return {
            "rows": board.m,
            "cols": board.n,
            "ok": ok,
            "failures": self.failures,
            "seconds": round(self.seconds, 6),
            "closed": self.closed,
            "start": None if self.start is None else board.name(self.start),
            "counts": counts,
            "unknown": self.unknown,
            "evidence": self._evidence_kinds(),
            **extra,
            "proofs": self._proofs(),
        }

    def text(self) -> str:
        """A picture of the map and its totals.

        On a board of squares: rank 1 at the bottom, files under it, with a legend:
        ``.`` a tour starts (ends) there, ``X`` none does, ``?`` undecided, ``S`` the fixed
        start, a blank a removed square; the counts of each; then the numbers of tours
        per square when there are any (``-`` the fixed start).  On a graph board with
        topology the same marks (3-D levels side by side), on other graphs the vertices by
        name; then the totals.

        Examples
        --------
        >>> from knightgraph import end_map
        >>> print(end_map(3, 4, start="a1").text())  # doctest: +ELLIPSIS
        3 | XXX.
        2 | .XXX
        1 | SXXX
            abcd
        legend: . an open tour from a1 ends here, X no open tour from a1 ends here, S the start
        2 of 11 end squares admit an open tour from a1, 9 do not (... s)
        directed tours per end square:
        3 | 0 0 0 1
        2 | 1 0 0 0
        1 | - 0 0 0
            a b c d
        >>> from knightgraph.boards.topology import topology_board
        >>> from knightgraph import start_map
        >>> print(start_map(topology_board(2, 2, levels=2)).text())  # doctest: +ELLIPSIS
        2 | XX  XX
        1 | XX  XX
            ab  ab
        0 of 8 start squares admit an open tour of the board 2x2x2, 8 do not (... s)
        """
        if on_squares(self.board):
            return self._grid_text(self.board)
        return self._graph_text(self.board)

    def _grid_text(self, board: Board) -> str:
        what = "start" if self.kind == "starts" else "end"
        if self.sampled is not None:
            return self._sample_text(board, what)
        label = len(str(board.m))
        available = board.available().reshape(board.m, board.n)
        unknown = {board.parse_square(sq) for sq in self.unknown}
        lines, seen = [], set()
        for r in range(board.m - 1, -1, -1):
            cells = []
            for c in range(board.n):
                if not available[r, c]:
                    cells.append(" ")
                elif (r, c) == self.start and self.kind == "ends":
                    cells.append("S")
                else:
                    cells.append("?" if (r, c) in unknown else "." if self.ok[r, c] else "X")
            seen.update(cells)
            lines.append(f"{str(r + 1).rjust(label)} | {''.join(cells)}")
        files = [board.name((0, c))[:-1] for c in range(board.n)]
        if board.n <= 26:
            lines.append(" " * (label + 3) + "".join(files))
        kind = "closed" if self.closed else "open"
        tour = f"a {kind} tour" if self.closed else "an open tour"
        src = f" from {board.name(self.start)}" if self.kind == "ends" and self.start else ""
        meaning = {
            ".": f". {tour}{src} {what}s here",
            "X": f"X no {kind} tour{src} {what}s here",
            "?": "? undecided (out of time)",
            "S": "S the start",
            " ": "blank: removed",
        }
        lines.append("legend: " + ", ".join(v for k, v in meaning.items() if k in seen))
        admit = len(self.squares())
        counts = f"{admit} of {len(self.candidates)} {what} squares admit {tour}{src}"
        counts += f", {len(self.candidates) - admit - len(unknown)} do not"
        if unknown:
            counts += f", {len(unknown)} undecided"
        lines.append(f"{counts} ({self.seconds:.2f} s)")
        if self.counts is not None:
            width = (
                max(len(str(x)) for x in self.counts.flat if x is not None)
                if any(x is not None for x in self.counts.flat)
                else 1
            )
            lines.append(f"directed tours per {what} square:")
            for r in range(board.m - 1, -1, -1):
                row = [
                    "-".rjust(width) if x is None else str(x).rjust(width) for x in self.counts[r]
                ]
                lines.append(f"{str(r + 1).rjust(label)} | {' '.join(row)}")
            if board.n <= 26:
                lines.append(" " * (label + 3) + " ".join(f.rjust(width) for f in files))
        return "\n".join(lines)

    def _sample_text(self, board: Board, what: str) -> str:
        """One line per sampled square: its name, the answer and its evidence."""
        src = f" from {board.name(self.start)}" if self.kind == "ends" and self.start else ""
        tour = "a closed tour" if self.closed else "an open tour"
        lines = [
            f"{len(self.candidates)} sampled {what} squares of {board.m}x{board.n}{src} "
            f"(seed {self.seed}):"
        ]
        for sq in self.candidates:
            result = self.evidence[sq]
            if result.status is Status.ABORTED:
                answer, why = "?", "undecided (out of time)"
            elif result.found:
                answer, why = ".", "a verified tour"
            else:
                kind = result.certificate.kind if result.certificate else "none"
                answer, why = "X", f"no tour: {kind} certificate"
            lines.append(f"{board.name(sq):>8} {answer} {why}")
        admit = len(self.squares())
        lines.append(
            f"{admit} of {len(self.candidates)} sampled {what} squares admit {tour}{src} "
            f"({self.seconds:.2f} s)"
        )
        return "\n".join(lines)

    def _graph_text(self, board: GraphBoard) -> str:
        names = board.names

        def mark(v: int) -> str:
            if v == self.start and board.num_squares > 1:
                return "S"
            if self.evidence[v].status is Status.ABORTED:
                return "?"
            return "." if self.ok[v] else "X"

        lines = _picture(board, mark) if board.shape is not None else []
        if not lines:
            ok = [names[v] for v in self.candidates if self.ok[v]]
            lines = [f"tours {'start' if self.kind == 'starts' else 'end'} on: {' '.join(ok)}"]
        what = "start" if self.kind == "starts" else "end"
        tour = "a closed tour" if self.closed else "an open tour"
        if self.start is not None:
            tour += f" from {names[self.start]}"
        total = len(self.candidates)
        lines.append(
            f"{total - self.failures} of {total} {what} squares admit {tour} of the "
            f"{board.kind}, {self.failures - len(self.unknown)} do not"
            + (f", {len(self.unknown)} undecided" if self.unknown else "")
            + f" ({self.seconds:.2f} s)"
        )
        return "\n".join(lines)


def _picture(board: GraphBoard, mark: Callable[[int], str]) -> list[str]:
    """Rows of marks, rank 1 at the bottom (3-D: the levels side by side)."""
    shape = board.shape or ()
    if len(shape) not in (2, 3):
        return []
    m, n = shape[0], shape[1]
    k = shape[2] if len(shape) == 3 else 1
    rows = []
    for r in range(m - 1, -1, -1):
        cells = []
        for lv in range(k):
            keys = [(r, c) if len(shape) == 2 else (r, c, lv) for c in range(n)]
            cells.append("".join(mark(board.index(key)) for key in keys))
        rows.append(f"{r + 1:>{len(str(m))}} | " + "  ".join(cells))
    files = "".join(file_name(c)[-1] for c in range(n))
    rows.append(" " * (len(str(m)) + 3) + "  ".join([files] * k))
    return rows
