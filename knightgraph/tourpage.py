"""An interactive tour page: one self-contained HTML file that walks a tour in the browser.

:func:`tour_html` returns the page as text and :func:`write_tour_html` writes it
(atomically); :func:`notebook_html` wraps it in an ``<iframe>`` for Jupyter.  The
page needs no network: its style sheet and script are inline and the tour is
embedded as compact JSON (the flat order ``r * n + c`` as a list of ints), so a
100 x 100 tour makes a page of about 66 kB.

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
  step in a tooltip and in the status line; clicking a square jumps to it.

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
from the start, and the markers layer is redrawn per frame.

Examples
--------
>>> import knightgraph as kg
>>> from knightgraph.tourpage import tour_html
>>> page = tour_html(kg.find_tour(5, 5, start="a1", seed=0).tour)
>>> page.startswith("<!DOCTYPE html>"), 'data-steps="25"' in page
(True, True)
>>> "http" in page, "<link" in page, "<img" in page  # nothing is fetched
(False, False, False)
"""

from __future__ import annotations

import html
import json
import math
import os
from typing import TYPE_CHECKING, Any

from .exceptions import InvalidOptionError, InvalidTourError

if TYPE_CHECKING:
    from .tour import Tour

__all__ = ["NOTEBOOK_LIMIT", "notebook_html", "tour_html", "write_tour_html"]

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
    tour = _check_tour(tour)
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
        },
        separators=(",", ":"),
    )
    order = ",".join(map(str, tour.order.tolist()))
    data = (head[:-1] + ',"order":[' + order + "]}").replace("<", "\\u003c")
    text = html.escape(title)
    closed = "true" if tour.closed else "false"
    attributes = (
        f'data-rows="{m}" data-cols="{n}" data-steps="{steps}" '
        f'data-closed="{closed}" data-step="{step}"'
    )
    return (
        _PAGE.replace("@TITLE@", text)
        .replace("@BODY@", attributes)
        .replace("@STEPS@", str(steps))
        .replace("@STEP@", str(step))
        .replace("@DATA@", data)
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
    from .formats import atomic_output

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
    tour = _check_tour(tour)
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


def _check_tour(tour: object) -> Tour:
    from .tour import Tour

    if not isinstance(tour, Tour):
        from .exceptions import describe_value

        raise InvalidTourError(f"not a Tour: {describe_value(tour)}")
    return tour


def _default_title(tour: Tour) -> str:
    """``"Closed knight's tour of 8x8"``, naming another leaper and the removed squares."""
    from .board import LEAPERS

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


# The page.  @TITLE@, @BODY@, @STEPS@, @STEP@ and @DATA@ are filled in by tour_html.
_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="knightgraph">
<title>@TITLE@</title>
<style>
html, body { margin: 0; background: #fff; color: #222;
  font: 15px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
main { padding: 10px 14px; }
h1 { font-size: 18px; font-weight: 600; margin: 0 0 6px; }
#stage { position: relative; }
#stage canvas { position: absolute; left: 0; top: 0; }
#overlay { cursor: crosshair; }
#tip { position: absolute; pointer-events: none; background: rgba(30, 30, 30, .88); color: #fff;
  font-size: 13px; padding: 2px 7px; border-radius: 4px; white-space: nowrap; z-index: 2; }
#controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; margin-top: 8px; }
#controls button { font: inherit; min-width: 34px; padding: 3px 9px; border: 1px solid #b9ad98;
  border-radius: 5px; background: #f7f2e8; cursor: pointer; }
#controls button:hover { background: #efe5d2; }
#play { min-width: 70px !important; font-weight: 600 !important; }
#slider { flex: 1 1 220px; min-width: 140px; accent-color: #3b528b; }
#speed { width: 110px; accent-color: #3b528b; }
.speed { display: inline-flex; align-items: center; gap: 5px; color: #555; font-size: 14px; }
#status { margin: 7px 0 0; font-variant-numeric: tabular-nums; }
#step, #square { font-weight: 600; }
#note { color: #b2182b; }
#hover { margin: 2px 0 0; color: #666; font-size: 14px; min-height: 1.4em; }
</style>
</head>
<body @BODY@>
<main>
<h1 id="title">@TITLE@</h1>
<div id="stage"><canvas id="board"></canvas><canvas id="path"></canvas><canvas id="overlay"></canvas><div id="tip" hidden></div></div>
<div id="controls">
<button id="first" type="button" title="First step (Home)">&laquo;</button>
<button id="prev" type="button" title="Previous step (left arrow)">&lsaquo;</button>
<button id="play" type="button" title="Play or pause (space)">Play</button>
<button id="next" type="button" title="Next step (right arrow)">&rsaquo;</button>
<button id="last" type="button" title="Last step (End)">&raquo;</button>
<input id="slider" type="range" min="1" max="@STEPS@" step="1" value="@STEP@" aria-label="Step">
<label class="speed" title="Moves a second">Speed <input id="speed" type="range" min="0" max="1000" step="1" aria-label="Speed"> <span id="speed-value"></span></label>
</div>
<p id="status">Step <span id="step">@STEP@</span> of @STEPS@: <span id="square"></span> <span id="note"></span></p>
<p id="hover">Hover over a square to see its step; click it to go there.</p>
</main>
<script type="application/json" id="kg-data">@DATA@</script>
<script>
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("kg-data").textContent);
  var M = D.rows, NC = D.cols, order = D.order, N = order.length, AREA = M * NC;
  var closed = D.closed;
  function $(id) { return document.getElementById(id); }
  var body = document.body, stage = $("stage"), tip = $("tip");
  var boardCv = $("board"), pathCv = $("path"), overCv = $("overlay");
  var slider = $("slider"), speedIn = $("speed"), speedOut = $("speed-value"), playBtn = $("play");
  var stepEl = $("step"), squareEl = $("square"), noteEl = $("note"), hoverEl = $("hover");
  var LIGHT = "#f0e4cc", DARK = "#c4a982", HOLE = "#ffffff", EDGE = "#8a7455";
  var START = "#1a9641", CURRENT = "#ff7f0e", CLOSING = "#d7191c", HOVER = "#1f78b4";
  var VIRIDIS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
                 [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];

  var removed = new Uint8Array(AREA), visit = new Int32Array(AREA), i;
  for (i = 0; i < D.removed.length; i++) removed[D.removed[i]] = 1;
  for (i = 0; i < N; i++) visit[order[i]] = i + 1;

  function fileName(c) {
    var s = "", k = c + 1;
    while (k > 0) { var d = (k - 1) % 26; s = String.fromCharCode(97 + d) + s; k = Math.floor((k - 1) / 26); }
    return s;
  }
  function squareName(idx) { return fileName(idx % NC) + (Math.floor(idx / NC) + 1); }
  function colourAt(t) {  // viridis without its bright yellow end, t in [0, 1]
    var x = Math.min(1, Math.max(0, t)) * 0.88 * (VIRIDIS.length - 1);
    var k = Math.min(VIRIDIS.length - 2, Math.floor(x)), f = x - k, a = VIRIDIS[k], b = VIRIDIS[k + 1];
    return "rgb(" + [0, 1, 2].map(function (j) { return Math.round(a[j] + (b[j] - a[j]) * f); }).join(",") + ")";
  }
  var BUCKETS = Math.max(1, Math.min(64, N - 1)), bucketColour = [];
  for (i = 0; i < BUCKETS; i++) bucketColour.push(colourAt((i + 0.5) / BUCKETS));
  function bucketOf(seg) { return N > 1 ? Math.floor(seg * BUCKETS / (N - 1)) : 0; }
  function niceEvery(v) {
    var nice = [1, 2, 5], p = 1;
    for (;;) { for (var j = 0; j < 3; j++) if (nice[j] * p >= v) return nice[j] * p; p *= 10; }
  }

  // ---------------------------------------------------------------- layout
  var cell = 1, ox = 0, oy = 0, W = 0, H = 0, dpr = 1, fs = 12, lw = 1, numbers = false;
  var xs = new Float64Array(N), ys = new Float64Array(N);
  function cx(idx) { return ox + (idx % NC + 0.5) * cell; }
  function cy(idx) { return oy + (M - 1 - Math.floor(idx / NC) + 0.5) * cell; }
  function context(cv) {
    cv.width = Math.max(1, Math.round(W * dpr)); cv.height = Math.max(1, Math.round(H * dpr));
    cv.style.width = W + "px"; cv.style.height = H + "px";
    var g = cv.getContext("2d"); g.setTransform(dpr, 0, 0, dpr, 0, 0); return g;
  }
  function layout() {
    dpr = window.devicePixelRatio || 1;
    stage.style.height = "0px";
    var rest = body.offsetHeight;  // everything but the board
    var availW = Math.max(160, stage.clientWidth || (window.innerWidth - 28));
    var availH = Math.max(160, window.innerHeight - rest - 6);
    var pad = 8, probe = boardCv.getContext("2d");
    cell = Math.min((availW - 40) / NC, (availH - 30) / M);
    fs = Math.max(10, Math.min(14, cell * 0.42));
    probe.font = fs + "px system-ui, sans-serif";
    var left = Math.ceil(probe.measureText(String(M)).width) + 9, bottom = Math.ceil(fs) + 8;
    cell = Math.max(0.05, Math.min((availW - left - pad) / NC, (availH - bottom - pad) / M));
    ox = left; oy = pad;
    W = Math.ceil(left + NC * cell + pad); H = Math.ceil(pad + M * cell + bottom);
    stage.style.height = H + "px";
    stage.dataset.cell = String(cell); stage.dataset.ox = String(ox); stage.dataset.oy = String(oy);
    lw = Math.max(1, Math.min(4, cell * 0.09));
    numbers = D.numbers === null ? (cell >= 26 && N <= 2500) : D.numbers;
    for (var k = 0; k < N; k++) { xs[k] = cx(order[k]); ys[k] = cy(order[k]); }
  }

  // ----------------------------------------------------------------- board
  function drawBoard() {
    var g = context(boardCv), r, c, x0, x1, y0, y1;
    g.fillStyle = LIGHT; g.fillRect(ox, oy, NC * cell, M * cell);
    function rect(r, c) {
      x0 = Math.round(ox + c * cell); x1 = Math.round(ox + (c + 1) * cell);
      y0 = Math.round(oy + (M - 1 - r) * cell); y1 = Math.round(oy + (M - r) * cell);
      g.rect(x0, y0, x1 - x0, y1 - y0);
    }
    if (cell >= 3) {  // smaller squares would only blur into grey
      g.fillStyle = DARK; g.beginPath();
      for (r = 0; r < M; r++) for (c = r % 2; c < NC; c += 2) rect(r, c);
      g.fill();
    }
    if (D.removed.length) {
      g.fillStyle = HOLE; g.beginPath();
      for (i = 0; i < D.removed.length; i++) rect(Math.floor(D.removed[i] / NC), D.removed[i] % NC);
      g.fill();
      if (cell >= 6) { g.strokeStyle = "#d9cfbf"; g.lineWidth = 1; g.stroke(); }
    }
    g.strokeStyle = EDGE; g.lineWidth = 1;
    g.strokeRect(Math.round(ox) - 0.5, Math.round(oy) - 0.5, Math.round(NC * cell) + 1, Math.round(M * cell) + 1);
    g.fillStyle = "#555"; g.font = fs + "px system-ui, sans-serif";
    var need = g.measureText(fileName(NC - 1)).width + 6, every = niceEvery(need / cell);
    g.textAlign = "center"; g.textBaseline = "top";
    for (c = 0; c < NC; c++)
      if ((c + 1) % every === 0 || (c === 0 && (every === 1 || (every - 1) * cell >= need)))
        g.fillText(fileName(c), ox + (c + 0.5) * cell, oy + M * cell + 4);
    need = fs + 3; every = niceEvery(need / cell);
    g.textAlign = "right"; g.textBaseline = "middle";
    for (r = 0; r < M; r++)
      if ((r + 1) % every === 0 || (r === 0 && (every === 1 || (every - 1) * cell >= need)))
        g.fillText(String(r + 1), ox - 5, oy + (M - 1 - r + 0.5) * cell);
  }

  // ------------------------------------------------------------------ path
  var pg = null, drawn = 0;  // moves drawn on the path layer: segments 0 .. drawn - 1
  function resetPath() { pg = context(pathCv); pg.lineCap = "round"; pg.lineJoin = "round"; drawn = 0; if (N) dots(0, 1); }
  function dots(a, b) {  // the visited squares a .. b - 1: a dot (big squares) and the number
    if (cell >= 14) {
      for (var k = a; k < b; k++) {
        pg.fillStyle = bucketColour[bucketOf(Math.max(0, k - 1))];
        pg.beginPath(); pg.arc(xs[k], ys[k], Math.max(1.5, cell * 0.07), 0, 2 * Math.PI); pg.fill();
      }
    }
    if (numbers) {
      pg.fillStyle = "rgba(40,40,40,.75)"; pg.font = Math.max(8, Math.min(13, cell * 0.27)) + "px system-ui, sans-serif";
      pg.textAlign = "left"; pg.textBaseline = "top"; pg.strokeStyle = "rgba(255,255,255,.8)"; pg.lineWidth = 3;
      for (var j = a; j < b; j++) {  // with a light halo, to read over the lines
        pg.strokeText(String(j + 1), xs[j] - cell / 2 + 3, ys[j] - cell / 2 + 2);
        pg.fillText(String(j + 1), xs[j] - cell / 2 + 3, ys[j] - cell / 2 + 2);
      }
    }
  }
  function drawMoves(a, b) {  // moves a .. b - 1 (move k joins squares k and k + 1), one stroke per colour run
    pg.lineWidth = lw;
    var k = a;
    while (k < b) {
      var bk = bucketOf(k), end = k;
      while (end < b && bucketOf(end) === bk) end++;
      pg.strokeStyle = bucketColour[bk]; pg.beginPath(); pg.moveTo(xs[k], ys[k]);
      for (var j = k; j < end; j++) pg.lineTo(xs[j + 1], ys[j + 1]);
      pg.stroke();
      k = end;
    }
    dots(a + 1, b + 1);
  }

  // --------------------------------------------------------------- markers
  var og = null, hover = -1;
  function ring(g, x, y, rad, colour, width) { g.strokeStyle = colour; g.lineWidth = width; g.beginPath(); g.arc(x, y, rad, 0, 2 * Math.PI); g.stroke(); }
  function drawMarkers() {
    og.clearRect(0, 0, W, H);
    if (!N) return;
    var rad = Math.max(4, cell * 0.32);
    if (closed && step === N && N > 1) {
      og.save(); og.strokeStyle = CLOSING; og.lineWidth = Math.max(1.5, lw * 1.3); og.lineCap = "butt";
      og.setLineDash([Math.max(4, cell * 0.2), Math.max(3, cell * 0.13)]);
      og.beginPath(); og.moveTo(xs[N - 1], ys[N - 1]); og.lineTo(xs[0], ys[0]); og.stroke(); og.restore();
    }
    ring(og, xs[0], ys[0], rad, START, Math.max(2, cell * 0.08));
    var k = step - 1;
    og.fillStyle = CURRENT; og.strokeStyle = "#fff"; og.lineWidth = Math.max(1, cell * 0.04);
    og.beginPath(); og.arc(xs[k], ys[k], Math.max(3.5, cell * 0.2), 0, 2 * Math.PI); og.fill(); og.stroke();
    if (hover >= 0) {
      var x0 = ox + (hover % NC) * cell, y0 = oy + (M - 1 - Math.floor(hover / NC)) * cell, t = Math.max(2, Math.min(3, cell * 0.1));
      og.strokeStyle = HOVER; og.lineWidth = t;
      og.strokeRect(x0 + t / 2, y0 + t / 2, Math.max(1, cell - t), Math.max(1, cell - t));
    }
  }

  // ----------------------------------------------------------------- state
  var step = Math.max(1, Math.min(N, D.step || N));
  function goTo(s) {
    s = Math.max(1, Math.min(N, Math.round(s) || 1));
    var target = s - 1;  // moves to show
    if (target < drawn) resetPath();  // stepping back: redraw from the start
    if (target > drawn) drawMoves(drawn, target);
    drawn = target; step = s;
    drawMarkers();
    slider.value = String(s);
    stepEl.textContent = String(s);
    squareEl.textContent = squareName(order[s - 1]);
    body.setAttribute("data-step", String(s));
    noteEl.textContent = s < N ? "" : closed ? "closing move back to " + squareName(order[0]) + " (dashed)" : "end of the open tour";
  }
  function redrawAll() { layout(); drawBoard(); og = context(overCv); resetPath(); var s = step; step = 1; goTo(s); }

  // --------------------------------------------------------------- playing
  var playing = false, speed = D.speed, acc = 0, last = null;
  var SMIN = 0.5, SMAX = Math.max(100, N / 2, speed);
  function speedToSlider(v) { return Math.round(1000 * Math.log(v / SMIN) / Math.log(SMAX / SMIN)); }
  function setSpeed(v) {
    speed = Math.max(SMIN, Math.min(SMAX, v));
    speedIn.value = String(speedToSlider(speed));
    speedOut.textContent = (speed < 10 ? speed.toFixed(1) : String(Math.round(speed))) + " moves/s";
  }
  function frame(t) {
    if (!playing) return;
    var dt = last === null ? 0 : Math.min(0.25, (t - last) / 1000);
    last = t; acc += dt * speed;
    var k = Math.floor(acc);
    if (k > 0) { acc -= k; goTo(step + k); }
    if (step >= N) { pause(); return; }
    requestAnimationFrame(frame);
  }
  function play() {
    if (playing || N < 2) return;
    if (step >= N) goTo(1);
    playing = true; acc = 0; last = null; playBtn.textContent = "Pause"; body.setAttribute("data-playing", "true");
    requestAnimationFrame(frame);
  }
  function pause() { playing = false; playBtn.textContent = "Play"; body.setAttribute("data-playing", "false"); }
  function onSlider() { pause(); goTo(Number(slider.value)); }

  playBtn.addEventListener("click", function () { if (playing) pause(); else play(); });
  $("first").addEventListener("click", function () { pause(); goTo(1); });
  $("prev").addEventListener("click", function () { pause(); goTo(step - 1); });
  $("next").addEventListener("click", function () { pause(); goTo(step + 1); });
  $("last").addEventListener("click", function () { pause(); goTo(N); });
  slider.addEventListener("input", onSlider);
  speedIn.addEventListener("input", function () {
    setSpeed(SMIN * Math.pow(SMAX / SMIN, Number(speedIn.value) / 1000));
  });
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "BUTTON" && (e.key === " " || e.key === "Enter")) return;
    var d = e.shiftKey ? 10 : 1;
    if (e.key === " " || e.key === "k") { if (playing) pause(); else play(); }
    else if (e.key === "ArrowRight") { pause(); goTo(step + d); }
    else if (e.key === "ArrowLeft") { pause(); goTo(step - d); }
    else if (e.key === "Home") { pause(); goTo(1); }
    else if (e.key === "End") { pause(); goTo(N); }
    else return;
    e.preventDefault();
  });

  // ----------------------------------------------------------------- hover
  function squareAt(e) {
    var rect = overCv.getBoundingClientRect();
    var x = e.clientX - rect.left - ox, y = e.clientY - rect.top - oy;
    var c = Math.floor(x / cell), rr = Math.floor(y / cell);
    if (x < 0 || y < 0 || c >= NC || rr >= M) return -1;
    return (M - 1 - rr) * NC + c;
  }
  function describe(idx) {
    var name = squareName(idx);
    if (removed[idx]) return name + ": removed";
    var v = visit[idx], text = name + ": step " + v + " of " + N;
    if (v > step) text += " (not reached yet)";
    if (v === N && closed) text += ", then back to " + squareName(order[0]);
    return text;
  }
  overCv.addEventListener("mousemove", function (e) {
    var idx = squareAt(e);
    if (idx !== hover) { hover = idx; drawMarkers(); }
    if (idx < 0) { tip.hidden = true; return; }
    var text = describe(idx);
    tip.textContent = text; hoverEl.textContent = text; tip.hidden = false;
    var rect = overCv.getBoundingClientRect(), x = e.clientX - rect.left, y = e.clientY - rect.top;
    var left = x + 14 + tip.offsetWidth > W ? x - 10 - tip.offsetWidth : x + 14;
    tip.style.left = Math.max(0, left) + "px"; tip.style.top = Math.max(0, y - 30) + "px";
  });
  overCv.addEventListener("mouseleave", function () { hover = -1; tip.hidden = true; drawMarkers(); });
  overCv.addEventListener("click", function (e) {
    var idx = squareAt(e);
    if (idx >= 0 && !removed[idx]) { pause(); goTo(visit[idx]); }
  });

  // --------------------------------------------------- hash: #step=10&speed=5&play=1
  function applyHash() {
    var p = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    if (p.has("speed") && Number(p.get("speed")) > 0) setSpeed(Number(p.get("speed")));
    if (p.has("step")) {  // through the slider's own handler, as if it were dragged there
      slider.value = p.get("step");
      slider.dispatchEvent(new Event("input"));
    }
    if (p.get("play") === "1") play();
  }
  window.addEventListener("hashchange", applyHash);
  var pending = false;
  window.addEventListener("resize", function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; redrawAll(); });
  });

  setSpeed(speed);
  redrawAll();
  applyHash();
  if (D.autoplay && !/play=/.test(window.location.hash)) play();
  body.setAttribute("data-ready", "true");
})();
</script>
</body>
</html>
"""
