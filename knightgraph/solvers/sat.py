"""SAT: knight's tours as satisfiability, with lazily added cut constraints.

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
which the order-preserving search of :func:`first_tour_in_order` uses to find
the first tour of plain depth-first search without searching.

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

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..board import Board
from ..existence import colour_obstruction
from ..tour import SearchResult
from .base import Budget, Problem, solver

__all__ = ["DEFAULT_SOLVER", "HamiltonCNF", "Outcome", "sat"]

DEFAULT_SOLVER = "cadical195"
"""The python-sat solver used unless another is named (CaDiCaL 1.9.5)."""

PROOF_LIMIT = 2500
"""Up to this many squares the solver logs its proof from the start."""

DIRECT_LIMIT = 64
"""Up to this many literals, "at most two" is written out triple by triple."""

CONFLICT_SLICE = 20_000
"""Conflicts per solver call between budget checks (about a tenth of a second)."""


@dataclass
class Outcome:
    """A solver answer: ``"sat"`` with the tour's order, ``"unsat"``, or ``"aborted"``."""

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

    Attributes
    ----------
    edges : list of (int, int)
        The variables: edge ``k`` (variable ``k + 1``) joins these two vertices;
        vertex ``m * n`` is the hub.
    clauses : list of list of int
        Every clause given to the solver, in order (the CNF of a certificate).
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
    ) -> None:
        from pysat.solvers import Solver

        self.board = board
        self.closed = closed
        self.hub = board.area
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
        self.solver_name = solver
        self.solver = Solver(name=solver, with_proof=proof)
        if solver == "cadical195":  # CaDiCaL's "unsat" configuration: 2x faster refutations
            self.solver.solver.configure({"stabilize": 0, "walk": 0})
        self.rounds = 0
        for literals in self.incident.values():
            self._add_all(self._exactly_two(literals))
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
    def _exactly_two(self, literals: Sequence[int]) -> list[list[int]]:
        """Clauses for "exactly two of ``literals``".

        Up to :data:`DIRECT_LIMIT` literals: "at least two" is one clause per
        literal (all the others), "at most two" one clause per triple.  Beyond
        (only the hub of a large open board), a sequential counter with
        auxiliary variables; such a CNF cannot back a certificate (see
        :attr:`auxiliary`).
        """
        k = len(literals)
        if k < 2:
            return [[]]  # unsatisfiable: a vertex with fewer than two possible tour edges
        if k <= DIRECT_LIMIT:
            at_least = [[x for x in literals if x != skip] for skip in literals]
            return at_least + [[-a, -b, -c] for a, b, c in itertools.combinations(literals, 3)]
        return self._counter("equals", literals, 2)

    def _counter(self, kind: str, literals: Sequence[int], bound: int) -> list[list[int]]:
        """A sequential-counter cardinality constraint; its auxiliary variables
        mean the CNF can no longer back a certificate (:attr:`auxiliary`)."""
        from pysat.card import CardEnc, EncType

        encode = getattr(CardEnc, kind)
        encoded = encode(lits=list(literals), bound=bound, top_id=self.top,
                         encoding=EncType.seqcounter)  # fmt: skip
        self.top = max(self.top, encoded.nv)
        self.auxiliary = True
        return [list(clause) for clause in encoded.clauses]

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        """Add clauses over the edge variables (:meth:`var`); they join :attr:`clauses`."""
        self._add_all(clauses)

    def add_at_most(self, literals: Sequence[int], bound: int) -> None:
        """Require at most ``bound`` of ``literals`` (auxiliary variables: no certificate)."""
        self._add_all(self._counter("atmost", literals, bound))

    def _add_all(self, clauses: Iterable[list[int]]) -> None:
        for clause in clauses:
            self.clauses.append(clause)
            self.solver.add_clause(clause)

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
            self.cut_sets.extend(cycles)
            self._add_all(self._cut(cycle) for cycle in cycles)

    def _solve_once(self, assumptions: list[int], budget: Budget | None) -> bool | None:
        """One solver call; None when the budget runs out first.

        CaDiCaL cannot be interrupted from another thread, so a timeout or a
        conflict limit is honoured by solving in slices of
        :data:`CONFLICT_SLICE` conflicts (the solver keeps what it learnt
        between slices) and checking the budget in between.
        """
        self.rounds += 1
        if budget is None or (budget.timeout is None and budget.limit is None):
            return bool(self.solver.solve(assumptions=assumptions))
        while True:
            if budget.exceeded(self.conflicts()):
                return None
            self.solver.conf_budget(CONFLICT_SLICE)
            answer = self.solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return bool(answer)

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
        leaving = {k for v in cycle for k in self.incident[v] if not set(edges[k - 1]) <= inside}
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


