"""Automorphisms of a graph, found within a budget of work (for the orbit cuts of ``sat``).

A small individualization-refinement search, the idea of nauty without its canonical
labelling: colour refinement splits the vertices into cells that every automorphism
preserves; fixing a vertex and a candidate image and refining both colourings together
either ends in one permutation (checked edge by edge) or in cells of different sizes (no
automorphism maps the one to the other).  Along one path of fixed *base* vertices, deepest
level first, it looks for one automorphism to each vertex of the base vertex's cell that
the automorphisms found so far do not already reach (their orbit); those automorphisms
generate the group (a base and strong generating set, as in Schreier-Sims).  The group is
then listed by composing them, up to a number of elements.

The search stops when its budget of refinement work is spent, with what it found: it
never takes long, and what it returns is always a set of automorphisms (each checked), a
subgroup's worth when the budget ran out.  The ``sat`` strategy only uses them to choose
more cut sets (any vertex set gives a valid cut), so an incomplete group costs speed,
never soundness.

Examples
--------
>>> cycle = [[(v - 1) % 6, (v + 1) % 6] for v in range(6)]  # the 6-cycle: 12 symmetries
>>> group = automorphisms(cycle, limit=100)
>>> len(group), sorted(group)[1]
(12, [0, 5, 4, 3, 2, 1])
>>> automorphisms([[1], [0, 2], [1, 3], [2]], limit=10)  # a path: itself and its mirror
[[0, 1, 2, 3], [3, 2, 1, 0]]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

__all__ = ["WORK", "automorphisms"]

WORK = 2_000_000
"""Default budget: vertex and edge visits of colour refinement (a second or two of Python)."""


MAX_DEPTH = 400
"""Most vertices fixed on one branch of the search (it recurses once for each)."""


class _OutOfWork(Exception):
    """The budget of refinement work is spent."""


class _Search:
    """The graph, the work left, and the joint refinement of two colourings."""

    def __init__(self, neighbours: Sequence[Sequence[int]], work: int) -> None:
        self.adj = [list(row) for row in neighbours]
        self.size = len(self.adj)
        # One refinement pass: its signatures (vertices and edges), their sorting and naming.
        self.cost = 4 * self.size + sum(len(row) for row in self.adj)
        self.left = work

    def refine(self, a: list[int], b: list[int]) -> tuple[list[int], list[int]] | None:
        """Refine colourings ``a`` and ``b`` together until stable, with shared colour
        names; None as soon as their cells differ in size."""
        colours = len(set(a))
        while True:
            self.left -= self.cost
            if self.left < 0:
                raise _OutOfWork
            adj = self.adj
            sig_a = [(a[v], tuple(sorted(a[u] for u in adj[v]))) for v in range(self.size)]
            sig_b = [(b[v], tuple(sorted(b[u] for u in adj[v]))) for v in range(self.size)]
            names = {s: k for k, s in enumerate(sorted(set(sig_a) | set(sig_b)))}
            a = [names[s] for s in sig_a]
            b = [names[s] for s in sig_b]
            if Counter(a) != Counter(b):
                return None
            if len(names) == colours:
                return a, b
            colours = len(names)

    def fix(self, a: list[int], b: list[int], v: int, w: int) -> tuple[list[int], list[int]] | None:
        """Give ``v`` (in ``a``) and ``w`` (in ``b``) a colour of their own, and refine."""
        a, b = a.copy(), b.copy()
        a[v] = b[w] = max(a) + 1
        return self.refine(a, b)

    @staticmethod
    def cell(a: list[int]) -> list[int] | None:
        """The smallest cell of more than one vertex (the first such colour), or None."""
        cells: dict[int, list[int]] = {}
        for v, colour in enumerate(a):
            cells.setdefault(colour, []).append(v)
        big = [c for c in cells.values() if len(c) > 1]
        return min(big, key=len) if big else None

    def is_automorphism(self, perm: list[int]) -> bool:
        edges = {(u, v) for u in range(self.size) for v in self.adj[u]}
        return all((perm[u], perm[v]) in edges for u, v in edges)

    def extend(self, a: list[int], b: list[int], depth: int = 0) -> list[int] | None:
        """An automorphism mapping each vertex of ``a`` to the vertex of ``b`` of its colour,
        fixing vertices of ``a``'s cells in turn (depth first); None if there is none."""
        if depth > MAX_DEPTH:
            raise _OutOfWork
        cell = self.cell(a)
        if cell is None:
            where = {colour: w for w, colour in enumerate(b)}
            perm = [where[colour] for colour in a]
            return perm if self.is_automorphism(perm) else None
        v = cell[0]
        for w in (w for w, colour in enumerate(b) if colour == a[v]):
            pair = self.fix(a, b, v, w)
            if pair is not None:
                found = self.extend(*pair, depth + 1)
                if found is not None:
                    return found
        return None


