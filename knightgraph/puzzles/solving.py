"""Solving and counting puzzles: every solution verified, every "no more" a checked proof.

:func:`count_solutions` gives the puzzle's CNF (:class:`~knightgraph.puzzles.encoding.PuzzleCNF`)
to CaDiCaL with a DRUP proof log, and solves, blocks the numbering found, and solves again,
until the solver answers "unsatisfiable" or ``limit`` solutions are found.  Each solution is
checked as a tour by the verifier (:class:`~knightgraph.Tour`) and for its clues by
:meth:`~knightgraph.puzzles.model.Puzzle.defect`; the final "unsatisfiable" becomes a
certificate (kind ``puzzle-refutation``: the solutions found and the proof) that the
independent checker (:mod:`knightgraph.certcheck.puzzles`) accepts before any answer leaves:
it rebuilds the CNF from the puzzle, adds a blocking clause per listed solution, and checks
the proof.  :func:`solve_puzzle` is the count stopped at one solution.

Examples
--------
>>> from knightgraph.puzzles.model import Puzzle
>>> answer = count_solutions(Puzzle(3, 4, {"a1": 1}))
>>> answer.status.name, answer.count, answer.certificate.kind
('FOUND', 2, 'puzzle-refutation')
>>> solve_puzzle(Puzzle(4, 4, {"a1": 1})).status.name  # 4x4 has no open tour at all
'PROVEN_ABSENT'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult, Status
from ..tours.tour import Tour
from ..tours.verify import validate_tour
from .encoding import PuzzleCNF
from .model import Puzzle

__all__ = ["PuzzleAnswer", "count_solutions", "puzzle_fields", "solve_puzzle"]

SOLVER = "cadical195"
"""The python-sat solver (CaDiCaL 1.9.5): it logs DRUP proofs."""

SLICE = 2000
"""Conflicts per solver call between looks at the clock (CaDiCaL cannot be interrupted)."""

ENCODE_CHECK = 4096
"""Clauses given to the solver between looks at the clock."""


@dataclass(frozen=True)
class PuzzleAnswer:
    """What is known about a puzzle's solutions.

    Attributes
    ----------
    puzzle : Puzzle
    status : Status
        FOUND (at least one solution), PROVEN_ABSENT (none: the certificate says why) or
        ABORTED (the budget ran out first; ``solutions`` holds those found by then).
    solutions : tuple of Tour
        Distinct solutions, each a verified tour keeping every clue.
    exact : bool
        True when ``solutions`` are all the solutions (the certificate proves it).
    certificate : Certificate or None
        When ``exact``: the checked refutation of any other solution.
    reason : str
    seconds : float
    stats : dict

    Examples
    --------
    >>> answer = solve_puzzle(Puzzle(3, 4, {"a1": 1}))
    >>> answer.tour.squares()[0], answer.count, answer.unique  # one found, more may exist
    ((0, 0), None, None)
    """

    puzzle: Puzzle
    status: Status
    solutions: tuple[Tour, ...] = ()
    exact: bool = False
    certificate: Certificate | None = None
    reason: str = ""
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def tour(self) -> Tour | None:
        """The first solution, or None."""
        return self.solutions[0] if self.solutions else None

    @property
    def count(self) -> int | None:
        """The number of solutions when it is known exactly, else None."""
        return len(self.solutions) if self.exact else None

    @property
    def unique(self) -> bool | None:
        """True (exactly one solution), False (none, or two or more), None (unknown)."""
        if self.exact:
            return len(self.solutions) == 1
        return False if len(self.solutions) >= 2 else None

    def verdict(self) -> str:
        """The answer in words: ``exactly 1 solution``, ``at least 2 solutions``, ...

        Examples
        --------
        >>> count_solutions(Puzzle(3, 4, {"a1": 1}), limit=2).verdict()
        'at least 2 solutions'
        """
        k = len(self.solutions)
        plural = "" if k == 1 else "s"
        if self.exact:
            return f"exactly {k} solution{plural}" if k else "no solution"
        return f"at least {k} solution{plural}"


def puzzle_fields(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as the JSON of an answer describes it (what the checker rebuilds it from).

    Examples
    --------
    >>> puzzle_fields(Puzzle(3, 4, {"a1": 1}))
    {'rows': 3, 'cols': 4, 'closed': False, 'clues': {'a1': 1}}
    """
    return {
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "closed": puzzle.closed,
        "clues": puzzle.named_clues(),
    }


