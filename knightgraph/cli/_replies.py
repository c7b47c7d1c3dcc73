"""Pieces of the answers every board kind shares: the search as the commands run it
(on the command's one budget), the ABORTED result of a command its backstop stopped, the
reason and verdict ``exists`` gives, what the theorems say, a graph board's numbered board.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._shared import progress_bar

if TYPE_CHECKING:
    from ..tours.results import SearchResult


def search_board(
    args: argparse.Namespace,
    board: Any,
    start: Any,
    end: Any,
    options: dict[str, Any] | None = None,
) -> SearchResult:
    """``find_tour`` as the search commands ask for it (``tour``, ``draw tour``): the
    shared flags from ``args``, a progress bar on a terminal.

    With the strategy's ``options`` (a board's search), the search runs on the command's
    one budget (:func:`search_budget`): it stops at the deadline of the ``--timeout`` the
    user gave, and says so in the user's number.  A graph board's search (``options``
    None: it takes no strategy options) runs on the same budget."""
    from ..solvers import find_tour, get_solver

    with progress_bar("searching") as progress:
        request: dict[str, Any] = {"closed": args.closed, "start": start, "end": end}
        budget = search_budget(args, progress)
        if options is None:
            return find_tour(board, method=args.method, seed=args.seed, budget=budget, **request)
        # the strategy itself: find_tour takes no Budget
        return get_solver(args.method)(board, seed=args.seed, budget=budget, **request, **options)


def search_budget(
    args: argparse.Namespace, progress: Callable[[dict[str, Any]], None] | None
) -> Any:
    """The command's one :class:`~knightgraph.running.budget.Budget` (its clock started
    with the command: building the board counts) with the search's ``--limit`` and
    progress callback; a new one without ``--timeout``.

    Examples
    --------
    >>> import argparse
    >>> from knightgraph.running.budget import Budget
    >>> args = argparse.Namespace(budget=Budget(0.2), limit=50)
    >>> budget = search_budget(args, None)  # the user's timeout, on the command's clock
    >>> budget.timeout, budget.limit, budget.started == args.budget.started
    (0.2, 50, True)
    """
    from dataclasses import replace

    from ..running.budget import Budget

    command = getattr(args, "budget", None)
    if command is None:
        return Budget.make(None, args.limit, progress)
    return replace(Budget.make(command.timeout, args.limit, progress), started=command.started)


def stopped_result(args: argparse.Namespace, reason: str) -> SearchResult:
    """The ABORTED result of a command stopped by its backstop (see
    :func:`~knightgraph.cli._running._answer_when_time_is_up`)."""
    from ..tours.results import SearchResult, Status

    method = getattr(args, "method", "")
    return SearchResult(Status.ABORTED, method=method, reason=reason)


def exists_reason(result: SearchResult) -> str:
    if result.tour is not None:
        return f"a tour was found by {result.method} and verified"
    if result.certificate is not None:
        return result.certificate.reason
    return f"undecided: {result.reason}"


def exists_verdict(result: SearchResult) -> bool | None:
    """True, False or None (unknown): what ``exists`` answers."""
    from ..tours.results import Status

    return {Status.FOUND: True, Status.PROVEN_ABSENT: False}.get(result.status)


def theorem_check(
    result: SearchResult, board: Any, closed: bool, ends: tuple[Any, Any]
) -> dict[str, Any] | None:
    """What the existence theorem says, and whether the proof agrees (it must)."""
    from ..proofs.theorems import closed_tour_exists, open_tour_exists
    from ..tours.results import Status

    if not board.is_standard or ends != (None, None):
        return None
    verdict = (closed_tour_exists if closed else open_tour_exists)(board.m, board.n)
    agrees = None if result.status is Status.ABORTED else result.found == bool(verdict)
    return {"exists": bool(verdict), "reason": verdict.reason, "agrees": agrees}


def numbered(board: Any, order: list[int]) -> str:
    """The visiting numbers on a graph board (3-D: the levels side by side, level 1 first).

    Examples
    --------
    >>> from knightgraph.boards.topology import topology_board
    >>> print(numbered(topology_board(2, 3, levels=2), list(range(12))))  # numbers, not a tour
    2 |  7  9 11    8 10 12
    1 |  1  3  5    2  4  6
         a  b  c    a  b  c
    """
    from ..boards.board import file_name

    shape = board.shape
    m, n = shape[0], shape[1]
    k = shape[2] if len(shape) == 3 else 1
    at = {board.node(v): i + 1 for i, v in enumerate(order)}
    width = len(str(len(order)))
    rows = []
    for r in range(m - 1, -1, -1):
        cells = []
        for lv in range(k):
            keys = [(r, c) if len(shape) == 2 else (r, c, lv) for c in range(n)]
            cells.append(" ".join(f"{at[key]:>{width}}" for key in keys))
        rows.append(f"{r + 1:>{len(str(m))}} | " + "   ".join(cells))
    files = " ".join(f"{file_name(c):>{width}}" for c in range(n))
    rows.append(" " * (len(str(m)) + 3) + "   ".join([files] * k))
    return "\n".join(rows)
