"""The SAT solver of the tour encoding, held in a ``with`` block: :func:`solving`.

:class:`~knightgraph.solvers.cnf.TourCNF` builds the clauses; :func:`solving` gives
them to a python-sat solver that lives in a ``with`` block (released on every
path, exceptions included) and hands out a :class:`SolverSession`, which solves
incrementally: when the answer is several cycles, their cut clauses are added and
the solver runs again, keeping what it learnt.  This is the one place that makes a
python-sat solver for the encoding.

The same session answers queries under *assumptions* (some edges forced), which
the oracle of :func:`~knightgraph.solvers.backtracking.backtrack` uses to find the
first tour of plain depth-first search without searching.

Examples
--------
>>> from knightgraph import Board
>>> with solving(Board(3, 4)) as sat:
...     outcome = sat.solve()
>>> outcome.status, len(outcome.order)
('sat', 12)
>>> with solving(Board(4, 4)) as sat:
...     sat.solve().status
'unsat'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..boards.board import Board
from ..exceptions import SearchAbortedError
from ..running.budget import Budget
from ..running.collector import paused_collector
from .cnf import TourCNF

__all__ = ["DEFAULT_SOLVER", "PROOF_OPTIONS", "Outcome", "SolverSession", "solving"]

DEFAULT_SOLVER = "cadical195"
"""The python-sat solver used unless another is named (CaDiCaL 1.9.5)."""

PROOF_LIMIT = 2500
"""Up to this many squares the solver logs its proof from the start."""

CONFLICT_SLICE = 20_000
"""Most conflicts per solver call between budget checks."""

SLICE_SECONDS = 0.1
"""Under a timeout, each solver call is sized to last about this long."""

FIRST_SLICE = 100
"""Conflicts of the first solver call under a timeout, before the pace is known."""

ENCODE_CHECK = 256
"""Squares written to the solver between two looks at the clock."""

ORBIT_ROUNDS = 100
"""Rounds after which a session given symmetries (:meth:`SolverSession.use_symmetries`) also
adds the cut clauses of each cycle's images (orbit cuts): long runs only, so that the many
short ones keep their clauses as they were."""

PROOF_OPTIONS = {"elim": 0, "decompose": 0, "block": 0, "cover": 0, "condition": 0}
"""CaDiCaL's simplifications switched off while it logs a proof (issue 29).

