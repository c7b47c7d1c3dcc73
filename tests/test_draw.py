"""Pictures: knightgraph.draw, Tour._repr_png_ and `knightgraph draw`.

Pictures are checked as files (pillow opens the PNG and GIF, xml.etree parses
the SVG) and as matplotlib Axes: the path has one segment per move, each a
knight's move between the squares of the tour, checked without knightgraph.
"""

from __future__ import annotations

import io
import itertools
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.animation
import matplotlib.figure
import matplotlib.quiver
import numpy as np
import pytest
from cli_support import call, one_line
from independent import tour_defect
from PIL import Image

import knightgraph as kg
from knightgraph.draw import (
    CHECKERED_LIMIT,
    LAYOUTS,
    animate_tour,
    draw_existence_table,
    draw_knight_graph,
    draw_numbered_board,
    draw_tour,
    fit_power_law,
    path_collection,
    plot_scaling,
    save_figure,
    to_png,
)
from knightgraph.explore import existence_table


# ------------------------------------------------------------------- helpers
def tour_of(m: int, n: int, **kw: object) -> kg.Tour:
    result = kg.find_tour(m, n, seed=0, **kw)
    assert result.tour is not None
    return result.tour


def segments(ax) -> np.ndarray:
    """The path's segments as an (k, 2, 2) array of (file, rank) points."""
    return np.asarray(path_collection(ax).get_segments()).reshape(-1, 2, 2)


def squares_of_path(segs: np.ndarray) -> list[tuple[int, int]]:
    """The (r, c) squares the drawn path visits, in order (from the segment starts)."""
    pts = [segs[0][0], *(s[1] for s in segs)] if len(segs) else []
    return [(round(y), round(x)) for x, y in pts]


def png_image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def svg_group(root: ET.Element, gid: str) -> list[ET.Element]:
    """The children of the SVG group matplotlib writes for the artist with this gid."""
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id") == gid]
    assert len(groups) == 1, f"no single group {gid!r} in the SVG"
    return list(groups[0])


def not_blank(image: Image.Image) -> bool:
    """More than a handful of colours and real contrast: something was drawn."""
    pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
    return colours > 20 and int(pixels.max()) - int(pixels.min()) > 150


# ----------------------------------------------------------------- draw_tour
@pytest.mark.parametrize(
    ("m", "n", "closed"),
    [(8, 8, True), (8, 8, False), (5, 6, False), (3, 10, True), (30, 30, True)],
)
def test_path_has_one_segment_per_move_and_they_are_the_tour(m, n, closed):
    tour = tour_of(m, n, closed=closed)
    ax = draw_tour(tour)
    segs = segments(ax)
    moves = len(tour) if closed else len(tour) - 1
    assert len(segs) == moves
    visited = squares_of_path(segs)
    if closed:
        assert visited[-1] == visited[0]
        visited = visited[:-1]
    assert visited == tour.squares()
    assert tour_defect(m, n, visited, closed=closed) is None  # checked without knightgraph
    styles = path_collection(ax).get_linestyles()
    if closed:  # the closing move, and only it, is dashed
        assert styles[-1][1] is not None and styles[0][1] is None
    else:
        assert all(dashes is None for _, dashes in styles)


def test_board_labels_markers_and_title():
    tour = tour_of(8, 8, closed=True, start="d4")
    ax = draw_tour(tour)
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcdefgh")
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(r) for r in range(1, 9)]
    assert "closed" in ax.get_title() and "8 x 8" in ax.get_title()
    marks = {line.get_label().split()[0]: line for line in ax.get_lines()}
    start, end = marks["start"].get_xydata()[0], marks["end"].get_xydata()[0]
    assert (start[1], start[0]) == tour.start == (3, 3)
    assert (end[1], end[0]) == tour.end
    board = ax.get_images()[0].get_array()  # the checkered board: colour (r + c) % 2
    r, c = np.indices((8, 8))
    assert np.array_equal(np.asarray(board), (r + c) % 2)
    bare = draw_tour(tour, labels=False, markers=False)
    assert not bare.get_xticks().size and not bare.get_lines() and not bare.get_title()


