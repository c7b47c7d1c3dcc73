"""Search strategies behind one signature and one registry.

Use :func:`find_tour` (or ``knightgraph tour --method NAME``); each strategy is
also importable from its module.  Registered names: ``auto``, ``backtrack``,
``warnsdorff``; :func:`solver` registers more.

Examples
--------
>>> from knightgraph import find_tour, Status
>>> res = find_tour(8, 8, closed=True, start="d4", seed=0)
>>> res.status is Status.FOUND, res.tour.algebraic()[0], res.tour.closed
(True, 'd4', True)
>>> find_tour(4, 4).certificate.kind
'sat-refutation'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.coercion import as_any_board
from ..boards.graphboard import is_graph
from ..exceptions import InvalidOptionError, SearchAbortedError
from ..running.budget import Budget
from ..tours.results import SearchResult, Status
from .base import (
    Problem,
    Solver,
    SolverInfo,
    available_methods,
    get_solver,
    solver,
    solver_for,
    solver_info,
)

__all__ = [
    "Budget",
    "Problem",
    "Solver",
    "SolverInfo",
    "available_methods",
    "estimate_memory",
    "find_tour",
    "get_solver",
    "solver",
    "solver_info",
    "tour_exists",
]


def estimate_memory(board: Board, method: str = "auto") -> int:
    """Bytes a search with ``method`` needs on ``board``, estimated before allocating.

    Examples
    --------
    >>> estimate_memory(Board(1000, 1000), "warnsdorff")
    720000000
    """
    return solver_info(method).memory(board)


def find_tour(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    method: str = "auto",
    seed: int | None = None,
    limit: int | None = None,
    timeout: float | None = None,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    progress: Callable[[dict[str, Any]], None] | None = None,
    symmetric: str | None = None,
    **options: Any,
) -> SearchResult:
    """Find a knight's tour of an ``m x n`` board, or prove that none exists.

    Parameters
    ----------
    m, n : int, or a Board as ``m``
        The board (``n`` defaults to ``m``).  A networkx graph (or a
        :class:`~knightgraph.boards.graphboard.GraphBoard`: a torus, a cylinder, a 3-D board)
        as ``m`` asks for a Hamiltonian path or cycle of it
        (methods ``auto``, ``sat``, ``backtrack``: :data:`~knightgraph.solvers.base.GRAPH_METHODS`;
        the tour is a :class:`~knightgraph.Tour` of the graph board).
    closed : bool
        Ask for a closed tour (the last square one move from the first).
    start, end : square, optional
        Required first / last square, as ``"d4"``, ``"3,3"`` or ``(3, 3)``.
    method : str
        A registered strategy (:func:`available_methods`); ``"auto"`` picks one.
    seed : int, optional
        Seed for randomised strategies (same seed, same tour).
    limit : int, optional
        Work budget in the strategy's unit (nodes, steps).
    timeout : float, optional
        Seconds; the search returns ABORTED when it runs out.
    leaper, removed
        As for :class:`~knightgraph.Board`.
    progress : callable, optional
        Called now and then with a dict of counters.
    symmetric : {"rot180", "rot90", "mirror"}, optional
        Ask for a tour that the half turn, the quarter turn or a reflection maps onto
        itself (:func:`~knightgraph.solvers.symmetric.find_symmetric`: methods ``auto``,
        ``sat`` and ``divide``; a ``start`` for closed tours only; no ``end`` or strategy
        options).
    **options
        Strategy options (``moves``, ``prune``, ``rule``, ``attempts``, ...).

    Returns
    -------
    SearchResult
        ``status`` FOUND (``tour`` verified), PROVEN_ABSENT (``certificate``)
        or ABORTED (``reason``).

    Raises
    ------
    InvalidBoardError, InvalidSquareError, InvalidOptionError
        For bad sizes, squares or options.
    BoardTooLargeError
        When the estimated memory exceeds what the machine has free.

    Examples
    --------
    >>> res = find_tour(5, 5, start="c3")
    >>> res.tour.algebraic()[0], len(res.tour)
    ('c3', 25)
    >>> find_tour(5, 5, start="b1").status
    <Status.PROVEN_ABSENT: 'proven_absent'>
    >>> import networkx as nx
    >>> find_tour(nx.petersen_graph(), closed=True).certificate.kind
    'sat-refutation'
    >>> find_tour(8, 8, closed=True, symmetric="rot90").certificate.data["cases"][0]["clause"]
    'cycle-quarter-turn'
    """
    running: dict[str, Any] = {} if "budget" in options else {"progress": progress}
    if is_graph(m) and "budget" not in options:
        # A networkx graph's conversion counts against the timeout too: the clock starts
        # now (a budget that would be refused is left to be refused as usual, later).
        try:
            Budget.check(timeout, limit, progress)
        except InvalidOptionError:
            pass
        else:
            running = {"budget": Budget(timeout, limit, progress)}
    budget = running.get("budget")
    try:
        board = as_any_board(
            m, n, leaper=leaper, removed=removed, stop=budget.out_of_time if budget else None
        )
    except SearchAbortedError as stop:  # the timeout came while a large graph was read
        assert budget is not None
        spent = time.monotonic() - budget.started
        reason = f"the search {budget.exceeded(0)} ({stop})"
        return SearchResult(Status.ABORTED, method=method, seconds=spent, reason=reason)
    if symmetric is not None:
        return _symmetric(board, symmetric, closed, start, end, method, limit, timeout, options)
    return solver_for(method, board, options)(
        board,
        closed=closed,
        start=start,
        end=end,
        seed=seed,
        limit=limit,
        timeout=timeout,
        **running,
        **options,
    )


def _symmetric(
    board: Any,
    symmetric: str,
    closed: bool,
    start: Any,
    end: Any,
    method: str,
    limit: int | None,
    timeout: float | None,
    options: dict[str, Any],
) -> SearchResult:
    """``find_tour(..., symmetric=...)``: refuse what a symmetric request does not take,
    then :func:`~knightgraph.solvers.symmetric.find_symmetric`."""
    from ..exceptions import InvalidOptionError
    from .symmetric import find_symmetric

    if not isinstance(board, Board):
        raise InvalidOptionError("symmetric tours are for rectangular boards, not graphs")
    if end is not None or (start is not None and not closed):
        raise InvalidOptionError(
            "a symmetric tour is asked for whole: no end, and a start for closed tours only"
        )
    if options:
        raise InvalidOptionError(f"a symmetric tour takes no {', '.join(sorted(options))}")
    return find_symmetric(
        board, symmetric, closed=closed, method=method, timeout=timeout, limit=limit, start=start
    )


def tour_exists(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    timeout: float | None = None,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    progress: Callable[[dict[str, Any]], None] | None = None,
    symmetric: str | None = None,
) -> SearchResult:
    """Decide whether a tour exists, by proof: a verified tour, or a certificate of absence.

    ABORTED means undecided (timeout, or a large board where only the
    heuristic runs and it gave up): never a guess.

    Examples
    --------
    >>> tour_exists(3, 10, closed=True).found
    True
    >>> tour_exists(3, 8, closed=True).certificate.kind
    'sat-refutation'
    >>> tour_exists(5, 6, closed=True, symmetric="rot180").certificate.kind  # SAT says no
    'symmetric'
    """
    return find_tour(
        m,
        n,
        closed=closed,
        start=start,
        end=end,
        timeout=timeout,
        leaper=leaper,
        removed=removed,
        progress=progress,
        symmetric=symmetric,
    )
