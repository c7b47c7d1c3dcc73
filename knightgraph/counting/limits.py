"""The limits of a count: the error of a count stopped on its budget (the one
:class:`~knightgraph.running.budget.Budget` of searches and counts), and the checks run
before any work (the engine, the budget, the plan's memory).

A stop names how far the count got (:attr:`CountAbortedError.done`); the graph, the plan
and both engines build it with :func:`stopped_error`.  The answers of counts and samples (of
boards and of graphs) share their status and their JSON through :class:`_Counted`,
:class:`Drawn` and :func:`_answer_dict`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..exceptions import InvalidOptionError, InvalidSquareError, SearchAbortedError
from ..running.budget import Budget
from ..running.resources import available_memory, require_memory
from ..tours.htmlrepr import Html, fields_table, status_text
from ..tours.results import Status

PLAN_BYTES_PER_SQUARE = 6000
"""What the graph and the plan of a count cost per square (measured: 3.2-4.9 KB), checked
against the free memory before anything is built."""


class CountAbortedError(SearchAbortedError):
    """A count stopped on its budget (timeout or memory) before it was complete.

    :func:`count_tours` returns such a count as an ABORTED result (as searches do);
    this is what its ``require_count()`` raises, and what the engines raise inside.

    Attributes
    ----------
    done : dict
        How far it got: ``step`` (the step under way, 1-based), ``steps`` (how
        many the program has), ``states_done`` (states of that step's layer
        handled) of ``states`` (states in the layer), ``phase`` (``"graph"``,
        ``"plan"`` or ``"count"``), and ``engine`` and ``seconds`` where known.

    Examples
    --------
    >>> from knightgraph import count_tours
    >>> try:
    ...     count_tours(6, 6, closed=True, timeout=0).require_count()
    ... except CountAbortedError as err:
    ...     print(err.done["phase"], err.done["step"])
    graph 0
    """

    def __init__(self, message: str, done: dict[str, Any]) -> None:
        super().__init__(message)
        self.done = done


def stopped_error(why: str, done: dict[str, Any]) -> CountAbortedError:
    """The error of a count stopped at ``done`` (see :class:`CountAbortedError`)."""
    phase = done.get("phase", "count")
    if phase == "count":
        where = (
            f"in step {done['step']:,} of {done['steps']:,} ({done.get('states_done', 0):,} "
            f"of {done.get('states', 0):,} states of the step done)"
        )
    else:
        where = f"while building the {phase} ({done.get('step', 0):,} of {done['steps']:,} squares)"
    return CountAbortedError(f"counting stopped {why} {where}", done)


def check_budget(engine: str, memory: int | None, timeout: float | None) -> None:
    """Check the engine and the budget of a count before any work (InvalidOptionError)."""
    if engine not in ("auto", "python", "c"):
        raise InvalidOptionError(f"unknown engine {engine!r}: choose auto, python or c")
    if memory is not None and (
        isinstance(memory, bool) or not isinstance(memory, int) or memory < 1
    ):
        raise InvalidOptionError(f"invalid memory {memory!r}: expected a whole number >= 1")
    Budget.check(timeout)


def end_indices(board: Any, start: Any, end: Any) -> tuple[int | None, int | None]:
    """The flat indices of the ``start`` and ``end`` asked for (InvalidSquareError for a
    bad one, or for the same square or vertex twice)."""
    s = None if start is None else board.index(start)
    t = None if end is None else board.index(end)
    if s is not None and s == t and board.num_squares > 1:
        named, what = board.names_at([t])[0], board.wording()[1]
        raise InvalidSquareError(f"invalid end {named}: the start and the end are the same {what}")
    return s, t


def memory_budget(memory: int | None, compiled: bool) -> int:
    """The bytes a count may use: ``memory``, else 90 % of the free memory for the
    compiled kernel and 80 % for the Python engine."""
    if memory is not None:
        return memory
    return available_memory() * (9 if compiled else 8) // 10


def require_plan_memory(board: Any, what: str) -> None:
    """BoardTooLargeError when the graph and plan of a rectangle cannot fit (before building
    them; a graph board's are not estimated)."""
    rect = board.rectangle
    if rect is not None:
        size = f"{rect.m}x{rect.n} ({rect.num_squares:,} squares)"
        require_memory(rect.num_squares * PLAN_BYTES_PER_SQUARE, f"{what} {size}")


class CountStatus:
    """The status of a count's answer, from its count (:meth:`_counted`; None when the
    count stopped on its budget)."""

    def _counted(self) -> int | None:
        raise NotImplementedError

    @property
    def status(self) -> Status:
        """Derived from the count: ABORTED without one, PROVEN_ABSENT for 0, else FOUND."""
        counted = self._counted()
        if counted is None:
            return Status.ABORTED
        return Status.FOUND if counted else Status.PROVEN_ABSENT

    @property
    def aborted(self) -> bool:
        """True when the count stopped on its budget (timeout or memory)."""
        return self._counted() is None


class _Counted(CountStatus):
    """The status of a count's answer (:class:`~knightgraph.CountResult` and its graph
    form), from its ``directed`` count: None when the count stopped on its budget."""

    directed: int | None
    undirected: int | None
    reason: str
    stats: dict[str, Any]

    def _counted(self) -> int | None:
        return self.directed

    def _answer(
        self, head: dict[str, Any], name: Callable[[int], str], tail: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The JSON of the answer (:func:`_answer_dict`): the counts as its body."""
        body = {"directed": self.directed, "undirected": self.undirected}
        return _answer_dict(self, head, name, body, tail)

    def require_count(self) -> int:
        """The directed count, or :class:`CountAbortedError` when the count stopped.

        Examples
        --------
        >>> from knightgraph import count_tours
        >>> count_tours(6, 6, closed=True, timeout=0).require_count()
        Traceback (most recent call last):
        ...
        knightgraph.counting.limits.CountAbortedError: ...
        """
        if self.directed is None:
            raise CountAbortedError(self.reason, self.stats.get("done", {}))
        return self.directed


def request_fields(answer: Any) -> list[tuple[str, Any]]:
    """The request of a count's or a sample's answer, for its HTML: the board, the kind of
    tour and the ends asked for (each named as the board names it)."""

    def name(index: int | None) -> str | None:
        return None if index is None else str(answer.board.names_at([index])[0])

    return [
        ("board", repr(answer.board)),
        ("tours", "closed" if answer.closed else "open"),
        ("start", name(answer.start)),
        ("end", name(answer.end)),
    ]


def outcome_fields(answer: Any) -> list[tuple[str, Any]]:
    """The outcome of a count's or a sample's answer, for its HTML: the status, the time,
    and the certificate of a 0 or why the count stopped."""
    certificate = getattr(answer, "certificate", None)
    return [
        ("status", Html(status_text(answer.status.name))),
        ("seconds", f"{answer.seconds:.3f}"),
        ("certificate", None if certificate is None else f"{certificate.kind}: {answer.reason}"),
        ("reason", None if certificate is not None or not answer.reason else answer.reason),
    ]


B = TypeVar("B")


@dataclass(frozen=True)
class CountAnswer(_Counted, Generic[B]):
    """The fields that the answers of counts of boards (``B``: a
    :class:`~knightgraph.Board`) and of graphs share, in this order (the request, the counts,
    the time, the statistics, why it stopped); see :class:`~knightgraph.CountResult`."""

    board: B
    closed: bool
    start: int | None
    end: int | None
    directed: int | None
    undirected: int | None
    convention: str = "oeis"
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str = ""

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the request, the counts (directed and undirected), the
        engine and the frontier width, the status and the time.

        Examples
        --------
        >>> from knightgraph import count_tours
        >>> html = count_tours(6, 6, closed=True)._repr_html_()
        >>> "9,862" in html, "19,724" in html, "FOUND" in html, len(html) < 2000
        (True, True, True, True)
        """
        fields = [
            *request_fields(self),
            ("directed", self.directed),
            ("undirected", self.undirected),
            ("convention", None if self.convention == "oeis" else self.convention),
            ("engine", self.stats.get("engine")),
            ("frontier width", self.stats.get("width")),
            *outcome_fields(self),
        ]
        kind = "closed" if self.closed else "open"
        return fields_table(f"Count of {kind} tours", fields)


class Drawn:
    """The status of a sample's answer (:class:`~knightgraph.SampleResult`, of every board
    kind): its ``k`` tours drawn, out of ``directed`` (None when the count stopped)."""

    directed: int | None
    k: int
    seed: int | None
    tours: list[Any]

    def _answer(
        self,
        head: dict[str, Any],
        name: Callable[[int], str],
        tours: list[Any],
        tail: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The JSON of the answer (:func:`_answer_dict`): the request's ``k`` and ``seed``,
        the count and the ``tours`` (as JSON) as its body."""
        body = {"k": self.k, "seed": self.seed, "directed": self.directed, "tours": tours}
        return _answer_dict(self, head, name, body, tail)

    @property
    def status(self) -> Status:
        """PROVEN_ABSENT for no tour, FOUND when all ``k`` were drawn, else ABORTED."""
        if self.directed == 0:
            return Status.PROVEN_ABSENT
        if self.directed is None or len(self.tours) < self.k:
            return Status.ABORTED
        return Status.FOUND


def answer_frame(
    board: Any, stats: dict[str, Any]
) -> tuple[dict[str, Any], Callable[[int], str], dict[str, Any] | None]:
    """How an answer's JSON presents its board: the head (``rows`` and ``cols`` of a
    board; ``graph`` and ``vertices`` of a graph board), how squares are named, and the
    tail (a graph's frontier ``width``)."""

    def name(index: int) -> str:
        return board.names_at([index])[0]  # type: ignore[no-any-return]

    rect = board.rectangle
    if rect is not None:
        return {"rows": rect.m, "cols": rect.n}, name, None
    head = {"graph": board.kind, "vertices": board.num_squares}
    return head, name, {"width": stats.get("width")}


def _answer_dict(
    answer: Any,
    head: dict[str, Any],
    name: Callable[[int], str],
    body: dict[str, Any],
    tail: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON of a count's or a sample's answer: ``head`` (the board or the graph), the
    request (``closed``, ``start`` and ``end`` named by ``name``), ``body``, ``seconds``,
    ``status``, ``tail``, then ``reason`` and ``certificate`` when there are any."""
    out: dict[str, Any] = {
        **head,
        "closed": answer.closed,
        "start": None if answer.start is None else name(answer.start),
        "end": None if answer.end is None else name(answer.end),
        **body,
        "seconds": round(answer.seconds, 6),
        "status": answer.status.value,
        **(tail or {}),
    }
    if answer.reason:
        out["reason"] = answer.reason
    if getattr(answer, "certificate", None) is not None:
        out["certificate"] = answer.certificate.to_dict()
    return out
