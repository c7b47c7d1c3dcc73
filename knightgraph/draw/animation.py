"""Animations: the tour walked move by move, written as GIF or MP4 (:func:`animate_tour`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InvalidOptionError
from ..running.disk import atomic_path
from ._style import board_axes, check_dpi, new_figure, square_points
from .tourplot import draw_tour, path_collection, tour_points

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..tours.tour import Tour

ANIMATION_FORMATS = ("gif", "mp4")
"""Formats :func:`animate_tour` writes (MP4 only when ffmpeg is installed)."""

MAX_ANIMATION_SQUARES = 10_000
"""The largest board an animation is made of (100 x 100), refused beyond before any work
(:func:`check_animation_size`).

Why a refusal rather than a long wait: every frame redraws the path so far, so the time
grows with the frames times the moves (measured on this 2-core machine under load:
50x50 98 s, 100x100 124 s; 1000x1000 passed 60 s still searching and drawing a million
moves per frame), and the frames are 4.5 inches at 80 dpi: on a board of more than 100
files a square is under 4 pixels, and the walk is not seen.  A user who asks for it
gets one line naming the limit at once (draw the picture instead: ``draw tour`` without
``--animate``); below it, a progress bar of the frames on a terminal, and ``--timeout``
bounds the whole command."""


def check_animation_size(m: int, n: int) -> None:
    """InvalidOptionError for a board of more than :data:`MAX_ANIMATION_SQUARES` squares.

    Examples
    --------
    >>> check_animation_size(100, 100)
    >>> check_animation_size(1000, 1000)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: cannot animate a tour of 1000x1000 (1,000,000 squares): --animate takes at most 10,000 squares (100x100); draw the picture without --animate
    """
    if m * n > MAX_ANIMATION_SQUARES:
        raise InvalidOptionError(
            f"cannot animate a tour of {m}x{n} ({m * n:,} squares): --animate takes at most "
            f"{MAX_ANIMATION_SQUARES:,} squares (100x100); draw the picture without --animate"
        )


def animate_tour(
    tour: Tour,
    path: str | os.PathLike[str],
    *,
    fps: int = 12,
    ax: Axes | None = None,
    frames: int | None = None,
    hold: float = 1.0,
    dpi: int = 80,
    progress: Callable[[dict[str, Any]], None] | None = None,
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
    progress : callable, optional
        Told ``{"done": frames, "total": frames}`` after each frame.
    **style
        Passed to :func:`draw_tour` (``numbers``, ``color_by``, ``labels``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        Showing the finished tour.

    Raises
    ------
    InvalidOptionError
        For another suffix, ``.mp4`` without ffmpeg, ``fps`` below 1, a bad ``dpi``, or
        a board of more than :data:`MAX_ANIMATION_SQUARES` squares.
    OSError
        If the file cannot be written (nothing is left behind).

    Examples
    --------
    >>> import os, tempfile
    >>> from PIL import Image
    >>> from knightgraph import find_tour
    >>> tour = find_tour(3, 4, start="a1").tour
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.gif")
    ...     ax = animate_tour(tour, path, frames=4, hold=0, dpi=40)
    ...     with Image.open(path) as gif:
    ...         gif.format, gif.n_frames  # the empty board, then 4 frames of moves
    ('GIF', 5)
    >>> len(path_collection(ax).get_segments())  # the Axes show the finished tour
    11
    >>> animate_tour(tour, "tour.avi")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: cannot write an animation to 'tour.avi': use a .gif or .mp4 file
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
    check_dpi(dpi)
    check_animation_size(tour.m, tour.n)
    if ax is None:  # small frames: a GIF grows with every pixel of every frame
        ax = board_axes(None, tour.m, tour.n, long_side=4.5)
    ax = draw_tour(tour, ax=ax, **style)
    fig = new_figure(ax)
    lines = path_collection(ax)
    segs = np.asarray(lines.get_segments()).reshape(-1, 2, 2)
    steps = lines.get_array()
    moves = len(segs)
    count = max(1, min(moves, 240) if frames is None else int(frames))
    x0, y0 = tour_points(tour)[0].tolist()
    knight = ax.text(
        x0,
        y0,
        "\u265e",
        ha="center",
        va="center",
        zorder=6,
        fontsize=min(30.0, max(8.0, square_points(ax, tour.m, tour.n) * 0.8)),
    )
    writer: Any = (
        animation.PillowWriter(fps=fps) if suffix == "gif" else animation.FFMpegWriter(fps=fps)
    )
    with atomic_path(target, suffix=f".part.{suffix}") as tmp, writer.saving(fig, tmp, dpi):
        for k in range(count + 1):
            upto = round(moves * k / count)
            lines.set_segments(list(segs[:upto]))
            if steps is not None:
                lines.set_array(steps[:upto])
            where = segs[upto - 1, 1] if upto else tour_points(tour)[0]
            knight.set_position((float(where[0]), float(where[1])))
            writer.grab_frame()
            _told(progress, k + 1, count + 1 + round(hold * fps))
        for extra in range(round(hold * fps)):
            writer.grab_frame()
            _told(progress, count + 2 + extra, count + 1 + round(hold * fps))
    return ax


def _told(progress: Callable[[dict[str, Any]], None] | None, done: int, total: int) -> None:
    if progress is not None:
        progress({"done": done, "total": total})
