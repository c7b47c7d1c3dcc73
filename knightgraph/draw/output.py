"""Saving: a figure to a picture file (atomically) or to PNG bytes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..exceptions import InvalidOptionError
from ._style import check_dpi, new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FORMATS = ("png", "svg", "pdf", "gif")
"""Picture formats :func:`save_figure` writes, chosen by the file suffix."""


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

    Examples
    --------
    >>> import os, tempfile
    >>> from knightgraph import find_tour
    >>> from knightgraph.draw import draw_tour
    >>> ax = draw_tour(find_tour(5, 5, start="a1").tour)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_figure(ax, os.path.join(folder, "tour.svg"))
    ...     os.listdir(folder)  # the file alone: no temporary file is left
    ['tour.svg']
    >>> save_figure(ax, "tour.jpg")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: cannot write 'tour.jpg': unknown picture format ('.jpg'); use .png, .svg, .pdf or .gif
    """
    from ..running.disk import atomic_output

    fmt = _picture_format(path)
    dpi = 100.0 if dpi is None else check_dpi(dpi)
    fig = new_figure(ax)
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
    """The figure of ``ax`` as PNG bytes (what a notebook displays).

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> from knightgraph.draw import draw_tour
    >>> ax = draw_tour(find_tour(5, 5, start="a1").tour)
    >>> png = to_png(ax, dpi=50)
    >>> png[1:4]  # in the PNG signature
    b'PNG'
    >>> def width(png):  # pixels, from the image header
    ...     return int.from_bytes(png[16:20], "big")
    >>> width(to_png(ax, dpi=100)) == 2 * width(png)
    True
    """
    import io

    buffer = io.BytesIO()
    new_figure(ax).savefig(buffer, format="png", dpi=check_dpi(dpi))
    return buffer.getvalue()
