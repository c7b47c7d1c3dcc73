"""Tours: the path on the board and the numbered board.

:func:`draw_tour` draws the path, :func:`path_collection` finds it again on the Axes,
:func:`draw_numbered_board` writes the visiting numbers into the squares.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InvalidOptionError
from ._style import board_axes, checkered, frame_board, path_cmap, square_points

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection
    from numpy.typing import NDArray

    from ..boards.board import Board
    from ..tours.tour import Tour

CHECKERED_LIMIT = 10_000
"""Largest board (squares) drawn checkered, labelled and with vector lines."""
NUMBERS_LIMIT = 2_500
"""Largest board (squares) on which visiting numbers are drawn (50 x 50)."""
STEP_MAP_LIMIT = 1_000_000
"""Beyond this many squares :func:`draw_tour` draws the step map, not lines."""
_PATH_GID = "knightgraph-path"


def tour_points(tour: Tour) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The squares of ``tour`` as ``(x, y) = (file, rank)`` rows, in visiting order."""
    r, c = np.divmod(tour.order.astype(np.int64), tour.board.n)
    return np.column_stack([c, r]).astype(np.float64)


def _segments(tour: Tour) -> np.ndarray[Any, np.dtype[np.float64]]:
    """One ``[[x0, y0], [x1, y1]]`` segment per move, the closing move last."""
    pts = tour_points(tour)
    ends = np.roll(pts, -1, axis=0) if tour.closed and len(pts) > 1 else pts[1:]
    return np.stack([pts[: len(ends)], ends], axis=1)


def path_collection(ax: Axes) -> LineCollection:
    """The path drawn by :func:`draw_tour` on ``ax``: a LineCollection, one segment per move.

    For a closed tour the last segment is the closing move (drawn dashed).

    Raises
    ------
    LookupError
        If ``ax`` holds no tour path.

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> lines = path_collection(draw_tour(find_tour(5, 6, closed=True).tour))
    >>> len(lines.get_segments())  # 30 moves, the closing move too
    30
    >>> from matplotlib.figure import Figure
    >>> path_collection(Figure().subplots())
    Traceback (most recent call last):
    ...
    LookupError: these Axes hold no tour drawn by knightgraph.draw
    """
    for coll in ax.collections:
        if coll.get_gid() == _PATH_GID:
            return coll  # type: ignore[return-value]
    raise LookupError("these Axes hold no tour drawn by knightgraph.draw")


def _graph_tour(
    tour: Tour, ax: Axes | None, numbers: bool, cmap: Any, rectangle_only: dict[str, Any]
) -> Axes:
    """A tour of a graph board, drawn by :func:`~knightgraph.draw.draw_graph_tour`, which takes
    ``ax``, ``numbers`` and ``cmap``; a rectangle's option given otherwise than its default (read
    from :func:`draw_tour`'s signature) is refused."""
    import inspect

    from .shapeplot import draw_graph_tour

    defaults = inspect.signature(draw_tour).parameters
    if any(value != defaults[key].default for key, value in rectangle_only.items()):
        raise InvalidOptionError(
            "a tour of a graph board takes ax, numbers and cmap only (arrows, color_by, "
            "markers, labels, linewidth and title are a rectangle's)"
        )
    return draw_graph_tour(tour, ax=ax, numbers=numbers, cmap=cmap)


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
    if tour.board.rectangle is None:  # a torus, cylinder, 3-D board or graph: its own picture
        rectangle_only = dict(
            arrows=arrows,
            color_by=color_by,
            markers=markers,
            labels=labels,
            linewidth=linewidth,
            title=title,
        )
        return _graph_tour(tour, ax, numbers, cmap, rectangle_only)
    board = tour.board
    m, n, area = board.m, board.n, board.area
    _check_drawing(board, numbers=numbers, arrows=arrows, color_by=color_by)
    small = max(3.0, min(7.0, 0.9 * max(m, n)))  # a 1 x 1 board needs no big figure
    long_side = min(24.0, max(small, 0.42 * max(m, n))) if numbers else small
    ax = board_axes(ax, m, n, long_side=long_side)
    square = square_points(ax, m, n)
    kind = "closed" if tour.closed else "open"
    if labels:
        default = f"{kind} tour of {m} x {n}: {board.name(tour.start)} to {board.name(tour.end)}"
        ax.set_title(title or default, fontsize=11)
    frame_board(ax, m, n, labels=labels, square=square)
    if area > STEP_MAP_LIMIT:
        return _step_map(ax, tour, path_cmap(cmap))

    cmap = path_cmap(cmap)
    if area <= CHECKERED_LIMIT:  # the smaller the squares, the paler the board
        checkered(ax, m, n, board.removed, fade=min(0.8, max(0.0, (24 - square) / 20)))
    else:
        ax.set_facecolor("#faf6ee")
    segs = _segments(tour)
    width = linewidth if linewidth is not None else min(2.5, max(0.15, square * 0.12))
    path = _path(tour, segs, width, numbers=numbers)
    colour = _colouring(board, segs, color_by, cmap)
    colour(path)
    ax.add_collection(path, autolim=False)
    if arrows and len(segs):
        colour(_arrows(ax, segs, m, n))
    if numbers:
        digits = len(str(len(tour)))
        size = min(14.0, 0.45 * square, 1.5 * square / digits)
        _write_numbers(ax, tour.numbered(), size, halo=0.3, zorder=5)
    if markers:
        _mark_ends(ax, tour, square)
    return ax


def _check_drawing(board: Board, *, numbers: bool, arrows: bool, color_by: str | None) -> None:
    """Refuse what :func:`draw_tour` cannot show, before any drawing."""
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


