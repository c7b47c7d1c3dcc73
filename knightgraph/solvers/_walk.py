"""One walk of Warnsdorff's rule and its repairs: the path, Posa rotations, retreats.

:class:`Walk` holds the path under construction in arrays shared with the
compiled walk (:func:`knightgraph.solvers.kernels.walk`), which follows the
rule; the rest is done here in Python: rotations (Posa 1976) that move the free
end, retreats that undo part of the walk, and re-rooting a closed path.
:func:`run_attempt` is one walk from a start, repaired by rotations when the rule
gets stuck, and :func:`_close` turns a path through every square into a closed
tour.  The rules themselves (which :class:`Rule` each name means) and the
strategy are :mod:`knightgraph.solvers.warnsdorff`.  :func:`graph_walk` is the same rule
with rotations over the adjacency lists of a graph board (``auto``'s first try on large
graphs).

Examples
--------
>>> import random
>>> from knightgraph import Board
>>> from knightgraph.running.budget import Budget
>>> from knightgraph.solvers.base import Problem
>>> problem = Problem.make(Board(8, 8))
>>> walk = Walk(problem, random.Random(0), Rule(), Budget(), problem.board.offsets, 0)
>>> walk.reset(1)
>>> run_attempt(walk, 0, repair=False), [problem.board.name(int(s)) for s in walk.path[:4]]
(True, ['a1', 'b3', 'c1', 'a2'])
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..boards.board import Board
from ..running.budget import Budget
from .base import Problem

_CHUNK = 1 << 20  # steps per compiled call between budget checks


class OutOfBudget(Exception):
    def __init__(self, why: str, steps: int) -> None:
        super().__init__(why)
        self.steps = steps


@dataclass(frozen=True)
class Rule:
    """How a rule picks among candidates (see :func:`knightgraph.solvers.kernels.walk_python`)."""

    border: bool = False
    key: str = ""  # "centre" or "edge": a per-square tie-break key
    pohl: bool = False
    randomize: bool = False
    repair: bool = False
    attempts: int = 20
    rotate_order: bool = False  # attempt k starts the move order at move k
    # Squirrel's rule: the board's chain of (move order, switch square or -1)
    chain: Callable[[Board], list[tuple[np.ndarray[Any, Any], int]]] | None = None
    moves: tuple[tuple[int, int], ...] | None = None  # the rule's own move order


@functools.lru_cache(maxsize=4)
def _tables(board: Board, moves: tuple[tuple[int, int], ...]) -> tuple[np.ndarray[Any, Any], ...]:
    """Move table with a sentinel square (columns in ``moves`` order) and full degrees.

    Cached (read-only), so that a sweep over every start square builds them once.
    """
    targets = board.move_table(moves, missing=board.area, sentinel=True)
    degree = (targets != board.area).sum(axis=1, dtype=np.int32)
    for array in (targets, degree):
        array.flags.writeable = False
    return targets, degree


@functools.lru_cache(maxsize=4)
def _key(board: Board, kind: str) -> np.ndarray[Any, Any]:
    """Per-square tie-break keys (smaller wins): ``centre`` = minus the squared distance
    from the centre, ``edge`` = the distance to the nearest edge; the sentinel gets 0."""
    r, c = np.arange(board.m, dtype=np.int64), np.arange(board.n, dtype=np.int64)
    if kind == "centre":
        grid = -np.add.outer((2 * r - board.m + 1) ** 2, (2 * c - board.n + 1) ** 2)
    else:
        grid = np.minimum.outer(np.minimum(r, board.m - 1 - r), np.minimum(c, board.n - 1 - c))
    key = np.zeros(board.area + 1, dtype=np.int64)
    key[:-1] = grid.ravel()
    key.flags.writeable = False
    return key


class Walk:
    """The path under construction: order, positions, and onward degrees.

    The arrays are shared with the kernel (:mod:`knightgraph.solvers.kernels`),
    which does the walking; this class does the rest (rotations, retreats) in
    Python.  Missing moves point at a sentinel square ``m * n`` that counts as
    visited.
    """

    def __init__(
        self,
        problem: Problem,
        rng: random.Random,
        rule: Rule,
        budget: Budget,
        moves: tuple[tuple[int, int], ...],
        seed: int,
    ) -> None:
        from .kernels import kernels

        board = problem.board
        self.problem = problem
        self.rng = rng
        self.rule = rule
        self.budget = budget
        self.total = board.num_squares
        self.kernel = kernels().walk
        self._check_setup()  # each table takes a while on millions of squares
        self.targets, self.full_degree = _tables(board, moves)
        self._check_setup()
        self.key = _key(board, rule.key or "edge")
        self._check_setup()
        self.chain = [] if rule.chain is None else rule.chain(board)
        self.degree = self.full_degree.copy()
        self.visited = np.zeros(board.area + 1, dtype=np.uint8)
        self.path = np.zeros(self.total, dtype=np.int32)
        self.pos = np.full(board.area + 1, -1, dtype=np.int32)
        self.counters = np.zeros(2, dtype=np.int64)  # length, steps
        self.walk_rng = np.array([seed & (2**64 - 1)], dtype=np.uint64)
        self.order = np.arange(self.targets.shape[1], dtype=np.int64)
        self.check_budget()

    @property
    def length(self) -> int:
        return int(self.counters[0])

    @length.setter
    def length(self, value: int) -> None:
        self.counters[0] = value

    @property
    def steps(self) -> int:
        return int(self.counters[1])

    @steps.setter
    def steps(self, value: int) -> None:
        self.counters[1] = value

    def reset(self, attempt: int) -> None:
        """Empty the path for a new attempt (the step count goes on)."""
        self.degree[:] = self.full_degree
        self.visited.fill(0)
        self.visited[-1] = 1  # the sentinel
        self.pos.fill(-1)
        self.length = 0
        moves = len(self.order)
        shift = (attempt - 1) % moves if self.rule.rotate_order else 0
        self.order = np.roll(np.arange(moves, dtype=np.int64), -shift)

    def _check_setup(self) -> None:
        why = self.budget.exceeded(0)
        if why:
            raise OutOfBudget(why, 0)

    def check_budget(self) -> None:
        """Raise ``OutOfBudget`` when the budget is spent."""
        why = self.budget.exceeded(self.steps)
        if why:
            raise OutOfBudget(why, self.steps)

    def visit(self, square: int) -> None:
        """Append ``square`` to the path."""
        self.visited[square] = 1
        self.path[self.length] = square
        self.pos[square] = self.length
        self.length += 1
        self.degree[self.targets[square]] -= 1

    def extend(self) -> None:
        """Follow the rule from the current end until stuck or complete (compiled)."""
        rule, end = self.rule, self.problem.end
        while True:
            order, switch = self._current_order()
            limit = self.budget.limit
            stop = self.steps + _CHUNK if limit is None else min(self.steps + _CHUNK, limit)
            self.kernel(
                self.targets,
                order,
                self.key,
                self.degree,
                self.visited,
                self.path,
                self.pos,
                self.counters,
                self.walk_rng,
                -1 if end is None else end,
                rule.border,
                bool(rule.key) and not rule.border,
                rule.pohl,
                rule.randomize,
                self.total,
                stop,
                switch,
            )
            if self.length == self.total:
                return
            if switch >= 0 and self.path[self.length - 1] == switch:
                continue  # Squirrel's rule: the next move order from here on
            if self.steps < stop:
                return  # stuck
            self.check_budget()

    def _current_order(self) -> tuple[np.ndarray[Any, Any], int]:
        """The move order in force, and the square at which it changes (or -1).

        Squirrel's rule uses the first order in its chain whose switch square
        has not been visited yet; the other rules use :attr:`order` throughout.
        """
        for order, switch in self.chain:
            if switch < 0 or not self.visited[switch]:
                return order, switch
        return self.order, -1

    def retreat(self, count: int, random_steps: int = 1) -> None:
        """Take the last ``count`` squares off the path (never the first), then make
        ``random_steps`` random moves, so that the walk goes elsewhere."""
        for _ in range(min(count, self.length - 1)):
            self.length -= 1
            square = int(self.path[self.length])
            self.visited[square] = 0
            self.pos[square] = -1
            self.degree[self.targets[square]] += 1
        for _ in range(random_steps):
            here = int(self.path[self.length - 1])
            options = [int(t) for t in self.targets[here] if self.may_enter(int(t))]
            if not options or self.length == self.total:
                break
            self.visit(self.rng.choice(options))
        self.steps += 1

    def may_enter(self, square: int) -> bool:
        """Unvisited, and not the required end unless it is the last square."""
        end = self.problem.end
        return not self.visited[square] and (square != end or self.length == self.total - 1)

    # ------------------------------------------------------------ rotations
    def pivots(self) -> list[int]:
        """Positions ``i`` whose square neighbours the end, so that a rotation can end at ``i + 1``."""
        last = self.length - 1
        end_square = int(self.path[last])
        pos = self.pos
        return [int(pos[u]) for u in self.targets[end_square] if 0 <= pos[u] < last - 1]

    def rotate(self, i: int) -> None:
        """Reverse the path after position ``i``; the old end now follows ``path[i]``."""
        lo, hi = i + 1, self.length
        segment = self.path[lo:hi][::-1].copy()
        self.path[lo:hi] = segment
        self.pos[segment] = np.arange(lo, hi)
        self.steps += 1

    def plan(self, good: Callable[[int], bool]) -> list[int] | None:
        """One or two rotations (their pivots) after which the end is good, or None.

        The second level is computed without rotating: after a rotation at
        ``i`` the square at position ``p > i`` moves to ``i + 1 + last - p``.
        """
        last = self.length - 1
        path, pos = self.path, self.pos
        first = self.pivots()
        for i in first:
            if good(int(path[i + 1])):
                return [i]
        for i in first:
            for u in self.targets[int(path[i + 1])]:
                p = int(pos[u])
                if p < 0:
                    continue
                q = p if p <= i else i + 1 + last - p
                if q < last - 1:
                    k = q + 1
                    if good(int(path[k] if k <= i else path[last + i + 1 - k])):
                        return [i, q]
        return None

    def rotate_until(
        self, good: Callable[[int], bool], tries: int, toward: list[int] | None = None
    ) -> bool:
        """Rotate until the end square is good: planned rotations when two suffice, else a
        step that brings the end nearer to ``toward`` (four times in five) or a random one.

        A rotation moves the end at most two leaps, so an undirected walk of the end
        needs about (distance)^2 rotations to reach a far target; the directed one
        needs about the distance.
        """
        n: int = self.problem.board.n
        goals = [divmod(t, n) for t in toward or ()]

        def distance(square: int) -> int:
            r, c = divmod(square, n)
            return min(max(abs(r - gr), abs(c - gc)) for gr, gc in goals)

        for _ in range(tries):
            if good(int(self.path[self.length - 1])):
                return True
            planned = self.plan(good)
            if planned is not None:
                for i in planned:
                    self.rotate(i)
                return True
            options = self.pivots()
            if not options:
                return False
            if goals and self.rng.random() < 0.8:
                self.rotate(min(options, key=lambda i: distance(int(self.path[i + 1]))))
            else:
                self.rotate(self.rng.choice(options))
            self.check_budget()
        return good(int(self.path[self.length - 1]))

    def unvisited(self, most: int) -> list[int] | None:
        """The unvisited squares if there are at most ``most`` of them, else None."""
        if self.total - self.length > most:
            return None
        free = self.visited[:-1] == 0
        return np.flatnonzero(free & self.problem.board.available()).tolist()

    def first_contact(self, holes: list[int]) -> int:
        """The earliest path position next to any of ``holes``."""
        pos = self.pos
        return min(
            (int(pos[u]) for h in holes for u in self.targets[h] if pos[u] >= 0),
            default=self.length - 1,
        )

    def reverse(self) -> None:
        """Walk the path backwards (the other end becomes the free one)."""
        segment = self.path[: self.length][::-1].copy()
        self.path[: self.length] = segment
        self.pos[segment] = np.arange(self.length, dtype=np.int32)

    def reroot(self, square: int) -> None:
        """Start the closed path at ``square`` (a rotation of the cycle)."""
        self.path[:] = np.roll(self.path, -int(self.pos[square]))
        self.pos[self.path] = np.arange(self.length, dtype=np.int32)

    def has_exit(self, square: int) -> bool:
        """True if ``square`` has an unvisited neighbour the walk may enter now."""
        return any(self.may_enter(int(u)) for u in self.targets[square])


def run_attempt(walk: Walk, start: int, repair: bool) -> bool:
    """One walk from ``start``; True when it ends as the problem requires."""
    problem = walk.problem
    walk.visit(start)
    walk.extend()
    patience = 4 * int(walk.total**0.5) + 50
    retreats = 0
    while walk.length < walk.total:
        if not repair or retreats > patience:
            return False
        holes = walk.unvisited(16)
        behind = walk.length - walk.first_contact(holes) if holes else walk.total
        # Holes walled in by the recent walk are rarely reached by rotations: then
        # try only a few before undoing that part of the walk.
        tries = patience if behind > patience else patience // 4
        if walk.rotate_until(walk.has_exit, tries, toward=holes):
            walk.extend()
            continue
        retreats += 1
        back = behind if behind <= patience else walk.rng.randint(1, 8)
        walk.retreat(back + walk.rng.randint(0, 3), random_steps=walk.rng.randint(1, 3))
        walk.extend()
    if not problem.closed:
        return True  # a required end was kept for the last square
    return _close(walk, repair)


def _close(walk: Walk, repair: bool) -> bool:
    """Turn a path through every square into a closed tour, if the rule allows.

    The end must come next to the first square.  Rotations move the end; when
    they fail, the path is reversed so that the other end moves (a cycle can
    be re-rooted at the requested start afterwards), unless a required end
    pins both ends down.
    """
    problem, path = walk.problem, walk.path

    def closes(square: int) -> bool:
        return square in walk.targets[int(path[0])] and walk.total > 2

    if not repair:
        return closes(int(path[-1]))
    for _ in range(4):
        if walk.rotate_until(closes, max(1000, walk.total // 4), toward=[int(path[0])]):
            if problem.start is not None and path[0] != problem.start:
                walk.reroot(problem.start)
            return True
        if problem.end is not None:
            return False
        walk.reverse()
    return False


def graph_walk(
    adj: Sequence[Sequence[int]],
    start: int,
    closed: bool,
    rng: random.Random,
    *,
    steps: int,
    stop: Callable[[], bool] | None = None,
) -> list[int] | None:
    """A Hamiltonian path from ``start`` (a cycle if ``closed``) by Warnsdorff's rule, or None:
    the walk of ``auto`` on a graph board, over adjacency lists (a heuristic: it finds a
    tour or gives up, never claims absence).

    Parameters
    ----------
    adj : sequence of sequences of int
        Neighbours of each vertex.
    start : int
    closed : bool
    rng : random.Random
        Breaks ties between equally constrained vertices.
    steps : int
        Moves and rotations allowed before giving up.
    stop : callable, optional
        Asked every 1024 steps; True stops the walk (a budget).

    Notes
    -----
    The walk moves to the unvisited neighbour with the fewest unvisited neighbours
    (Warnsdorff 1823).  When it is stuck, or complete but not closing, it makes a Posa
    rotation: for a neighbour ``p[i]`` of the head, the path ``p[0..i], p[k], ...,
    p[i+1]`` has the same vertices and the new head ``p[i+1]``; one is chosen at random
    (its head preferably with unvisited neighbours, or next to the start when
    closing).  The start never moves.  Each rotation costs O(k - i): the reversed
    stretch and its positions (kept in a list, never rebuilt).

    Examples
    --------
    >>> from knightgraph.boards.topology import topology_board
    >>> from knightgraph import Tour
    >>> torus = topology_board(20, 20, wrap="both")
    >>> order = graph_walk(torus.adj, 0, True, random.Random(0), steps=100_000)
    >>> Tour(torus, order, closed=True).closed
    True
    >>> graph_walk([[1], [0, 2], [1]], 1, False, random.Random(0), steps=10) is None
    True
    >>> graph_walk([[1, 2], [0, 2], [0, 1]], 0, True, random.Random(0), steps=10)
    [0, 2, 1]
    """
    n = len(adj)
    free = [len(a) for a in adj]  # unvisited neighbours
    seen = [False] * n
    path: list[int] = []
    position = [n] * n  # where each visited vertex is on the path (n: not on it)

    def visit(v: int) -> None:
        seen[v] = True
        position[v] = len(path)
        path.append(v)
        for w in adj[v]:
            free[w] -= 1

    visit(start)
    for done in range(steps):
        if stop is not None and done % 1024 == 0 and stop():
            return None
        head = path[-1]
        options = [w for w in adj[head] if not seen[w]]
        if options:
            least = min(free[w] for w in options)
            visit(rng.choice([w for w in options if free[w] == least]))
            continue
        if len(path) == n and (not closed or (n >= 3 and start in adj[head])):
            return path
        if n == 1:
            return path if not closed else None
        pivots = [position[w] for w in adj[head] if position[w] < len(path) - 2]
        if not pivots:
            return None
        good = [
            i
            for i in pivots
            if (len(path) < n and any(not seen[w] for w in adj[path[i + 1]]))
            or (len(path) == n and start in adj[path[i + 1]])
        ]
        i = rng.choice(good or pivots)
        path[i + 1 :] = path[:i:-1]
        for k in range(i + 1, len(path)):
            position[path[k]] = k
    return None
