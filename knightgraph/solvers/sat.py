"""The ``sat`` strategy: a tour from a SAT solver, or a refutation anyone can re-check.

The encoding (one variable per move, "exactly two moves at every square",
cut constraints added lazily until one cycle remains) is
:class:`~knightgraph.solvers.cnf.TourCNF`, solved by
:func:`~knightgraph.solvers.incremental.solving`; this strategy settles the
cheap cases first, runs the solver under the budget, and turns an
unsatisfiable CNF into a ``"sat-refutation"`` certificate with its DRUP proof.

Examples
--------
>>> from knightgraph import Board
>>> sat(Board(3, 4)).status.name
'FOUND'
>>> sat(Board(7, 7), closed=True).certificate.kind   # 25 squares of one colour, 24 of the other
'colour-count'
>>> sat(Board(4, 4)).certificate.kind
'sat-refutation'
"""

from __future__ import annotations

from typing import Any, cast

from ..exceptions import SearchAbortedError
from ..proofs.theorems import color_obstruction
from ..running.budget import Budget
from ..running.resources import require_memory
from ..tours.results import Certificate, SearchResult
from .base import Problem, solver
from .clauses import cnf_bytes
from .incremental import DEFAULT_SOLVER, PROOF_LIMIT, SolverSession, solving
from .problem import graph_obstruction

__all__ = [
    "GRAPH_PROOF_LIMIT",
    "LARGE_GRAPH_SOLVER",
    "PATCH_FROM",
    "graph_cnf_search",
    "graph_sat",
    "sat",
]

ORBIT_WORK = 200_000
"""Group elements times vertices, at most, in the orbit cuts of a graph board: each round maps
each cycle by every element."""

PATCH_FROM = 1000
"""On graph boards of at least this many vertices, a model of several cycles is first
patched into one (:meth:`~knightgraph.solvers.incremental.SolverSession.use_patching`);
smaller graphs are answered by cut clauses alone, as before."""

GRAPH_PROOF_LIMIT = 5000
"""Up to this many vertices the SAT solver logs a DRUP proof on a graph board (a "no"
needs one); beyond, a graph's "no" is left undecided."""

LARGE_GRAPH_SOLVER = "glucose42"
"""The python-sat solver of a graph board beyond :data:`GRAPH_PROOF_LIMIT` vertices (no
proof is logged there).  CaDiCaL cannot be interrupted, and one of its calls on a graph of
a million vertices lasts tens of seconds, past any timeout; Glucose is interrupted at the
deadline, and on large sparse graphs it was as fast or faster (random 3-regular graphs of
10^5 vertices: 1.0 s against 7.6 s; 10^6: about 20 s; grids, hypercubes, G(n, 2) alike)."""


def _solved(
    problem: Problem, session: SolverSession, budget: Budget
) -> tuple[dict[str, Any], SearchResult | None]:
    """Run the solver of ``session``: its counters, and FOUND or ABORTED (None when it
    refuted the CNF: what a refutation is worth depends on the board)."""
    status, order, stats = _solve_session(session, budget)
    if status == "sat":
        return stats, problem.found(order, stats)
    if status == "aborted":  # only on the budget, so it names a reason
        why = budget.exceeded(stats["conflicts"])
        return stats, problem.aborted(f"the SAT solver {why}", stats)
    return stats, None


def _solve_session(session: SolverSession, budget: Budget) -> tuple[str, list[int], dict[str, Any]]:
    """The solver's outcome (``"sat"``, ``"aborted"``, ``"unsat"``), the tour's order and
    the counters of the stats."""
    outcome = session.solve(budget=budget)
    stats: dict[str, Any] = {
        "rounds": outcome.rounds,
        "clauses": session.cnf.num_clauses,
        "conflicts": session.conflicts(),
    }
    if outcome.patched:  # the last model's cycles were joined by exchanges of two edges
        stats["method"] = "sat+patching"
        stats["patched"] = outcome.patched
    return outcome.status, list(outcome.order or ()), stats


