"""The board of an entry point's arguments: ``(m, n=None, *, leaper, removed)``, a
:class:`~knightgraph.Board`, or (where every board kind is taken) a graph.

Examples
--------
>>> as_board(3, 4), as_any_board(Board(5, 5))
(Board(3, 4), Board(5, 5))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..exceptions import InvalidOptionError
from .board import KNIGHT, Board, SquareLike, coerce_square

__all__ = ["as_any_board", "as_board"]


def as_any_board(
    m: Any,
    n: int | None = None,
    *,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    stop: Callable[[], bool] | None = None,
) -> Any:
    """The board of an entry point that takes every board kind: the one place that asks
    whether it was given a graph.

    ``stop`` is handed to :meth:`~knightgraph.boards.graphboard.GraphBoard.from_networkx`
    (a search's clock, read while a large graph is read).

    A networkx graph or a :class:`~knightgraph.boards.graphboard.GraphBoard` (a torus, a
    cylinder, a 3-D board) as ``m``, with no ``n``, ``leaper`` or ``removed``, gives its
    graph board; anything else is :func:`as_board`'s.

    Examples
    --------
    >>> import networkx as nx
    >>> as_any_board(nx.path_graph(3)), as_any_board(5, 6)
    (GraphBoard(graph, 3 vertices, 2 edges), Board(5, 6))
    >>> as_any_board(nx.path_graph(3), 4)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: a graph takes no n, leaper or removed squares
    """
    if not isinstance(m, Board | int):  # the graph module is imported only for a graph
        from .graphboard import GraphBoard, is_graph

        if is_graph(m) or isinstance(m, GraphBoard):
            if n is not None or tuple(leaper) != KNIGHT or tuple(removed):
                raise InvalidOptionError("a graph takes no n, leaper or removed squares")
            return m if isinstance(m, GraphBoard) else GraphBoard.from_networkx(m, stop=stop)
    return as_board(m, n, leaper=leaper, removed=removed)


def as_board(
    m: int | Board,
    n: int | None = None,
    *,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
) -> Board:
    """The board of an entry point's ``(m, n=None, *, leaper, removed)`` arguments.

    ``m`` may be a :class:`Board`; then ``n``, ``leaper`` and ``removed`` must
    be left out or agree with it (a conflicting value is an error, never
    silently ignored).  Otherwise ``Board(m, n or m, leaper=..., removed=...)``.

    Examples
    --------
    >>> as_board(5), as_board(Board(3, 4)), as_board(Board(3, 4, leaper=(1, 3)), leaper=(1, 3))
    (Board(5, 5), Board(3, 4), Board(3, 4, leaper=(1, 3)))
    >>> as_board(Board(8, 8), leaper=(1, 3))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid leaper (1, 3): the board Board(8, 8) has its leaper already; give one or the other
    """
    if not isinstance(m, Board):
        return Board(m, m if n is None else n, leaper=leaper, removed=removed)
    try:
        given = None if isinstance(removed, str) else {coerce_square(sq) for sq in removed}
    except TypeError:
        given = None
    for what, value, clash in (
        ("n", n, n is not None),
        ("leaper", tuple(leaper), tuple(leaper) not in (KNIGHT, m.leaper)),
        ("removed", removed, given is None or (given and given != set(m.removed))),
    ):
        if clash:
            raise InvalidOptionError(
                f"invalid {what} {value!r}: the board {m!r} has its "
                f"{what} already; give one or the other"
            )
    return m
