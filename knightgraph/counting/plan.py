"""The plan of the frontier dynamic program: the board as a graph on local ids in processing
order (column by column across the shorter side), and the steps that add its squares, or
the orbits of a symmetry, one at a time.

Both engines run the same plan: the Python one (``python_engine``) as it is, the compiled
one (``compiled``) once ``_slot_plan`` has translated it into fixed slots.  Building the
graph and the plan reads the clock as it goes (``CountAbortedError`` at the deadline, with
``phase`` ``"graph"`` or ``"plan"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Board
from .budget import _stopped, _timed_out


# --------------------------------------------------------------------------- graph
@dataclass(frozen=True)
class _Graph:
    """The board as a graph on local ids ``0 .. V-1`` in processing order.

    ``squares[i]`` is the flat index of local id ``i``; with ``virtual``, id
    ``V`` is the virtual square joined to every square.
    """

    board: Board
    squares: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]
    virtual: bool

    @property
    def size(self) -> int:
        return len(self.squares)


def _processing_order(board: Board) -> list[int]:
    """Flat indices column by column across the shorter side."""
    m, n = board.m, board.n
    removed = {r * n + c for r, c in board.removed}
    if m <= n:
        cells = [r * n + c for c in range(n) for r in range(m)]
    else:
        cells = [r * n + c for r in range(m) for c in range(n)]
    return [i for i in cells if i not in removed]


def _build_graph(board: Board, virtual: bool, deadline: float | None = None) -> _Graph:
    if _timed_out(deadline):
        raise _stopped("at the timeout", {"phase": "graph", "step": 0, "steps": board.num_squares})
    order = _processing_order(board)
    local = {flat: i for i, flat in enumerate(order)}
    table = board.move_table()
    adj: list[tuple[int, ...]] = []
    for done, flat in enumerate(order):
        if done % 4096 == 0 and _timed_out(deadline):
            raise _stopped("at the timeout", {"phase": "graph", "step": done, "steps": len(order)})
        nbrs = sorted(local[int(t)] for t in table[flat] if t >= 0)
        adj.append(tuple(nbrs + ([len(order)] if virtual else [])))
    if virtual:
        adj.append(tuple(range(len(order))))
    return _Graph(board, tuple(order), tuple(adj), virtual)


# ---------------------------------------------------------------- the plan of steps
@dataclass
class _Step:
    """One step of the program: add the squares of ``orbit`` and the chosen edges."""

    before: list[int]  # frontier before the step (sorted local ids)
    orbit: list[int]  # squares added
    choices: list[list[tuple[int, int]]]  # edge sets to try, as pairs of positions in `work`
    keep: list[int]  # positions in `work` that stay on the frontier, in order
    leave: list[int]  # positions that leave (must be full)
    need: list[int]  # positions (in keep order) that must not have degree 0 afterwards
    last: bool


def _plan(
    graph: _Graph,
    perm: Sequence[int] | None,
    forced: frozenset[frozenset[int]],
    excluded: frozenset[frozenset[int]],
    deadline: float | None = None,
) -> list[_Step]:
    """The steps for counting cycles of ``graph`` that are fixed by ``perm`` (None: all).

    About a millisecond a square: the clock is read every 64 orbits.
    """
    total = graph.size + int(graph.virtual)
    g = list(range(total)) if perm is None else list(perm)
    virtual = graph.size if graph.virtual else None
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
    processed: set[int] = set() if virtual is None else {virtual}
    frontier: list[int] = [] if virtual is None else [virtual]
    remaining = [len(a) for a in adj]  # edges not yet decided, per square
    steps: list[_Step] = []
    for k, orbit in enumerate(orbits):
        if k % 64 == 0 and _timed_out(deadline):
            raise _stopped("at the timeout", {"phase": "plan", "step": k, "steps": len(orbits)})
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
        choices = []
        for mask in range(1 << len(edge_orbits)):
            if any(not (mask >> i) & 1 for i in must):
                continue
            chosen = [e for i, grp in enumerate(edge_orbits) if (mask >> i) & 1 for e in grp]
            degree: dict[int, int] = {}
            for a, b in chosen:
                degree[a] = degree.get(a, 0) + 1
                degree[b] = degree.get(b, 0) + 1
            if any(d > 2 for d in degree.values()):
                continue
            choices.append([(where[a], where[b]) for a, b in chosen])
        for v, u in candidates:
            remaining[v] -= 1
            remaining[u] -= 1
        processed |= members
        new_frontier = [v for v in work if remaining[v] > 0]
        keep = [where[v] for v in new_frontier]
        leave = [where[v] for v in work if remaining[v] == 0]
        need = [i for i, v in enumerate(new_frontier) if remaining[v] == 1]
        steps.append(
            _Step(list(frontier), list(orbit), choices, keep, leave, need, k == len(orbits) - 1)
        )
        frontier = new_frontier
    return steps
