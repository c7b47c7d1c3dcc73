"""Counts up to the board's symmetries (Burnside's lemma): :func:`count_symmetric`.

The tours fixed by a symmetry are counted by the Python engine on a plan that adds whole
orbits of the symmetry at once and only keeps the edge sets the symmetry maps onto
themselves; the identity's count is the plain count.  Each symmetry is an independent,
picklable task (``_fixed_count``), so an executor can run them side by side.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.coercion import as_board
from ..exceptions import BoardTooLargeError
from ..running.budget import Budget
from ..tours.htmlrepr import Html, fields_table, status_text
from ..tours.verify import check_closed
from .count import count_cycles
from .limits import CountAbortedError, CountStatus, check_budget, require_plan_memory
from .zeros import quick_zero

if TYPE_CHECKING:
    from ..running.parallel import Executor


@dataclass(frozen=True)
class SymmetryCount(CountStatus):
    """Tours up to the board's symmetry group (Burnside's lemma).

    Attributes
    ----------
    total : int
        Undirected tours (cycles, or paths up to reversal).
    fixed : dict
        For each symmetry (named as in :meth:`Board.symmetries`), the number of
        undirected tours it maps onto themselves.
    classes : int
        The number of tours up to symmetry: the mean of ``fixed``.
    status : Status
        FOUND or PROVEN_ABSENT (no tour at all) when counted; ABORTED when the
        budget ran out (``total``, ``fixed`` and ``classes`` are then None, and
        ``reason`` says why), as for searches and :func:`count_tours`.

    Examples
    --------
    3 x 10 is the smallest 3 x n board with a closed tour (Schwenk 1991); its
    16 closed tours fall into 6 classes under the board's four symmetries:

    >>> r = count_symmetric(3, 10, closed=True)
    >>> r.total, r.classes, r.fixed
    (16, 6, {'identity': 16, 'rot180': 4, 'flip_ranks': 0, 'flip_files': 4})
    >>> r.classes == sum(r.fixed.values()) // len(r.fixed)  # Burnside's lemma
    True
    """

    board: Board
    closed: bool
    total: int | None
    fixed: dict[str, int] | None
    classes: int | None
    seconds: float = 0.0
    reason: str = ""

    def _counted(self) -> int | None:
        return self.total

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the tours in all, the classes up to symmetry, the tours
        each symmetry fixes, the status and the time.

        Examples
        --------
        >>> html = count_symmetric(3, 10, closed=True)._repr_html_()
        >>> "rot180 4" in html, ">6</td>" in html, ">16</td>" in html
        (True, True, True)
        """
        fixed = None
        if self.fixed is not None:
            fixed = ", ".join(f"{name} {k:,}" for name, k in self.fixed.items())
        fields = [
            ("board", repr(self.board)),
            ("tours", "closed" if self.closed else "open"),
            ("undirected", self.total),
            ("classes", self.classes),
            ("fixed by", fixed),
            ("status", Html(status_text(self.status.name))),
            ("seconds", f"{self.seconds:.3f}"),
            ("reason", self.reason or None),
        ]
        return fields_table("Count up to symmetry", fields)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": self.board.m,
            "cols": self.board.n,
            "closed": self.closed,
            "undirected": self.total,
            "fixed": self.fixed,
            "classes": self.classes,
            "seconds": round(self.seconds, 6),
            "status": self.status.value,
        }


def count_symmetric(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    timeout: float | None = None,
    executor: Executor | None = None,
) -> SymmetryCount:
    """Count undirected tours up to the board's symmetries, and those each symmetry fixes.

    A tour (a cycle, or a path up to reversal) is fixed by a symmetry when the
    symmetry maps its set of moves onto itself.  By Burnside's lemma the number
    of classes is the mean of the fixed counts over the group.  The count for
    each symmetry is an independent program (the identity's is the plain count;
    the others only keep edge sets the symmetry maps onto themselves, which
    prunes hard), so an ``executor`` (see :mod:`knightgraph.running.parallel`) can run
    them side by side.  ``timeout`` bounds them all together (one deadline,
    read on the wall clock by every worker): past it, the result is ABORTED.

    Examples
    --------
    >>> r = count_symmetric(5, 6, closed=True)
    >>> r.total, r.classes, r.fixed["identity"]
    (8, 3, 8)
    >>> count_symmetric(3, 4).fixed
    {'identity': 8, 'rot180': 4, 'flip_ranks': 0, 'flip_files': 0}
    >>> count_symmetric(6, 6, leaper=(1, 3)).classes  # disconnected: 0 at once
    0
    """
    from ..running.parallel import SerialExecutor

    board = as_board(m, n, leaper=leaper, removed=removed)
    closed = check_closed(closed)
    check_budget("auto", None, timeout)
    require_plan_memory(board, "counting the tours up to symmetry of")
    began = time.perf_counter()
    zero = quick_zero(board, closed=closed)  # no tour at all: every symmetry fixes none
    if zero is not None:
        none = dict.fromkeys(board.symmetries(), 0)
        return SymmetryCount(board, closed, 0, none, 0, time.perf_counter() - began, zero.reason)
    until = Budget(timeout).wall_deadline()
    symmetries = board.symmetries()
    tasks = [(board, closed, name, perm.tolist(), until) for name, perm in symmetries.items()]
    try:
        numbers = (executor or SerialExecutor()).map(_fixed_count, tasks)
    except CountAbortedError as stop:  # one budget behaviour: an ABORTED result
        return SymmetryCount(
            board, closed, None, None, None, time.perf_counter() - began, str(stop)
        )
    except MemoryError:
        raise BoardTooLargeError(
            f"counting the tours up to symmetry of {board.m}x{board.n} ran out of memory"
        ) from None
    fixed = dict(zip(symmetries, numbers, strict=True))
    total = fixed["identity"]
    classes, rest = divmod(sum(fixed.values()), len(fixed))
    if rest:  # pragma: no cover - Burnside guarantees a whole number
        raise AssertionError(f"Burnside sum {sum(fixed.values())} not divisible by {len(fixed)}")
    return SymmetryCount(board, closed, total, fixed, classes, time.perf_counter() - began)


def _fixed_count(task: tuple[Board, bool, str, list[int], float | None]) -> int:
    """Undirected tours fixed by one symmetry (a picklable piece of :func:`count_symmetric`);
    the deadline is a time of day (:meth:`Budget.wall_deadline`), the same for every worker."""
    board, closed, name, perm, until = task
    if board.num_squares == 1:
        return 0 if closed else 1
    budget = Budget.from_wall_deadline(until)
    if name == "identity":
        return count_cycles(board, virtual=not closed, budget=budget)
    return count_cycles(board, virtual=not closed, perm=perm, engine="python", budget=budget)