def test_numbers_are_the_visiting_order():
    tour = tour_of(6, 6, closed=True)
    ax = draw_tour(tour, numbers=True)
    where = {int(t.get_text()): t.get_position() for t in ax.texts}
    assert sorted(where) == list(range(1, 37))
    assert [(round(y), round(x)) for x, y in (where[k] for k in range(1, 37))] == tour.squares()
    assert min(t.get_fontsize() for t in ax.texts) >= 8  # legible


def test_arrows_and_colouring():
    tour = tour_of(5, 5, start="a1")
    ax = draw_tour(tour, arrows=True)
    quiver = next(c for c in ax.collections if isinstance(c, matplotlib.quiver.Quiver))
    assert len(tour) - 1 == quiver.N
    steps = path_collection(ax).get_array()
    assert list(steps) == list(range(len(tour) - 1))  # coloured by step
    by_direction = path_collection(draw_tour(tour, color_by="direction"))
    assert by_direction.get_array() is None
    assert 2 <= len({tuple(c) for c in by_direction.get_colors()}) <= 8
    plain = path_collection(draw_tour(tour, color_by=None))
    assert len({tuple(c) for c in plain.get_colors()}) == 1


def test_removed_squares_and_one_square_board():
    board = kg.Board(3, 3, removed=["b2"])
    tour = kg.Tour.from_squares(
        ["a1", "c2", "a3", "b1", "c3", "a2", "c1", "b3"], board, closed=True
    )
    ax = draw_tour(tour, numbers=True)
    assert len(segments(ax)) == 8
    assert np.asarray(ax.get_images()[0].get_array())[1, 1] == 2  # drawn as removed
    assert len(ax.texts) == 8
    single = draw_tour(kg.Tour(kg.Board(1, 1), [0]))
    assert len(segments(single)) == 0


def test_big_boards_are_lines_only_and_rasterised():
    tour = kg.find_tour(101, 101, method="warnsdorff", seed=0).require_tour()
    assert tour.board.area > CHECKERED_LIMIT
    ax = draw_tour(tour)
    path = path_collection(ax)
    assert len(path.get_segments()) == len(tour) - 1
    assert path.get_rasterized()
    assert not ax.get_images()  # no checkering


def test_huge_boards_draw_the_step_map():
    tour = kg.find_tour(1001, 1000, method="warnsdorff", seed=0).require_tour()
    ax = draw_tour(tour)
    with pytest.raises(LookupError):
        path_collection(ax)
    image = np.asarray(ax.get_images()[0].get_array())
    assert image.shape == (1001, 1000)
    assert image[tour.start] == 0 and image[tour.end] == len(tour) - 1


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"color_by": "rainbow"}, "color_by"), ({"numbers": True}, "numbers")],
)
def test_bad_options_are_named(kwargs, words):
    tour = tour_of(60, 60, method="warnsdorff")
    with pytest.raises(kg.InvalidOptionError, match=words):
        draw_tour(tour, **kwargs)


def test_draws_into_a_given_axes():
    from matplotlib.figure import Figure

    fig = Figure()
    left, right = fig.subplots(1, 2)
    assert draw_tour(tour_of(5, 5), ax=left) is left
    assert draw_numbered_board(tour_of(5, 5), ax=right) is right
    assert png_image(to_png(fig)).size == (640, 480)


def test_numbered_board():
    tour = tour_of(7, 7, start="a1")
    ax = draw_numbered_board(tour)
    grid = np.zeros((7, 7), dtype=int)
    for t in ax.texts:
        x, y = t.get_position()
        grid[round(y), round(x)] = int(t.get_text())
    assert np.array_equal(grid, tour.numbered())
    shaded = draw_numbered_board(tour, shade=True)
    assert len(shaded.texts) == 49


