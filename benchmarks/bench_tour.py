"""Time `knightgraph tour` as a whole process, and the searches in-process.

Run with `make bench` (or `.venv/bin/python benchmarks/bench_tour.py`).  Prints a
table: each figure is the median of several runs on this machine.
"""

from __future__ import annotations

from timing import median_of, run_knightgraph, timed

from knightgraph import Board, find_tour
from knightgraph.solvers.backtracking import backtrack

CLI_CASES = [
    "--help",
    "tour 8 8 --closed --start d4 --format json",
    "tour 5 5 --start c3",
    "tour 31 29 --start a1",
    "tour 30 30 --closed",
    "tour 100 100 --closed --start b7",
    "tour 200 200 --closed",
    "tour 4 16 --start a1",
    "tour 3 8 --closed",
]

API_CASES = [
    (8, 8, {"closed": True}),
    (50, 50, {"closed": True}),
    (100, 100, {"closed": True}),
    (100, 100, {"start": "a1", "end": "b1"}),
    (300, 300, {"closed": True}),
    (500, 500, {}),
]

SEED_000 = "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"


def main() -> None:
    print("whole process: knightgraph <args>  (median of 5)")
    for args in CLI_CASES:
        seconds = median_of(lambda args=args: run_knightgraph(args), 5)
        print(f"  {args:45s} {seconds:8.3f} s")
    print("in-process: find_tour(m, n, **kw)  (median of 3)")
    for m, n, kw in API_CASES:
        seconds = median_of(lambda m=m, n=n, kw=kw: find_tour(m, n, seed=1, **kw).require_tour(), 3)
        print(f"  {m}x{n} {kw!s:35s} {seconds:8.3f} s")
    print("seed 000 plain backtracking from a1 (the seed's Java: 6x6 27 ms, 7x6 84 ms, 8x8 277 ms)")
    for m, n in [(6, 6), (7, 6), (8, 8)]:
        res, seconds = timed(lambda m=m, n=n: backtrack(Board(m, n), start="a1", moves=SEED_000))
        print(
            f"  {m}x{n}: placed {res.stats['placed']:>10,} tried {res.stats['tried']:>11,} {seconds:8.3f} s"
        )


if __name__ == "__main__":
    main()
