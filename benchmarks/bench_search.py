"""Issue-3 figures: compiled backtracking and Warnsdorff, whole-process and in-process.

Run with `make bench`.  Targets (this 2-core machine): seed-000 8x8 backtracking
<= 0.08 s and 7x7 <= 0.3 s in process; Warnsdorff 1000x1000 from a corner <= 0.5 s
and 2000x2000 <= 2 s whole process; `sweep 70 70` <= 10 s; `tour 8 8` <= 0.5 s.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from timing import best_of, median_of, run_knightgraph

from knightgraph import Board
from knightgraph.solvers.backtracking import backtrack
from knightgraph.solvers.kernels import kernels

SEED_000 = "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"


def whole_process(args: str, repeat: int = 3) -> float:
    return median_of(lambda: run_knightgraph(args), repeat)


def main() -> None:
    print(f"kernels: {'compiled C' if kernels().compiled else 'plain Python (not built)'}")
    print("plain backtracking from a1, seed-000 move order (in process, best of 3)")
    for m, n in [(6, 6), (7, 6), (8, 8), (7, 7)]:
        res = backtrack(Board(m, n), start="a1", moves=SEED_000)
        seconds = best_of(lambda m=m, n=n: backtrack(Board(m, n), start="a1", moves=SEED_000))
        print(
            f"  {m}x{n}: placed {res.stats['placed']:>11,} tried {res.stats['tried']:>12,}"
            f"  {seconds:7.3f} s"
        )
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "t.npy"
        print("whole process, median of 3")
        for args in [
            "tour 8 8",
            "tour 8 8 --closed",
            f"tour 1000 1000 --start a1 --method warnsdorff --format npy -o {out}",
            f"tour 1000 1000 --start a1 --method warnsdorff -o {out}.txt",
            f"tour 2000 2000 --start a1 --method warnsdorff --format npy -o {out}",
            "sweep 70 70 --format json",
            "sweep 70 70 --method warnsdorff --rule border --format json",
        ]:
            print(f"  knightgraph {args.replace(folder, '...'):70s} {whole_process(args):7.3f} s")


if __name__ == "__main__":
    main()
