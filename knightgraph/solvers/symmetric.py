"""Symmetric tours: :func:`find_symmetric`, behind ``find_tour(..., symmetric=...)`` and
``knightgraph tour|exists --symmetric rot180|rot90|mirror``.

A tour is symmetric under a symmetry of the board when the symmetry maps its set of
moves onto itself.  The request names the half turn, the quarter turn or ``mirror``
(some reflection of the board); each symmetry it names is settled in turn:

1. a board with no tour at all is answered by the plain search's checked certificate
   (no tour, so no symmetric one);
2. a theorem (:func:`~knightgraph.proofs.symmetric.symmetric_theorem`) rules it out;
3. ``auto`` and ``divide``: closed tours of ``n x n`` fixed by the half or quarter turn
   are built by the pinwheel of :mod:`knightgraph.solvers.symbuild` (``n >= 18``, linear
   time);
4. ``auto`` and ``sat``: SAT with the symmetry's clauses (:mod:`knightgraph.solvers.symsat`),
   a tour or a refutation.

A tour found is verified twice before it leaves: as a :class:`~knightgraph.Tour` (the
verifier) and for its symmetry (:func:`moves_fixed`, numpy, independent of the code that
found it).  A "no" leaves only when the independent checker
(:mod:`knightgraph.certcheck.symmetric`) accepts its certificate, of kind ``symmetric``
(one case per symmetry named: a theorem's clause or a SAT refutation), otherwise the
answer is ABORTED.

Examples
--------
>>> from knightgraph import Board
>>> res = find_symmetric(Board(6, 6), "rot90", closed=True)
>>> res.status.name, res.method, res.stats["symmetry"]
('FOUND', 'sat', 'rot90')
>>> res = find_symmetric(Board(8, 8), "mirror", closed=True)
>>> res.certificate.kind, [c["clause"] for c in res.certificate.data["cases"]]
('symmetric', ['cycle-mirror', 'cycle-mirror', 'cycle-mirror', 'cycle-mirror'])
>>> find_symmetric(Board(40, 40), "rot180", closed=True).method
'construction'
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..boards.board import Board, SquareLike
from ..exceptions import InternalError, InvalidOptionError, describe_value
from ..proofs.symmetric import symmetric_theorem, symmetry_elements
from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult, Status
from ..tours.tour import Tour
from .codes import follow_unchecked
from .symbuild import symmetric_codes
from .symsat import symmetric_sat

__all__ = ["METHODS", "find_symmetric", "moves_fixed"]

METHODS = ("auto", "sat", "divide")
"""The methods a symmetric request takes: ``divide`` builds only, ``sat`` solves only."""


def find_symmetric(
    board: Board,
    symmetric: str,
    *,
    closed: bool = False,
    method: str = "auto",
    timeout: float | None = None,
    limit: int | None = None,
    start: SquareLike | None = None,
) -> SearchResult:
    """A tour of ``board`` that ``symmetric`` (``"rot180"``, ``"rot90"`` or ``"mirror"``)
    maps onto itself, or a checked proof that there is none, or ABORTED.

    Parameters
    ----------
    board : Board
        A rectangle (removed squares and other leapers too: then SAT decides).
    symmetric : str
        The half turn, the quarter turn (square boards) or some reflection.
    closed : bool
    method : str
        ``auto`` (theorems, the construction, then SAT), ``sat`` or ``divide`` (the
        construction only).
    timeout, limit
        Seconds, and SAT conflicts, for all the SAT calls together.
    start : square, optional
        Closed tours only: the tour is read from this square (any square of a cycle
        starts it; the symmetry is the cycle's).

    Returns
    -------
    SearchResult
        FOUND (``method`` ``construction`` or ``sat``; ``stats["symmetry"]`` names the
        symmetry the tour has), PROVEN_ABSENT (``certificate`` of kind ``symmetric``, or
        the plain search's when the board has no tour at all; checked, ``stats["checked"]``)
        or ABORTED.

    Raises
    ------
    InvalidOptionError
        For an unknown kind, one the board lacks (``rot90`` of a board that is not
        square), or a method other than :data:`METHODS`.

    Notes
    -----
    Why each step is sound: see :mod:`knightgraph.proofs.symmetric` (theorems),
    :mod:`knightgraph.solvers.symsat` (the SAT encoding) and
    :mod:`knightgraph.solvers.symbuild` (the construction).  The construction is O(mn);
    1000 x 1000 takes a few hundredths of a second plus the verifications
    (``benchmarks/bench_symmetric.py``).

    Examples
    --------
    >>> res = find_symmetric(Board(5, 5), "rot180")  # open: the middle square is c3
    >>> res.tour.algebraic()[12]
    'c3'
    >>> find_symmetric(Board(6, 6), "rot90", closed=True, start="c4").tour.algebraic()[:2]
    ['c4', 'a3']
    >>> find_symmetric(Board(1, 1), "rot90").tour.algebraic()  # no move: every symmetry fixes it
    ['a1']
    >>> find_symmetric(Board(6, 8), "rot90")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid symmetric 'rot90': the 6x8 board is not square
    """
    elements = symmetry_elements(board, symmetric)
    first = None
    if start is not None:
        if not closed:
            raise InvalidOptionError("a symmetric open tour is asked for whole: leave out start")
        first = board.index(start)
    if method not in METHODS:
        raise InvalidOptionError(
            f"invalid method {describe_value(method)} for a symmetric tour: "
            "expected auto, sat or divide"
        )
    budget = Budget.make(timeout=timeout, limit=limit)
    began = time.perf_counter()
    plain = _no_tour_at_all(board, closed, timeout)
    if plain is not None:
        return _gated(board, symmetric, closed, plain, began)
    if board.num_squares == 1 and not closed:  # one square, no move: every symmetry fixes it
        return _found(board, [board.index(board.squares()[0])], closed, elements[0], "sat", began)
    cases: list[dict[str, Any]] = []
    unsettled: list[str] = []
    for element in elements:
        rule = symmetric_theorem(board, element, closed)
        if rule is not None:
            cases.append({"symmetry": element, "clause": rule[0], "reason": rule[1]})
            continue
        if method != "sat":
            codes = _construction(board, element, closed)
            if codes is not None:
                order = follow_unchecked(codes, 0 if first is None else first, cycle=True)
                return _found(board, order, closed, element, "construction", began)
        if method == "divide":
            unsettled.append(f"{element}: divide has no construction for it")
            continue
        res = symmetric_sat(board, element, closed=closed, budget=budget)
        if res.status is Status.FOUND and res.tour is not None:
            order = res.tour.order
            if first is not None:
                order = np.roll(order, -int(np.flatnonzero(order == first)[0]))
            return _found(board, order, closed, element, "sat", began)
        if res.status is Status.PROVEN_ABSENT and res.certificate is not None:
            cases.append({"symmetry": element, "certificate": res.certificate.to_dict()})
        else:
            unsettled.append(f"{element}: {res.reason}")
    seconds = time.perf_counter() - began
    if unsettled:
        return SearchResult(
            Status.ABORTED,
            method=method,
            seconds=seconds,
            reason="undecided: " + "; ".join(unsettled),
        )
    how = ", ".join(
        f"{c['symmetry']} by {'theorem ' + c['clause'] if 'clause' in c else 'SAT'}" for c in cases
    )
    reason = f"no {_kind(closed)} tour of {board.m}x{board.n} is fixed by {symmetric} ({how})"
    cert = Certificate("symmetric", reason, {"symmetric": symmetric, "cases": cases})
    no = SearchResult(Status.PROVEN_ABSENT, certificate=cert, method=method, reason=reason)
    return _gated(board, symmetric, closed, no, began)


def _kind(closed: bool) -> str:
    return "closed" if closed else "open"


def _no_tour_at_all(board: Board, closed: bool, timeout: float | None) -> SearchResult | None:
    """The plain search's "no" on a knight's board that has no tour at all (Schwenk;
    Conrad et al.), else None."""
    from ..proofs.theorems import closed_tour_exists, open_tour_exists

    if board.leaper not in ((1, 2), (2, 1)) or board.removed:
        return None
    exists = closed_tour_exists if closed else open_tour_exists
    if exists(board.m, board.n):
        return None
    from .auto import auto  # its answer passes the gate of every strategy (checked "no")

    result: SearchResult = auto(board, closed=closed, timeout=timeout)
    return result


def _construction(board: Board, element: str, closed: bool) -> Any:
    """The pinwheel's codes for a closed half- or quarter-turn tour of a whole knight's
    square board, or None."""
    square = board.m == board.n and not board.removed and board.leaper in ((1, 2), (2, 1))
    if not (closed and square and element in ("rot180", "rot90")):
        return None
    return symmetric_codes(board.n, element)


def moves_fixed(order: Any, closed: bool, perm: Any) -> bool:
    """Whether the permutation ``perm`` of the squares maps the tour's moves (the closing
    one too when ``closed``) onto themselves: for every square ``i`` of the tour, the
    images of its two tour neighbours are the two tour neighbours of ``perm[i]`` (a path
    end's missing neighbour is -1, its own image).  O(N) in numpy.

    Examples
    --------
    >>> moves_fixed([0, 2, 1, 3], False, [3, 2, 1, 0])  # 0-2, 2-1, 1-3 -> 3-1, 1-2, 2-0
    True
    >>> moves_fixed([0, 2, 1, 3], False, [1, 0, 3, 2])
    False
    """
    seq = np.asarray(order, dtype=np.int64)
    size = len(perm)
    image = np.append(np.asarray(perm, dtype=np.int64), -1)  # image[-1] is -1: no neighbour
    after = np.full(size, -1, dtype=np.int64)
    before = np.full(size, -1, dtype=np.int64)
    after[seq] = np.roll(seq, -1)
    before[seq] = np.roll(seq, 1)
    if not closed:
        after[seq[-1]] = before[seq[0]] = -1
    a, b = image[after[seq]], image[before[seq]]
    c, d = after[image[seq]], before[image[seq]]
    return bool((((a == c) & (b == d)) | ((a == d) & (b == c))).all())


def _found(
    board: Board, order: Any, closed: bool, element: str, method: str, began: float
) -> SearchResult:
    """FOUND, verified twice: the Tour (the verifier) and its symmetry (:func:`moves_fixed`)."""
    tour = Tour(board, order, closed)
    if not moves_fixed(tour.order, closed, board.symmetries()[element]):
        raise InternalError(f"internal error: the {method} tour is not fixed by {element}")
    stats = {"symmetry": element}
    seconds = time.perf_counter() - began
    return SearchResult(Status.FOUND, tour, method=method, seconds=seconds, stats=stats)


def _gated(
    board: Board, symmetric: str, closed: bool, result: SearchResult, began: float
) -> SearchResult:
    """A "no" that the independent checker accepted (``stats["checked"]``), or ABORTED."""
    from ..certcheck.symmetric import check_symmetric_answer

    seconds = time.perf_counter() - began
    if result.status is not Status.PROVEN_ABSENT or result.certificate is None:
        if result.status is Status.FOUND:  # pragma: no cover - the theorems said no tour
            raise InternalError("internal error: a tour of a board that has none")
        return SearchResult(
            Status.ABORTED, method=result.method, seconds=seconds, reason=result.reason
        )
    answer = {
        "rows": board.m,
        "cols": board.n,
        "closed": closed,
        "symmetric": symmetric,
        "exists": False,
        "certificate": result.certificate.to_dict(),
        **board.checker_fields(),
    }
    accepted, why = check_symmetric_answer(answer)
    if not accepted:
        return SearchResult(
            Status.ABORTED,
            method=result.method,
            seconds=seconds,
            reason=f"the certificate did not check ({why})",
        )
    return SearchResult(
        Status.PROVEN_ABSENT,
        certificate=result.certificate,
        method=result.method,
        seconds=seconds,
        stats={**result.stats, "checked": why},
        reason=result.reason,
    )