def _path(tour: Tour, segs: NDArray[Any], width: float, *, numbers: bool) -> Any:
    """The tour's moves as one LineCollection (a closed tour's closing move last, dashed)."""
    from matplotlib.collections import LineCollection

    moves = len(segs)
    styles: Any = "solid"
    if tour.closed and moves:
        styles = ["solid"] * (moves - 1) + [(0, (2.5, 1.5))]
    return LineCollection(
        list(segs) if moves else [],
        linewidths=width,
        linestyles=styles,
        capstyle="round",
        joinstyle="round",
        alpha=0.75 if numbers else 1.0,
        zorder=2,
        rasterized=tour.board.area > CHECKERED_LIMIT,
        gid=_PATH_GID,
        label="closing move dashed" if tour.closed else "path",
    )


def _colouring(board: Board, segs: NDArray[Any], color_by: str | None, cmap: Any) -> Any:
    """A function that colours the path (or its arrows) move by move: by step number, by
    direction (the leaper's moves, ten colours) or all alike."""
    from matplotlib.colors import Normalize

    moves = len(segs)
    if color_by == "step":

        def by_step(artist: Any) -> None:
            artist.set_array(np.arange(moves))
            artist.set_cmap(cmap)
            artist.set_norm(Normalize(0, max(moves - 1, 1)))

        return by_step
    if color_by == "direction":
        from matplotlib import colormaps

        delta = segs[:, 1] - segs[:, 0]  # (d_file, d_rank)
        kinds = {(dr, dc): k for k, (dr, dc) in enumerate(board.offsets)}
        index = [kinds.get((int(dy), int(dx)), 0) for dx, dy in delta.tolist()]
        colours = colormaps["tab10"](np.asarray(index) % 10)
        return lambda artist: artist.set_color(colours)
    return lambda artist: artist.set_color("#1d3557")


def _arrows(ax: Axes, segs: NDArray[Any], m: int, n: int) -> Any:
    """An arrowhead in the middle of every move, pointing the way the tour goes."""
    mid = segs.mean(axis=1)
    delta = segs[:, 1] - segs[:, 0]
    unit = delta / np.hypot(delta[:, 0], delta[:, 1])[:, None]
    return ax.quiver(
        mid[:, 0],
        mid[:, 1],
        unit[:, 0],
        unit[:, 1],
        angles="xy",
        scale_units="xy",
        scale=1 / 0.3,
        pivot="mid",
        width=0.004 * 8 / max(m, n, 8),
        headwidth=4,
        headlength=4,
        headaxislength=3.5,
        zorder=3,
    )


def _mark_ends(ax: Axes, tour: Tour, square: float) -> None:
    """A green circle on the start and a red square on the end."""
    board = tour.board
    x0, y0 = tour_points(tour)[[0, -1]].T
    size = min(28.0, max(14.0, square * 0.8))  # on big boards: a few squares across
    edge = min(3.0, max(2.0, square * 0.06))
    mark: dict[str, Any] = {
        "mfc": "none",
        "mew": edge,
        "ls": "none",
        "zorder": 4,
        "clip_on": False,
    }
    ax.plot(
        [x0[0]],
        [y0[0]],
        marker="o",
        ms=size,
        mec="#1a9850",
        label=f"start {board.name(tour.start)}",
        **mark,
    )
    ax.plot(
        [x0[1]],
        [y0[1]],
        marker="s",
        ms=size * 0.85,
        mec="#d73027",
        label=f"end {board.name(tour.end)}",
        **mark,
    )


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

    board = tour.board
    m, n = board.m, board.n
    if board.area > NUMBERS_LIMIT:
        raise InvalidOptionError(
            f"a numbered board is drawn for at most {NUMBERS_LIMIT:,} squares, not {m}x{n}"
        )
    ax = board_axes(ax, m, n, long_side=min(24.0, max(5.0, 0.5 * max(m, n))))
    square = square_points(ax, m, n)
    grid = tour.numbered()
    if shade:
        tint = np.ma.masked_equal(grid, 0).astype(float)
        ax.imshow(
            tint,
            origin="lower",
            cmap=path_cmap(None),
            alpha=0.6,
            vmin=1,
            vmax=max(2, len(tour)),
            extent=(-0.5, n - 0.5, -0.5, m - 0.5),
            interpolation="nearest",
            zorder=1,
        )
    else:
        checkered(ax, m, n, board.removed)
    digits = len(str(len(tour)))
    size = min(16.0, 0.5 * square, 1.6 * square / digits)
    _write_numbers(ax, grid, size, halo=0.25, zorder=3, bold={1, len(tour)})
    if labels:
        kind = "closed" if tour.closed else "open"
        ax.set_title(f"{kind} tour of {m} x {n}, numbered", fontsize=11)
    frame_board(ax, m, n, labels=labels, square=square)
    return ax


def _write_numbers(
    ax: Axes,
    grid: np.ndarray[Any, Any],
    size: float,
    *,
    halo: float,
    zorder: int,
    bold: Collection[int] = (),
) -> None:
    """The visiting number of every square of ``grid`` (0: not on the tour), centred, with a
    white halo ``halo * size`` wide so they read on any colour; the numbers in ``bold`` bold."""
    from matplotlib import patheffects

    effects = [patheffects.withStroke(linewidth=max(1.0, size * halo), foreground="white")]
    for (r, c), value in np.ndenumerate(grid):
        if value:
            ax.text(
                c,
                r,
                str(value),
                ha="center",
                va="center",
                fontsize=size,
                zorder=zorder,
                fontweight="bold" if value in bold else "normal",
                path_effects=effects,
            )
