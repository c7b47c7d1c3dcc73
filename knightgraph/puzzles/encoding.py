"""The SAT encoding of a puzzle (:class:`PuzzleCNF`): positional variables, plain clauses.

One variable ``x(s, k) = s * N + k`` says "square ``s`` carries number ``k``" (``s`` the
flat index ``r * cols + c``, ``k`` in ``1 .. N``, ``N = rows * cols``); there are no other
variables.  The clauses (:meth:`PuzzleCNF.clauses`):

1. every square carries a number, and at most one (one clause of ``N`` literals, and the
   ``C(N, 2)`` pairs "not both");
2. every number is on a square, and on at most one (the same, by number);
3. succession: ``x(s, k) -> OR x(t, k + 1)`` over the knight moves ``t`` of ``s``, for
   ``k < N``, and for a closed puzzle ``x(s, N) -> OR x(t, 1)``;
4. precedence: ``x(s, k) -> OR x(t, k - 1)`` for ``k > 1`` (and ``x(s, 1) -> OR
   x(t, N)`` for a closed puzzle); implied by the others, it helps the solver;
5. the clues, one unit clause ``x(s, k)`` each.

Blocking clauses (:meth:`PuzzleCNF.blocking`) rule out one numbering each: ``OR not
x(s, k_s)`` over every square.

Examples
--------
>>> from knightgraph.puzzles.model import Puzzle
>>> cnf = PuzzleCNF(Puzzle(3, 4, {"a1": 1}))
>>> cnf.num_vars, sum(1 for _ in cnf.clauses())
(144, 1873)
>>> cnf.var(0, 1), cnf.blocking(range(12))[:3]
(1, [-1, -14, -27])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from .model import Puzzle

__all__ = ["PuzzleCNF"]


class PuzzleCNF:
    """The positional CNF of a puzzle (see the module's text), built without a solver.

    Parameters
    ----------
    puzzle : Puzzle

    Attributes
    ----------
    size : int
        ``N``, the board's squares (and numbers).
    moves : list of list of int
        ``moves[s]``: the flat squares a knight's move from ``s``.

    Notes
    -----
    Sound and complete: the "exactly one" clauses of 1 and 2 make the numbering a
    bijection between squares and ``1 .. N``; 3 puts ``k + 1`` a knight's move from
    ``k``, so the squares in the order of their numbers form a knight's path through
    every square (a tour; closed by the last clause of 3), and 5 makes it keep the clues.
    Conversely every solution satisfies every clause, 4 included.  With no auxiliary
    variables, the independent checker (:mod:`knightgraph.certcheck.puzzles`) rebuilds the
    same clauses from the puzzle alone and checks a DRUP refutation against them.

    Examples
    --------
    >>> from knightgraph.puzzles.model import Puzzle
    >>> cnf = PuzzleCNF(Puzzle(1, 1))
    >>> list(cnf.clauses()), cnf.decode([1])
    ([[1], [1]], [0])
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.size = puzzle.size
        table = puzzle.board().move_table()
        self.moves = [[int(t) for t in row if t >= 0] for row in table]

    @property
    def num_vars(self) -> int:
        """``N * N`` variables."""
        return self.size * self.size

    def var(self, square: int, number: int) -> int:
        """The variable of "``square`` (flat) carries ``number``" (``1 .. N``)."""
        return square * self.size + number

    def clauses(self) -> Iterator[list[int]]:
        """Every clause of the encoding (the clues last), generated one group at a time."""
        size = self.size
        grid = np.arange(1, size * size + 1, dtype=np.int64).reshape(size, size)  # [s, k-1]
        first, second = np.triu_indices(size, 1)
        for s in range(size):  # 1: a number on every square, one at most
            yield grid[s].tolist()
            yield from np.stack([-grid[s, first], -grid[s, second]], axis=1).tolist()
        for k in range(size):  # 2: every number on a square, on one at most
            yield grid[:, k].tolist()
            yield from np.stack([-grid[first, k], -grid[second, k]], axis=1).tolist()
        closed = self.puzzle.closed
        for s in range(size):  # 3 and 4: succession and precedence
            for k in range(1, size + 1):
                nxt = k + 1 if k < size else (1 if closed else None)
                if nxt is not None:
                    yield [-self.var(s, k), *(self.var(t, nxt) for t in self.moves[s])]
                before = k - 1 if k > 1 else (size if closed else None)
                if before is not None:
                    yield [-self.var(s, k), *(self.var(t, before) for t in self.moves[s])]
        yield from self.clue_clauses()

    def clue_clauses(self) -> list[list[int]]:
        """The unit clauses of the clues (5)."""
        cols = self.puzzle.cols
        return [[self.var(r * cols + c, k)] for (r, c), k in self.puzzle.clues.items()]

    def blocking(self, order: Iterable[int]) -> list[int]:
        """The clause that rules out the numbering ``order`` (number ``k`` on ``order[k-1]``)."""
        return [-self.var(int(s), k) for k, s in enumerate(order, 1)]

    def decode(self, model: Sequence[int]) -> list[int]:
        """The squares in the order of their numbers, from a satisfying assignment."""
        order = [-1] * self.size
        for literal in model:
            if 0 < literal <= self.num_vars:
                square, number = divmod(literal - 1, self.size)
                order[number] = square
        return order
