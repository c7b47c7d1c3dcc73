"""The interactive tour page: knightgraph.draw.page, checked as text and in a real browser.

The unit tests read the page as text: it is self-contained (nothing is fetched),
embeds the tour's order, and is written atomically.  The browser tests load it
in headless Chromium (Debian's ``chromium`` package) two ways:

* ``--dump-dom`` on ``tour.html#step=K``: the page's own script sets the slider
  from the hash through the slider's ``input`` handler; the dumped DOM shows
  ``#step`` and ``#square``;
* the Chrome DevTools protocol over ``--remote-debugging-pipe`` (stdlib only,
  see :class:`browser_support.Browser`): the tests set the slider and dispatch its ``input``
  event, click buttons, move the mouse over squares, play the tour, and take
  screenshots that must not be blank.

They skip when no ``chromium`` (or ``chromium-browser``) is on the PATH, or
when ``KNIGHTGRAPH_NO_BROWSER=1``.  Every browser is started in a new session
and its whole process group is killed afterwards, so none is left behind
(``tests/browser_support.py``, shared with ``tests/test_playpage.py``).

Running this file regenerates the docs' screenshot::

    .venv/bin/python tests/test_tourpage.py docs/images/tour_page.png
"""

from __future__ import annotations

import html
import io
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    browser,
    dump_dom,
    has_colour,
    needs_browser,
    png_colours,
    square_box,
    square_centre,
)

import knightgraph as kg
from knightgraph.draw.page import NOTEBOOK_LIMIT, notebook_html, tour_html, write_tour_html

pytestmark = pytest.mark.engine_free  # the tour page: HTML and JavaScript


# ------------------------------------------------------------------- helpers
def tour_of(m: int, n: int, **kw: Any) -> kg.Tour:
    result = kg.find_tour(m, n, **kw)
    assert result.tour is not None
    return result.tour


_TOURS: dict[tuple[int, int], kg.Tour] = {}


def closed_tour(size: int) -> kg.Tour:
    """The closed ``size x size`` tour the tests share (8x8 with seed 0)."""
    if (size, size) not in _TOURS:
        seed = {"seed": 0} if size == 8 else {}
        _TOURS[size, size] = tour_of(size, size, closed=True, **seed)
    return _TOURS[size, size]


def page_data(page: str) -> dict[str, Any]:
    """The JSON the page embeds."""
    match = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', page, re.S)
    assert match, "no embedded tour data"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def body_attributes(page: str) -> dict[str, str]:
    match = re.search(r"<body ([^>]*)>", page)
    assert match
    return dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(1)))


def element_text(dom: str, ident: str) -> str:
    match = re.search(rf'id="{ident}"[^>]*>([^<]*)<', dom)
    assert match, f"no #{ident} in the page"
    return html.unescape(match.group(1))


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


# --------------------------------------------------------------- the page text
def test_the_page_is_self_contained() -> None:
    page = tour_html(closed_tour(8))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    lowered = page.lower()
    for external in (
        'src="http',
        "src=http",
        "<link",
        "<img",
        "@import",
        "url(",
        "http:",
        "https:",
        "<iframe",
        "fetch(",
        "xmlhttprequest",
    ):
        assert external not in lowered, external
    # the only scripts are inline: one JSON block and one program
    assert re.findall(r"<script[^>]*>", page) == [
        '<script type="application/json" id="kg-data">',
        "<script>",
    ]
    assert "<canvas" in page and 'type="range" min="1" max="64"' in page
    for ident in ("step", "square", "slider", "play", "speed", "hover", "prev", "next"):
        assert f'id="{ident}"' in page


def test_the_page_embeds_the_tour() -> None:
    tour = closed_tour(8)
    page = tour_html(tour)
    data = page_data(page)
    assert data["order"] == tour.order.tolist()
    assert (data["rows"], data["cols"], data["closed"], data["removed"]) == (8, 8, True, [])
    assert body_attributes(page) == {
        "data-rows": "8",
        "data-cols": "8",
        "data-steps": "64",
        "data-closed": "true",
        "data-step": "64",
    }
    assert "<title>Closed knight&#x27;s tour of 8x8</title>" in page
    assert element_text(page, "square") == ""  # filled in by the script


