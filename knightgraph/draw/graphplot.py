"""Knight graphs: :func:`draw_knight_graph` in six layouts (board, networkx's, bipartite)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..boards.board import file_name
from ..exceptions import InvalidOptionError
from ._style import DARK, LIGHT, new_axes, new_figure

if TYPE_CHECKING:
    import networkx as nx
    from matplotlib.axes import Axes

LAYOUTS = ("board", "spring", "circular", "spectral", "shell", "bipartite")
"""Layouts of :func:`draw_knight_graph`."""
LAYOUT_LIMIT = 2_500
"""Largest graph (nodes) for the computed layouts (all but ``board``)."""


def _layout(G: nx.Graph, layout: str, nodes: list[Any], seed: int) -> dict[Any, Any]:
    import networkx as nx

    if layout == "board":
        pos = {}
        for v in nodes:
            if "pos" in G.nodes[v]:
                pos[v] = G.nodes[v]["pos"]
            elif isinstance(v, tuple) and len(v) == 2:
                pos[v] = (v[1], v[0])
            else:
                raise InvalidOptionError(
                    f"layout 'board' needs (r, c) nodes or a 'pos' attribute; node {v!r} has neither"
                )
        return pos
    if len(nodes) > LAYOUT_LIMIT:
        raise InvalidOptionError(
            f"layout {layout!r} is computed for graphs of at most {LAYOUT_LIMIT:,} nodes, "
            f"not {len(nodes):,}: use layout 'board'"
        )
    colour = {v: _node_colour(G, v) for v in nodes}
    try:
        if layout == "spring":
            return dict(nx.spring_layout(G, seed=seed))
        if layout == "circular":
            return dict(nx.circular_layout(G))
        if layout == "spectral":
            return dict(nx.spectral_layout(G))
        if layout == "shell":
            degree = dict(G.degree())
            rings = sorted(set(degree.values()), reverse=True)  # most moves in the middle
            shells = [[v for v in nodes if degree[v] == d] for d in rings]
            return dict(nx.shell_layout(G, nlist=shells))
        return _bipartite_layout(nodes, colour)
    except ImportError as err:  # scipy, for big graphs
        raise InvalidOptionError(f"layout {layout!r} of this graph needs {err.name}") from None


def _bipartite_layout(nodes: list[Any], colour: dict[Any, int]) -> dict[Any, Any]:
    """Colour 0 in the left column, colour 1 in the right, each in square-name order
    (a1, a3, ..., b2, ...) from the top, one unit apart; taller than wide."""

    def order(v: Any) -> tuple[int, int, int, str]:
        if isinstance(v, tuple) and len(v) == 2:
            return (0, int(v[1]), int(v[0]), "")  # file, then rank: the order of the names
        return (1, 0, 0, str(v))

    columns = [sorted((v for v in nodes if colour[v] == k), key=order) for k in (0, 1)]
    tall = max(len(column) for column in columns) - 1
    gap = max(2.0, tall * 2 / 3)
    return {
        v: (k * gap, tall / 2 - i) for k, column in enumerate(columns) for i, v in enumerate(column)
    }


def _node_size(
    ax: Axes, xy: np.ndarray[Any, Any], width: float, height: float, *, spacing: float | None
) -> float:
    """Marker area (points squared) of the nodes: 60 % of the typical distance between
    neighbouring nodes as drawn (``spacing`` in data units, else the median distance of a
    node to its nearest one), but at least a quarter of the side of the Axes' share per
    node (so that clustered layouts stay visible), and 2.5 to 24 points across."""
    fig = new_figure(ax)
    box = ax.get_position()
    scale = min(  # points per data unit, with equal aspect
        box.width * fig.get_figwidth() * 72 / max(width, 1e-9),
        box.height * fig.get_figheight() * 72 / max(height, 1e-9),
    )
    if spacing is None:
        if len(xy) < 2:
            spacing = max(width, height)
        else:
            gaps = np.full(len(xy), np.inf)
            for lo in range(0, len(xy), 500):  # nearest neighbours, 500 rows at a time
                block = np.hypot(*(xy[lo : lo + 500, None, :] - xy[None, :, :]).transpose(2, 0, 1))
                block[np.arange(len(block)), np.arange(lo, lo + len(block))] = np.inf
                gaps[lo : lo + len(block)] = block.min(axis=1)
            spacing = float(np.median(gaps))
    share = (
        math.sqrt(
            box.width * box.height * fig.get_figwidth() * fig.get_figheight() / max(1, len(xy))
        )
        * 72
    )
    across = min(24.0, max(2.5, 0.6 * spacing * scale, 0.25 * share))
    return across * across


def _node_colour(G: nx.Graph, v: Any) -> int:
    if "color" in G.nodes[v]:
        return int(G.nodes[v]["color"])
    if isinstance(v, tuple) and len(v) == 2:
        return (int(v[0]) + int(v[1])) % 2
    return 0


def draw_knight_graph(
    G: nx.Graph,
    *,
    ax: Axes | None = None,
    layout: str = "board",
    color_by: str = "color",
    labels: bool | None = None,
    seed: int = 0,
) -> Axes:
    """Draw a knight graph (see :func:`~knightgraph.knight_graph`) in one of six layouts.

    Parameters
    ----------
    G : networkx.Graph
        Nodes ``(r, c)``, as :func:`~knightgraph.knight_graph` makes them
        (``pos`` and ``color`` attributes are used when present).
    ax : matplotlib Axes, optional
    layout : {"board", "spring", "circular", "spectral", "shell", "bipartite"}
        ``board`` puts every square where it is on the board; ``shell`` puts
        squares of equal degree on one ring (most moves innermost, as on the board);
        ``bipartite`` puts the two colour classes side by side, each column
        in square-name order from the top (every move joins the columns);
        the others are networkx's layouts (``spring`` seeded).
    color_by : {"color", "degree"}, default "color"
        Colour the nodes by square colour (a1's colour dark) or by degree
        (number of moves, with a legend).
    labels : bool, optional
        Write square names on the nodes (default: when there are at most 64).
    seed : int, default 0
        Seed of the spring layout.

    Returns
    -------
    matplotlib.axes.Axes
        The edges are one LineCollection (gid ``"edges"``, one segment per
        edge), the nodes one scatter (gid ``"nodes"``).

    Examples
    --------
    >>> from knightgraph import knight_graph
    >>> ax = draw_knight_graph(knight_graph(4, 5), layout="bipartite", color_by="degree")
    >>> [len(c.get_segments()) for c in ax.collections if c.get_gid() == "edges"]
    [34]
    """
    from matplotlib.collections import LineCollection

    if layout not in LAYOUTS:
        raise InvalidOptionError(f"invalid layout {layout!r}: choose from {', '.join(LAYOUTS)}")
    if color_by not in ("color", "colour", "degree"):
        raise InvalidOptionError(f"invalid color_by {color_by!r}: choose 'color' or 'degree'")
    nodes = list(G.nodes)
    pos = _layout(G, layout, nodes, seed)
    xy = np.array([pos[v] for v in nodes], dtype=float).reshape(-1, 2)
    span = np.ptp(xy, axis=0) if len(xy) else np.zeros(2)
    pad = 0.6 if layout == "board" else 0.12 * max(1e-9, float(span.max()))
    width, height = float(span[0]) + 2 * pad, float(span[1]) + 2 * pad
    if ax is None:  # shaped like the drawing (within 2:1), so that it fills the figure
        big = max(width, height)
        ax = new_axes(7 * max(0.5, width / big) + 1.2, 7 * max(0.5, height / big) + 1.2)
    spacing = {"board": 1.0, "bipartite": 1.25}.get(layout)  # bipartite: one neighbour only
    size = _node_size(ax, xy, width, height, spacing=spacing)
    index = {v: i for i, v in enumerate(nodes)}
    edges = [(xy[index[u]], xy[index[v]]) for u, v in G.edges]
    ax.add_collection(
        LineCollection(
            edges,
            colors="#555555",
            linewidths=0.6 if len(edges) < 2000 else 0.3,
            alpha=0.55,
            zorder=1,
            gid="edges",
        ),
        autolim=False,
    )
    if color_by == "degree":
        _nodes_by_degree(ax, G, nodes, xy, size)
    else:
        fill = [DARK if _node_colour(G, v) == 0 else LIGHT for v in nodes]
        ax.scatter(
            xy[:, 0],
            xy[:, 1],
            s=size,
            c=fill,
            edgecolors="#222222",
            linewidths=0.6,
            zorder=2,
            gid="nodes",
        )
    if labels or (labels is None and len(nodes) <= 64):
        font = min(8.0, max(4.0, math.sqrt(size) * 0.34))
        for v, (x, y) in zip(nodes, xy.tolist(), strict=True):
            name = G.nodes[v].get("name", str(v))
            ax.text(x, y, name, ha="center", va="center", fontsize=font, zorder=3)
    if len(xy):
        ax.set_xlim(xy[:, 0].min() - pad, xy[:, 0].max() + pad)
        ax.set_ylim(xy[:, 1].min() - pad, xy[:, 1].max() + pad)
    ax.set_aspect("equal")
    _axes_and_title(ax, G, nodes, layout)
    return ax


def _nodes_by_degree(ax: Axes, G: nx.Graph, nodes: list[Any], xy: Any, size: float) -> None:
    """The nodes coloured by degree, with a legend of the degrees."""
    from matplotlib import colormaps
    from matplotlib.lines import Line2D

    degree = np.array([G.degree(v) for v in nodes], dtype=float)
    top = max(8.0, float(degree.max(initial=0)))
    ax.scatter(
        xy[:, 0],
        xy[:, 1],
        s=size,
        c=degree,
        cmap="viridis",
        vmin=0,
        vmax=top,
        edgecolors="#222222",
        linewidths=0.5,
        zorder=2,
        gid="nodes",
    )
    handles = [
        Line2D(
            [],
            [],
            ls="none",
            marker="o",
            mec="#222222",
            ms=7,
            label=str(d),
            mfc=colormaps["viridis"](d / top),
        )
        for d in sorted({int(d) for d in degree})
    ]
    ax.legend(
        handles=handles,
        title="degree",
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize=8,
        title_fontsize=8,
        frameon=False,
    )


def _axes_and_title(ax: Axes, G: nx.Graph, nodes: list[Any], layout: str) -> None:
    """Files and ranks along the edges in the board layout (no axes otherwise), and the
    title: what the graph is, its squares and moves, the layout."""
    if layout == "board" and nodes and all(isinstance(v, tuple) for v in nodes):
        m = 1 + max(int(v[0]) for v in nodes)
        n = 1 + max(int(v[1]) for v in nodes)
        cols, rows = range(0, n, max(1, math.ceil(n / 26))), range(0, m, max(1, math.ceil(m / 26)))
        ax.set_xticks(list(cols), [file_name(c) for c in cols], fontsize=8)
        ax.set_yticks(list(rows), [str(r + 1) for r in rows], fontsize=8)
        ax.tick_params(length=0)
    else:
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_frame_on(False)
    what = G.graph.get("name") or "graph"
    if "rows" in G.graph and "cols" in G.graph:
        piece = "knight" if tuple(G.graph.get("leaper", (1, 2))) == (1, 2) else "leaper"
        what = f"{piece} graph {G.graph['rows']} x {G.graph['cols']}"
    ax.set_title(
        f"{what}: {G.number_of_nodes()} squares, {G.number_of_edges()} moves ({layout} layout)",
        fontsize=10,
    )