def automorphisms(
    neighbours: Sequence[Sequence[int]], *, limit: int, work: int = WORK
) -> list[list[int]]:
    """Automorphisms of a graph (the identity first), as permutations ``perm[v]``.

    Parameters
    ----------
    neighbours : sequence of sequences of int
        The graph: the neighbours of each vertex ``0 .. n - 1`` (symmetric).
    limit : int
        List at most this many group elements.
    work : int
        The budget of refinement work (vertex and edge visits); spent, the search stops
        with the automorphisms it found.

    Returns
    -------
    list of list of int
        Distinct automorphisms, each checked to map edges to edges: the whole group when
        it has at most ``limit`` elements and the budget sufficed, otherwise part of it.

    Examples
    --------
    >>> import networkx as nx
    >>> petersen = nx.petersen_graph()
    >>> group = automorphisms([list(petersen[v]) for v in range(10)], limit=1000)
    >>> len(group)  # the symmetric group S5
    120
    >>> len(automorphisms([list(petersen[v]) for v in range(10)], limit=7))
    7
    """
    search = _Search(neighbours, work)
    if search.size == 0 or limit < 1:
        return []
    identity = list(range(search.size))
    generators: list[list[int]] = []
    try:
        degrees = [len(row) for row in search.adj]
        start = search.refine(degrees, degrees.copy())
        assert start is not None  # a colouring always agrees with itself
        path = [start[0]]  # the colourings along the identity path, and its base vertices
        bases: list[int] = []
        while (cell := search.cell(path[-1])) is not None:
            bases.append(cell[0])
            fixed = search.fix(path[-1], path[-1], cell[0], cell[0])
            assert fixed is not None
            path.append(fixed[0])
        for level in reversed(range(len(bases))):
            here, base = path[level], bases[level]
            for w in (w for w, colour in enumerate(here) if colour == here[base]):
                if w in _orbit(base, generators):
                    continue
                pair = search.fix(here, here, base, w)
                found = None if pair is None else search.extend(*pair)
                if found is not None:
                    generators.append(found)
    except _OutOfWork:
        pass
    return _closure(identity, generators, limit)


def _orbit(v: int, generators: list[list[int]]) -> set[int]:
    """The vertices that products of ``generators`` map ``v`` to."""
    seen, todo = {v}, [v]
    while todo:
        u = todo.pop()
        for g in generators:
            if g[u] not in seen:
                seen.add(g[u])
                todo.append(g[u])
    return seen


def _closure(identity: list[int], generators: list[list[int]], limit: int) -> list[list[int]]:
    """The group the generators generate (breadth first from the identity), at most ``limit``."""
    found = {tuple(identity)}
    order, todo = [identity], [identity]
    while todo and len(order) < limit:
        element = todo.pop(0)
        for g in generators:
            product = [g[x] for x in element]
            key = tuple(product)
            if key not in found:
                found.add(key)
                order.append(product)
                todo.append(product)
                if len(order) >= limit:
                    break
    return order
