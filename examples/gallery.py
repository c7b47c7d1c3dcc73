"""A drawing gallery: every kind of picture knightgraph draws, written to docs/images/.

The pictures in the README and the documentation are made by this script
(and the run-time plot by examples/scaling.py).  The tours are seeded, so
running it again writes the same files.

Run: .venv/bin/python examples/gallery.py [FOLDER]   (default: docs/images)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import knightgraph as kg
from knightgraph.draw import (
    LAYOUTS,
    animate_tour,
    draw_existence_table,
    draw_knight_graph,
    draw_numbered_board,
    draw_tour,
    save_figure,
)
from knightgraph.explore import existence_table

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "images"


def tour(m: int, n: int, **kw: object) -> kg.Tour:
    return kg.find_tour(m, n, seed=0, **kw).require_tour()


def panels(rows: int, cols: int, size: float) -> tuple[Figure, list]:
    fig = Figure(figsize=(cols * size, rows * size))
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False).ravel().tolist()
    return fig, axes


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    written = []

    def save(what, name: str, dpi: float = 80) -> None:
        save_figure(what, folder / name, dpi=dpi)
        written.append(name)

    # A closed 8 x 8 tour: checkered board, labels, numbers, start and end marked,
    # the closing move dashed.
    save(draw_tour(tour(8, 8, closed=True, start="a1"), numbers=True), "tour_8x8_closed.png")
    # Direction of travel: arrows, each move coloured by which of the 8 moves it is.
    save(
        draw_tour(tour(8, 8, start="a1"), arrows=True, color_by="direction"), "tour_8x8_arrows.png"
    )
    # The seeds' numbered grid.
    save(draw_numbered_board(tour(8, 8, start="a1")), "numbered_board.png")
    # Open versus closed, side by side.
    fig, (left, right) = panels(1, 2, 4.5)
    draw_tour(tour(5, 5, start="a1"), ax=left, numbers=True)
    draw_tour(tour(6, 6, closed=True), ax=right, numbers=True)
    fig.subplots_adjust(left=0.06, right=0.98, wspace=0.2)
    save(fig, "open_vs_closed.png")
    # Big boards: still a clear path at 50 x 50; lines only beyond 100 x 100.
    save(draw_tour(tour(50, 50, closed=True)), "tour_50x50.png")
    save(draw_tour(tour(100, 100, closed=True)), "tour_100x100.png", dpi=70)
    # The knight graph of 6 x 6 in all six layouts.
    fig, axes = panels(2, 3, 4.2)
    G = kg.knight_graph(6, 6)
    for ax, layout in zip(axes, LAYOUTS, strict=True):
        draw_knight_graph(
            G, ax=ax, layout=layout, color_by="degree" if layout in ("board", "shell") else "color"
        )
        ax.set_title(layout, fontsize=11)
        if ax.get_legend() is not None:
            ax.get_legend().remove()
    fig.subplots_adjust(left=0.03, right=0.98, bottom=0.03, top=0.94, wspace=0.15, hspace=0.15)
    save(fig, "graph_layouts.png")
    # Seed 000's Figure 3.1, every cell proved.
    save(draw_existence_table(existence_table(20)), "existence_table.png")
    # A tour being walked.
    animate_tour(tour(6, 6, closed=True), folder / "tour_6x6.gif", fps=10, dpi=60)
    written.append("tour_6x6.gif")

    for name in written:
        print(f"wrote {folder / name} ({(folder / name).stat().st_size / 1024:.0f} KiB)")
    print(f"{len(written)} pictures in {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
