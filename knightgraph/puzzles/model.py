"""A knight's-tour number puzzle: a board, some squares numbered, open or closed.

A *solution* of a puzzle on an ``m x n`` board numbers the squares ``1 .. mn`` along a
knight's tour (open, or closed when the puzzle says so) such that every clue square carries
its clue.  :class:`Puzzle` checks a puzzle when it is built and refuses, with one sentence
naming the clues, what no solution could ever satisfy for a plain reason: a number given
twice, a number outside ``1 .. mn``, a square given twice, a square off the board, and two
clues that no knight's path can join (``k`` and ``k + d`` on squares more than ``d`` knight
moves apart, or an odd number of moves apart when ``d`` is even, or the other way round: a
knight changes colour at every move).  :meth:`Puzzle.defect` checks a proposed solution's
clues, with code of its own (the verifier checks the tour).

Examples
--------
>>> p = Puzzle(3, 4, {"a1": 1, "d3": 12})
>>> p, p.size, p.clue_count
(Puzzle(3, 4, clues={'a1': 1, 'd3': 12}), 12, 2)
>>> Puzzle(3, 4, {"a1": 1, "b1": 2})
Traceback (most recent call last):
...
knightgraph.exceptions.InvalidPuzzleError: invalid puzzle: clues 1 at a1 and 2 at b1 are not a knight's move apart
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..boards.board import Board
from ..boards.squares import Square, is_whole, square_name
from ..exceptions import InvalidBoardError, InvalidPuzzleError, InvalidSquareError

__all__ = ["MAX_SQUARES", "InvalidPuzzleError", "Puzzle"]

MAX_SQUARES = 100
"""Most squares of a puzzle's board (10 x 10): the encoding has ``(mn)^2`` variables and
about ``(mn)^3`` clauses (a million at 10 x 10)."""


def _bad(why: str) -> InvalidPuzzleError:
    return InvalidPuzzleError(f"invalid puzzle: {why}")


class Puzzle:
    """A knight's-tour number puzzle, checked when built; immutable.

    Parameters
    ----------
    rows, cols : int
        The board's ranks and files; at most :data:`MAX_SQUARES` squares.
    clues : mapping
        Square (a name like ``"a1"``, ``"r,c"`` or an ``(r, c)`` pair) to its number, a
        whole number in ``1 .. rows * cols``.
    closed : bool
        Whether the solution is a closed tour (number ``mn`` a knight's move from ``1``).

    Raises
    ------
    InvalidPuzzleError
        For a bad size, square or number, a square or number given twice, or two clues
        that no knight's path can join (the message names them).

    Notes
    -----
    The distance check compares consecutive clues (by number) only: if each consecutive
    pair can be joined, every pair can (the distances add up, and so do the parities).
    For a closed puzzle the last clue must also reach the first within the moves left
    around the cycle, unless the board has an odd number of squares: no closed tour
    exists then at all, which a solver proves (a colour count), not a file check.

    Examples
    --------
    >>> p = Puzzle(5, 5, {(0, 0): 1, "c2": 2}, closed=False)
    >>> p.clues[(1, 2)], p.name((1, 2)), p.number_at(0)
    (2, 'c2', 1)
    >>> Puzzle(8, 8, {"a1": 1, "h8": 4})
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidPuzzleError: invalid puzzle: clues 1 at a1 and 4 at h8 are 6 knight's moves apart, more than 3
    """

    __slots__ = ("_clues", "closed", "cols", "rows")

    rows: int
    cols: int
    closed: bool
    _clues: Mapping[Square, int]

    def __init__(
        self, rows: int, cols: int, clues: Mapping[Any, int] | None = None, *, closed: bool = False
    ) -> None:
        for what, value in (("rows", rows), ("cols", cols)):
            if not is_whole(value) or value < 1:
                raise _bad(f"{what} must be a whole number >= 1, not {value!r}")
        if rows * cols > MAX_SQUARES:
            raise _bad(
                f"a {rows}x{cols} board has {rows * cols} squares; puzzles take at most "
                f"{MAX_SQUARES}"
            )
        if not isinstance(closed, bool):
            raise _bad(f"closed must be true or false, not {closed!r}")
        board = Board(int(rows), int(cols))
        found: dict[Square, int] = {}
        where: dict[int, Square] = {}
        for key, number in dict(clues or {}).items():
            try:
                square = board.parse_square(key)
            except (InvalidSquareError, InvalidBoardError) as err:
                raise _bad(str(err)) from None
            name = square_name(*square)
            if not is_whole(number):
                raise _bad(f"the clue at {name} is {number!r}, not a whole number")
            if not 1 <= number <= board.area:
                raise _bad(
                    f"the clue {number} at {name} is out of range: the {rows}x{cols} board "
                    f"takes 1..{board.area}"
                )
            if square in found:
                raise _bad(f"{name} is given twice ({found[square]} and {number})")
            if number in where:
                raise _bad(
                    f"the number {number} is given twice ({square_name(*where[number])} and {name})"
                )
            found[square], where[int(number)] = int(number), square
        object.__setattr__(self, "rows", int(rows))
        object.__setattr__(self, "cols", int(cols))
        object.__setattr__(self, "closed", closed)
        object.__setattr__(self, "_clues", MappingProxyType(dict(sorted(found.items()))))
        self._check_distances(board)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot set Puzzle.{name}: a puzzle is immutable")

    @property
    def clues(self) -> Mapping[Square, int]:
        """The clues, ``(r, c)`` to number (read-only)."""
        return self._clues

    @property
    def size(self) -> int:
        """The number of squares, ``rows * cols``: the numbers run ``1 .. size``."""
        return self.rows * self.cols

    @property
    def clue_count(self) -> int:
        """How many squares are numbered."""
        return len(self._clues)

    def board(self) -> Board:
        """The puzzle's board."""
        return Board(self.rows, self.cols)

    def name(self, square: Square) -> str:
        """The algebraic name of ``(r, c)``."""
        return square_name(*square)

    def number_at(self, index: int) -> int | None:
        """The clue on the square of flat index ``r * cols + c``, or None."""
        return self._clues.get(divmod(index, self.cols))

    def named_clues(self) -> dict[str, int]:
        """The clues by square name, in square order (``{"a1": 1, ...}``)."""
        return {self.name(s): k for s, k in self._clues.items()}

    def with_clues(self, squares: Iterable[Square], numbers: Mapping[Square, int]) -> Puzzle:
        """The puzzle on the same board with the clues ``numbers[s]`` for ``s`` in ``squares``."""
        return Puzzle(self.rows, self.cols, {s: numbers[s] for s in squares}, closed=self.closed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        key = (self.rows, self.cols, self.closed, dict(self._clues))
        return key == (other.rows, other.cols, other.closed, dict(other._clues))

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self.closed, tuple(self._clues.items())))

    def __repr__(self) -> str:
        closed = ", closed=True" if self.closed else ""
        return f"Puzzle({self.rows}, {self.cols}, clues={self.named_clues()}{closed})"

    def defect(self, order: Sequence[int]) -> str | None:
        """Why ``order`` (flat squares in visiting order: number ``k`` on ``order[k - 1]``)
        breaks a clue, or None; the tour itself is the verifier's to check.

        Examples
        --------
        >>> p = Puzzle(3, 4, {"a1": 1})
        >>> p.defect([0] + list(range(1, 12))), p.defect(list(range(11, -1, -1)))
        (None, 'the clue 1 at a1 is not kept: a1 carries 12')
        """
        if len(order) != self.size:
            return f"{len(order)} squares numbered, not {self.size}"
        carries = {int(s): k for k, s in enumerate(order, 1)}
        for (r, c), number in self._clues.items():
            got = carries.get(r * self.cols + c)
            if got != number:
                return f"the clue {number} at {square_name(r, c)} is not kept: " + (
                    f"{square_name(r, c)} carries {got}" if got else "it is not numbered"
                )
        return None

    def _check_distances(self, board: Board) -> None:
        """Refuse two clues (consecutive by number) that no knight's path can join."""
        by_number = sorted((k, s) for s, k in self._clues.items())
        pairs = [(k1, s1, k2, s2, k2 - k1) for (k1, s1), (k2, s2) in itertools.pairwise(by_number)]
        if self.closed and len(by_number) >= 2 and self.size % 2 == 0:
            (k1, s1), (k2, s2) = by_number[-1], by_number[0]
            pairs.append((k1, s1, k2, s2, k2 + self.size - k1))  # round the cycle
        if not pairs:
            return
        table = board.move_table().tolist()
        for k1, s1, k2, s2, gap in pairs:
            steps = _distance(table, s1[0] * self.cols + s1[1], s2[0] * self.cols + s2[1])
            a, b = f"{k1} at {square_name(*s1)}", f"{k2} at {square_name(*s2)}"
            if steps is None:
                raise _bad(f"clues {a} and {b}: no knight's path joins their squares")
            if gap == 1 and steps != 1:
                raise _bad(f"clues {a} and {b} are not a knight's move apart")
            if steps > gap:
                raise _bad(f"clues {a} and {b} are {steps} knight's moves apart, more than {gap}")
            if (gap - steps) % 2:
                raise _bad(
                    f"clues {a} and {b}: {gap} moves cannot join them (every move changes "
                    f"the colour, and their squares are {steps} moves apart)"
                )


def _distance(table: list[list[int]], source: int, target: int) -> int | None:
    """Knight's moves from ``source`` to ``target`` on the board (breadth first), or None."""
    seen = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        if here == target:
            return seen[here]
        for there in table[here]:
            if there >= 0 and there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return None
