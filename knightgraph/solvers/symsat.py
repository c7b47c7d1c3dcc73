"""Tours fixed by one symmetry of the board, by SAT: :func:`symmetric_sat`.

The tour encoding of :class:`~knightgraph.solvers.cnf.TourCNF` (a variable per move,
exactly two moves at every square, cut clauses added until one cycle is left; an open tour
is a cycle through a hub joined to every square) plus, for every move ``e``, the clause
``not e or g(e)``: if the tour uses a move it uses the move's image under ``g`` (the hub
is its own image).  Around each orbit of ``g`` on the moves these clauses say that all the
moves of the orbit are used or none, so the models are exactly the tours whose moves ``g``
maps onto themselves.

An unsatisfiable CNF becomes a ``sat-refutation`` certificate whose ``symmetry`` names
``g``: the independent checker (:mod:`knightgraph.certcheck.symmetric`) accepts those
clauses only after recomputing each image from the board's coordinates.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.running.budget import Budget
>>> symmetric_sat(Board(6, 6), "rot90", closed=True, budget=Budget()).status.name
'FOUND'
>>> symmetric_sat(Board(5, 6), "rot180", closed=True, budget=Budget()).certificate.kind
'sat-refutation'
"""

from __future__ import annotations

from typing import Any

from ..boards.board import Board
from ..exceptions import SearchAbortedError
from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult, Status
from ..tours.tour import Tour
from .incremental import PROOF_LIMIT, solving

__all__ = ["symmetric_sat", "symmetry_clauses"]


def symmetry_clauses(cnf: Any, perm: Any) -> list[list[int]]:
    """The clauses ``[-e, g(e)]`` of every move ``e`` that ``g`` (the permutation ``perm``
    of the squares; the hub stays) does not map to itself.

    Examples
    --------
    >>> from knightgraph import Board
    >>> from knightgraph.solvers.cnf import TourCNF
    >>> board = Board(3, 4)
    >>> cnf = TourCNF(board, closed=True)
    >>> clauses = symmetry_clauses(cnf, board.symmetries()["rot180"])
    >>> len(clauses), clauses[0]  # 14 moves; the half turn maps 2 through the centre to themselves
    (12, [-1, 6])
    """
    image = [int(x) for x in perm]
    hub = cnf.hub
    out = []
    for k, (u, v) in enumerate(cnf.edges):
        g = cnf.var(image[u] if u != hub else hub, image[v] if v != hub else hub)
        if g != k + 1:
            out.append([-(k + 1), g])
    return out


def symmetric_sat(board: Board, element: str, *, closed: bool, budget: Budget) -> SearchResult:
    """A tour of ``board`` fixed by its symmetry ``element`` (a name of
    :meth:`Board.symmetries`), or a checked-format SAT refutation, or ABORTED.

    Parameters
    ----------
    board : Board
    element : str
        ``rot180``, ``rot90``, ``flip_ranks``, ... (the board must have it).
    closed : bool
    budget : Budget
        Its timeout and conflict limit bound the solver.

    Returns
    -------
    SearchResult
        FOUND with the tour (``method`` ``"sat"``); PROVEN_ABSENT with a
        ``sat-refutation`` certificate that carries ``symmetry``; ABORTED on the budget
        or on boards past :data:`~knightgraph.solvers.incremental.PROOF_LIMIT` squares
        where the solver finds none (no proof was logged).

    Notes
    -----
    The symmetry clauses halve (or quarter) the free choices and the solver sees whole
    orbits at once; each round of cut clauses is O(board).  6 x 6 quarter-turn tours take
    milliseconds, 16 x 16 half-turn ones a fraction of a second.

    Examples
    --------
    >>> from knightgraph import Board
    >>> res = symmetric_sat(Board(3, 10), "flip_files", closed=True, budget=Budget())
    >>> res.status.name, res.tour.closed
    ('FOUND', True)
    """
    from ..proofs.certificates import sat_refutation

    perm = board.symmetries()[element]
    logged = board.num_squares <= PROOF_LIMIT
    stats: dict[str, Any] = {"symmetry": element}
    try:
        with solving(board, closed, proof=logged, budget=budget, lucky=logged) as session:
            session.add_clauses(symmetry_clauses(session.cnf, perm))
            outcome = session.solve(budget=budget)
            stats.update(rounds=outcome.rounds, conflicts=session.conflicts())
            if outcome.status == "sat":
                tour = Tour(board, outcome.order, closed)
                return SearchResult(Status.FOUND, tour, method="sat", stats=stats)
            if outcome.status == "aborted":
                why = budget.exceeded(stats["conflicts"]) or "stopped"
                return _aborted(f"the SAT solver {why}", stats)
            cert = sat_refutation(session, board) if logged else None
    except SearchAbortedError as stop:
        return _aborted(str(stop), stats)
    if cert is None:
        return _aborted(
            "the SAT solver found none, but logged no proof on a board this large", stats
        )
    data = {**cert.data, "symmetry": element}
    reason = f"no tour is fixed by {element}: {cert.reason}"
    return SearchResult(
        Status.PROVEN_ABSENT,
        certificate=Certificate("sat-refutation", reason, data),
        method="sat",
        stats=stats,
        reason=reason,
    )


def _aborted(reason: str, stats: dict[str, Any]) -> SearchResult:
    return SearchResult(Status.ABORTED, method="sat", stats=stats, reason=reason)
