"""The one solver signature, the registry, and what every search shares.

Every strategy is a function with the signature::

    solver(board, *, closed=False, start=None, end=None, seed=None,
           limit=None, timeout=None, **options) -> SearchResult

registered under a name with :func:`solver`.  The decorator turns an
implementation written against a normalised :class:`Problem` and a
:class:`Budget` into that public signature: it parses and checks the ends,
times the run, and re-verifies every tour it returns against the request, so no
strategy can hand back a tour that starts or ends in the wrong place.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers import get_solver, available_methods
>>> "warnsdorff" in available_methods()
True
>>> res = get_solver("warnsdorff")(Board(8, 8), closed=True, start="d4", seed=1)
>>> res.status.name, res.tour.algebraic()[0], res.tour.closed
('FOUND', 'd4', True)
"""

from __future__ import annotations

import importlib
import inspect
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import wraps
from typing import Any, Protocol, cast

import numpy as np

from ..boards.board import Board, SquareLike
from ..exceptions import InternalError, InvalidOptionError
from ..running.budget import Budget
from ..running.resources import require_memory
from ..tours.results import Certificate, SearchResult
from .options import check_option_types, option_kinds, option_names
from .problem import Problem

__all__ = [
    "GRAPH_METHODS",
    "Budget",
    "Problem",
    "Solver",
    "SolverInfo",
    "available_methods",
    "get_solver",
    "solver",
    "solver_for",
    "solver_info",
]


class Solver(Protocol):
    """The public solver signature.

    Examples
    --------
    >>> import inspect
    >>> list(inspect.signature(get_solver("sat")).parameters)  # then the strategy's own options
    ['board', 'closed', 'start', 'end', 'seed', 'limit', 'timeout', 'solver', 'shortcuts']
    """

    def __call__(
        self,
        board: Board,
        *,
        closed: bool = False,
        start: SquareLike | None = None,
        end: SquareLike | None = None,
        seed: int | None = None,
        limit: int | None = None,
        timeout: float | None = None,
        **options: Any,
    ) -> SearchResult: ...


Implementation = Callable[..., SearchResult]


@dataclass(frozen=True)
class SolverInfo:
    """A registry entry: where the solver lives, whether it can prove absence, what it costs.

    Examples
    --------
    >>> info = solver_info("warnsdorff")  # a heuristic, 720 bytes a square
    >>> info.exact, sorted(info.options), info.memory(Board(1000, 1000))
    (False, ['attempts', 'moves', 'repair', 'rule'], 720000000)
    """

    name: str
    exact: bool
    bytes_per_square: int
    fixed_bytes: int
    summary: str
    options: frozenset[str] = frozenset()
    accepts: Callable[[Board], str | None] | None = None
    """Why the strategy refuses a board (None: it takes it), asked before any work."""

    def refusal(self, board: Board) -> str | None:
        """Why the strategy does not take ``board`` at all (a bad request), or None.

        Examples
        --------
        >>> solver_info("divide").refusal(Board(8, 8, leaper=(1, 3)))
        'method divide builds tours for the knight only, not the leaper (1, 3): use method auto, backtrack, warnsdorff or sat'
        >>> solver_info("warnsdorff").refusal(Board(8, 8, leaper=(1, 3))) is None
        True
        """
        return None if self.accepts is None else self.accepts(board)

    def memory(self, board: Board) -> int:
        """Bytes a search on ``board`` needs, with the verified tour it returns."""
        return board.area * self.bytes_per_square + self.fixed_bytes


_REGISTRY: dict[str, SolverInfo] = {}
_LOADED: dict[str, Solver] = {}

_BUILTIN: dict[str, tuple[str, str]] = {
    "auto": ("knightgraph.solvers.auto", "auto"),
    "backtrack": ("knightgraph.solvers.backtracking", "backtrack"),
    "warnsdorff": ("knightgraph.solvers.warnsdorff", "warnsdorff"),
    "sat": ("knightgraph.solvers.sat", "sat"),
    "divide": ("knightgraph.solvers.methods", "divide"),
}
"""Built-in strategies: each public name and the function serving it, as (module, function),
imported on first use (so that ``import knightgraph`` stays instant).  ``divide`` is served by
:func:`knightgraph.solvers.methods.divide`: the construction, then ``auto`` on what it
leaves.
Only :func:`find_tour`, the gate and the command line look names up here; the strategies
call one another directly (``auto`` calls them), never through this table."""


