"""Start and end maps: which squares a tour can start (or end) on, each cell proved.

Examples
--------
>>> result = start_map(3, 4)
>>> result.squares(), result.failures
(['a1', 'd1', 'a2', 'd2', 'a3', 'd3'], 6)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..boards.board import KNIGHT, Board, Square, SquareLike
from ..boards.coercion import as_any_board
from ..exceptions import InvalidOptionError, KnightGraphError
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
    sample_options,
    wall_deadline,
)

if TYPE_CHECKING:
    from ..running.parallel import Executor


@dataclass(frozen=True)
class TourMap(MapCells):
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

    Examples
    --------
    >>> m = start_map(5, 5, counts=False)   # open tours of 5x5 start on one colour only
    >>> len(m.squares()), bool(m.ok[0, 0]), bool(m.ok[0, 1]), m.evidence[(0, 1)].certificate.kind
    (13, True, False, 'colour-count')
    """

    board: Board
    kind: str
    closed: bool
    start: Square | None
    ok: np.ndarray[Any, Any]
    evidence: dict[Square, SearchResult]
    counts: np.ndarray[Any, Any] | None
    seconds: float
    sampled: list[Square] | None = None
    seed: int | None = None

    @property
    def candidates(self) -> list[Square]:
        """The squares decided: every square for ``starts``; all but the start for ``ends``;
        only the sampled ones with ``sample``."""
        if self.sampled is not None:
            return list(self.sampled)
        return [
            sq for sq in self.board.squares() if sq != self.start or self.board.num_squares == 1
        ]

    def _name(self, cell: Square) -> str:
        return self.board.name(cell)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph starts|ends --format json``: ``rows, cols, ok,
        failures, seconds`` (``ok[r][c]`` is square (r, c)), plus ``closed``, ``start``,
        ``counts`` (null where not counted), ``unknown``, the evidence by kind, and
        ``proofs``: for every decided square ``{"square", "found": true, "squares"}`` (a
        verified tour from it, or to it from ``start``) or ``{"square", "found": false,
        "certificate"}``, which ``python -m knightgraph.certcheck`` re-checks.

        Examples
        --------
        >>> proofs = end_map(3, 4, start="a1", counts=False).to_dict()["proofs"]
        >>> proofs[0]["square"], proofs[0]["found"], proofs[0]["certificate"]["kind"]
        ('b1', False, 'schwenk-4xn')
        >>> [p["square"] for p in proofs if p["found"]], proofs[-1]["squares"][0]
        (['a2', 'd3'], [0, 0])
        """
        counts = None
        if self.counts is not None:
            counts = [[None if x is None else int(x) for x in row] for row in self.counts.tolist()]
        ok: list[list[bool | None]] = self.ok.tolist()
        extra: dict[str, Any] = {}
        if self.sampled is not None:  # cells not sampled are null
            ok = [[None] * self.board.n for _ in range(self.board.m)]
            for r, c in self.sampled:
                ok[r][c] = bool(self.ok[r, c])
            extra = {"sampled": [self.board.name(sq) for sq in self.sampled], "seed": self.seed}
        return {
            "rows": self.board.m,
            "cols": self.board.n,
            "ok": ok,
            "failures": self.failures,
            "seconds": round(self.seconds, 6),
            "closed": self.closed,
            "start": None if self.start is None else self.board.name(self.start),
            "counts": counts,
            "unknown": self.unknown,
            "evidence": self._evidence_kinds(),
            **extra,
            "proofs": self._proofs(),
        }

    def text(self) -> str:
        """A picture of the board (rank 1 at the bottom, files under it) with a legend:
        ``.`` a tour starts (ends) there, ``X`` none does, ``?`` undecided, ``S`` the fixed
        start, a blank a removed square; the counts of each; then the numbers of tours
        per square when there are any (``-`` the fixed start).

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
        """
        board, what = self.board, "start" if self.kind == "starts" else "end"
        if self.sampled is not None:
            return self._sample_text(what)
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

    def _sample_text(self, what: str) -> str:
        """One line per sampled square: its name, the answer and its evidence."""
        board = self.board
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
    progress: Callable[[dict[str, Any]], None] | None = None,
    executor: Executor | None = None,
    sample: int | None = None,
    seed: int = 0,
) -> TourMap:
    """Which start squares admit a tour: exact, each cell backed by a tour or a certificate.

    ``m`` may be a networkx graph or a :class:`~knightgraph.boards.graphboard.GraphBoard` (a torus,
    a cylinder, a 3-D board), with no ``n``: the map is then a
    :class:`~knightgraph.explore.graphmaps.GraphTourMap` (cells by vertex).

    Every square is decided with :func:`~knightgraph.tour_exists` (a verified
    tour, or a checked certificate of absence), and, where counting is feasible
    (``counts=True``, or ``"auto"``: at most 36 squares with the compiled
    kernel, 25 without), the directed tours from each square are counted too (once per
    orbit of the board's symmetries) and held against the existence answers.
    ``timeout`` bounds the work on each square, its search and its count
    together: a square whose search gives up is listed in ``unknown``, a count
    that runs out of time is left out (``None``).  ``total_timeout`` bounds
    the whole map: each square gets at most what is left, and the squares not
    started by then are ``unknown``.  ``sample=K`` decides only ``K`` squares
    drawn at random (``seed``), for boards too large to fill: the others stay
    False in ``ok`` (null in the JSON) and no tours are counted; a graph's map
    decides every vertex (``sample`` is refused there).

    Examples
    --------
    >>> sampled = start_map(40, 41, sample=3, seed=1).to_dict()
    >>> sampled["sampled"], sampled["ok"][6][29], sampled["ok"][0][0]  # ad7 sampled, a1 not
    (['ad7', 'r29', 'g39'], True, None)
    >>> result = start_map(5, 5)
    >>> len(result.squares()), result.failures, int(result.counts[0, 0]), int(result.counts[2, 2])
    (13, 12, 304, 64)
    >>> from knightgraph.boards.topology import topology_board  # a graph: knightgraph.explore.graphmaps
    >>> start_map(topology_board(3, 3, levels=2)).failures
    18
    """
    timeouts = (timeout, total_timeout)
    rest = (counts, timeouts, progress, executor, (sample, seed))
    return _any_map(m, n, "starts", None, closed, (leaper, removed), *rest)


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
    progress: Callable[[dict[str, Any]], None] | None = None,
    executor: Executor | None = None,
    sample: int | None = None,
    seed: int = 0,
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
    timeouts = (timeout, total_timeout)
    rest = (counts, timeouts, progress, executor, (sample, seed))
    return _any_map(m, n, "ends", start, closed, (leaper, removed), *rest)


def _any_map(
    m: Any,
    n: int | None,
    kind: str,
    start: Any,
    closed: bool,
    shape: tuple[tuple[int, int], Iterable[SquareLike]],
    counts: bool | str,
    timeouts: tuple[float | None, float | None],
    progress: Callable[[dict[str, Any]], None] | None,
    executor: Executor | None,
    sampling: tuple[int | None, int],
) -> TourMap:
    """Route a map: a graph to :mod:`.graphmaps`, a board to :func:`_tour_map`."""
    leaper, removed = shape
    board = as_any_board(m, n, leaper=leaper, removed=removed)
    if not isinstance(board, Board):  # any graph: knightgraph.explore.graphmaps
        from .graphmaps import graph_map

        if sampling[0] is not None:
            raise InvalidOptionError(
                f"invalid sample {sampling[0]!r}: a map of a graph decides every vertex "
                "(sample is for boards of squares)"
            )
        found = graph_map(board, kind, closed, start, counts, timeouts, progress, executor)
        return cast(TourMap, found)
    s = None if start is None else board.parse_square(start)
    return _tour_map(board, kind, closed, s, counts, timeouts, progress, executor, sampling)


def _tour_map(
    board: Board,
    kind: str,
    closed: bool,
    start: Square | None,
    counts: bool | str,
    timeouts: tuple[float | None, float | None],
    progress: Callable[[dict[str, Any]], None] | None,
    executor: Executor | None,
    sampling: tuple[int | None, int] = (None, 0),
) -> TourMap:
    """A board's map: one certificate settles every cell, or each is decided (and counted)."""
    closed, timeout, total_timeout = map_options(closed, counts, timeouts)
    sample, seed = sampling
    with_counts = _count_option(board, counts, sample, seed)
    began = time.perf_counter()
    candidates = [sq for sq in board.squares() if sq != start or board.num_squares == 1]
    if sample is not None:  # ``sample`` of them, drawn with ``seed``
        picked = random.Random(seed).sample(range(len(candidates)), min(sample, len(candidates)))
        candidates = [candidates[i] for i in picked]
    cells = _settled_cells(board, kind, closed, start, candidates, with_counts, progress)
    if cells is None:
        clock = (timeout, wall_deadline(total_timeout))
        orbits = _orbit_representatives(board, start, candidates) if with_counts else None

        def task(i: int) -> CellTask:
            cell = candidates[i]
            with_count = orbits is not None and orbits[cell] == cell
            return CellTask(board, kind, closed, start, cell, clock, with_count)

        results = run_map(executor, _map_cell, len(candidates), task, progress, clock[1])
        results += [(not_started(), None)] * (len(candidates) - len(results))
        cells = _tally(board, candidates, results, orbits)
    ok, evidence, table = cells
    drawn, drawn_seed = (None, None) if sample is None else (candidates, seed)
    seconds = time.perf_counter() - began
    return TourMap(board, kind, closed, start, ok, evidence, table, seconds, drawn, drawn_seed)


def _count_option(board: Board, counts: bool | str, sample: int | None, seed: int) -> bool:
    """Whether the map counts tours, once the sample is checked and its memory fits."""
    from ..counting import kernel_available

    if sample is not None:
        sample_options(sample, seed, counts)
        require_memory(
            min(sample, board.num_squares) * BYTES_PER_TOUR_SQUARE * board.num_squares,
            f"{sample} sampled cells of {board.m}x{board.n}",
        )
        return False
    require_memory(
        map_bytes(board),
        f"a map of {board.m}x{board.n} ({board.num_squares:,} "
        "squares, each decided by a tour or a certificate)",
    )
    if counts == "auto":
        limit = COUNT_AUTO_SQUARES if kernel_available() else COUNT_AUTO_SQUARES_PYTHON
        return board.num_squares <= limit
    return bool(counts)


_Cells = tuple[Any, dict[Square, SearchResult], Any]  # ok, evidence, counts (or None)


def _settled_cells(
    board: Board,
    kind: str,
    closed: bool,
    start: Square | None,
    candidates: list[Square],
    with_counts: bool,
    progress: Callable[[dict[str, Any]], None] | None,
) -> _Cells | None:
    """No tour at all: one certificate settles every cell (issue 15); None: there may be."""
    from ..counting.zeros import settled_map

    settled = settled_map(board, closed=closed, kind=kind, start=start, candidates=candidates)
    if settled is None:
        return None
    zeros = None
    if with_counts:
        zeros = np.full((board.m, board.n), None, dtype=object)
        for sq in candidates:
            zeros[sq] = 0
    if progress is not None:
        progress({"done": len(candidates), "total": len(candidates)})
    return np.zeros((board.m, board.n), dtype=bool), settled, zeros


def _orbit_representatives(
    board: Board, start: Square | None, candidates: list[Square]
) -> dict[Square, Square]:
    """Each square's least image under the symmetries fixing the start: counted once."""
    n, fixed = board.n, None if start is None else start[0] * board.n + start[1]
    sym = [p for p in board.symmetries().values() if fixed is None or int(p[fixed]) == fixed]
    return {sq: min({board.square(int(p[sq[0] * n + sq[1]])) for p in sym}) for sq in candidates}


def _tally(
    board: Board,
    candidates: list[Square],
    results: list[tuple[SearchResult, int | None]],
    orbits: dict[Square, Square] | None,
) -> _Cells:
    """``ok``, ``evidence`` and (with ``orbits``) each square's count held against its search."""
    ok = np.zeros((board.m, board.n), dtype=bool)
    evidence: dict[Square, SearchResult] = {}
    counted: dict[Square, int] = {}
    for sq, (result, number) in zip(candidates, results, strict=True):
        ok[sq] = result.found
        evidence[sq] = result
        if number is not None:
            counted[sq] = number
    if orbits is None:
        return ok, evidence, None
    table = np.full((board.m, board.n), None, dtype=object)
    for sq in candidates:
        found = counted.get(orbits[sq])  # None: the count stopped at the timeout
        table[sq] = found
        result = evidence[sq]
        if found is None:
            continue
        if result.status is not Status.ABORTED and (found > 0) != result.found:
            raise KnightGraphError(
                f"internal error: {board.name(sq)} has {found} tours but the search says "
                f"{result.status.name}"
            )
    return ok, evidence, table


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


def _map_cell(task: CellTask) -> tuple[SearchResult, int | None]:
    """Decide one square; count its tours too when asked (:func:`._run.decide_cell`)."""
    if task.kind == "starts":
        return decide_cell(task, {"start": task.cell})
    return decide_cell(task, {"start": task.start, "end": task.cell})
