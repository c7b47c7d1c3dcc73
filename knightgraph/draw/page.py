"""An interactive tour page: one self-contained HTML file that walks a tour in the browser.

:func:`tour_html` returns the page as text and :func:`write_tour_html` writes it
(atomically); :func:`notebook_html` wraps it in an ``<iframe>`` for Jupyter.  The
page needs no network: its style sheet and script are inline and the tour is
embedded as compact JSON (the flat order ``r * n + c`` as a list of ints), so a
100 x 100 tour makes a page of about 108 kB (49 kB of it the order).

What the page shows
-------------------
* the checkered board (square a1 dark, rank 1 at the bottom as in chess) with
  the files ``a .. z, aa, ab, ...`` along the bottom and the ranks along the
  side; on boards too big to label every file or rank, every 2nd, 5th, 10th,
  ... is labelled; removed squares are holes;
* the tour drawn move by move (lines between square centres, coloured from
  dark blue at the start to green at the end), the start ringed in green and
  the current square as an orange dot; on a closed tour the closing move, from
  the last square back to the first, is drawn dashed in red once the last step
  is reached;
* *Play/Pause*, first/previous/next/last buttons, a step slider and a speed
  slider (moves a second, logarithmic); the keys space, arrows (shift: 10
  steps), Home and End do the same;
* the step number and the current square in text; hovering a square shows its
  step in a tooltip and in the status line; clicking a square jumps to it;
* *Try it yourself*: the page's play mode on the same board (the piece and the
  removed squares too), to build a tour by hand square by square, and *Back to
  the tour*; :mod:`knightgraph.draw.play` describes it (``knightgraph play``
  writes a page in that mode alone).

Step ``k`` (1 .. N) means the first ``k`` squares have been visited: the
current square is the ``k``-th of the tour (its visiting number in
:meth:`~knightgraph.Tour.numbered` is ``k``).

For tests and scripts the state is in the DOM: ``<body>`` carries
``data-rows``, ``data-cols``, ``data-steps``, ``data-closed`` and ``data-step``
(kept current); ``#step`` holds the step number, ``#square`` the current
square's name, ``#hover`` the hovered square's line; the controls are
``#play``, ``#first``, ``#prev``, ``#next``, ``#last``, the slider
``<input type="range" id="slider">`` and ``#speed``.  A hash such as
``tour.html#step=10`` (also ``speed=``, moves a second, and ``play=1``) sets
the slider on load and on every hash change, through the slider's own
``input`` handler.

The page stays smooth on big boards: it draws on three stacked ``<canvas>``
layers (board, path, markers); walking forward draws only the new moves (in
runs of one colour, one stroke a run), only stepping back redraws the path
from the start, and the markers layer is redrawn per frame. Its colours are CSS
custom properties, with a second set for ``prefers-color-scheme: dark``.

Examples
--------
>>> import knightgraph as kg
>>> from knightgraph.draw.page import tour_html
>>> page = tour_html(kg.find_tour(5, 5, start="a1", seed=0).tour)
>>> page.startswith("<!DOCTYPE html>"), 'data-steps="25"' in page
(True, True)
>>> "http" in page, "<link" in page, "<img" in page  # nothing is fetched
(False, False, False)
"""

from __future__ import annotations

import functools
import html
import json
import math
import os
from importlib import resources
from typing import Any

from ..exceptions import InvalidOptionError
from ..tours.tour import Tour, tour_of_rectangle

__all__ = ["NOTEBOOK_LIMIT", "notebook_html", "render_page", "tour_html", "write_tour_html"]

NOTEBOOK_LIMIT = 40_000
"""The most squares :func:`notebook_html` embeds (200 x 200, about 250 kB); beyond it, None."""

TOUR_SECONDS = 15.0
"""The default speed walks the whole tour in about this many seconds (at least 2 moves a second)."""


