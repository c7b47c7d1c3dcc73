"""Comparing Warnsdorff tie-break rules: from how many start squares does each fail?

Warnsdorff's rule (1823) moves to the square with the fewest onward moves;
the rules differ in how they break ties.  `first` takes the first in move
order, `random` a random one, `pohl` looks one step further (Pohl 1967),
`squirrel` is Squirrel and Cull's (1996) order for square boards, `border`
is seed 003's "nearest the border", and `roth` (the default) goes to the
square farthest from the centre and repairs dead ends with Posa rotations.

Each rule gets one walk (``attempts=1``) from every start square; only
``roth`` repairs a stuck walk, the others run as published.  A failure means
the walk got stuck -- never that no tour exists: every board here has tours
from every start square.

Run: .venv/bin/python examples/warnsdorff_rules.py
"""

from __future__ import annotations

import time

from knightgraph.explore import sweep

RULES = ["first", "random", "pohl", "squirrel", "border", "roth"]
SIZES = [8, 16, 32]


def main() -> None:
    print("failed start squares (of n*n) per rule, one walk from each square")
    print(f"{'rule':<10}" + "".join(f"{f'{n}x{n}':>10}" for n in SIZES) + f"{'seconds':>10}")
    for rule in RULES:
        began = time.perf_counter()
        failures = []
        for n in SIZES:
            result = sweep(n, n, method="warnsdorff", rule=rule, attempts=1, seed=0)
            assert result.statuses["PROVEN_ABSENT"] == 0  # a heuristic never claims absence
            failures.append(result.failures)
        seconds = time.perf_counter() - began
        print(f"{rule:<10}" + "".join(f"{k:>10}" for k in failures) + f"{seconds:>10.2f}")

    plain = sweep(8, 8, method="warnsdorff", rule="first")
    print(
        f"\nplain Warnsdorff (ties in move order) is stuck on 8x8 only from "
        f"{' '.join(plain.failed_squares())}"
    )


if __name__ == "__main__":
    main()
