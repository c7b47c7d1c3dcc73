"""One budget for every long search: a timeout, a work limit and a progress callback.

Searches (:mod:`knightgraph.solvers`), counts and the explorers read the same
:class:`Budget`; when it runs out they return an ABORTED result with the
reason :meth:`Budget.exceeded` gives (a count names where it stopped).  The
parts of a count run in other processes share its one deadline through
:meth:`Budget.wall_deadline` and :meth:`Budget.from_wall_deadline`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..exceptions import InvalidOptionError

__all__ = ["NO_BUDGET", "Budget"]

_clock = time.monotonic
"""The clock that budgets are read on (a module attribute, so that tests can move it)."""


def _now() -> float:
    return _clock()


@dataclass
class Budget:
    """Time and work limits shared by the phases of a search.

    ``limit`` counts the strategy's own unit of work (nodes for backtracking,
    steps for Warnsdorff); ``timeout`` is in seconds of wall-clock time.
    ``progress``, if given, is called now and then with a dict of counters.

    Examples
    --------
    >>> budget = Budget.make(timeout=0, limit=10)
    >>> budget.exceeded(3), budget.exceeded(10)
    ('stopped at the timeout of 0 s', 'stopped at the work limit of 10')
    >>> Budget.make(timeout=-1)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid timeout -1: expected seconds >= 0
    """

    timeout: float | None = None
    limit: int | None = None
    progress: Callable[[dict[str, Any]], None] | None = None
    started: float = field(default_factory=_now)

    @classmethod
    def make(
        cls,
        timeout: float | None = None,
        limit: int | None = None,
        progress: Callable[[dict[str, Any]], None] | None = None,
    ) -> Budget:
        """A budget from user input: ``timeout`` >= 0 seconds, ``limit`` >= 0 units."""
        cls.check(timeout, limit, progress)
        return cls(timeout, limit, progress)

    @staticmethod
    def check(
        timeout: float | None = None,
        limit: int | None = None,
        progress: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        """Check the user's input of :meth:`make` before any work (InvalidOptionError)."""
        if timeout is not None and not (
            isinstance(timeout, int | float)
            and not isinstance(timeout, bool)
            and 0 <= timeout < math.inf
        ):
            raise InvalidOptionError(f"invalid timeout {timeout!r}: expected seconds >= 0")
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 0
        ):
            raise InvalidOptionError(f"invalid limit {limit!r}: expected a whole number >= 0")
        if progress is not None and not callable(progress):
            raise InvalidOptionError(f"invalid progress {progress!r}: expected a function")

    def remaining(self) -> float | None:
        """Seconds left before the timeout, or None without one."""
        if self.timeout is None:
            return None
        return max(0.0, self.started + self.timeout - _clock())

    def out_of_time(self) -> bool:
        """True once the timeout has passed."""
        return self.timeout is not None and _clock() >= self.started + self.timeout

    def wall_deadline(self) -> float | None:
        """The deadline as a time of day (:func:`time.time`), or None without a timeout: the
        same instant on every machine whose clock is set (see :meth:`from_wall_deadline`)."""
        if self.timeout is None:
            return None
        return time.time() + (self.started + self.timeout - _clock())

    @classmethod
    def from_wall_deadline(cls, until: float | None) -> Budget:
        """The budget ending at the time of day ``until`` (:meth:`wall_deadline`) on this
        process's clock: a part of a call, wherever and whenever it starts, stops at the
        same moment as the whole call.

        Examples
        --------
        >>> budget = Budget.make(timeout=60)
        >>> part = Budget.from_wall_deadline(budget.wall_deadline())
        >>> abs(part.remaining() - budget.remaining()) < 1, part.out_of_time()
        (True, False)
        >>> Budget.from_wall_deadline(0.0).out_of_time(), Budget.from_wall_deadline(None).timeout
        (True, None)
        """
        if until is None:
            return cls()
        return cls(max(0.0, until - time.time()))

    def phase(self, limit: int | None) -> Budget:
        """A budget for one phase of a search: the same deadline and progress callback,
        and a work limit of its own (never more than this budget's)."""
        limits = [x for x in (limit, self.limit) if x is not None]
        return Budget(self.timeout, min(limits) if limits else None, self.progress, self.started)

    def exceeded(self, work: int) -> str | None:
        """Why the search must stop after ``work`` units, or None to go on."""
        if self.limit is not None and work >= self.limit:
            return f"stopped at the work limit of {self.limit:,}"
        if self.out_of_time():
            return f"stopped at the timeout of {self.timeout:g} s"
        return None

    def report(self, stats: dict[str, Any]) -> None:
        """Pass the counters to the progress callback, if there is one."""
        if self.progress is not None:
            self.progress(stats)


NO_BUDGET = Budget()
"""No timeout, no work limit, no progress: the default budget of a step run on its own."""
