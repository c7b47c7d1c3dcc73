"""Every magic numbering of a small board by depth-first search: the numbers placed in
order along knight's moves, pruned by the line sums and by squares left with no way on.

:func:`count_magic_tours` runs this search first on boards of up to
:data:`~knightgraph.magic.solving.PROOF_SQUARES` squares: it lists the numberings, each
verified like any tour, and the SAT solver is then asked once, with a blocking clause for
each, for one more; its "unsatisfiable", checked, is the certificate of the count.  The
search itself is not trusted: a numbering it missed would be the model of that last call.

Notes
-----
A numbering puts ``k + 1`` on a square a knight's move from the square of ``k``.  The
search places ``1`` on each square in turn, then ``2, 3, ...`` along the moves, and takes a
square back when one of two rules shows no numbering can complete the path:

- *The line sums.*  After ``k`` is placed, a line (rank, file or diagonal of the kind)
  with ``r`` empty squares will receive ``r`` distinct numbers from ``k + 1 .. N``: at
  least ``r k + r (r + 1) / 2`` and at most ``r N - r (r - 1) / 2`` more.  Its sum so far
  plus that range must contain its goal (exactly the goal when ``r = 0``).
- *No way on.*  An empty square a move from the square of ``k`` whose other neighbours
  are all numbered can only be entered from it, as ``k + 1``, and then has no move left:
  it must be the last square, ``k + 1 = N``.

Both rules only drop paths that cannot become numberings with every line at its sum, so
the search lists them all.  Its cost is the number of paths it places: 4.8 million on
4 x 8 (files), against 9.6 million with the first rule alone.  The compiled version
(``kg_magic_dfs`` in ``_kernels.c``) follows :func:`magic_dfs_python` statement for
statement and places the same paths; both return after ``stop`` placements, so that the
caller reads its clock between calls.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..running.budget import Budget
from ..running.native import load_library, python_only
from ..solvers.kernels import DFS_EXHAUSTED, DFS_FOUND, DFS_RUNNING, declare
from .rules import check_kind, line_target, magic_lines, magic_obstruction

__all__ = ["DFS_CHUNK", "MagicSearch", "list_numberings", "magic_dfs_python", "magic_numberings"]

DFS_CHUNK = 1 << 20
"""Placements a call of the compiled search makes before the caller reads its clock (the
Python search makes a 64th of them)."""


class MagicSearch:
    """The arrays of one search: the move table, the lines and their goals, and the state
    that a call of the search leaves for the next.

    Parameters
    ----------
    m, n : int
        The board.
    kind : str
        A magic kind (:data:`~knightgraph.magic.rules.KINDS`), whose lines are checked.

    Examples
    --------
    >>> search = MagicSearch(4, 6, "files")
    >>> search.goal.tolist(), search.per
    ([50, 50, 50, 50, 50, 50], 1)
    """

    def __init__(self, m: int, n: int, kind: str) -> None:
        from ..boards.board import Board

        total = m * n
        self.total = total
        self.targets = np.ascontiguousarray(
            Board(m, n).move_table(missing=total, sentinel=True), dtype=np.int32
        )
        self.moves = int(self.targets.shape[1])
        named = magic_lines(m, n, kind)
        of: list[list[int]] = [[] for _ in range(total)]
        for index, (_, squares) in enumerate(named):
            for s in squares:
                of[s].append(index)
        self.per = max(1, max(len(x) for x in of))
        self.lines = np.full((total, self.per), -1, dtype=np.int32)
        for s, mine in enumerate(of):
            self.lines[s, : len(mine)] = mine
        self.goal = np.array([int(line_target(m, n, name)) for name, _ in named], np.int64)
        self.sum = np.zeros(len(named), dtype=np.int64)
        self.left = np.array([len(squares) for _, squares in named], dtype=np.int64)
        self.path = np.zeros(total, dtype=np.int32)
        self.cursor = np.zeros(total, dtype=np.int8)
        self.visited = np.zeros(total + 1, dtype=np.uint8)
        self.visited[total] = 1  # the sentinel
        self.free = np.zeros(total + 1, dtype=np.int32)
        for s in range(total):
            self.free[s] = int(np.count_nonzero(self.targets[s] < total))
        self.counters = np.zeros(2, dtype=np.int64)

    def place(self, s: int, number: int, sign: int) -> None:
        """Put ``number`` on square ``s`` (``sign`` 1) or take it back (``sign`` -1)."""
        self.visited[s] = 1 if sign > 0 else 0
        for t in self.targets[s]:
            self.free[t] -= sign
        for line in self.lines[s]:
            if line >= 0:
                self.sum[line] += sign * number
                self.left[line] -= sign

    def start(self, s: int) -> None:
        """Begin the numberings that put 1 on ``s``."""
        self.place(s, 1, 1)
        self.path[0] = s
        self.cursor[0] = 0
        self.counters[:] = (0, 0)

    def open_after(self, s: int, number: int) -> bool:
        """The two rules of the module's notes, after ``number`` is put on ``s``."""
        total = self.total
        for line in range(len(self.goal)):
            r, so_far, goal = int(self.left[line]), int(self.sum[line]), int(self.goal[line])
            if r == 0:
                if so_far != goal:
                    return False
            elif (
                so_far + r * number + r * (r + 1) // 2 > goal
                or so_far + r * total - r * (r - 1) // 2 < goal
            ):
                return False
        if number + 1 < total:
            for t in self.targets[s]:
                if not self.visited[t] and self.free[t] == 0:
                    return False
        return True