def solve_puzzle(puzzle: Puzzle, *, timeout: float | None = None) -> PuzzleAnswer:
    """One solution of ``puzzle``, or a checked proof that there is none.

    Examples
    --------
    >>> answer = solve_puzzle(Puzzle(5, 5, {"a1": 1, "c3": 25}))
    >>> answer.status.name, answer.tour.squares()[-1]
    ('FOUND', (2, 2))
    """
    return count_solutions(puzzle, limit=1, timeout=timeout)


def count_solutions(
    puzzle: Puzzle,
    *,
    limit: int | None = None,
    timeout: float | None = None,
    avoid: Sequence[Sequence[int]] = (),
) -> PuzzleAnswer:
    """The solutions of ``puzzle``: all of them (``exact``), or the first ``limit``.

    Parameters
    ----------
    puzzle : Puzzle
    limit : int, optional
        Stop after this many solutions (``exact`` is then False: there may be more);
        ``limit=2`` answers "is the solution unique?" quickly.
    timeout : float, optional
        Seconds; past them the answer is ABORTED, with the solutions found so far.
    avoid : sequence of orders
        Numberings known already (each verified here): they are listed first and
        blocked before the solver starts (the uniqueness proof of a made puzzle).

    Returns
    -------
    PuzzleAnswer

    Notes
    -----
    A count is exact only with a certificate the independent checker accepted (it
    rebuilds the puzzle's CNF, blocks the listed solutions and checks the DRUP proof);
    when it does not accept one, the answer is ABORTED with the reason.  The proof is
    logged with CaDiCaL's clause-hiding simplifications off (as for tours:
    :data:`~knightgraph.solvers.incremental.PROOF_OPTIONS`), so that it stays a DRUP
    proof across the rounds of blocking clauses; its lemmas are kept up to its empty
    clause, its deletions left out.

    Examples
    --------
    >>> answer = count_solutions(Puzzle(3, 4, {"b1": 1}))
    >>> answer.verdict(), answer.status.name
    ('no solution', 'PROVEN_ABSENT')
    >>> answer.certificate.to_dict()["solutions"]
    []
    """
    from ..solvers.gate import gate

    began = time.monotonic()
    budget = Budget.make(timeout=timeout)
    if limit is not None and limit < 1:
        from ..exceptions import InvalidOptionError

        raise InvalidOptionError(f"invalid limit {limit!r}: expected a whole number >= 1")
    cnf = PuzzleCNF(puzzle)
    found = [_verified(puzzle, order) for order in avoid]
    stats: dict[str, Any] = {"rounds": 0}

    def answer(status: Status, reason: str, **more: Any) -> PuzzleAnswer:
        stats["seconds"] = time.monotonic() - began
        return PuzzleAnswer(
            puzzle,
            status,
            tuple(found),
            reason=reason,
            seconds=stats["seconds"],
            stats=dict(stats),
            **more,
        )

    if puzzle.closed and puzzle.size % 2 == 1 and not found:
        return _odd_board(puzzle, answer)
    with sat_session(cnf, budget) as sat:
        if sat is None:
            return answer(Status.ABORTED, stopped_at(budget, "writing the clauses"))
        for tour in found:
            sat.add_clause(cnf.blocking(tour.order.tolist()))
        while limit is None or len(found) < limit:
            stats["rounds"] += 1
            outcome = solve_sliced(sat, budget)
            if outcome is None:
                return answer(Status.ABORTED, stopped_at(budget, f"{len(found)} solutions found"))
            if not outcome:
                proof = proof_lemmas(sat.get_proof() or [])
                break
            order = cnf.decode(sat.get_model())
            found.append(_verified(puzzle, order))
            sat.add_clause(cnf.blocking(order))
        else:
            return answer(Status.FOUND, f"stopped at {limit} solution{'s' if limit != 1 else ''}")
    if budget.out_of_time():
        return answer(Status.ABORTED, stopped_at(budget, "before the proof was checked"))
    certificate = Certificate(
        "puzzle-refutation",
        f"no solution other than the {len(found)} listed: the puzzle's CNF with a blocking "
        "clause for each is unsatisfiable",
        {"solutions": [[list(sq) for sq in t.squares()] for t in found], "proof": proof},
    )
    check = _checker(puzzle)
    if found:
        accepted, why = check(certificate)
        if not accepted:
            return answer(Status.ABORTED, f"the count's refutation did not check ({why})")
        stats["checked"] = why
        return answer(Status.FOUND, "every solution found", exact=True, certificate=certificate)
    no = SearchResult(Status.PROVEN_ABSENT, certificate=certificate, method="puzzle")
    gated = gate(
        no,
        what="solution of the puzzle",
        budget=budget,
        check=check,
        refute=lambda _: SearchResult(Status.ABORTED, reason="no other refutation"),
    )
    if gated.status is not Status.PROVEN_ABSENT:
        return answer(Status.ABORTED, gated.reason)
    stats["checked"] = gated.stats["checked"]
    return answer(
        Status.PROVEN_ABSENT, "no numbering keeps the clues", exact=True, certificate=certificate
    )