def tour_html(
    tour: Tour,
    *,
    title: str | None = None,
    speed: float | None = None,
    step: int | None = None,
    autoplay: bool = False,
    numbers: bool | None = None,
) -> str:
    """The interactive page of ``tour``: one self-contained HTML document.

    Parameters
    ----------
    tour : Tour
    title : str, optional
        The heading and window title (default: ``"Closed knight's tour of
        8x8"`` and the like, naming the leaper and removed squares).
    speed : float, optional
        Moves a second when playing (default: the whole tour in about
        :data:`TOUR_SECONDS` seconds, at least 2 a second).  The page's speed
        slider changes it.
    step : int, optional
        The step shown when the page opens, 1 .. N (default N: the whole tour).
    autoplay : bool, default False
        Start playing when the page opens (from step 1 if ``step`` is N).
    numbers : bool, optional
        Write each visited square's step number in its corner (default: when
        the squares are at least 26 pixels wide and there are at most 2,500).

    Returns
    -------
    str
        The HTML page (UTF-8 text; no external scripts, styles, fonts or images).

    Raises
    ------
    InvalidTourError
        If ``tour`` is not a :class:`~knightgraph.Tour`.
    InvalidOptionError
        For a title that is not text, a speed that is not a positive number, a
        step outside 1 .. N, or a non-bool ``autoplay`` / ``numbers``.

    Examples
    --------
    >>> import json, re
    >>> from knightgraph import Board, Tour
    >>> t = Tour.from_squares("a1 c2 a3 b1 c3 a2 c1 b3".split(), Board(3, 3, removed=["b2"]),
    ...                       closed=True)
    >>> page = tour_html(t, step=4)
    >>> re.search(r"<body [^>]*>", page).group()
    '<body data-rows="3" data-cols="3" data-steps="8" data-closed="true" data-step="4">'
    >>> data = json.loads(re.search(r'id="kg-data">(.*?)</script>', page).group(1))
    >>> data["order"], data["removed"], data["title"]
    ([0, 5, 6, 1, 8, 3, 2, 7], [4], "Closed knight's tour of 3x3, 1 square removed")
    >>> tour_html(t, step=9)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid step 9: expected a whole number from 1 to 8
    """
    tour = tour_of_rectangle(tour)
    board = tour.board
    m, n, steps = board.m, board.n, len(tour)
    if title is None:
        title = _default_title(tour)
    elif not isinstance(title, str):
        raise InvalidOptionError(f"invalid title {title!r}: expected text")
    if speed is None:
        speed = max(2.0, round(steps / TOUR_SECONDS, 1))
    elif (
        isinstance(speed, bool)
        or not isinstance(speed, int | float)
        or not math.isfinite(speed)
        or speed <= 0
    ):
        raise InvalidOptionError(f"invalid speed {speed!r}: expected moves a second, above 0")
    if step is None:
        step = steps
    elif isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= steps:
        raise InvalidOptionError(
            f"invalid step {step!r}: expected a whole number from 1 to {steps}"
        )
    for name, value in (("autoplay", autoplay), ("numbers", numbers)):
        if not (isinstance(value, bool) or (name == "numbers" and value is None)):
            raise InvalidOptionError(f"invalid {name} {value!r}: expected True or False")
    removed = sorted(r * n + c for r, c in board.removed)
    head = json.dumps(
        {
            "rows": m,
            "cols": n,
            "closed": tour.closed,
            "title": title,
            "speed": float(speed),
            "step": step,
            "autoplay": autoplay,
            "numbers": numbers,
            "removed": removed,
            "leaper": list(board.leaper),
        },
        separators=(",", ":"),
    )
    order = ",".join(map(str, tour.order.tolist()))
    closed = "true" if tour.closed else "false"
    attributes = (
        f'data-rows="{m}" data-cols="{n}" data-steps="{steps}" '
        f'data-closed="{closed}" data-step="{step}"'
    )
    return render_page(title, attributes, steps, step, head[:-1] + ',"order":[' + order + "]}")


def render_page(title: str, attributes: str, steps: int, step: int, data: str) -> str:
    """The page template filled in: the title (escaped), the attributes of ``<body>``, the
    slider's range and the embedded JSON ``data`` (``<`` escaped, so that no text in it can
    close its ``<script>``).  The one renderer of the tour page and of its play mode
    (:func:`knightgraph.draw.play.play_html`).

    Examples
    --------
    >>> page = render_page("a <b>", 'data-rows="1"', 1, 1, '{"title":"</script>"}')
    >>> "<title>a &lt;b&gt;</title>" in page, '{"title":"\\\\u003c/script>"}' in page
    (True, True)
    """
    return (
        _page()
        .replace("@TITLE@", html.escape(title))
        .replace("@BODY@", attributes)
        .replace("@STEPS@", str(steps))
        .replace("@STEP@", str(step))
        .replace("@DATA@", data.replace("<", "\\u003c"))
    )


