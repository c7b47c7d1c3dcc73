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
>>> from knightgraph.graphs import GraphBoard
>>> r = sample_graph_tours(GraphBoard.from_networkx(nx.hypercube_graph(3)), k=2, closed=True,
...                        seed=1)
>>> r.status.name, r.directed, r.tours[0].start, r.stats["width"]
('FOUND', 12, (0, 0, 0), 5)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from ..exceptions import BoardTooLargeError, InternalError, InvalidOptionError, InvalidSquareError
from ..graphs import GraphBoard, GraphTour
from ..resources import available_memory, require_memory
from ..results import Status
from ..verify import check_closed
from .budget import CountAbortedError, _check_budget, _stopped, _timed_out
from .general import vertex_order
from .plan import _Graph, _plan
from .transitions import _orient, _passes, _walk

__all__ = ["SAMPLE_MAX_WIDTH", "GraphSampleResult", "sample_graph_tours"]

SAMPLE_MAX_WIDTH = 16
"""The widest frontier (:func:`~knightgraph.counting.general.vertex_order`) the sampler
takes on: its states grow exponentially with the width (the Python engine keeps every
transition), and boards are refused at about 12."""


@dataclass
class GraphSampleResult:
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
    tours: list[GraphTour]
    directed: int | None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    certificate: None = None  # the exact count of zero is the answer; no certificate

    @property
    def status(self) -> Status:
        """PROVEN_ABSENT for no tour, FOUND when all ``k`` were drawn, else ABORTED."""
        if self.directed == 0:
            return Status.PROVEN_ABSENT
        if self.directed is None or len(self.tours) < self.k:
            return Status.ABORTED
        return Status.FOUND

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
        names = self.board.names
        out: dict[str, Any] = {
            "graph": self.board.kind,
            "vertices": self.board.num_squares,
            "closed": self.closed,
            "start": None if self.start is None else names[self.start],
            "end": None if self.end is None else names[self.end],
            "k": self.k,
            "seed": self.seed,
            "directed": self.directed,
            "tours": [t.algebraic() for t in self.tours],
            "seconds": round(self.seconds, 6),
            "status": self.status.value,
            "width": self.stats.get("width"),
        }
        if self.reason:
            out["reason"] = self.reason
        return out


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
    :class:`~knightgraph.graphs.GraphTour`.

    Examples
    --------
    >>> import networkx as nx
    >>> q = GraphBoard.from_networkx(nx.hypercube_graph(4))
    >>> r = sample_graph_tours(q, k=3, start=(0, 0, 0, 0), seed=7)
    >>> r.directed, [t.start for t in r.tours] == [(0, 0, 0, 0)] * 3
    (5712, True)
    """
    closed = check_closed(closed)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidOptionError(f"invalid k {k!r}: expected a whole number >= 1")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidOptionError(f"invalid seed {seed!r}: expected a whole number")
    _check_budget("python", memory, timeout)
    s = None if start is None else board.index(start)
    t = None if end is None else board.index(end)
    if s is not None and s == t and board.num_squares > 1:
        raise InvalidSquareError(
            f"invalid end {board.names[t]}: the start and the end are the same vertex"
        )
    began = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    result = GraphSampleResult(board, closed, s, t, k, seed, [], None)
    try:
        order, width = vertex_order(board, deadline)
        result.stats["width"] = width
        if width > SAMPLE_MAX_WIDTH:
            raise BoardTooLargeError(
                f"the {board.describe()} is too large to sample: the counting program's "
                f"frontier is {width} vertices wide (at most {SAMPLE_MAX_WIDTH})"
            )
        require_memory(k * board.num_squares * 16, f"{k:,} tours of the {board.describe()}")
        budget = memory if memory is not None else available_memory() * 8 // 10
        _draw(result, order, budget, deadline, progress)
    except CountAbortedError as stop:  # one budget behaviour: an ABORTED result
        result.reason = str(stop)
        result.stats["done"] = stop.done
    result.seconds = time.perf_counter() - began
    return result


def _draw(
    result: GraphSampleResult,
    order: list[int],
    memory: int,
    deadline: float | None,
    progress: Callable[[dict[str, Any]], None] | None,
) -> None:
    """Fill ``result``: the count, then the tours (CountAbortedError at the budget)."""
    board, closed, s, t = result.board, result.closed, result.start, result.end
    rng = random.Random(result.seed)
    n = board.num_squares
    if n == 1:
        result.directed = 0 if closed else 1
        result.tours = [] if closed else [GraphTour(board, [0]) for _ in range(result.k)]
        return
    virtual = not closed
    if (closed and s is not None and t is not None and t not in board.adj[s]) or n + int(
        virtual
    ) < 3:
        result.directed = 0
        return
    local = {v: i for i, v in enumerate(order)}
    local[-1] = n
    adj = [tuple(sorted(local[u] for u in board.adj[v]) + ([n] if virtual else [])) for v in order]
    if virtual:
        adj.append(tuple(range(n)))
    graph = _Graph(cast(Any, board), tuple(order), tuple(adj), virtual)
    forced: list[tuple[int, int]] = []
    excluded: list[tuple[int, int]] = []
    if closed and s is not None and t is not None:
        forced = [(s, t)]
    elif not closed:
        ends = [x for x in (s, t) if x is not None]
        forced = [(x, -1) for x in ends]
        if len(ends) == 2:
            excluded = [(x, -1) for x in range(n) if x not in ends]

    def edges(pairs: list[tuple[int, int]]) -> frozenset[frozenset[int]]:
        return frozenset(frozenset((local[a], local[b])) for a, b in pairs)

    steps = _plan(graph, None, edges(forced), edges(excluded), deadline)
    work = len(steps) + result.k
    report = None if progress is None else (lambda done: progress({"done": done, "total": work}))
    layers, completions = _passes(steps, memory, deadline, report, result.stats)
    cycles = int(completions[0][0]) if len(completions[0]) else 0
    both_ways = (s is None or t is None) if closed else (s is None and t is None)
    result.directed = 2 * cycles if both_ways else cycles
    for drawn in range(result.k if cycles else 0):
        if _timed_out(deadline):
            raise _stopped("at the timeout", {"phase": "sample", "step": drawn, "steps": 0})
        cycle = _walk(steps, layers, completions, rng)
        tour = GraphTour(board, _orient(graph, cycle, closed, s, t, rng.random() < 0.5), closed)
        if (s is not None and tour.order[0] != s) or (t is not None and tour.order[-1] != t):
            raise InternalError(f"a sampled tour does not answer the request: {tour!r}")
        result.tours.append(tour)
        if report is not None:
            report(len(steps) + drawn + 1)
