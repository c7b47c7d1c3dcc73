"""What a search returns: its status, the certificate of an absence, and the result.

The data every layer above shares: strategies return a :class:`SearchResult`,
the existence theorems and the proofs give a :class:`Certificate`.  The tour a
result carries is a :class:`~knightgraph.Tour` (of a board or a graph board; a
:class:`~knightgraph.tours.verify.TourBase`: results sit above the tours, which know nothing
of results).

Examples
--------
>>> from knightgraph import find_tour
>>> res = find_tour(3, 3)
>>> res.status, res.certificate.kind
(<Status.PROVEN_ABSENT: 'proven_absent'>, 'degree')
>>> SearchResult(Status.ABORTED, reason="stopped").found
False
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidResultError, NoTourError, SearchAbortedError, describe_value
from .htmlrepr import (
    Html,
    data_summary,
    fields_table,
    name_list,
    numbered_grid,
    status_text,
    tour_line,
)
from .verify import TourBase

if TYPE_CHECKING:
    from .tour import Tour

__all__ = ["Certificate", "SearchResult", "Status"]


class Status(enum.Enum):
    """The three outcomes of a search.

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> find_tour(5, 5).status, find_tour(4, 4).status  # Conrad et al.: 4x4 has no open tour
    (<Status.FOUND: 'found'>, <Status.PROVEN_ABSENT: 'proven_absent'>)
    >>> find_tour(8, 8, method="backtrack", limit=10).status
    <Status.ABORTED: 'aborted'>
    >>> Status("aborted") is Status.ABORTED  # the value is what JSON output carries
    True
    """

    FOUND = "found"
    """A tour was found (and verified)."""
    PROVEN_ABSENT = "proven_absent"
    """No tour exists; the result's certificate says why."""
    ABORTED = "aborted"
    """The search stopped (budget, timeout, heuristic failure); existence unknown."""