# --------------------------------------------------------------------- graph
@pytest.mark.parametrize("layout", LAYOUTS)
def test_graph_layouts(layout):
    G = kg.knight_graph(5, 6)
    ax = draw_knight_graph(G, layout=layout, color_by="degree" if layout == "shell" else "color")
    edges = next(c for c in ax.collections if c.get_gid() == "edges")
    nodes = next(c for c in ax.collections if c.get_gid() == "nodes")
    assert len(edges.get_segments()) == G.number_of_edges() == 4 * 30 - 6 * 11 + 8
    assert len(nodes.get_offsets()) == 30
    assert len(ax.texts) == 30  # names on up to 64 nodes
    if layout == "board":  # every node where its square is
        assert {(round(y), round(x)) for x, y in nodes.get_offsets()} == set(G.nodes)
    if layout == "bipartite":  # the two colours in two columns
        xs = {}
        for v, (x, _) in zip(G.nodes, nodes.get_offsets(), strict=True):
            xs.setdefault(G.nodes[v]["color"], set()).add(round(float(x), 6))
        assert len(xs[0]) == len(xs[1]) == 1 and xs[0] != xs[1]
        left = [v for v in G.nodes if G.nodes[v]["color"] == 0]  # a1, a3, a5, b2, ... down
        ys = dict(zip(G.nodes, nodes.get_offsets()[:, 1].tolist(), strict=True))
        assert sorted(left, key=lambda v: -ys[v]) == sorted(left, key=lambda v: (v[1], v[0]))


def test_graph_degree_legend_and_errors():
    ax = draw_knight_graph(kg.knight_graph(8, 8), color_by="degree")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["2", "3", "4", "6", "8"]
    with pytest.raises(kg.InvalidOptionError, match="layout"):
        draw_knight_graph(kg.knight_graph(3, 3), layout="random")
    with pytest.raises(kg.InvalidOptionError, match="color_by"):
        draw_knight_graph(kg.knight_graph(3, 3), color_by="size")