def _odd_board(puzzle: Puzzle, answer: Callable[..., PuzzleAnswer]) -> PuzzleAnswer:
    """No closed tour on a board of an odd number of squares: the colour count, checked."""
    certificate = Certificate(
        "colour-count",
        f"a closed tour alternates colours, so it needs an even number of squares; the "
        f"{puzzle.rows}x{puzzle.cols} board has {puzzle.size}",
    )
    accepted, why = _checker(puzzle)(certificate)
    if not accepted:  # pragma: no cover - the checker and this rule agree
        return answer(Status.ABORTED, f"the colour count did not check ({why})")
    return answer(Status.PROVEN_ABSENT, certificate.reason, exact=True, certificate=certificate)


def _checker(puzzle: Puzzle) -> Any:
    """The independent checker's verdict on a certificate for this puzzle."""
    from ..certcheck.puzzles import check_puzzle_certificate

    fields = puzzle_fields(puzzle)
    return lambda certificate: check_puzzle_certificate(fields, certificate.to_dict())


def _verified(puzzle: Puzzle, order: Sequence[int]) -> Tour:
    """The numbering as a Tour, verified as a tour and for its clues (else InternalError)."""
    from ..exceptions import InternalError

    board = puzzle.board()
    tour = Tour(board, list(order), closed=puzzle.closed)  # the verifier, when it is built
    validate_tour(tour.squares(), puzzle.rows, puzzle.cols, closed=puzzle.closed)
    defect = puzzle.defect(tour.order.tolist())
    if defect is not None:
        raise InternalError(f"internal error: the solver's numbering breaks a clue: {defect}")
    return tour


def proof_lemmas(proof: Sequence[str]) -> list[str]:
    """The proof's lemmas up to its first empty clause, without its deletions.

    What follows the empty clause proves nothing more.  A deletion only spares the
    checker work: every clause kept is implied by the formula, so a lemma that follows
    with the deleted clauses still there is still implied.  CaDiCaL deletes every clause
    the clues satisfy (nearly all of them, 257,000 lines of 264,000 on 8 x 8), which the
    checker would read for nothing."""
    lemmas = []
    for line in proof:
        if line.startswith("d"):
            continue
        lemmas.append(line)
        if line.strip() == "0":
            break
    return lemmas


def stopped_at(budget: Budget, what: str) -> str:
    """The reason of an answer stopped by its timeout, saying where (also the magic tours')."""
    return f"stopped at the timeout of {budget.timeout:g} s ({what})"


@contextmanager
def sat_session(cnf: PuzzleCNF, budget: Budget, proof: bool = True) -> Iterator[Any]:
    """A CaDiCaL solver holding the CNF (None when the timeout passes while writing it)."""
    from pysat.solvers import Solver

    from ..solvers.incremental import PROOF_OPTIONS

    with Solver(name=SOLVER, with_proof=proof) as sat:
        inner = getattr(sat, "solver", sat)
        if proof:
            inner.configure(dict(PROOF_OPTIONS))
        add = inner.add_clause
        for i, clause in enumerate(cnf.clauses()):
            if i % ENCODE_CHECK == 0 and budget.out_of_time():
                yield None
                return
            add(clause)
        yield sat


def solve_sliced(sat: Any, budget: Budget, assumptions: Sequence[int] = ()) -> bool | None:
    """Solve in slices of :data:`SLICE` conflicts, watching the clock; None past it."""
    if budget.timeout is None:
        return bool(sat.solve(assumptions=list(assumptions)))
    while not budget.out_of_time():
        sat.conf_budget(SLICE)
        outcome = sat.solve_limited(assumptions=list(assumptions))
        if outcome is not None:
            return bool(outcome)
    return None
