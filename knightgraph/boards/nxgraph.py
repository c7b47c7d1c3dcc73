"""The graph layer: knight graphs as :class:`networkx.Graph` objects.

Every board kind builds its own graph (``to_networkx``); this entry takes sizes too.  A
rectangle's nodes are ``(r, c)`` pairs (0-based rank and file) with ``pos`` (``(file, rank)``,
for :func:`networkx.draw`), ``color`` (``(r + c) % 2``) and ``name`` (``"a1"``).
The graph works with every networkx algorithm and drawer.

Examples
--------
>>> import networkx as nx
>>> from knightgraph import knight_graph
>>> G = knight_graph(8, 8)
>>> G.number_of_nodes(), G.number_of_edges()
(64, 168)

For ``m, n >= 2`` the knight graph has ``4mn - 6(m + n) + 8`` edges:

>>> all(knight_graph(m, n).number_of_edges() == 4*m*n - 6*(m + n) + 8
...     for m in range(2, 12) for n in range(2, 12))
True

The centre of the 3x3 board is isolated, so 3x3 has no tour:

>>> knight_graph(3).degree[(1, 1)]
0
>>> nx.is_bipartite(G), G.nodes[(0, 0)]
(True, {'pos': (0, 0), 'color': 0, 'name': 'a1'})
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..exceptions import InvalidOptionError
from .board import KNIGHT, Board, SquareLike
from .graphboard import GraphBoard

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["knight_graph"]


class _BoardAndSizesError(InvalidOptionError, TypeError):
    """A Board passed together with sizes, leaper or removed squares (also a TypeError)."""


def knight_graph(
    m: int | Board | GraphBoard,
    n: int | None = None,
    *,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
) -> nx.Graph:
    """Return the leaper graph of an ``m x n`` board.

    Parameters
    ----------
    m : int, Board or GraphBoard
        Number of ranks, or a board whose own graph is returned (``to_networkx``; then
        ``n``, ``leaper`` and ``removed`` must be left at their defaults): a
        :class:`~knightgraph.Board`, or a graph board
        (:func:`~knightgraph.boards.topology.topology_board`: a cylinder, torus or 3-D
        board), whose graph has ``name`` and ``pos`` attributes.
    n : int, optional
        Number of files; defaults to ``m`` (a square board).
    leaper : (int, int), default (1, 2)
        The piece; ``(1, 2)`` is the knight.
    removed : iterable of squares, default ()
        Squares left out of the graph.

    Returns
    -------
    networkx.Graph
        Nodes ``(r, c)`` with attributes ``pos``, ``color`` and ``name``; graph
        attributes ``rows``, ``cols``, ``leaper`` and ``name``.

    Raises
    ------
    InvalidBoardError
        For a bad size, leaper or removed square (see :class:`~knightgraph.Board`).
    BoardTooLargeError
        Up front, when the graph cannot fit in the memory the machine has free.
    InvalidOptionError
        For a board together with sizes, leaper or removed squares (also a
        :class:`TypeError`).

    Notes
    -----
    Each move is added once from its lower-indexed end, so building the graph
    takes O(mn) time; networkx then stores about 2 KB per square, which is why
    the array layer (:class:`~knightgraph.Board`, the solvers) never builds one.

    Examples
    --------
    >>> G = knight_graph(3, 4)
    >>> sorted(G[(0, 0)])
    [(1, 2), (2, 1)]
    >>> knight_graph(4, leaper=(1, 3)).number_of_edges()  # the camel
    12
    >>> from knightgraph.boards.topology import topology_board
    >>> knight_graph(topology_board(8, 8, wrap="both")).number_of_edges()  # 8 moves a square
    256
    >>> knight_graph(10**12, 10**12)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.BoardTooLargeError: the knight graph of 1000000000000x1000000000000 (1,000,000,000,000,000,000,000,000 squares) needs about ... of memory; only ... is available
    """
    if not isinstance(m, Board | GraphBoard):
        return Board(m, m if n is None else n, leaper=leaper, removed=removed).to_networkx()
    if n is not None or leaper != KNIGHT or tuple(removed):
        raise _BoardAndSizesError(
            f"pass either a Board or sizes with leaper/removed, not both (got {m!r} "
            f"with n={n!r}, leaper={leaper!r}, removed={tuple(removed)!r})"
        )
    return m.to_networkx()
