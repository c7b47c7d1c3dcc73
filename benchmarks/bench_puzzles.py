"""Issue 27, item 3: knight's-tour number puzzles, made and solved.

For each board (6x6 and 8x8, open and closed) and seed: ``make_puzzle`` (a random tour,
clues removed in a random order while the solution stays unique, ``--tries`` orders, the
uniqueness proven and checked), then the puzzle made solved from scratch
(``solve_puzzle``) and counted (``count_solutions``: exactly 1, the refutation checked).
Prints one line per puzzle and, per board, the fewest clues reached and the median times.

    .venv/bin/python benchmarks/bench_puzzles.py
    .venv/bin/python benchmarks/bench_puzzles.py --boards 8x8 --seeds 10 --tries 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from knightgraph.puzzles import count_solutions, make_puzzle, solve_puzzle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", default=["6x6", "8x8"], metavar="MxN")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0..S-1 per board")
    parser.add_argument("--tries", type=int, default=1, help="removal orders per puzzle")
    parser.add_argument("--closed", action="store_true", help="closed puzzles only")
    parser.add_argument("--open", action="store_true", help="open puzzles only")
    args = parser.parse_args()
    kinds = [False, True]
    if args.closed != args.open:
        kinds = [args.closed]
    print(f"{'board':>10} {'seed':>4} {'clues':>5} {'make s':>7} {'solve s':>8} {'count s':>8}")
    for text in args.boards:
        m, n = (int(x) for x in text.lower().split("x"))
        for closed in kinds:
            rows = []
            for seed in range(args.seeds):
                began = time.perf_counter()
                made = make_puzzle(m, n, seed=seed, closed=closed, tries=args.tries)
                make_s = time.perf_counter() - began
                assert made.unique, made.reason
                began = time.perf_counter()
                solved = solve_puzzle(made.puzzle)
                solve_s = time.perf_counter() - began
                assert solved.tour is not None
                began = time.perf_counter()
                counted = count_solutions(made.puzzle)
                count_s = time.perf_counter() - began
                assert counted.count == 1, counted.verdict()
                k = made.puzzle.clue_count
                rows.append((k, make_s, solve_s, count_s))
                name = f"{m}x{n} {'closed' if closed else 'open'}"
                print(f"{name:>10} {seed:>4} {k:>5} {make_s:>7.2f} {solve_s:>8.2f} {count_s:>8.2f}")
            ks = [r[0] for r in rows]
            print(
                f"  {m}x{n} {'closed' if closed else 'open'}: fewest clues {min(ks)} "
                f"(median {statistics.median(ks):g}); median make "
                f"{statistics.median(r[1] for r in rows):.2f} s, solve "
                f"{statistics.median(r[2] for r in rows):.2f} s, count "
                f"{statistics.median(r[3] for r in rows):.2f} s"
            )


if __name__ == "__main__":
    main()
