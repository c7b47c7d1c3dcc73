"""Issue 27, item 1: symmetric tours, timed.

* the pinwheel construction (``find_tour(n, n, closed=True, symmetric=...)``, verified as a
  tour and for its symmetry) on even ``n x n`` boards up to 1000 x 1000: the median of a few
  runs per board, and every even ``n`` from 6 to ``--every`` checked once;
* SAT on the small boards (``n < 18``) and the refutations of the kinds no theorem rules out;
* the classes by symmetry type of the small boards' counts.

``--pictures DIR`` also draws a symmetric 8 x 8 tour and a quaternary 6 x 6 one
(``docs/images/symmetric_8x8.png``, ``symmetric_6x6.png``).

    .venv/bin/python benchmarks/bench_symmetric.py
    .venv/bin/python benchmarks/bench_symmetric.py --every 1000 --pictures docs/images
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import knightgraph as kg


def _timed(call, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        began = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - began)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=200, help="check every even n up to this")
    parser.add_argument("--pictures", metavar="DIR", help="draw the 8x8 and 6x6 pictures here")
    args = parser.parse_args()

    print("construction (closed, verified twice), median of 5 runs:")
    for n in (18, 100, 500, 998, 1000):
        for kind in ("rot180", "rot90"):
            if kind == "rot90" and n % 4 != 2:
                continue
            seconds, res = _timed(
                lambda n=n, kind=kind: kg.find_tour(n, n, closed=True, symmetric=kind), 5
            )
            print(f"  {n:>4}x{n:<4} {kind:6} {res.method:12} {seconds:8.3f} s")

    began, boards = time.perf_counter(), 0
    for n in range(6, args.every + 1, 2):
        for kind in ("rot180", "rot90"):
            res = kg.find_tour(n, n, closed=True, symmetric=kind)
            expected = kind == "rot180" or n % 4 == 2
            assert res.found == expected, (n, kind, res.status, res.reason)
            boards += 1
    print(
        f"every even n from 6 to {args.every}: {boards} requests, {time.perf_counter() - began:.1f} s"
    )

    print("small boards (SAT, theorems):")
    for m, n, closed, kind in [
        (6, 6, True, "rot90"),
        (8, 8, True, "rot180"),
        (10, 10, True, "rot90"),
        (14, 14, True, "rot90"),
        (16, 16, True, "rot180"),
        (5, 6, True, "rot180"),
        (3, 10, True, "mirror"),
        (5, 5, False, "rot180"),
        (7, 7, False, "rot180"),
        (8, 8, False, "rot180"),
    ]:
        seconds, res = _timed(
            lambda m=m, n=n, c=closed, k=kind: kg.tour_exists(m, n, closed=c, symmetric=k), 3
        )
        how = res.method if res.found else res.certificate.kind
        print(
            f"  {m}x{n} {'closed' if closed else 'open':6} {kind:6} {res.status.name:14} {how:14} {seconds:7.3f} s"
        )

    print("classes by symmetry type:")
    for m, n, closed in [(6, 6, True), (5, 5, False), (3, 10, True), (6, 7, True), (4, 9, False)]:
        seconds, r = _timed(lambda m=m, n=n, c=closed: kg.symmetry_classes(m, n, closed=c), 1)
        print(f"  {m}x{n} {'closed' if closed else 'open':6} {r.types} ({seconds:.2f} s)")

    if args.pictures:
        from knightgraph.draw import draw_tour, save_figure

        folder = Path(args.pictures)
        for n, kind, name in (
            (8, "rot180", "symmetric_8x8.png"),
            (6, "rot90", "symmetric_6x6.png"),
        ):
            tour = kg.find_tour(n, n, closed=True, symmetric=kind).tour
            title = f"a closed {n}x{n} tour fixed by {kind}"
            save_figure(draw_tour(tour, markers=False, color_by=None, title=title), folder / name)
            print(f"wrote {folder / name}")


if __name__ == "__main__":
    main()