@dataclass(frozen=True, repr=False)
class Certificate:
    """Why a tour does or does not exist, with what is needed to re-check it.

    Attributes
    ----------
    kind : str
        The argument: ``"tour"``, ``"theorem"``, ``"colour-count"``,
        ``"degree"``, ``"exhaustive-search"``, ...
    reason : str
        One sentence for people, naming the deciding clause or numbers.
    data : dict
        The figures an independent checker needs (colour counts, the
        theorem and clause, search statistics, ...).

    Examples
    --------
    >>> c = Certificate("colour-count", "7x7 has 25 squares of one colour and 24 of the other",
    ...                 {"counts": [25, 24]})
    >>> c.to_dict()
    {'kind': 'colour-count', 'reason': '7x7 has 25 squares of one colour and 24 of the other', 'counts': [25, 24]}
    """

    kind: str
    reason: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A flat JSON-ready dict: ``kind``, ``reason`` and the data's keys."""
        return {"kind": self.kind, "reason": self.reason, **self.data}

    def __repr__(self) -> str:
        """Short: the kind, the start of the reason and the names of the data (a SAT
        refutation's data holds its whole CNF and proof: ``cert.data`` shows them).

        Examples
        --------
        >>> from knightgraph import find_tour
        >>> find_tour(7, 7, closed=True).certificate
        Certificate(kind='colour-count', reason='a closed tour alternates colours, so it needs as many squares of each colour;...', data=['clause', 'counts'])
        >>> len(repr(find_tour(3, 8, closed=True).certificate)) < 200  # the CNF and proof: in .data
        True
        """
        reason = self.reason if len(self.reason) <= 80 else self.reason[:77].rstrip() + "..."
        return f"Certificate(kind={self.kind!r}, reason={reason!r}, data={list(self.data)!r})"

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the kind, the reason and the data in one line (a SAT
        refutation's CNF and proof by their sizes).

        Examples
        --------
        >>> from knightgraph import find_tour
        >>> html = find_tour(3, 8, closed=True).certificate._repr_html_()
        >>> "sat-refutation" in html, "proof: " in html, len(html) < 2000
        (True, True, True)
        """
        return fields_table(f"Certificate: {self.kind}", self._html_fields())

    def _html_fields(self) -> list[tuple[str, Any]]:
        return [("kind", self.kind), ("reason", self.reason), ("data", data_summary(self.data))]


@dataclass(frozen=True, repr=False)
class SearchResult:
    """What a solver returns, complete when it is built (a changed copy:
    :func:`dataclasses.replace`).

    Attributes
    ----------
    status : Status
    tour : Tour or None
        The verified tour when ``status`` is FOUND.
    certificate : Certificate or None
        Why no tour exists when ``status`` is PROVEN_ABSENT.
    method : str
        The registered strategy that produced the answer.
    seconds : float
        Wall-clock time of the search.
    stats : dict
        Strategy-specific counters (nodes, attempts, ...).
    reason : str
        One line for people: why the search stopped, or the certificate's reason.

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> res = find_tour(5, 5, start="a1", method="backtrack")
    >>> res.found, res.method, res.tour.algebraic()[:3], res.stats
    (True, 'backtrack', ['a1', 'b3', 'c5'], {'placed': 8839, 'tried': 70624})
    >>> res = find_tour(4, 8, closed=True)  # Schwenk: no 4 x n board has a closed tour
    >>> res.found, res.tour, res.certificate.kind
    (False, None, 'schwenk-4xn')

    A result always holds what its status needs:

    >>> SearchResult(Status.PROVEN_ABSENT)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidResultError: invalid SearchResult: status PROVEN_ABSENT needs a certificate, got certificate=None
    """

    status: Status
    tour: Tour | None = None
    certificate: Certificate | None = None
    method: str = ""
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str = ""

    def __repr__(self) -> str:
        """Short: the status, the tour (its own short repr) or the certificate's kind, the
        method and the time; ``res.tour``, ``res.certificate`` and ``res.stats`` hold it all.

        Examples
        --------
        >>> from knightgraph import find_tour
        >>> find_tour(8, 8, closed=True, start="d4", seed=0)
        SearchResult(FOUND, Tour(Board(8, 8), closed, 64 squares: d4 ...), method='divide', seconds=...)
        >>> find_tour(4, 4)
        SearchResult(PROVEN_ABSENT, certificate='sat-refutation', method='sat', seconds=...)
        >>> SearchResult(Status.ABORTED, reason="stopped after 10 nodes", method="backtrack")
        SearchResult(ABORTED, reason='stopped after 10 nodes', method='backtrack', seconds=0.000)
        """
        if self.tour is not None:
            what = repr(self.tour)
        elif self.certificate is not None:
            what = f"certificate={self.certificate.kind!r}"
        else:
            reason = self.reason if len(self.reason) <= 60 else self.reason[:57].rstrip() + "..."
            what = f"reason={reason!r}"
        return (
            f"SearchResult({self.status.name}, {what}, method={self.method!r}, "
            f"seconds={self.seconds:.3f})"
        )

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the status, the method and the time; the tour in one
        line and, on a board of at most 144 squares, numbered; or the certificate; or why
        the search stopped.  ``res.tour`` shows the tour itself (a page to step through).

        Examples
        --------
        >>> from knightgraph import find_tour
        >>> html = find_tour(5, 5, start="a1", seed=0)._repr_html_()
        >>> "FOUND" in html, "open tour of Board(5, 5), 25 squares" in html, html.count("<td")
        (True, True, 30)
        >>> "schwenk-4xn" in find_tour(4, 8, closed=True)._repr_html_()
        True
        >>> len(find_tour(1000, 1000, closed=True)._repr_html_()) < 2000  # no grid: one line
        True
        """
        fields: list[tuple[str, Any]] = [
            ("status", Html(status_text(self.status.name))),
            ("method", self.method or None),
            ("seconds", f"{self.seconds:.3f}"),
        ]
        grid = ""
        if self.tour is not None:
            fields.append(("tour", tour_line(self.tour)))
            grid = numbered_grid(self.tour) or ""
            if not grid and self.tour.board.rectangle is None:  # a graph: its vertices
                fields.append(("visits", name_list(self.tour.algebraic(), 24)))
        elif self.certificate is not None:
            fields += [(f"certificate {k}", v) for k, v in self.certificate._html_fields()]
        else:
            fields.append(("reason", self.reason or None))
        if self.stats:
            fields.append(("stats", data_summary(self.stats)))
        return fields_table("SearchResult", fields, grid)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):
            raise InvalidResultError(
                f"invalid SearchResult status {self.status!r}: expected a Status"
            )
        if self.tour is not None and not isinstance(self.tour, TourBase):
            raise InvalidResultError(f"invalid SearchResult tour {describe_value(self.tour)}")
        if self.status is Status.FOUND and self.tour is None:
            raise InvalidResultError(
                "invalid SearchResult: status FOUND needs a tour, got tour=None"
            )
        if self.status is Status.PROVEN_ABSENT and self.certificate is None:
            raise InvalidResultError(
                "invalid SearchResult: status PROVEN_ABSENT needs a certificate, got certificate=None"
            )
        if not self.reason and self.certificate is not None:  # frozen: set while it is built
            object.__setattr__(self, "reason", self.certificate.reason)

    @property
    def found(self) -> bool:
        """True when a tour was found."""
        return self.status is Status.FOUND

    def require_tour(self) -> Tour:
        """Return the tour, or raise :class:`NoTourError` / :class:`SearchAbortedError`.

        Examples
        --------
        >>> from knightgraph import find_tour
        >>> find_tour(4, 4).require_tour()
        Traceback (most recent call last):
        ...
        knightgraph.exceptions.NoTourError: no open tour on 4x4: ...
        """
        if self.tour is not None:
            return self.tour
        if self.status is Status.PROVEN_ABSENT:
            raise NoTourError(self.reason, certificate=self.certificate, result=self)
        raise SearchAbortedError(self.reason or "the search gave up", result=self)
