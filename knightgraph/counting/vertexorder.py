"""The frontier program over a vertex order chosen for a graph board (a greedy path
decomposition): how :func:`~knightgraph.count_tours` and
:func:`~knightgraph.sample_tours` process any graph.

On a rectangle the program adds squares column by column across the shorter side, so its
frontier is about two columns wide.  A general graph has no columns: :func:`vertex_order`
chooses the order, and the width of the frontier it gives (reported as
``stats["width"]``) is what the count costs (states grow exponentially in it).

Examples
--------
>>> import networkx as nx
>>> from knightgraph.boards.graphboard import GraphBoard
>>> from knightgraph import count_tours
>>> r = count_tours(GraphBoard.from_networkx(nx.dodecahedral_graph()), closed=True)
>>> r.undirected, r.stats["width"] <= 8
(30, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from ..boards.board import Board
from ..boards.graphboard import GraphBoard
from ..exceptions import InvalidOptionError
from ..running.budget import NO_BUDGET, Budget
from .compiled import CountOverflow, compiled_kernel, kernel_available, run_compiled, slot_plan
from .limits import (
    memory_budget,
    stopped_error,
)
from .plan import build_graph, local_edges, local_ids, make_plan
from .python_engine import run_python

__all__ = ["count_graph_cycles", "vertex_order"]


def vertex_order(board: Board | GraphBoard, budget: Budget = NO_BUDGET) -> tuple[list[int], int]:
    """A processing order of the vertices with a narrow frontier, and the frontier's width.

    Notes
    -----
    A greedy path decomposition: start at a pseudo-peripheral vertex (the last one
    reached by a breadth-first search from a vertex of least degree), then add, one
    at a time, the vertex that leaves the fewest vertices on the frontier (processed
    vertices with unprocessed neighbours), ties to the vertex nearest the start.
    The width is the largest frontier met (the new vertex included).  Any order
    gives the same count; only the cost depends on it.  O(V * (frontier + degree))
    with the candidates kept to the neighbours of processed vertices; the clock is
    read every 64 vertices (``CountAbortedError`` past ``deadline``).

    Examples
    --------
    >>> import networkx as nx
    >>> order, width = vertex_order(GraphBoard.from_networkx(nx.grid_2d_graph(3, 10)))
    >>> width  # three rows: a frontier of one column, plus the vertex being added
    4
    """
    adj = [[u for u in row if u >= 0] for row in board.move_table().tolist()]
    n = len(adj)
    first = min(range(n), key=lambda v: (len(adj[v]), v))
    distance = _bfs(adj, first)
    first = max(range(n), key=lambda v: (distance.get(v, -1), -v))
    distance = _bfs(adj, first)
    far = n + 1
    order: list[int] = []
    done = [False] * n
    left = [len(a) for a in adj]  # unprocessed neighbours
    frontier: set[int] = set()
    touched: set[int] = set()
    width = 0
    while len(order) < n:
        if len(order) % 64 == 0 and budget.out_of_time():
            raise stopped_error(
                "at the timeout", {"phase": "order", "step": len(order), "steps": n}
            )
        if touched:
            pool = list(touched)
        else:  # the first vertex, or one of a component not reached yet
            pool = [first] if not done[first] else [next(v for v in range(n) if not done[v])]

        v = min(pool, key=lambda v: _cost(v, adj, frontier, left, distance.get(v, far)))
        width = max(width, len(frontier) + 1)
        done[v] = True
        order.append(v)
        touched.discard(v)
        for u in adj[v]:
            left[u] -= 1
            if not done[u]:
                touched.add(u)
        frontier = {u for u in frontier | {v} if any(not done[w] for w in adj[u])}
    return order, width


def _cost(
    v: int, adj: Any, frontier: set[int], left: list[int], distance: int
) -> tuple[int, int, int]:
    """The frontier's size once ``v`` is added, then the distance from the start."""
    closing = sum(1 for u in adj[v] if u in frontier and left[u] == 1)
    return (len(frontier) - closing + (1 if left[v] > 0 else 0), distance, v)


def _bfs(adj: Any, root: int) -> dict[int, int]:
    distance = {root: 0}
    queue = [root]
    for u in queue:
        for w in adj[u]:
            if w not in distance:
                distance[w] = distance[u] + 1
                queue.append(w)
    return distance


def count_graph_cycles(
    board: Board | GraphBoard,
    order: list[int],
    *,
    virtual: bool,
    forced: Iterable[tuple[int, int]] = (),
    excluded: Iterable[tuple[int, int]] = (),
    engine: str,
    memory: int | None,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
    stats: dict[str, Any],
) -> int:
    """Hamiltonian cycles of the graph board processed in ``order`` (plus a virtual vertex
    joined to all), with forced and excluded edges as index pairs (-1 the virtual vertex).

    Examples
    --------
    >>> import networkx as nx
    >>> q3 = GraphBoard.from_networkx(nx.hypercube_graph(3))
    >>> order, width = vertex_order(q3)
    >>> count_graph_cycles(q3, order, virtual=False, engine="python", memory=None,
    ...                    budget=NO_BUDGET, progress=None, stats={})
    6
    """
    plan = build_graph(board, virtual, budget, order=order)
    if plan.vertices < 3:
        return 0
    local = local_ids(order)
    edges = local_edges(local, forced), local_edges(local, excluded)
    steps = make_plan(plan, None, *edges, budget)
    kernel = compiled_kernel() if engine in ("auto", "c") and kernel_available() else None
    if engine == "c" and kernel is None:
        raise InvalidOptionError("the compiled counting kernel is not built")
    if kernel is not None:
        slots = slot_plan(plan, steps)
        if slots is not None:
            stats["engine"], room = "c", memory_budget(memory, compiled=True)
            run = functools.partial(run_compiled, memory=room, budget=budget, stats=stats)
            try:
                return int(run(kernel, *slots, progress=progress))
            except CountOverflow:
                pass
    stats["engine"] = "python"
    room = memory_budget(memory, compiled=False)
    return int(run_python(steps, budget=budget, progress=progress, memory=room))
