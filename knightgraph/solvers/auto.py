"""The ``auto`` strategy: certificates first, then the right search for the size.

1. Cheap certificates of absence (:func:`knightgraph.proofs.quick_obstruction`):
   colour counts, degrees, the closing move, connectivity, Schwenk's partition.
2. On a full knight board, the existence theorems (Schwenk 1991 for closed
   tours, Conrad et al. 1994 for open ones) where they rule every tour out.
3. Boards of at most :data:`EXACT_LIMIT` squares: the exact pruned search
   (``backtrack`` with Warnsdorff ordering, pruning, memo and randomised
   restarts), which finds a tour or proves there is none.
4. Larger boards: two walks of Warnsdorff's rule with Posa rotations (fast
   on wide boards), then a short pruned depth-first dive with restarts (it
   usually runs straight to a tour on narrow boards and with prescribed
   ends), more Warnsdorff walks, and a longer exact search on boards of up to
   :data:`DIVE_LIMIT` squares.  These find a tour or give up (ABORTED); the
   exact search can still prove absence.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers.auto import auto
>>> auto(Board(7, 7), closed=True).reason
'no closed tour on 7x7: a closed tour alternates colours, so it needs as many squares of each colour; 7x7 has 25 of colour 0 and 24 of colour 1'
>>> auto(Board(3, 8), closed=True).certificate.kind
'theorem'
>>> res = auto(Board(5, 6), start="a1", end="f5")
>>> res.status.name, res.method
('FOUND', 'backtrack')
"""

from __future__ import annotations

from typing import Any

from ..existence import closed_tour_exists, open_tour_exists
from ..proofs import quick_obstruction
from ..tour import SearchResult, Status
from .base import Budget, Problem, get_solver, solver

__all__ = ["DIVE_LIMIT", "EXACT_LIMIT", "auto"]

EXACT_LIMIT = 64
"""Boards with at most this many squares are searched exactly, to the end."""

DIVE_LIMIT = 4096
"""Boards up to this many squares get pruned depth-first dives (each node costs
O(mn / 64) word operations, so larger boards are left to Warnsdorff)."""

EXACT_FALLBACK_NODES = 2_000_000
"""Node budget of the last, exact phase when no timeout is given (about a minute)."""


@solver(
    "auto",
    exact=True,
    bytes_per_square=0,  # its certificates are bounded; each search phase checks its own
    summary="certificates first, exact search on small boards, Warnsdorff beyond",
)
def auto(problem: Problem, budget: Budget, *, seed: int | None = None) -> SearchResult:
    """Find a tour or prove there is none, choosing the strategy by board size.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature.

    Returns
    -------
    SearchResult
        FOUND (``method`` names the strategy that found it), PROVEN_ABSENT
        with the deciding certificate, or ABORTED when the searches used on
        large boards give up or the budget runs out.
    """
    board = problem.board
    ends = {
        "start": None if problem.start is None else board.square(problem.start),
        "end": None if problem.end is None else board.square(problem.end),
    }
    certificate = quick_obstruction(board, closed=problem.closed, **ends)
    if certificate is not None:
        return problem.absent(certificate)
    if board.is_standard:
        theorem = closed_tour_exists if problem.closed else open_tour_exists
        verdict = theorem(board.m, board.n)
        if not verdict:
            return problem.absent(verdict.certificate)
    size = board.num_squares
    exact = {"order": "warnsdorff", "prune": True, "memo": True, "restarts": size, "seed": seed}
    if size <= EXACT_LIMIT:
        return _run("backtrack", problem, ends, budget, **exact)
    # Step budgets: a walk that succeeds takes about `size` steps (moves, rotations);
    # each phase draws new random choices.
    base = 0 if seed is None else seed
    phases: list[tuple[str, int | None, dict[str, Any]]] = [
        ("warnsdorff", 10 * size + 1000, {"seed": base, "attempts": 2})
    ]
    if size <= DIVE_LIMIT:
        phases.append(("backtrack", 4 * size + 1000, exact))
    phases.append(("warnsdorff", 20 * size + 2000, {"seed": base + 1, "attempts": 10}))
    if size <= DIVE_LIMIT:
        fallback = EXACT_FALLBACK_NODES if budget.timeout is None else None
        phases.append(("backtrack", fallback, {**exact, "seed": base + 2}))
    tried: list[str] = []
    for method, limit, options in phases:
        result = _run(method, problem, ends, budget.phase(limit), **options)
        if result.status is not Status.ABORTED:
            return result
        tried.append(f"{method}: {result.reason}")
        if budget.out_of_time():
            break
    return problem.aborted(
        "no tour found and none ruled out (" + "; ".join(tried) + ")",
        {"phases": len(tried)},
    )


def _run(
    method: str, problem: Problem, ends: dict[str, Any], budget: Budget, **options: Any
) -> SearchResult:
    return get_solver(method)(
        problem.board, closed=problem.closed, budget=budget, **ends, **options
    )
