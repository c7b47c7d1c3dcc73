"""Start and end maps of any graph: which vertices a tour can start (or end) on, each proved.

:func:`~knightgraph.start_map` and :func:`~knightgraph.end_map` run this when given a
networkx graph or a :class:`~knightgraph.boards.graphboard.GraphBoard` (a torus, a cylinder, a 3-D
board).  Every vertex is decided by :func:`~knightgraph.tour_exists` on the graph: a
verified tour from (to) it, or a certificate of absence the independent graph checker
accepted; where counting is cheap the tours from (to) each vertex are counted too and
held against those answers.

Examples
--------
>>> from knightgraph.boards.topology import topology_board
>>> m = graph_start_map(topology_board(3, 3, wrap="cols"), closed=False)
>>> m.squares(), m.failures
(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3'], 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..boards.graphboard import GraphBoard
from ..exceptions import KnightGraphError
from ..running.resources import require_memory
from ..tours.results import SearchResult, Status
from ._chunks import (
    BYTES_PER_RESULT,
    BYTES_PER_TOUR_SQUARE,
    CellTask,
    MapCells,
    decide_cell,
    map_options,
    not_started,
    run_map,
    wall_deadline,
)

if TYPE_CHECKING:
    from ..running.parallel import Executor

__all__ = ["COUNT_AUTO_VERTICES", "GraphTourMap", "graph_end_map", "graph_start_map"]

COUNT_AUTO_VERTICES = 36
"""``counts="auto"`` counts the tours from (to) each vertex on graphs of at most this many
vertices."""


@dataclass(frozen=True)
class GraphTourMap(MapCells):
    """Which vertices of a graph a tour starts on (``starts``), or which it ends on from a
    fixed start (``ends``), each decided by proof.

    ``ok[v]``, ``evidence[v]`` and ``counts[v]`` are indexed by vertex index (the order of
    :class:`~knightgraph.boards.graphboard.GraphBoard`); ``counts`` is None when not counted.

    Examples
    --------
    >>> import networkx as nx
    >>> m = graph_end_map(nx.path_graph(4), start=0)
    >>> m.squares(), m.counts, m.evidence[1].certificate.kind
    (['3'], [None, 0, 0, 1], 'degree')
    """

    board: GraphBoard
    kind: str
    closed: bool
    start: int | None
    ok: list[bool]
    evidence: dict[int, SearchResult]
    counts: list[int | None] | None
    seconds: float

    @property
    def candidates(self) -> list[int]:
        """The vertices decided: all for ``starts``; all but the start for ``ends``."""
        n = self.board.num_squares
        return [v for v in range(n) if v != self.start or n == 1]

    def _name(self, cell: int) -> str:
        return self.board.names[cell]

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph starts|ends --format json`` on a graph board: ``graph``,
        ``vertices``, ``ok`` and ``counts`` by vertex name, ``failures``, ``unknown``, the
        evidence by kind, and ``proofs`` (as :meth:`TourMap.to_dict
        <knightgraph.explore.maps.TourMap.to_dict>`: squares by vertex name)."""
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

    def text(self) -> str:
        """The map: on a board with topology a picture (rank 1 at the bottom, 3-D levels side
        by side; ``.`` a tour starts or ends there, ``X`` none does, ``?`` undecided, ``S``
        the fixed start), on other graphs the vertices by name; then the totals.

        Examples
        --------
        >>> from knightgraph.boards.topology import topology_board
        >>> print(graph_start_map(topology_board(2, 2, levels=2)).text())  # doctest: +ELLIPSIS
        2 | XX  XX
        1 | XX  XX
            ab  ab
        0 of 8 start squares admit an open tour of the board 2x2x2, 8 do not (... s)
        """
        names = self.board.names

        def mark(v: int) -> str:
            if v == self.start and self.board.num_squares > 1:
                return "S"
            if self.evidence[v].status is Status.ABORTED:
                return "?"
            return "." if self.ok[v] else "X"

        lines = _picture(self.board, mark) if self.board.shape is not None else []
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
            f"{self.board.kind}, {self.failures - len(self.unknown)} do not"
            + (f", {len(self.unknown)} undecided" if self.unknown else "")
            + f" ({self.seconds:.2f} s)"
        )
        return "\n".join(lines)


def _picture(board: GraphBoard, mark: Callable[[int], str]) -> list[str]:
    """Rows of marks, rank 1 at the bottom (3-D: the levels side by side)."""
    from ..boards.board import file_name

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


