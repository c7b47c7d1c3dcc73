"""The ``auto`` strategy: certificates first, then the right search for the size.

1. Cheap certificates of absence (:func:`knightgraph.proofs.certificates.quick_obstruction`):
   colour counts, degrees, the closing move, Schwenk's partition, connectivity.
2. Knight boards without a prescribed end: divide and conquer (``divide``),
   linear time on every board that has a tour (an 8 x 8 tour in well under a
   millisecond, where a SAT encoding costs tens).
3. Boards of at most :data:`EXACT_LIMIT` squares: SAT (``sat``), which finds a
   tour or refutes its existence with a proof that is checked independently.
4. Open tours between two given squares on knight boards: divide and conquer
   through a corridor of path blocks (:mod:`knightgraph.solvers.corridor`);
   on thin boards (3 to 5 ranks) the forced-move and Schwenk certificates
   first, then strips of blocks (:mod:`knightgraph.solvers.strips`).
5. What is left (other leapers, removed squares, ends divide cannot place): two walks of Warnsdorff's rule with Posa rotations (fast
   on wide boards), a short pruned depth-first dive with restarts on boards
   up to :data:`DIVE_LIMIT` squares (it runs straight to a tour on narrow
   boards and with prescribed ends), more Warnsdorff walks, and SAT on boards
   up to :data:`SAT_LIMIT` squares, which can still refute.

Every certificate of absence is re-checked by the independent checker
(:mod:`knightgraph.certcheck`) in the one gate (:mod:`knightgraph.solvers.gate`)
before it is reported.  The existence theorems
(Schwenk 1991, Conrad et al. 1994) are not used as proofs: where one applies,
its clause is added to the reason as the explanation.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers.auto import auto
>>> auto(Board(7, 7), closed=True).reason
'no closed tour on 7x7: a closed tour alternates colours, so it needs as many squares of each colour; 7x7 has 25 of colour 0 and 24 of colour 1 (Schwenk (1991): no closed tour when both sides are odd (7x7))'
>>> res = auto(Board(3, 8), closed=True)
>>> res.certificate.kind, res.reason.endswith("(Schwenk (1991): no closed tour when the shorter side is 3 and the longer is 4, 6 or 8 (3x8))")
('sat-refutation', True)
>>> res = auto(Board(5, 6), start="a1", end="f5")
>>> res.status.name, res.method
('FOUND', 'sat')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ..boards.board import KNIGHT
from ..proofs.certificates import quick_obstruction
from ..proofs.theorems import closed_tour_exists, color_obstruction, open_tour_exists
from ..running.budget import Budget
from ..tours.results import SearchResult, Status
from .base import Problem, Solver, solver
from .problem import graph_obstruction

__all__ = ["DIVE_LIMIT", "EXACT_LIMIT", "SAT_LIMIT", "auto", "graph_auto"]

EXACT_LIMIT = 64
"""Boards with at most this many squares go straight to SAT."""

DIVE_LIMIT = 4096
"""Boards up to this many squares get pruned depth-first dives (each node costs
O(mn / 64) word operations, so larger boards are left to Warnsdorff)."""

SAT_LIMIT = 10_000
"""Largest board (in squares) on which SAT is the last resort."""

SAT_FALLBACK_CONFLICTS = 5_000_000
"""Conflict budget of the last SAT phase when no timeout is given (about a minute)."""

WALK_FROM = 64
"""On a graph board, ``auto`` tries Warnsdorff walks
(:func:`~knightgraph.solvers._walk.graph_walk`) before SAT on graphs with more vertices
than this."""

WALK_DEGREE = 4.0
"""On graph boards whose average degree is below this (cubic graphs, sparse random
graphs, grids), ``auto`` goes to SAT without walking: Warnsdorff walks there fail
after many rotations (measured on random 3-regular graphs: 3 s lost at 1,000
vertices), where SAT needs a few dozen conflicts."""

WALK_ATTEMPTS = 3
"""Walks ``auto`` tries on a graph board."""

WALK_SECONDS = 3.0
"""Most seconds the walks take (and at most 30 % of a timeout), leaving the rest to SAT."""


def graph_auto(problem: Problem, budget: Budget, *, seed: int | None = None) -> SearchResult:
    """``auto`` on a graph board: the cheap certificates
    (:func:`~knightgraph.solvers.problem.graph_obstruction`), Warnsdorff walks with
    rotations on graphs of more than :data:`WALK_FROM` vertices and average degree
    :data:`WALK_DEGREE` or more, then SAT
    (:func:`~knightgraph.solvers.sat.graph_cnf_search`).  The answer is ``auto``'s
    (a walk's tour has ``stats["method"] == "warnsdorff"``).

    Examples
    --------
    >>> from knightgraph.boards.topology import topology_board
    >>> res = graph_auto(Problem(topology_board(10, 10, wrap="both"), True), Budget())
    >>> res.status.name, res.stats["method"]
    ('FOUND', 'warnsdorff')
    """
    from .sat import graph_cnf_search

    certificate = graph_obstruction(problem, budget.out_of_time)
    if certificate is not None:
        return problem.absent(certificate, {})
    if budget.out_of_time():  # a large graph's checks took the time: no search begun
        return problem.aborted(f"the search {budget.exceeded(0)} (before it began)", {})
    walked = _graph_walks(problem, budget, seed)
    return walked if walked is not None else graph_cnf_search(problem, budget)


def _graph_walks(problem: Problem, budget: Budget, seed: int | None) -> SearchResult | None:
    """Warnsdorff walks with rotations first on graphs of more than :data:`WALK_FROM`
    vertices (a few attempts of ``20 V`` steps); None when they find nothing."""
    import random
    import time

    from ._walk import graph_walk

    board = problem.board
    n = board.num_squares
    if n <= WALK_FROM or (problem.end is not None and problem.start is not None):
        return None
    if sum(board.degrees()) < WALK_DEGREE * n:  # sparse: SAT's graph
        return None
    if problem.end is not None and not problem.closed:
        return None
    first = problem.start if problem.start is not None else problem.end
    if first is None:
        first = 0 if problem.closed else min(range(n), key=lambda v: len(board.adj[v]))
    rng = random.Random(0 if seed is None else seed)
    left = budget.remaining()
    cap = time.monotonic() + min(WALK_SECONDS, 0.3 * left if left is not None else WALK_SECONDS)

    def stop() -> bool:
        return time.monotonic() > cap

    for attempt in range(WALK_ATTEMPTS):
        order = graph_walk(board.adj, first, problem.closed, rng, steps=20 * n + 1000, stop=stop)
        if order is not None:
            return problem.found(order, {"method": "warnsdorff", "attempts": attempt + 1})
        if stop():
            break
    return None


@solver(
    "auto",
    exact=True,
    bytes_per_square=0,  # its certificates are bounded; each search phase checks its own
    summary="certificates first, SAT on small boards, Warnsdorff and SAT beyond",
    graphs=graph_auto,
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
        with a checked certificate, or ABORTED when the searches used on large
        boards give up or the budget runs out.

    Examples
    --------
    >>> from knightgraph import GIRAFFE, Board
    >>> auto(Board(100, 100), closed=True).method  # beyond 64 squares: divide and conquer
    'divide'
    >>> auto(Board(10, 10, leaper=GIRAFFE)).method  # another leaper: Warnsdorff walks
    'warnsdorff'
    >>> auto(Board(8, 8, removed=["d4", "e5"])).certificate.reason  # two dark squares gone
    'a tour alternates colours, so the two colour classes differ by at most one; 8x8 has 30 of colour 0 and 32 of colour 1'
    """
    board = problem.board
    ends = problem.ends()
    if _between_ends(problem):  # certificates, then the corridor (or the strips) builds it
        from .corridor import MIN_SIDE

        certificate = color_obstruction(board, closed=False, **ends)
        if certificate is None and min(board.m, board.n) < MIN_SIDE:  # thin: Schwenk, forced
            certificate = quick_obstruction(board, closed=False, **ends)
        if certificate is not None:
            return problem.absent(certificate)
        built = _construct(problem, ends, budget)
        if built.status is Status.FOUND:
            return built
        if budget.out_of_time():
            return problem.aborted(f"the time ran out ({built.reason})")
        if board.num_squares > SAT_LIMIT:  # beyond SAT, and too large to walk: undecided
            return problem.aborted(f"the construction found no tour ({built.reason})")
    certificate = quick_obstruction(board, closed=problem.closed, **ends)
    if certificate is not None:  # checked, like every certificate, by the solver gate
        return _explained(problem.absent(certificate), problem)
    size = board.num_squares
    spent = size <= EXACT_LIMIT and budget.out_of_time()  # small boards: SAT says so, as ever
    if problem.end is None and board.leaper == KNIGHT and not board.removed and not spent:
        built = _construct(problem, ends, budget)
        if built.status is Status.FOUND:  # a tour of every board (and start) that has one
            return built
    if size <= EXACT_LIMIT:
        from .sat import sat  # each strategy is imported where auto first runs it

        return _explained(_run(sat, problem, ends, budget, shortcuts=False), problem)
    if (
        problem.end is not None
        and not problem.closed
        and board.leaper == KNIGHT
        and not board.removed
    ):
        built = _construct(problem, ends, budget)
        if built.status is Status.FOUND:
            return built
    tried: list[str] = []
    for name, method, limit, options in _phases(size, 0 if seed is None else seed, budget):
        result = _run(method, problem, ends, budget.phase(limit), **options)
        if result.status is not Status.ABORTED:
            return _explained(result, problem)
        tried.append(f"{name}: {result.reason}")
        if budget.out_of_time():
            break
    return problem.aborted(
        "no tour found and none ruled out (" + "; ".join(tried) + ")",
        {"phases": len(tried)},
    )


def _phases(
    size: int, seed: int, budget: Budget
) -> Iterator[tuple[str, Solver, int | None, dict[str, Any]]]:
    """The search phases for what is left, in order: the strategy's name, its function,
    its step budget and its options.  Each strategy is imported when its phase comes.

    Step budgets: a walk that succeeds takes about ``size`` steps (moves, rotations);
    each phase draws new random choices.
    """
    from .warnsdorff import warnsdorff

    yield "warnsdorff", warnsdorff, 10 * size + 1000, {"seed": seed, "attempts": 2}
    if size <= DIVE_LIMIT:
        from .backtracking import backtrack

        dive = {"order": "warnsdorff", "prune": True, "memo": True, "restarts": size, "seed": seed}
        yield "backtrack", backtrack, 4 * size + 1000, dive
    yield "warnsdorff", warnsdorff, 20 * size + 2000, {"seed": seed + 1, "attempts": 10}
    if size <= SAT_LIMIT:
        from .sat import sat

        conflicts = SAT_FALLBACK_CONFLICTS if budget.timeout is None else None
        yield "sat", sat, conflicts, {"shortcuts": False}


def _between_ends(problem: Problem) -> bool:
    """An open knight's tour between two given squares on a board with both sides >= 6,
    or a thin board (3 to 5 ranks or files) of more than :data:`EXACT_LIMIT` squares."""
    board = problem.board
    if (
        problem.closed
        or problem.start is None
        or problem.end is None
        or board.leaper != KNIGHT
        or board.removed
    ):
        return False
    from .corridor import MIN_SIDE  # the constructions between two ends, only when asked
    from .strips import THIN

    side = min(board.m, board.n)
    return side >= MIN_SIDE or (side in THIN and board.num_squares > EXACT_LIMIT)


def _explained(result: SearchResult, problem: Problem) -> SearchResult:
    """Add the theorem's clause to the reason for absence, when a theorem covers the case."""
    board = problem.board
    if result.status is not Status.PROVEN_ABSENT or not board.is_standard:
        return result
    if problem.start is not None or problem.end is not None:
        return result
    theorem = closed_tour_exists if problem.closed else open_tour_exists
    verdict = theorem(board.m, board.n)
    if not verdict and result.certificate is not None and result.certificate.kind != "theorem":
        return replace(result, reason=f"{result.reason} ({verdict.reason})")
    return result


def _construct(problem: Problem, ends: dict[str, Any], budget: Budget) -> SearchResult:
    """divide's construction alone (:func:`knightgraph.solvers.divide.construct`): ``auto``
    never goes through the public method ``divide``, which hands its leftovers to ``auto``."""
    from .divide import construct

    return _run(construct, problem, ends, budget)


def _run(
    method: Solver, problem: Problem, ends: dict[str, Any], budget: Budget, **options: Any
) -> SearchResult:
    """Run one strategy on the problem, under ``budget`` (the outermost call gates its answer)."""
    return method(problem.board, closed=problem.closed, budget=budget, **ends, **options)