def graph_sat(problem: Problem, budget: Budget, *, seed: int | None = None) -> SearchResult:
    """The ``sat`` strategy on a graph board: the cheap certificates
    (:func:`~knightgraph.solvers.problem.graph_obstruction`; resolution is slow on colour counts), then
    :func:`graph_cnf_search`.

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> cube = GraphBoard.from_networkx(nx.hypercube_graph(3))
    >>> graph_sat(Problem(cube, True, 0), Budget()).status.name
    'FOUND'
    """
    del seed
    certificate = graph_obstruction(problem, budget.out_of_time)
    if certificate is not None:
        return problem.absent(certificate, {})
    return graph_cnf_search(problem, budget)


def graph_cnf_search(problem: Problem, budget: Budget) -> SearchResult:
    """SAT on a graph board's CNF (no shortcuts); an UNSAT answer becomes a
    ``sat-refutation`` certificate naming the vertices (a DRUP proof is logged up to
    :data:`GRAPH_PROOF_LIMIT` vertices).  From :data:`PATCH_FROM` vertices on, a model of
    several cycles is first patched into one (the stats then say ``"method":
    "sat+patching"`` and how many cycles were joined).

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> petersen = GraphBoard.from_networkx(nx.petersen_graph())
    >>> graph_cnf_search(Problem(petersen, True), Budget()).certificate.kind
    'sat-refutation'
    """
    board = problem.board
    if problem.closed and board.num_squares < 3:
        return problem.absent(Certificate("degree", "a closed tour needs three vertices"), {})
    if board.num_squares == 1:
        return problem.found([0], {})
    logged = board.num_squares <= GRAPH_PROOF_LIMIT
    answer: tuple[str, Any, dict[str, Any]] | None
    if logged or budget.timeout is None:
        try:  # SearchAbortedError comes only from writing the CNF, at the timeout
            answer = _graph_session(problem, budget, logged)
        except SearchAbortedError as stop:
            return problem.aborted(str(stop), {"rounds": 0})
    else:  # in a process of its own, ended at the timeout: no solver call outlasts it
        from ..running.child import in_child

        alone = Budget(None, budget.limit)  # the parent keeps the clock
        answer = in_child(_graph_session, (problem, alone, False), budget, name="knightgraph-sat")
        if answer is None:
            return problem.aborted(f"the SAT solver {budget.exceeded(0)}", {"rounds": 0})
    status, found, stats = answer
    if status == "sat":
        return problem.found(found, stats)
    if status == "aborted":  # only on the budget, so it names a reason
        return problem.aborted(f"the SAT solver {budget.exceeded(stats['conflicts'])}", stats)
    if found is None:
        return problem.aborted(
            "the SAT solver found no tour, but its refutation cannot be re-checked "
            "(a counter encoding or no proof log)",
            stats,
        )
    return problem.absent(found, stats)


def _graph_session(
    problem: Problem, budget: Budget, logged: bool
) -> tuple[str, Any, dict[str, Any]]:
    """One SAT session on a graph board: ``("sat", order, stats)``, ``("aborted", None,
    stats)``, or ``("unsat", certificate or None, stats)`` (None: no proof was logged).
    Plain values, so that a child process can send them back (:func:`graph_cnf_search`)."""
    board = problem.board
    with solving(
        cast(Any, board),
        problem.closed,
        problem.start,
        problem.end,
        solver=DEFAULT_SOLVER if logged else LARGE_GRAPH_SOLVER,
        proof=logged,
        budget=budget,
        lucky=True,
    ) as session:
        cnf = session.cnf
        session.use_symmetries(lambda: _symmetries(board))
        if board.num_squares >= PATCH_FROM:
            session.use_patching()
        status, order, stats = _solve_session(session, budget)
        if status != "unsat":
            return status, order, stats
        if not logged or cnf.auxiliary:
            return "unsat", None, stats
        names = board.names

        def name(v: int) -> str | None:
            return None if v == cnf.hub else names[v]

        proof = session.proof()
        cert = Certificate(
            "sat-refutation",
            f"a SAT solver refuted the {len(cnf.clauses):,} clauses every tour satisfies "
            f"(exactly two tour edges at each vertex, plus {len(cnf.cut_sets)} cut "
            f"constraints); its DRUP proof of {len(proof):,} lines was checked independently",
            {
                "edges": [[name(u), name(v)] for u, v in cnf.edges],
                "cuts": [[name(v) for v in cycle] for cycle in cnf.cut_sets],
                "cnf": cnf.clauses,
                "proof": proof,
            },
        )
        return "unsat", cert, stats