def graph_start_map(
    graph: Any,
    *,
    closed: bool = False,
    counts: bool | str = "auto",
    timeout: float | None = None,
    total_timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    executor: Executor | None = None,
) -> GraphTourMap:
    """Which vertices a tour of the graph can start on; each cell proved (see
    :func:`~knightgraph.start_map`, whose options these are).

    Notes
    -----
    One :func:`~knightgraph.tour_exists` per vertex (SAT, or the cheap certificates),
    and with ``counts`` one frontier count per vertex
    (:func:`~knightgraph.counting.general.count_graph_tours`); a count that disagrees
    with the search is an internal error.  No symmetry is used: a general graph's
    automorphisms are not known here.

    Examples
    --------
    >>> import networkx as nx
    >>> m = graph_start_map(nx.star_graph(2))  # a path of three vertices
    >>> m.squares(), m.counts
    (['1', '2'], [0, 1, 1])
    """
    timeouts = (timeout, total_timeout)
    return graph_map(graph, "starts", closed, None, counts, timeouts, progress, executor)


def graph_end_map(
    graph: Any,
    *,
    start: Any,
    closed: bool = False,
    counts: bool | str = "auto",
    timeout: float | None = None,
    total_timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    executor: Executor | None = None,
) -> GraphTourMap:
    """Which vertices a tour from ``start`` can end on; each cell proved (see
    :func:`~knightgraph.end_map`).

    Examples
    --------
    >>> from knightgraph.boards.topology import topology_board
    >>> graph_end_map(topology_board(3, 4, wrap="both"), start="a1", closed=True).squares()
    ['b2', 'c2', 'd2', 'b3', 'c3', 'd3']
    """
    timeouts = (timeout, total_timeout)
    return graph_map(graph, "ends", closed, start, counts, timeouts, progress, executor)


def graph_map(
    graph: Any,
    kind: str,
    closed: bool,
    first: Any,
    counts: bool | str,
    timeouts: tuple[float | None, float | None],
    progress: Callable[[dict[str, Any]], None] | None,
    executor: Executor | None,
) -> GraphTourMap:
    """The map of ``graph`` (a networkx graph or a GraphBoard); ``first``: the fixed start
    of an ``ends`` map, by label (None for ``starts``)."""
    from ..boards.graphboard import as_graph_board

    board = as_graph_board(graph)
    start = None if first is None else board.index(first)
    closed, timeout, total_timeout = map_options(closed, counts, timeouts)
    n = board.num_squares
    require_memory(
        n * (BYTES_PER_RESULT + BYTES_PER_TOUR_SQUARE * n),
        f"a map of the {board.describe()} (each vertex decided by a tour or a certificate)",
    )
    if counts == "auto":
        counts = n <= COUNT_AUTO_VERTICES
    began = time.perf_counter()
    candidates = [v for v in range(n) if v != start or n == 1]
    clock = (timeout, wall_deadline(total_timeout))
    results = run_map(
        executor,
        _graph_map_cell,
        len(candidates),
        lambda i: CellTask(board, kind, closed, start, candidates[i], clock, bool(counts)),
        progress,
        clock[1],
    )
    results += [(not_started(), None)] * (len(candidates) - len(results))
    ok = [False] * n
    evidence: dict[int, SearchResult] = {}
    table: list[int | None] | None = [None] * n if counts else None
    for v, (result, number) in zip(candidates, results, strict=True):
        ok[v] = result.found
        evidence[v] = result
        if table is not None:
            table[v] = number
        decided = number is not None and result.status is not Status.ABORTED
        if decided and ((number or 0) > 0) != result.found:
            raise KnightGraphError(
                f"internal error: {board.names[v]} has {number} tours but the search "
                f"says {result.status.name}"
            )
    return GraphTourMap(
        board, kind, closed, start, ok, evidence, table, time.perf_counter() - began
    )


def _graph_map_cell(task: CellTask) -> tuple[SearchResult, int | None]:
    """Decide one vertex (and count its tours when asked) within the cell's timeout."""
    board = task.board
    first, last = (task.cell, None) if task.kind == "starts" else (task.start, task.cell)
    s: Any = None if first is None else board.node(first)
    t: Any = None if last is None else board.node(last)
    return decide_cell(task, {"start": s, "end": t})
