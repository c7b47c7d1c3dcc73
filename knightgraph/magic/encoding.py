"""The SAT encoding of a magic tour (:class:`MagicCNF`): a numbering along a tour, and sums.

Variables, numbered in this order (the independent checker,
:mod:`knightgraph.certcheck.magic`, rebuilds the same ones from the board alone):

* ``x(s, k) = s * N + k``: square ``s`` (flat, ``r * n + c``) carries number ``k``
  (``1 .. N``, ``N = m * n``): the tour, exactly as a puzzle without clues
  (:mod:`knightgraph.puzzles.encoding`: "exactly one" by square and by number, pairwise;
  ``k`` and ``k + 1`` a knight's move apart, both ways; round the cycle when closed);
* ``g(s, t) = N * N + s * (N - 1) + t - 1`` for ``t = 2 .. N``: the number on ``s`` is at
  least ``t`` (the *order encoding*: ``g(s, 1)`` is true, ``g(s, N + 1)`` false), tied to
  ``x`` by ``g(s, t+1) -> g(s, t)``, ``x(s, k) -> g(s, k)``, ``x(s, k) -> not g(s, k+1)`` and
  ``g(s, k) and not g(s, k+1) -> x(s, k)``;
* for each line (:func:`~knightgraph.magic.rules.magic_lines`, in that order) a
  *totalizer*: the line's squares split in halves (``[lo, mid)``, ``[mid, hi)``, ``mid`` the
  lower middle) down to single squares; every part but the whole line gets variables
  ``y(v)``, "the part sums to at least ``v``", for ``v`` in ``lo+1 .. hi`` where ``[lo, hi]``
  bounds the part's sum: ``j`` distinct numbers sum to at least ``j (j+1) / 2`` and at most
  ``j (2N - j + 1) / 2``, and the rest of the line must make up the target ``T``.  Parts
  are numbered children first (left, right, then the part), each part's ``v`` upwards.

Clauses of a part ``c = a + b`` (``A(i)``: ``a >= i``; true below ``a``'s range, false above):
``A(i) and B(j) -> C(i+j)`` and ``not A(i+1) and not B(j+1) -> not C(i+j+1)`` over the
children's ranges, and ``C(v+1) -> C(v)``.  The whole line (``a + b = T``):
``A(i) -> not B(T-i+1)`` and ``not A(i) -> B(T-i+1)``.

Examples
--------
>>> cnf = MagicCNF(4, 4, "semi")
>>> cnf.num_vars, len(cnf.clauses())
(944, 14288)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from .rules import magic_lines, magic_sums

__all__ = ["MagicCNF"]

Literal = int | bool
"""A literal, or a constant: True (a part's sum is surely at least ``v``) or False."""


class MagicCNF:
    """The CNF of a magic tour of the ``m x n`` board (see the module's text).

    Parameters
    ----------
    m, n : int
    kind : str
        ``semi``, ``full``, ``files`` or ``ranks`` (checked by the caller).
    closed : bool

    Notes
    -----
    Sound and complete: the tour clauses make the numbering a tour (as for puzzles); the
    order variables ``g`` equal "the number is at least ``t``" in every model (the four
    clause kinds pin them to the one ``x`` true on the square); by induction up a part's
    tree, ``A(i) and B(j) -> C(i+j)`` makes ``C(v)`` true whenever the part's sum is at
    least ``v`` and the other kind makes it false whenever the sum is below ``v``, so the
    root's clauses hold exactly when ``a + b = T``.  The bounds only drop values no magic
    tour takes (every line sums to ``T``), so every magic tour extends to a model.
    Size: a part ``a + b`` has ``2 |a| |b|`` clauses for the sizes of its children's
    ranges, about ``1.5`` million over the 16 lines of the 8 x 8 board, besides the
    tour's ``N^3``.

    Examples
    --------
    >>> cnf = MagicCNF(1, 1, "full")
    >>> cnf.clauses(), cnf.decode([1])
    ([[1], [1], [1]], [0])
    """

    def __init__(self, m: int, n: int, kind: str, closed: bool = False) -> None:
        from ..boards.board import Board

        self.m, self.n, self.kind, self.closed = m, n, kind, closed
        self.size = m * n
        table = Board(m, n).move_table()
        self.moves = [[int(t) for t in row if t >= 0] for row in table]
        self.lines = magic_lines(m, n, kind)
        sums = magic_sums(m, n)
        self.targets = [
            int(sums["files" if name.startswith("file") else "ranks"]) for name, _ in self.lines
        ]
        self._first = self.size * self.size + self.size * (self.size - 1) + 1
        self._next = self._first
        self._last: int | None = None

    @property
    def num_vars(self) -> int:
        """Every variable: the tour's, the order encoding's and the totalizers'."""
        if self._last is None:
            for _ in self.sum_clauses():
                pass
        assert self._last is not None
        return self._last

    def var(self, square: int, number: int) -> int:
        """The variable of "``square`` (flat) carries ``number``" (``1 .. N``)."""
        return square * self.size + number

    def at_least(self, square: int, t: int) -> Literal:
        """``g(square, t)``: the number on ``square`` is at least ``t`` (a constant outside
        ``2 .. N``)."""
        if t <= 1:
            return True
        if t > self.size:
            return False
        return self.size * self.size + square * (self.size - 1) + t - 1

    def clauses(self) -> list[list[int]]:
        """Every clause: the tour's, the order encoding's, the sums'."""
        return list(self.iter_clauses())

    def iter_clauses(self) -> Iterator[list[int]]:
        """Every clause, generated one line's totalizer at a time (a caller watching the
        clock can stop between any two)."""
        yield from self.tour_clauses()
        yield from self.order_clauses()
        yield from self.sum_clauses()

    def sum_clauses(self) -> Iterator[list[int]]:
        """The totalizers of the lines, in the lines' order (their variables numbered as
        they are generated)."""
        self._next = self._first
        for (_, squares), target in zip(self.lines, self.targets, strict=True):
            yield from self._line(squares, target)
        self._last = self._next - 1

    def tour_clauses(self) -> Iterator[list[int]]:
        """The tour as a puzzle without clues (:mod:`knightgraph.puzzles.encoding`)."""
        size = self.size
        grid = np.arange(1, size * size + 1, dtype=np.int64).reshape(size, size)
        first, second = np.triu_indices(size, 1)
        for s in range(size):
            yield grid[s].tolist()
            yield from np.stack([-grid[s, first], -grid[s, second]], axis=1).tolist()
        for k in range(size):
            yield grid[:, k].tolist()
            yield from np.stack([-grid[first, k], -grid[second, k]], axis=1).tolist()
        for s in range(size):
            for k in range(1, size + 1):
                nxt = k + 1 if k < size else (1 if self.closed else None)
                if nxt is not None:
                    yield [-self.var(s, k), *(self.var(t, nxt) for t in self.moves[s])]
                before = k - 1 if k > 1 else (size if self.closed else None)
                if before is not None:
                    yield [-self.var(s, k), *(self.var(t, before) for t in self.moves[s])]

    def block_clauses(self) -> Iterator[list[int]]:
        """A restriction for the search of one tour (not a consequence of the sums): number 1
        on the colour of ``a1``, and each run ``4j+1 .. 4j+4`` of numbers inside one 4 x 4
        block of the board (both sides multiples of 4), as in Beverley's tour of 1848.

        The first is no loss (read backwards, a tour of an even board starts on the
        other colour, and its sums stay); the second is: it keeps only the tours of that
        form, so a search with it finds tours but proves nothing.  Variables ``b(j, q)``
        (run ``j`` in block ``q``) come after :attr:`num_vars`.

        Examples
        --------
        >>> sum(1 for _ in MagicCNF(4, 4, "semi").block_clauses())  # 128 + 4 x (1 + 4 x 16)
        388
        """
        m, n, size = self.m, self.n, self.size
        for s in range(size):
            r, c = divmod(s, n)
            for k in range(1, size + 1):
                if (r + c + k) % 2 == 0:  # an even number on a1's colour, or odd off it
                    yield [-self.var(s, k)]
        blocks = (m // 4) * (n // 4)
        first = self.num_vars + 1
        for j in range(size // 4):
            q = [first + j * blocks + b for b in range(blocks)]
            yield q
            yield from ([-q[a], -q[b]] for a in range(blocks) for b in range(a + 1, blocks))
            for k in range(4 * j + 1, 4 * j + 5):
                for s in range(size):
                    r, c = divmod(s, n)
                    yield [-self.var(s, k), q[(r // 4) * (n // 4) + c // 4]]

    def order_clauses(self) -> Iterator[list[int]]:
        """The order encoding ``g`` tied to ``x``."""
        for s in range(self.size):
            for k in range(1, self.size + 1):
                now, above, x = self.at_least(s, k), self.at_least(s, k + 1), self.var(s, k)
                yield from _clause([-x, now])
                yield from _clause([-x, _neg(above)])
                yield from _clause([_neg(above), now])
                yield from _clause([_neg(now), above, x])

    def _line(self, squares: Sequence[int], target: int) -> list[list[int]]:
        """The totalizer of one line (variables and clauses, see the module's text)."""
        size, length = self.size, len(squares)
        out: list[list[int]] = []

        def bounds(j: int) -> tuple[int, int]:
            low, high = j * (j + 1) // 2, j * (2 * size - j + 1) // 2
            rest_low = (length - j) * (length - j + 1) // 2
            rest_high = (length - j) * (2 * size - (length - j) + 1) // 2
            return max(low, target - rest_high), min(high, target - rest_low)

        def part(lo: int, hi: int) -> tuple[int, int, Literal | int, int]:
            """(low, high, first variable or the leaf's square marker, leaf square)."""
            if hi - lo == 1:
                return 1, size, 0, squares[lo]
            mid = (lo + hi) // 2
            left, right = part(lo, mid), part(mid, hi)
            a_lit, b_lit = self._ge(left), self._ge(right)
            la, ha, lb, hb = left[0], left[1], right[0], right[1]
            if hi - lo == length:  # the whole line: a + b = target
                for i in range(la, ha + 2):
                    out.extend(_clause([_neg(a_lit(i)), _neg(b_lit(target - i + 1))]))
                    out.extend(_clause([a_lit(i), b_lit(target - i + 1)]))
                return target, target, 0, -1
            lc, hc = bounds(hi - lo)
            if lc > hc:  # no sum fits (never for a line's own target): no model
                out.append([])
            base = self._next
            self._next += max(hc - lc, 0)
            node = (lc, hc, base, -1)
            c_lit = self._ge(node)
            for v in range(lc + 1, hc):
                out.append([-int(c_lit(v + 1)), int(c_lit(v))])
            for i in range(la, ha + 1):
                not_a, a_next = _neg(a_lit(i)), a_lit(i + 1)
                for j in range(lb, hb + 1):
                    out.extend(_clause([not_a, _neg(b_lit(j)), c_lit(i + j)]))
                    out.extend(_clause([a_next, b_lit(j + 1), _neg(c_lit(i + j + 1))]))
            return node

        part(0, length)
        return out

    def _ge(self, node: tuple[int, int, Literal | int, int]) -> Callable[[int], Literal]:
        low, high, base, square = node
        if square >= 0:
            return lambda v: self.at_least(square, v)

        def lit(v: int) -> Literal:
            if v <= low:
                return True
            if v > high:
                return False
            return int(base) + v - low - 1

        return lit

    def decode(self, model: Sequence[int]) -> list[int]:
        """The squares in the order of their numbers, from a satisfying assignment."""
        order = [-1] * self.size
        limit = self.size * self.size
        for literal in model:
            if 0 < literal <= limit:
                square, number = divmod(literal - 1, self.size)
                order[number] = square
        return order


def _neg(literal: Literal) -> Literal:
    return (not literal) if isinstance(literal, bool) else -literal


def _clause(literals: Sequence[Literal]) -> list[list[int]]:
    """The clause, as a list of none (a true literal in it) or one (false ones dropped)."""
    if any(lit is True for lit in literals):
        return []
    return [[int(lit) for lit in literals if lit is not False]]