def write_tour_html(tour: Tour, path: str | os.PathLike[str], **options: Any) -> None:
    """Write the page of :func:`tour_html` to ``path`` (UTF-8), atomically.

    The page is built first, then written to a temporary file in the same
    folder and renamed onto ``path``, so a failure never leaves a partial file
    (an existing file stays as it was).

    Parameters
    ----------
    tour : Tour
    path : str or path-like
        The ``.html`` file to write.
    **options
        Passed on to :func:`tour_html` (``title``, ``speed``, ``step``, ...).

    Raises
    ------
    InvalidOptionError
        If ``path`` is empty or not a path, or for a bad option.
    InvalidTourError
        If ``tour`` is not a :class:`~knightgraph.Tour`.
    OSError
        If the folder does not exist or cannot be written (the message names ``path``).

    Examples
    --------
    >>> import os, tempfile
    >>> import knightgraph as kg
    >>> tour = kg.find_tour(8, 8, closed=True, seed=0).tour
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.html")
    ...     write_tour_html(tour, path)
    ...     os.listdir(folder), 'data-steps="64"' in open(path, encoding="utf-8").read()
    (['tour.html'], True)
    >>> write_tour_html(tour, "")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid output path '': expected a file name
    """
    from ..running.disk import atomic_output

    page = tour_html(tour, **options).encode("utf-8")
    with atomic_output(path, "wb") as handle:
        handle.write(page)


def notebook_html(
    tour: Tour, *, height: int | None = None, limit: int = NOTEBOOK_LIMIT, **options: Any
) -> str | None:
    """The page of :func:`tour_html` in an ``<iframe srcdoc=...>``, for Jupyter's ``_repr_html_``.

    The frame keeps the page's ids, style and script apart from the notebook's
    (several tours can be shown in one notebook) and runs sandboxed (scripts
    only).  A tour of more than ``limit`` squares gives None, so the notebook
    falls back to another representation instead of storing a huge page.

    Parameters
    ----------
    tour : Tour
    height : int, optional
        The frame's height in pixels (default: from the board's shape, 380 .. 640).
    limit : int, default NOTEBOOK_LIMIT
        The most squares (cells, removed ones included) to embed.
    **options
        Passed on to :func:`tour_html`.

    Examples
    --------
    >>> import knightgraph as kg
    >>> frame = notebook_html(kg.find_tour(6, 6, seed=0).tour)
    >>> frame.startswith("<iframe srcdoc="), "&lt;canvas" in frame, "<canvas" in frame
    (True, True, False)
    >>> notebook_html(kg.find_tour(6, 6, seed=0).tour, limit=35) is None
    True
    """
    tour = tour_of_rectangle(tour)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidOptionError(f"invalid limit {limit!r}: expected a whole number >= 1")
    if tour.board.area > limit:
        return None
    if height is None:
        m, n = tour.board.m, tour.board.n
        height = round(min(640, max(380, 200 + 480 * m / max(m, n))))
    elif isinstance(height, bool) or not isinstance(height, int) or height < 100:
        raise InvalidOptionError(f"invalid height {height!r}: expected whole pixels >= 100")
    page = html.escape(tour_html(tour, **options), quote=True)
    title = html.escape(options.get("title") or _default_title(tour), quote=True)
    return (
        f'<iframe srcdoc="{page}" title="{title}" sandbox="allow-scripts" '
        f'style="width:100%;max-width:780px;height:{height}px;border:0"></iframe>'
    )


def _default_title(tour: Tour) -> str:
    """``"Closed knight's tour of 8x8"``, naming another leaper and the removed squares."""
    from ..boards.board import LEAPERS

    board = tour.board
    names = {v: k for k, v in LEAPERS.items()}
    a, b = board.leaper
    piece = names.get((a, b)) or names.get((b, a)) or f"({a},{b})-leaper"
    kind = "Closed" if tour.closed else "Open"
    title = f"{kind} {piece}'s tour of {board.m}x{board.n}"
    k = len(board.removed)
    if k:
        title += f", {k} square{'' if k == 1 else 's'} removed"
    return title


@functools.cache
def _page() -> str:
    """The page template, ``knightgraph/data/tourpage.html``: HTML with its style sheet and
    script inline.  ``@TITLE@``, ``@BODY@``, ``@STEPS@``, ``@STEP@`` and ``@DATA@`` are
    filled in by :func:`tour_html`.

    Examples
    --------
    >>> _page().startswith("<!DOCTYPE html>"), _page().count("@DATA@")
    (True, 1)
    """
    source = resources.files("knightgraph") / "data" / "tourpage.html"
    return source.read_text(encoding="utf-8")
