"""The exact depth-first search behind ``backtrack``: its tables, pruning rules and runs.

:class:`Search` holds one search: the per-square move lists and board-wide
bit sets, the pruning rules (see the Notes of
:func:`knightgraph.solvers.backtracking.backtrack` for why each is sound) and
the pure-Python search with its counters.  :func:`compiled_run` is the same
plain search (fixed order, no pruning) run by the compiled kernel, with the same
tours and counts.  :class:`Starts` gives the starts a complete search
must try.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.running.budget import Budget
>>> from knightgraph.solvers.base import Problem
>>> problem = Problem.make(Board(5, 5), start="a1")
>>> search = Search(problem, Budget(), list(problem.board.offsets), False, False, None)
>>> len(search.run(problem.start)), search.stats["placed"]
(25, 8839)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import SearchAbortedError
from ..proofs.certificates import partition_mask, schwenk_partition
from ..running.budget import Budget
from .base import Problem

_CHECK_EVERY = 1024  # placements between budget checks
_MEMO_CAP = 4_000_000  # failed positions remembered at most
MEMO_BYTES = 512 * 2**20  # ... and the memory they may take (each is a board-wide bit set)


def _bits(mask: np.ndarray[Any, Any]) -> int:
    """A boolean array over flat indices as a Python int bit set."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


class Abort(Exception):
    pass