# --------------------------------------------------------------------- table
def test_existence_table_picture():
    table = existence_table(6, 8)
    ax = draw_existence_table(table)
    cells = {
        (round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts
    }
    assert cells == {(m, n): table.code(m, n) for m in range(1, 7) for n in range(1, 9)}
    assert cells[(1, 1)] == "o" and cells[(3, 4)] == "o" and cells[(5, 6)] == "c"
    legend = [t.get_text()[0] for t in ax.get_legend().get_texts()]
    assert legend == ["c", "e", "o", "x"]
    from_dict = draw_existence_table(table.to_dict())
    assert [t.get_text() for t in from_dict.texts] == [t.get_text() for t in ax.texts]
    with pytest.raises(kg.InvalidOptionError, match="codes"):
        draw_existence_table([["c", "z"]])


# ------------------------------------------------------------------- scaling
def test_power_law_fit_and_plot():
    sizes = [64, 400, 2500, 10000]
    a, b = fit_power_law(sizes, [3e-6 * s**1.5 for s in sizes])
    assert b == pytest.approx(1.5) and a == pytest.approx(3e-6)
    ax = plot_scaling({(8, 8): 0.001, (20, 20): 0.004, (50, 50): 0.03})
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert "N^{" in ax.get_legend().get_texts()[1].get_text()
    assert len(ax.get_lines()[0].get_xdata()) == 3
    with pytest.raises(kg.InvalidOptionError):
        fit_power_law([10], [1.0])
    with pytest.raises(kg.InvalidOptionError):
        plot_scaling([(10, 1.0), (20, 0.0)])


# -------------------------------------------------------------------- saving
def test_png_svg_pdf_gif_files(tmp_path):
    ax = draw_tour(tour_of(8, 8, closed=True), numbers=True)
    for suffix in ("png", "svg", "pdf", "gif"):
        save_figure(ax, tmp_path / f"t.{suffix}", dpi=50)
    fig = ax.figure
    expected = (round(fig.get_figwidth() * 50), round(fig.get_figheight() * 50))
    with Image.open(tmp_path / "t.png") as png:
        assert png.format == "PNG" and png.size == expected and not_blank(png)
    with Image.open(tmp_path / "t.gif") as gif:
        assert gif.format == "GIF" and gif.size == expected and not_blank(gif)
    root = ET.parse(tmp_path / "t.svg").getroot()
    assert root.tag.endswith("svg")
    moves = svg_group(root, "knightgraph-path")  # the path: one <path> per move
    assert len(moves) == 64 and all(p.tag.endswith("path") for p in moves)
    assert "dasharray" in moves[-1].get("style", "")  # the closing move, and only it
    assert not any("dasharray" in p.get("style", "") for p in moves[:-1])
    assert (tmp_path / "t.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.gif", "t.pdf", "t.png", "t.svg"]


def test_bad_suffix_and_failed_writes_leave_nothing(tmp_path, monkeypatch):
    ax = draw_tour(tour_of(5, 5))
    with pytest.raises(kg.InvalidOptionError, match=r"\.jpg"):
        save_figure(ax, tmp_path / "t.jpg")
    with pytest.raises(OSError):
        save_figure(ax, tmp_path / "missing" / "t.png")
    for dpi in (0, -5, float("nan"), 10**6):
        with pytest.raises(kg.InvalidOptionError, match="dpi"):
            save_figure(ax, tmp_path / "t.png", dpi=dpi)

    def broken(self, fname, **kwargs):
        fname.write(b"half a picture")
        raise RuntimeError("disk full")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", broken)
    with pytest.raises(RuntimeError):
        save_figure(ax, tmp_path / "t.png")
    assert list(tmp_path.iterdir()) == []


def test_animation_gif(tmp_path):
    tour = tour_of(5, 5, start="a1")
    ax = animate_tour(tour, tmp_path / "walk.gif", fps=5, frames=6, hold=0.4, dpi=40)
    assert len(segments(ax)) == 24  # ends showing the whole tour
    with Image.open(tmp_path / "walk.gif") as gif:
        fig = ax.figure
        assert gif.size == (round(fig.get_figwidth() * 40), round(fig.get_figheight() * 40))
        assert gif.n_frames >= 7  # 7 distinct frames (identical hold frames are merged)
        gif.seek(0)
        first = np.asarray(gif.convert("RGB"))
        gif.seek(gif.n_frames - 1)
        last = np.asarray(gif.convert("RGB"))
        assert not np.array_equal(first, last) and not_blank(gif)
    assert [p.name for p in tmp_path.iterdir()] == ["walk.gif"]
    with pytest.raises(kg.InvalidOptionError, match="gif"):
        animate_tour(tour, tmp_path / "walk.png")
    with pytest.raises(kg.InvalidOptionError, match="dpi"):
        animate_tour(tour, tmp_path / "walk.gif", dpi=0)
    if not matplotlib.animation.writers.is_available("ffmpeg"):
        with pytest.raises(kg.InvalidOptionError, match="ffmpeg"):
            animate_tour(tour, tmp_path / "walk.mp4")
    assert [p.name for p in tmp_path.iterdir()] == ["walk.gif"]


def test_animation_path_grows_frame_by_frame(tmp_path):
    """One colour for the path, so its pixels can be counted: none, then more in every frame."""
    tour = tour_of(5, 5, start="a1")
    animate_tour(tour, tmp_path / "walk.gif", fps=5, frames=6, hold=0, dpi=40, color_by=None)
    navy = np.array([0x1D, 0x35, 0x57])  # draw_tour's colour for color_by=None
    counts = []
    with Image.open(tmp_path / "walk.gif") as gif:
        for k in range(gif.n_frames):
            gif.seek(k)
            pixels = np.asarray(gif.convert("RGB"), dtype=float)
            counts.append(int((np.linalg.norm(pixels - navy, axis=2) < 40).sum()))
    assert len(counts) == 7 and counts[0] == 0
    assert all(later > earlier for earlier, later in itertools.pairwise(counts))


# ----------------------------------------------------------------- notebooks
def test_tour_displays_itself():
    tour = tour_of(8, 8, closed=True)
    image = png_image(tour._repr_png_())
    assert image.format == "PNG" and not_blank(image) and min(image.size) > 300
    assert kg.find_tour(101, 101, method="warnsdorff").require_tour()._repr_png_() is None
    assert repr(tour).startswith("Tour(Board(8, 8), closed, 64 squares: a1 ")
    assert len(tour.draw().texts) == 0


def test_import_stays_light():
    code = "import sys, knightgraph.draw; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ----------------------------------------------------------------------- CLI


def test_cli_draw_tour_numbers(tmp_path, capsys):
    out = tmp_path / "t.png"
    code, stdout, _ = call(
        capsys, "draw", "tour", "8", "8", "--closed", "--numbers", "-o", str(out)
    )
    assert code == 0 and "t.png" in stdout
    with Image.open(out) as image:
        assert image.format == "PNG" and not_blank(image)
        assert image.size[0] >= 700 and abs(image.size[0] - image.size[1]) < 50


def test_cli_draw_tour_animation(tmp_path, capsys):
    out = tmp_path / "tour.gif"
    code, _, _ = call(capsys, "draw", "tour", "5", "5", "--animate", "--fps", "4", "-o", str(out))
    assert code == 0
    with Image.open(out) as gif:
        assert gif.format == "GIF" and gif.n_frames >= 25 and not_blank(gif)


@pytest.mark.slow
def test_cli_draw_tour_8x8_animation(tmp_path, capsys):
    out = tmp_path / "tour.gif"
    assert call(capsys, "draw", "tour", "8", "8", "--animate", "-o", str(out))[0] == 0
    with Image.open(out) as gif:
        assert gif.n_frames >= 64


def test_cli_draw_graph_svg(tmp_path, capsys):
    out = tmp_path / "graph.svg"
    code, stdout, _ = call(capsys, "draw", "graph", "5", "5", "--layout", "spring", "-o", str(out))
    assert code == 0 and "48 moves" in stdout
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg") and root.get("viewBox")
    assert len(svg_group(root, "edges")) == 48  # one <path> per move of the 5x5 graph


@pytest.mark.parametrize("size", ["8", pytest.param("20", marks=pytest.mark.slow)])
def test_cli_draw_table(tmp_path, capsys, size):
    out = tmp_path / "table.png"
    assert call(capsys, "draw", "table", size, "-o", str(out))[0] == 0
    with Image.open(out) as image:
        assert image.format == "PNG" and not_blank(image)


def test_cli_draw_file(tmp_path, capsys):
    tour = tour_of(6, 7, closed=True)
    (tmp_path / "t.json").write_text(tour.to_json())
    (tmp_path / "t.txt").write_text(" ".join(tour.algebraic()))
    assert (
        call(capsys, "draw", "file", str(tmp_path / "t.json"), "-o", str(tmp_path / "a.pdf"))[0]
        == 0
    )
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    code, _, err = call(
        capsys, "draw", "file", str(tmp_path / "t.txt"), "-o", str(tmp_path / "b.png")
    )
    assert code == 2 and "M N" in one_line(err)
    code, _, _ = call(
        capsys, "draw", "file", str(tmp_path / "t.txt"), "6", "7", "-o", str(tmp_path / "b.png")
    )
    assert code == 0 and (tmp_path / "b.png").exists()
    stdin = io.TextIOWrapper(io.BytesIO(tour.to_json().encode()))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", stdin)
        code, _, _ = call(capsys, "draw", "file", "-", "-o", str(tmp_path / "s.svg"))
    assert code == 0 and ET.parse(tmp_path / "s.svg").getroot().tag.endswith("svg")
    broken = tour.to_dict()
    broken["squares"][3], broken["squares"][9] = broken["squares"][9], broken["squares"][3]
    (tmp_path / "bad.json").write_text(__import__("json").dumps(broken))
    code, _, err = call(
        capsys, "draw", "file", str(tmp_path / "bad.json"), "-o", str(tmp_path / "c.png")
    )
    assert code == 2 and "error" in one_line(err)
    assert not (tmp_path / "c.png").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["draw", "tour", "8", "8", "-o", "{tmp}/t.jpg"],
        ["draw", "tour", "8", "8", "-o", "{tmp}/t"],
        ["draw", "tour", "8", "8", "-o", "{tmp}/missing/t.png"],
        ["draw", "tour", "8", "8", "-o", "{tmp}"],
        ["draw", "tour", "8", "8", "--animate", "-o", "{tmp}/t.png"],
        ["draw", "tour", "60", "60", "--numbers", "-o", "{tmp}/t.png"],
        ["draw", "graph", "5", "5", "--layout", "tree", "-o", "{tmp}/g.png"],
        ["draw", "graph", "200", "200", "-o", "{tmp}/g.png"],
        ["draw", "table", "0", "-o", "{tmp}/x.png"],
        ["draw", "file", "{tmp}/none.json", "-o", "{tmp}/x.png"],
        ["draw", "tour", "8", "8"],
        ["draw", "tour", "8", "8", "--start", "z9", "-o", "{tmp}/t.png"],
        ["draw", "tour", "8", "8", "--dpi", "0", "-o", "{tmp}/t.png"],
        ["draw", "tour", "8", "8", "--dpi", "-5", "-o", "{tmp}/t.png"],
        ["draw", "graph", "5", "5", "--dpi", "100000", "-o", "{tmp}/g.png"],
        ["draw", "tour", "8", "8", "--animate", "--fps", "0", "-o", "{tmp}/t.gif"],
    ],
)
def test_cli_draw_bad_input_exit_2_and_writes_nothing(tmp_path, capsys, args):
    argv = [a.format(tmp=tmp_path) for a in args]
    code, _, err = call(capsys, *argv)
    assert code == 2
    one_line(err)
    assert list(tmp_path.iterdir()) == []


