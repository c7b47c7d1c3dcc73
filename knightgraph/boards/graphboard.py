"""Any finite simple graph as a board: :class:`GraphBoard`; its tours are :class:`~knightgraph.Tour` objects.

A rectangle with a leaper is one graph among many.  :class:`GraphBoard` holds any
finite simple graph (from networkx, or vertices and edges) with its vertices numbered
``0 .. N-1`` in a fixed order and a unique name for each; the strategies of the
registry (:func:`~knightgraph.find_tour`: ``auto``, ``sat``, ``backtrack``), the independent checker
(:mod:`knightgraph.certcheck.checker`) and the counter (:mod:`knightgraph.counting.vertexorder`)
work on those numbers.  Tori, cylinders and 3-D boards
(:mod:`knightgraph.boards.topology`) are graph boards too.

A tour of a graph board is a :class:`~knightgraph.Tour` too: a Hamiltonian path (open
tour) or cycle (closed tour), verified when it is built by :meth:`GraphBoard.check_order`.

Examples
--------
>>> board = GraphBoard(range(4), [(0, 1), (1, 2), (2, 3), (3, 0)])
>>> board.num_squares, board.edges(), board.name(2)
(4, [(0, 1), (0, 3), (1, 2), (2, 3)], '2')
>>> from knightgraph import Tour
>>> Tour(board, [0, 1, 2, 3], closed=True).nodes()
[0, 1, 2, 3]
>>> Tour(board, [0, 2, 1, 3])
Traceback (most recent call last):
...
knightgraph.exceptions.InvalidTourError: invalid tour: step 1 from 0 to 2 is not an edge of the graph
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InvalidBoardError, InvalidSquareError, InvalidTourError
from ..running.collector import paused_collector
from .csr import (
    adjacency_tuples,
    csr_from_pairs,
    first_non_edge,
    pairs_from_adjacency,
    upper_edges,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["READ_CHUNK", "GraphBoard", "is_graph"]

READ_CHUNK = 1 << 16
"""Vertices of a networkx graph read between two looks at a search's clock
(:meth:`GraphBoard.from_networkx`)."""


def is_graph(obj: object) -> bool:
    """True for a networkx-like graph (an object with ``nodes`` and ``edges`` and ``adj``).

    Examples
    --------
    >>> import networkx as nx
    >>> is_graph(nx.petersen_graph()), is_graph(8)
    (True, False)
    """
    return all(hasattr(obj, name) for name in ("nodes", "edges", "adj")) and not isinstance(
        obj, GraphBoard
    )


class GraphBoard:
    """A finite simple undirected graph whose Hamiltonian paths and cycles are its tours.

    Parameters
    ----------
    nodes : iterable of hashables
        The vertices, in the order that numbers them ``0 .. N-1``.
    edges : iterable of pairs of vertices
        The moves; loops and repeated edges are refused.
    names : sequence of str, optional
        A unique name per vertex (default ``str(node)``, or ``v<i>`` when two
        vertices would share a name); names are how squares are given on the
        command line and in certificates.
    kind : str
        What the graph is, for messages (``"graph"``, ``"torus 5x5"``, ...).
    pos : dict, optional
        Drawing positions of the vertices (``{node: (x, y)}``).
    shape, wrap, leaper : optional
        For boards with topology (:mod:`knightgraph.boards.topology`): the sizes
        ``(m, n)`` or ``(m, n, k)``, which directions wrap around, the piece.

    Notes
    -----
    The adjacency is built as compressed sparse rows (:meth:`csr`,
    :mod:`knightgraph.boards.csr`): the edges' ends are numbered with one dictionary look-up
    each, then sorted once in numpy, O(V + E log E); :attr:`adj` (a tuple of sorted tuples)
    is made from them.  :meth:`edges`, :meth:`degrees`, :meth:`move_table` and
    :meth:`check_order` are numpy passes over the arrays, so a graph of 100,000 vertices
    is built in a fraction of a second.

    Examples
    --------
    >>> import networkx as nx
    >>> board = GraphBoard.from_networkx(nx.petersen_graph())
    >>> board.num_squares, len(board.edges()), board.bipartition() is None
    (10, 15, True)
    >>> board.index("3"), board.index(3), board.node(3)
    (3, 3, 3)
    """

    def __init__(
        self,
        nodes: Iterable[Hashable],
        edges: Iterable[tuple[Hashable, Hashable]],
        *,
        names: Sequence[str] | None = None,
        kind: str = "graph",
        pos: dict[Hashable, tuple[float, float]] | None = None,
        shape: tuple[int, ...] | None = None,
        wrap: str | None = None,
        leaper: tuple[int, ...] | None = None,
    ) -> None:
        self._nodes: tuple[Hashable, ...] = tuple(nodes)
        if not self._nodes:
            raise InvalidBoardError("invalid graph: it has no vertices")
        self._index = {v: i for i, v in enumerate(self._nodes)}
        if len(self._index) != len(self._nodes):
            raise InvalidBoardError("invalid graph: a vertex is listed twice")
        first, second = self._edge_ends(edges)
        self._setup(first, second, names, kind, pos, shape, wrap, leaper)

    def _edge_ends(self, edges: Iterable[tuple[Hashable, Hashable]]) -> tuple[Any, Any]:
        """The index arrays of the edges' two ends; the first unknown end or loop, in the
        edges' order, is refused by name."""
        pairs = edges if isinstance(edges, list) else list(edges)
        index = self._index
        try:
            ends = np.array([(index[u], index[v]) for u, v in pairs], dtype=np.int64)
            ends = ends.reshape(-1, 2)
        except (KeyError, TypeError, ValueError):
            ends = None  # an unknown end (or a malformed pair): named below, in order
        if ends is None or np.any(ends[:, 0] == ends[:, 1]):
            for u, v in pairs:
                if u not in index or v not in index:
                    raise InvalidBoardError(
                        f"invalid graph: edge ({u!r}, {v!r}) has an unknown end"
                    )
                if index[u] == index[v]:
                    raise InvalidBoardError(f"invalid graph: a loop at {u!r}")
        assert ends is not None  # every pair was checked above
        return ends[:, 0], ends[:, 1]

    def _setup(
        self,
        first: Any,
        second: Any,
        names: Sequence[str] | None,
        kind: str,
        pos: dict[Hashable, tuple[float, float]] | None,
        shape: tuple[int, ...] | None,
        wrap: str | None,
        leaper: tuple[int, ...] | None,
    ) -> None:
        """The adjacency (CSR arrays) and the names of the vertices given; the adjacency
        tuples (:attr:`adj`) and the default names are made when first asked for (a SAT
        search of a large graph needs neither: a second saved per million vertices)."""
        self._csr = csr_from_pairs(len(self._nodes), first, second)
        self._adj: tuple[tuple[int, ...], ...] | None = None
        self._names: tuple[str, ...] | None = None
        self._name_index: dict[str, int] | None = None
        if names is not None:
            if len(names) != len(self._nodes) or len(set(names)) != len(names):
                raise InvalidBoardError("invalid graph: the vertex names are not unique")
            self._names = tuple(names)
        self.kind = kind
        self.pos = pos
        self.shape = shape
        self.wrap = wrap
        self.leaper = leaper

    @property
    def adj(self) -> tuple[tuple[int, ...], ...]:
        """The neighbours of each vertex, sorted: ``adj[v]`` is a tuple of indices."""
        if self._adj is None:
            with paused_collector():  # a tuple per vertex, none in a cycle
                self._adj = adjacency_tuples(*self._csr)
        return self._adj

    @property
    def names(self) -> tuple[str, ...]:
        """The unique name of each vertex (``str(vertex)``, or ``v<i>`` when two would
        share a name)."""
        if self._names is None:
            names = [str(v) for v in self._nodes]
            if len(set(names)) != len(names):
                names = [f"v{i}" for i in range(len(self._nodes))]
            self._names = tuple(names)
        return self._names

    @property
    def _by_name(self) -> dict[str, int]:
        if self._name_index is None:
            self._name_index = {name: i for i, name in enumerate(self.names)}
        return self._name_index

    @classmethod
    def from_networkx(
        cls, graph: Any, *, kind: str = "graph", stop: Callable[[], bool] | None = None
    ) -> GraphBoard:
        """The graph board of an undirected networkx graph (repeated edges count once; a
        directed graph is refused: its tours would follow the arrows).

        ``stop``, when given, is asked every :data:`READ_CHUNK` vertices; when it answers
        True, :class:`~knightgraph.SearchAbortedError` says how far the reading got (a
        search's timeout counts the reading of a large graph too).

        The neighbours are read from networkx's adjacency dictionaries directly, in one
        pass (O(V + E), no edge tuples), and numbered through a dictionary unless the
        vertices are ``0 .. N-1`` in order.

        Examples
        --------
        >>> import networkx as nx
        >>> GraphBoard.from_networkx(nx.cycle_graph(5)).adj[0]
        (1, 4)
        """
        if getattr(graph, "is_directed", lambda: False)():
            raise InvalidBoardError(
                "invalid graph: it is directed (tours of undirected graphs only; "
                "use graph.to_undirected() to ignore the arrows)"
            )
        pos = {v: tuple(d["pos"]) for v, d in graph.nodes(data=True) if "pos" in d}
        nodes = list(graph.nodes)
        board = cls.__new__(cls)
        board._nodes = tuple(nodes)
        if not nodes:
            raise InvalidBoardError("invalid graph: it has no vertices")
        board._index = index = {v: i for i, v in enumerate(nodes)}
        # networkx's own functions read the adjacency dicts (``_adj``) directly: no view
        # object per vertex.  Each edge is met from both ends; csr_from_pairs keeps it once.
        table = getattr(graph, "_adj", None)
        if not isinstance(table, dict):
            table = graph.adj
        first, cols = pairs_from_adjacency(table, nodes, index, READ_CHUNK, stop)
        if np.any(first == cols):
            raise InvalidBoardError("invalid graph: it has a loop")
        board._setup(first, cols, None, kind, pos or None, None, None, None)
        return board

    # ------------------------------------------------------------------ size
    @property
    def num_squares(self) -> int:
        """The number of vertices."""
        return len(self._nodes)

    @property
    def area(self) -> int:
        """The number of vertices (the flat indices run ``0 .. area-1``; all available)."""
        return len(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    def __repr__(self) -> str:
        return f"GraphBoard({self.kind}, {self.num_squares} vertices, {len(self.edges())} edges)"

    def describe(self) -> str:
        """E.g. ``'graph with 10 vertices'`` (for messages)."""
        return f"{self.kind} with {self.num_squares} vertices"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GraphBoard):
            return NotImplemented
        if other is self:
            return True
        return self._nodes == other._nodes and self.adj == other.adj

    def __hash__(self) -> int:
        return hash((self._nodes, self.adj))

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._nodes)

    # ------------------------------------------------------------ vertices
    def nodes(self) -> list[Hashable]:
        """The vertices in index order."""
        return list(self._nodes)

    def node(self, index: int) -> Hashable:
        """The vertex with index ``index``."""
        return self._nodes[index]

    square = node  # the name boards use

    def index(self, square: Any) -> int:
        """The index of a vertex, given as the vertex itself or by its name.

        Raises :class:`~knightgraph.InvalidSquareError` naming the value otherwise.
        """
        try:
            if square in self._index:
                return self._index[square]
        except TypeError:  # unhashable
            pass
        if isinstance(square, str) and square in self._by_name:
            return self._by_name[square]
        raise InvalidSquareError(f"invalid square {square!r}: not a vertex of the {self.kind}")

    def name(self, square: Any) -> str:
        """The name of a vertex (given by index, as the vertex or by name)."""
        if (
            isinstance(square, int | np.integer)
            and not isinstance(square, bool)
            and 0 <= int(square) < len(self._nodes)
            and square not in self._index
        ):
            return self.names[int(square)]
        return self.names[self.index(square)]

    # ------------------------------------------------- the protocol of every board kind
    def wording(self) -> tuple[str, str]:
        """How messages name the board and one of its vertices (as :meth:`Board.wording
        <knightgraph.Board.wording>`).

        Examples
        --------
        >>> GraphBoard(range(2), [(0, 1)]).wording()
        ('of the graph with 2 vertices', 'vertex')
        """
        return f"of the {self.describe()}", "vertex"

    def names_at(self, indices: Any) -> list[str]:
        """The names of the vertices with the indices ``indices`` (a sequence or an array).

        Examples
        --------
        >>> GraphBoard(["x", "y"], [("x", "y")]).names_at([1, 0])
        ['y', 'x']
        """
        names = self.names
        return [names[i] for i in np.asarray(indices, dtype=np.int64).tolist()]

    def squares_at(self, indices: Iterable[int]) -> Iterator[Hashable]:
        """The vertices with the indices ``indices``, one by one.

        Examples
        --------
        >>> list(GraphBoard(["x", "y"], [("x", "y")]).squares_at([1, 0]))
        ['y', 'x']
        """
        return map(self.node, indices)

    def tour_fields(self, order: Any, closed: bool) -> dict[str, Any]:
        """The JSON fields of a tour of this graph visiting ``order``: ``closed`` and
        ``squares`` by vertex name (:meth:`knightgraph.Tour.to_dict`).

        Examples
        --------
        >>> GraphBoard(["x", "y"], [("x", "y")]).tour_fields([1, 0], False)
        {'closed': False, 'squares': ['y', 'x']}
        """
        return {"closed": closed, "squares": self.names_at(order)}

    rectangle = None
    """None: no rectangle (a :class:`~knightgraph.Board`'s is itself), for rectangle-only work."""

    def checker_fields(self) -> dict[str, Any]:
        """What an independent checker needs: ``graph`` (the kind), ``vertices`` (names) and
        ``edges`` (pairs of names).

        Examples
        --------
        >>> GraphBoard(["x", "y"], [("x", "y")]).checker_fields()
        {'graph': 'graph', 'vertices': ['x', 'y'], 'edges': [['x', 'y']]}
        """
        names = self.names
        edges = [[names[i], names[j]] for i, j in self.edges()]
        return {"graph": self.kind, "vertices": list(names), "edges": edges}

    def answer_fields(self, closed: bool, start: str | None, end: str | None) -> dict[str, Any]:
        """The head of an answer's JSON on this graph: :meth:`checker_fields`, then
        ``closed``, ``start`` and ``end`` (a rectangle's begins with its size).

        Examples
        --------
        >>> GraphBoard(["x", "y"], [("x", "y")]).answer_fields(True, None, None)["closed"]
        True
        """
        return {**self.checker_fields(), "closed": closed, "start": start, "end": end}

    # --------------------------------------------------------------- moves
    def edges(self) -> list[tuple[int, int]]:
        """The edges as index pairs ``(i, j)`` with ``i < j``, sorted."""
        low, high = upper_edges(*self._csr)
        return list(zip(low.tolist(), high.tolist(), strict=True))

    def csr(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The adjacency as compressed sparse rows: ``indices[indptr[v] : indptr[v + 1]]``
        are the neighbours of ``v``, sorted (:mod:`knightgraph.boards.csr`).  Read only.

        Examples
        --------
        >>> indptr, indices = GraphBoard(range(3), [(0, 1), (1, 2)]).csr()
        >>> indptr.tolist(), indices.tolist()
        ([0, 1, 3, 4], [1, 0, 2, 1])
        """
        return self._csr

    def degrees(self) -> list[int]:
        """The degree of each vertex, in index order."""
        degrees: list[int] = np.diff(self._csr[0]).tolist()
        return degrees

    def available(self) -> NDArray[np.bool_]:
        """Every vertex is available (the interface of a board with removed squares)."""
        return np.ones(len(self._nodes), dtype=bool)

    def move_table(self) -> NDArray[np.int64]:
        """``table[i, k]`` is the ``k``-th neighbour of ``i`` (padded with -1), as a board's."""
        indptr, indices = self._csr
        counts = np.diff(indptr)
        width = max(1, int(counts.max()))
        table = np.full((len(counts), width), -1, dtype=np.int64)
        rows = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        table[rows, np.arange(len(indices)) - indptr[rows]] = indices
        return table

    def bipartition(self) -> list[int] | None:
        """A proper 2-colouring (0/1 per vertex, each component's first vertex 0), or None.

        Breadth-first search, O(V + E).
        """
        colour = [-1] * len(self.adj)
        for root in range(len(self.adj)):
            if colour[root] >= 0:
                continue
            colour[root] = 0
            queue = [root]
            for u in queue:
                for w in self.adj[u]:
                    if colour[w] < 0:
                        colour[w] = 1 - colour[u]
                        queue.append(w)
                    elif colour[w] == colour[u]:
                        return None
        return colour

    def check_order(self, order: Any, closed: bool) -> NDArray[np.int64]:
        """``order`` (an iterable of vertex indices) as an array, checked as a Hamiltonian
        path of the graph (a cycle when ``closed``): InvalidTourError names its first defect.

        This is how a :class:`~knightgraph.Tour` of a graph board is verified when built.

        Examples
        --------
        >>> board = GraphBoard(range(3), [(0, 1), (1, 2)])
        >>> board.check_order([0, 1, 2], closed=False)
        array([0, 1, 2])
        >>> board.check_order([0, 1, 2], closed=True)
        Traceback (most recent call last):
        ...
        knightgraph.exceptions.InvalidTourError: invalid closed tour: the last vertex is not joined to the first
        """
        seq = [int(x) for x in order]
        n = self.num_squares
        if len(seq) != n:
            raise InvalidTourError(f"invalid tour: {len(seq)} vertices, the graph has {n}")
        try:
            walk = np.array(seq, dtype=np.int64)
        except OverflowError:
            walk = np.full(n, -1, dtype=np.int64)  # out of range: refused just below
        if not np.array_equal(np.sort(walk), np.arange(n)):
            raise InvalidTourError("invalid tour: a vertex is missing or repeated")
        k = first_non_edge(*self._csr, walk)
        if k >= 0:
            raise InvalidTourError(
                f"invalid tour: step {k + 1} from {self.name(seq[k])} to "
                f"{self.name(seq[k + 1])} is not an edge of the graph"
            )
        if closed and (n < 3 or first_non_edge(*self._csr, walk[[-1, 0]]) >= 0):
            raise InvalidTourError(
                "invalid closed tour: the last vertex is not joined to the first"
            )
        return walk

    def to_networkx(self) -> Any:
        """The graph as a networkx graph on the original vertices (attributes ``name``, and
        ``pos`` when known).

        Examples
        --------
        >>> GraphBoard(["x", "y"], [("x", "y")]).to_networkx().nodes["y"]
        {'name': 'y'}
        """
        import networkx as nx

        graph = nx.Graph(name=self.kind)
        for i, v in enumerate(self._nodes):
            graph.add_node(v, name=self.names[i])
            if self.pos is not None and v in self.pos:
                graph.nodes[v]["pos"] = self.pos[v]
        graph.add_edges_from((self._nodes[i], self._nodes[j]) for i, j in self.edges())
        return graph

    cell = index  # a start or end map's cells (knightgraph.explore) are vertex indices
    cell_square = node  # the vertex of a cell, as the searches take it

    def cells(self) -> list[int]:
        """A map's cells: the vertex indices (a Board's: its squares)."""
        return list(range(len(self._nodes)))

    def cell_name(self, cell: int) -> str:
        """A cell's name: the vertex's name."""
        return self.names[cell]

    def cell_table(self, fill: Any, dtype: Any) -> list[Any]:
        """A value per cell, all ``fill``: a list by vertex index (a Board's: an array)."""
        return [fill] * len(self._nodes)
