"""The SAT encoding of tours (:class:`TourCNF`): variables and clauses, no solver.

Shared by the strategies that ask a SAT solver (``sat``, the oracle of
``backtrack``, the blocks of ``divide``) through :func:`~knightgraph.solvers.incremental.solving`,
which holds the solver; it is not a strategy itself.

One boolean variable per move (edge) of the leaper graph says whether the
tour uses it.  A closed tour is a set of edges with exactly two at every
square that forms one cycle.  An open tour is turned into a closed one by a
*hub*: an extra vertex joined to every square allowed as an end (just the
start and the end when they are given); a Hamiltonian cycle through the hub is
a Hamiltonian path between its two neighbours.

"Exactly two at every vertex" is written out as clauses (:meth:`TourCNF.base_clauses`);
"one cycle" is not (it would need exponentially many): a solver's answer may consist
of several cycles (:meth:`TourCNF.cycles`), and then, for each cycle ``S``, the clause
"some edge leaving ``S`` is used" (:meth:`TourCNF.cuts`) is added, which every tour
satisfies, and the solver runs again.  When the cycles merge into one, the answer is a
tour; when the clauses become unsatisfiable, no tour exists.

Examples
--------
>>> from knightgraph import Board
>>> cnf = TourCNF(Board(3, 4), closed=True, keep_clauses=True)
>>> len(cnf.edges), sum(len(group) for group in cnf.base_clauses())
(14, 32)
>>> cnf.clauses[:2]  # a1 has two moves (variables 1 and 2): both are tour edges
[[2], [1]]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..boards.board import Board
from .clauses import DIRECT_LIMIT, counter, exactly_two, hub_clauses

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["TourCNF"]


class TourCNF:
    """The CNF of "a tour exists" for a board and request, built without a solver.

    Every clause the encoding hands out (:meth:`base_clauses`, :meth:`record`,
    :meth:`at_most`, :meth:`cuts`) is counted in :attr:`num_clauses` and, when
    ``keep_clauses``, kept in :attr:`clauses`: the CNF a certificate carries.

    Parameters
    ----------
    board : Board
    closed : bool
    start, end : int or None
        Flat indices of required ends.
    keep_clauses : bool
        Keep every clause in :attr:`clauses` (a certificate needs them, a search
        does not, and on large boards they are most of the memory).

    Attributes
    ----------
    edges : list of (int, int)
        The variables: edge ``k`` (variable ``k + 1``) joins these two vertices;
        vertex ``board.area`` is the hub (:attr:`hub`).
    incident : dict of int to list of int
        The variables of the edges at each vertex (the hub included for open tours).
    top : int
        The highest variable number in use (above ``len(edges)`` once a counter
        numbered auxiliary variables).
    auxiliary : bool
        True once a counter with auxiliary variables is used: the CNF can then
        no longer back a certificate.
    cut_sets : list of list of int
        The vertex set ``S`` of each cut clause, in order.
    clauses : list of list of int
        Every clause handed out, in order; empty unless ``keep_clauses``.
    num_clauses : int
        How many clauses were handed out.

    Examples
    --------
    >>> from knightgraph import Board
    >>> cnf = TourCNF(Board(3, 4), start=0, end=11)  # an open tour from a1 to d3
    >>> len(cnf.edges), cnf.edges[-2:]  # 14 moves and 2 hub edges
    (16, [(0, 12), (11, 12)])
    >>> groups = list(cnf.base_clauses())
    >>> cnf.num_clauses, groups[-1]  # the last group: both ends are joined to the hub
    (40, [[15], [16]])
    """

    def __init__(
        self,
        board: Board,
        closed: bool = False,
        start: int | None = None,
        end: int | None = None,
        *,
        keep_clauses: bool = False,
    ) -> None:
        self.board = board
        self.closed = closed
        self.start, self.end = start, end
        self.hub = board.area
        self.vertices = np.flatnonzero(board.available()).tolist()
        self.edges = self._graph_edges(board)
        if not closed:
            self.edges += self._hub_edges(start, end)
        self.index = {edge: k + 1 for k, edge in enumerate(self.edges)}
        self.incident: dict[int, list[int]] = {v: [] for v in [*self.vertices, self.hub]}
        for k, (u, v) in enumerate(self.edges):
            self.incident[u].append(k + 1)
            self.incident[v].append(k + 1)
        if closed:
            del self.incident[self.hub]
        self.top = len(self.edges)
        self.auxiliary = False
        self.cut_sets: list[list[int]] = []
        self._cut_keys: set[tuple[int, ...]] = set()  # every cut clause given, to give it once
        self._arrays: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None = None
        self.clauses: list[list[int]] = []
        self.keep_clauses = keep_clauses
        self.num_clauses = 0

    # -------------------------------------------------------------- the graph
    @staticmethod
    def _graph_edges(board: Board) -> list[tuple[int, int]]:
        table = board.move_table()
        return [(i, int(j)) for i, row in enumerate(table.tolist()) for j in row if j > i]

    def _hub_edges(self, start: int | None, end: int | None) -> list[tuple[int, int]]:
        ends = [s for s in (start, end) if s is not None]
        allowed = ends if len(ends) == 2 else self.vertices
        return [(v, self.hub) for v in allowed]

    def var(self, u: int, v: int) -> int:
        """The variable of edge ``{u, v}``; KeyError if there is no such move."""
        return self.index[(u, v) if u < v else (v, u)]

    # ------------------------------------------------------------ the clauses
    def base_clauses(self) -> Iterator[list[list[int]]]:
        """The clauses of "exactly two tour edges at every vertex" and of the required ends,
        one list per vertex of :attr:`incident` (in its order), then one for the ends.

        A generator: the caller may stop between two vertices (at a timeout), and a
        large board's clauses need not all be in memory at once.
        """
        for vertex, literals in self.incident.items():
            if vertex == self.hub and len(literals) > DIRECT_LIMIT:
                yield self.record(self._counted(hub_clauses(literals, self.top)))
            else:
                yield self.record(self._counted(exactly_two(literals, self.top)))
        start, end = self.start, self.end
        if not self.closed:
            ends = [[self.var(self.hub, square)] for square in (start, end) if square is not None]
            yield self.record(ends)
        elif start is not None and end is not None:
            yield self.record([[self.var(start, end)]])

    def _counted(
        self, built: tuple[list[list[int]], int], counter: bool = False
    ) -> list[list[int]]:
        """The clauses of a builder of :mod:`.clauses`.  When it numbered auxiliary variables
        (or is a ``counter``), the CNF can no longer back a certificate (:attr:`auxiliary`)."""
        clauses, top = built
        if counter or top > self.top:
            self.top, self.auxiliary = max(top, self.top), True
        return clauses

    def record(self, clauses: list[list[int]]) -> list[list[int]]:
        """Count ``clauses`` as part of the CNF (and keep them when asked); returns them."""
        self.num_clauses += len(clauses)
        if self.keep_clauses:
            self.clauses += clauses
        return clauses

    def at_most(self, literals: Sequence[int], bound: int) -> list[list[int]]:
        """The clauses of "at most ``bound`` of ``literals``" (auxiliary variables: no
        certificate)."""
        return self.record(
            self._counted(counter("atmost", literals, bound, self.top), counter=True)
        )

    def cuts(self, cycles: Iterable[list[int]]) -> list[list[int]]:
        """The cut clause of each cycle (see :meth:`_cut`); the cycles join :attr:`cut_sets`."""
        cycles = list(cycles)
        self.cut_sets.extend(cycles)
        clauses = [self._cut(cycle) for cycle in cycles]
        self._cut_keys.update(tuple(clause) for clause in clauses)
        return self.record(clauses)

    def orbit_cuts(
        self, cycles: Iterable[list[int]], symmetries: Sequence[Sequence[int]]
    ) -> list[list[int]]:
        """The cut clauses of the cycles and of their images under ``symmetries`` (vertex
        permutations of the graph; the hub stays), each clause once, none given before.

        Any vertex set gives a cut clause that every tour satisfies, so the images need no
        argument of their own: the symmetries only choose sets that are likely to matter.

        Examples
        --------
        >>> from knightgraph import Board
        >>> cnf = TourCNF(Board(3, 4), closed=True)
        >>> mirror = [4 * r + 3 - c for r in range(3) for c in range(4)]  # a1 <-> d1, ...
        >>> cnf.orbit_cuts([[0]], [list(range(12)), mirror])  # {a1}: its moves; {d1}: its
        [[1, 2], [9, 10]]
        >>> cnf.orbit_cuts([[3]], [list(range(12)), mirror]), cnf.cut_sets  # nothing new
        ([], [[0], [3]])
        """
        sets, clauses = [], []
        seen: set[frozenset[int]] = set()  # the images of this call (a cycle's stabiliser)
        for cycle in cycles:
            for perm in symmetries:
                image = [v if v == self.hub else perm[v] for v in cycle]
                members = frozenset(image)
                if members in seen:
                    continue
                seen.add(members)
                clause = self._cut(image)
                key = tuple(clause)
                if key not in self._cut_keys:
                    self._cut_keys.add(key)
                    sets.append(image)
                    clauses.append(clause)
        self.cut_sets.extend(sets)
        return self.record(clauses)

    def _cut(self, cycle: list[int]) -> list[int]:
        """The clause "some edge leaving this cycle is used", which every tour satisfies.

        Found from the cycle's own incident edges (O(cycle), in numpy over the incidence
        arrays of :meth:`_incidence`), in variable order.
        """
        starts, literals, ends = self._incidence()
        members = np.fromiter(cycle, dtype=np.int64, count=len(cycle))
        inside = np.zeros(len(starts) - 1, dtype=bool)
        inside[members] = True
        sizes = starts[members + 1] - starts[members]
        first = np.repeat(starts[members] - np.cumsum(sizes) + sizes, sizes)
        touching = literals[first + np.arange(int(sizes.sum()))]
        pair = ends[touching - 1]
        leaving = touching[~(inside[pair[:, 0]] & inside[pair[:, 1]])]
        return [int(k) for k in np.unique(leaving)]

    def _incidence(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The incident edges of every vertex as arrays, built once: ``literals[starts[v] :
        starts[v + 1]]`` are the variables of the edges at ``v`` (indices up to the hub),
        ``ends[k - 1]`` the two ends of edge ``k``."""
        if self._arrays is None or len(self._arrays[2]) != len(self.edges):
            size = self.hub + 1
            counts = np.zeros(size + 1, dtype=np.int64)
            for v, lits in self.incident.items():
                counts[v + 1] = len(lits)
            starts = np.cumsum(counts)
            literals = np.zeros(int(starts[-1]), dtype=np.int64)
            for v, lits in self.incident.items():
                literals[starts[v] : starts[v + 1]] = lits
            ends = np.array(self.edges, dtype=np.int64).reshape(-1, 2)
            self._arrays = (starts, literals, ends)
        return self._arrays

    # ------------------------------------------------------------ the answers
    def cycles(self, model: list[int]) -> list[list[int]]:
        """The cycles formed by the edges a solver's ``model`` chose, each as a vertex sequence
        (the model satisfies :meth:`base_clauses`: two chosen edges at every vertex).

        Each cycle starts at its first vertex in :attr:`incident`'s order and leaves it by
        the first chosen edge met there; O(V + E), with each vertex's two chosen
        neighbours kept in two flat lists.
        """
        chosen = {lit for lit in model[: len(self.edges)] if lit > 0}
        size = self.hub + 1
        one, two = [-1] * size, [-1] * size  # each vertex's first and second chosen neighbour
        edges = self.edges
        for lit in chosen:
            u, v = edges[lit - 1]
            if one[u] < 0:
                one[u] = v
            else:
                two[u] = v
            if one[v] < 0:
                one[v] = u
            else:
                two[v] = u
        seen = bytearray(size)
        cycles = []
        for first in self.incident:
            if seen[first]:
                continue
            cycle, previous, here = [first], -1, first
            seen[first] = 1
            while True:
                nxt = one[here]
                if nxt == previous and two[here] >= 0:
                    nxt = two[here]
                if nxt < 0:
                    raise ValueError(f"vertex {here} has no chosen edge")
                if nxt == first:
                    break
                cycle.append(nxt)
                seen[nxt] = 1
                previous, here = here, nxt
            cycles.append(cycle)
        return cycles

    def tour_order(self, cycle: list[int]) -> list[int]:
        """The tour (flat indices) from a cycle through every vertex (and the hub)."""
        if self.closed:
            return cycle
        at = cycle.index(self.hub)
        return cycle[at + 1 :] + cycle[:at]
