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

from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..boards.board import Board
from ..boards.csr import adjacency_tuples
from .clauses import DIRECT_LIMIT, counter, exactly_two, exactly_two_rows, hub_clauses

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
        vertices = np.flatnonzero(board.available())
        self.vertices = vertices.tolist()
        low, high = self._graph_edges(board)
        if not closed:
            ends = [s for s in (start, end) if s is not None]
            allowed = np.array(ends, dtype=np.int64) if len(ends) == 2 else vertices
            low = np.concatenate((low, allowed))
            high = np.concatenate((high, np.full(len(allowed), self.hub, dtype=np.int64)))
        self.edges = list(zip(low.tolist(), high.tolist(), strict=True))
        self._arrays = self._incidence_arrays(low, high)
        # The vertices in the order of :attr:`incident` (the hub last, for open tours).
        self._order = vertices if closed else np.append(vertices, self.hub)
        self._index: dict[tuple[int, int], int] | None = None
        self._incident: dict[int, list[int]] | None = None
        self.top = len(self.edges)
        self.auxiliary = False
        self.cut_sets: list[list[int]] = []
        self._cut_keys: set[tuple[int, ...]] = set()  # every cut clause given, to give it once
        self.clauses: list[list[int]] = []
        self.keep_clauses = keep_clauses
        self.num_clauses = 0

    # -------------------------------------------------------------- the graph
    @staticmethod
    def _graph_edges(board: Board) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The moves ``(i, j)``, ``i < j``, in the move table's order (row by row)."""
        table = np.asarray(board.move_table(), dtype=np.int64)
        rows = np.repeat(np.arange(len(table), dtype=np.int64), table.shape[1])
        cols = table.ravel()
        keep = cols > rows
        return rows[keep], cols[keep]

    def _incidence_arrays(
        self, low: NDArray[np.int64], high: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """See :meth:`_incidence`: a stable sort of the edges' ends by vertex, O(E log E)."""
        ends = np.stack((low, high), axis=1)
        at = ends.ravel()
        order = np.argsort(at, kind="stable")
        literals = (order // 2 + 1).astype(np.int64)
        starts = np.zeros(self.hub + 2, dtype=np.int64)
        np.cumsum(np.bincount(at, minlength=self.hub + 1), out=starts[1:])
        return starts, literals, ends

    @property
    def index(self) -> dict[tuple[int, int], int]:
        """The variable of each edge ``(i, j)``, ``i < j`` (built when first asked for)."""
        if self._index is None:
            self._index = {edge: k + 1 for k, edge in enumerate(self.edges)}
        return self._index

    @property
    def incident(self) -> dict[int, list[int]]:
        """The variables of the edges at each vertex, in variable order (the hub last, for
        open tours); built when first asked for."""
        if self._incident is None:
            starts, literals, _ = self._arrays
            flat, bounds = literals.tolist(), starts.tolist()
            self._incident = {v: flat[bounds[v] : bounds[v + 1]] for v in self._order.tolist()}
        return self._incident

    def var(self, u: int, v: int) -> int:
        """The variable of edge ``{u, v}``; KeyError if there is no such move."""
        if self._index is None and self.hub in (u, v):  # an end's hub edge: no table
            other = v if u == self.hub else u
            starts, literals, ends = self._arrays
            if 0 <= other < self.hub:
                for k in literals[starts[other] : starts[other + 1]].tolist():
                    if ends[k - 1, 1] == self.hub:
                        return int(k)
            raise KeyError((u, v))
        return self.index[(u, v) if u < v else (v, u)]

    def edge_array(self) -> NDArray[np.int64]:
        """:attr:`edges` as an ``(E, 2)`` array (read only).

        Examples
        --------
        >>> from knightgraph import Board
        >>> TourCNF(Board(3, 4), closed=True).edge_array().shape
        (14, 2)
        """
        return self._arrays[2]

    def neighbours(self) -> list[Collection[int]]:
        """The neighbours of every vertex in the encoding's graph, the hub included (index
        :attr:`hub`, joined to the squares allowed as ends), in variable order: a tuple
        each, a frozenset where there are more than eight (the hub's), so that ``in``
        stays cheap.

        O(V + E) in numpy (:func:`~knightgraph.boards.csr.adjacency_tuples`).

        Examples
        --------
        >>> from knightgraph import Board
        >>> cnf = TourCNF(Board(3, 4), start=0, end=11)
        >>> neighbours = cnf.neighbours()
        >>> sorted(neighbours[0]), sorted(neighbours[cnf.hub])  # a1: c2, b3 and the hub
        ([6, 9, 12], [0, 11])
        """
        starts, literals, ends = self._arrays
        pairs = ends[literals - 1]
        owner = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
        other = np.where(pairs[:, 0] == owner, pairs[:, 1], pairs[:, 0])
        rows: list[Collection[int]] = list(adjacency_tuples(starts, other))
        for v in np.flatnonzero(np.diff(starts) > 8).tolist():
            rows[v] = frozenset(rows[v])
        return rows

    # ------------------------------------------------------------ the clauses
    def base_clauses(self) -> Iterator[list[list[int]]]:
        """The clauses of "exactly two tour edges at every vertex" and of the required ends,
        one list per vertex of :attr:`incident` (in its order), then one for the ends.

        A generator: the caller may stop between two vertices (at a timeout), and a
        large board's clauses need not all be in memory at once (they are built in
        batches, :meth:`base_batches`).
        """
        for _, groups in self.base_batches():
            yield from groups

    def base_batches(self, size: int = 256) -> Iterator[tuple[int, list[list[list[int]]]]]:
        """:meth:`base_clauses` in batches of ``size`` vertices: ``(vertices done, groups)``
        after each batch (the ends' group comes alone, last).

        Notes
        -----
        A batch's vertices are grouped by degree and each group's clauses are built at
        once in numpy (:func:`~knightgraph.solvers.clauses.exactly_two_rows`); only
        vertices with fewer than two or more than ``DIRECT_LIMIT`` edges (their counters
        number auxiliary variables, in order) are written one by one.  The clauses, and
        their order, are those of one call of ``exactly_two`` per vertex; the work is
        O(sum of d^3) over the degrees d, with O(V / size) numpy calls.
        """
        starts, literals, _ = self._arrays
        order = self._order
        for first in range(0, len(order), size):
            batch = order[first : first + size]
            groups = self._batch_groups(batch, starts, literals)
            self.record([clause for group in groups for clause in group])
            yield first + len(batch), groups
        yield len(order), [self.record(self._end_clauses())]

    def _batch_groups(
        self, batch: NDArray[np.int64], starts: NDArray[np.int64], literals: NDArray[np.int64]
    ) -> list[list[list[int]]]:
        """The clause groups of the vertices of ``batch``, in its order."""
        degrees = starts[batch + 1] - starts[batch]
        groups: list[list[list[int]]] = [[] for _ in range(len(batch))]
        direct = (degrees >= 2) & (degrees <= DIRECT_LIMIT)
        for k in np.unique(degrees[direct]).tolist():
            at = np.flatnonzero(degrees == k)
            rows = literals[starts[batch[at]][:, None] + np.arange(k)]
            for i, clauses in zip(at.tolist(), exactly_two_rows(rows), strict=True):
                groups[i] = clauses
        for i in np.flatnonzero(~direct).tolist():  # in order: counters number variables
            vertex = int(batch[i])
            lits = literals[starts[vertex] : starts[vertex + 1]].tolist()
            if vertex == self.hub and len(lits) > DIRECT_LIMIT:
                groups[i] = self._counted(hub_clauses(lits, self.top))
            else:
                groups[i] = self._counted(exactly_two(lits, self.top))
        return groups

    def _end_clauses(self) -> list[list[int]]:
        """The clauses of the required ends."""
        start, end = self.start, self.end
        if not self.closed:
            return [[self.var(self.hub, square)] for square in (start, end) if square is not None]
        if start is not None and end is not None:
            return [[self.var(start, end)]]
        return []

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
        """The cut clause of each cycle (see :meth:`_cut`); the cycles join :attr:`cut_sets`.

        Disjoint cycles (a model's) get theirs from one pass over the edges
        (:meth:`_disjoint_cuts`), the same clauses as one :meth:`_cut` each.
        """
        cycles = list(cycles)
        self.cut_sets.extend(cycles)
        clauses = self._disjoint_cuts(cycles) if len(cycles) > 1 else None
        if clauses is None:
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

    def _disjoint_cuts(self, cycles: list[list[int]]) -> list[list[int]] | None:
        """The cut clause of each of ``cycles`` when no vertex is on two of them (else None):
        an edge leaves a cycle when its ends lie on different ones, so one pass over the
        edges labels every leaving edge with the cycles it leaves; a sort by (cycle,
        variable) gives each clause in variable order.  O(E log E) in numpy per round."""
        sizes = np.array([len(c) for c in cycles], dtype=np.int64)
        flat = np.fromiter((v for c in cycles for v in c), dtype=np.int64, count=int(sizes.sum()))
        label = np.full(self.hub + 1, -1, dtype=np.int64)
        label[flat] = np.repeat(np.arange(len(cycles), dtype=np.int64), sizes)
        if np.count_nonzero(label >= 0) != len(flat):
            return None  # a vertex on two of them
        ends = self._arrays[2]
        a, b = label[ends[:, 0]], label[ends[:, 1]]
        across = np.flatnonzero(a != b)
        owner = np.concatenate((a[across], b[across]))
        literal = np.concatenate((across, across)) + 1
        keep = owner >= 0
        owner, literal = owner[keep], literal[keep]
        order = np.lexsort((literal, owner))
        owner, literal = owner[order], literal[order]
        bounds = np.searchsorted(owner, np.arange(len(cycles) + 1)).tolist()
        flat_literals = literal.tolist()
        return [flat_literals[bounds[k] : bounds[k + 1]] for k in range(len(cycles))]

    def _incidence(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The incident edges of every vertex as arrays, built once: ``literals[starts[v] :
        starts[v + 1]]`` are the variables of the edges at ``v`` (indices up to the hub),
        ``ends[k - 1]`` the two ends of edge ``k``."""
        return self._arrays

    # ------------------------------------------------------------ the answers
    def cycles(self, model: list[int]) -> list[list[int]]:
        """The cycles formed by the edges a solver's ``model`` chose, each as a vertex sequence
        (the model satisfies :meth:`base_clauses`: two chosen edges at every vertex).

        Each cycle starts at its first vertex in :attr:`incident`'s order and leaves it by
        the first chosen edge met there, in the iteration order of the set of chosen
        variables.  O(V + E): each vertex's two chosen neighbours are found by a stable
        sort in numpy, then the cycles are followed.
        """
        chosen = {lit for lit in model[: len(self.edges)] if lit > 0}
        size = self.hub + 1
        lits = np.fromiter(chosen, dtype=np.int64, count=len(chosen))
        pairs = self._arrays[2][lits - 1]
        at, other = pairs.ravel(), pairs[:, ::-1].ravel()
        by_vertex = other[np.argsort(at, kind="stable")]
        counts = np.bincount(at, minlength=size)
        begin = np.cumsum(counts) - counts
        first_of, second_of = np.full(size, -1), np.full(size, -1)
        first_of[counts > 0] = by_vertex[begin[counts > 0]]
        many = counts >= 2
        second_of[many] = by_vertex[begin[many] + counts[many] - 1]
        if np.all(counts[self._order] == 2):  # a 2-factor: the next vertex is the other one
            return self._follow(first_of + second_of, first_of.tolist())
        # each vertex's first and (last) second chosen neighbour
        one, two = first_of.tolist(), second_of.tolist()
        seen = bytearray(size)
        cycles = []
        for first in self._order.tolist():
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

    def _follow(self, both: NDArray[np.int64], one: list[int]) -> list[list[int]]:
        """The cycles of a 2-factor whose vertices' two neighbours add up to ``both``: from
        each first vertex (in :attr:`incident`'s order) to its neighbour ``one[first]``,
        then on to the neighbour that is not the previous vertex."""
        total = both.tolist()
        seen = bytearray(len(total))
        cycles = []
        for first in self._order.tolist():
            if seen[first]:
                continue
            seen[first] = 1
            cycle = [first]
            previous, here = first, one[first]
            while here != first:
                cycle.append(here)
                seen[here] = 1
                previous, here = here, total[here] - previous
            cycles.append(cycle)
        return cycles

    def tour_order(self, cycle: list[int]) -> list[int]:
        """The tour (flat indices) from a cycle through every vertex (and the hub)."""
        if self.closed:
            return cycle
        at = cycle.index(self.hub)
        return cycle[at + 1 :] + cycle[:at]
