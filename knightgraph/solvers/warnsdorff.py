"""Warnsdorff's rule (1823), with tie-break rules, restarts and Posa rotations.

Warnsdorff's rule moves the knight to the unvisited square with the fewest
unvisited onward squares.  It is a heuristic: it often covers the board in one
pass, but it can get stuck, and it does not aim for a closed tour or a given
end.  This solver therefore adds, when ``repair=True`` (the default), the
rotation technique of Posa (1976): for a path ``v0 ... vk`` whose end ``vk``
has a neighbour ``vi`` on the path, ``v0 ... vi vk ... v(i+1)`` is again a path,
ending at ``v(i+1)``.  Rotations move the free end around without losing
squares, which lets the walk continue when it is stuck, and brings the end
next to the start (closed tour) or onto a required end square.

It never claims that no tour exists: when every attempt fails the result is
ABORTED.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers.warnsdorff import warnsdorff
>>> res = warnsdorff(Board(8, 8), start="a1", rule="first", repair=False)
>>> res.status.name, res.tour.algebraic()[:4]
('FOUND', ['a1', 'b3', 'c1', 'a2'])
>>> warnsdorff(Board(30, 30), closed=True, seed=7).tour.closed
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..board import KNIGHT, Board
from ..exceptions import InvalidOptionError
from ..existence import color_obstruction
from ..proofs import closing_move_obstruction, partition_obstruction
from ..results import Certificate, SearchResult
from .base import Budget, Problem, solver
from .moves import parse_moves

__all__ = ["RULES", "SEED_003_MOVES", "warnsdorff"]

RULES = ("roth", "random", "first", "pohl", "squirrel", "border")
"""The rules, by name:

``roth`` (the default): Warnsdorff's rule, ties to the square farthest from
the centre (Roth), then a seeded random choice; with Posa rotations.
``random``: ties broken by a seeded random choice.
``first``: ties broken by the move order.
``pohl`` (Pohl 1967): ties to the square whose unvisited neighbours have the
smallest total onward degree, then the move order.
``squirrel`` (Squirrel and Cull 1996; square boards): ties broken by a move
order that depends on ``n mod 8`` and changes at fixed switch squares; the
published tours start in the corner a{n}.
``border`` (seed 003): not Warnsdorff's rule but the seed's own: move to a
square with at most one onward move if there is one, else to the square
nearest the edge of the board; the move order (by default the seed's,
:data:`SEED_003_MOVES`) breaks ties, and each new attempt starts it one move
later (eight orders in all).

Only ``roth`` uses Posa rotations unless ``repair`` says otherwise: the named
rules run as published."""

_CHUNK = 1 << 20  # steps per compiled call between budget checks


class _OutOfBudget(Exception):
    def __init__(self, why: str, steps: int) -> None:
        super().__init__(why)
        self.steps = steps


@dataclass(frozen=True)
class _Rule:
    """How a rule picks among candidates (see :func:`knightgraph.solvers.kernels.walk_python`)."""

    border: bool = False
    key: str = ""  # "centre" or "edge": a per-square tie-break key
    pohl: bool = False
    randomize: bool = False
    repair: bool = False
    attempts: int = 20
    rotate_order: bool = False  # attempt k starts the move order at move k
    squirrel: bool = False
    moves: tuple[tuple[int, int], ...] | None = None  # the rule's own move order


SEED_003_MOVES = ((-1, -2), (-2, -1), (1, -2), (2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1))
"""Seed 003's list of the eight moves, (x-1, y-2) (x-2, y-1) ... (x+2, y+1), as (d_rank, d_file)."""


_RULES = {
    "roth": _Rule(key="centre", randomize=True, repair=True),
    "random": _Rule(randomize=True),
    "first": _Rule(),
    "pohl": _Rule(pohl=True),
    "squirrel": _Rule(attempts=1, squirrel=True),
    "border": _Rule(border=True, key="edge", attempts=8, rotate_order=True, moves=SEED_003_MOVES),
}