def test_a_board_with_holes_and_another_leaper() -> None:
    board = kg.Board(6, 9, removed=["e3", "b5"])
    tour = kg.find_tour(board, seed=1).require_tour()
    data = page_data(tour_html(tour, step=5, speed=3, autoplay=True, numbers=False))
    assert data["order"] == tour.order.tolist()
    assert data["removed"] == sorted([2 * 9 + 4, 4 * 9 + 1])
    assert (data["step"], data["speed"], data["autoplay"], data["numbers"]) == (5, 3.0, True, False)
    assert data["title"] == "Open knight's tour of 6x9, 2 squares removed"
    giraffe = kg.find_tour(kg.Board(1, 1, leaper=kg.GIRAFFE)).require_tour()
    assert page_data(tour_html(giraffe))["title"] == "Open giraffe's tour of 1x1"
    assert body_attributes(tour_html(giraffe))["data-steps"] == "1"


def test_a_hostile_title_stays_text() -> None:
    title = '</script><script>alert("x")</script> & <b>'
    page = tour_html(closed_tour(8), title=title)
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert page_data(page)["title"] == title
    assert f'<h1 id="title">{html.escape(title)}</h1>' in page


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"speed": 0}, "invalid speed 0"),
        ({"speed": float("nan")}, "invalid speed nan"),
        ({"speed": True}, "invalid speed True"),
        ({"speed": "fast"}, "invalid speed 'fast'"),
        ({"step": 0}, "invalid step 0: expected a whole number from 1 to 64"),
        ({"step": 65}, "invalid step 65"),
        ({"step": 2.0}, "invalid step 2.0"),
        ({"title": 3}, "invalid title 3"),
        ({"autoplay": 1}, "invalid autoplay 1"),
        ({"numbers": "yes"}, "invalid numbers 'yes'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(kg.InvalidOptionError, match=re.escape(message)):
        tour_html(closed_tour(8), **options)


def test_only_a_tour_makes_a_page() -> None:
    for bad in (None, [0, 1, 2], closed_tour(8).squares()):
        with pytest.raises(kg.InvalidTourError, match="not a Tour"):
            tour_html(bad)  # type: ignore[arg-type]


def test_a_100x100_page_is_small() -> None:
    tour = closed_tour(100)
    page = tour_html(tour)
    size = len(page.encode("utf-8"))
    assert page_data(page)["order"] == tour.order.tolist()
    assert size < 120_000, size  # about 108 kB: 49 kB of order, 59 kB of page and script


# ---------------------------------------------------------------- writing
def test_write_tour_html_writes_the_page(tmp_path: Path) -> None:
    tour = closed_tour(8)
    path = tmp_path / "tour.html"
    write_tour_html(tour, path)
    assert path.read_text(encoding="utf-8") == tour_html(tour)
    write_tour_html(tour, str(path), title="Ünïcode ♞", step=3)
    text = path.read_bytes().decode("utf-8")
    assert "Ünïcode ♞" in text and 'data-step="3"' in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tour.html"]


def test_write_tour_html_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tour.html"
    path.write_text("the old page")

    def refuse(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("knightgraph.io.formats.os.replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_tour_html(closed_tour(8), path)
    assert path.read_text() == "the old page"  # never half a page
    assert leftovers(tmp_path) == []
    monkeypatch.undo()
    # a bad option is refused before any file is touched
    with pytest.raises(kg.InvalidOptionError):
        write_tour_html(closed_tour(8), path, step=0)
    assert path.read_text() == "the old page" and leftovers(tmp_path) == []


def test_bad_paths(tmp_path: Path) -> None:
    tour = closed_tour(8)
    for bad in ("", "a\0b", 3, None):
        with pytest.raises(kg.InvalidOptionError, match="invalid output path") as info:
            write_tour_html(tour, bad)  # type: ignore[arg-type]
        assert isinstance(info.value, kg.KnightGraphError)
    missing = tmp_path / "no" / "such" / "tour.html"
    with pytest.raises(OSError) as err:
        write_tour_html(tour, missing)
    assert err.value.filename == str(missing)  # the user's path, not a temporary one
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):
        write_tour_html(tour, tmp_path / "folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    assert list((tmp_path / "folder").iterdir()) == []


# ---------------------------------------------------------------- notebooks
def test_notebook_html_wraps_the_page_in_a_frame() -> None:
    tour = closed_tour(8)
    frame = notebook_html(tour)
    assert frame is not None
    match = re.fullmatch(
        r'<iframe srcdoc="([^"]*)" title="([^"]*)" sandbox="allow-scripts" '
        r'style="[^"]*height:(\d+)px[^"]*"></iframe>',
        frame,
    )
    assert match, frame[:200]
    assert html.unescape(match.group(1)) == tour_html(tour)
    assert html.unescape(match.group(2)) == "Closed knight's tour of 8x8"
    assert 380 <= int(match.group(3)) <= 640
    assert html.unescape(notebook_html(tour, height=300, step=2) or "").count('data-step="2"') == 1
    assert notebook_html(tour, limit=63) is None and notebook_html(tour, limit=64) is not None
    assert NOTEBOOK_LIMIT >= 100 * 100
    with pytest.raises(kg.InvalidOptionError):
        notebook_html(tour, height=10)
    with pytest.raises(kg.InvalidOptionError):
        notebook_html(tour, limit=0)


# ============================================================ in a real browser
def assert_not_blank(png: bytes, size: tuple[int, int]) -> None:
    got, count, colours = png_colours(png)
    assert got == size
    assert count > 50, f"only {count} colours: a blank page?"
    for colour in ("#f0e4cc", "#c4a982", "#1a9641", "#ff7f0e"):  # light, dark, start, current
        assert has_colour(colours, colour), colour


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for size in (8, 100):
        out[f"{size}x{size}"] = folder / f"tour{size}.html"
        write_tour_html(closed_tour(size), out[f"{size}x{size}"])
    out["holes"] = folder / "holes.html"
    holes = kg.find_tour(kg.Board(6, 9, removed=["e3", "b5"]), seed=1).require_tour()
    write_tour_html(holes, out["holes"])
    return out


@needs_browser
@pytest.mark.parametrize(("size", "step"), [(8, 10), (8, 64), (100, 5000)])
def test_the_hash_sets_the_slider(
    pages: dict[str, Path], tmp_path: Path, size: int, step: int
) -> None:
    tour = closed_tour(size)
    dom = dump_dom(f"{pages[f'{size}x{size}'].as_uri()}#step={step}", tmp_path / "profile")
    assert element_text(dom, "step") == str(step)
    assert element_text(dom, "square") == tour.algebraic_slice(step - 1, step)[0]
    attributes = body_attributes(dom)
    assert attributes["data-step"] == str(step) and attributes["data-ready"] == "true"
    note = element_text(dom, "note")
    if step == len(tour):
        assert note == f"closing move back to {tour.algebraic_slice(0, 1)[0]} (dashed)"
    else:
        assert note == ""


@needs_browser
def test_driving_the_8x8_page(pages: dict[str, Path]) -> None:
    tour = closed_tour(8)
    names = tour.algebraic()
    with browser() as b:
        b.open(pages["8x8"].as_uri())
        assert b.text("step") == "64" and b.text("square") == names[-1]
        assert b.js("document.getElementById('slider').value") == "64"
        for step in (1, 17, 40, 39, 2, 64):  # forward, back, the ends
            b.slide(step)
            assert (b.text("step"), b.text("square")) == (str(step), names[step - 1])
            assert b.js("document.body.dataset.step") == str(step)
        assert b.text("note") == f"closing move back to {names[0]} (dashed)"
        b.slide(40)
        assert b.text("note") == ""
        b.click("next")
        assert (b.text("step"), b.text("square")) == ("41", names[40])
        b.click("prev")
        b.click("prev")
        assert b.text("step") == "39"
        assert b.js("document.getElementById('slider').value") == "39"  # the slider follows
        b.click("last")
        assert b.text("step") == "64"
        b.click("first")
        assert (b.text("step"), b.text("square")) == ("1", names[0])

        # hovering a square tells its step; clicking it goes there
        numbered = tour.numbered()
        for name in ("a1", "d3", "h8", names[30]):
            r, c = tour.board.parse_square(name)
            x, y = square_centre(b, name)
            b.mouse(x, y)
            want = f"{name}: step {numbered[r, c]} of 64"
            hover = b.text("hover")
            assert hover.startswith(want), (hover, want)
            assert b.text("tip").startswith(want)
            assert b.js("document.getElementById('tip').hidden") is False
        b.mouse(*square_centre(b, names[20]), kind="mousePressed")
        b.mouse(*square_centre(b, names[20]), kind="mouseReleased")
        assert (b.text("step"), b.text("square")) == ("21", names[20])

        # play: fast, from step 1 to the end, where it stops by itself
        b.send("Page.navigate", url=pages["8x8"].as_uri() + "#step=1&speed=400&play=1")
        deadline = time.monotonic() + 5
        while b.js("document.body.dataset.playing") != "false" or b.text("step") != "64":
            assert time.monotonic() < deadline, b.text("step")
            time.sleep(0.05)
        assert b.text("square") == names[-1] and b.text("play") == "Play"
        b.click("play")  # at the end, play starts again from the beginning
        assert b.js("document.body.dataset.playing") == "true"
        b.click("play")
        assert b.js("document.body.dataset.playing") == "false" and b.text("play") == "Play"

        b.slide(64)
        assert_not_blank(b.screenshot(), (900, 900))


@needs_browser
def test_the_100x100_page_stays_smooth(pages: dict[str, Path]) -> None:
    tour = closed_tour(100)
    with browser() as b:
        b.open(pages["100x100"].as_uri())
        assert b.text("step") == "10000"
        # count the strokes on the path layer: walking on draws only the new moves
        b.js(
            "(function () { var g = document.getElementById('path').getContext('2d');"
            " var stroke = g.stroke; window.__strokes = 0;"
            " g.stroke = function () { window.__strokes++; return stroke.apply(this, arguments); };"
            " })()"
        )
        timings = {}
        for step, most in ((2, 1), (5000, 64), (5001, 1), (5011, 2), (10000, 64), (9990, 64)):
            b.js("window.__strokes = 0")
            ms = b.js(
                f"(function () {{ var t = performance.now(); var s = document.getElementById('slider');"
                f" s.value = '{step}'; s.dispatchEvent(new Event('input'));"
                f" return performance.now() - t; }})()"
            )
            timings[step] = ms
            assert b.text("square") == tour.algebraic_slice(step - 1, step)[0]
            assert 1 <= b.js("window.__strokes") <= most, (step, b.js("window.__strokes"))
        assert max(timings.values()) < 1000, timings  # a full redraw of 10,000 moves: ~10-30 ms
        b.js("window.__strokes = 0")
        b.click("next")
        assert b.js("window.__strokes") == 1 and b.text("step") == "9991"
        assert_not_blank(b.screenshot(), (900, 900))


@needs_browser
def test_holes_are_drawn_as_holes(pages: dict[str, Path]) -> None:
    with browser(700, 700) as b:
        b.open(pages["holes"].as_uri())
        for name in ("e3", "b5"):
            b.mouse(*square_centre(b, name))
            assert b.text("hover") == f"{name}: removed"
        b.mouse(1, 1)  # off the board: no highlight in the picture
        from PIL import Image

        image = Image.open(io.BytesIO(b.screenshot())).convert("RGB")

        def corners(name: str) -> list[Any]:
            """Pixels just inside three corners (not the top-left, where numbers go)."""
            x, y, cell = square_box(b, name)
            d = cell / 2 - 5
            return [
                image.getpixel((round(x + dx), round(y + dy)))
                for dx, dy in ((d, d), (-d, d), (d, -d))
            ]

        white, light, dark = (255, 255, 255), (240, 228, 204), (196, 169, 130)
        for name in ("e3", "b5"):  # removed: holes of the page's white
            assert corners(name).count(white) >= 2, corners(name)
        assert corners("d3").count(light) >= 2 and corners("a1").count(dark) >= 2


@needs_browser
def test_the_notebook_frame_runs_its_script(tmp_path: Path) -> None:
    """In a sandboxed srcdoc frame (as Jupyter shows ``_repr_html_``) the board gets drawn."""
    frame = notebook_html(closed_tour(8), height=500, step=40)
    assert frame is not None
    host = tmp_path / "notebook.html"
    host.write_text(f"<!DOCTYPE html><html><body>{frame}{frame}</body></html>", encoding="utf-8")
    with browser(800, 1100) as b:
        b.open_plain(host.as_uri())
        deadline = time.monotonic() + 5
        while True:  # the frames draw their boards (by script) shortly after loading
            _, count, colours = png_colours(b.screenshot())
            if has_colour(colours, "#c4a982") and has_colour(colours, "#ff7f0e"):
                break
            assert time.monotonic() < deadline, f"the frame drew nothing ({count} colours)"
            time.sleep(0.1)


# ---------------------------------------------------------------- the docs' picture
def make_docs_screenshot(path: Path) -> None:
    """The 8x8 closed tour at step 40 with the mouse over a square, as a PNG."""
    tour = closed_tour(8)
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "tour.html"
        write_tour_html(tour, page)
        with browser(760, 800) as b:
            b.open(page.as_uri() + "#step=40")
            b.mouse(*square_centre(b, tour.algebraic()[21]))
            png = b.screenshot()
    assert_not_blank(png, (760, 800))
    from knightgraph.io.formats import atomic_output

    with atomic_output(path, "wb") as handle:
        handle.write(png)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/tour_page.png")
    make_docs_screenshot(target)
    print(f"wrote {target} ({target.stat().st_size:,} bytes)")


def test_cli_draws_the_page(tmp_path):
    from knightgraph.cli import main

    page = tmp_path / "tour.html"
    assert main(["draw", "tour", "6", "6", "--closed", "-o", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert 'data-steps="36"' in text and 'src="http' not in text
    assert main(["draw", "tour", "6", "6", "--animate", "-o", str(tmp_path / "x.html")]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tour.html"]
