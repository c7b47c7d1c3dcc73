"""Issue 27, item 2: magic tours, found and counted, with the time each took.

The targets: a semi-magic 8 x 8 tour (at most 10 minutes on the project's machine; the
search is ``find_magic_tour(8, 8, kind="semi")``, a SAT search without a proof log), and
the counts of OEIS A328816 (tours of 4 x 2n boards whose files, the short lines, all sum
alike): numberings, the board's four symmetries not divided out, so ``4 * a(n)`` when no
such tour is symmetric (the OEIS: 0, 0, 16, 104 for 4 x 4 .. 4 x 10).  Each line: the
board, the kind, the status, the count or the first tour's sums, and the seconds.

    .venv/bin/python benchmarks/bench_magic.py                       # all, 600 s each
    .venv/bin/python benchmarks/bench_magic.py --only 8x8 --timeout 600
    .venv/bin/python benchmarks/bench_magic.py --only counts --timeout 300
    .venv/bin/python benchmarks/bench_magic.py --only 12x12 --timeout 900   # semi, then full

On 12 x 12 the search is of the nested and the quartet forms only (runs of four across
4 x 4 blocks, :mod:`knightgraph.magic.quartets`): finding none is "unknown", not "no".
"""

from __future__ import annotations

import argparse
import time

from knightgraph.magic import count_magic_tours, find_magic_tour

A328816 = {4: 0, 6: 0, 8: 16, 10: 104, 12: 608}
"""OEIS A328816, by the board's length n (the board 4 x n): its a(n / 2)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per search")
    parser.add_argument("--only", choices=("8x8", "counts", "full", "12x12"), help="one part")
    parser.add_argument("--lengths", type=int, nargs="+", default=[4, 6, 8], metavar="N")
    args = parser.parse_args()
    if args.only in (None, "8x8"):
        began = time.perf_counter()
        result = find_magic_tour(8, 8, kind="semi", timeout=args.timeout)
        seconds = time.perf_counter() - began
        sums = set(result.stats.get("sums", {}).values()) or "-"
        print(f"8x8 semi: {result.status.name} sums {sums} in {seconds:.1f} s ({result.reason})")
        if result.tour is not None:
            print(result.tour.algebraic())
    if args.only in (None, "counts"):
        for n in args.lengths:
            began = time.perf_counter()
            answer = count_magic_tours(4, n, kind="files", timeout=args.timeout)
            seconds = time.perf_counter() - began
            found = answer.count if answer.exact else f">= {len(answer.tours)}"
            print(
                f"4x{n} files: {answer.status.name} {found} numberings (OEIS A328816: "
                f"{A328816.get(n, '?')} up to symmetry) in {seconds:.1f} s"
            )
    if args.only == "full":
        for m in (4, 8):
            began = time.perf_counter()
            result = find_magic_tour(m, m, kind="full", timeout=args.timeout)
            seconds = time.perf_counter() - began
            print(f"{m}x{m} full: {result.status.name} in {seconds:.1f} s ({result.reason})")


    if args.only == "12x12":
        for kind in ("semi", "full"):
            began = time.perf_counter()
            result = find_magic_tour(12, 12, kind=kind, timeout=args.timeout)
            seconds = time.perf_counter() - began
            sums = set(result.stats.get("sums", {}).values()) or "-"
            print(f"12x12 {kind}: {result.status.name} sums {sums} in {seconds:.1f} s "
                  f"({result.reason})")  # fmt: skip
            if result.tour is not None:
                print(result.tour.algebraic())


if __name__ == "__main__":
    main()
