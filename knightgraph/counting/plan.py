"""The plan of the frontier dynamic program: the board as a graph on local ids in processing
order (column by column across the shorter side), and the steps that add its squares, or
the orbits of a symmetry, one at a time.

Both engines run the same plan: the Python one (``python_engine``) as it is, the compiled
one (``compiled``) once ``slot_plan`` has translated it into fixed slots.  Building the
graph and the plan reads the clock as it goes (``CountAbortedError`` at the deadline, with
``phase`` ``"graph"`` or ``"plan"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..boards.board import KNIGHT, Board
from ..running.budget import NO_BUDGET, Budget
from .limits import stopped_error

if TYPE_CHECKING:
    from ..boards.graphboard import GraphBoard


# --------------------------------------------------------------------------- graph
@dataclass(frozen=True)
class PlanGraph:
    """The board as a graph on local ids ``0 .. V-1`` in processing order.

    ``squares[i]`` is the flat index of local id ``i``; with ``virtual``, id
    ``V`` is the virtual square joined to every square.
    """

    board: Board | GraphBoard
    squares: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]
    virtual: bool

    @property
    def size(self) -> int:
        return len(self.squares)

    @property
    def vertices(self) -> int:
        """The vertices of the graph, the virtual square included."""
        return len(self.adj)

    @property
    def virtual_ids(self) -> list[int]:
        """The local id of the virtual square (``[size]``), or no id."""
        return [self.size] * self.virtual


def local_ids(squares: Sequence[int]) -> dict[int, int]:
    """Local ids by flat index (``squares`` in processing order; -1 the virtual square)."""
    local = {flat: i for i, flat in enumerate(squares)}
    local[-1] = len(squares)
    return local


def local_edges(
    local: dict[int, int], pairs: Iterable[tuple[int, int]]
) -> frozenset[frozenset[int]]:
    """Edges given as pairs of flat indices, on local ids (see :func:`local_ids`)."""
    return frozenset(frozenset((local[a], local[b])) for a, b in pairs)


def across_order(width: int, snake: bool) -> list[int]:
    """The order of the squares of one column of ``width``: top to bottom, or with ``snake``
    the odd places down and the even ones back up (1, 3, 5, ..., 4, 2, 0).

    Examples
    --------
    >>> across_order(8, True), across_order(3, False)
    ([1, 3, 5, 7, 6, 4, 2, 0], [0, 1, 2])
    """
    if not snake:
        return list(range(width))
    return list(range(1, width, 2)) + list(range(0, width, 2))[::-1]


def _processing_order(board: Board, snake: bool = False) -> list[int]:
    """Flat indices column by column across the shorter side; within a column top to
    bottom, or with ``snake`` (a knight's board only) down the odd places and back up the
    even ones.

    Notes
    -----
    Why the snake: a knight's move changes the row by 1 or 2, so the squares of a column
    taken 1, 3, 5, ... then ..., 4, 2, 0 are each a knight's move or two rows from the one
    before, and the partial path fragments on the frontier stay shorter and fewer: measured
    on closed counts (largest layer, top to bottom -> snake), 5x10 35,478 -> 12,762, 6x8
    659,639 -> 360,175, 7x8 15,259,278 -> 6,450,386 (the counts are the same: any order is
    exact).  The frontier is one square narrower on 5 to 7 rows, too.
    """
    m, n = board.m, board.n
    removed = {r * n + c for r, c in board.removed}
    snake = snake and board.leaper == KNIGHT
    if m <= n:
        cells = [r * n + c for c in range(n) for r in across_order(m, snake)]
    else:
        cells = [r * n + c for r in range(m) for c in across_order(n, snake)]
    return [i for i in cells if i not in removed]


def build_graph(
    board: Board | GraphBoard,
    virtual: bool,
    budget: Budget = NO_BUDGET,
    snake: bool = False,
    order: Sequence[int] | None = None,
) -> PlanGraph:
    """The board as a :class:`PlanGraph` in ``order`` (a graph board's vertex order), by
    default a rectangle's processing order (:func:`_processing_order`; ``snake``: for
    counts, not for samples, whose seeded draws keep the plain order)."""
    if budget.out_of_time():
        raise stopped_error(
            "at the timeout", {"phase": "graph", "step": 0, "steps": board.num_squares}
        )
    if order is None:
        order = _processing_order(cast(Board, board), snake)
    local = {flat: i for i, flat in enumerate(order)}
    table = board.move_table()
    adj: list[tuple[int, ...]] = []
    for done, flat in enumerate(order):
        if done % 4096 == 0 and budget.out_of_time():
            raise stopped_error(
                "at the timeout", {"phase": "graph", "step": done, "steps": len(order)}
            )
        nbrs = sorted(local[int(t)] for t in table[flat] if t >= 0)
        adj.append(tuple(nbrs + ([len(order)] if virtual else [])))
    if virtual:
        adj.append(tuple(range(len(order))))
    return PlanGraph(board, tuple(order), tuple(adj), virtual)


def request_edges(
    local: dict[int, int], closed: bool, s: int | None, t: int | None
) -> tuple[frozenset[frozenset[int]], frozenset[frozenset[int]]]:
    """The forced and excluded edges (on local ids) of the cycles that stand for the tours
    asked for: a closed tour from ``s`` to ``t`` uses the move between them; an open one
    is a cycle through the virtual square, which meets the fixed ends and, with both
    fixed, no other square."""
    forced: list[tuple[int, int]] = []
    excluded: list[tuple[int, int]] = []
    if closed and s is not None and t is not None:
        forced = [(s, t)]
    elif not closed:
        ends = [x for x in (s, t) if x is not None]
        forced = [(x, -1) for x in ends]
        if len(ends) == 2:
            excluded = [(x, -1) for x in local if x >= 0 and x not in ends]
    return local_edges(local, forced), local_edges(local, excluded)


# ---------------------------------------------------------------- the plan of steps
@dataclass
class PlanStep:
    """One step of the program: add the squares of ``orbit`` and the chosen edges."""

    before: list[int]  # frontier before the step (sorted local ids)
    orbit: list[int]  # squares added
    choices: list[list[tuple[int, int]]]  # edge sets to try, as pairs of positions in `work`
    keep: list[int]  # positions in `work` that stay on the frontier, in order
    leave: list[int]  # positions that leave (must be full)
    need: list[int]  # positions (in keep order) that must not have degree 0 afterwards
    last: bool


def make_plan(
    graph: PlanGraph,
    perm: Sequence[int] | None,
    forced: frozenset[frozenset[int]],
    excluded: frozenset[frozenset[int]],
    budget: Budget = NO_BUDGET,
    deferred: frozenset[frozenset[int]] = frozenset(),
) -> list[PlanStep]:
    """The steps for counting cycles of ``graph`` that are fixed by ``perm`` (None: all).

    ``deferred`` edges are never chosen but still count as undecided: a square with such
    an edge stays on the frontier with room for it (the half of a board whose other
    edges another program decides, :mod:`.middle`).

    About a millisecond a square: the clock is read every 64 orbits.
    """
    g = list(range(graph.vertices)) if perm is None else list(perm)
    # Orbits of <g>, ordered by their first square in processing order.
    seen: set[int] = set()
    orbits: list[list[int]] = []
    for v in range(graph.size):
        if v in seen:
            continue
        orbit = [v]
        w = g[v]
        while w != v:
            orbit.append(w)
            w = g[w]
        seen.update(orbit)
        orbits.append(sorted(orbit))
    adj = [
        set(a) - {u for u in a if frozenset((u, v)) in excluded} for v, a in enumerate(graph.adj)
    ]
    remaining = [len(a) for a in adj]  # edges not yet decided, per square
    if deferred:
        adj = [a - {u for u in a if frozenset((u, v)) in deferred} for v, a in enumerate(adj)]
    processed: set[int] = set(graph.virtual_ids)
    frontier: list[int] = graph.virtual_ids
    steps: list[PlanStep] = []
    for k, orbit in enumerate(orbits):
        if k % 64 == 0 and budget.out_of_time():
            raise stopped_error(
                "at the timeout", {"phase": "plan", "step": k, "steps": len(orbits)}
            )
        work = frontier + orbit
        where = {v: i for i, v in enumerate(work)}
        members = set(orbit)
        candidates: list[tuple[int, int]] = []
        for v in orbit:
            for u in sorted(adj[v]):
                if (u in processed or (u in members and u > v)) and (
                    frozenset((u, v)) not in [frozenset(e) for e in candidates]
                ):
                    candidates.append((v, u))
        # Group the candidate edges into orbits of <g>.
        edge_orbits: list[list[tuple[int, int]]] = []
        placed: set[frozenset[int]] = set()
        for v, u in candidates:
            e = frozenset((v, u))
            if e in placed:
                continue
            group = []
            a, b = v, u
            while True:
                f = frozenset((a, b))
                if f in placed:
                    break
                placed.add(f)
                group.append((a, b))
                a, b = g[a], g[b]
            edge_orbits.append(group)
        must = [i for i, grp in enumerate(edge_orbits) if any(frozenset(e) in forced for e in grp)]
        choices = [
            [(where[a], where[b]) for a, b in chosen]
            for chosen in _edge_choices(edge_orbits, must, len(orbit), budget, k, len(orbits))
        ]
        for v, u in candidates:
            remaining[v] -= 1
            remaining[u] -= 1
        processed |= members
        new_frontier = [v for v in work if remaining[v] > 0]
        keep = [where[v] for v in new_frontier]
        leave = [where[v] for v in work if remaining[v] == 0]
        need = [i for i, v in enumerate(new_frontier) if remaining[v] == 1]
        steps.append(
            PlanStep(list(frontier), list(orbit), choices, keep, leave, need, k == len(orbits) - 1)
        )
        frontier = new_frontier
    return steps


def _edge_choices(
    edge_orbits: list[list[tuple[int, int]]],
    must: list[int],
    members: int,
    budget: Budget,
    step: int,
    steps: int,
) -> list[list[tuple[int, int]]]:
    """The sets of candidate edge orbits a step may add (every vertex of degree at most
    2, the ``must`` orbits in), in the order of their bit masks.

    Every candidate edge has an end in the step's orbit of ``members`` vertices, so a
    set of more than ``2 * members`` edges gives one of them degree 3: only the subsets of
    at most that many orbits are tried (a vertex of degree 39 has 781 of them, not 2**39),
    and the clock is read every 4096 of them.
    """
    import itertools

    out: list[tuple[int, list[tuple[int, int]]]] = []
    required = set(must)
    tried = 0
    for size in range(min(len(edge_orbits), 2 * members) + 1):
        for picked in itertools.combinations(range(len(edge_orbits)), size):
            tried += 1
            if tried % 4096 == 0 and budget.out_of_time():
                raise stopped_error(
                    "at the timeout", {"phase": "plan", "step": step, "steps": steps}
                )
            if not required.issubset(picked):
                continue
            chosen = [e for i in picked for e in edge_orbits[i]]
            degree: dict[int, int] = {}
            for a, b in chosen:
                degree[a] = degree.get(a, 0) + 1
                degree[b] = degree.get(b, 0) + 1
            if any(d > 2 for d in degree.values()):
                continue
            out.append((sum(1 << i for i in picked), chosen))
    out.sort(key=lambda pair: pair[0])
    return [chosen for _, chosen in out]


# --------------------------------------------------------------------------- tally
def tally(
    size: int,
    closed: bool,
    s: int | None,
    t: int | None,
    cycles: Callable[..., int],
    adjacent: Callable[[int, int], bool],
    others: Callable[[list[int]], list[int]],
    knuth: bool = False,
) -> tuple[int, int | None]:
    """The directed and undirected tour counts from counts of Hamiltonian cycles.

    ``cycles(virtual, forced=..., excluded=...)`` counts the cycles of the graph (with
    ``virtual``, plus a vertex ``-1`` joined to all), ``adjacent(u, v)`` tells a move,
    ``others(ends)`` lists the squares an open tour with both ends fixed must not end
    on.  Closed tours are cycles (twice: two directions; with both ends, those through
    the move ``s``-``t``); open ones are cycles through the virtual vertex, forced
    next to the fixed ends.  ``knuth`` leaves out open tours with adjacent ends (the
    closed ones, counted apart).
    """
    undirected: int | None
    if size == 1:
        directed = 0 if closed else 1
        undirected = None if (s is not None or t is not None) else directed
    elif closed:
        if s is not None and t is not None:
            directed = cycles(False, forced=[(s, t)]) if adjacent(s, t) else 0
            undirected = None
        else:
            counted = cycles(False)
            directed = 2 * counted
            undirected = None if (s is not None or t is not None) else counted
    else:
        ends = [x for x in (s, t) if x is not None]
        forced = [(x, -1) for x in ends]
        excluded = [(x, -1) for x in others(ends)] if len(ends) == 2 else []
        if len(ends) == 2 and knuth and adjacent(ends[0], ends[1]):
            directed = 0
        else:
            paths = cycles(True, forced=forced, excluded=excluded)
            if knuth and len(ends) < 2:
                paths -= (2 if ends else size) * cycles(False)
            directed = paths if ends else 2 * paths
        undirected = None if (s is not None or t is not None) else directed // 2
    return directed, undirected
