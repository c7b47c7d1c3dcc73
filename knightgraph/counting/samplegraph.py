"""Tours of any graph drawn uniformly at random: :func:`sample_tours` given a graph.

The sampler (:mod:`~knightgraph.counting.transitions`) works on the frontier program's
transition graph, whatever the vertices are; a rectangle processes its squares column
by column, a general graph in the order :func:`~knightgraph.counting.general.vertex_order`
chooses (the order of :func:`~knightgraph.count_tours` on graphs).  The tours are
uniform over those ``count_tours(graph, ...)`` counts as ``directed``: vertex
sequences for open tours, closed tours from ``start`` (or from the first vertex) in
either direction.

Examples
--------
>>> import networkx as nx
>>> from knightgraph.boards.graphboard import GraphBoard
>>> r = sample_graph_tours(GraphBoard.from_networkx(nx.hypercube_graph(3)), k=2, closed=True,
...                        seed=1)
>>> r.status.name, r.directed, r.tours[0].start, r.stats["width"]
('FOUND', 12, (0, 0, 0), 5)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..boards.graphboard import GraphBoard
from ..exceptions import BoardTooLargeError
from ..running.budget import Budget
from ..running.resources import require_memory
from ..tours.tour import Tour
from ..tours.verify import check_closed
from .general import vertex_order
from .limits import (
    CountAbortedError,
    Drawn,
    end_indices,
    memory_budget,
)
from .plan import make_plan, order_graph, request_edges
from .transitions import Drawing, check_sample, draw_tours

__all__ = ["SAMPLE_MAX_WIDTH", "GraphSampleResult", "sample_graph_tours"]

SAMPLE_MAX_WIDTH = 16
"""The widest frontier (:func:`~knightgraph.counting.general.vertex_order`) the sampler
takes on: its states grow exponentially with the width (the Python engine keeps every
transition), and boards are refused at about 12."""


@dataclass(frozen=True)
class GraphSampleResult(Drawn):
    """Tours of a graph board drawn uniformly at random, with the interface of
    :class:`~knightgraph.SampleResult` (``tours``, ``directed``, ``status``, ``to_dict``).

    Examples
    --------
    >>> import networkx as nx
    >>> r = sample_graph_tours(GraphBoard.from_networkx(nx.petersen_graph()), k=1, closed=True)
    >>> r.status.name, r.directed, r.tours
    ('PROVEN_ABSENT', 0, [])
    """

    board: GraphBoard
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
    certificate: None = None  # the exact count of zero is the answer; no certificate

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the graph, the request, ``directed``, ``status``, and the tours as
        lists of vertex names.

        Examples
        --------
        >>> import networkx as nx
        >>> g = GraphBoard.from_networkx(nx.cycle_graph(4))
        >>> sample_graph_tours(g, k=1, closed=True, seed=0).to_dict()["tours"]
        [['0', '1', '2', '3']]
        """
        board = self.board
        head = {"graph": board.kind, "vertices": board.num_squares}
        tours = [t.algebraic() for t in self.tours]
        return self._answer(
            head, board.names.__getitem__, tours, {"width": self.stats.get("width")}
        )


def sample_graph_tours(
    board: GraphBoard,
    *,
    k: int,
    closed: bool = False,
    start: Any = None,
    end: Any = None,
    seed: int | None = None,
    memory: int | None = None,
    timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> GraphSampleResult:
    """Draw ``k`` Hamiltonian paths (open) or cycles (closed) of a graph uniformly at random.

    Parameters are those of :func:`~knightgraph.sample_tours`; ``start`` and ``end`` are
    vertices (or their names).

    Raises
    ------
    BoardTooLargeError
        Before any counting, when the frontier of the vertex order is wider than
        :data:`SAMPLE_MAX_WIDTH`.
    InvalidOptionError, InvalidSquareError
        For a bad ``k``, ``seed``, budget or vertex.

    Notes
    -----
    The vertex order and its frontier width come from
    :func:`~knightgraph.counting.general.vertex_order`; the forward pass keeps every
    transition of the program and the backward pass gives each state its completions,
    so each tour is drawn with probability exactly ``1 / directed`` (see
    (:mod:`~knightgraph.counting.transitions`).  Cost: the states of the program (exponential
    in the width), then O(V) per tour.  Each tour is verified as a
    :class:`~knightgraph.Tour` of the graph board.

    Examples
    --------
    >>> import networkx as nx
    >>> q = GraphBoard.from_networkx(nx.hypercube_graph(4))
    >>> r = sample_graph_tours(q, k=3, start=(0, 0, 0, 0), seed=7)
    >>> r.directed, [t.start for t in r.tours] == [(0, 0, 0, 0)] * 3
    (5712, True)
    """
    closed = check_closed(closed)
    check_sample(k, seed, memory, timeout)
    s, t = end_indices(board, start, end, board.names.__getitem__, "vertex")
    began = time.perf_counter()
    budget = Budget(timeout)
    drawing = Drawing(closed, s, t, k, seed)
    reason = ""
    try:
        order, width = vertex_order(board, budget)
        drawing.stats["width"] = width
        if width > SAMPLE_MAX_WIDTH:
            raise BoardTooLargeError(
                f"the {board.describe()} is too large to sample: the counting program's "
                f"frontier is {width} vertices wide (at most {SAMPLE_MAX_WIDTH})"
            )
        require_memory(k * board.num_squares * 16, f"{k:,} tours of the {board.describe()}")
        room = memory_budget(memory, compiled=False)
        _draw(board, drawing, order, room, budget, progress)
    except CountAbortedError as stop:  # one budget behaviour: an ABORTED result
        reason = str(stop)
        drawing.stats["done"] = stop.done
    seconds = time.perf_counter() - began
    tours, directed, stats = drawing.tours, drawing.directed, drawing.stats
    return GraphSampleResult(board, closed, s, t, k, seed, tours, directed, seconds, stats, reason)


def _draw(
    board: GraphBoard,
    drawing: Drawing,
    order: list[int],
    memory: int,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
) -> None:
    """Fill ``drawing``: the count, then the tours (CountAbortedError at the budget)."""
    closed, s, t = drawing.closed, drawing.start, drawing.end
    n = board.num_squares
    if n == 1:
        drawing.directed = 0 if closed else 1
        drawing.tours = [] if closed else [Tour(board, [0]) for _ in range(drawing.k)]
        return
    virtual = not closed
    if (closed and s is not None and t is not None and t not in board.adj[s]) or n + int(
        virtual
    ) < 3:
        drawing.directed = 0
        return
    graph, local = order_graph(board, order, virtual)
    steps = make_plan(graph, None, *request_edges(local, closed, s, t), budget)
    draw_tours(
        drawing, graph, steps, memory, budget, progress, lambda seq: Tour(board, seq, closed)
    )