def solver(
    name: str,
    *,
    exact: bool = False,
    bytes_per_square: int = 64,
    fixed_bytes: int = 0,
    summary: str = "",
    accepts: Callable[[Board], str | None] | None = None,
    graphs: Implementation | None = None,
    register: bool = True,
) -> Callable[[Implementation], Solver]:
    """Register an implementation under ``name`` with the public solver signature.

    The implementation is called as ``impl(problem, budget, seed=seed,
    **options)`` and returns a :class:`SearchResult`; it must never report
    PROVEN_ABSENT unless ``exact`` (it may still return a certificate found by
    a cheap argument).  ``accepts(board)``, if given, says why the strategy does not
    take a board at all (None: it does): asked first, when the strategy is called
    directly (not from another strategy), it turns such a request into
    :class:`InvalidOptionError` before any work.  ``graphs``, if given, is the implementation
    the strategy runs on a graph board (a torus, a cylinder, a 3-D board, any networkx
    graph), called the same way; a graph request takes no strategy options, and a strategy
    without one refuses graphs (:data:`GRAPH_METHODS`).  Before it runs, the memory it needs
    (``bytes_per_square`` per cell, counting the tour it returns and its
    verification, plus ``fixed_bytes``) is checked against what the machine
    has free: :class:`BoardTooLargeError` otherwise.  With ``register=False`` the
    function is built the same way but not registered: a part that an orchestrating
    strategy calls directly (``divide``'s construction, which ``auto`` runs), while the
    registered name serves the whole method.

    Examples
    --------
    Warnsdorff's rule, written against the :class:`Problem` (the start as a flat index):

    >>> @solver("example-greedy", summary="Warnsdorff's rule without tie-breaks or repairs")
    ... def greedy(problem, budget, *, seed=None):
    ...     moves = problem.board.move_table()
    ...     path = [0 if problem.start is None else problem.start]
    ...     def onward(i):
    ...         return [j for j in moves[i] if j >= 0 and j not in path]
    ...     while onward(path[-1]):
    ...         path.append(min(onward(path[-1]), key=lambda j: len(onward(j))))
    ...     if len(path) < problem.board.num_squares:
    ...         return problem.aborted(f"stuck after {len(path)} squares")
    ...     return problem.found(path)
    >>> res = greedy(Board(8, 8), start="a1")  # the public signature: squares by name
    >>> res.method, res.tour.algebraic()[:6]
    ('example-greedy', ['a1', 'b3', 'c1', 'a2', 'b4', 'a6'])
    >>> greedy(Board(8, 8), rule="roth")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: unknown option 'rule' for method 'example-greedy'
    """

    def decorate(impl: Implementation) -> Solver:
        known = option_names(impl)
        kinds = option_kinds(impl)

        @wraps(impl)
        def run(
            board: Board,
            *,
            closed: bool = False,
            start: SquareLike | None = None,
            end: SquareLike | None = None,
            seed: int | None = None,
            limit: int | None = None,
            timeout: float | None = None,
            **options: Any,
        ) -> SearchResult:
            need: int | None = None  # the memory a graph board's search needs: not estimated
            if _on_graph(board):  # which implementation serves the board, checked how
                _refuse_for_graph(name, options, takes_graphs=graphs is not None)
                serve, check = cast(Implementation, graphs), _check_on_graph
            else:
                _refuse_options(name, known, options)
                check_option_types(name, kinds, options)
                serve, check, need = impl, _check_on_board, info.memory(board)
            problem = Problem.make(board, closed, start, end)
            why = info.refusal(problem.board) if _DEPTH.get() == 0 else None
            if why is not None:
                raise InvalidOptionError(why)
            if seed is not None and (
                isinstance(seed, bool) or not isinstance(seed, int | np.integer)
            ):
                raise InvalidOptionError(f"invalid seed {seed!r}: expected a whole number")
            budget = options.pop("budget", None) or Budget.make(
                timeout, limit, options.pop("progress", None)
            )
            if need is not None:
                require_memory(
                    need,
                    f"a tour of {board.m}x{board.n} ({board.area:,} squares) with method {name}",
                )
            began = time.perf_counter()
            outermost = _DEPTH.get() == 0
            depth = _DEPTH.set(_DEPTH.get() + 1)
            try:
                result = serve(problem, budget, seed=seed, **options)
            finally:
                _DEPTH.reset(depth)
            if not result.method:
                result = replace(result, method=name)
            _check_answer(problem, result)
            if outermost:
                result = _certified(problem, budget, result, check)
            return replace(result, seconds=time.perf_counter() - began)

        run.__signature__ = _public_signature(run, impl)  # type: ignore[attr-defined]
        info = SolverInfo(name, exact, bytes_per_square, fixed_bytes, summary, known, accepts)
        if register:
            _REGISTRY[name] = info
            _LOADED[name] = run
        return run

    return decorate


