"""What the pictures share: new figures, board frames, checkered squares, colours, dpi.

Private to :mod:`knightgraph.draw`: every module of the package draws with these.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..boards.board import file_name
from ..exceptions import InvalidOptionError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

LIGHT, DARK, REMOVED = "#f0e4cc", "#c4a982", "#ffffff"
"""Board colours: light squares, dark squares (colour 0, like a1), removed squares."""
PATH_CMAP = "viridis"
"""The colour map of the path (its bright yellow end is left out, to show on light squares)."""

MAX_DPI = 1200
"""Highest resolution (dots per inch) :func:`save_figure` and :func:`animate_tour` accept."""


def new_axes(width: float, height: float) -> Axes:
    """A fresh Axes on its own Agg figure (no pyplot, no display needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    ax: Axes = fig.add_subplot()
    return ax


def board_axes(ax: Axes | None, m: int, n: int, *, long_side: float) -> Axes:
    """An Axes for an m x n board: the given one, or a new figure of the right shape."""
    if ax is not None:
        return ax
    big = max(m, n)
    width, height = long_side * n / big + 1.1, long_side * m / big + 1.0
    ax = new_axes(width, height)
    ax.figure.subplots_adjust(
        left=0.75 / width, right=1 - 0.35 / width, bottom=0.6 / height, top=1 - 0.4 / height
    )
    return ax


def check_dpi(dpi: float) -> float:
    """``dpi`` if it is a resolution matplotlib can render (0 < dpi <= MAX_DPI)."""
    if not (isinstance(dpi, int | float) and 0 < dpi <= MAX_DPI):  # also rejects NaN
        raise InvalidOptionError(
            f"invalid dpi {dpi!r}: expected a number above 0, at most {MAX_DPI}"
        )
    return float(dpi)


def new_figure(obj: Axes | Figure) -> Figure:
    """The top-level figure of an Axes (or of a figure, subfigure: itself or its root)."""
    from matplotlib.figure import Figure

    fig: Any = obj
    while not isinstance(fig, Figure):
        fig = fig.figure
    return fig


def square_points(ax: Axes, m: int, n: int) -> float:
    """The side of one square in points (1/72 inch), as the Axes is laid out."""
    fig = new_figure(ax)
    box = ax.get_position()
    width = box.width * fig.get_figwidth() * 72 / n
    height = box.height * fig.get_figheight() * 72 / m
    return float(min(width, height))


def frame_board(ax: Axes, m: int, n: int, *, labels: bool, square: float) -> None:
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


def path_cmap(cmap: Any) -> Any:
    """``cmap`` as a Colormap; the default viridis stops at 88 % (no pale yellow)."""
    from matplotlib import colormaps
    from matplotlib.colors import ListedColormap

    if cmap is None:
        return ListedColormap(colormaps[PATH_CMAP](np.linspace(0, 0.88, 256)), name="knightgraph")
    return colormaps[cmap] if isinstance(cmap, str) else cmap


def checkered(
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