def test_cli_draw_unwritable_folder(tmp_path, capsys):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running with permission to write anywhere (root)")
        code, _, err = call(capsys, "draw", "tour", "5", "5", "-o", str(folder / "t.png"))
        assert code == 2 and "permission" in one_line(err).lower()
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


@pytest.mark.parametrize("name", ["t.png", "t.gif"])
def test_cli_draw_write_refused_exit_2(tmp_path, capsys, monkeypatch, name):
    """The folder check passes (as root it always does) but creating the file fails."""
    import knightgraph.running.disk

    real_open = os.open

    def refuse(path, flags, *args, **kwargs):
        if flags & os.O_EXCL:  # the temporary file beside the target
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(knightgraph.running.disk.os, "open", refuse)
    extra = ["--animate", "--fps", "2"] if name.endswith(".gif") else []
    code, _, err = call(capsys, "draw", "tour", "5", "5", *extra, "-o", str(tmp_path / name))
    assert code == 2 and "permission denied" in one_line(err).lower() and name in err
    assert list(tmp_path.iterdir()) == []


def test_cli_draw_no_tour_exit_1(tmp_path, capsys):
    code, out, _ = call(capsys, "draw", "tour", "4", "4", "-o", str(tmp_path / "t.png"))
    assert code == 1 and "no open tour" in out
    assert list(tmp_path.iterdir()) == []
    code, _, err = call(
        capsys, "draw", "tour", "7", "7", "--animate", "-o", str(tmp_path / "t.mp4")
    )
    if not matplotlib.animation.writers.is_available("ffmpeg"):
        assert code == 2 and "ffmpeg" in one_line(err)
    assert list(tmp_path.iterdir()) == [] or code == 0