GRAPH_METHODS = ("auto", "sat", "backtrack")
"""The strategies that take a graph board (a torus, a cylinder, a 3-D board, any networkx
graph) as well as a rectangle: each has its implementation for graphs (``graphs=``)."""

_RUNNING = frozenset({"budget", "progress"})
"""Keywords every strategy takes besides its own options: how it is run."""


def _on_graph(board: Any) -> bool:
    """Whether ``board`` is a graph board, not a rectangle: the one place the solvers ask
    (the registry's test of which boards a strategy accepts: which implementation serves the
    board, with which options, memory estimate and certificate checker)."""
    return not isinstance(board, Board)


def _refuse_options(name: str, known: frozenset[str], options: dict[str, Any]) -> None:
    """Refuse an option the strategy ``name`` does not take (``known``) on a rectangle."""
    unknown = sorted(set(options) - known - _RUNNING)
    if unknown:
        raise InvalidOptionError(
            f"unknown option {unknown[0]!r} for method {name!r}"
            + (f": it takes {', '.join(sorted(known))}" if known else "")
        )


def _refuse_for_graph(name: str, options: dict[str, Any], *, takes_graphs: bool) -> None:
    """Refuse a request on a graph board: any strategy option, then a strategy that takes
    no graph (``takes_graphs`` False; in this order).

    Examples
    --------
    >>> _refuse_for_graph("sat", {"progress": print}, takes_graphs=True)
    >>> _refuse_for_graph("warnsdorff", {"moves": "1,2"}, takes_graphs=False)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: unknown option 'moves' for a graph
    >>> _refuse_for_graph("warnsdorff", {}, takes_graphs=False)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: unknown method 'warnsdorff' for a graph: choose from auto, sat, backtrack
    """
    own = sorted(set(options) - _RUNNING)
    if own:
        raise InvalidOptionError(f"unknown option {own[0]!r} for a graph")
    if not takes_graphs:
        raise InvalidOptionError(
            f"unknown method {name!r} for a graph: choose from {', '.join(GRAPH_METHODS)}"
        )


_PUBLIC_TYPES = {
    "board": "Board",
    "closed": "bool",
    "start": "SquareLike | None",
    "end": "SquareLike | None",
    "seed": "int | None",
    "limit": "int | None",
    "timeout": "float | None",
}


def _public_signature(run: Callable[..., Any], impl: Implementation) -> inspect.Signature:
    """What ``help()`` and the docs show: the public solver signature (board, the request, the
    budget) followed by the strategy's own options, not its internal ``(problem, budget)``."""
    public = inspect.signature(run, follow_wrapped=False)
    common = [
        p.replace(annotation=_PUBLIC_TYPES.get(p.name, p.annotation))
        for p in public.parameters.values()
        if p.kind is not p.VAR_KEYWORD
    ]
    own = [
        p.replace(kind=p.KEYWORD_ONLY)
        for p in inspect.signature(impl).parameters.values()
        if p.name not in ("problem", "budget", "seed")
    ]
    return public.replace(parameters=[*common, *own])


def _check_answer(problem: Problem, result: SearchResult) -> None:
    """Check a returned tour against the request (a failure here is our bug, not the user's).

    The tour itself was verified when it was built; this checks that it is the
    tour that was asked for.
    """
    tour = result.tour
    if tour is None:
        return
    wrong = (
        tour.board != problem.board
        or tour.closed != problem.closed
        or (problem.start is not None and int(tour.order[0]) != problem.start)
        or (problem.end is not None and int(tour.order[-1]) != problem.end)
    )
    if wrong:
        raise InternalError(
            f"internal error: {result.method} returned {tour!r} for a {problem.describe()}"
        )


_DEPTH: ContextVar[int] = ContextVar("knightgraph_solver_depth", default=0)
"""How many solver calls are under way in this context: only the outermost one gates."""


