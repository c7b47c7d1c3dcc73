"""The budget of a count: the clock its deadline is read on, the error of a count stopped on
its budget, and the checks run before any work (the engine, the budget, the plan's memory).

A stop names how far the count got (:attr:`CountAbortedError.done`); the graph, the plan
and both engines build it with :func:`_stopped`.
"""

from __future__ import annotations

import time
from typing import Any

from ..board import Board
from ..exceptions import InvalidOptionError, SearchAbortedError
from ..resources import require_memory

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


_clock = time.monotonic
"""The clock that deadlines are read on (a module attribute, so that tests can move it)."""


def _timed_out(deadline: float | None) -> bool:
    return deadline is not None and _clock() >= deadline


def _stopped(why: str, done: dict[str, Any]) -> CountAbortedError:
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


def _check_budget(engine: str, memory: int | None, timeout: float | None) -> None:
    """Check the engine and the budget of a count before any work (InvalidOptionError)."""
    if engine not in ("auto", "python", "c"):
        raise InvalidOptionError(f"unknown engine {engine!r}: choose auto, python or c")
    if memory is not None and (
        isinstance(memory, bool) or not isinstance(memory, int) or memory < 1
    ):
        raise InvalidOptionError(f"invalid memory {memory!r}: expected a whole number >= 1")
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 <= timeout < float("inf")
    ):
        raise InvalidOptionError(f"invalid timeout {timeout!r}: expected seconds >= 0")


def _require_plan_memory(board: Board, what: str) -> None:
    """BoardTooLargeError when the graph and plan of ``board`` cannot fit (before building them)."""
    require_memory(
        board.num_squares * PLAN_BYTES_PER_SQUARE,
        f"{what} {board.m}x{board.n} ({board.num_squares:,} squares)",
    )
