"""A compact CNF for magic tours of one form: runs of four across a 4 x 4 block (:class:`QuartetCNF`).

On a board whose sides are multiples of 4, split into 4 x 4 blocks, a tour is of
*quartet form* when each run of four numbers ``4j+1 .. 4j+4`` is a knight's path inside
one block that visits each of the block's four ranks and four files once (a
*transversal*).  William Beverley's semi-magic 8 x 8 tour of 1848 is of this form (a
test checks it).  A 4 x 4 block has 24 such paths (48 read either way) on 12 sets of
squares, and 7 ways to split the block into four of those sets (:data:`PATHS`,
:func:`partitions`).

The form turns the sums into small ones.  Number ``4j + t + 1`` (``t`` in ``0 .. 3``) sits
at position ``t`` of run ``j``.  Every rank of a band of blocks (4 ranks) crosses each of the
band's ``n`` runs once, so it sums to ``4 J + T + n``, where ``J`` is the sum of the run
indices ``j`` over the band (the same for the band's 4 ranks) and ``T`` the sum of the
rank's positions ``t``.  Adding the band's 4 ranks, every rank has its sum
``n (N + 1) / 2`` exactly when ``J = n (N - 4) / 8`` for each band and ``T = 3n / 2`` for
each rank; likewise the files.  A long diagonal is ``4 S + T + n`` for the sums ``S`` of
its squares' runs and ``T`` of their positions.

The *nested* form asks more, as Beverley's tour has it: in each block the positions of
every rank and file sum to 6, and the four runs' indices sum alike in every block (to
``R (R - 1) / 2`` shared by the blocks, ``R = N / 4`` runs), so each block is semi-magic and
the board's ranks and files follow.

Variables (numbered as they are made): ``use(b, q)`` (block ``b`` splits along square set
``q``), ``run(b, q, j)`` (run ``j`` lies on it), ``way(b, q, p)`` (read as path ``p``),
``at(s, t)`` (square ``s`` has position ``t``), ``of(s, j)`` (square ``s`` is in run ``j``),
``first(s, j)`` and ``last(s, j)`` (run ``j`` starts, ends on ``s``), ``next(s, t)`` (the run
ending on ``s`` is followed by the one starting on ``t``), the order encodings of ``j`` and
``t`` per square, then the totalizers of the sums (as in
:mod:`knightgraph.magic.encoding`, cut to the values a sum can take).

Examples
--------
>>> len(PATHS), len({frozenset(p) for p in PATHS}), len(partitions())
(48, 12, 7)
>>> cnf = QuartetCNF(8, 8, "semi")
>>> cnf.runs, len(cnf.quartets)
(16, 48)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cache

from .rules import magic_sums

__all__ = ["PATHS", "QuartetCNF", "partitions"]

Node = tuple[int, int, Callable[[int], int | bool]]
"""A sum in the order encoding: (least value, greatest value, literal of "at least v")."""

_MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def _paths() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every knight's path of 4 squares of the 4 x 4 block in distinct ranks and files."""
    out: list[tuple[tuple[int, int], ...]] = []

    def grow(path: list[tuple[int, int]]) -> None:
        if len(path) == 4:
            if len({r for r, _ in path}) == 4 and len({c for _, c in path}) == 4:
                out.append(tuple(path))
            return
        r, c = path[-1]
        for dr, dc in _MOVES:
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < 4 and 0 <= nxt[1] < 4 and nxt not in path:
                grow([*path, nxt])

    for r in range(4):
        for c in range(4):
            grow([(r, c)])
    return tuple(sorted(out))


PATHS = _paths()
"""The 48 directed transversal knight's paths of a 4 x 4 block, as (rank, file) squares."""


@cache
def partitions() -> tuple[tuple[frozenset[tuple[int, int]], ...], ...]:
    """The ways to split the 4 x 4 block into four square sets of transversal paths.

    Examples
    --------
    >>> sorted(len(p) for p in partitions())
    [4, 4, 4, 4, 4, 4, 4]
    """
    sets = sorted({frozenset(p) for p in PATHS}, key=sorted)
    out = []
    for combo in itertools.combinations(sets, 4):
        if len(frozenset().union(*combo)) == 16:
            out.append(combo)
    return tuple(out)


