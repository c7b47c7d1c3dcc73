"""Listing tours one by one (:func:`enumerate_tours`): a depth-first search, not the dynamic
program of the counts.

The search runs over bit sets (an int per set of squares), fewest onward moves first,
with two cuts; it yields verified :class:`~knightgraph.Tour` objects in the conventions
of :func:`~knightgraph.count_tours` (closed tours once per undirected cycle, open tours
once per directed path).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.coercion import as_board
from ..exceptions import InvalidOptionError
from ..running.budget import Budget
from ..running.resources import require_memory
from ..tours.tour import Tour
from ..tours.verify import check_closed
from .limits import CountAbortedError, end_indices

ENUMERATE_BYTES_PER_SQUARE = 1000
"""What :func:`enumerate_tours` holds per square (neighbour lists and bit sets, a tour)."""

CLOCK_EVERY = 256
"""Search nodes between two looks at the clock of :func:`enumerate_tours`."""


def enumerate_tours(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    limit: int | None = None,
    timeout: float | None = None,
) -> Iterator[Tour]:
    """Yield tours one by one (verified :class:`~knightgraph.Tour` objects), up to ``limit``.

    ``timeout`` (seconds, from the call) bounds the search: past it the generator raises
    :class:`~knightgraph.counting.limits.CountAbortedError` (the tours yielded so far
    stand), as the counts' ``require_count`` does; without it a search that finds no
    tour may run for a very long time (``enumerate_tours(7, 7, start="b1")``: none).

    Closed tours are yielded once per undirected cycle, starting at ``start``
    (or the first square in flat-index order); open tours once per directed
    path, as counted by :func:`count_tours`.  Depth-first search (fewest
    onward moves first) with two cuts (an unvisited square with too few free
    neighbours, and squares the path can no longer reach): quick for the first
    tours of boards up to about 10 x 10, and for all the tours of boards that
    have up to some 10^5 of them.

    Examples
    --------
    >>> for tour in enumerate_tours(3, 4, start="a1"):
    ...     print(" ".join(tour.algebraic()))
    a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2
    a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3
    >>> sum(1 for _ in enumerate_tours(5, 6, closed=True))
    8
    >>> next(enumerate_tours(7, 7, start="b1", timeout=0))
    Traceback (most recent call last):
    ...
    knightgraph.counting.limits.CountAbortedError: listing tours stopped at the timeout of 0 s after 0 tours
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    closed = check_closed(closed)
    s, t = end_indices(board, start, end)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InvalidOptionError(f"invalid limit {limit!r}: expected a whole number >= 0")
    require_memory(
        board.num_squares * ENUMERATE_BYTES_PER_SQUARE,
        f"listing the tours of {board.m}x{board.n} ({board.num_squares:,} squares)",
    )
    return _enumerate(board, closed, s, t, limit, Budget.make(timeout))


def _enumerate(
    board: Board, closed: bool, s: int | None, t: int | None, limit: int | None, budget: Budget
) -> Iterator[Tour]:
    """The generator of :func:`enumerate_tours` (its checks run at the call, not at the first
    tour)."""
    size = board.num_squares
    if limit is not None and limit <= 0:
        return
    table = board.move_table()
    gone = {r * board.n + c for r, c in board.removed}
    nbrs = {i: [int(x) for x in table[i] if x >= 0] for i in range(board.area) if i not in gone}
    squares = sorted(nbrs)
    if closed and s is None and t is not None:
        s, t = t, None  # rotate: a closed tour ending at t, listed from t's successor
        flip_end = True
    else:
        flip_end = False
    produced = 0
    runs: list[tuple[int, int | None]] = []  # (first square, last square) of the searches
    if not closed:
        runs = [(first, t) for first in ([s] if s is not None else squares)]
    elif size >= 3:
        # A closed tour is an open one from `first` to a neighbour of `first`.
        first = s if s is not None else squares[0]
        runs = [(first, q) for q in nbrs[first] if t is None or q == t]

    def spent() -> None:
        if budget.out_of_time():
            raise CountAbortedError(
                f"listing tours stopped at the timeout of {budget.timeout:g} s after "
                f"{produced:,} tours",
                {"phase": "list", "tours": produced},
            )

    for first, last in runs:
        for order in _dfs_tours(nbrs, size, first, last, False, spent):
            if closed and t is None and order[1] > order[-1]:
                continue  # each cycle once: the orientation with the smaller second square
            if flip_end:
                order = order[1:] + order[:1]
            yield Tour(board, np.array(order, dtype=np.int64), closed)
            produced += 1
            if limit is not None and produced >= limit:
                return


def _dfs_tours(
    nbrs: dict[int, list[int]],
    size: int,
    first: int,
    last: int | None,
    closed: bool,
    spent: Callable[[], None] | None = None,
) -> Iterator[list[int]]:
    """Depth-first search over bit sets, fewest onward moves first, with two cuts: every unvisited
    square keeps enough free neighbours (two, or one for the square that may end the
    tour), and the unvisited squares stay connected to the head.  ``spent()`` is called
    every :data:`CLOCK_EVERY` nodes (it raises to stop the search)."""
    if size == 1:
        if not closed and last in (None, first):
            yield [first]
        return
    nb = {v: sum(1 << u for u in us) for v, us in nbrs.items()}
    start_bit = 1 << first
    path = [first]

    def alive(head: int, unvisited: int) -> bool:
        if closed and not nb[first] & unvisited:
            return False  # no square is left to close the tour on
        reach = nb[head] & unvisited
        ends = 0
        rest = unvisited
        while rest:
            low = rest & -rest
            rest ^= low
            u = low.bit_length() - 1
            links = (nb[u] & unvisited).bit_count() + ((nb[u] >> head) & 1)
            if closed:
                links += (nb[u] >> first) & 1
            if links >= 2:
                continue
            if links == 0 or closed or (last is not None and u != last):
                return False
            ends += 1
            if ends > 1:
                return False
        # connectivity: flood from the head's unvisited neighbours
        seen = reach
        while reach:
            grow = 0
            while reach:
                low = reach & -reach
                reach ^= low
                grow |= nb[low.bit_length() - 1]
            reach = grow & unvisited & ~seen
            seen |= reach
        return seen == unvisited

    def children(v: int, unvisited: int) -> Iterator[tuple[int, int]]:
        """The next squares from ``v`` worth trying, with what stays unvisited after each."""
        # Fewest onward moves first (Warnsdorff's rule): the first tours come quickly.
        options = sorted(
            (nb[u] & unvisited).bit_count() * 64 + i
            for i, u in enumerate(nbrs[v])
            if unvisited >> u & 1
        )
        for key in options:
            u = nbrs[v][key % 64]
            bit = 1 << u
            if u == last and unvisited != bit:
                continue
            rest = unvisited ^ bit
            if rest and not alive(u, rest):
                continue
            yield u, rest

    # Depth-first with an explicit stack (a path of thousands of squares is deeper than
    # Python's recursion limit): stack[i] holds the untried children of path[i].
    everything = sum(1 << v for v in nbrs)
    stack = [children(first, everything ^ start_bit)]
    nodes = 0
    while stack:
        nodes += 1
        if spent is not None and nodes % CLOCK_EVERY == 0:
            spent()
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            path.pop()
            continue
        u, rest = step
        path.append(u)
        if rest:
            stack.append(children(u, rest))
            continue
        if (last is None or u == last) and (not closed or nb[u] & start_bit):
            yield list(path)
        path.pop()
