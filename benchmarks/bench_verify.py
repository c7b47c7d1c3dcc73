"""Time `validate_tour` and `Tour` construction on large tours.

Run with `make bench`.  The tour is built once (Warnsdorff, in Python), then
checked several times; the figure is the median.
"""

from __future__ import annotations

import statistics
import time

from knightgraph import find_tour, validate_tour


def main() -> None:
    for side in (300, 1000):
        began = time.perf_counter()
        tour = find_tour(side, side, closed=True, seed=1, method="warnsdorff").require_tour()
        built = time.perf_counter() - began
        times = []
        for _ in range(5):
            began = time.perf_counter()
            validate_tour(tour.order, side, side, closed=True)
            times.append(time.perf_counter() - began)
        per = statistics.median(times)
        print(
            f"{side}x{side}: tour found in {built:6.2f} s; validate_tour {per * 1e3:8.2f} ms "
            f"({per / side**2 * 1e9:5.1f} ns a square)"
        )


if __name__ == "__main__":
    main()
