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

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ..exceptions import InvalidOptionError
from ..existence import colour_obstruction
from ..proofs import closing_move_obstruction, partition_obstruction
from ..tour import SearchResult
from .base import Budget, Problem, solver

__all__ = ["RULES", "warnsdorff"]

RULES = ("roth", "random", "first", "pohl")
"""Tie-break rules among squares of equal onward degree:

``roth`` (the default) the farthest from the centre of the board, then a
seeded random choice; ``random`` a seeded random choice; ``first`` the first
in the move order; ``pohl`` (Pohl 1967) the smallest sum of the onward
degrees of its own unvisited neighbours, then a seeded random choice."""


class _OutOfBudget(Exception):
    def __init__(self, why: str, steps: int) -> None:
        super().__init__(why)
        self.steps = steps


_CHECK_EVERY = 4096  # moves between budget checks


class _Walk:
    """The path under construction: order, positions, and onward degrees.

    The tables are built once per search; :meth:`reset` starts a new attempt.
    Missing moves point at a sentinel square ``m * n`` that counts as visited,
    so the move lists come straight from the move table without filtering.
    """

    def __init__(self, problem: Problem, rng: random.Random, rule: str, budget: Budget) -> None:
        board = problem.board
        self.problem = problem
        self.rng = rng
        self.budget = budget
        self.total = board.num_squares
        table = board.move_table()
        self.full_degree = [*(table >= 0).sum(axis=1).tolist(), 0]
        table[table < 0] = board.area
        self.targets: list[list[int]] = table.tolist()
        del table
        self.degree: list[int] = []
        self.visited = bytearray(board.area + 1)
        self.path = np.empty(self.total, dtype=np.int64)
        self.pos = np.full(board.area + 1, -1, dtype=np.int64)
        self.length = 0
        self.steps = 0
        self.next_check = 0
        self.choose = self._chooser(rule, board.m, board.n)
        self.check_budget()

    def reset(self) -> None:
        """Empty the path for a new attempt (the step count goes on)."""
        self.degree[:] = self.full_degree
        self.visited[:] = bytes(len(self.visited))
        self.visited[-1] = 1  # the sentinel
        self.pos.fill(-1)
        self.length = 0

    def check_budget(self) -> None:
        """Raise ``_OutOfBudget`` when the budget is spent."""
        why = self.budget.exceeded(self.steps)
        if why:
            raise _OutOfBudget(why, self.steps)
        limit = self.budget.limit
        self.next_check = self.steps + (_CHECK_EVERY if limit is None else min(_CHECK_EVERY, 64))

    # ------------------------------------------------------------- the rule
    def _chooser(self, rule: str, m: int, n: int) -> Callable[[list[int]], int]:
        targets, visited, rng = self.targets, self.visited, self.rng

        def onward_sum(t: int) -> int:
            degree = self.degree
            return sum(degree[u] for u in targets[t] if not visited[u])

        def nearness_to_centre(t: int) -> int:
            r, c = divmod(t, n)
            return -((2 * r - m + 1) ** 2 + (2 * c - n + 1) ** 2)

        keys: dict[str, Callable[[int], int] | None] = {
            "first": None,
            "random": None,
            "pohl": onward_sum,
            "roth": nearness_to_centre,
        }
        key = keys[rule]

        def choose(ties: list[int]) -> int:
            if len(ties) > 1 and key is not None:
                best = min(key(t) for t in ties)
                ties = [t for t in ties if key(t) == best]
            if len(ties) == 1 or rule == "first":
                return ties[0]
            return rng.choice(ties)

        return choose

    def visit(self, square: int) -> None:
        """Append ``square`` to the path."""
        self.visited[square] = 1
        self.path[self.length] = square
        self.pos[square] = self.length
        self.length += 1
        for u in self.targets[square]:
            self.degree[u] -= 1

    def next_square(self, here: int) -> int | None:
        """Warnsdorff's choice from ``here`` (a required end only as the last square)."""
        end = self.problem.end
        best: list[int] = []
        low = 99
        for t in self.targets[here]:
            if self.visited[t] or (t == end and self.length < self.total - 1):
                continue
            d = self.degree[t]
            if d < low:
                low, best = d, [t]
            elif d == low:
                best.append(t)
        return self.choose(best) if best else None

    def extend(self) -> None:
        """Follow the rule from the current end until stuck or complete."""
        here = int(self.path[self.length - 1])
        while self.length < self.total:
            nxt = self.next_square(here)
            if nxt is None:
                return
            self.visit(nxt)
            here = nxt
            self.steps += 1
            if self.steps >= self.next_check:
                self.check_budget()

    def retreat(self, count: int) -> None:
        """Take the last ``count`` squares off the path (never the first), then step
        from the new end to a random open neighbour, so that the walk goes elsewhere."""
        for _ in range(min(count, self.length - 1)):
            self.length -= 1
            square = int(self.path[self.length])
            self.visited[square] = 0
            self.pos[square] = -1
            for u in self.targets[square]:
                self.degree[u] += 1
        here = int(self.path[self.length - 1])
        end = self.problem.end
        options = [
            t
            for t in self.targets[here]
            if not self.visited[t] and (t != end or self.length == self.total - 1)
        ]
        if options:
            self.visit(self.rng.choice(options))
        self.steps += 1

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
        free = np.frombuffer(self.visited, dtype=np.uint8)[:-1] == 0
        return np.flatnonzero(free & self.problem.board.available()).tolist()

    def first_contact(self, holes: list[int]) -> int:
        """The earliest path position next to any of ``holes``."""
        pos = self.pos
        return min(
            (int(pos[u]) for h in holes for u in self.targets[h] if pos[u] >= 0),
            default=self.length - 1,
        )

    def has_exit(self, square: int) -> bool:
        """True if ``square`` has an unvisited neighbour the walk may enter now."""
        end = self.problem.end
        return any(
            not self.visited[u] and (u != end or self.length == self.total - 1)
            for u in self.targets[square]
        )


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
        if behind > patience and walk.rotate_until(walk.has_exit, patience, toward=holes):
            walk.extend()
            continue
        # The holes were walled in by the recent walk (or rotations failed): undo that
        # part of the walk and take another way.
        retreats += 1
        walk.retreat(behind if behind <= patience else walk.rng.randint(1, 8))
        walk.extend()
    nbr_of_start = set(walk.targets[start])
    if problem.closed:
        ok: Callable[[int], bool] = nbr_of_start.__contains__
    else:
        return True  # a required end was kept for the last square
    if not repair:
        return ok(int(walk.path[-1]))
    return walk.rotate_until(ok, max(1000, walk.total // 4), toward=[start])


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
            colour_obstruction(board, start=square) is None
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
    attempts: int = 20,
    repair: bool = True,
) -> SearchResult:
    """Warnsdorff's rule with a tie-break rule, restarts, and optional Posa rotations.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature; ``seed`` drives the random tie-break and
        random rotations (the same seed gives the same tour; None means 0);
        ``limit`` counts
        moves plus rotations over all attempts.
    rule : {"roth", "random", "first", "pohl"}
        How to choose among squares of equal onward degree (see :data:`RULES`).
    attempts : int
        Walks to try before giving up (each restarts with fresh random choices;
        without a start square each attempt also picks a new random start).
    repair : bool
        Use Posa rotations to get unstuck and to reach a closing square or the
        required end.  With ``repair=False`` this is the plain rule, and a
        closed tour is found only when a walk happens to end next to its start.

    Returns
    -------
    SearchResult
        FOUND, or ABORTED when all attempts fail (never PROVEN_ABSENT).

    Notes
    -----
    One walk costs O(mn) moves, each looking at up to eight squares.  A
    rotation reverses the tail of the path (numpy, O(mn) worst case); getting
    unstuck takes a few rotations, closing the tour needs the end to land on
    one of the start's neighbours, which the rotations find after about
    ``mn / 50`` tries on large boards (each rotation checks every new end it
    could produce and takes one next to the start when there is one).
    """
    if attempts < 1:
        raise InvalidOptionError(f"invalid attempts {attempts!r}: must be at least 1")
    if rule not in RULES:
        raise InvalidOptionError(f"invalid rule {rule!r}: choose from {', '.join(RULES)}")
    if problem.closed and problem.start is not None and problem.end is not None:
        board = problem.board
        closing = closing_move_obstruction(
            board, board.square(problem.start), board.square(problem.end)
        )
        if closing is not None:  # a cheap certificate, not the heuristic's verdict
            return problem.absent(closing)
    rng = random.Random(0 if seed is None else seed)
    search_problem, unwind = problem.from_required_end()
    stats: dict[str, Any] = {"attempts": 0, "steps": 0}
    try:
        walk = _Walk(search_problem, rng, rule, budget)
        for attempt in range(1, attempts + 1):
            walk.reset()
            start = search_problem.start
            if start is None:
                start = _free_start(search_problem, rng, first=attempt == 1)
            done = _attempt(walk, start, repair)
            stats.update(attempts=attempt, steps=walk.steps)
            budget.report(stats)
            if done:
                return problem.found(unwind(walk.path.tolist()), stats)
    except _OutOfBudget as stop:
        stats["steps"] = stop.steps
        return problem.aborted(f"Warnsdorff {stop}", stats)
    return problem.aborted(
        f"Warnsdorff's rule ({rule}) found no {problem.describe()} in {attempts} attempts; "
        "this does not mean none exists",
        stats,
    )