def _symmetries(board: Any) -> list[list[int]]:
    """Automorphisms of a graph board for its orbit cuts: at most 2 per vertex, and fewer
    on large graphs (each round maps each cycle by every one), found within
    :data:`~knightgraph.solvers.automorphisms.WORK`."""
    from .automorphisms import automorphisms

    size = board.num_squares
    neighbours: list[list[int]] = [[] for _ in range(size)]
    for u, v in board.edges():
        neighbours[u].append(v)
        neighbours[v].append(u)
    return automorphisms(neighbours, limit=max(8, min(2 * size, ORBIT_WORK // max(size, 1))))


@solver(
    "sat",
    exact=True,
    bytes_per_square=16_000,
    fixed_bytes=64 * 2**20,
    summary="SAT (python-sat, CaDiCaL) with lazy cut constraints; checked refutations",
    graphs=graph_sat,
)
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
        (:mod:`knightgraph.certcheck`) re-checks in the solver gate; or
        ABORTED on the budget.

    Notes
    -----
    See the module notes for the encoding.  Each round is one incremental
    solver call; a round ends either with one cycle (a tour), with no model
    (no tour), or with several cycles, whose cut constraints join the CNF.
    30x30 closed tours take about a tenth of a second, 100x100 about half a
    second; refuting a closed tour of 4 x 100 about the same.

    The budget holds in every phase.  The memory the CNF needs is estimated
    before it is built (:func:`cnf_bytes`; :class:`~knightgraph.BoardTooLargeError`
    when it cannot fit).  Writing it reads the clock every
    :data:`ENCODE_CHECK` squares (a 200x200 board has 3.8 million clauses:
    about 5 s).  The solver runs in slices of conflicts that never pass the
    ``limit`` and, under a timeout, last about :data:`SLICE_SECONDS` each, and
    the cut rounds stop at the timeout too; so ``timeout`` is honoured within
    a fraction of a second and ``limit=10`` means ten conflicts.

    Examples
    --------
    >>> from knightgraph import Board
    >>> from knightgraph.certcheck import check_certificate
    >>> sat(Board(5, 5), start="a1", end="e5").tour.end
    (4, 4)
    >>> res = sat(Board(4, 5), closed=True)  # Schwenk's 4 x n, refuted by SAT alone
    >>> res.certificate.kind, check_certificate(res.certificate.to_dict(), 4, 5, closed=True)[0]
    ('sat-refutation', True)
    """
    from ..proofs.certificates import degree_obstruction, sat_refutation

    del seed
    board = problem.board
    if shortcuts or board.num_squares < 3:  # a cycle through the hub needs 3 vertices
        cert = color_obstruction(board, closed=problem.closed, **problem.ends())
        cert = cert or degree_obstruction(board, closed=problem.closed, **problem.ends())
        if cert is not None:
            return problem.absent(cert)
        if board.num_squares == 1:
            return problem.found([board.index(board.squares()[0])])
    # Logging a proof costs time and memory on large boards, where tours are the rule:
    # there, a refutation is repeated with logging on.
    logged = board.num_squares <= PROOF_LIMIT
    while True:
        require_memory(
            cnf_bytes(board, problem.closed, problem.start, problem.end, logged),
            f"the SAT encoding of a {problem.describe()}",
        )
        try:  # SearchAbortedError comes only from writing the CNF, at the timeout
            with solving(
                board,
                problem.closed,
                problem.start,
                problem.end,
                solver=solver,
                proof=logged,
                budget=budget,
                lucky=logged,
            ) as session:
                stats, settled = _solved(problem, session, budget)
                if settled is not None:
                    return settled
                if logged:
                    certificate = sat_refutation(session, board)
                    break
        except SearchAbortedError as stop:
            return problem.aborted(str(stop), {"rounds": 0, "clauses": 0, "conflicts": 0})
        logged = True
    if certificate is None:
        return problem.aborted(
            "the SAT solver refuted a CNF with a counter encoding, which the "
            "independent checker cannot re-check",
            stats,
        )
    return problem.absent(certificate, stats)  # checked by the solver gate
