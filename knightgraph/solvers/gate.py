"""The one gate every answer of absence passes before it leaves the solver layer.

Rectangles and graph boards differ only in which independent checker reads a
certificate (the registry's wrapper, :mod:`knightgraph.solvers.base`, asks the
board once and passes it in, with the ``sat`` strategy as the refutation); the rule itself
lives here, once: a PROVEN_ABSENT result leaves only with a certificate the
checker accepted for this very request, and a certificate the checker cannot
re-check (an exhaustive search, say) is replaced by a checked SAT refutation
found within what is left of the budget, or the answer becomes ABORTED.

Examples
--------
>>> from knightgraph.tours.results import Certificate, SearchResult, Status
>>> from knightgraph.solvers.gate import gate
>>> no = SearchResult(Status.PROVEN_ABSENT, certificate=Certificate("exhaustive-search", "?"),
...                   method="demo", reason="searched everything")
>>> out = gate(no, what="closed tour", budget=None,
...            check=lambda c: (c.kind == "colour", "accepted"),
...            refute=lambda b: SearchResult(Status.ABORTED, reason="out of time"))
>>> out.status.name, out.reason.startswith("demo found no closed tour")
('ABORTED', True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..exceptions import InternalError
from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult, Status

__all__ = ["gate"]

Check = Callable[[Certificate], tuple[bool, str]]
"""The independent checker's verdict on a certificate for the request at hand."""

Refute = Callable[["Budget | None"], SearchResult]
"""A SAT refutation of the request within the given budget (not itself gated)."""


def gate(
    result: SearchResult,
    *,
    what: str,
    budget: Budget | None,
    check: Check,
    refute: Refute,
) -> SearchResult:
    """Pass ``result`` on only if its "no" is backed by a certificate the checker accepts.

    Parameters
    ----------
    result : SearchResult
        A strategy's answer; FOUND and ABORTED pass untouched.
    what : str
        The request in words (``"closed tour of the 4x4 board"``), for messages.
    budget : Budget or None
        What the strategy was given; a re-proof gets the same deadline and no
        step limit.
    check : callable
        ``check(certificate) -> (accepted, why)``: the independent checker for
        this request.
    refute : callable
        ``refute(budget) -> SearchResult``: a SAT refutation of this request.

    Returns
    -------
    SearchResult
        ``result`` when its certificate checks (a copy whose ``stats["checked"]``
        holds the checker's words), a PROVEN_ABSENT result carrying the checked
        SAT certificate, or ABORTED with the reason.

    Notes
    -----
    Soundness rests on the checker alone: whatever a strategy claims, a "no"
    reaches the user only with evidence the checker re-derived from the board
    or graph.  A SAT refutation that does not check is not re-proved by SAT
    again (that would only repeat it).  A SAT "yes" where a strategy said "no"
    is a bug and raises :class:`~knightgraph.InternalError`.

    Examples
    --------
    >>> from knightgraph.tours.results import Certificate, SearchResult, Status
    >>> ok = SearchResult(Status.PROVEN_ABSENT, certificate=Certificate("colour", "counts"))
    >>> gate(ok, what="tour", budget=None, check=lambda c: (True, "fine"),
    ...      refute=lambda b: ok).stats["checked"]
    'fine'
    """
    if result.status is not Status.PROVEN_ABSENT or result.certificate is None:
        return result
    accepted, why = check(result.certificate)
    if accepted:
        return replace(result, stats={**result.stats, "checked": why})
    if result.certificate.kind == "sat-refutation":
        return _aborted(f"{result.method}: its refutation did not check ({why})", result)
    deadline = (
        None if budget is None else Budget(budget.timeout, None, budget.progress, budget.started)
    )
    refuted = refute(deadline)
    unchecked = refuted.reason  # why no checkable certificate came of it
    if refuted.status is Status.FOUND:
        raise InternalError(
            f"internal error: {result.method} reported no {what}, but the SAT solver found one"
        )
    if refuted.status is Status.PROVEN_ABSENT and refuted.certificate is not None:
        accepted, again = check(refuted.certificate)
        if accepted:
            return SearchResult(
                Status.PROVEN_ABSENT,
                certificate=refuted.certificate,
                method=result.method,
                stats={
                    **result.stats,
                    "certified_by": "sat",
                    "checked": again,
                    "unchecked_certificate": result.certificate.to_dict(),
                },
                reason=f"{result.reason}; re-proved for the independent checker: "
                f"{refuted.certificate.reason}",
            )
        unchecked = f"its certificate did not check either ({again})"
    return _aborted(
        f"{result.method} found no {what}, but its certificate ({why}) cannot be "
        f"re-checked and no checkable one was found within the budget ({unchecked})",
        result,
    )


def _aborted(reason: str, result: SearchResult) -> SearchResult:
    return SearchResult(Status.ABORTED, stats=result.stats, method=result.method, reason=reason)
