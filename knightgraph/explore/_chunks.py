"""What every exploration shares: the chunked runner, the clocks, the memory costs.

A sweep, a map and a table each run many independent searches on an
executor.  :func:`run_map` hands them out a chunk at a time and stops making
chunks once the run's deadline has passed; a :data:`Clock` carries the
per-search timeout and that deadline into every worker, and :func:`allowed_time`
turns it into the seconds the next search may take.

Examples
--------
>>> run_map(None, abs, 3, lambda i: -i, None, None)
[0, 1, 2]
>>> allowed_time((5.0, None)), allowed_time((None, None))
(5.0, None)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidOptionError
from ..running.budget import Budget
from ..tours.results import SearchResult, Status
from ..tours.verify import check_closed

if TYPE_CHECKING:
    from ..running.parallel import Executor

BYTES_PER_RESULT = 2000
"""What one kept :class:`~knightgraph.SearchResult` costs besides its tour."""

BYTES_PER_TOUR_SQUARE = 8
"""A kept tour's order: one 64-bit index per square."""


def check_timeout(timeout: float | None) -> None:
    """InvalidOptionError for a timeout that is not seconds >= 0 (before any search starts)."""
    Budget.make(timeout)


Clock = tuple[float | None, float | None]
"""``(timeout, deadline)``: seconds per search, and the time of day (:func:`time.time`, the
same in every worker process) when the whole run ends, each None when not given."""


def allowed_time(clock: Clock) -> float | None:
    """Seconds the next search may take: its own timeout, cut to what the run has left;
    0 once the run is over."""
    timeout, deadline = clock
    if deadline is None:
        return timeout
    left = max(0.0, deadline - time.time())
    return left if timeout is None else min(timeout, left)


def not_started() -> SearchResult:
    return SearchResult(Status.ABORTED, reason="not started: the total timeout had passed")


def proof_of(result: SearchResult) -> dict[str, Any] | None:
    """The evidence of one decided search as JSON: ``{"found": true, "squares": [...]}`` (its
    verified tour, squares as the tour's own answer names them) or ``{"found": false,
    "certificate": {...}}`` (its certificate of absence); None for a search that gave up.

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> proof_of(find_tour(1, 2, closed=True))["certificate"]["kind"]
    'degree'
    >>> proof_of(find_tour(1, 1))
    {'found': True, 'squares': [[0, 0]]}
    >>> proof_of(not_started()) is None
    True
    """
    if result.status is Status.ABORTED:
        return None
    if result.found:
        tour: Any = result.tour
        return {"found": True, "squares": None if tour is None else tour.to_dict()["squares"]}
    cert = result.certificate
    return {"found": False, "certificate": None if cert is None else cert.to_dict()}


def map_options(
    closed: bool, counts: bool | str, timeouts: tuple[float | None, float | None]
) -> tuple[bool, float | None, float | None]:
    """A map's ``closed``, per-cell ``timeout`` and ``total_timeout``, checked before any
    search (InvalidOptionError; ``counts`` must be True, False or "auto")."""
    if counts not in (True, False, "auto"):
        raise InvalidOptionError(f"invalid counts {counts!r}: expected True, False or 'auto'")
    timeout, total_timeout = timeouts
    closed = check_closed(closed)
    check_timeout(timeout)
    check_timeout(total_timeout)
    return closed, timeout, total_timeout


def sample_options(sample: Any, seed: Any, counts: bool | str) -> None:
    """Check a sampled map's ``sample`` (cells, >= 1) and ``seed`` before any search; a
    sampled map counts no tours, so ``counts=True`` is refused with it."""
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
        raise InvalidOptionError(f"invalid sample {sample!r}: expected a whole number >= 1")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"invalid seed {seed!r}: expected a whole number")
    if counts is True:
        raise InvalidOptionError("counts=True cannot be combined with sample")


@dataclass(frozen=True)
class CellTask:
    """One cell of a start or end map, as handed to a worker (picklable: it crosses to
    worker processes).

    ``ends`` are the keywords of the cell's question to :func:`~knightgraph.tour_exists`
    (``start``, and ``end`` for an ``ends`` map) as the board names its squares or vertices;
    ``with_count`` whether its tours are counted too.

    Examples
    --------
    >>> import pickle
    >>> task = CellTask(None, False, {"start": (0, 0)}, (None, None), True)
    >>> pickle.loads(pickle.dumps(task)) == task
    True
    """

    board: Any
    closed: bool
    ends: dict[str, Any]
    clock: Clock
    with_count: bool


def decide_cell(task: CellTask) -> tuple[SearchResult, int | None]:
    """Decide one cell of a map: is there a tour with these ``ends``; count the tours too
    when ``task.with_count``.  The cell's timeout bounds both together: the count gets what
    the search left, and is dropped (None) when it runs out; a cell reached after the run's
    deadline is not started."""
    from ..counting import count_tours
    from ..solvers import tour_exists

    board, closed, clock, ends = task.board, task.closed, task.clock, task.ends
    timeout = allowed_time(clock)
    if clock[1] is not None and timeout == 0:
        return not_started(), None
    began = time.monotonic()
    result = tour_exists(board, closed=closed, timeout=timeout, **ends)
    if not task.with_count:
        return result, None
    left = None if timeout is None else timeout - (time.monotonic() - began)
    if left is not None and left <= 0:
        return result, None
    return result, count_tours(board, closed=closed, timeout=left, **ends).directed  # None: stopped


MAP_CHUNK = 1024
"""Tasks handed to the executor at a time: the next chunk is made only when it is needed,
and none is started once the total timeout has passed."""


def run_map(
    executor: Executor | None,
    fn: Callable[[Any], Any],
    count: int,
    task: Callable[[int], Any],
    progress: Callable[[dict[str, Any]], None] | None,
    deadline: float | None,
) -> list[Any]:
    """``[fn(task(i)) for i in range(count)]``, run a chunk at a time on ``executor``.

    Once ``deadline`` (:func:`time.time`) has passed no further chunk is made or
    started, and the results stop there (a prefix of the list; the rest were not
    started), so that a run over millions of squares stops within a chunk of
    its deadline instead of walking every square.
    """
    from ..running.parallel import SerialExecutor

    run = executor or SerialExecutor()
    out: list[Any] = []
    while len(out) < count and (deadline is None or time.time() < deadline):
        base = len(out)
        part = [task(i) for i in range(base, min(count, base + MAP_CHUNK))]
        report = None
        if progress is not None:

            def report(info: dict[str, Any], base: int = base) -> None:
                progress({"done": base + info["done"], "total": count})

        out.extend(run.map(fn, part, progress=report))
    if progress is not None and len(out) < count:
        progress({"done": count, "total": count})
    return out