def test_cli_help_lists_draw(capsys):
    code, out, _ = call(capsys, "draw", "--help")
    assert code == 0 and all(word in out for word in ("tour", "graph", "table", "file"))


def test_readme_pictures_exist():
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme)
    assert len(pictures) >= 3
    for picture in pictures:
        assert (Path(__file__).parent.parent / picture).is_file(), picture


def test_draw_tour_draws_a_tour_of_a_graph_board_and_refuses_rectangle_options() -> None:
    """``draw_tour`` on a torus's tour drew nothing and raised AttributeError ('m'); it is now
    the graph board's picture (what ``draw_graph_tour``, which Tour.draw's message names and
    ``knightgraph.draw`` now exports, draws), and a rectangle-only option is refused."""
    import matplotlib.pyplot as plt

    from knightgraph import find_tour
    from knightgraph.boards.topology import topology_board
    from knightgraph.draw import draw_graph_tour, draw_tour
    from knightgraph.exceptions import InvalidOptionError

    tour = find_tour(topology_board(5, 5, wrap="both"), closed=True).tour
    ax = draw_tour(tour)
    ours = draw_graph_tour(tour)
    assert len(ax.collections) == len(ours.collections) > 0
    with pytest.raises(InvalidOptionError, match="arrows"):
        draw_tour(tour, arrows=True)
    plt.close("all")