def _certified(
    problem: Problem, budget: Budget, result: SearchResult, check: Checker
) -> SearchResult:
    """Pass an answer through :func:`knightgraph.solvers.gate.gate`, the one gate.

    The checker is the independent one for this very request (``check``);
    the SAT fallback is the ``sat`` strategy looked up in the
    registry (not imported here, so the gate adds no dependency between strategies),
    called one level deeper so that it is not gated by itself.  Strategies called by
    another strategy (``auto``'s phases) are not gated: the outermost call gates what
    they return, once.
    """
    from .gate import gate

    def refute(deadline: Budget | None) -> SearchResult:
        depth = _DEPTH.set(_DEPTH.get() + 1)
        try:
            ends = problem.ends()
            return get_solver("sat")(
                problem.board,
                closed=problem.closed,
                start=ends["start"],
                end=ends["end"],
                budget=deadline,
            )
        finally:
            _DEPTH.reset(depth)

    return gate(
        result,
        what=problem.describe(),
        budget=budget,
        check=lambda certificate: check(problem, certificate),
        refute=refute,
    )


def _check_on_graph(problem: Problem, certificate: Certificate) -> tuple[bool, str]:
    """The independent checker's verdict on ``certificate`` for a request on a graph board
    (:func:`~knightgraph.certcheck.checker.check_graph_certificate`)."""
    from ..certcheck.checker import check_graph_certificate

    board = problem.board
    start, end = problem.names()
    return check_graph_certificate(
        certificate.to_dict(),
        board.names,
        [[board.names[i], board.names[j]] for i, j in board.edges()],
        closed=problem.closed,
        start=start,
        end=end,
    )


def _check_on_board(problem: Problem, certificate: Certificate) -> tuple[bool, str]:
    """The independent checker's verdict on ``certificate`` for a request on a rectangle
    (:mod:`knightgraph.certcheck`, through :func:`knightgraph.proofs.certificates.check`)."""
    from ..proofs.certificates import check

    return check(certificate, problem.board, closed=problem.closed, **problem.ends())


Checker = Callable[[Problem, Certificate], tuple[bool, str]]
"""An independent checker's verdict on a certificate for a request: ``(ok, reason)``."""


def available_methods() -> list[str]:
    """Names of the registered strategies, built-in ones first.

    Examples
    --------
    >>> available_methods()[:3]
    ['auto', 'backtrack', 'warnsdorff']
    """
    return list(dict.fromkeys([*_BUILTIN, *_REGISTRY]))


def solver_info(name: str) -> SolverInfo:
    """The registry entry of ``name``; raises InvalidOptionError naming the choices.

    Examples
    --------
    >>> solver_info("divide").summary
    'divide and conquer: joined block tours on any board, linear time'
    """
    get_solver(name)
    return _REGISTRY[name]


def solver_for(name: str, board: Any, options: dict[str, Any]) -> Solver:
    """The solver ``name`` for a request on ``board`` with strategy ``options``: on a graph
    board, the options and the name are refused first, worded for a graph.

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> solver_for("sat", GraphBoard.from_networkx(nx.petersen_graph()), {}) is get_solver("sat")
    True
    >>> solver_for("x", GraphBoard.from_networkx(nx.petersen_graph()), {})
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: unknown method 'x' for a graph: choose from auto, sat, backtrack
    """
    if _on_graph(board):  # before the registry's own refusal of an unknown name
        _refuse_for_graph(name, options, takes_graphs=name in GRAPH_METHODS)
    return get_solver(name)


def get_solver(name: str) -> Solver:
    """The solver function registered as ``name`` (its module is imported on first use).

    Examples
    --------
    >>> backtrack = get_solver("backtrack")
    >>> backtrack(Board(5, 5), start="a1").tour.algebraic()[:5]
    ['a1', 'b3', 'c5', 'e4', 'd2']
    >>> get_solver("Warnsdorff")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: unknown method 'Warnsdorff': choose from auto, backtrack, warnsdorff, ...
    """
    if name not in _LOADED:
        if name not in _BUILTIN:
            raise InvalidOptionError(
                f"unknown method {name!r}: choose from {', '.join(available_methods())}"
            )
        module, function = _BUILTIN[name]
        _LOADED[name] = getattr(importlib.import_module(module), function)
    return _LOADED[name]
