"""The seed-002 exercise: the first tour plain depth-first search finds, or ``Not Found``.

Input, three lines: the board size ``M N`` (ranks, files), the start square,
the end square (algebraic, like ``a1``).  Output: the squares of the first
tour from the start to the end that depth-first search meets when it tries
the moves in the seed's order, given as (d_file, d_rank)
``(2,1) (1,2) (2,-1) (-1,2) (1,-2) (-1,-2) (-2,1) (-2,-1)``; or ``Not Found``.

The answer is computed with the order-preserving pruning of
:func:`knightgraph.solvers.backtracking.backtrack` (``prune=True,
memo=True``): the same first tour as plain search, which would take hours on
boards of 10x10 and more.

Examples
--------
>>> print(solve_classic("5 5\\na1\\ne5\\n").text)
a1 c2 e1 d3 c5 e4 d2 b1 a3 b5 d4 e2 c3 a4 b2 d1 e3 d5 b4 a2 c1 b3 a5 c4 e5
>>> print(solve_classic("5 5\\na1\\nb1\\n").text)
Not Found
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boards.board import Board
from ..exceptions import InvalidBoardError, TourFormatError
from ..running.budget import Budget
from ..tours.results import SearchResult, Status
from .backtracking import backtrack

__all__ = ["SEED_002_MOVES", "ClassicAnswer", "solve_classic"]

SEED_002_MOVES = ((1, 2), (2, 1), (-1, 2), (2, -1), (-2, 1), (-2, -1), (1, -2), (-1, -2))
"""The seed's order as (d_rank, d_file): its (d_file, d_rank) pairs, swapped."""


@dataclass(frozen=True)
class ClassicAnswer:
    """The printed answer and the search behind it.

    Examples
    --------
    An open tour of 5x5 starts and ends on the 13 squares of a1's colour, so
    none ends on b1:

    >>> answer = solve_classic("5 5\\na1\\nb1\\n")
    >>> answer.text, answer.result.certificate.kind
    ('Not Found', 'colour-count')
    """

    text: str
    result: SearchResult


def solve_classic(text: str, *, timeout: float | None = None) -> ClassicAnswer:
    """Answer the exercise for its three input lines.

    Raises
    ------
    TourFormatError
        For missing lines or a malformed size (naming them).
    InvalidBoardError, InvalidSquareError
        For a size below 1 or squares off the board.

    Examples
    --------
    >>> answer = solve_classic("3 4\\na1\\nd3\\n")
    >>> answer.text, answer.result.method
    ('a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3', 'backtrack')
    >>> solve_classic("5 5\\na1\\n")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: expected three lines (M N, start, end), got 2: the end square is missing or empty
    """
    Budget.make(timeout)  # a bad timeout is refused before any work
    if not isinstance(text, str):
        raise TourFormatError(f"invalid input {text!r}: expected the text of three lines")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 3:
        missing = (
            "the size and both squares are",
            "the start and end squares are",
            "the end square is",
        )[len(lines)]
        raise TourFormatError(
            f"expected three lines (M N, start, end), got {len(lines)}: {missing} missing or empty"
        )
    if len(lines) > 3:
        raise TourFormatError(f"expected three lines, got {len(lines)}: {lines[3]!r} is extra")
    size = lines[0].split()
    if len(size) != 2 or not all(part.isdigit() for part in size):
        raise InvalidBoardError(f"invalid board size {lines[0]!r}: expected two whole numbers")
    board = Board(int(size[0]), int(size[1]))
    start, end = board.parse_square(lines[1]), board.parse_square(lines[2])
    if start == end and board.num_squares > 1:
        result = SearchResult(Status.ABORTED, reason="the start and the end are the same square")
        return ClassicAnswer("Not Found", result)
    result = backtrack(
        board, start=start, end=end, moves=SEED_002_MOVES, oracle=True, timeout=timeout
    )
    if result.tour is not None:
        return ClassicAnswer(" ".join(result.tour.algebraic()), result)
    if result.status is Status.PROVEN_ABSENT:
        return ClassicAnswer("Not Found", result)
    return ClassicAnswer(f"gave up: {result.reason}", result)
