"""Pictures: tours, numbered boards, knight graphs, existence tables, animations, scaling.

Every function draws onto a matplotlib ``Axes`` and returns it.  Pass ``ax=`` to
draw into a figure of your own (``fig, ax = plt.subplots()``); without one, a
new figure is made on matplotlib's Agg canvas, which needs no display and never
touches pyplot's global state.  Nothing here calls ``plt.show()``.  Save with
:func:`save_figure`, which picks the format from the file suffix and writes the
file atomically (whole or not at all).  matplotlib is imported inside the
functions, so ``import knightgraph.draw`` stays light.

Scale
-----
Up to 10,000 squares (100 x 100) a tour is drawn on a checkered board with
algebraic labels; beyond that the board is a plain background and the path,
one line per move, is rasterised (so an SVG or PDF stays small).  Beyond
1,000,000 squares a move is far below a pixel, so :func:`draw_tour` draws the
*step map* instead: each square coloured by when the tour visits it.

Examples
--------
>>> from knightgraph import find_tour
>>> from knightgraph.draw import draw_tour, path_collection
>>> tour = find_tour(6, 6, closed=True, seed=0).tour
>>> ax = draw_tour(tour, numbers=True)
>>> len(path_collection(ax).get_segments())  # one segment per move, the closing one too
36
>>> path_collection(ax).get_linestyles()[-1] != path_collection(ax).get_linestyles()[0]
True
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .board import file_name
from .exceptions import InvalidOptionError

if TYPE_CHECKING:
    import networkx as nx
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    from .explore import ExistenceTable
    from .tour import Tour

__all__ = [
    "ANIMATION_FORMATS",
    "FORMATS",
    "LAYOUTS",
    "MAX_DPI",
    "animate_tour",
    "draw_existence_table",
    "draw_knight_graph",
    "draw_numbered_board",
    "draw_tour",
    "fit_power_law",
    "path_collection",
    "plot_scaling",
    "save_figure",
    "to_png",
]

FORMATS = ("png", "svg", "pdf", "gif")
"""Picture formats :func:`save_figure` writes, chosen by the file suffix."""
ANIMATION_FORMATS = ("gif", "mp4")
"""Formats :func:`animate_tour` writes (MP4 only when ffmpeg is installed)."""
LAYOUTS = ("board", "spring", "circular", "spectral", "shell", "bipartite")
"""Layouts of :func:`draw_knight_graph`."""

LIGHT, DARK, REMOVED = "#f0e4cc", "#c4a982", "#ffffff"
"""Board colours: light squares, dark squares (colour 0, like a1), removed squares."""
PATH_CMAP = "viridis"
"""The colour map of the path (its bright yellow end is left out, to show on light squares)."""
TABLE_COLOURS = {"c": "#1a9641", "e": "#a6d96a", "o": "#fdae61", "x": "#d7191c", "?": "#ffffff"}
"""Colours of the existence-table codes."""

CHECKERED_LIMIT = 10_000
"""Largest board (squares) drawn checkered, labelled and with vector lines."""
NUMBERS_LIMIT = 2_500
"""Largest board (squares) on which visiting numbers are drawn (50 x 50)."""
STEP_MAP_LIMIT = 1_000_000
"""Beyond this many squares :func:`draw_tour` draws the step map, not lines."""
LAYOUT_LIMIT = 2_500
"""Largest graph (nodes) for the computed layouts (all but ``board``)."""
MAX_DPI = 1200
"""Highest resolution (dots per inch) :func:`save_figure` and :func:`animate_tour` accept."""
_PATH_GID = "knightgraph-path"


# ------------------------------------------------------------------ figures
def _new_axes(width: float, height: float) -> Axes:
    """A fresh Axes on its own Agg figure (no pyplot, no display needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    ax: Axes = fig.add_subplot()
    return ax


def _board_axes(ax: Axes | None, m: int, n: int, *, long_side: float) -> Axes:
    """An Axes for an m x n board: the given one, or a new figure of the right shape."""
    if ax is not None:
        return ax
    big = max(m, n)
    width, height = long_side * n / big + 1.1, long_side * m / big + 1.0
    ax = _new_axes(width, height)
    ax.figure.subplots_adjust(
        left=0.75 / width, right=1 - 0.35 / width, bottom=0.6 / height, top=1 - 0.4 / height
    )
    return ax


def _check_dpi(dpi: float) -> float:
    """``dpi`` if it is a resolution matplotlib can render (0 < dpi <= MAX_DPI)."""
    if not (isinstance(dpi, int | float) and 0 < dpi <= MAX_DPI):  # also rejects NaN
        raise InvalidOptionError(
            f"invalid dpi {dpi!r}: expected a number above 0, at most {MAX_DPI}"
        )
    return float(dpi)


def _figure(obj: Axes | Figure) -> Figure:
    """The top-level figure of an Axes (or of a figure, subfigure: itself or its root)."""
    from matplotlib.figure import Figure

    fig: Any = obj
    while not isinstance(fig, Figure):
        fig = fig.figure
    return fig


def _square_points(ax: Axes, m: int, n: int) -> float:
    """The side of one square in points (1/72 inch), as the Axes is laid out."""
    fig = _figure(ax)
    box = ax.get_position()
    width = box.width * fig.get_figwidth() * 72 / n
    height = box.height * fig.get_figheight() * 72 / m
    return float(min(width, height))


def _frame_board(ax: Axes, m: int, n: int, *, labels: bool, square: float) -> None:
    """Limits, equal aspect, and algebraic file/rank labels (every k-th on big boards)."""
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(-0.5, m - 0.5)
    ax.set_aspect("equal")
    if not labels:
        ax.set_xticks([])
        ax.set_yticks([])
        return
    size = min(10.0, max(6.0, square * 0.45))
    cols = range(0, n, max(1, math.ceil(n / 26)))
    rows = range(0, m, max(1, math.ceil(m / 26)))
    ax.set_xticks(list(cols), [file_name(c) for c in cols], fontsize=size)
    ax.set_yticks(list(rows), [str(r + 1) for r in rows], fontsize=size)
    ax.tick_params(length=0, pad=2)
    for spine in ax.spines.values():
        spine.set_linewidth(0.6)


def _path_cmap(cmap: Any) -> Any:
    """``cmap`` as a Colormap; the default viridis stops at 88 % (no pale yellow)."""
    from matplotlib import colormaps
    from matplotlib.colors import ListedColormap

    if cmap is None:
        return ListedColormap(colormaps[PATH_CMAP](np.linspace(0, 0.88, 256)), name="knightgraph")
    return colormaps[cmap] if isinstance(cmap, str) else cmap


def _checkered(
    ax: Axes, m: int, n: int, removed: Iterable[tuple[int, int]], *, fade: float = 0.0
) -> None:
    """The squares as one image: colour (r + c) % 2, removed squares white.

    ``fade`` (0..1) blends the two colours toward white, so that a path drawn
    over many small squares stays the main thing in the picture.
    """
    from matplotlib.colors import ListedColormap, to_rgb

    def faded(colour: str) -> tuple[float, float, float]:
        r, g, b = (1 - (1 - x) * (1 - fade) for x in to_rgb(colour))
        return r, g, b

    light, dark = faded(LIGHT), faded(DARK)
    r, c = np.indices((m, n))
    grid = ((r + c) % 2).astype(np.int8)
    for sq in removed:
        grid[sq] = 2
    ax.imshow(
        grid,
        origin="lower",
        cmap=ListedColormap(np.array([dark, light, to_rgb(REMOVED)])),
        vmin=0,
        vmax=2,
        extent=(-0.5, n - 0.5, -0.5, m - 0.5),
        interpolation="nearest",
        zorder=0,
    )


def _points(tour: Tour) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The squares of ``tour`` as ``(x, y) = (file, rank)`` rows, in visiting order."""
    r, c = np.divmod(tour.order.astype(np.int64), tour.board.n)
    return np.column_stack([c, r]).astype(np.float64)


def _segments(tour: Tour) -> np.ndarray[Any, np.dtype[np.float64]]:
    """One ``[[x0, y0], [x1, y1]]`` segment per move, the closing move last."""
    pts = _points(tour)
    ends = np.roll(pts, -1, axis=0) if tour.closed and len(pts) > 1 else pts[1:]
    return np.stack([pts[: len(ends)], ends], axis=1)


def path_collection(ax: Axes) -> LineCollection:
    """The path drawn by :func:`draw_tour` on ``ax``: a LineCollection, one segment per move.

    For a closed tour the last segment is the closing move (drawn dashed).

    Raises
    ------
    LookupError
        If ``ax`` holds no tour path.
    """
    for coll in ax.collections:
        if coll.get_gid() == _PATH_GID:
            return coll  # type: ignore[return-value]
    raise LookupError("these Axes hold no tour drawn by knightgraph.draw")


# ---------------------------------------------------------------------- tour
def draw_tour(
    tour: Tour,
    *,
    ax: Axes | None = None,
    numbers: bool = False,
    arrows: bool = False,
    color_by: str | None = "step",
    markers: bool = True,
    labels: bool = True,
    cmap: Any = None,
    linewidth: float | None = None,
    title: str | None = None,
) -> Axes:
    """Draw a tour: the board, the path coloured by step, its start and end.

    Parameters
    ----------
    tour : Tour
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure shaped like the board.
    numbers : bool, default False
        Write the visiting number 1..N in every square (boards up to
        :data:`NUMBERS_LIMIT` squares).
    arrows : bool, default False
        An arrowhead on every move, showing the direction of travel (boards up
        to :data:`CHECKERED_LIMIT` squares).
    color_by : {"step", "direction", None}, default "step"
        Colour each move by its number along the tour (``cmap``, dark first),
        by its direction (the leaper's eight moves, eight colours), or all alike.
    markers : bool, default True
        Mark the start (green circle) and the end (red square).
    labels : bool, default True
        Files ``a, b, ...`` and ranks ``1, 2, ...`` along the edges, and a title.
    cmap : str or Colormap, optional
        The colour map for ``color_by="step"`` (default: viridis, dark
        purple at the start to green at the end).
    linewidth : float, optional
        Width of the path in points (default: scaled to the square size).
    title : str, optional
        Replaces the default title.

    Returns
    -------
    matplotlib.axes.Axes
        The path is one :class:`~matplotlib.collections.LineCollection` (see
        :func:`path_collection`) with one segment per move; a closed tour's
        closing move is its last segment, drawn dashed.

    Raises
    ------
    InvalidOptionError
        For an unknown ``color_by``, or numbers / arrows on a board too big
        to show them.

    Notes
    -----
    Up to :data:`CHECKERED_LIMIT` squares the board is checkered (a1 dark)
    and labelled; beyond, it is a plain background and the path is rasterised.
    Beyond :data:`STEP_MAP_LIMIT` squares the moves are far below a pixel, so
    the picture is the step map: each square coloured by its visiting number.
    Drawing a 100 x 100 tour and saving it as PNG takes about 0.3 s
    (``benchmarks/bench_draw.py``).

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> tour = find_tour(5, 5, start="a1", seed=0).tour
    >>> ax = draw_tour(tour, arrows=True, color_by="direction")
    >>> len(path_collection(ax).get_segments()), ax.get_xticklabels()[0].get_text()
    (24, 'a')
    """
    from matplotlib import patheffects
    from matplotlib.collections import LineCollection
    from matplotlib.colors import Normalize

    board = tour.board
    m, n, area = board.m, board.n, board.area
    if color_by not in ("step", "direction", None):
        raise InvalidOptionError(
            f"invalid color_by {color_by!r}: choose 'step', 'direction' or None"
        )
    if numbers and area > NUMBERS_LIMIT:
        raise InvalidOptionError(
            f"numbers are drawn on boards of at most {NUMBERS_LIMIT:,} squares (50x50), "
            f"not on {m}x{n}"
        )
    if arrows and area > CHECKERED_LIMIT:
        raise InvalidOptionError(
            f"arrows are drawn on boards of at most {CHECKERED_LIMIT:,} squares, not {m}x{n}"
        )
    small = max(3.0, min(7.0, 0.9 * max(m, n)))  # a 1 x 1 board needs no big figure
    long_side = min(24.0, max(small, 0.42 * max(m, n))) if numbers else small
    ax = _board_axes(ax, m, n, long_side=long_side)
    square = _square_points(ax, m, n)
    kind = "closed" if tour.closed else "open"
    if labels:
        default = f"{kind} tour of {m} x {n}: {board.name(tour.start)} to {board.name(tour.end)}"
        ax.set_title(title or default, fontsize=11)
    _frame_board(ax, m, n, labels=labels, square=square)
    if area > STEP_MAP_LIMIT:
        return _step_map(ax, tour, _path_cmap(cmap))

    cmap = _path_cmap(cmap)
    if area <= CHECKERED_LIMIT:  # the smaller the squares, the paler the board
        _checkered(ax, m, n, board.removed, fade=min(0.8, max(0.0, (24 - square) / 20)))
    else:
        ax.set_facecolor("#faf6ee")
    segs = _segments(tour)
    moves = len(segs)
    width = linewidth if linewidth is not None else min(2.5, max(0.15, square * 0.12))
    styles: Any = "solid"
    if tour.closed and moves:
        styles = ["solid"] * (moves - 1) + [(0, (2.5, 1.5))]
    path = LineCollection(
        list(segs) if moves else [],
        linewidths=width,
        linestyles=styles,
        capstyle="round",
        joinstyle="round",
        alpha=0.75 if numbers else 1.0,
        zorder=2,
        rasterized=area > CHECKERED_LIMIT,
        gid=_PATH_GID,
        label="closing move dashed" if tour.closed else "path",
    )
    colours: Any
    if color_by == "step":
        path.set_array(np.arange(moves))
        path.set_cmap(cmap)
        path.set_norm(Normalize(0, max(moves - 1, 1)))
    elif color_by == "direction":
        from matplotlib import colormaps

        delta = segs[:, 1] - segs[:, 0]  # (d_file, d_rank)
        kinds = {(dr, dc): k for k, (dr, dc) in enumerate(board.offsets)}
        index = [kinds.get((int(dy), int(dx)), 0) for dx, dy in delta.tolist()]
        colours = colormaps["tab10"](np.asarray(index) % 10)
        path.set_color(colours)
    else:
        path.set_color("#1d3557")
    ax.add_collection(path, autolim=False)

    if arrows and moves:
        mid = segs.mean(axis=1)
        delta = segs[:, 1] - segs[:, 0]
        unit = delta / np.hypot(delta[:, 0], delta[:, 1])[:, None]
        quiver = ax.quiver(
            mid[:, 0], mid[:, 1], unit[:, 0], unit[:, 1],
            angles="xy", scale_units="xy", scale=1 / 0.3, pivot="mid",
            width=0.004 * 8 / max(m, n, 8), headwidth=4, headlength=4, headaxislength=3.5,
            zorder=3,
        )  # fmt: skip
        if color_by == "step":
            quiver.set_array(np.arange(moves))
            quiver.set_cmap(cmap)
            quiver.set_norm(Normalize(0, max(moves - 1, 1)))
        elif color_by == "direction":
            quiver.set_color(colours)
        else:
            quiver.set_color("#1d3557")

    if numbers:
        grid = tour.numbered()
        digits = len(str(len(tour)))
        size = min(14.0, 0.45 * square, 1.5 * square / digits)
        halo = [patheffects.withStroke(linewidth=max(1.0, size * 0.3), foreground="white")]
        for (r, c), value in np.ndenumerate(grid):
            if value:
                ax.text(c, r, str(value), ha="center", va="center", fontsize=size, zorder=5,
                        path_effects=halo)  # fmt: skip

    if markers:
        x0, y0 = _points(tour)[[0, -1]].T
        size = min(28.0, max(14.0, square * 0.8))  # on big boards: a few squares across
        edge = min(3.0, max(2.0, square * 0.06))
        mark: dict[str, Any] = {
            "mfc": "none",
            "mew": edge,
            "ls": "none",
            "zorder": 4,
            "clip_on": False,
        }
        ax.plot([x0[0]], [y0[0]], marker="o", ms=size, mec="#1a9850",
                label=f"start {board.name(tour.start)}", **mark)  # fmt: skip
        ax.plot([x0[1]], [y0[1]], marker="s", ms=size * 0.85, mec="#d73027",
                label=f"end {board.name(tour.end)}", **mark)  # fmt: skip
    return ax


def _step_map(ax: Axes, tour: Tour, cmap: Any) -> Axes:
    """Each square coloured by its visiting number (for boards too big for lines)."""
    board = tour.board
    stride = max(1, math.ceil(max(board.m, board.n) / 2000))
    steps = np.full(board.area, np.nan, dtype=np.float32)
    steps[tour.order] = np.arange(len(tour), dtype=np.float32)
    grid = steps.reshape(board.m, board.n)[::stride, ::stride]
    ax.imshow(
        grid,
        origin="lower",
        cmap=cmap,
        extent=(-0.5, board.n - 0.5, -0.5, board.m - 0.5),
        interpolation="nearest",
        interpolation_stage="data",
        rasterized=True,
        zorder=0,
    )
    return ax


def draw_numbered_board(
    tour: Tour, *, ax: Axes | None = None, labels: bool = True, shade: bool = False
) -> Axes:
    """The seeds' numbered grid as a figure: each square shows when the tour visits it.

    Parameters
    ----------
    tour : Tour
        On a board of at most :data:`NUMBERS_LIMIT` squares.
    ax : matplotlib Axes, optional
    labels : bool, default True
        Algebraic file and rank labels, and a title.
    shade : bool, default False
        Colour the squares by visiting number (early dark, late light) instead
        of checkering them.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> ax = draw_numbered_board(find_tour(5, 5, start="a1", seed=0).tour)
    >>> sorted(int(t.get_text()) for t in ax.texts) == list(range(1, 26))
    True
    """
    from matplotlib import patheffects

    board = tour.board
    m, n = board.m, board.n
    if board.area > NUMBERS_LIMIT:
        raise InvalidOptionError(
            f"a numbered board is drawn for at most {NUMBERS_LIMIT:,} squares, not {m}x{n}"
        )
    ax = _board_axes(ax, m, n, long_side=min(24.0, max(5.0, 0.5 * max(m, n))))
    square = _square_points(ax, m, n)
    grid = tour.numbered()
    if shade:
        tint = np.ma.masked_equal(grid, 0).astype(float)
        ax.imshow(tint, origin="lower", cmap=_path_cmap(None), alpha=0.6, vmin=1,
                  vmax=max(2, len(tour)), extent=(-0.5, n - 0.5, -0.5, m - 0.5),
                  interpolation="nearest", zorder=1)  # fmt: skip
    else:
        _checkered(ax, m, n, board.removed)
    digits = len(str(len(tour)))
    size = min(16.0, 0.5 * square, 1.6 * square / digits)
    halo = [patheffects.withStroke(linewidth=max(1.0, size * 0.25), foreground="white")]
    ends = {1, len(tour)}
    for (r, c), value in np.ndenumerate(grid):
        if value:
            ax.text(c, r, str(value), ha="center", va="center", fontsize=size, zorder=3,
                    fontweight="bold" if value in ends else "normal",
                    path_effects=halo)  # fmt: skip
    if labels:
        kind = "closed" if tour.closed else "open"
        ax.set_title(f"{kind} tour of {m} x {n}, numbered", fontsize=11)
    _frame_board(ax, m, n, labels=labels, square=square)
    return ax


# --------------------------------------------------------------------- graph
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
    fig = _figure(ax)
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
    share = math.sqrt(box.width * box.height * fig.get_figwidth() * fig.get_figheight()
                      / max(1, len(xy))) * 72  # fmt: skip
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
        ax = _new_axes(7 * max(0.5, width / big) + 1.2, 7 * max(0.5, height / big) + 1.2)
    spacing = {"board": 1.0, "bipartite": 1.25}.get(layout)  # bipartite: one neighbour only
    size = _node_size(ax, xy, width, height, spacing=spacing)
    index = {v: i for i, v in enumerate(nodes)}
    edges = [(xy[index[u]], xy[index[v]]) for u, v in G.edges]
    ax.add_collection(
        LineCollection(edges, colors="#555555", linewidths=0.6 if len(edges) < 2000 else 0.3,
                       alpha=0.55, zorder=1, gid="edges"),
        autolim=False,
    )  # fmt: skip
    if color_by == "degree":
        degree = np.array([G.degree(v) for v in nodes], dtype=float)
        top = max(8.0, float(degree.max(initial=0)))
        ax.scatter(xy[:, 0], xy[:, 1], s=size, c=degree, cmap="viridis", vmin=0,
                          vmax=top, edgecolors="#222222", linewidths=0.5, zorder=2,
                          gid="nodes")  # fmt: skip
        from matplotlib import colormaps
        from matplotlib.lines import Line2D

        handles = [
            Line2D([], [], ls="none", marker="o", mec="#222222", ms=7, label=str(d),
                   mfc=colormaps["viridis"](d / top))
            for d in sorted({int(d) for d in degree})
        ]  # fmt: skip
        ax.legend(handles=handles, title="degree", loc="upper left", bbox_to_anchor=(1.01, 1),
                  fontsize=8, title_fontsize=8, frameon=False)  # fmt: skip
    else:
        fill = [DARK if _node_colour(G, v) == 0 else LIGHT for v in nodes]
        ax.scatter(xy[:, 0], xy[:, 1], s=size, c=fill, edgecolors="#222222", linewidths=0.6,
                   zorder=2, gid="nodes")  # fmt: skip
    if labels or (labels is None and len(nodes) <= 64):
        font = min(8.0, max(4.0, math.sqrt(size) * 0.34))
        for v, (x, y) in zip(nodes, xy.tolist(), strict=True):
            name = G.nodes[v].get("name", str(v))
            ax.text(x, y, name, ha="center", va="center", fontsize=font, zorder=3)
    if len(xy):
        ax.set_xlim(xy[:, 0].min() - pad, xy[:, 0].max() + pad)
        ax.set_ylim(xy[:, 1].min() - pad, xy[:, 1].max() + pad)
    ax.set_aspect("equal")
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
    return ax


# --------------------------------------------------------------------- table
def _table_codes(table: ExistenceTable | Mapping[str, Any] | Sequence[Any]) -> list[list[str]]:
    if hasattr(table, "codes"):
        codes = table.codes
    elif isinstance(table, Mapping):
        codes = table["codes"]
    else:
        codes = table
    rows = [list(row) for row in codes]
    bad = {x for row in rows for x in row} - set(TABLE_COLOURS)
    if not rows or any(len(row) != len(rows[0]) for row in rows) or bad:
        raise InvalidOptionError(
            "an existence table is a rectangle of codes c, e, o, x (or ?)"
            + (f"; found {sorted(bad)!r}" if bad else "")
        )
    return rows


def draw_existence_table(
    table: ExistenceTable | Mapping[str, Any] | Sequence[Any],
    *,
    ax: Axes | None = None,
    letters: bool | None = None,
    title: str | None = None,
) -> Axes:
    """Seed 000's Figure 3.1 as a coloured grid: which m x n boards have which tours.

    Parameters
    ----------
    table : ExistenceTable, dict or list of rows
        From :func:`knightgraph.explore.existence_table`, its ``to_dict()``
        (``codes[m - 1][n - 1]``), or rows of codes ``c``/``e``/``o``/``x``/``?``.
    ax : matplotlib Axes, optional
    letters : bool, optional
        Write the code in each cell (default: up to 40 x 40).
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        Row ``m`` (ranks) runs down, column ``n`` (files) across, as in the seed.

    Examples
    --------
    >>> from knightgraph.explore import existence_table
    >>> ax = draw_existence_table(existence_table(4, 6))
    >>> "".join(t.get_text() for t in ax.texts)
    'oxxxxxxxxxxxxxxoxxxxoxoo'
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    from .explore import CODES

    codes = _table_codes(table)
    m, n = len(codes), len(codes[0])
    order = list(TABLE_COLOURS)
    grid = np.array([[order.index(x) for x in row] for row in codes])
    if ax is None:
        big = max(m, n)
        width, height = 7.0 * n / big + 1.2, 7.0 * m / big + 1.9
        ax = _new_axes(width, height)
        ax.figure.subplots_adjust(left=0.8 / width, right=1 - 0.4 / width, bottom=0.9 / height,
                                  top=1 - 1.0 / height)  # fmt: skip
    ax.imshow(grid, cmap=ListedColormap(list(TABLE_COLOURS.values())), vmin=0,
              vmax=len(order) - 1, extent=(0.5, n + 0.5, m + 0.5, 0.5),
              interpolation="nearest")  # fmt: skip
    ax.set_xticks(range(1, n + 1, max(1, math.ceil(n / 25))))
    ax.set_yticks(range(1, m + 1, max(1, math.ceil(m / 25))))
    ax.tick_params(labelsize=8, length=0, labeltop=True, labelbottom=False)
    ax.set_xlabel("n (files)")
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("m (ranks)")
    ax.set_xticks(np.arange(0.5, n + 1), minor=True)
    ax.set_yticks(np.arange(0.5, m + 1), minor=True)
    ax.grid(which="minor", color="white", linewidth=0.8)
    ax.tick_params(which="minor", length=0)
    if letters or (letters is None and max(m, n) <= 40):
        size = min(10.0, max(4.0, _square_points(ax, m, n) * 0.45))
        for (r, c), code in np.ndenumerate(np.array(codes)):
            ink = "white" if code in ("c", "x") else "black"
            ax.text(c + 1, r + 1, code, ha="center", va="center", fontsize=size, color=ink)
    used = [code for code in order if any(code in row for row in codes) or code != "?"]
    handles = [Patch(facecolor=TABLE_COLOURS[code], edgecolor="#666666",
                     label=f"{code}: {CODES[code]}") for code in used]  # fmt: skip
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01), fontsize=8,
              frameon=False, ncols=2)  # fmt: skip
    ax.set_title(title or f"Knight's tours on m x n boards, 1..{m} x 1..{n}", fontsize=11)
    return ax