class QuartetCNF:
    """The CNF of a magic tour of quartet form on the ``m x n`` board (see the module).

    Parameters
    ----------
    m, n : int
        Multiples of 4.
    kind : str
        ``semi``, ``full``, ``files`` or ``ranks`` (checked by the caller).
    closed : bool
    nested : bool
        Ask for the nested form (see the module's text): a smaller search, and a stronger
        restriction.

    Notes
    -----
    A restriction, not an encoding of every magic tour: a model is a magic tour (the tour
    clauses chain the runs by knight's moves; the sums are those of the module's text),
    but a board may have magic tours and none of this form, so "unsatisfiable" proves
    nothing about magic tours.  Size on 12 x 12: about 40,000 variables and 0.3 (nested,
    semi-magic) to 0.9 million clauses, against the tens of millions of
    :class:`~knightgraph.magic.encoding.MagicCNF` there.

    Examples
    --------
    >>> cnf = QuartetCNF(4, 8, "files", nested=True)
    >>> from pysat.solvers import Solver
    >>> with Solver(bootstrap_with=cnf.clauses()) as sat:
    ...     order = cnf.decode(sat.get_model()) if sat.solve() else None
    >>> from knightgraph.magic.rules import magic_defect
    >>> magic_defect(order, 4, 8, "files") is None  # every file sums to 66
    True
    """

    def __init__(
        self,
        m: int,
        n: int,
        kind: str,
        closed: bool = False,
        nested: bool = False,
    ) -> None:
        if m % 4 or n % 4 or m < 4 or n < 4:
            raise ValueError(f"the quartet form needs sides that are multiples of 4, not {m}x{n}")
        self.m, self.n, self.kind, self.closed = m, n, kind, closed
        self.nested = nested
        self.size = m * n
        self.runs = self.size // 4
        self._count = 0
        self._clauses: list[list[int]] = []
        sets = sorted({frozenset(p) for p in PATHS}, key=sorted)
        blocks = [(br, bc) for br in range(m // 4) for bc in range(n // 4)]
        # quartets: (block, local square set); their directed paths as flat squares
        self.quartets: list[tuple[tuple[int, int], frozenset[tuple[int, int]]]] = [
            (b, q) for b in blocks for q in sets
        ]
        self.paths: list[list[list[int]]] = [
            [[(b[0] * 4 + r) * n + b[1] * 4 + c for r, c in p] for p in PATHS if frozenset(p) == q]
            for b, q in self.quartets
        ]
        self.use = [self._new() for _ in self.quartets]
        self.run = [[self._new() for _ in range(self.runs)] for _ in self.quartets]
        self.way = [[self._new() for _ in ps] for ps in self.paths]
        self.at = [[self._new() for _ in range(4)] for _ in range(self.size)]
        self.of = [[self._new() for _ in range(self.runs)] for _ in range(self.size)]
        self._structure(blocks)
        self._chain()
        self._sums()

    def _new(self) -> int:
        self._count += 1
        return self._count

    @property
    def num_vars(self) -> int:
        """Every variable, those of the totalizers included."""
        return self._count

    def clauses(self) -> list[list[int]]:
        """Every clause."""
        return self._clauses

    def _exactly_one(self, literals: Sequence[int]) -> None:
        add = self._clauses.append
        add(list(literals))
        if len(literals) <= 6:
            for a, b in itertools.combinations(literals, 2):
                add([-a, -b])
            return
        # sequential counter: prefix p(i) = some of literals[0..i] true
        prefix = [self._new() for _ in literals[:-1]]
        for i, lit in enumerate(literals):
            if i < len(prefix):
                add([-lit, prefix[i]])
                if i > 0:
                    add([-prefix[i - 1], prefix[i]])
            if i > 0:
                add([-lit, -prefix[i - 1]])

    def _structure(self, blocks: list[tuple[int, int]]) -> None:
        """The split of each block, the run and reading of each quartet, each square's
        position and run."""
        add = self._clauses.append
        n = self.n
        holding: dict[int, list[int]] = {s: [] for s in range(self.size)}
        for i, (b, q) in enumerate(self.quartets):
            for r, c in q:
                holding[(b[0] * 4 + r) * n + b[1] * 4 + c].append(i)
        for s in range(self.size):  # the used sets split every block
            self._exactly_one([self.use[i] for i in holding[s]])
        for i in range(len(self.quartets)):
            for lits in (self.run[i], self.way[i]):
                add([-self.use[i], *lits])
                for lit in lits:
                    add([-lit, self.use[i]])
                for one, two in itertools.combinations(lits, 2):
                    add([-one, -two])
        for j in range(self.runs):  # each run on one quartet
            self._exactly_one([self.run[i][j] for i in range(len(self.quartets))])
        for s in range(self.size):
            place: list[list[int]] = [[] for _ in range(4)]
            for i in holding[s]:
                for p, squares in enumerate(self.paths[i]):
                    place[squares.index(s)].append(self.way[i][p])
            for t in range(4):  # at(s, t) <-> some reading puts s at t
                add([-self.at[s][t], *place[t]])
                for w in place[t]:
                    add([-w, self.at[s][t]])
            self._exactly_one(self.at[s])
            for j in range(self.runs):  # of(s, j) <-> some quartet holding s has run j
                add([-self.of[s][j], *(self.run[i][j] for i in holding[s])])
                for i in holding[s]:
                    add([-self.run[i][j], -self.use[i], self.of[s][j]])
            add(list(self.of[s]))

    def _chain(self) -> None:
        """Run ``j`` ends a knight's move from where run ``j + 1`` starts (and round the
        cycle when closed)."""
        from ..boards.board import Board

        add = self._clauses.append
        table = Board(self.m, self.n).move_table()
        moves = [[int(t) for t in row if t >= 0] for row in table]
        first = [[self._new() for _ in range(self.runs)] for _ in range(self.size)]
        last = [[self._new() for _ in range(self.runs)] for _ in range(self.size)]
        for s in range(self.size):
            for j in range(self.runs):
                for var, t in ((first[s][j], 0), (last[s][j], 3)):
                    add([-var, self.at[s][t]])
                    add([-var, self.of[s][j]])
                    add([var, -self.at[s][t], -self.of[s][j]])
        self._successors(moves)
        steps = [(j, j + 1) for j in range(self.runs - 1)]
        if self.closed:
            steps.append((self.runs - 1, 0))
        for j, k in steps:
            for s in range(self.size):
                add([-last[s][j], *(first[t][k] for t in moves[s])])
                add([-first[s][k], *(last[t][j] for t in moves[s])])

    def _successors(self, moves: list[list[int]]) -> None:
        """``next(s, t)``: the run ending on ``s`` is followed by the run starting on ``t``,
        a knight's move away; each end one successor, each start one predecessor (but the
        tour's own ends), and the run's index one more."""
        add = self._clauses.append
        last = self.runs - 1
        after: dict[int, list[int]] = {s: [] for s in range(self.size)}
        before: dict[int, list[int]] = {s: [] for s in range(self.size)}
        for s in range(self.size):
            for t in moves[s]:
                var = self._new()
                after[s].append(var)
                before[t].append(var)
                add([-var, self.at[s][3]])
                add([-var, self.at[t][0]])
                for j in range(self.runs):
                    k = j + 1 if j < last else (0 if self.closed else None)
                    if k is None:
                        add([-var, -self.of[s][j]])
                        add([-var, -self.of[t][0]])
                        continue
                    add([-var, -self.of[s][j], self.of[t][k]])
                    add([-var, -self.of[t][k], self.of[s][j]])
        for s in range(self.size):
            for group in (after[s], before[s]):
                for a, b in itertools.combinations(group, 2):
                    add([-a, -b])
            ends = [] if self.closed else [self.of[s][last]]
            starts = [] if self.closed else [self.of[s][0]]
            add([-self.at[s][3], *after[s], *ends])
            add([-self.at[s][0], *before[s], *starts])

    def _run_index(self, s: int) -> Node:
        """The run of square ``s`` in the order encoding (its variables made here)."""
        ge = [self._new() for _ in range(self.runs - 1)]  # ge[v-1]: run >= v
        add = self._clauses.append
        for v in range(1, len(ge)):
            add([-ge[v], ge[v - 1]])
        for j in range(self.runs):
            if j >= 1:
                add([-self.of[s][j], ge[j - 1]])
            if j + 1 < self.runs:
                add([-self.of[s][j], -ge[j]])
        return _leaf(0, self.runs - 1, ge)

    def _position(self, s: int) -> Node:
        """The position ``t`` of square ``s`` in its run, in the order encoding."""
        ge = [self._new() for _ in range(3)]
        add = self._clauses.append
        for v in range(1, 4):
            add([-ge[v - 1], *self.at[s][v:]])
            for t in range(v, 4):
                add([-self.at[s][t], ge[v - 1]])
        return _leaf(0, 3, ge)

    def _sums(self) -> None:
        """The band, rank, file and diagonal sums of the module's text."""
        m, n, size = self.m, self.n, self.size
        j_of = {s: self._run_index(s) for s in range(size)}
        t_of = {s: self._position(s) for s in range(size)}
        target = magic_sums(m, n)
        lines: list[tuple[list[int], int]] = []
        if self.kind in ("semi", "full", "ranks"):
            lines += [([r * n + c for c in range(n)], n) for r in range(m)]
        if self.kind in ("semi", "full", "files"):
            lines += [([r * n + c for r in range(m)], m) for c in range(n)]
        for squares, length in lines:
            half = len(squares) // 2
            first = squares[0] % self.n % 4 == 0 and squares[0] // self.n % 4 == 0
            if first and self.nested:  # each block's runs sum alike: (N/4)(N/4 - 1)/2 / blocks
                each = self.runs * (self.runs - 1) // 2 // (size // 16)
                for k in range(0, len(squares), 4):
                    js = [j_of[s] for s in squares[k : k + 4]]
                    self._equal(self._total(js[:2]), 1, self._total(js[2:]), 1, each)
            elif first:
                # the band's run sum J, once per band (its other 3 lines cross the same runs)
                js = [j_of[s] for s in squares]
                band = length * (size - 4) // 8
                self._equal(self._total(js[:half]), 1, self._total(js[half:]), 1, band)
            ts = [t_of[s] for s in squares]
            if self.nested:  # the positions sum to 6 in each block's part of the line
                for k in range(0, len(ts), 4):
                    self._equal(self._total(ts[k : k + 2]), 1, self._total(ts[k + 2 : k + 4]), 1, 6)
                continue
            self._equal(self._total(ts[:half]), 1, self._total(ts[half:]), 1, 3 * length // 2)
        if self.kind == "full":
            want = int(target["diagonals"]) - n
            for diagonal in ([i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]):
                places = self._total([t_of[s] for s in diagonal])
                low = -(-(want - places[1]) // 4)
                runs = self._total([j_of[s] for s in diagonal], low, want // 4)
                self._equal(runs, 4, places, 1, want)

    def _put(self, literals: Sequence[int | bool]) -> None:
        """A clause, its false constants dropped; none when a true one satisfies it."""
        if not any(lit is True for lit in literals):
            self._clauses.append([int(lit) for lit in literals if lit is not False])

    def _total(
        self, leaves: Sequence[Node], low: int | None = None, high: int | None = None
    ) -> Node:
        """The sum of the leaves as a totalizer (halves down to single leaves), its range
        cut to ``low .. high`` when given (the sum is then forced into it)."""
        if len(leaves) == 1 and low is None and high is None:
            return leaves[0]
        mid = max(len(leaves) // 2, 1)
        a = self._total(leaves[:mid])
        b = self._total(leaves[mid:]) if len(leaves) > 1 else _const(0)
        lo = a[0] + b[0] if low is None else max(low, a[0] + b[0])
        hi = a[1] + b[1] if high is None else min(high, a[1] + b[1])
        if lo > hi:
            self._clauses.append([])
            return _const(lo)
        node = _leaf(lo, hi, [self._new() for _ in range(hi - lo)])
        for v in range(lo + 1, hi):
            self._put([_neg(node[2](v + 1)), node[2](v)])
        for i in range(a[0], a[1] + 1):
            # a >= i and b >= j -> sum >= i + j, for i + j in lo+1 .. hi+1 (the rest follow)
            for j in range(max(b[0], lo + 1 - i), min(b[1], max(hi + 1 - i, b[0])) + 1):
                self._put([_neg(a[2](i)), _neg(b[2](j)), node[2](i + j)])
            # a <= i and b <= j -> sum <= i + j, for i + j in lo-1 .. hi
            for j in range(min(max(b[0], lo - 1 - i), b[1]), min(b[1], hi - i) + 1):
                self._put([a[2](i + 1), b[2](j + 1), _neg(node[2](i + j + 1))])
        return node

    def _equal(self, a: Node, wa: int, b: Node, wb: int, target: int) -> None:
        """``wa * a + wb * b = target``: for each value ``i`` of ``a``, ``a >= i`` bounds
        ``b`` above and ``a <= i`` bounds it below."""
        for i in range(a[0], a[1] + 1):
            rest = target - wa * i
            self._put([_neg(a[2](i)), _neg(b[2](rest // wb + 1))])  # b <= floor(rest / wb)
            self._put([a[2](i + 1), b[2](-(-rest // wb))])  # a <= i -> b >= ceil(rest / wb)

    def decode(self, model: Sequence[int]) -> list[int]:
        """The squares in the order of their numbers, from a satisfying assignment."""
        true = {lit for lit in model if lit > 0}
        order = [-1] * self.size
        for i in range(len(self.quartets)):
            if self.use[i] not in true:
                continue
            j = next(j for j in range(self.runs) if self.run[i][j] in true)
            p = next(p for p in range(len(self.paths[i])) if self.way[i][p] in true)
            for t, s in enumerate(self.paths[i][p]):
                order[4 * j + t] = s
        return order


def _leaf(low: int, high: int, ge: Sequence[int]) -> Node:
    """A value in ``low .. high`` whose "at least v" literals are ``ge`` (v = low+1 ..)."""

    def lit(v: int) -> int | bool:
        if v <= low:
            return True
        if v > high:
            return False
        return ge[v - low - 1]

    return low, high, lit


def _const(value: int) -> Node:
    return _leaf(value, value, [])


def _neg(literal: int | bool) -> int | bool:
    return (not literal) if isinstance(literal, bool) else -literal
