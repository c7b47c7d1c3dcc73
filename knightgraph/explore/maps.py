"""Start and end maps of every board kind: which squares (or vertices) a tour can start
(or end) on, each cell proved.

One computation serves a board of squares and any graph board (a torus, a cylinder, a 3-D
board, any networkx graph): every candidate cell is decided by
:func:`~knightgraph.tour_exists` (a verified tour from it, or to it from the start, or a
certificate of absence the independent checker accepted), counted where that is cheap, and
each count held against its search.  Only the cells and the presentation follow the board:
squares ``(r, c)`` of an m x n grid, or vertex indices.

Examples
--------
>>> result = start_map(3, 4)
>>> result.squares(), result.failures
(['a1', 'd1', 'a2', 'd2', 'a3', 'd3'], 6)
>>> from knightgraph.boards.topology import topology_board
>>> m = start_map(topology_board(3, 3, wrap="cols"), closed=False)
>>> m.squares(), m.failures
(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3'], 0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.coercion import as_any_board
from ..exceptions import InvalidOptionError, KnightGraphError
from ..running.budget import Budget
from ..running.resources import require_memory
from ..tours.results import SearchResult, Status
from ._chunks import (
    BYTES_PER_RESULT,
    BYTES_PER_TOUR_SQUARE,
    CellTask,
    decide_cell,
    map_options,
    not_started,
    run_map,
    sample_options,
)
from .tourmap import TourMap, map_candidates, on_squares

if TYPE_CHECKING:
    from ..boards.graphboard import GraphBoard
    from ..running.parallel import Executor


COUNT_AUTO_SQUARES = 36
"""``counts="auto"`` counts tours per cell on boards (and graphs) of at most this many
squares (vertices)."""

COUNT_AUTO_SQUARES_PYTHON = 25
"""The same on a board of squares without the compiled counting kernel (the Python engine is
some 30x slower: a 5x5 map is counted in a second or two, a 6x6 one would take minutes)."""


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
    a cylinder, a 3-D board), with no ``n``: the map's cells are then its vertices (by index),
    each decided the same way (:func:`on_squares`).

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
    >>> from knightgraph.boards.topology import topology_board  # a graph: cells by vertex
    >>> start_map(topology_board(3, 3, levels=2)).failures
    18
    >>> import networkx as nx
    >>> m = start_map(nx.star_graph(2))  # a path of three vertices
    >>> m.squares(), m.counts
    (['1', '2'], [0, 1, 1])
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
    >>> from knightgraph.boards.topology import topology_board
    >>> end_map(topology_board(3, 4, wrap="both"), start="a1", closed=True).squares()
    ['b2', 'c2', 'd2', 'b3', 'c3', 'd3']
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
    """The map of any board kind: the board (:func:`~knightgraph.boards.coercion.as_any_board`)
    and the start's cell, then :func:`_tour_map`."""
    leaper, removed = shape
    board = as_any_board(m, n, leaper=leaper, removed=removed)
    if sampling[0] is not None and not on_squares(board):
        raise InvalidOptionError(
            f"invalid sample {sampling[0]!r}: a map of a graph decides every vertex "
            "(sample is for boards of squares)"
        )
    cell = None if start is None else board.cell(start)
    return _tour_map(board, kind, closed, cell, counts, timeouts, progress, executor, sampling)


def _tour_map(
    board: Board | GraphBoard,
    kind: str,
    closed: bool,
    start: Any,
    counts: bool | str,
    timeouts: tuple[float | None, float | None],
    progress: Callable[[dict[str, Any]], None] | None,
    executor: Executor | None,
    sampling: tuple[int | None, int] = (None, 0),
) -> TourMap:
    """A map: one certificate settles every cell, or each is decided (and counted)."""
    closed, timeout, total_timeout = map_options(closed, counts, timeouts)
    sample, seed = sampling
    with_counts = _count_option(board, counts, sample, seed)
    began = time.perf_counter()
    candidates = map_candidates(board, start)
    if sample is not None:  # ``sample`` of them, drawn with ``seed``
        picked = random.Random(seed).sample(range(len(candidates)), min(sample, len(candidates)))
        candidates = [candidates[i] for i in picked]
    cells = _settled_cells(board, kind, closed, start, candidates, with_counts, progress)
    if cells is None:
        clock = (timeout, Budget(total_timeout).wall_deadline())
        orbits = _orbit_representatives(board, start, candidates) if with_counts else None

        def task(i: int) -> CellTask:
            cell = candidates[i]
            with_count = orbits is not None and orbits[cell] == cell
            return CellTask(board, closed, _ends(board, kind, start, cell), clock, with_count)

        results = run_map(executor, decide_cell, len(candidates), task, progress, clock[1])
        results += [(not_started(), None)] * (len(candidates) - len(results))
        cells = _tally(board, candidates, results, orbits)
    ok, evidence, table = cells
    drawn, drawn_seed = (None, None) if sample is None else (candidates, seed)
    seconds = time.perf_counter() - began
    return TourMap(board, kind, closed, start, ok, evidence, table, seconds, drawn, drawn_seed)


