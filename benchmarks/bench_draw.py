"""Time drawing tours to PNG (target: a 100x100 tour in at most 2 s), and the other pictures.

Run with `make bench` (or `.venv/bin/python benchmarks/bench_draw.py`).  Each
figure is the median of several runs on this machine; the first run of a
process also pays for importing matplotlib, reported separately.  The CLI
rows time `knightgraph draw ...` as a whole process (search, import, draw).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import median_of

from knightgraph import find_tour, knight_graph
from knightgraph.explore import existence_table

TARGET_100 = 2.0


def main() -> None:
    began = time.perf_counter()
    import matplotlib.figure  # noqa: F401  (what the first picture pays for)

    from knightgraph.draw import (
        animate_tour,
        draw_existence_table,
        draw_knight_graph,
        draw_tour,
        save_figure,
    )

    print(f"import matplotlib and knightgraph.draw: {time.perf_counter() - began:.3f} s")
    folder = Path(tempfile.mkdtemp(prefix="bench_draw."))
    tours = {
        side: find_tour(side, side, closed=True, seed=0).require_tour()
        for side in (8, 50, 100, 300, 1000)
    }

    print("draw_tour + save_figure to PNG at 100 dpi  (median of 5; 1000x1000 once)")
    for side, tour in tours.items():

        def run(tour=tour, side=side) -> None:
            save_figure(draw_tour(tour), folder / f"t{side}.png")

        seconds = median_of(run, 1 if side >= 1000 else 5)
        note = ""
        if side == 100:
            note = f"  target <= {TARGET_100:.0f} s: {'met' if seconds <= TARGET_100 else 'MISSED'}"
        print(f"  {side}x{side} ({len(tour):>9,} moves) {seconds:8.3f} s{note}")
    seconds = median_of(lambda: save_figure(draw_tour(tours[8], numbers=True), folder / "n.png"), 5)
    print(f"  8x8 with numbers                {seconds:8.3f} s")
    seconds = median_of(
        lambda: save_figure(draw_tour(tours[50], numbers=True), folder / "n50.png"), 1
    )
    print(f"  50x50 with numbers              {seconds:8.3f} s")
    seconds = median_of(lambda: save_figure(draw_tour(tours[100]), folder / "t.svg"), 3)
    print(f"  100x100 to SVG                  {seconds:8.3f} s")

    print("other pictures (median of 3)")
    G = knight_graph(8, 8)
    for layout in ("board", "spring", "bipartite"):
        seconds = median_of(
            lambda layout=layout: save_figure(
                draw_knight_graph(G, layout=layout), folder / "g.png"
            ),
            3,
        )
        print(f"  knight graph 8x8, {layout:<9}      {seconds:8.3f} s")
    table = existence_table(20)
    seconds = median_of(lambda: save_figure(draw_existence_table(table), folder / "e.png"), 3)
    print(f"  existence table 20x20 (drawing) {seconds:8.3f} s")
    seconds = median_of(lambda: animate_tour(tours[8], folder / "a.gif"), 1)
    print(f"  8x8 animation, GIF (64 moves)   {seconds:8.3f} s")

    print("whole process: knightgraph draw ...  (median of 3)")
    for args in (
        "tour 8 8 --closed --numbers -o {}/c.png",
        "tour 100 100 --closed -o {}/c.png",
        "graph 5 5 --layout spring -o {}/g.svg",
        "table 20 -o {}/t.png",
    ):
        cmd = [sys.executable, "-m", "knightgraph", "draw", *args.format(folder).split()]
        seconds = median_of(lambda cmd=cmd: subprocess.run(cmd, capture_output=True, check=True), 3)
        print(f"  draw {args.replace(' -o {}/', ' -o '):40s} {seconds:8.3f} s")
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()


if __name__ == "__main__":
    main()
