"""Pictures of tours on graph boards: tori and cylinders drawn flat with their wrap moves
marked, 3-D boards as their levels side by side, any other graph in a layout.

Examples
--------
>>> from knightgraph import find_tour
>>> from knightgraph.boards.topology import topology_board
>>> tour = find_tour(topology_board(5, 5, wrap="both"), closed=True).tour
>>> ax = draw_graph_tour(tour)
>>> moves, wraps = ax.collections[-2:]
>>> len(moves.get_segments()) + len(wraps.get_segments()) // 2  # each wrap move: two stubs
25
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InvalidOptionError
from ..tours.tour import Tour
from ._style import DARK, LIGHT, new_axes, path_cmap

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["draw_graph_tour"]


def draw_graph_tour(
    tour: Tour, *, ax: Axes | None = None, numbers: bool = False, cmap: Any = None
) -> Axes:
    """Draw a tour of a graph board.

    A board with a shape (:func:`~knightgraph.boards.topology.topology_board`) is drawn as
    squares: a move that wraps around is drawn as two dashed stubs, one leaving the
    board at the edge it crosses and one entering at the other side; the levels of a
    3-D board stand side by side, level 1 on the left (moves between levels cross the
    gap).  A general graph is drawn in its ``pos`` layout, or a seeded spring layout.
    Moves are coloured from the first (purple) to the last (yellow); the start is
    circled.

    Parameters
    ----------
    tour : Tour
        A tour of a :class:`~knightgraph.boards.graphboard.GraphBoard`.
    ax : matplotlib Axes, optional
    numbers : bool
        Write the visiting numbers on the squares (vertices).
    cmap : colormap, optional

    Examples
    --------
    >>> import networkx as nx
    >>> from knightgraph import find_tour
    >>> ax = draw_graph_tour(find_tour(nx.dodecahedral_graph(), closed=True).tour, numbers=True)
    >>> len(ax.texts)
    20
    """
    if not isinstance(tour, Tour) or tour.board.rectangle is not None:
        raise InvalidOptionError(f"cannot draw {tour!r}: expected a Tour of a GraphBoard")
    from matplotlib.collections import LineCollection

    board = tour.board
    order = list(tour.order)
    shape = board.shape
    pos = _positions(board)
    xs, ys = pos[:, 0], pos[:, 1]
    width, height = float(np.ptp(xs)) + 1, float(np.ptp(ys)) + 1
    if ax is None:
        big = max(width, height)
        ax = new_axes(7 * width / big + 0.6, 7 * height / big + 0.6)
    if shape is not None:
        from matplotlib.patches import Rectangle

        for v, (x, y) in enumerate(pos):
            r, c = board.node(v)[:2]
            colour = LIGHT if (r + c) % 2 else DARK
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, color=colour, zorder=0))
    pairs = list(zip(order, order[1:] + order[:1], strict=True))[: len(order) - 1 + tour.closed]
    straight, stubs, colours, stub_colours = [], [], [], []
    palette = path_cmap(cmap)
    for k, (u, v) in enumerate(pairs):
        colour = palette(k / max(1, len(pairs) - 1))
        jump = _wrapped_step(board, u, v)
        if jump is None:
            straight.append([pos[u], pos[v]])
            colours.append(colour)
        else:
            stubs += [[pos[u], pos[u] + jump / 2], [pos[v], pos[v] - jump / 2]]
            stub_colours += [colour, colour]
    ax.add_collection(LineCollection(straight, colors=colours, linewidths=1.5, zorder=2))
    ax.add_collection(
        LineCollection(stubs, colors=stub_colours, linewidths=1.5, linestyles="--", zorder=2)
    )
    ax.plot(*pos[order[0]], "o", ms=12, mfc="none", mec="black", zorder=3)
    if numbers:
        for i, v in enumerate(order):
            x, y = pos[v]
            ax.text(x, y, str(i + 1), ha="center", va="center", fontsize=7, zorder=4)
    ax.set_xlim(xs.min() - 1, xs.max() + 1)
    ax.set_ylim(ys.min() - 1, ys.max() + 1)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"{'closed' if tour.closed else 'open'} tour of the {board.kind}", fontsize=9)
    return ax


def _positions(board: Any) -> np.ndarray[Any, Any]:
    """One (x, y) point per vertex, in index order."""
    if board.pos is not None:
        return np.array([board.pos[v] for v in board.nodes()], dtype=float)
    import networkx as nx

    layout = nx.spring_layout(board.to_networkx(), seed=0)
    scale = max(2.0, float(np.sqrt(board.num_squares)))
    points: np.ndarray[Any, Any] = np.array([layout[v] for v in board.nodes()], dtype=float)
    points *= scale
    return points


def _wrapped_step(board: Any, u: int, v: int) -> np.ndarray[Any, Any] | None:
    """The move ``u -> v`` as drawn when it wraps around (x, y offset), else None."""
    if board.wrap is None or board.shape is None:
        return None
    m, n = board.shape[:2]
    (r0, c0), (r1, c1) = board.node(u)[:2], board.node(v)[:2]
    dr, dc = r1 - r0, c1 - c0
    steps = sorted(board.leaper or ())
    if sorted(x for x in (abs(dr), abs(dc))) in (steps[-2:], [0, *steps[-1:]]):
        return None  # a move on the flat board (3-D: the third step is between levels)
    if board.wrap in ("rows", "both") and abs(dr) > m / 2:
        dr -= m if dr > 0 else -m
    if board.wrap in ("cols", "both") and abs(dc) > n / 2:
        dc -= n if dc > 0 else -n
    if (dr, dc) == (r1 - r0, c1 - c0):
        return None
    return np.array([dc, dr], dtype=float)