Each of them sets clauses aside on CaDiCaL's *extension stack* (variable elimination,
equivalent-literal substitution, blocked, covered and conditioned clauses), and its DRUP
log records them as deleted.  When a later round adds a cut clause over a variable they
touched, CaDiCaL silently puts the clauses back (``restore_clauses``) and goes on using
them, but its DRAT tracer skips every clause it does not derive (``add_original_clause``,
restored ones included): the log then uses clauses it deleted, and a checker rightly
rejects it (G(35, 2) after 674 rounds).  Without these techniques no clause is ever
restored, and the log of any number of incremental rounds is a DRUP proof.  (CaDiCaL
1.0.3, ``cadical103``, cannot be configured: its logs of long runs may still not check,
and the gate then answers ABORTED.)"""


@dataclass
class Outcome:
    """A solver answer: ``"sat"`` with the tour's order, ``"unsat"``, or ``"aborted"``.

    Examples
    --------
    >>> from knightgraph import Board
    >>> from knightgraph.running.budget import Budget
    >>> with solving(Board(4, 4)) as sat:  # 4x4 has no open tour
    ...     sat.solve().status
    'unsat'
    >>> with solving(Board(8, 8), closed=True) as sat:
    ...     sat.solve(budget=Budget.make(timeout=0))
    Outcome(status='aborted', order=[], rounds=1)

    ``patched`` counts the cycles joined by patching (:meth:`SolverSession.use_patching`).
    """

    status: str
    order: list[int] = field(default_factory=list)
    rounds: int = 0
    patched: int = field(default=0, repr=False)
    """How many cycles of the last model :func:`~knightgraph.solvers.patching.patch` joined
    into the tour (0: the model was the tour)."""


@contextmanager
def solving(
    board: Board,
    closed: bool = False,
    start: int | None = None,
    end: int | None = None,
    *,
    solver: str = DEFAULT_SOLVER,
    proof: bool = False,
    keep_clauses: bool | None = None,
    budget: Budget | None = None,
    lucky: bool = True,
) -> Iterator[SolverSession]:
    """The tour encoding of a board and request, given to a solver that lives in this block.

    Parameters
    ----------
    board : Board
    closed : bool
    start, end : int or None
        Flat indices of required ends.
    solver : str
        A python-sat solver name (default :data:`DEFAULT_SOLVER`).
    proof : bool
        Ask the solver for a DRUP proof (for certificates of absence); CaDiCaL then runs
        without the simplifications of :data:`PROOF_OPTIONS`, so that the proof checks
        after any number of rounds.
    keep_clauses : bool, optional
        Keep every clause in the encoding's ``clauses`` (default: when ``proof`` is
        asked for; a certificate needs them, a search does not, and on large boards
        they are most of the memory).
    budget : Budget, optional
        Its timeout also bounds writing the CNF: past it, entering the block raises
        :class:`~knightgraph.SearchAbortedError` (the clock is read every
        :data:`ENCODE_CHECK` squares).
    lucky : bool
        Let CaDiCaL try its "lucky" assignments at every call (default, as the
        stored blocks of ``divide`` were made).  Off, large boards solve up to
        10x faster: the lucky phases cost a pass over the whole CNF per call.

    Yields
    ------
    SolverSession
        The encoding (``.cnf``) and its solver; the solver is released when the block ends.

    Examples
    --------
    >>> from knightgraph import Board
    >>> with solving(Board(3, 4), start=0, end=11) as sat:  # an open tour from a1 to d3
    ...     out = sat.solve()
    >>> out.status, out.order[0], out.order[-1], len(sat.cnf.edges)  # 14 moves, 2 hub edges
    ('sat', 0, 11, 16)
    >>> from knightgraph.certcheck.drup import check_drup  # a refutation's clauses and proof check
    >>> with solving(Board(4, 5), closed=True, proof=True) as sat:
    ...     sat.solve().status, check_drup(sat.cnf.clauses, sat.proof())[0]
    ('unsat', True)
    """
    from pysat.solvers import Solver

    keep = proof if keep_clauses is None else keep_clauses
    clock = budget if budget is not None and budget.timeout is not None else None
    if clock is not None:  # before the variables are numbered (a large graph's take a while)
        _check_clock(clock, int(board.available().sum()), 0)
    cnf = TourCNF(board, closed, start, end, keep_clauses=keep)
    with Solver(name=solver, with_proof=proof) as engine:
        session = SolverSession(cnf, engine, solver)
        session.load(clock, lucky, proof)
        yield session


def _check_clock(budget: Budget | None, squares: int, done: int) -> None:
    """Raise :class:`SearchAbortedError` when the budget's timeout has passed (``done`` of
    ``squares`` written)."""
    if budget is not None and budget.out_of_time():
        raise SearchAbortedError(
            f"the SAT encoding stopped at the timeout of {budget.timeout:g} s "
            f"({done:,} of {squares:,} squares written)"
        )


class SolverSession:
    """A :class:`~knightgraph.solvers.cnf.TourCNF` inside a python-sat solver, solved
    incrementally; made (and released) by :func:`solving`.

    Attributes
    ----------
    cnf : TourCNF
        The encoding: its variables (``var``, ``edges``, ``hub``) and every clause given
        to the solver (``clauses``, ``num_clauses``, ``cut_sets``).
    name : str
        The python-sat solver's name.
    rounds : int
        Solver calls so far.

    Examples
    --------
    >>> from knightgraph import Board
    >>> with solving(Board(5, 6), closed=True) as session:
    ...     outcome = session.solve()
    >>> outcome.status, outcome.rounds, session.rounds, len(session.cnf.cut_sets)
    ('sat', 4, 4, 6)
    """

    def __init__(self, cnf: TourCNF, engine: Any, name: str) -> None:
        self.cnf = cnf
        self.name = name
        self._engine = engine
        # A bound method of the solver itself (the wrapper only forwards): a third faster.
        inner = getattr(engine, "solver", engine)
        self._add_clause = inner.add_clause
        # python-sat's CaDiCaL classes raise NotImplementedError on interrupt().
        self._interruptible = not type(inner).__name__.startswith("Cadical")
        self._pace: float | None = None  # seconds per conflict, measured under a timeout
        self.rounds = 0
        self._find_symmetries: Callable[[], Sequence[Sequence[int]]] | None = None
        self.symmetries: Sequence[Sequence[int]] | None = None
        self._patching = False
        self._neighbours: list[Collection[int]] | None = None  # for patching, made once

    def load(self, clock: Budget | None, lucky: bool, proof: bool = False) -> None:
        """Give the solver the encoding's :meth:`~knightgraph.solvers.cnf.TourCNF.base_clauses`,
        built and fed in batches of :data:`ENCODE_CHECK` squares, reading ``clock`` before
        each batch; with ``proof``, a CaDiCaL
        solver is first told not to set clauses aside (:data:`PROOF_OPTIONS`)."""
        options: dict[str, int] = {}
        if self.name == "cadical195":
            # CaDiCaL's "unsat" configuration: 2x faster refutations.
            options = {"stabilize": 0, "walk": 0}
            if not lucky:
                options["lucky"] = 0
        inner = getattr(self._engine, "solver", self._engine)
        if proof and type(inner).__name__.startswith("Cadical") and hasattr(inner, "configure"):
            options.update(PROOF_OPTIONS)
        if options:
            inner.configure(options)
        add = self._add_clause
        done = 0
        with paused_collector():  # millions of short lists, none in a cycle
            for upto, groups in self.cnf.base_batches(ENCODE_CHECK):
                if upto > done:  # a batch of vertices (the ends' clauses come alone, last)
                    _check_clock(clock, len(self.cnf.vertices), done)
                done = upto
                for group in groups:
                    for clause in group:
                        add(clause)

    def _feed(self, clauses: list[list[int]]) -> None:
        add = self._add_clause
        for clause in clauses:
            add(clause)

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        """Add clauses over the edge variables (``cnf.var``); they join the encoding."""
        self._feed(self.cnf.record(list(clauses)))

    def add_at_most(self, literals: Sequence[int], bound: int) -> None:
        """Require at most ``bound`` of ``literals`` (auxiliary variables: no certificate)."""
        self._feed(self.cnf.at_most(literals, bound))

    # -------------------------------------------------------------- solving
    def solve(self, assumptions: Sequence[int] = (), budget: Budget | None = None) -> Outcome:
        """Solve, adding cut clauses until the edges form one cycle (or none can).

        ``assumptions`` are literals (edge variables) forced for this call only.
        """
        cnf = self.cnf
        while True:
            answer = self._solve_once(list(assumptions), budget)
            if answer is None:
                return Outcome("aborted", rounds=self.rounds)
            if not answer:
                return Outcome("unsat", rounds=self.rounds)
            if budget is not None and budget.out_of_time():
                return Outcome("aborted", rounds=self.rounds)  # a large graph's model: seconds
            with paused_collector():
                cycles = cnf.cycles(self._engine.get_model())
                joined = self._patched(cycles, assumptions, budget)
            if len(cycles) == 1:
                return Outcome("sat", cnf.tour_order(cycles[0]), self.rounds)
            if joined is not None:
                return Outcome("sat", cnf.tour_order(joined), self.rounds, len(cycles))
            if budget is not None and budget.out_of_time():
                return Outcome("aborted", rounds=self.rounds)  # before the cuts: O(board) each
            self._feed(self._cuts(cycles))

    def use_patching(self) -> None:
        """When a model has several cycles, first try to join them by exchanges of two
        edges (:func:`~knightgraph.solvers.patching.patch`, Karp's patching) before adding
        their cut clauses: on large sparse graphs (grids: many short cycles in every
        model) one solver call then often answers.

        The joined cycle uses edges of the encoding's graph only (the hub's, for open
        tours), so it is a Hamiltonian cycle of it; the exchanges do not know the clauses
        added by :meth:`add_clauses` or :meth:`add_at_most`, nor assumptions (no patching
        then), so only a session with the encoding's own clauses should use it.  A closed
        tour with both ends given must keep the edge between them: a joined cycle without
        it is not used.  The caller verifies the tour as it verifies every tour.

        Examples
        --------
        >>> import networkx as nx
        >>> from knightgraph.boards.graphboard import GraphBoard
        >>> grid = GraphBoard.from_networkx(nx.grid_2d_graph(30, 30))
        >>> with solving(grid, closed=True) as session:
        ...     session.use_patching()
        ...     outcome = session.solve()
        >>> outcome.status, len(outcome.order), outcome.rounds, outcome.patched > 1
        ('sat', 900, 1, True)
        """
        self._patching = True

    def _patched(
        self, cycles: list[list[int]], assumptions: Sequence[int], budget: Budget | None
    ) -> list[int] | None:
        """The cycles joined into one by :func:`~knightgraph.solvers.patching.patch`, or None
        (not asked for, assumptions, one cycle already, or no exchange joins them)."""
        if not self._patching or assumptions or len(cycles) < 2:
            return None
        from .patching import exchange_exists, patch

        cnf = self.cnf
        if not exchange_exists(cycles, cnf.edge_array()):
            return None  # (random cubic graphs: few 4-cycles) no Python pass for nothing
        if self._neighbours is None:
            self._neighbours = cnf.neighbours()
        stop = budget.out_of_time if budget is not None else None
        joined = patch(cycles, self._neighbours, stop=stop)
        if joined is not None and cnf.closed and cnf.start is not None and cnf.end is not None:
            at = joined.index(cnf.start)
            if cnf.end not in (joined[at - 1], joined[(at + 1) % len(joined)]):
                return None  # the required edge was exchanged away
        return joined

    def use_symmetries(self, find: Callable[[], Sequence[Sequence[int]]]) -> None:
        """From round :data:`ORBIT_ROUNDS` on, add with each cycle's cut clause those of its
        images under the vertex permutations ``find()`` returns (asked once, then; kept in
        :attr:`symmetries`).

        Every vertex set gives a cut clause that every tour satisfies, so these *orbit cuts*
        need no argument of their own (the checker validates each set as it does any cut);
        the symmetries only choose sets that matter: on a symmetric graph, the solver
        would otherwise find the images of a cycle one round at a time.

        Examples
        --------
        >>> import networkx as nx
        >>> from knightgraph.boards.graphboard import GraphBoard
        >>> prism = GraphBoard.from_networkx(nx.circular_ladder_graph(5))
        >>> with solving(prism, closed=True) as session:
        ...     session.use_symmetries(lambda: [list(range(10))])
        ...     session.solve().status
        'sat'
        """
        self._find_symmetries = find

    def _cuts(self, cycles: list[list[int]]) -> list[list[int]]:
        """The cut clauses of a round: the cycles', and their images' once symmetries apply."""
        if self._find_symmetries is None or self.rounds < ORBIT_ROUNDS:
            return self.cnf.cuts(cycles)
        if self.symmetries is None:
            self.symmetries = self._find_symmetries()
        return self.cnf.orbit_cuts(cycles, self.symmetries or [list(range(self.cnf.hub))])

    def _solve_once(self, assumptions: list[int], budget: Budget | None) -> bool | None:
        """One solver call; None when the budget runs out first.

        CaDiCaL 1.9.5 cannot be interrupted (python-sat's ``interrupt`` raises
        NotImplementedError for it), so a timeout or a conflict limit is
        honoured by solving in slices of conflicts (the solver keeps what it
        learnt between slices) and checking the budget in between: never more
        conflicts than the limit has left, and, under a timeout, as many as
        take about :data:`SLICE_SECONDS` at the pace measured so far (at most
        half the time left).  Solvers that can be interrupted (MiniSat,
        Glucose, ...) are also interrupted by a timer at the deadline.
        """
        self.rounds += 1
        if budget is None or (budget.timeout is None and budget.limit is None):
            return bool(self._engine.solve(assumptions=assumptions))
        while True:
            done = self.conflicts()
            if budget.exceeded(done):
                return None
            self._engine.conf_budget(self._slice(budget, done))
            began = time.monotonic()
            answer = self._solve_limited(assumptions, budget)
            spent = self.conflicts() - done
            if spent > 0:
                self._pace = (time.monotonic() - began) / spent
            if answer is not None:
                return bool(answer)

    def _slice(self, budget: Budget, done: int) -> int:
        """Conflicts for the next solver call under ``budget`` (``done`` so far)."""
        size = CONFLICT_SLICE
        if budget.limit is not None:
            size = min(size, budget.limit - done)
        left = budget.remaining()
        if left is not None:
            target = min(SLICE_SECONDS, left / 2)
            size = min(size, FIRST_SLICE if self._pace is None else int(target / self._pace))
        return max(1, size)

    def _solve_limited(self, assumptions: list[int], budget: Budget) -> bool | None:
        """``solve_limited``, interrupted at the deadline when the solver allows it."""
        left = budget.remaining()
        answer: bool | None
        if left is None or not self._interruptible:
            answer = self._engine.solve_limited(assumptions=assumptions)
            return answer
        import threading

        timer = threading.Timer(left, self._engine.interrupt)
        timer.start()
        try:
            answer = self._engine.solve_limited(assumptions=assumptions, expect_interrupt=True)
            return answer
        finally:
            timer.cancel()
            self._engine.clear_interrupt()

    def conflicts(self) -> int:
        """Conflicts met by the solver so far (the unit of a SAT ``limit``)."""
        return int(self._engine.accum_stats().get("conflicts", 0))

    def model(self) -> list[int]:
        """The solver's last satisfying assignment."""
        model: list[int] = self._engine.get_model()
        return model

    def proof(self) -> list[str]:
        """The solver's DRUP proof lines (when made with ``proof=True``)."""
        return list(self._engine.get_proof() or [])
