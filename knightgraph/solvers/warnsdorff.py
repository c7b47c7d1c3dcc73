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

This module holds the rules and the strategy; the walk itself, its rotations
and retreats are :mod:`knightgraph.solvers._walk`.

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
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..boards.board import KNIGHT, Board
from ..exceptions import InvalidOptionError
from ..proofs.certificates import closing_move_obstruction, partition_obstruction
from ..proofs.theorems import color_obstruction
from ..running.budget import Budget
from ..tours.results import Certificate, SearchResult
from ._walk import OutOfBudget, Rule, Walk, run_attempt
from .base import Problem, solver
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

SEED_003_MOVES = ((-1, -2), (-2, -1), (1, -2), (2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1))
"""Seed 003's list of the eight moves, (x-1, y-2) (x-2, y-1) ... (x+2, y+1), as (d_rank, d_file)."""

# Squirrel and Cull (1996), as in the code of D. Squirrel (github.com/douglassquirrel,
# warnsdorff and warnsdorff-scheme): for each n mod 8, move orders (the moves numbered
# 1..8 from two ranks up and one file right, clockwise: our `Board.offsets`) and the
# switch squares (row, column), row 1 at the top, after which the next order applies.
_SQUIRREL: dict[int, list[tuple[str, Callable[[int], tuple[int, int]] | None]]] = {
    0: [
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)),
        ("51342678", lambda n: (7, n - 3)),
        ("21435678", None),
    ],
    1: [
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 6, (n - 1) // 2 + 5)),
        ("32481765", None),
    ],
    2: [
        ("34261578", lambda n: (6, 1)),
        ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 15, 4)),
        ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (5, n // 2 - 3)),
        ("15746823", None),
    ],
    3: [
        ("34625718", lambda n: (n - 1, n - 2)),
        ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)),
        ("51867342", lambda n: (n - 10, 3)),
        ("61825437", lambda n: ((n - 1) // 2, n - 2)),
        ("71642538", None),
    ],
    4: [
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)),
        ("51342678", lambda n: (10, n - 5)),
        ("86753421", lambda n: (13, n // 2 + 1)),
        ("78563421", None),
    ],
    5: [
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 2, (n - 1) // 2 - (2 if n % 16 == 5 else 6))),
        ("15234678", None),
    ],
    6: [
        ("34261578", lambda n: (6, 1)),
        ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 10, 1)),
        ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (3, n // 2 + 4)),
        ("12453678", None),
    ],
    7: [
        ("34625718", lambda n: (n - 1, n - 2)),
        ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)),
        ("51867342", lambda n: (n - 6, 3)),
        ("61825437", lambda n: ((n - 1) // 2 + 1, n - 2)),
        ("61357284", None),
    ],
}


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


_RULES = {
    "roth": Rule(key="centre", randomize=True, repair=True),
    "random": Rule(randomize=True),
    "first": Rule(),
    "pohl": Rule(pohl=True),
    "squirrel": Rule(attempts=1, chain=_squirrel_chain),
    "border": Rule(border=True, key="edge", attempts=8, rotate_order=True, moves=SEED_003_MOVES),
}
"""Each rule name's :class:`~knightgraph.solvers._walk.Rule`."""


def _cheap_certificate(problem: Problem) -> Certificate | None:
    """The O(1) arguments (colours, the closing move, Schwenk's partition on narrow
    boards) that rule the request out before any walk is tried."""
    board, ends = problem.board, problem.ends()
    start, end = ends["start"], ends["end"]
    certificate = color_obstruction(board, closed=problem.closed, **ends)
    if certificate is None and problem.closed and start is not None and end is not None:
        certificate = closing_move_obstruction(board, start, end)
    if certificate is None:
        certificate = partition_obstruction(board, closed=problem.closed, **ends)
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

    Examples
    --------
    >>> from knightgraph import Board
    >>> res = warnsdorff(Board(50, 50), closed=True, seed=0)  # Posa rotations close it
    >>> res.found, res.tour.closed, res.stats["attempts"]
    (True, True, 1)

    A heuristic: when it fails, existence stays open (4x4 has no open tour,
    but the walk does not prove it):

    >>> warnsdorff(Board(4, 4), attempts=2).reason
    'the roth rule found no open tour on 4x4 in 2 attempts; this does not mean none exists'
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
        walk = Walk(search_problem, rng, spec, budget, order, 0 if seed is None else seed)
        for attempt in range(1, attempts + 1):
            walk.reset(attempt)
            start = search_problem.start
            if start is None:
                start = _free_start(search_problem, rng, first=attempt == 1)
            done = run_attempt(walk, start, repair)
            stats.update(attempts=attempt, steps=walk.steps)
            budget.report(stats)
            if done:
                return problem.found(walk.path, stats)
    except OutOfBudget as stop:
        stats["steps"] = stop.steps
        return problem.aborted(f"Warnsdorff {stop}", stats)
    return problem.aborted(
        f"the {rule} rule found no {problem.describe()} in {attempts} attempts; "
        "this does not mean none exists",
        stats,
    )