# ----------------------------------------------------------------- animation
def animate_tour(
    tour: Tour,
    path: str | os.PathLike[str],
    *,
    fps: int = 12,
    ax: Axes | None = None,
    frames: int | None = None,
    hold: float = 1.0,
    dpi: int = 80,
    **style: Any,
) -> Axes:
    """Write an animation of the tour being walked, move by move, to ``path``.

    Parameters
    ----------
    tour : Tour
    path : str or PathLike
        ``.gif`` (matplotlib's pillow writer) or ``.mp4`` (needs ffmpeg).
        Written atomically: whole or not at all.
    fps : int, default 12
        Frames per second.
    ax : matplotlib Axes, optional
        Where to draw (its figure is what is recorded).
    frames : int, optional
        Number of frames showing the path growing (default: one per move, at
        most 240; on longer tours each frame adds several moves).
    hold : float, default 1.0
        Seconds the finished tour stays on screen at the end.
    dpi : int, default 80
        Resolution of the frames (at most :data:`MAX_DPI`).
    **style
        Passed to :func:`draw_tour` (``numbers``, ``color_by``, ``labels``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        Showing the finished tour.

    Raises
    ------
    InvalidOptionError
        For another suffix, ``.mp4`` without ffmpeg, ``fps`` below 1 or a bad ``dpi``.
    OSError
        If the file cannot be written (nothing is left behind).
    """
    from matplotlib import animation

    target = Path(path)
    suffix = target.suffix.lower().lstrip(".")
    if suffix not in ANIMATION_FORMATS:
        raise InvalidOptionError(
            f"cannot write an animation to {os.fspath(path)!r}: use a .gif or .mp4 file"
        )
    if suffix == "mp4" and not animation.writers.is_available("ffmpeg"):
        raise InvalidOptionError("cannot write MP4: ffmpeg is not installed (write a .gif)")
    if fps < 1:
        raise InvalidOptionError(f"invalid fps {fps}: expected a whole number >= 1")
    _check_dpi(dpi)
    if ax is None:  # small frames: a GIF grows with every pixel of every frame
        ax = _board_axes(None, tour.m, tour.n, long_side=4.5)
    ax = draw_tour(tour, ax=ax, **style)
    fig = _figure(ax)
    lines = path_collection(ax)
    segs = np.asarray(lines.get_segments()).reshape(-1, 2, 2)
    steps = lines.get_array()
    moves = len(segs)
    count = max(1, min(moves, 240) if frames is None else int(frames))
    x0, y0 = _points(tour)[0].tolist()
    knight = ax.text(x0, y0, "\u265e", ha="center", va="center", zorder=6,
                     fontsize=min(30.0, max(8.0, _square_points(ax, tour.m, tour.n) * 0.8)))  # fmt: skip
    writer: Any = (
        animation.PillowWriter(fps=fps) if suffix == "gif" else animation.FFMpegWriter(fps=fps)
    )
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=f".part.{suffix}",
                                   dir=folder)  # fmt: skip
    except OSError as err:
        raise OSError(err.errno, err.strerror, os.fspath(target)) from None
    os.close(fd)
    try:
        with writer.saving(fig, tmp, dpi):
            for k in range(count + 1):
                upto = round(moves * k / count)
                lines.set_segments(list(segs[:upto]))
                if steps is not None:
                    lines.set_array(steps[:upto])
                where = segs[upto - 1, 1] if upto else _points(tour)[0]
                knight.set_position((float(where[0]), float(where[1])))
                writer.grab_frame()
            for _ in range(round(hold * fps)):
                writer.grab_frame()
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return ax


