"""How run time grows with the board: Warnsdorff's walk, timed and fitted to a power law.

Seed 000 (its section 4.1.6) fits a regression curve through measured times.
On log-log axes a power law ``t = a N^b`` is a straight line, so fitting a
line there states the growth rate itself: ``b`` near 1 means linear in the
number of squares N.  Times are the best of two runs of
``find_tour(n, n, method="warnsdorff")``; they depend on the machine.

Run: .venv/bin/python examples/scaling.py [PICTURE]   (e.g. docs/images/scaling.png)
"""

from __future__ import annotations

import sys
import time

import knightgraph as kg
from knightgraph.draw import fit_power_law, plot_scaling, save_figure

SIDES = [100, 200, 400, 800, 1600]


def best_of(runs: int, side: int) -> float:
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        kg.find_tour(side, side, method="warnsdorff", seed=0).require_tour()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> None:
    kg.find_tour(8, 8, method="warnsdorff")  # warm up (imports, compiled kernel)
    results = {}
    for side in SIDES:
        results[(side, side)] = best_of(2, side)
        print(f"{side:>5} x {side:<5} {side * side:>9,} squares  {results[(side, side)]:.4f} s")
    a, b = fit_power_law([m * n for m, n in results], list(results.values()))
    print(f"fit: t = {a:.3g} * N^{b:.2f}  (N = squares; b = 1 is linear)")
    if len(sys.argv) > 1:
        ax = plot_scaling(
            results,
            label="Warnsdorff, best of 2",
            title=f"Warnsdorff's walk: time grows like $N^{{{b:.2f}}}$",
        )
        save_figure(ax, sys.argv[1], dpi=80)
        print(f"wrote {sys.argv[1]}")


if __name__ == "__main__":
    main()
