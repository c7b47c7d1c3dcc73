"""Hamiltonian paths of a small block with extra (virtual) links, by SAT.

The thin-board construction (:mod:`knightgraph.solvers.strips`) asks, for a
``k x w`` block, for a set of knight's moves inside the block that, together
with given *virtual links* (pairs of squares that the rest of the board joins
by a path), forms one path from ``a`` to ``b`` through every square of the
block.  A virtual link stands for the part of the tour outside the block.

Encoding: one variable per move of the block, one per virtual link (forced
true), a *hub* joined to ``a`` and ``b`` (forced); exactly two chosen edges at
every vertex.  The solver's answer may be several cycles; for each cycle
``S`` the clause "some edge leaving ``S``" is added (every single cycle
through the hub satisfies it) and the solver runs again, as in
:mod:`knightgraph.solvers.cnf`.

Examples
--------
>>> moves = block_path(3, 4, (0, 0), (2, 3), ())
>>> len(moves)  # a Hamiltonian path of 3 x 4 has 11 moves
11
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .clauses import exactly_two
from .codes import DIRECTIONS

__all__ = ["block_path"]

Square = tuple[int, int]
Link = tuple[Square, Square]

ROUNDS = 200
"""Most solver calls (each adding the cut clauses of its cycles) before giving up."""

CONFLICTS = 3_000
"""Conflicts allowed to all the solver calls of one block together (some 20 to 100 ms);
past it the block counts as failed and the caller tries another layout.  The blocks
that have a path are found in far fewer; those that have none are where the time
would go (3,000 instead of 20,000: the 15 cells of a 5 x 30 end map 8.5 s -> 1.0 s)."""


@functools.lru_cache(maxsize=4096)
def block_path(
    h: int, w: int, a: Square, b: Square, links: tuple[Link, ...], first: Link | None = None
) -> tuple[Link, ...] | None:
    """The knight's moves of a path from ``a`` to ``b`` through the h x w block that
    uses the virtual ``links``; None when there is none (or the solver gives up).

    Parameters
    ----------
    h, w : int
        The block's ranks and files.
    a, b : (int, int)
        The ends (local coordinates), distinct.
    links : tuple of ((int, int), (int, int))
        Virtual links, each pair of squares joined outside the block.
    first : ((int, int), (int, int)), optional
        A pair ``(x, y)`` of squares that are also one of the links: the path
        from ``a`` must reach ``x`` before ``y`` (so that the piece starting at
        ``a`` ends at ``x``).  Answers that reach ``y`` first are excluded one by
        one (the clause "not all the moves of that piece").

    Returns
    -------
    tuple of moves or None
        The moves inside the block (pairs of local squares); with the links
        they form one path from ``a`` to ``b`` through every square.

    Notes
    -----
    Cached: a long strip repeats a few kinds of block.  At most :data:`ROUNDS`
    solver calls and :data:`CONFLICTS` conflicts in all, on a block of a few
    hundred squares at most: the cost does not grow with the board.  None is
    therefore not a proof of absence.

    Examples
    --------
    >>> block_path(3, 4, (0, 0), (0, 1), ()) is None  # no such path on 3 x 4
    True
    >>> len(block_path(5, 6, (0, 0), (0, 5), (((4, 0), (4, 5)),)))  # two paths, joined outside
    28
    """
    from pysat.solvers import Solver

    squares = [(r, c) for r in range(h) for c in range(w)]
    index = {sq: k for k, sq in enumerate(squares)}
    hub = len(squares)
    edges: list[tuple[int, int]] = []
    for (r, c), k in index.items():
        for dr, dc in DIRECTIONS:
            other = index.get((r + dr, c + dc))
            if other is not None and other > k:
                edges.append((k, other))
    moves = len(edges)
    forced = [(index[u], index[v]) for u, v in links] + [(hub, index[a]), (hub, index[b])]
    edges += forced
    at: dict[int, list[int]] = {}
    for var, (u, v) in enumerate(edges, start=1):
        at.setdefault(u, []).append(var)
        at.setdefault(v, []).append(var)
    clauses: list[list[int]] = [[var] for var in range(moves + 1, len(edges) + 1)]
    for vertex in range(hub + 1):
        lits = at.get(vertex, [])
        if len(lits) < 2:
            return None
        clauses += exactly_two(lits, top=len(edges))[0]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for _ in range(ROUNDS):
            spent = int(solver.accum_stats().get("conflicts", 0))
            if spent >= CONFLICTS:
                return None
            solver.conf_budget(CONFLICTS - spent)
            if not solver.solve_limited():  # False: no path; None: out of conflicts
                return None
            model = solver.get_model()
            chosen = [edges[x - 1] for x in model if 0 < x <= len(edges)]
            cycles = _cycles(chosen, hub + 1)
            if len(cycles) == 1 and first is not None:
                piece = _piece(chosen, index[a], index[first[0]], index[first[1]], hub)
                if piece is not None:  # reached the wrong square first: exclude that piece
                    solver.add_clause([-var for var in piece_vars(piece, edges, moves)])
                    continue
            if len(cycles) == 1:
                inside = set(range(moves))
                return tuple(
                    (squares[edges[x - 1][0]], squares[edges[x - 1][1]])
                    for x in model
                    if x > 0 and x - 1 in inside
                )
            for cycle in cycles:
                solver.add_clause(
                    [
                        var
                        for var, (u, v) in enumerate(edges, start=1)
                        if (u in cycle) != (v in cycle)
                    ]
                )
    return None  # pragma: no cover - ROUNDS is ample for blocks of a few hundred squares


def piece_vars(
    piece: list[tuple[int, int]], edges: Sequence[tuple[int, int]], moves: int
) -> list[int]:
    """The variables of the moves (not links) among ``piece``'s edges."""
    wanted = {frozenset(e) for e in piece}
    return [var for var, e in enumerate(edges[:moves], start=1) if frozenset(e) in wanted]


def _piece(
    chosen: Sequence[tuple[int, int]], a: int, good: int, bad: int, hub: int
) -> list[tuple[int, int]] | None:
    """The edges walked from ``a`` (away from the hub) up to ``bad`` if it comes before
    ``good``; None when ``good`` comes first."""
    adjacent = _adjacent(chosen)
    before, here, walked = hub, a, []
    while here not in (good, bad):
        nxt = next(x for x in adjacent[here] if x != before)
        walked.append((here, nxt))
        before, here = here, nxt
    return walked if here == bad else None


def _cycles(chosen: Sequence[tuple[int, int]], count: int) -> list[set[int]]:
    """The vertex sets of the cycles formed by ``chosen`` (two edges at each vertex)."""
    adjacent = _adjacent(chosen)
    seen: set[int] = set()
    out = []
    for start in range(count):
        if start in seen:
            continue
        part, stack = {start}, [start]
        while stack:
            for nxt in adjacent.get(stack.pop(), ()):
                if nxt not in part:
                    part.add(nxt)
                    stack.append(nxt)
        seen |= part
        out.append(part)
    return out


def _adjacent(edges: Sequence[tuple[int, int]]) -> dict[int, list[int]]:
    """Each vertex's neighbours along ``edges``."""
    adjacent: dict[int, list[int]] = {}
    for u, v in edges:
        adjacent.setdefault(u, []).append(v)
        adjacent.setdefault(v, []).append(u)
    return adjacent