def _ends(board: Board | GraphBoard, kind: str, start: Any, cell: Any) -> dict[str, Any]:
    """The question a cell asks :func:`~knightgraph.tour_exists`: the start (and the end)
    as the board takes them (a square, or a vertex)."""
    if kind == "starts":
        return {"start": board.cell_square(cell)}
    return {"start": board.cell_square(start), "end": board.cell_square(cell)}


def _count_option(
    board: Board | GraphBoard, counts: bool | str, sample: int | None, seed: int
) -> bool:
    """Whether the map counts tours, once the sample is checked and its memory fits."""
    from ..counting import kernel_available

    if sample is not None and on_squares(board):  # a graph's sample is refused before
        sample_options(sample, seed, counts)
        require_memory(
            min(sample, board.num_squares) * BYTES_PER_TOUR_SQUARE * board.num_squares,
            f"{sample} sampled cells of {board.m}x{board.n}",
        )
        return False
    if on_squares(board):
        what = (
            f"a map of {board.m}x{board.n} ({board.num_squares:,} "
            "squares, each decided by a tour or a certificate)"
        )
    else:
        what = f"a map of the {board.describe()} (each vertex decided by a tour or a certificate)"
    require_memory(map_bytes(board), what)
    if counts == "auto":  # the compiled kernel counts boards of squares; graphs count alike
        fast = not on_squares(board) or kernel_available()
        return board.num_squares <= (COUNT_AUTO_SQUARES if fast else COUNT_AUTO_SQUARES_PYTHON)
    return bool(counts)


_Cells = tuple[Any, dict[Any, SearchResult], Any]  # ok, evidence, counts (or None)


def _settled_cells(
    board: Board | GraphBoard,
    kind: str,
    closed: bool,
    start: Any,
    candidates: list[Any],
    with_counts: bool,
    progress: Callable[[dict[str, Any]], None] | None,
) -> _Cells | None:
    """No tour at all: one certificate settles every cell (issue 15, boards of squares only);
    None: there may be."""
    from ..counting.zeros import settled_map

    if not on_squares(board):
        return None
    settled = settled_map(board, closed=closed, kind=kind, start=start, candidates=candidates)
    if settled is None:
        return None
    zeros = None
    if with_counts:
        zeros = board.cell_table(None, object)
        for sq in candidates:
            zeros[sq] = 0
    if progress is not None:
        progress({"done": len(candidates), "total": len(candidates)})
    return board.cell_table(False, bool), settled, zeros


def _orbit_representatives(
    board: Board | GraphBoard, start: Any, candidates: list[Any]
) -> dict[Any, Any]:
    """Each cell's least image under the symmetries fixing the start: counted once.  Only a
    board of squares knows its symmetries (a general graph's automorphisms are not known
    here): a graph's every cell is its own representative."""
    if not on_squares(board):
        return {cell: cell for cell in candidates}
    n, fixed = board.n, None if start is None else start[0] * board.n + start[1]
    sym = [p for p in board.symmetries().values() if fixed is None or int(p[fixed]) == fixed]
    return {sq: min({board.square(int(p[sq[0] * n + sq[1]])) for p in sym}) for sq in candidates}


def _tally(
    board: Board | GraphBoard,
    candidates: list[Any],
    results: list[tuple[SearchResult, int | None]],
    orbits: dict[Any, Any] | None,
) -> _Cells:
    """``ok``, ``evidence`` and (with ``orbits``) each cell's count held against its search."""
    ok = board.cell_table(False, bool)
    evidence: dict[Any, SearchResult] = {}
    counted: dict[Any, int] = {}
    for cell, (result, number) in zip(candidates, results, strict=True):
        ok[cell] = result.found
        evidence[cell] = result
        if number is not None:
            counted[cell] = number
    if orbits is None:
        return ok, evidence, None
    table = board.cell_table(None, object)
    for cell in candidates:
        found = counted.get(orbits[cell])  # None: the count stopped at the timeout
        table[cell] = found
        result = evidence[cell]
        if found is None:
            continue
        if result.status is not Status.ABORTED and (found > 0) != result.found:
            raise KnightGraphError(
                f"internal error: {board.cell_name(cell)} has {found} tours but the search says {result.status.name}"
            )
    return ok, evidence, table


def map_bytes(board: Board | GraphBoard) -> int:
    """About the memory of :func:`start_map` or :func:`end_map`: a result per cell, most with
    a tour of the whole board.

    Examples
    --------
    >>> map_bytes(Board(8, 8)) < 2**20 < map_bytes(Board(1000, 1000))
    True
    """
    squares = board.num_squares
    return squares * (BYTES_PER_RESULT + BYTES_PER_TOUR_SQUARE * squares)