def magic_dfs_python(search: MagicSearch, closed: bool, stop: int) -> int:
    """The search's next ``stop`` placements (the reference of ``kg_magic_dfs``): returns
    0 (running: call again), 1 (a numbering is in ``search.path``) or 2 (no more from
    this start).

    Examples
    --------
    >>> search = MagicSearch(4, 6, "files")
    >>> search.start(0)
    >>> magic_dfs_python(search, False, 10**6)  # no 4 x 6 numbering has equal files
    2
    """
    targets, path, cursor, total = search.targets, search.path, search.cursor, search.total
    depth, placed = int(search.counters[0]), int(search.counters[1])
    status = DFS_EXHAUSTED
    if depth == total - 1:  # the numbering found last time: take its last square back
        search.place(int(path[depth]), depth + 1, -1)
        depth -= 1
    while depth >= 0:
        row = targets[path[depth]]
        number = depth + 2
        k = int(cursor[depth])
        nxt = -1
        while k < search.moves:
            t = int(row[k])
            if not search.visited[t]:
                search.place(t, number, 1)
                if search.open_after(t, number):
                    nxt = t
                    break
                search.place(t, number, -1)
            k += 1
        if nxt < 0:
            if depth == 0:
                break
            search.place(int(path[depth]), depth + 1, -1)
            depth -= 1
            continue
        cursor[depth] = k + 1
        depth += 1
        path[depth] = nxt
        placed += 1
        if depth == total - 1:
            if not closed or int(path[0]) in targets[nxt].tolist():
                status = DFS_FOUND
                break
            search.place(nxt, number, -1)
            depth -= 1
        else:
            cursor[depth] = 0
        if placed >= stop:
            status = DFS_RUNNING
            break
    search.counters[:] = (depth, placed)
    return status


@functools.cache
def _compiled() -> Callable[[MagicSearch, bool, int], int] | None:
    library = None if python_only() else load_library("_kernels")
    function = getattr(library, "kg_magic_dfs", None)
    if function is None:  # not built, disabled, or a stale build without it
        return None
    spec = "int32 i int32 i int64 i int64 int64 int32 int8 uint8 int32 int64 i i i"
    declare(function, ctypes.c_int64, spec)

    def run(search: MagicSearch, closed: bool, stop: int) -> int:
        return int(
            function(
                search.targets, search.moves, search.lines, search.per, search.goal,
                len(search.goal), search.sum, search.left, search.path, search.cursor,
                search.visited, search.free, search.counters, search.total, int(closed), stop,
            )
        )  # fmt: skip

    return run


def magic_numberings(
    m: int, n: int, kind: str, closed: bool, budget: Budget, *, stats: dict[str, Any] | None = None
) -> Iterator[list[int]]:
    """Every numbering of the ``m x n`` board along knight's moves whose lines of ``kind``
    have their sums (flat squares ``r * n + c`` in the order of their numbers), by the
    search of the module's notes, compiled when built.  Stops (returns early) when the
    ``budget`` runs out; ``stats`` gets ``"placed"``, ``"compiled"`` and ``"complete"``.

    Examples
    --------
    >>> from knightgraph.running.budget import Budget
    >>> found = list(magic_numberings(3, 8, "ranks", False, Budget()))  # ranks of 100
    >>> len(found), sorted(found)[0][:4]
    (32, [0, 10, 16, 1])
    """
    kind = check_kind(kind, m, n)
    compiled = _compiled()
    run = compiled if compiled is not None else magic_dfs_python
    chunk = DFS_CHUNK if compiled is not None else DFS_CHUNK >> 6
    info = stats if stats is not None else {}
    info.update(placed=0, compiled=compiled is not None, complete=False)
    if magic_obstruction(m, n, kind) is not None:  # a line's sum is not whole, or parity
        info["complete"] = True
        return
    search = MagicSearch(m, n, kind)
    total = search.total
    for first in range(total):
        search.start(first)
        if total == 1:  # the resuming of the search needs two squares
            if not closed:  # the one square is an open tour, not a closed one
                yield [first]
        elif search.open_after(first, 1):
            while not budget.out_of_time():
                status = run(search, closed, chunk)
                info["placed"] += int(search.counters[1])
                search.counters[1] = 0
                if status == DFS_FOUND:
                    yield search.path.tolist()
                elif status == DFS_EXHAUSTED:
                    break
            else:
                return
        search.place(first, 1, -1)
    info["complete"] = True


def list_numberings(
    m: int,
    n: int,
    kind: str,
    closed: bool,
    limit: int | None,
    budget: Budget,
    stats: dict[str, Any],
) -> list[list[int]]:
    """The numberings of :func:`magic_numberings`, at most ``limit``; ``stats["search"]``
    tells the search's placements and whether it ran to its end.

    Examples
    --------
    >>> stats = {}
    >>> len(list_numberings(3, 8, "ranks", False, 5, Budget(), stats)), stats["search"]["complete"]
    (5, False)
    """
    stats["search"] = {}
    found = magic_numberings(m, n, kind, closed, budget, stats=stats["search"])
    return list(itertools.islice(found, limit))