@dataclass
class Search:
    """One exact search: tables, the request, and the counters.

    Memory is linear in the board: per-square move lists, a few board-wide
    bit sets, and the memo (capped at :data:`MEMO_BYTES`).
    """

    problem: Problem
    budget: Budget
    moves: list[tuple[int, int]]
    warnsdorff: bool
    prune: bool
    memo: set[int] | None
    targets: list[list[int]] = field(init=False, default_factory=list)
    shifts: list[tuple[int, int]] = field(init=False, default_factory=list)
    full: int = field(init=False, default=0)
    sparse: list[int] = field(init=False, default_factory=list)
    visited: bytearray = field(init=False, default_factory=bytearray)
    stats: dict[str, Any] = field(default_factory=lambda: {"placed": 0, "tried": 0})
    noise: list[float] = field(default_factory=list)
    next_check: int = 0
    memo_cap: int = 0
    kernel_arrays: tuple[np.ndarray[Any, Any], ...] | None = None

    def __post_init__(self) -> None:
        self.memo_cap = min(_MEMO_CAP, MEMO_BYTES // (self.problem.board.area // 8 + 64))

    def tables(self) -> None:
        """Build the per-square lists and bit sets of the pure-Python search (once), checking
        the budget between the steps: on a board of millions of squares each takes a while,
        and the compiled plain search never needs them."""
        if self.targets:
            return
        board = self.problem.board
        self._check_budget(self.stats["placed"], self.stats["tried"])
        position = {move: j for j, move in enumerate(board.offsets)}
        table = board.move_table()[:, [position[m] for m in self.moves]]
        self._check_budget(self.stats["placed"], self.stats["tried"])
        self.full = _bits(board.available())
        where = schwenk_partition(board) if self.prune else None
        self.sparse = [] if where is None else [_bits(partition_mask(board, where))]
        n = board.n
        shifts = []
        for j, (dr, dc) in enumerate(self.moves):
            self._check_budget(self.stats["placed"], self.stats["tried"])
            shifts.append((_bits(table[:, j] >= 0), dr * n + dc))
        self.shifts = shifts
        self._check_budget(self.stats["placed"], self.stats["tried"])
        self.visited = bytearray(board.area)
        self.targets = table.tolist()

    # ------------------------------------------------------ bit-parallel sets
    def _neighbours(self, square: int) -> int:
        """The squares one leap from ``square``, as a bit set."""
        out = 0
        for t in self.targets[square]:
            if t >= 0:
                out |= 1 << t
        return out

    def _expand(self, squares: int) -> int:
        """All squares one leap from ``squares``."""
        out = 0
        for mask, shift in self.shifts:
            x = squares & mask
            out |= x << shift if shift > 0 else x >> -shift
        return out

    def _two_or_more(self, squares: int) -> int:
        """Squares with at least two neighbours in ``squares`` (a bit-sliced counter)."""
        one = two = 0
        for mask, shift in self.shifts:
            x = squares & mask
            x = x << shift if shift > 0 else x >> -shift
            two |= one & x
            one |= x
        return two

    def _connected(self, here: int, free: int) -> bool:
        """Can every square of ``free`` be reached from ``here`` through ``free``?"""
        reach = self._neighbours(here) & free
        frontier = reach
        while frontier and reach != free:
            frontier = self._expand(frontier) & free & ~reach
            reach |= frontier
        return reach == free

    def viable(self, here: int, free: int, start: int) -> bool:
        """False when no completion of the path ending at ``here`` can be a tour.

        See the Notes of :func:`knightgraph.solvers.backtracking.backtrack` for why each
        rule is sound.
        """
        if not free:
            return True
        closed, end = self.problem.closed, self.problem.end
        if closed and not self._neighbours(start) & free:
            return False
        room = free | (1 << here) | ((1 << start) if closed else 0)
        short = free & ~self._two_or_more(room)
        if closed:
            if short:
                return False
        elif end is not None:
            if short & ~(1 << end):
                return False
        elif short & (short - 1):
            return False
        if self.sparse and not self._room_for_sparse(here, free, start):
            return False
        return self._connected(here, free)

    def _room_for_sparse(self, here: int, free: int, start: int) -> bool:
        """Can the rest of the tour place every unvisited square of each independent set?

        The rest of the tour fills places ``1 .. k`` after ``here``; squares of an
        independent set never take two neighbouring places, nor place 1 if
        ``here`` is in the set, nor place ``k`` of a closed tour if the start is.
        """
        k = free.bit_count()
        for sparse in self.sparse:
            first = 2 if sparse >> here & 1 else 1
            last = k - 1 if self.problem.closed and sparse >> start & 1 else k
            if (free & sparse).bit_count() > max(0, (last - first + 2) // 2):
                return False
        return True

    def candidates(self, here: int) -> list[int]:
        """Moves to try from ``here``: the fixed order, or fewest onward moves first
        (ties in the fixed order, or by :attr:`noise` when it is set)."""
        row = self.targets[here]
        if not self.warnsdorff:
            return row
        targets, visited, noise = self.targets, self.visited, self.noise
        valid = [t for t in row if t >= 0 and not visited[t]]

        def onward(t: int) -> int:
            return sum(1 for u in targets[t] if u >= 0 and not visited[u])

        if noise:
            return sorted(valid, key=lambda t: (onward(t), noise[t]))
        return sorted(valid, key=onward)

    # ------------------------------------------------------------- the search
    def complete(self, last: int, start: int) -> bool:
        """Does a path through every square ending at ``last`` answer the request?"""
        closed, end = self.problem.closed, self.problem.end
        if end is not None and last != end:
            return False
        return not closed or (start in self.targets[last] and self.problem.board.num_squares > 2)

    def run(self, start: int) -> list[int] | None:
        """Depth-first search from ``start``; the tour's order, or None if none exists."""
        self.tables()
        total = self.problem.board.num_squares
        end = self.problem.end
        memo, prune, stats, visited = self.memo, self.prune, self.stats, self.visited
        area = self.problem.board.area
        if total == 1:
            return [start] if self.complete(start, start) else None
        free = self.full & ~(1 << start)
        if prune and not self.viable(start, free, start):
            return None
        visited[start] = 1
        path = [start]
        frames = [self.candidates(start)]
        cursor = [0]
        placed, tried = stats["placed"], stats["tried"]
        self._check_budget(placed, tried)
        try:
            while frames:
                if placed >= self.next_check:
                    self._check_budget(placed, tried)
                options, k = frames[-1], cursor[-1]
                if k == len(options):
                    here = path.pop()
                    if memo is not None and len(memo) < self.memo_cap:
                        memo.add(free * area + here)
                    visited[here] = 0
                    free |= 1 << here
                    frames.pop()
                    cursor.pop()
                    continue
                cursor[-1] = k + 1
                tried += 1
                nxt = options[k]
                if nxt < 0 or visited[nxt] or (prune and nxt == end and len(path) < total - 1):
                    continue
                placed += 1
                visited[nxt] = 1
                free ^= 1 << nxt
                path.append(nxt)
                if len(path) == total:
                    if self.complete(nxt, start):
                        return path
                elif not (
                    (memo is not None and free * area + nxt in memo)
                    or (prune and not self.viable(nxt, free, start))
                ):
                    frames.append(self.candidates(nxt))
                    cursor.append(0)
                    continue
                path.pop()
                visited[nxt] = 0
                free |= 1 << nxt
            return None
        finally:
            stats["placed"], stats["tried"] = placed, tried
            for square in path:
                visited[square] = 0

    def _check_budget(self, placed: int, tried: int) -> None:
        """Stop (raise ``Abort``) when the budget is spent; else set the next check."""
        self.stats["placed"], self.stats["tried"] = placed, tried
        self.budget.report(self.stats)
        why = self.budget.exceeded(placed)
        if why:
            raise Abort(why)
        limit = self.budget.limit
        self.next_check = (
            placed + _CHECK_EVERY if limit is None else min(placed + _CHECK_EVERY, limit)
        )


class Starts:
    """The starts a complete search must try, one per symmetry class when the start is free.

    Iterable any number of times; the first start comes at once and the others (one
    per orbit of the board's symmetries, which takes a while on millions of squares)
    only when the search gets past it.
    """

    def __init__(self, problem: Problem, warnsdorff: bool) -> None:
        self.problem, self.warnsdorff = problem, warnsdorff
        self._all: list[int] | None = None
        board = problem.board
        if problem.start is not None:
            self._all = [problem.start]
            return
        available = np.flatnonzero(board.available())
        if problem.closed:
            self._all = [int(available[0])]  # a closed tour passes through every square
            return
        order = available
        if warnsdorff:
            order = order[np.argsort(board.degrees()[order], kind="stable")]
        self._order = order

    def __iter__(self) -> Iterator[int]:
        if self._all is not None:
            yield from self._all
            return
        yield int(self._order[0])  # the first square of ``order`` is always its orbit's first
        yield from self.all()[1:]

    def all(self) -> list[int]:
        """Every start, in order.  One per orbit: its first square in ``order``; a symmetry
        keeps degrees, so the stable sort keeps each orbit's squares in index order and
        the first is the smallest."""
        if self._all is None:
            order = self._order
            perms = np.array(list(self.problem.board.symmetries().values()))
            smallest = np.minimum(perms[:, order].min(axis=0), order)
            self._all = [int(s) for s in order[smallest == order]]
        return self._all


_COMPILED_CHUNK = 1 << 22  # placements per kernel call between budget checks


def compiled_run(search: Search, start: int) -> list[int] | None:
    """:meth:`Search.run` for plain search (fixed order, no pruning), by the kernel.

    Same tours and the same ``placed`` and ``tried`` counts, about a hundred
    times faster (:func:`knightgraph.solvers.kernels.dfs_python` is the
    plain-Python version of the loop).
    """
    problem = search.problem
    board = problem.board
    if search.kernel_arrays is None:  # built once per search, reset per start in O(1)
        search._check_budget(search.stats["placed"], search.stats["tried"])
        targets = board.move_table(search.moves, missing=board.area, sentinel=True)
        visited = np.zeros(board.area + 1, dtype=np.uint8)
        visited[board.area] = 1
        search.kernel_arrays = (
            targets,
            np.zeros(board.area + 1, dtype=np.uint8),  # closers
            np.zeros(problem.board.num_squares, dtype=np.int32),  # path
            np.zeros(problem.board.num_squares, dtype=np.int8),  # cursor
            visited,
        )
    targets, closers, path, cursor, visited = search.kernel_arrays
    if board.num_squares > 1 and not (targets[start] != board.area).any():
        search.stats["tried"] += targets.shape[1]  # what the kernel would count: no move leads on
        return None
    # An exhausted run leaves every square unvisited again; only the start's entries change.
    visited[start] = 1
    cursor[0] = 0
    closers[targets[start]] = 1
    closers[board.area] = 0
    path[0] = start
    try:
        return _compiled_loop(search, targets, closers, path, cursor, visited, start)
    finally:
        closers[targets[start]] = 0
        if visited[start]:  # found, or stopped by the budget: start afresh next time
            visited[:] = 0
            visited[board.area] = 1


def _compiled_loop(
    search: Search,
    targets: np.ndarray[Any, Any],
    closers: np.ndarray[Any, Any],
    path: np.ndarray[Any, Any],
    cursor: np.ndarray[Any, Any],
    visited: np.ndarray[Any, Any],
    start: int,
) -> list[int] | None:
    from .kernels import DFS_FOUND, DFS_RUNNING, kernels

    problem = search.problem
    stats = search.stats
    counters = np.array([0, stats["placed"], stats["tried"]], dtype=np.int64)
    dfs = kernels().dfs
    end = -1 if problem.end is None else problem.end
    while True:
        placed = int(counters[1])
        search._check_budget(placed, int(counters[2]))
        limit = search.budget.limit
        stop = placed + _COMPILED_CHUNK if limit is None else min(placed + _COMPILED_CHUNK, limit)
        status = dfs(targets, closers, path, cursor, visited, counters, end, problem.closed, stop)
        stats["placed"], stats["tried"] = int(counters[1]), int(counters[2])
        if status == DFS_FOUND:
            found: list[int] = path.tolist()
            return found
        if status != DFS_RUNNING:
            return None


GRAPH_CLOCK_EVERY = 1024  # search nodes of GraphSearch between two looks at the budget


class GraphSearch:
    """The depth-first search of ``backtrack`` on a graph board: simple paths, fewest
    onward edges first, with sound pruning.

    Notes
    -----
    Vertex sets are Python integers used as bit sets.  A branch is cut when the
    vertices left cannot all be reached from the head through unvisited vertices
    (a path visits them through such vertices only), or when more unvisited
    vertices have a single usable neighbour than a path has last vertices (one; for
    a closed tour, the start counts as usable for the last vertex).  Exhaustive.

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> from knightgraph.running.budget import Budget
    >>> from knightgraph.solvers.problem import Problem
    >>> search = GraphSearch(Problem(GraphBoard.from_networkx(nx.cycle_graph(5)), True), Budget())
    >>> search.run(), search.nodes
    ([0, 4, 3, 2, 1], 4)
    """

    def __init__(self, problem: Any, budget: Any) -> None:
        self.problem, self.budget = problem, budget
        self.adj = problem.board.adj
        self.n = problem.board.num_squares
        self.nbr = [sum(1 << w for w in a) for a in self.adj]
        self.nodes = 0
        starts = [problem.start] if problem.start is not None else list(range(self.n))
        if problem.closed and problem.start is None:
            starts = [problem.end if problem.end is not None else 0]
        self.end = problem.end
        if problem.start is None and problem.end is not None:
            # Search from the end: the path is read backwards (the cycle rotated) afterwards.
            starts, self.end = [problem.end], None
        self.starts = starts

    def run(self) -> list[int] | None:
        """A tour from one of the starts, or None (SearchAbortedError on the budget)."""
        for first in self.starts:
            found = self.search(first)
            if found is not None:
                return found
        return None

    def reachable(self, head: int, free: int) -> int:
        """The vertices of ``free`` reachable from ``head`` through ``free``."""
        nbr = self.nbr
        seen, frontier = 0, nbr[head] & free
        while frontier:
            seen |= frontier
            grow = 0
            f = frontier
            while f:
                low = f & -f
                grow |= nbr[low.bit_length() - 1]
                f ^= low
            frontier = grow & free & ~seen
        return seen

    def viable(self, head: int, free: int, first: int) -> bool:
        """False when no path from ``head`` through all of ``free`` can finish the tour."""
        if not free:
            return True
        if self.reachable(head, free) != free:
            return False
        usable = free | (1 << head) | ((1 << first) if self.problem.closed else 0)
        single = 0
        f = free
        while f:
            low = f & -f
            v = low.bit_length() - 1
            if bin(self.nbr[v] & usable).count("1") < 2:
                if self.end is not None and v != self.end:
                    return False
                single += 1
                if single > 1:
                    return False
            f ^= low
        return True

    def ordered(self, v: int, free: int) -> list[int]:
        """Unvisited neighbours of ``v``, the one with fewest onward edges last (tried first)."""
        options = [w for w in self.adj[v] if free >> w & 1]
        options.sort(key=lambda w: -bin(self.nbr[w] & free).count("1"))
        return options

    def tick(self, depth: int) -> None:
        """Count a node; every :data:`GRAPH_CLOCK_EVERY`, report and look at the budget."""
        self.nodes += 1
        if self.nodes % GRAPH_CLOCK_EVERY == 0:
            self.budget.report({"done": self.nodes, "depth": depth})
            why = self.budget.exceeded(self.nodes)
            if why:
                raise SearchAbortedError(f"backtracking {why}")

    def search(self, first: int) -> list[int] | None:
        """A tour starting at ``first``, or None."""
        closed, adj, end = self.problem.closed, self.adj, self.end
        path = [first]
        free = ((1 << self.n) - 1) & ~(1 << first)
        if self.n == 1:
            return path
        stack: list[list[int]] = [self.ordered(first, free)]
        while stack:
            self.tick(len(path))
            options = stack[-1]
            if not options:
                stack.pop()
                free |= 1 << path.pop()
                continue
            v = options.pop()
            if end is not None and v == end and free != 1 << v:
                continue
            free &= ~(1 << v)
            path.append(v)
            if not free:
                if not closed or first in adj[v]:
                    return path
                free |= 1 << path.pop()
                continue
            if self.viable(v, free, first):
                stack.append(self.ordered(v, free))
            else:
                free |= 1 << path.pop()
        return None
