"""Making puzzles whose solution is unique, proven, with as few clues as the search reaches.

:func:`make_puzzle` draws a random tour (a Warnsdorff walk with random tie-breaks from a
random square, else a tour of :func:`~knightgraph.find_tour` under a random symmetry),
numbers every square with it, and removes clues in a random order (of the seed) while the
tour stays the only solution: a clue goes when the puzzle's CNF, with the tour blocked and
the other clues assumed, is unsatisfiable.  It stops at ``clues`` clues, or when every clue
left is needed (the puzzle is then *minimal*: no clue can go; not necessarily the fewest
possible).  Then the uniqueness is proven afresh, with a DRUP proof logged and accepted by
the independent checker (:func:`~knightgraph.puzzles.solving.count_solutions` with the tour
listed): only that certificate, not the search, makes the claim.

Examples
--------
>>> answer = make_puzzle(5, 5, clues=4, seed=1)
>>> answer.status.name, answer.count, answer.puzzle.clue_count >= 4
('FOUND', 1, True)
>>> answer.certificate.kind, answer.stats["clues_reached"] == answer.puzzle.clue_count
('puzzle-refutation', True)
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..running.budget import Budget
from ..tours.results import Status
from .encoding import PuzzleCNF
from .model import InvalidPuzzleError, Puzzle
from .solving import PuzzleAnswer, count_solutions, sat_session, solve_sliced

__all__ = ["SEARCH_SHARE", "make_puzzle"]

SEARCH_SHARE = 0.6
"""Under a timeout, the share of it the clue removal may use; the proof gets the rest."""

WALKS = 200
"""Random Warnsdorff walks tried for the tour before asking :func:`~knightgraph.find_tour`."""


def make_puzzle(
    m: int,
    n: int,
    *,
    clues: int = 0,
    closed: bool = False,
    seed: int | None = None,
    tries: int = 1,
    timeout: float | None = None,
) -> PuzzleAnswer:
    """A puzzle on the ``m x n`` board whose solution is unique (proven and checked).

    Parameters
    ----------
    m, n : int
        The board (at most :data:`~knightgraph.puzzles.model.MAX_SQUARES` squares).
    clues : int
        Stop removing clues at this many (0: remove while any can go).
    closed : bool
        Make a puzzle whose solution is a closed tour.
    seed : int, optional
        The same seed, the same puzzle.
    tries : int
        Removal orders tried on the tour; the puzzle with the fewest clues is kept.
    timeout : float, optional
        Seconds for the whole work.

    Returns
    -------
    PuzzleAnswer
        FOUND: ``puzzle`` the puzzle made, ``solutions`` its one solution, ``exact`` True
        and ``certificate`` the checked refutation of a second solution; ``stats`` has
        ``clues_reached``, ``clues_asked``, ``tries``, ``seed``.  PROVEN_ABSENT when the
        board has no tour of the kind asked (``reason`` says why; ``certificate`` is the
        tour search's).  ABORTED when the timeout passed before a proof.

    Raises
    ------
    InvalidPuzzleError
        For a board too large or small, ``clues`` out of ``0 .. mn`` or ``tries`` below 1.

    Examples
    --------
    >>> answer = make_puzzle(6, 6, clues=6, seed=3)
    >>> answer.puzzle.clue_count >= 6 and answer.unique
    True
    >>> make_puzzle(5, 5, closed=True).status.name  # no closed tour on an odd board
    'PROVEN_ABSENT'
    """
    began = time.monotonic()
    empty = Puzzle(m, n, closed=closed)
    if isinstance(clues, bool) or not isinstance(clues, int) or not 0 <= clues <= empty.size:
        raise InvalidPuzzleError(
            f"invalid clues {clues!r}: expected a whole number in 0..{empty.size}"
        )
    if isinstance(tries, bool) or not isinstance(tries, int) or tries < 1:
        raise InvalidPuzzleError(f"invalid tries {tries!r}: expected a whole number >= 1")
    rng = random.Random(seed)
    order, absent = _tour(empty, rng, seed, timeout)
    if order is None:
        assert absent is not None
        return PuzzleAnswer(
            empty,
            absent.status,
            certificate=absent.certificate,
            reason=absent.reason,
            seconds=time.monotonic() - began,
        )
    number = {s: k for k, s in enumerate(order, 1)}
    search = Budget.make(timeout=None if timeout is None else timeout * SEARCH_SHARE)
    kept, done = _remove_clues(empty, order, clues, tries, rng, search)
    squares = {divmod(s, n): number[s] for s in kept}
    puzzle = Puzzle(m, n, squares, closed=closed)
    left = None if timeout is None else max(0.0, timeout - (time.monotonic() - began))
    answer = count_solutions(puzzle, limit=2, timeout=left, avoid=[order])
    stats: dict[str, Any] = {
        **answer.stats,
        "clues_asked": clues,
        "clues_reached": puzzle.clue_count,
        "tries": done,
        "seed": seed,
        "seconds": time.monotonic() - began,
    }
    if answer.status is Status.FOUND and not answer.exact:
        from ..exceptions import InternalError

        raise InternalError("internal error: the puzzle made has a second solution")
    return PuzzleAnswer(
        puzzle,
        answer.status,
        answer.solutions,
        answer.exact,
        answer.certificate,
        answer.reason if answer.status is Status.ABORTED else "the solution is unique",
        stats["seconds"],
        stats,
    )


def _tour(empty: Puzzle, rng: random.Random, seed: int | None, timeout: float | None) -> Any:
    """A random tour's order (flat squares), or ``(None, the search's result)``."""
    board = empty.board()
    moves = [[int(t) for t in row if t >= 0] for row in board.move_table()]
    order = _walk(moves, empty.closed, rng)
    if order is None:
        from ..solvers import find_tour

        result = find_tour(board, closed=empty.closed, seed=seed, timeout=timeout)
        if result.tour is None:
            return None, result
        symmetries = board.symmetries()
        image = symmetries[rng.choice(sorted(symmetries))]
        order = [int(image[s]) for s in result.tour.order]
    if empty.closed:  # any square may carry the 1, either way round
        shift = rng.randrange(len(order))
        order = order[shift:] + order[:shift]
    if rng.random() < 0.5:
        order.reverse()
    return order, None


def _walk(moves: list[list[int]], closed: bool, rng: random.Random) -> list[int] | None:
    """A tour by Warnsdorff's rule with random tie-breaks from random squares, or None."""
    size = len(moves)
    for _ in range(WALKS):
        here = rng.randrange(size)
        order, seen = [here], {here}
        free = [len(row) for row in moves]
        for t in moves[here]:
            free[t] -= 1
        while len(order) < size:
            options = [t for t in moves[here] if t not in seen]
            if not options:
                break
            low = min(free[t] for t in options)
            here = rng.choice([t for t in options if free[t] == low])
            order.append(here)
            seen.add(here)
            for t in moves[here]:
                free[t] -= 1
        if len(order) == size and (not closed or order[0] in moves[order[-1]]):
            return order
    return None