# Squirrel and Cull (1996), as in the code of D. Squirrel (github.com/douglassquirrel,
# warnsdorff and warnsdorff-scheme): for each n mod 8, move orders (the moves numbered
# 1..8 from two ranks up and one file right, clockwise: our `Board.offsets`) and the
# switch squares (row, column), row 1 at the top, after which the next order applies.
_SQUIRREL: dict[int, list[tuple[str, Callable[[int], tuple[int, int]] | None]]] = {
    0: [("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)), ("51342678", lambda n: (7, n - 3)),
        ("21435678", None)],
    1: [("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 6, (n - 1) // 2 + 5)), ("32481765", None)],
    2: [("34261578", lambda n: (6, 1)), ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 15, 4)), ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (5, n // 2 - 3)), ("15746823", None)],
    3: [("34625718", lambda n: (n - 1, n - 2)), ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)), ("51867342", lambda n: (n - 10, 3)),
        ("61825437", lambda n: ((n - 1) // 2, n - 2)), ("71642538", None)],
    4: [("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)), ("51342678", lambda n: (10, n - 5)),
        ("86753421", lambda n: (13, n // 2 + 1)), ("78563421", None)],
    5: [("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 2, (n - 1) // 2 - (2 if n % 16 == 5 else 6))),
        ("15234678", None)],
    6: [("34261578", lambda n: (6, 1)), ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 10, 1)), ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (3, n // 2 + 4)), ("12453678", None)],
    7: [("34625718", lambda n: (n - 1, n - 2)), ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)), ("51867342", lambda n: (n - 6, 3)),
        ("61825437", lambda n: ((n - 1) // 2 + 1, n - 2)), ("61357284", None)],
}  # fmt: skip


def _squirrel_chain(board: Board) -> list[tuple[np.ndarray[Any, Any], int]]:
    """The (move order, switch square or -1) chain of Squirrel's rule for this board."""
    n = board.n
    if board.m != n or not board.is_standard or n < 5:
        raise InvalidOptionError(
            f"the squirrel rule is defined for square knight boards of side 5 or more, not {board!r}"
        )
    chain = []
    for digits, where in _SQUIRREL[n % 8]:
        order = np.array([int(d) - 1 for d in digits], dtype=np.int64)
        switch = -1
        if where is not None:
            row, col = where(n)
            if 1 <= row <= n and 1 <= col <= n:
                switch = (n - row) * n + (col - 1)
        chain.append((order, switch))
    return chain


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


class _Walk:
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
        rule: _Rule,
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
        self.chain = _squirrel_chain(board) if rule.squirrel else []
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
            raise _OutOfBudget(why, 0)

    def check_budget(self) -> None:
        """Raise ``_OutOfBudget`` when the budget is spent."""
        why = self.budget.exceeded(self.steps)
        if why:
            raise _OutOfBudget(why, self.steps)

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
            self.kernel(self.targets, order, self.key, self.degree, self.visited, self.path,
                        self.pos, self.counters, self.walk_rng, -1 if end is None else end,
                        rule.border, bool(rule.key) and not rule.border, rule.pohl,
                        rule.randomize, self.total, stop, switch)  # fmt: skip
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
        n = self.problem.board.n
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


def _attempt(walk: _Walk, start: int, repair: bool) -> bool:
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


def _close(walk: _Walk, repair: bool) -> bool:
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


def _cheap_certificate(problem: Problem) -> Certificate | None:
    """The O(1) arguments (colours, the closing move, Schwenk's partition on narrow
    boards) that rule the request out before any walk is tried."""
    board = problem.board
    start = None if problem.start is None else board.square(problem.start)
    end = None if problem.end is None else board.square(problem.end)
    certificate = color_obstruction(board, closed=problem.closed, start=start, end=end)
    if certificate is None and problem.closed and start is not None and end is not None:
        certificate = closing_move_obstruction(board, start, end)
    if certificate is None:
        certificate = partition_obstruction(board, closed=problem.closed, start=start, end=end)
    return certificate


def _free_start(problem: Problem, rng: random.Random, *, first: bool) -> int:
    """A start square for a walk whose start is free: the first available square on
    the first attempt, random ones after; for an open tour only squares that the
    colour count and Schwenk's partition allow as an end."""
    board = problem.board
    squares = np.flatnonzero(board.available()).tolist()
    if problem.closed:
        return squares[0] if first else rng.choice(squares)
    order = squares if first else rng.sample(squares, min(len(squares), 64))
    for s in order:
        square = board.square(s)
        if (
            color_obstruction(board, start=square) is None
            and partition_obstruction(board, start=square) is None
        ):
            return s
    return order[0]


@solver(
    "warnsdorff",
    exact=False,
    bytes_per_square=720,
    summary="Warnsdorff's rule with restarts and Posa rotations",
)
def warnsdorff(
    problem: Problem,
    budget: Budget,
    *,
    seed: int | None = None,
    rule: str = "roth",
    attempts: int | None = None,
    repair: bool | None = None,
    moves: str | Sequence[Sequence[int]] | None = None,
) -> SearchResult:
    """Warnsdorff's rule (or seed 003's border rule), with restarts and optional Posa rotations.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature; ``seed`` drives the random tie-breaks and
        random rotations (the same seed gives the same tour; None means 0);
        ``limit`` counts moves plus rotations over all attempts.
    rule : {"roth", "random", "first", "pohl", "border"}
        See :data:`RULES`.
    attempts : int, optional
        Walks to try before giving up: 8 for ``border`` (its eight move
        orders), else 20.  Each restart draws new random choices; without a
        start square it also picks a new start.
    repair : bool, optional
        Use Posa rotations to get unstuck and to reach a closing square or the
        required end; the default is on for ``roth`` and off for the named rules.
        Without it a closed tour is found only when a walk happens to end
        next to its start.
    moves : str or sequence of (int, int), optional
        The move order ``"dr,dc;..."`` that breaks the remaining ties (default:
        the board's order, for the knight the seed-004 order).

    Returns
    -------
    SearchResult
        FOUND, or ABORTED when all attempts fail (never PROVEN_ABSENT from the
        walk itself; only the closing-move certificate, checked first).

    Notes
    -----
    One walk costs O(mn) moves, each looking at up to eight squares; the walk
    runs compiled (:func:`knightgraph.solvers.kernels.walk`, about 20 ns a
    move).  A rotation reverses the tail of the path (numpy, O(mn) worst
    case); getting unstuck takes a few rotations, closing the tour needs the
    end to land on one of the start's neighbours, which the rotations find
    after about ``mn / 400`` tries on large boards (each rotation looks two
    rotations ahead for an end next to the start, and otherwise steps towards
    the start).
    """
    if rule not in RULES:
        raise InvalidOptionError(f"invalid rule {rule!r}: choose from {', '.join(RULES)}")
    spec = _RULES[rule]
    attempts = spec.attempts if attempts is None else attempts
    repair = spec.repair if repair is None else repair
    if attempts < 1:
        raise InvalidOptionError(f"invalid attempts {attempts!r}: must be at least 1")
    board = problem.board
    if moves is not None:
        order = tuple(parse_moves(moves, board))
    elif spec.moves is not None and board.leaper == KNIGHT:
        order = spec.moves
    else:
        order = board.offsets
    certificate = _cheap_certificate(problem)
    if certificate is not None:  # a proof by counting, not the heuristic's verdict
        return problem.absent(certificate)
    rng = random.Random(0 if seed is None else seed)
    search_problem = problem.searched_from_end()
    stats: dict[str, Any] = {"attempts": 0, "steps": 0}
    try:
        walk = _Walk(search_problem, rng, spec, budget, order, 0 if seed is None else seed)
        for attempt in range(1, attempts + 1):
            walk.reset(attempt)
            start = search_problem.start
            if start is None:
                start = _free_start(search_problem, rng, first=attempt == 1)
            done = _attempt(walk, start, repair)
            stats.update(attempts=attempt, steps=walk.steps)
            budget.report(stats)
            if done:
                return problem.found(walk.path, stats)
    except _OutOfBudget as stop:
        stats["steps"] = stop.steps
        return problem.aborted(f"Warnsdorff {stop}", stats)
    return problem.aborted(
        f"the {rule} rule found no {problem.describe()} in {attempts} attempts; "
        "this does not mean none exists",
        stats,
    )