@solver("sat", exact=True, bytes_per_square=3000, fixed_bytes=64 * 2**20,
        summary="SAT (python-sat, CaDiCaL) with lazy cut constraints; checked refutations")  # fmt: skip
def sat(
    problem: Problem,
    budget: Budget,
    *,
    seed: int | None = None,
    solver: str = DEFAULT_SOLVER,
    shortcuts: bool = True,
) -> SearchResult:
    """Find a tour with a SAT solver, or refute its existence with a checked proof.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature (``seed`` is unused; ``limit`` counts
        solver conflicts).
    solver : str
        A python-sat solver name; default CaDiCaL 1.9.5 (``"cadical195"``).
    shortcuts : bool
        Decide colour-count and degree cases without SAT (default).
        Resolution needs exponentially long refutations of colour-count
        cases such as a closed tour of 7x7, so SAT should never see those.
        Schwenk's partition is never used here: ``sat`` refutes 4 x n boards
        by SAT alone.

    Returns
    -------
    SearchResult
        FOUND; PROVEN_ABSENT with a ``"sat-refutation"`` certificate (the
        clauses, the cut sets and the DRUP proof) that the independent checker
        (:mod:`knightgraph.certcheck`) accepted before it is returned; or
        ABORTED on the budget.

    Notes
    -----
    See the module notes for the encoding.  Each round is one incremental
    solver call; a round ends either with one cycle (a tour), with no model
    (no tour), or with several cycles, whose cut constraints join the CNF.
    30x30 closed tours take about a tenth of a second, 100x100 about half a
    second; refuting a closed tour of 4 x 100 about the same.
    """
    from ..proofs import check, degree_obstruction, sat_refutation

    del seed
    board = problem.board
    start = None if problem.start is None else board.square(problem.start)
    end = None if problem.end is None else board.square(problem.end)
    if shortcuts or board.num_squares < 3:  # a cycle through the hub needs 3 vertices
        cert = colour_obstruction(board, closed=problem.closed, start=start, end=end)
        cert = cert or degree_obstruction(board, closed=problem.closed, start=start, end=end)
        if cert is not None:
            return problem.absent(cert)
        if board.num_squares == 1:
            return problem.found([board.index(board.squares()[0])])
    # Logging a proof costs time and memory on large boards, where tours are the rule:
    # there, a refutation is repeated with logging on.
    logged = board.num_squares <= PROOF_LIMIT
    while True:
        cnf = HamiltonCNF(board, problem.closed, problem.start, problem.end, solver=solver,
                          proof=logged)  # fmt: skip
        try:
            outcome = cnf.solve(budget=budget)
            stats = {"rounds": outcome.rounds, "clauses": len(cnf.clauses),
                     "conflicts": cnf.conflicts()}  # fmt: skip
            if outcome.status == "sat":
                return problem.found(_oriented(outcome.order, problem), stats)
            if outcome.status == "aborted":
                why = budget.exceeded(cnf.conflicts()) or "stopped"
                return problem.aborted(f"the SAT solver {why}", stats)
            if logged:
                certificate = sat_refutation(cnf, board)
                break
        finally:
            cnf.delete()
        logged = True
    if certificate is None:
        return problem.aborted("the SAT solver refuted a CNF with a counter encoding, which the "
                               "independent checker cannot re-check", stats)  # fmt: skip
    accepted, why = check(certificate, board, closed=problem.closed, start=start, end=end)
    if not accepted:
        return problem.aborted(f"the SAT refutation did not check: {why}", stats)
    return problem.absent(certificate, stats)


def _oriented(order: list[int], problem: Problem) -> list[int]:
    """The tour in the direction the request needs (a cycle can be read both ways)."""
    start, end = problem.start, problem.end
    if problem.closed:
        first = order[0] if start is None else start
        at = order.index(first)
        order = order[at:] + order[:at]
        if end is not None and order[-1] != end:
            order = order[:1] + order[:0:-1]
        return order
    if (start is not None and order[0] != start) or (end is not None and order[-1] != end):
        order = order[::-1]
    return order
