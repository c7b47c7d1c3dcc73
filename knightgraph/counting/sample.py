"""Tours drawn uniformly at random (:func:`sample_tours`) from the frontier dynamic program.

The program of :func:`~knightgraph.count_tours` runs once more, keeping what it usually
throws away: for every step, which state each state leads to and by which choice of
edges (a transition graph, layered by step).  A backward pass over those layers gives
every state its number of *completions*, the tours that extend it; a tour is then drawn
from the first state forwards, each step taking a transition with probability
proportional to the completions of the state it leads to.  The probability of a tour is
the product of these ratios, which telescopes to ``1 / total``: each tour is equally
likely, exactly (the random numbers are whole numbers below the counts, drawn with
Python's :class:`random.Random`, exact for counts of any size).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.coercion import as_any_board
from ..exceptions import BoardTooLargeError
from ..running.budget import Budget
from ..running.resources import require_memory
from ..tours.htmlrepr import fields_table, name_list, numbered_grid, side_by_side
from ..tours.results import Certificate
from ..tours.tour import Tour
from ..tours.verify import check_closed
from .count import neighbours
from .limits import (
    CountAbortedError,
    Drawn,
    answer_frame,
    end_indices,
    memory_budget,
    outcome_fields,
    request_fields,
    require_plan_memory,
)
from .transitions import TRANSITION_BYTES as TRANSITION_BYTES
from .transitions import Drawing, check_sample, draw_tours
from .zeros import quick_zero

if TYPE_CHECKING:
    from ..boards.graphboard import GraphBoard

SAMPLE_MAX_SPAN = 12
"""The largest ``min(m, n) * max(leaper)`` :func:`sample_tours` takes on: the frontier of
the program is about that many squares wide and its states grow exponentially with it
(a knight on boards with up to 6 ranks or files; the sampler runs the Python engine)."""

SAMPLE_ZERO_AREA = 1 << 16
"""Boards of at most this many cells that are too large to sample are still answered when
a cheap certificate shows they have no tour (it needs board-sized arrays)."""

SAMPLE_SHOWN = 4
"""The most tours a sample shows in a notebook (``r.tours`` holds them all)."""

SAMPLE_MAX_WIDTH = 16
"""The widest frontier (:func:`~knightgraph.counting.vertexorder.vertex_order`) the sampler
takes on for a graph board: its states grow exponentially with the width (the Python
engine keeps every transition), and rectangles are refused at about 12."""


@dataclass(frozen=True)
class SampleResult(Drawn):
    """Tours drawn uniformly at random, and how many there were to draw from.

    Attributes
    ----------
    tours : list of Tour
        The tours drawn (verified), ``k`` of them unless the budget ran out
        or there are none.
    directed : int or None
        How many tours of the kind asked for exist (``count_tours(...).directed``);
        None when the budget ran out before the count was complete.
    status : Status
        FOUND (``k`` tours drawn), PROVEN_ABSENT (there is no tour) or ABORTED
        (``reason`` says why).
    certificate : Certificate or None
        Why there is no tour, when a cheap argument shows it (checked).

    Examples
    --------
    >>> r = sample_tours(5, 6, k=3, closed=True, seed=0)
    >>> r.status.name, r.directed, len(r.tours), r.tours[0].closed
    ('FOUND', 16, 3, True)
    >>> sample_tours(4, 4, k=1).status.name  # no open tour on 4x4
    'PROVEN_ABSENT'
    >>> import networkx as nx  # a graph: no certificate, the exact count of 0 is the answer
    >>> r = sample_tours(nx.petersen_graph(), k=1, closed=True)
    >>> r.status.name, r.directed, r.tours, r.certificate
    ('PROVEN_ABSENT', 0, [], None)
    """

    board: Board | GraphBoard
    closed: bool
    start: int | None
    end: int | None
    k: int
    seed: int | None
    tours: list[Tour]
    directed: int | None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    certificate: Certificate | None = None

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the request, how many tours were drawn out of how
        many, the status and the time, then the first :data:`SAMPLE_SHOWN` tours, numbered
        boards side by side (a graph's as lists of vertices).

        Examples
        --------
        >>> html = sample_tours(5, 6, k=3, closed=True, seed=0)._repr_html_()
        >>> "3 of 16 directed tours" in html, html.count("<caption>"), len(html) < 8000
        (True, 3, True)
        """
        drawn = None
        if self.directed:
            drawn = f"{len(self.tours)} of {self.directed:,} directed tours, each equally likely"
            drawn += "" if self.seed is None else f" (seed {self.seed})"
        elif self.directed == 0:
            drawn = "none: there is no tour to draw"
        fields = [
            *request_fields(self),
            ("drawn", drawn),
            *outcome_fields(self),
        ]
        shown = self.tours[:SAMPLE_SHOWN]
        if len(self.tours) > len(shown):
            fields.append(("shown", f"the first {len(shown)} (all in .tours)"))
        grids = [numbered_grid(tour, f"tour {i + 1}") for i, tour in enumerate(shown)]
        if all(grids):
            return fields_table("Sample of tours", fields, side_by_side(g or "" for g in grids))
        fields += [(f"tour {i + 1}", name_list(t.algebraic(), 12)) for i, t in enumerate(shown)]
        return fields_table("Sample of tours", fields)

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON: the board (``rows``, ``cols``; a graph's ``graph`` and
        ``vertices``), the request, ``directed``, ``tours`` (lists of ``[r, c]``; of vertex
        names), ``seconds``, ``status`` (a graph's ``width``), and ``reason`` /
        ``certificate`` when there are any.

        Examples
        --------
        >>> sample_tours(3, 4, k=1, start="a1", seed=2).to_dict()["tours"][0][:3]
        [[0, 0], [1, 2], [2, 0]]
        >>> import networkx as nx
        >>> sample_tours(nx.cycle_graph(4), k=1, closed=True, seed=0).to_dict()["tours"]
        [['0', '1', '2', '3']]
        """
        head, name, tail = answer_frame(self.board, self.stats)
        tours = [t.to_dict()["squares"] for t in self.tours]
        return self._answer(head, name, tours, tail)


def sample_tours(
    m: int | Board,
    n: int | None = None,
    *,
    k: int,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    seed: int | None = None,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    memory: int | None = None,
    timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> SampleResult:
    """Draw ``k`` tours uniformly at random (independently, with repetition), each verified.

    Uniform over the tours that :func:`~knightgraph.count_tours` counts as
    directed: closed tours from ``start`` (or from the first square, a1 on a
    full board) in either direction, open tours as sequences of squares.

    Parameters
    ----------
    m, n : int or Board
        The board (``n`` defaults to ``m``); or a :class:`~knightgraph.Board`; or a
        networkx graph or :class:`~knightgraph.boards.graphboard.GraphBoard` (a torus, a
        cylinder, a 3-D board), with no ``n``: its Hamiltonian paths or cycles, over the
        vertex order of :func:`~knightgraph.counting.vertexorder.vertex_order`.
    k : int
        How many tours to draw (>= 1).
    closed : bool
        Closed tours instead of open ones.
    start, end : square, optional
        The first and/or last square (a closed tour from ``start`` to ``end``
        uses the move between them).
    seed : int, optional
        Seed of the random numbers: the same seed gives the same tours.
    leaper, removed
        As for :class:`~knightgraph.Board`.
    memory : int, optional
        Bytes the program may keep (default: 80 % of the free memory); past
        them the result is ABORTED.
    timeout : float, optional
        Seconds; past them the result is ABORTED (the clock is read every few
        milliseconds).
    progress : callable, optional
        Called with ``{"done", "total"}``: the steps of the program done, then the
        tours drawn after them (``total`` is the number of steps plus ``k``).

    Returns
    -------
    SampleResult

    Raises
    ------
    BoardTooLargeError
        Before any counting (on boards of at most 65,536 cells a cheap
        certificate of absence is looked for first: such a board without
        tours answers PROVEN_ABSENT), on boards too large to count this way:
        ``min(m, n) * max(leaper)`` over :data:`SAMPLE_MAX_SPAN` (12: a knight
        on boards with at most 6 ranks or files), a graph whose frontier is wider
        than :data:`SAMPLE_MAX_WIDTH`, or when the plan or the tours cannot fit
        in memory.
    InvalidOptionError, InvalidSquareError
        For a bad ``k``, ``seed``, budget or square.

    Notes
    -----
    The forward pass visits every state of the program once, as the count
    does (6x6 closed: 0.6 million states, a few seconds in Python), and keeps
    its transitions (about 24 bytes each); the backward pass sums completions
    with numpy (in float64 when every count stays below 2**53, where that is
    exact, else with Python integers).  A tour then costs one step of the
    program per square: ``k`` tours take O(k * mn) after the passes.  States
    that lead nowhere get 0 completions and are never entered, so no drawn
    tour is rejected.

    Examples
    --------
    >>> r = sample_tours(3, 4, k=4, seed=1)
    >>> r.directed, [t.algebraic()[0] for t in r.tours]
    (16, ['d2', 'a1', 'a1', 'a2'])
    >>> r = sample_tours(5, 5, k=2, start="a1", end="e5", seed=1)
    >>> [(t.algebraic()[0], t.algebraic()[-1]) for t in r.tours]
    [('a1', 'e5'), ('a1', 'e5')]
    >>> import networkx as nx  # a graph: its Hamiltonian paths or cycles, uniformly
    >>> r = sample_tours(nx.dodecahedral_graph(), k=2, closed=True, seed=3)
    >>> r.directed, r.tours[0].start, len(r.tours[1].nodes())
    (60, 0, 20)
    >>> r = sample_tours(nx.hypercube_graph(4), k=3, start=(0, 0, 0, 0), seed=7)
    >>> r.directed, [t.start for t in r.tours] == [(0, 0, 0, 0)] * 3, r.stats["width"]
    (5712, True, 8)
    """
    board = as_any_board(m, n, leaper=leaper, removed=removed)
    closed = check_closed(closed)
    check_sample(k, seed, memory, timeout)
    s, t = end_indices(board, start, end)
    _require_span(board, zeros=True)  # not even the cheap arguments are worth their memory
    began = time.perf_counter()
    drawing = Drawing(closed, s, t, k, seed)
    reason, certificate = "", None
    zero = quick_zero(board, closed=closed, start=s, end=t)  # None for a graph board
    if zero is not None:
        drawing.directed, certificate, reason = 0, zero, zero.reason
        drawing.stats["quick_zero"] = zero.kind
    else:
        budget = Budget(timeout)
        try:
            order = _order(board, drawing, budget)
            require_plan_memory(board, "sampling the tours of")  # a rectangle's
            _draw(board, order, drawing, memory_budget(memory, compiled=False), budget, progress)
        except CountAbortedError as stop:  # one budget behaviour: an ABORTED result
            reason = str(stop)
            drawing.stats["done"] = stop.done
    seconds = time.perf_counter() - began
    tours, directed, stats = drawing.tours, drawing.directed, drawing.stats
    return SampleResult(
        board, closed, s, t, k, seed, tours, directed, seconds, stats, reason, certificate
    )


def _require_span(board: Board | GraphBoard, zeros: bool = False) -> None:
    """BoardTooLargeError for a rectangle whose frontier is too wide to sample (with
    ``zeros``: only when it is also too large for the cheap arguments; a graph board's
    frontier is checked on its vertex order, by :func:`_order`)."""
    rect = board.rectangle
    if rect is None:
        return
    span = min(rect.m, rect.n) * max(rect.leaper)
    if span > SAMPLE_MAX_SPAN and not (zeros and rect.area <= SAMPLE_ZERO_AREA):
        raise BoardTooLargeError(
            f"board {rect.m}x{rect.n} is too large to sample: the counting program's "
            f"frontier would be about {span} squares wide (at most {SAMPLE_MAX_SPAN}: "
            "min(m, n) times the longer leap)"
        )


def _order(board: Board | GraphBoard, drawing: Drawing, budget: Budget) -> list[int] | None:
    """The vertex order of a graph board (None for a rectangle: its columns), after the
    checks of its size (the span of a rectangle, the frontier width of a graph) and of the
    memory of the ``k`` tours."""
    rect, k = board.rectangle, drawing.k
    if rect is not None:
        _require_span(rect)
        squares = rect.num_squares
        require_memory(k * squares * 16, f"{k:,} tours of {rect.m}x{rect.n} ({squares:,} squares)")
        return None
    from .vertexorder import vertex_order

    graph = cast("GraphBoard", board)  # what is not a rectangle is a graph board
    order, width = vertex_order(graph, budget)
    drawing.stats["width"] = width
    if width > SAMPLE_MAX_WIDTH:
        raise BoardTooLargeError(
            f"the {graph.describe()} is too large to sample: the counting program's "
            f"frontier is {width} vertices wide (at most {SAMPLE_MAX_WIDTH})"
        )
    require_memory(k * graph.num_squares * 16, f"{k:,} tours {graph.wording()[0]}")
    return order


def _draw(
    board: Board | GraphBoard,
    order: list[int] | None,
    drawing: Drawing,
    memory: int,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
) -> None:
    """Fill ``drawing``: the count, then the tours (CountAbortedError at the budget)."""
    closed, s, t = drawing.closed, drawing.start, drawing.end
    if board.num_squares == 1:
        drawing.directed = 0 if closed else 1
        if not closed:
            only = int(np.flatnonzero(board.available())[0])
            drawing.tours = [Tour(board, np.array([only]), False) for _ in range(drawing.k)]
        return
    from .plan import build_graph, local_ids, make_plan, request_edges

    plan = build_graph(board, not closed, budget, order=order)  # None: by columns
    if plan.vertices < 3 or (
        closed and s is not None and t is not None and t not in neighbours(board, s)
    ):
        drawing.directed = 0
        return
    local = local_ids(plan.squares)
    steps = make_plan(plan, None, *request_edges(local, closed, s, t), budget)

    def tour_of(seq: list[int]) -> Tour:
        return Tour(board, np.array(seq, dtype=np.int64), closed)

    draw_tours(drawing, plan, steps, memory, budget, progress, tour_of)