def _remove_clues(
    empty: Puzzle,
    order: list[int],
    target: int,
    tries: int,
    rng: random.Random,
    budget: Budget,
) -> tuple[list[int], int]:
    """The clue squares kept (fewest over ``tries`` removal orders) and the tries done.

    Each test asks a solver holding the CNF and the tour's blocking clause whether another
    numbering keeps the other clues (given as assumptions: one solver for every test);
    its answers steer the search only, the final proof is made and checked afresh."""
    cnf = PuzzleCNF(empty)
    literal = {s: cnf.var(s, k) for k, s in enumerate(order, 1)}
    best = list(order)
    done = 0
    with sat_session(cnf, budget, proof=False) as sat:
        if sat is None:
            return best, done
        sat.add_clause(cnf.blocking(order))
        for _ in range(tries):
            kept = set(order)
            queue = list(order)
            rng.shuffle(queue)
            finished = True
            for square in queue:
                if len(kept) <= target:
                    break
                kept.discard(square)
                outcome = solve_sliced(sat, budget, [literal[s] for s in kept])
                if outcome is not False:  # another solution, or out of time: keep it
                    kept.add(square)
                if outcome is None:
                    finished = False
                    break
            done += finished
            if len(kept) < len(best):
                best = sorted(kept)
            if budget.out_of_time() or len(best) <= target:
                break
    return best, max(done, 1)
