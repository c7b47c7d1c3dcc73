"""Finding and counting magic tours: every tour verified twice, every "no" a checked proof.

:func:`find_magic_tour` first asks :func:`~knightgraph.magic.rules.magic_obstruction`
(sums that are not whole numbers, odd sides); when no argument settles the board it gives
the CNF of :class:`~knightgraph.magic.encoding.MagicCNF` to CaDiCaL.  A model becomes a
:class:`~knightgraph.Tour` (the verifier) and its line sums are re-added
(:func:`~knightgraph.magic.rules.magic_defect`).  :func:`count_magic_tours` blocks each
numbering found and solves again until the solver answers "unsatisfiable" (on 8 x 8,
12 x 12 and other boards past :data:`PROOF_SQUARES` squares with sides multiples of 4,
:func:`find_magic_tour` first asks for a tour of a restricted form, :data:`FORMS`, in a
process of its own; past :data:`MAX_SQUARES` squares that is the only search).  That answer, and every argument, becomes a certificate the independent checker
(:mod:`knightgraph.certcheck.magic`) accepts before any "no" or exact count leaves, through
the one gate (:func:`~knightgraph.solvers.gate.gate`).

Examples
--------
>>> result = find_magic_tour(4, 8, kind="files")  # every file of 4 sums to 66
>>> result.status.name, result.tour.squares()[:1] != []
('FOUND', True)
>>> find_magic_tour(7, 7).certificate.kind  # ranks 1 and 2: sums of different parity
'magic-parity'
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from ..exceptions import InternalError, InvalidOptionError
from ..puzzles.solving import proof_lemmas, stopped_at
from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult, Status
from ..tours.tour import Tour
from .encoding import MagicCNF
from .enumeration import list_numberings
from .forms import search_in_child
from .rules import check_kind, magic_defect, magic_obstruction

__all__ = [
    "FORMS",
    "MAX_SQUARES",
    "PROOF_SQUARES",
    "QUARTET_SQUARES",
    "MagicCount",
    "count_magic_tours",
    "find_magic_tour",
    "search_refusal",
]

MAX_SQUARES = 100
"""Most squares of a board the SAT search takes: the tour alone has about ``N^3`` clauses
(a million at 10 x 10), the totalizers of the 20 lines of 10 x 10 about as many again."""

QUARTET_SQUARES = 576
"""Most squares of a board (both sides multiples of 4) whose tours of quartet form
(:class:`~knightgraph.magic.quartets.QuartetCNF`) are searched: the CNF grows as ``N^2``,
about 0.8 million clauses on 12 x 12."""

PROOF_SQUARES = 48
"""Up to this many squares the solver logs a DRUP proof (a "no" and an exact count need
one); on larger boards a search runs without (a long search's proof would fill the
disk), finds tours, and never answers "no"."""

SOLVER = "cadical195"
ENCODE_CHECK = 4096
"""Clauses given to the solver between looks at the clock."""

SLICE = 200
"""Conflicts per solver call between looks at the clock (CaDiCaL cannot be interrupted; on
8 x 8 a conflict takes a few milliseconds under the totalizers' millions of clauses)."""


@dataclass(frozen=True)
class MagicCount:
    """What is known about the magic tours of a board.

    Attributes
    ----------
    rows, cols : int
    kind : str
    closed : bool
    status : Status
        FOUND (at least one), PROVEN_ABSENT (none: the certificate says why) or ABORTED
        (the budget ran out first; ``tours`` holds those found by then).
    tours : tuple of Tour
        Distinct numberings (a tour and its reverse are two), each verified twice.
    exact : bool
        True when ``tours`` are all of them (the certificate proves it).
    certificate : Certificate or None
    reason : str
    seconds : float
    stats : dict

    Examples
    --------
    >>> count_magic_tours(3, 5).count  # the sums of 3 x 5 ranks differ in parity
    0
    """

    rows: int
    cols: int
    kind: str
    closed: bool
    status: Status
    tours: tuple[Tour, ...] = ()
    exact: bool = False
    certificate: Certificate | None = None
    reason: str = ""
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def count(self) -> int | None:
        """The number of numberings when it is known exactly, else None."""
        return len(self.tours) if self.exact else None


def find_magic_tour(
    m: int,
    n: int | None = None,
    *,
    kind: str = "semi",
    closed: bool = False,
    timeout: float | None = None,
    budget: Budget | None = None,
) -> SearchResult:
    """A magic tour of the ``m x n`` board, or a checked proof that there is none.

    Parameters
    ----------
    m, n : int
        Ranks and files (``n`` defaults to ``m``).
    kind : {"semi", "full", "files", "ranks"}
        ``semi``: every rank and file has its sum; ``full``: and both long diagonals
        (square boards); ``files`` or ``ranks``: those lines only.
    closed : bool
        Ask for a closed tour.
    timeout : float, optional
        Seconds; past them the answer is ABORTED.
    budget : Budget, optional
        In place of ``timeout``: a clock already running (the command line's).

    Returns
    -------
    SearchResult
        FOUND with the tour (``stats["sums"]``: the line sums), PROVEN_ABSENT with a
        certificate the independent checker accepted, or ABORTED.

    Raises
    ------
    InvalidBoardError, InvalidOptionError
        A bad size, kind, or a board past the search that no argument settles
        (:func:`search_refusal`).

    Notes
    -----
    On a board past :data:`PROOF_SQUARES` squares whose sides are multiples of 4 (8 x 8,
    12 x 12), where no "no" can come anyway, the search first asks for a tour of a form
    (:data:`FORMS`), each in a process of its own: the nested form, then the quartet form
    (:class:`~knightgraph.magic.quartets.QuartetCNF`: every run of four numbers a
    knight's path across one 4 x 4 block, one square in each of its ranks and files),
    then (up to :data:`MAX_SQUARES` squares) Beverley's form
    (:meth:`~knightgraph.magic.encoding.MagicCNF.block_clauses`), each only once the
    solver proves there is none of the one before, and last for any tour.  Past
    :data:`MAX_SQUARES` squares (up to :data:`QUARTET_SQUARES`) only the first two run,
    and when neither holds a tour the answer is ABORTED ("unknown"), never "no".
    A "no" is a ``magic-sums``, ``magic-parity`` or ``magic-halves`` argument (O(1), see
    :mod:`knightgraph.magic.rules`) or a ``magic-refutation``: the CNF unsatisfiable, its
    DRUP proof checked against the CNF the checker writes itself (logged only up to
    :data:`PROOF_SQUARES` squares; past them "unsatisfiable" is ABORTED).  A tour is
    checked by the verifier and its sums re-added here, and the checker checks both
    again from a JSON answer.  Time: that of a CDCL solver on about ``N^3`` clauses,
    exponential in the worst case; the 8 x 8 semi-magic tour: ``benchmarks/bench_magic.py``.

    Examples
    --------
    >>> find_magic_tour(3, 3).certificate.kind  # ranks 1 and 2: odd and even sums
    'magic-parity'
    >>> result = find_magic_tour(4, 4)  # no tour at all, so no magic one: a refutation
    >>> result.status.name, result.certificate.kind
    ('PROVEN_ABSENT', 'magic-refutation')
    """
    n = m if n is None else n
    budget = Budget.make(timeout=timeout) if budget is None else budget
    shaped = _forms_first(m, n, kind, closed, budget)
    if isinstance(shaped, SearchResult):
        return shaped
    answer = count_magic_tours(m, n, kind=kind, closed=closed, limit=1, budget=budget)
    tour = answer.tours[0] if answer.tours else None
    stats = {**shaped, **answer.stats}
    if tour is not None:
        stats["sums"] = _sums(tour, answer.kind)
    return SearchResult(
        answer.status if tour is None else Status.FOUND,
        tour=tour,
        certificate=answer.certificate if tour is None else None,
        method="magic",
        seconds=answer.seconds,
        stats=stats,
        reason=answer.reason,
    )


def count_magic_tours(
    m: int,
    n: int | None = None,
    *,
    kind: str = "semi",
    closed: bool = False,
    limit: int | None = None,
    timeout: float | None = None,
    budget: Budget | None = None,
    method: str = "sat",
) -> MagicCount:
    """The magic tours of the ``m x n`` board, as numberings: all of them, or ``limit``.

    A tour numbered from either end is two numberings, and the board's symmetries
    are not divided out (the OEIS counts of 4 x n boards, A328816, are up to the four).

    Parameters
    ----------
    m, n, kind, closed, timeout, budget
        As :func:`find_magic_tour`.
    limit : int, optional
        Stop after this many (``exact`` is then False).
    method : {"sat", "search"}
        ``"sat"``: exact only with a checked certificate (below).  ``"search"``: exact
        when the search of :mod:`~knightgraph.magic.enumeration` ran to its end, with no
        certificate (each numbering verified; a board with none goes to ``"sat"``, so a
        "no" keeps its proof): 4 x 10 in seconds, where 4 x 8's certificate takes minutes.

    Returns
    -------
    MagicCount

    Notes
    -----
    On boards up to :data:`PROOF_SQUARES` squares the numberings are first listed by the
    search of :mod:`knightgraph.magic.enumeration` (each verified and blocked); then each
    round solves the CNF with one blocking clause per numbering found, and the last
    round's "unsatisfiable" is the certificate of the count (``magic-refutation`` with
    the numberings listed), which the checker accepts before the count is called exact.
    A numbering the search missed would be a model of a round: the count does not rest
    on the search.

    Examples
    --------
    >>> answer = count_magic_tours(3, 4, kind="ranks")  # no 3x4 tour has every rank at 26
    >>> answer.count, answer.certificate.kind
    (0, 'magic-refutation')
    >>> searched = count_magic_tours(3, 8, kind="ranks", method="search")
    >>> searched.count, searched.certificate is None, searched.stats["search"]["complete"]
    (32, True, True)
    """
    began = time.monotonic()
    n = m if n is None else n
    from ..boards.board import Board

    board = Board(m, n)
    kind = check_kind(kind, m, n)
    if not isinstance(closed, bool):
        raise InvalidOptionError(f"invalid closed {closed!r}: expected True or False")
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise InvalidOptionError(f"invalid limit {limit!r}: expected a whole number >= 1")
    budget = Budget.make(timeout=timeout) if budget is None else budget
    found: list[Tour] = []
    stats: dict[str, Any] = {"rounds": 0}

    def answer(status: Status, reason: str, **more: Any) -> MagicCount:
        stats["seconds"] = time.monotonic() - began
        return MagicCount(
            m, n, kind, closed, status, tuple(found), reason=reason,
            seconds=stats["seconds"], stats=dict(stats), **more,
        )  # fmt: skip

    if method not in ("sat", "search"):
        raise InvalidOptionError(f"invalid method {method!r}: expected 'sat' or 'search'")
    argument = magic_obstruction(m, n, kind)
    if argument is not None:
        return _gated(answer, argument, m, n, kind, closed, budget, [])
    if m * n > MAX_SQUARES:
        raise InvalidOptionError(
            f"invalid board {m}x{n} for a magic tour search: {m * n} squares, the SAT "
            f"encoding takes at most {MAX_SQUARES}"
        )
    listed: list[list[int]] = []
    if method == "search" or m * n <= PROOF_SQUARES:  # the search lists them first
        listed = list_numberings(m, n, kind, closed, limit, budget, stats)
        found.extend(_verified(board, order, kind, closed) for order in listed)
        if limit is not None and len(found) >= limit:
            return answer(Status.FOUND, f"stopped at {limit} magic tour{'s' * (limit != 1)}")
        if not stats["search"]["complete"]:
            return answer(Status.ABORTED, stopped_at(budget, f"{len(found)} found"))
        if method == "search" and found:
            return answer(Status.FOUND, f"all {len(found)} numberings, by an exhaustive "
                          "search (no certificate)", exact=True)  # fmt: skip
        if m * n > PROOF_SQUARES:  # none found, and no proof logged past PROOF_SQUARES
            return answer(Status.ABORTED, f"the search found none, but no certificate is "
                          f"made on boards over {PROOF_SQUARES} squares")  # fmt: skip
    cnf = MagicCNF(m, n, kind, closed)
    proof = m * n <= PROOF_SQUARES
    with _session(cnf, budget, proof) as sat:
        if sat is None:
            return answer(Status.ABORTED, stopped_at(budget, "writing the clauses"))
        for order in listed:  # the solver is asked for one more
            sat.add_clause([-cnf.var(s, k) for k, s in enumerate(order, 1)])
        while limit is None or len(found) < limit:
            stats["rounds"] += 1
            outcome = _solve(sat, budget)
            if outcome is None:
                return answer(Status.ABORTED, stopped_at(budget, f"{len(found)} found"))
            if outcome is False:
                lines = proof_lemmas(sat.get_proof() or []) if proof else None
                break
            order = cnf.decode(outcome)
            found.append(_verified(board, order, kind, closed))
            sat.add_clause([-cnf.var(s, k) for k, s in enumerate(order, 1)])
        else:
            plural = "s" if limit != 1 else ""
            return answer(Status.FOUND, f"stopped at {limit} magic tour{plural}")
    if lines is None:
        return answer(
            Status.ABORTED,
            f"the solver found no more, but logs no proof on boards over {PROOF_SQUARES} "
            "squares, so nothing is claimed",
        )
    if budget.out_of_time():
        return answer(Status.ABORTED, stopped_at(budget, "before the proof was checked"))
    certificate = Certificate(
        "magic-refutation",
        f"no {_words(kind)} tour other than the {len(found)} listed: the CNF with a blocking "
        "clause for each is unsatisfiable",
        {"solutions": [[list(sq) for sq in t.squares()] for t in found], "proof": lines},
    )
    return _gated(answer, certificate, m, n, kind, closed, budget, found)


def search_refusal(m: int, n: int, kind: str) -> str | None:
    """Why :func:`find_magic_tour` takes no search of the board (None when it does).

    Examples
    --------
    >>> search_refusal(12, 12, "full") is None  # the quartet form: 144 squares
    True
    >>> search_refusal(14, 16, "semi")
    '224 squares: the SAT search takes at most 100, or 576 with both sides multiples of 4 (a search of quartet form only)'
    >>> search_refusal(14, 14, "full") is None  # both sides 2 more than a multiple of 4: no
    True
    """
    size = m * n
    if size <= MAX_SQUARES or magic_obstruction(m, n, kind) is not None:
        return None
    if m % 4 == 0 and n % 4 == 0 and size <= QUARTET_SQUARES:
        return None
    return (
        f"{size} squares: the SAT search takes at most {MAX_SQUARES}, or {QUARTET_SQUARES} with "
        "both sides multiples of 4 (a search of quartet form only)"
    )


FORMS = {
    "nested": "runs of 4 across 4x4 blocks, one square in each rank and file, each block "
    "semi-magic",
    "quartets": "runs of 4 across 4x4 blocks, one square in each rank and file",
    "blocks": "runs of 4 in 4x4 blocks",
}
"""The restricted searches :func:`find_magic_tour` runs first, in this order."""


def _forms_first(
    m: int, n: int, kind: str, closed: bool, budget: Budget
) -> SearchResult | dict[str, Any]:
    """The searches of the forms (see :func:`find_magic_tour`): the result when one finds a
    tour, the time runs out, or the board is past the full search; else what they did (for
    the full search's stats)."""
    from ..boards.board import Board

    board = Board(m, n)
    kind = check_kind(kind, m, n)
    size = m * n
    if size <= PROOF_SQUARES or m % 4 or n % 4 or magic_obstruction(m, n, kind) is not None:
        return {}
    refusal = search_refusal(m, n, kind)
    if refusal is not None:
        raise InvalidOptionError(f"invalid board {m}x{n} for a magic tour search: {refusal}")
    limits = (("nested", QUARTET_SQUARES), ("quartets", QUARTET_SQUARES), ("blocks", MAX_SQUARES))
    forms = [form for form, most in limits if size <= most]
    began = time.monotonic()
    done: dict[str, Any] = {}

    def result(status: Status, reason: str, tour: Tour | None = None) -> SearchResult:
        seconds = time.monotonic() - began
        stats: dict[str, Any] = {**done, "seconds": seconds}
        if tour is not None:
            stats["sums"] = _sums(tour, kind)
        return SearchResult(status, tour=tour, method="magic", seconds=seconds, stats=stats,
                            reason=reason)  # fmt: skip

    for form in forms:
        outcome = search_in_child(form, m, n, kind, closed, budget)
        if outcome is None:
            return result(Status.ABORTED, stopped_at(budget, f"searching tours of {form} form"))
        if outcome is not False:
            done["form"] = FORMS[form]
            tour = _verified(board, outcome, kind, closed)
            return result(Status.FOUND, f"a tour of {form} form ({FORMS[form]})", tour)
        done[f"none of {form} form"] = round(time.monotonic() - began, 3)
    if size > MAX_SQUARES:
        return result(
            Status.ABORTED,
            f"no {_words(kind)} tour of quartet form ({FORMS['quartets']}), and the search "
            f"over every tour takes at most {MAX_SQUARES} squares: unknown",
        )
    return {**done, "form seconds": time.monotonic() - began}


def _solve(sat: Any, budget: Budget) -> list[int] | Literal[False] | None:
    """The model (a list), False (unsatisfiable) or None (past the timeout), in slices of
    :data:`SLICE` conflicts."""
    while budget.timeout is None or not budget.out_of_time():
        if budget.timeout is not None:
            sat.conf_budget(SLICE)
            outcome = sat.solve_limited()
        else:
            outcome = sat.solve()
        if outcome is not None:
            return list(sat.get_model()) if outcome else False
    return None


def _gated(
    answer: Any,
    certificate: Certificate,
    m: int,
    n: int,
    kind: str,
    closed: bool,
    budget: Budget,
    found: Sequence[Tour],
) -> MagicCount:
    """The count or "no" of a certificate, only once the independent checker accepts it."""
    from ..certcheck.magic import check_magic_certificate
    from ..solvers.gate import gate

    fields = {"rows": m, "cols": n, "magic": kind, "closed": closed}

    def check(cert: Certificate) -> tuple[bool, str]:
        return check_magic_certificate(fields, cert.to_dict())

    if found:
        accepted, why = check(certificate)
        if not accepted:
            return answer(Status.ABORTED, f"the count's refutation did not check ({why})")  # type: ignore[no-any-return]
        out = answer(Status.FOUND, "every magic tour found", exact=True, certificate=certificate)
        out.stats["checked"] = why
        return out  # type: ignore[no-any-return]
    no = SearchResult(Status.PROVEN_ABSENT, certificate=certificate, method="magic")
    gated = gate(
        no,
        what=f"{_words(kind)} tour of the {m}x{n} board",
        budget=budget,
        check=check,
        refute=lambda _: SearchResult(Status.ABORTED, reason="no other refutation"),
    )
    if gated.status is not Status.PROVEN_ABSENT:
        return answer(Status.ABORTED, gated.reason)  # type: ignore[no-any-return]
    out = answer(Status.PROVEN_ABSENT, certificate.reason, exact=True, certificate=certificate)
    out.stats["checked"] = gated.stats["checked"]
    return out  # type: ignore[no-any-return]


def _words(kind: str) -> str:
    return {"semi": "semi-magic", "full": "magic", "files": "file-magic", "ranks": "rank-magic"}[
        kind
    ]


def _sums(tour: Tour, kind: str) -> dict[str, int]:
    """Each line's sum, by the line's name."""
    from .rules import magic_lines

    m, n = tour.board.m, tour.board.n
    number = {int(s): k for k, s in enumerate(tour.order.tolist(), 1)}
    return {name: sum(number[s] for s in squares) for name, squares in magic_lines(m, n, kind)}


def _verified(board: Any, order: Sequence[int], kind: str, closed: bool) -> Tour:
    """The numbering as a Tour (the verifier), its sums re-added (else InternalError)."""
    tour = Tour(board, list(order), closed=closed)
    defect = magic_defect(tour.order.tolist(), board.m, board.n, kind)
    if defect is not None:
        raise InternalError(f"internal error: a numbering found is not magic: {defect}")
    return tour


@contextmanager
def _session(
    cnf: MagicCNF, budget: Budget, proof: bool, more: Iterable[list[int]] = ()
) -> Iterator[Any]:
    """CaDiCaL holding the CNF and ``more`` (None when the timeout passes while writing it)."""
    import itertools

    from pysat.solvers import Solver

    from ..solvers.incremental import PROOF_OPTIONS

    with Solver(name=SOLVER, with_proof=proof) as sat:
        inner = getattr(sat, "solver", sat)
        if proof:
            inner.configure(dict(PROOF_OPTIONS))
        add = inner.add_clause
        for i, clause in enumerate(itertools.chain(cnf.iter_clauses(), more)):
            if i % ENCODE_CHECK == 0 and budget.out_of_time():
                yield None
                return
            add(clause)
        yield sat
