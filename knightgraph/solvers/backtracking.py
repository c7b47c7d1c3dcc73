"""Depth-first search: the textbook backtracking, and an exact pruned search.

``backtrack`` is the search taught in the seeds: from the start square try the
moves in a fixed order, go deeper while an unvisited square is reached, and
step back when none is left.  It is iterative (no recursion limit) and counts
its work the textbook way: ``placed`` squares put on the path after the start,
``tried`` candidate moves examined (on the board or not).

Options turn it into an exact search that is fast on small boards while still
complete: ``order="warnsdorff"`` tries the move with the fewest onward moves
first, ``prune=True`` cuts subtrees that provably hold no tour, and
``memo=True`` remembers positions ``(square, unvisited set)`` whose subtree
failed.  With ``order="fixed"`` none of these changes which tour is found
first; they only skip subtrees that contain none.

This module is the strategy: its options, its starts and its answers.  The
search itself (tables, pruning rules, the pure-Python and the compiled runs)
is :mod:`knightgraph.solvers._dfs`, the SAT oracle
:mod:`knightgraph.solvers._oracle`.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers.backtracking import backtrack
>>> res = backtrack(Board(5, 5), start="a1")
>>> res.status.name, res.stats["placed"], res.stats["tried"]
('FOUND', 8839, 70624)
>>> pruned = backtrack(Board(5, 5), start="a1", prune=True)
>>> pruned.tour == res.tour, pruned.stats["placed"] < res.stats["placed"]
(True, True)
>>> res = backtrack(Board(4, 4), prune=True, order="warnsdorff")
>>> res.reason
'no open tour on 4x4: a complete depth-first search (..., pruned) found no tour from any start; re-proved for the independent checker: a SAT solver refuted ...'
>>> res.certificate.kind, res.stats["unchecked_certificate"]["kind"]
('sat-refutation', 'exhaustive-search')
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..exceptions import InvalidOptionError, SearchAbortedError
from ..proofs.certificates import quick_obstruction
from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult
from ._dfs import MEMO_BYTES, Abort, GraphSearch, Search, Starts, compiled_run
from ._oracle import oracle_search
from .base import Problem, solver
from .moves import parse_moves
from .problem import graph_obstruction

__all__ = ["backtrack", "graph_backtrack"]


def graph_backtrack(problem: Problem, budget: Budget, *, seed: int | None = None) -> SearchResult:
    """``backtrack`` on a graph board: the cheap certificates
    (:func:`~knightgraph.solvers.problem.graph_obstruction`), then the pruned depth-first
    search of :class:`~knightgraph.solvers._dfs.GraphSearch`.  Its exhaustive "no" (an
    ``exhaustive-search`` certificate, ``stats["nodes"]``) is re-proved by SAT in the gate.

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> petersen = GraphBoard.from_networkx(nx.petersen_graph())
    >>> graph_backtrack(Problem(petersen, True), Budget()).certificate.kind
    'exhaustive-search'
    """
    del seed
    certificate = graph_obstruction(problem)
    if certificate is not None:
        return problem.absent(certificate, {})
    search = GraphSearch(problem, budget)
    try:
        found = search.run()
    except SearchAbortedError as stop:
        return problem.aborted(str(stop), {"nodes": search.nodes})
    if found is not None:
        return problem.found(found, {"nodes": search.nodes})
    return problem.absent(
        Certificate(
            "exhaustive-search",
            f"depth-first search visited {search.nodes:,} nodes and found no tour",
            {"nodes": search.nodes},
        ),
        {"nodes": search.nodes},
    )


@solver(
    "backtrack",
    exact=True,
    bytes_per_square=320,
    fixed_bytes=MEMO_BYTES,
    summary="depth-first search in a fixed move order, optionally pruned",
    graphs=graph_backtrack,
)
def backtrack(
    problem: Problem,
    budget: Budget,
    *,
    seed: int | None = None,
    moves: str | Sequence[Sequence[int]] | None = None,
    order: str = "fixed",
    prune: bool = False,
    memo: bool = False,
    restarts: int = 0,
    oracle: bool = False,
) -> SearchResult:
    """Exact depth-first search for a tour; complete unless stopped by the budget.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature (``seed`` seeds the random tie-breaks of
        ``restarts``; ``limit`` counts placed squares).
    moves : str or sequence of (int, int), optional
        The trial order as ``(d_rank, d_file)`` pairs, e.g.
        ``"-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"``; default the board's
        order (for the knight the seed-004 order ``(2,1) (1,2) (-1,2) (-2,1)
        (-2,-1) (-1,-2) (1,-2) (2,-1)``).
    order : {"fixed", "warnsdorff"}
        ``"warnsdorff"`` tries the move with the fewest unvisited onward
        squares first (ties in the fixed order).
    prune : bool
        Cut subtrees that contain no tour (see Notes).
    memo : bool
        Remember failed positions (up to four million, and 512 MiB) and skip
        them when met again.
    oracle : bool
        With ``order="fixed"``: find the same first tour without searching,
        by asking a SAT solver, child by child in the move order, whether the
        subtree below holds a tour (see Notes).
    restarts : int
        With ``order="warnsdorff"``: break ties at random (seeded) and restart
        the search with fresh ties after ``restarts * luby(k)`` placements in
        run ``k`` (Luby's sequence), keeping the memo.  Runs grow without
        bound, so the search stays complete; 0 (default) means one run.

    Returns
    -------
    SearchResult
        FOUND with the first tour in the search order; PROVEN_ABSENT with an
        ``"exhaustive-search"`` certificate when every branch failed; ABORTED
        on the budget.  ``stats`` has ``placed`` and ``tried``.

    Notes
    -----
    The search is depth-first over paths from the start: each node extends
    the path by one leap to an unvisited square.  Without pruning it visits
    up to the number of such paths, exponential in the number of squares
    (the seeds' 8x8 run examines 25.9 million moves; 10x10 does not finish).

    Pruning rules, checked on the set ``U`` of unvisited squares after each
    move to square ``x`` (sets are Python integers used as bit sets, so each
    rule costs a few dozen whole-board operations):

    1. *Connectivity*: every square of ``U`` must be reachable from ``x``
       through ``U``.  The rest of the tour is a path from ``x`` through all of
       ``U`` inside ``U``, so a square it cannot reach can never be visited.
    2. *Enough neighbours*: in the rest of the tour every square of ``U``
       except the last is entered and left, so it needs two neighbours in
       ``U + {x}``; at most one square (the last, which must be the required
       end if there is one) may have fewer.  For a closed tour the last square
       also moves back to the start ``s``, so counting ``s`` as a neighbour,
       every square needs two, and some square of ``U`` must neighbour ``s``.
    3. *The end is entered last*: a required end square is never stepped on
       while other squares remain, since the tour would then not end there.
    4. *Colours*: a tour alternates colours, so the colour counts of the
       board and the ends must balance; this is checked once, before the
       search, as every move keeps the balance of what is left (with the
       other cheap certificates of :func:`knightgraph.proofs.certificates.quick_obstruction`).
    5. *Independent half* (boards with four ranks or files): the outer lines
       ``O`` hold half the squares and no move joins two of them
       (:func:`knightgraph.proofs.certificates.schwenk_partition` checks this on the
       board), so squares of ``O`` never take neighbouring places in the tour.
       If ``k`` squares remain, those of ``O`` fit in places ``1 .. k`` (not
       place 1 when the current square is in ``O``, not place ``k`` of a
       closed tour when the start is) only if there are at most half as many
       as places, rounded up.

    Each rule only removes paths that cannot be completed, and the surviving
    children keep their order, so with ``order="fixed"`` the first tour found
    is the one plain search finds.  Depth-first search is heavy-tailed: one
    early bad choice can cost an exponential subtree, which randomised
    restarts avoid (``restarts``: 4x16 from a corner takes minutes in one
    run, milliseconds with restarts).  ``memo`` is sound for the same reason: the
    completions of a path depend only on its last square and ``U``.  When the
    start is free, an open-tour search tries one start per orbit of the
    board's symmetry group: a symmetry maps tours to tours.

    Examples
    --------
    Seed 000's move order from a1 on 6x6 reproduces the seed's figures, and
    the SAT oracle finds the same first tour without searching:

    >>> from knightgraph import Board
    >>> seed_000 = "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"
    >>> res = backtrack(Board(6, 6), start="a1", moves=seed_000)
    >>> res.stats
    {'placed': 5421, 'tried': 43230}
    >>> backtrack(Board(6, 6), start="a1", moves=seed_000, oracle=True).tour == res.tour
    True

    Restarts avoid the heavy tail (4x16 from a corner takes minutes in one
    run); the tour ends on an outer rank, as Schwenk's partition says:

    >>> res = backtrack(Board(4, 16), start="a1", order="warnsdorff", prune=True, restarts=100)
    >>> res.found, res.tour.end[0] in (0, 3)
    (True, True)
    """
    if order not in ("fixed", "warnsdorff"):
        raise InvalidOptionError(f"invalid order {order!r}: choose 'fixed' or 'warnsdorff'")
    if oracle and order != "fixed":
        raise InvalidOptionError("the oracle follows the fixed move order: use order='fixed'")
    if restarts and order != "warnsdorff":
        raise InvalidOptionError("restarts need order='warnsdorff' (they re-break its ties)")
    board = problem.board
    pairs = parse_moves(moves, board) if moves is not None else list(board.offsets)
    if prune or oracle:  # rule 4 and the other certificates, checked once at the root
        certificate = quick_obstruction(board, closed=problem.closed, **problem.ends())
        if certificate is not None:
            return problem.absent(certificate, {"placed": 0, "tried": 0})
    why = budget.exceeded(0)  # before the start squares and tables, which take a while on
    if why:  # millions of squares
        return problem.aborted(why, {"placed": 0, "tried": 0})
    search_problem = problem.searched_from_end()
    search = Search(
        search_problem, budget, pairs, order == "warnsdorff", prune, set() if memo else None
    )
    starts = Starts(search_problem, search.warnsdorff)
    if oracle and board.num_squares > 2:
        return oracle_search(problem, search, starts)
    plain = not (prune or memo or restarts or search.warnsdorff) and board.num_squares > 1
    rng = random.Random(0 if seed is None else seed)
    for run in itertools.count(1):
        if restarts:  # a fresh tie-break, and a node allowance that grows as Luby's sequence
            search.noise = [rng.random() for _ in range(board.area)]
            search.budget = budget.phase(search.stats["placed"] + restarts * _luby(run))
        try:
            for start in starts:
                path = compiled_run(search, start) if plain else search.run(start)
                if path is not None:
                    return problem.found(path, _stats(search, restarts, run))
            return _exhausted(problem, search, starts)
        except Abort as stop:
            why = budget.exceeded(search.stats["placed"])
            if not restarts or why:
                return problem.aborted(why or str(stop), _stats(search, restarts, run))
    raise AssertionError("unreachable")


def _stats(search: Search, restarts: int, run: int) -> dict[str, Any]:
    return {**search.stats, "runs": run} if restarts else dict(search.stats)


def _luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    Restarting a randomised search after ``base * luby(i)`` steps is within a
    log factor of the best fixed cut-off (Luby, Sinclair and Zuckerman 1993).

    Examples
    --------
    >>> [_luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while True:
        block = (1 << k) - 1  # the sequence is built of blocks of length 2^k - 1
        if i == block:
            return 1 << (k - 1)
        if i < block:  # inside a block: it repeats the previous block twice
            i -= (1 << (k - 1)) - 1
            k = 1
        else:
            k += 1


def _exhausted(problem: Problem, search: Search, starts: Iterable[int]) -> SearchResult:
    where = " from any start" if problem.start is None and not problem.closed else ""
    stats = search.stats
    return problem.absent(
        Certificate(
            "exhaustive-search",
            f"a complete depth-first search ({stats['placed']:,} squares placed"
            f"{', pruned' if search.prune else ''}) found no tour{where}",
            {
                "placed": stats["placed"],
                "tried": stats["tried"],
                "starts": [problem.board.name(s) for s in starts],
                "moves": [list(m) for m in search.moves],
                "order": "warnsdorff" if search.warnsdorff else "fixed",
                "prune": search.prune,
                "memo": search.memo is not None,
            },
        ),
        stats,
    )
