"""The SAT encoding of tours (:class:`HamiltonCNF`), with lazily added cut constraints.

Shared by the strategies that ask a SAT solver (``sat``, the oracle of
``backtrack``, the blocks of ``divide``); it is not a strategy itself.

One boolean variable per move (edge) of the leaper graph says whether the
tour uses it.  A closed tour is a set of edges with exactly two at every
square that forms one cycle.  An open tour is turned into a closed one by a
*hub*: an extra vertex joined to every square allowed as an end (just the
start and the end when they are given); a Hamiltonian cycle through the hub is
a Hamiltonian path between its two neighbours.

"Exactly two at every vertex" is written out as clauses; "one cycle" is not
(it would need exponentially many): the solver's answer may consist of
several cycles, and then, for each cycle ``S``, the clause "some edge leaving
``S`` is used" is added, which every tour satisfies, and the solver runs again
(incrementally, keeping what it learnt).  When the cycles merge into one, the
answer is a tour; when the clauses become unsatisfiable, no tour exists.

The same encoding answers queries under *assumptions* (some edges forced),
which the oracle of :func:`~knightgraph.solvers.backtracking.backtrack` uses to
find the first tour of plain depth-first search without searching.

Examples
--------
>>> from knightgraph import Board
>>> enc = HamiltonCNF(Board(3, 4))
>>> outcome = enc.solve()
>>> outcome.status, len(outcome.order)
('sat', 12)
>>> HamiltonCNF(Board(4, 4)).solve().status
'unsat'
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..board import Board
from ..budget import Budget
from ..exceptions import SearchAbortedError
from .clauses import DIRECT_LIMIT, cnf_bytes, counter, exactly_two, hub_clauses

__all__ = ["DEFAULT_SOLVER", "HamiltonCNF", "Outcome", "cnf_bytes"]

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
"""Squares written to the CNF between two looks at the clock."""


@dataclass
class Outcome:
    """A solver answer: ``"sat"`` with the tour's order, ``"unsat"``, or ``"aborted"``.

    Examples
    --------
    >>> from knightgraph import Board
    >>> from knightgraph.budget import Budget
    >>> HamiltonCNF(Board(4, 4)).solve().status  # 4x4 has no open tour
    'unsat'
    >>> HamiltonCNF(Board(8, 8), closed=True).solve(budget=Budget.make(timeout=0))
    Outcome(status='aborted', order=[], rounds=1)
    """

    status: str
    order: list[int] = field(default_factory=list)
    rounds: int = 0


class HamiltonCNF:
    """The CNF of "a tour exists" for a board and request, solved incrementally.

    Parameters
    ----------
    board : Board
    closed : bool
    start, end : int or None
        Flat indices of required ends.
    solver : str
        A python-sat solver name (default :data:`DEFAULT_SOLVER`).
    proof : bool
        Ask the solver for a DRUP proof (for certificates of absence).
    keep_clauses : bool, optional
        Keep every clause in :attr:`clauses` (default: when ``proof`` is asked
        for; a certificate needs them, a search does not, and on large boards
        they are most of the memory).
    budget : Budget, optional
        Its timeout also bounds writing the CNF: past it the constructor raises
        :class:`~knightgraph.SearchAbortedError` (the clock is read every
        :data:`ENCODE_CHECK` squares).
    lucky : bool
        Let CaDiCaL try its "lucky" assignments at every call (default, as the
        stored blocks of ``divide`` were made).  Off, large boards solve up to
        10x faster: the lucky phases cost a pass over the whole CNF per call.

    Attributes
    ----------
    edges : list of (int, int)
        The variables: edge ``k`` (variable ``k + 1``) joins these two vertices;
        vertex ``m * n`` is the hub.
    clauses : list of list of int
        Every clause given to the solver, in order (the CNF of a certificate);
        empty unless ``keep_clauses``.
    num_clauses : int
        How many clauses the solver was given.

    Examples
    --------
    >>> from knightgraph import Board
    >>> enc = HamiltonCNF(Board(3, 4), start=0, end=11)  # an open tour from a1 to d3
    >>> out = enc.solve()
    >>> out.status, out.order[0], out.order[-1], len(enc.edges)  # 14 moves, 2 hub edges
    ('sat', 0, 11, 16)
    >>> from knightgraph.drup import check_drup  # a refutation's clauses and proof check
    >>> enc = HamiltonCNF(Board(4, 5), closed=True, proof=True)
    >>> enc.solve().status, check_drup(enc.clauses, enc.proof())[0]
    ('unsat', True)
    >>> enc.delete()
    """

    def __init__(
        self,
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
    ) -> None:
        from pysat.solvers import Solver

        self.board = board
        self.closed = closed
        self.hub = board.area
        self._budget = budget if budget is not None and budget.timeout is not None else None
        self.vertices = np.flatnonzero(board.available()).tolist()
        self.edges = self._graph_edges(board)
        if not closed:
            self.edges += self._hub_edges(start, end)
        self.index = {edge: k + 1 for k, edge in enumerate(self.edges)}
        self.incident: dict[int, list[int]] = {v: [] for v in [*self.vertices, self.hub]}
        for k, (u, v) in enumerate(self.edges):
            self.incident[u].append(k + 1)
            self.incident[v].append(k + 1)
        if closed:
            del self.incident[self.hub]
        self.top = len(self.edges)
        self.auxiliary = False  # True once a counter with auxiliary variables is used
        self.cut_sets: list[list[int]] = []  # the vertex set S of each cut clause, in order
        self.clauses: list[list[int]] = []
        self.keep_clauses = proof if keep_clauses is None else keep_clauses
        self.num_clauses = 0
        self._pace: float | None = None  # seconds per conflict, measured under a timeout
        self.solver_name = solver
        self._check_clock("the SAT encoding", 0)
        self.solver = Solver(name=solver, with_proof=proof)
        # A bound method of the solver itself (the wrapper only forwards): a third faster.
        engine = getattr(self.solver, "solver", self.solver)
        self._add_clause = engine.add_clause
        # python-sat's CaDiCaL classes raise NotImplementedError on interrupt().
        self._interruptible = not type(engine).__name__.startswith("Cadical")
        self.rounds = 0
        try:
            self._encode(start, end, lucky)
        except BaseException:
            self.solver.delete()
            raise

    def _check_clock(self, what: str, done: int) -> None:
        """Raise :class:`SearchAbortedError` when the budget's timeout has passed."""
        budget = self._budget
        if budget is not None and budget.out_of_time():
            raise SearchAbortedError(
                f"{what} stopped at the timeout of {budget.timeout:g} s "
                f"({done:,} of {len(self.vertices):,} squares written)"
            )

    def _encode(self, start: int | None, end: int | None, lucky: bool) -> None:
        """Write "exactly two tour edges at every vertex" and the required ends."""
        closed = self.closed
        if self.solver_name == "cadical195":
            # CaDiCaL's "unsat" configuration: 2x faster refutations.
            options = {"stabilize": 0, "walk": 0}
            if not lucky:
                options["lucky"] = 0
            self.solver.solver.configure(options)
        for done, (vertex, literals) in enumerate(self.incident.items()):
            if done % ENCODE_CHECK == 0:
                self._check_clock("the SAT encoding", done)
            if vertex == self.hub and len(literals) > DIRECT_LIMIT:
                self._add_all(self._counted(hub_clauses(literals, self.top)))
            else:
                self._add_all(self._counted(exactly_two(literals, self.top)))
        if not closed:
            for square in (start, end):
                if square is not None:
                    self._add_all([[self.var(self.hub, square)]])
        elif start is not None and end is not None:
            self._add_all([[self.var(start, end)]])

    # -------------------------------------------------------------- the graph
    @staticmethod
    def _graph_edges(board: Board) -> list[tuple[int, int]]:
        table = board.move_table()
        return [(i, int(j)) for i, row in enumerate(table.tolist()) for j in row if j > i]

    def _hub_edges(self, start: int | None, end: int | None) -> list[tuple[int, int]]:
        ends = [s for s in (start, end) if s is not None]
        allowed = ends if len(ends) == 2 else self.vertices
        return [(v, self.hub) for v in allowed]

    def var(self, u: int, v: int) -> int:
        """The variable of edge ``{u, v}``; KeyError if there is no such move."""
        return self.index[(u, v) if u < v else (v, u)]

    # ------------------------------------------------------------ the clauses
    def _counted(
        self, built: tuple[list[list[int]], int], counter: bool = False
    ) -> list[list[int]]:
        """The clauses of a builder of :mod:`.clauses`.  When it numbered auxiliary variables
        (or is a ``counter``), the CNF can no longer back a certificate (:attr:`auxiliary`)."""
        clauses, top = built
        if counter or top > self.top:
            self.top, self.auxiliary = max(top, self.top), True
        return clauses

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        """Add clauses over the edge variables (:meth:`var`); they join :attr:`clauses`."""
        self._add_all(clauses)

    def add_at_most(self, literals: Sequence[int], bound: int) -> None:
        """Require at most ``bound`` of ``literals`` (auxiliary variables: no certificate)."""
        self._add_all(self._counted(counter("atmost", literals, bound, self.top), counter=True))

    def _add_all(self, clauses: Iterable[list[int]]) -> None:
        add = self._add_clause
        if self.keep_clauses:
            keep = self.clauses.append
            for clause in clauses:
                keep(clause)
                add(clause)
                self.num_clauses += 1
        else:
            for clause in clauses:
                add(clause)
                self.num_clauses += 1

    # -------------------------------------------------------------- solving
    def solve(self, assumptions: Sequence[int] = (), budget: Budget | None = None) -> Outcome:
        """Solve, adding cut clauses until the edges form one cycle (or none can).

        ``assumptions`` are literals (edge variables) forced for this call only.
        """
        while True:
            answer = self._solve_once(list(assumptions), budget)
            if answer is None:
                return Outcome("aborted", rounds=self.rounds)
            if not answer:
                return Outcome("unsat", rounds=self.rounds)
            cycles = self._cycles(self.solver.get_model())
            if len(cycles) == 1:
                return Outcome("sat", self._tour_order(cycles[0]), self.rounds)
            if budget is not None and budget.out_of_time():
                return Outcome("aborted", rounds=self.rounds)  # before the cuts: O(board) each
            self.cut_sets.extend(cycles)
            self._add_all(self._cut(cycle) for cycle in cycles)

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
            return bool(self.solver.solve(assumptions=assumptions))
        while True:
            done = self.conflicts()
            if budget.exceeded(done):
                return None
            self.solver.conf_budget(self._slice(budget, done))
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
            answer = self.solver.solve_limited(assumptions=assumptions)
            return answer
        import threading

        timer = threading.Timer(left, self.solver.interrupt)
        timer.start()
        try:
            answer = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            return answer
        finally:
            timer.cancel()
            self.solver.clear_interrupt()

    def conflicts(self) -> int:
        """Conflicts met by the solver so far (the unit of a SAT ``limit``)."""
        return int(self.solver.accum_stats().get("conflicts", 0))

    def _cycles(self, model: list[int]) -> list[list[int]]:
        """The cycles formed by the chosen edges, each as a vertex sequence."""
        chosen = {lit for lit in model[: len(self.edges)] if lit > 0}
        neighbours: dict[int, list[int]] = {v: [] for v in self.incident}
        for lit in chosen:
            u, v = self.edges[lit - 1]
            neighbours[u].append(v)
            neighbours[v].append(u)
        seen: set[int] = set()
        cycles = []
        for first in neighbours:
            if first in seen:
                continue
            cycle, previous, here = [first], -1, first
            seen.add(first)
            while True:
                nxt = next(
                    w for w in neighbours[here] if w != previous or len(neighbours[here]) == 1
                )
                if nxt == first:
                    break
                cycle.append(nxt)
                seen.add(nxt)
                previous, here = here, nxt
            cycles.append(cycle)
        return cycles

    def _cut(self, cycle: list[int]) -> list[int]:
        """The clause "some edge leaving this cycle is used", which every tour satisfies.

        Found from the cycle's own incident edges (O(cycle)), in variable order.
        """
        inside = set(cycle)
        edges = self.edges
        leaving = {
            k
            for v in cycle
            for k in self.incident[v]
            if edges[k - 1][0] not in inside or edges[k - 1][1] not in inside
        }
        return sorted(leaving)

    def _tour_order(self, cycle: list[int]) -> list[int]:
        """The tour (flat indices) from a cycle through every vertex (and the hub)."""
        if self.closed:
            return cycle
        at = cycle.index(self.hub)
        return cycle[at + 1 :] + cycle[:at]

    def proof(self) -> list[str]:
        """The solver's DRUP proof lines (when built with ``proof=True``)."""
        return list(self.solver.get_proof() or [])

    def delete(self) -> None:
        """Free the solver."""
        self.solver.delete()


def _solution_path(outcome: Outcome, start: int | None) -> list[int]:
    """The order oriented from ``start`` (an open tour may come out backwards)."""
    order = outcome.order
    if start is not None and order and order[0] != start:
        order = order[::-1]
    return order
