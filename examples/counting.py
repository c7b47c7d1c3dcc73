"""Counting tours exactly, against the published counts.

`knightgraph.count_tours` counts without listing the tours (a dynamic program
over the frontier of the board).  Closed tours are counted as undirected
cycles and open tours as directed paths, as in the OEIS; `.directed` and
`.undirected` give both.  The counts below are the published ones.

Run: .venv/bin/python examples/counting.py
"""

from __future__ import annotations

import time

import knightgraph as kg

# (m, n, closed, which count, published value, source)
KNOWN = [
    (3, 4, False, "directed", 16, "3 x 4 open tours"),
    (5, 5, False, "directed", 1728, "OEIS A165134 (n = 5)"),
    (5, 6, True, "undirected", 8, "OEIS A175855"),
    (3, 10, True, "undirected", 16, "OEIS A070030 (3 x 10)"),
    (6, 6, True, "undirected", 9862, "OEIS A001230 (n = 6)"),
]


def main() -> None:
    for m, n, closed, which, published, source in KNOWN:
        began = time.perf_counter()
        result = kg.count_tours(m, n, closed=closed)
        count = getattr(result, which)
        kind = "closed" if closed else "open"
        assert count == published, (m, n, closed, count, published)
        print(
            f"{m} x {n} {kind:<6}: {count:>6,} {which:<10} = {source} "
            f"({time.perf_counter() - began:.3f} s)"
        )
    # With a fixed start: the open 5 x 5 tours from each corner and from the centre.
    for start in ("a1", "c3"):
        print(f"5 x 5 open tours from {start}: {kg.count_tours(5, 5, start=start).directed}")


if __name__ == "__main__":
    main()
