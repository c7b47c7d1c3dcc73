"""Public methods composed of strategies: ``divide`` is the construction, then ``auto``.

The strategies never call one another by name, and none calls ``auto``: ``auto``
(:mod:`knightgraph.solvers.auto`) orchestrates them by calling their functions, and
what a public method adds on top of one strategy is composed here, above both.
The registry (:func:`~knightgraph.solvers.base.get_solver`) maps the name ``divide``
to :func:`divide` below.

Examples
--------
>>> from knightgraph.solvers import get_solver
>>> from knightgraph.solvers.methods import divide
>>> get_solver("divide") is divide
True
"""

from __future__ import annotations

from ..running.budget import Budget
from ..tours.results import SearchResult, Status
from .auto import auto
from .base import Problem, solver
from .divide import FALLBACK_LIMIT, SPEC, construction, unserved

__all__ = ["divide"]


@solver("divide", **SPEC)
def divide(problem: Problem, budget: Budget, *, seed: int | None = None) -> SearchResult:
    """The method ``divide``: the construction, then ``auto`` on what it leaves.

    The construction (:func:`knightgraph.solvers.divide.construct`) joins stored block
    tours in linear time; where no construction serves the request (no closed tour on
    the board's shape, or a start the construction cannot place), a cheap certificate
    settles absence, and otherwise ``auto`` answers it on boards up to
    :data:`~knightgraph.solvers.divide.FALLBACK_LIMIT` squares (``stats["fallback"]``
    names the strategy that found the tour).  ``divide`` never calls ``auto`` itself:
    the two are composed here, above both.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        As for :func:`~knightgraph.solvers.divide.construct`.

    Returns
    -------
    SearchResult
        FOUND on every knight board with a tour of the kind asked for;
        PROVEN_ABSENT where no tour exists (a cheap certificate, or one from
        ``auto``: a checked SAT refutation on the small boards); ABORTED otherwise.

    Raises
    ------
    InvalidOptionError
        For an ``end`` with a ``start`` for a closed tour (use ``auto`` or ``sat``),
        or a board divide does not take (another leaper, removed squares).

    Examples
    --------
    >>> from knightgraph import Board
    >>> res = divide(Board(12, 12), closed=True, start="e5")  # the construction
    >>> res.method, res.tour.algebraic()[0], res.stats
    ('divide', 'e5', {'squares': 144})
    >>> res = divide(Board(5, 5), start="c3")  # the construction cannot start there
    >>> res.method, res.tour.algebraic()[0], res.stats
    ('divide', 'c3', {'fallback': 'sat'})
    >>> divide(Board(4, 4)).certificate.kind  # no construction: auto refutes it
    'sat-refutation'
    """
    del seed
    built = construction(problem, budget)
    if not isinstance(built, str):
        return built
    settled = unserved(problem, built)
    if settled.status is not Status.ABORTED or problem.board.num_squares > FALLBACK_LIMIT:
        return settled
    ends = problem.ends()
    result = auto(
        problem.board, closed=problem.closed, start=ends["start"], end=ends["end"], budget=budget
    )
    if result.status is Status.FOUND and result.tour is not None:
        return problem.found(result.tour.order, {"fallback": result.method})
    return result
