"""The request every strategy answers (:class:`Problem`): the board (a :class:`Board` or a
:class:`~knightgraph.boards.graphboard.GraphBoard`), open or closed, the ends; the results it
builds, worded for its board; and the cheap certificates of absence on a graph board
(:func:`graph_obstruction`, what the strategies run first on graphs).

Examples
--------
>>> from knightgraph import Board
>>> Problem.make(Board(5, 5), closed=False, start="a1").describe()
'open tour on 5x5 from a1'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..boards.board import Board, Square, SquareLike
from ..boards.csr import bfs_colours
from ..boards.graphboard import GraphBoard
from ..exceptions import InvalidSquareError
from ..tours.results import Certificate, SearchResult, Status
from ..tours.tour import Tour
from ..tours.verify import check_closed

__all__ = ["Problem", "graph_obstruction"]


@dataclass(frozen=True)
class Problem:
    """A normalised request: the board, open or closed, and the ends as flat indices.

    Examples
    --------
    >>> p = Problem.make(Board(8, 8), closed=True, start="d4")
    >>> p.start, p.ends(), p.describe()
    (27, {'start': (3, 3), 'end': None}, 'closed tour on 8x8 from d4')
    >>> Problem.make(Board(8, 8), start="a1", end="a1")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidSquareError: invalid end a1: the start and the end are the same square
    """

    board: Any  # Board | GraphBoard: Any spares rectangle-only strategies a narrowing each
    closed: bool = False
    start: int | None = None
    end: int | None = None

    @classmethod
    def make(
        cls,
        board: Board | GraphBoard,
        closed: bool = False,
        start: SquareLike | None = None,
        end: SquareLike | None = None,
    ) -> Problem:
        """Parse and check the request: ``closed`` a bool, the ends on the board, not
        removed, and distinct.

        Examples
        --------
        >>> import networkx as nx
        >>> from knightgraph.boards.graphboard import GraphBoard
        >>> graph = GraphBoard.from_networkx(nx.cycle_graph(4))
        >>> Problem.make(graph, True, 1, None).describe()
        'closed tour of the graph with 4 vertices from 1'
        >>> Problem.make(graph, False, 2, "2")
        Traceback (most recent call last):
        ...
        knightgraph.exceptions.InvalidSquareError: invalid end 2: the start and the end are the same vertex
        """
        s = None if start is None else board.index(start)
        t = None if end is None else board.index(end)
        if s is not None and s == t and board.num_squares > 1:
            asked = cls(board, False, s, t)
            raise InvalidSquareError(
                f"invalid end {asked.name(t)}: the start and the end are the same "
                f"{asked.words()[1]}"
            )
        return cls(board, check_closed(closed), s, t)

    def words(self) -> tuple[str, str]:
        """How messages name the board and a square of it: ``('on 8x8', 'square')`` or
        ``('of the graph with 4 vertices', 'vertex')`` (the one place that asks which)."""
        words: tuple[str, str] = self.board.wording()
        return words

    def name(self, index: int) -> str:
        """The name of the square (vertex) with flat index ``index``."""
        name: str = self.board.names_at([index])[0]
        return name

    def names(self) -> tuple[str | None, str | None]:
        """The ends by name (None when not requested)."""
        return tuple(  # type: ignore[return-value]
            None if x is None else self.name(x) for x in (self.start, self.end)
        )

    def ends(self) -> dict[str, Square | None]:
        """The requested ends as ``(r, c)`` squares, keyed ``start`` and ``end``."""
        board = self.board
        return {
            "start": None if self.start is None else board.square(self.start),
            "end": None if self.end is None else board.square(self.end),
        }

    def describe(self) -> str:
        """E.g. ``'closed tour on 8x8 from d4'``."""
        text = f"{'closed' if self.closed else 'open'} tour {self.words()[0]}"
        if self.start is not None:
            text += f" from {self.name(self.start)}"
        if self.end is not None:
            text += f" to {self.name(self.end)}"
        return text

    def searched_from_end(self) -> Problem:
        """The problem to search when only the end is given: the same tour read from ``t``.

        An open tour ending at ``t``, walked backwards, starts at ``t``; a closed
        tour through ``t`` can be rotated to end there.  So a strategy that grows
        tours from their first square may search from ``t`` and hand its answer to
        :meth:`found`, which turns it back.  Other problems are returned unchanged.
        """
        if self.start is not None or self.end is None:
            return self
        return Problem(self.board, self.closed, self.end, None)

    def oriented(self, order: Any) -> Any:
        """``order`` read so that it honours the requested ends, when it can.

        An open path may be read backwards; a closed tour is a cycle, so it may
        also be rotated: it is turned to start at the requested start (or to end
        at the requested end) and read in the direction that puts the requested
        end last.  A path that cannot honour the ends is returned as it is (the
        answer check then reports it).  Costs O(length) only when a change is needed.

        Examples
        --------
        >>> p = Problem.make(Board(3, 4), closed=False, start="a1")
        >>> p.oriented([5, 3, 0])
        [0, 3, 5]
        >>> Problem.make(Board(5, 6), closed=True, end="a1").oriented([7, 0, 13, 2])
        [13, 2, 7, 0]
        >>> Problem.make(Board(5, 6), closed=True, start="a1", end="b3").oriented([7, 0, 13, 2])
        [0, 7, 2, 13]
        """
        start, end = self.start, self.end
        if start is None and end is None:
            return order
        first, last = int(order[0]), int(order[-1])
        if (start is None or first == start) and (end is None or last == end):
            return order
        if not self.closed:
            return order[::-1]
        seq = np.asarray(order)
        anchor = start if start is not None else end
        at = np.flatnonzero(seq == anchor)
        if len(at) != 1:
            return order
        shift = int(at[0]) if start is not None else int(at[0]) + 1
        seq = np.roll(seq, -shift)
        if start is not None and end is not None and int(seq[-1]) != end:
            seq = np.concatenate((seq[:1], seq[:0:-1]))
        elif start is None and int(seq[-1]) != end:  # pragma: no cover - rotation put it last
            return order
        return seq.tolist() if isinstance(order, list) else seq

    def found(self, order: Any, stats: dict[str, Any] | None = None) -> SearchResult:
        """A FOUND result for ``order``, turned to honour the ends (see :meth:`oriented`);
        building the :class:`Tour` verifies it."""
        tour = Tour(self.board, self.oriented(order), self.closed)
        return SearchResult(Status.FOUND, tour, stats=stats or {})

    def absent(self, certificate: Certificate, stats: dict[str, Any] | None = None) -> SearchResult:
        """A PROVEN_ABSENT result: ``no <tour>: <reason>``."""
        return SearchResult(
            Status.PROVEN_ABSENT,
            certificate=certificate,
            stats=stats or {},
            reason=f"no {self.describe()}: {certificate.reason}",
        )

    def aborted(self, reason: str, stats: dict[str, Any] | None = None) -> SearchResult:
        """An ABORTED result: existence unknown."""
        return SearchResult(Status.ABORTED, stats=stats or {}, reason=reason)


def graph_obstruction(
    problem: Problem, stop: Callable[[], bool] | None = None
) -> Certificate | None:
    """A cheap certificate of absence (degree, connectivity, colour count), or None.

    ``stop`` (a search's clock) is asked during the breadth-first search
    (:func:`~knightgraph.boards.csr.bfs_colours`); when it answers True the search ends, and
    the answer is None (no certificate found: the caller's budget says why it stops).

    Notes
    -----
    Each is a proof: a closed tour uses two edges at every vertex, an open one two at
    every vertex but its ends (one each), so a vertex of degree below two (closed), of
    degree 0, or more than two vertices that must be ends (open) leave no tour.  A tour
    visits every vertex along edges, so the graph must be connected.  On a bipartite
    graph a tour alternates classes, so their sizes and the classes of the ends are
    fixed (see :mod:`knightgraph.certcheck.checker`).  O(V + E).

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph.boards.graphboard import GraphBoard
    >>> star = GraphBoard.from_networkx(nx.star_graph(3))
    >>> graph_obstruction(Problem(star)).kind
    'degree'
    >>> cube = GraphBoard.from_networkx(nx.hypercube_graph(3))
    >>> graph_obstruction(Problem(cube, False, 0, 7)) is None  # ends of opposite classes
    True
    >>> graph_obstruction(Problem(cube, False, 0, 3)).kind
    'colour-count'
    """
    board = problem.board
    n = board.num_squares
    indptr = board.csr()[0]
    degree = np.diff(indptr)
    ends = [x for x in (problem.start, problem.end) if x is not None]
    if problem.closed:
        if n < 3:
            return Certificate("degree", f"a closed tour needs three vertices, there are {n}", {})
        if len(ends) == 2 and ends[1] not in board.csr()[1][indptr[ends[0]] : indptr[ends[0] + 1]]:
            return Certificate(
                "degree",
                f"a closed tour from {board.names[ends[0]]} to {board.names[ends[1]]} needs the edge "
                "between them",
                {},
            )
        low = np.flatnonzero(degree < 2).tolist()
        if low:
            return Certificate(
                "degree",
                f"{board.names[low[0]]} has {degree[low[0]]} edges; a closed tour needs two",
                {"vertices": [board.names[low[0]]]},
            )
    elif n >= 2:
        isolated = np.flatnonzero(degree == 0).tolist()
        if isolated:
            v = isolated[0]
            return Certificate(
                "degree", f"{board.names[v]} has no edge", {"vertices": [board.names[v]]}
            )
        musts = sorted(set(np.flatnonzero(degree == 1).tolist()) | set(ends))
        if len(musts) > 2:
            named = [board.names[v] for v in musts]
            return Certificate(
                "degree",
                f"{', '.join(named[:5])}{', ...' if len(named) > 5 else ''} "
                f"({len(named)} vertices) must all be ends of an open tour",
                {"vertices": named},
            )
    # One breadth-first search from vertex 0 finds its component and 2-colours it (the
    # colouring of board.bipartition() when the graph is connected).
    searched = bfs_colours(indptr, board.csr()[1], stop)
    if searched is None:
        return None  # the caller's budget says why it stops
    reached = np.flatnonzero(searched[0] >= 0).tolist()
    odd = searched[1]
    if len(reached) < n:
        names = board.names
        return Certificate(
            "connectivity",
            f"the graph is not connected ({len(reached)} of {n} vertices reachable from "
            f"{names[0]})",
            {"component": [names[v] for v in reached]},
        )
    colours = searched[0].tolist()
    colour = None if odd else colours
    if colour is not None:
        a = colour.count(0)
        b = n - a

        def side() -> dict[str, Any]:  # the certificate's data, made only for one
            names = board.names
            return {"side": [names[v] for v in range(n) if colours[v] == 0]}

        text = f"the graph is bipartite with classes of {a} and {b} vertices"
        if problem.closed and a != b:
            return Certificate("colour-count", f"{text}; a closed tour needs equal classes", side())
        if not problem.closed:
            if abs(a - b) > 1:
                return Certificate("colour-count", f"{text}; a tour needs them within one", side())
            if a == b and len(ends) == 2 and colour[ends[0]] == colour[ends[1]]:
                return Certificate(
                    "colour-count", f"{text}; the ends must be of opposite classes", side()
                )
            big = 0 if a > b else 1
            if a != b and any(colour[e] != big for e in ends):
                return Certificate(
                    "colour-count", f"{text}; an open tour starts and ends in the larger", side()
                )
    return None