# ------------------------------------------------------------------- scaling
def _scaling_points(
    results: Mapping[Any, float] | Iterable[tuple[Any, float]],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    items = results.items() if isinstance(results, Mapping) else results
    sizes, times = [], []
    for size, seconds in items:
        squares = math.prod(size) if isinstance(size, tuple | list) else size
        sizes.append(float(squares))
        times.append(float(seconds))
    return np.asarray(sizes), np.asarray(times)


def fit_power_law(sizes: Sequence[float], seconds: Sequence[float]) -> tuple[float, float]:
    """Least-squares fit of ``seconds = a * sizes ** b`` on log-log axes; returns ``(a, b)``.

    Raises
    ------
    InvalidOptionError
        With fewer than two distinct positive sizes, or a time that is not positive.

    Examples
    --------
    >>> a, b = fit_power_law([100, 1000, 10000], [0.002, 0.02, 0.2])
    >>> round(a, 6), round(b, 6)
    (2e-05, 1.0)
    """
    x, y = np.asarray(sizes, dtype=float), np.asarray(seconds, dtype=float)
    if len(x) != len(y) or np.any(x <= 0) or np.any(y <= 0) or len(set(x.tolist())) < 2:
        raise InvalidOptionError(
            "a power law needs at least two distinct positive sizes, each with a positive time"
        )
    slope, intercept = np.polyfit(np.log(x), np.log(y), 1)
    return float(math.exp(intercept)), float(slope)


def plot_scaling(
    results: Mapping[Any, float] | Iterable[tuple[Any, float]],
    *,
    ax: Axes | None = None,
    label: str = "measured",
    title: str | None = None,
) -> Axes:
    """Run time against board size on log-log axes, with the fitted power law and its exponent.

    The honest version of seed 000's regression (its section 4.1.6): on
    log-log axes a power law ``t = a N^b`` is a straight line whose slope is
    the exponent, so the fit states the growth rate instead of a curve
    through the points.

    Parameters
    ----------
    results : mapping or iterable of pairs
        ``{size: seconds}`` or ``[(size, seconds), ...]``; a size is the
        number of squares ``N`` or an ``(m, n)`` pair.
    ax : matplotlib Axes, optional
    label : str, default "measured"
        Legend entry of the points.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        The legend's second entry states the fit, e.g. ``fit: 2.1e-08 $N^{1.02}$``
        (matplotlib mathtext).

    Examples
    --------
    >>> ax = plot_scaling({(10, 10): 0.001, (100, 100): 0.1, (1000, 1000): 10.0})
    >>> ax.get_xscale(), ax.get_legend().get_texts()[1].get_text()
    ('log', 'fit: 1e-05 $N^{1.00}$')
    """
    x, y = _scaling_points(results)
    a, b = fit_power_law(x.tolist(), y.tolist())
    ax = _new_axes(6.5, 4.5) if ax is None else ax
    ax.loglog(x, y, "o", color="#1d3557", label=label, zorder=3)
    xs = np.geomspace(x.min(), x.max(), 50)
    ax.loglog(xs, a * xs**b, "--", color="#e63946", label=f"fit: {a:.3g} $N^{{{b:.2f}}}$")
    ax.set_xlabel("board size N (squares)")
    ax.set_ylabel("time (s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=9)
    ax.set_title(title or f"run time grows like $N^{{{b:.2f}}}$", fontsize=11)
    return ax


# -------------------------------------------------------------------- saving
def _picture_format(path: str | os.PathLike[str]) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        shown = f"'.{suffix}'" if suffix else "no suffix"
        raise InvalidOptionError(
            f"cannot write {os.fspath(path)!r}: unknown picture format ({shown}); "
            "use .png, .svg, .pdf or .gif"
        )
    return suffix


def save_figure(
    ax: Axes | Figure, path: str | os.PathLike[str], *, dpi: float | None = None
) -> None:
    """Save the figure of ``ax`` to ``path`` atomically, in the format of its suffix.

    Parameters
    ----------
    ax : matplotlib Axes or Figure
    path : str or PathLike
        Ending in ``.png``, ``.svg``, ``.pdf`` or ``.gif`` (a still picture).
    dpi : float, optional
        Resolution of raster output (default 100; at most :data:`MAX_DPI`).

    Raises
    ------
    InvalidOptionError
        For any other suffix, or a dpi that is not above 0 and at most
        :data:`MAX_DPI` (nothing is written).
    OSError
        If the file cannot be written (nothing is left behind).
    """
    from .formats import atomic_output

    fmt = _picture_format(path)
    dpi = 100.0 if dpi is None else _check_dpi(dpi)
    fig = _figure(ax)
    with atomic_output(path, "wb") as handle:
        if fmt == "gif":
            import io

            from PIL import Image

            png = io.BytesIO()
            fig.savefig(png, format="png", dpi=dpi)
            png.seek(0)
            with Image.open(png) as image:
                image.convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE).save(
                    handle, format="GIF"
                )
        else:
            fig.savefig(handle, format=fmt, dpi=dpi)


def to_png(ax: Axes | Figure, *, dpi: float = 100) -> bytes:
    """The figure of ``ax`` as PNG bytes (what a notebook displays)."""
    import io

    buffer = io.BytesIO()
    _figure(ax).savefig(buffer, format="png", dpi=_check_dpi(dpi))
    return buffer.getvalue()
