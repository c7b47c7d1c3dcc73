"""Open versus closed tours: which boards have which, and what closing costs.

A closed tour ends a knight's move from its start, so it can be started from
any square; an open tour only from its two ends.  This script prints, for the
boards from 3 x 3 to 8 x 8, whether each kind exists (each answer a verified
tour or a checked certificate), then shows a closed tour re-rooted and the
squares from which an open 5 x 5 tour can start.

Run: .venv/bin/python examples/open_vs_closed.py
"""

from __future__ import annotations

import knightgraph as kg
from knightgraph.explore import sweep

SIZES = range(3, 9)


def mark(result: kg.SearchResult) -> str:
    return {kg.Status.FOUND: "yes", kg.Status.PROVEN_ABSENT: "no"}.get(result.status, "?")


def main() -> None:
    print("open / closed tour exists (m x n):")
    print("m \\ n " + " ".join(f"{n:^9}" for n in SIZES))
    for m in SIZES:
        cells = []
        for n in SIZES:
            both = f"{mark(kg.tour_exists(m, n))}/{mark(kg.tour_exists(m, n, closed=True))}"
            cells.append(f"{both:^9}")
        print(f"{m:>5}  " + " ".join(cells))

    # Theorems say the same: Conrad et al. (1994) for open, Schwenk (1991) for closed.
    for m, n in [(3, 4), (4, 4), (4, 5), (5, 6), (3, 10)]:
        print(
            f"{m} x {n}: open {bool(kg.open_tour_exists(m, n))}, "
            f"closed {bool(kg.closed_tour_exists(m, n))}"
        )

    # A closed tour can start anywhere: re-root it.
    tour = kg.find_tour(6, 6, closed=True, seed=0).require_tour()
    moved = tour.rerooted("d4")
    kg.validate_tour(moved.squares(), 6, 6, closed=True)
    print(f"\nclosed 6 x 6 tour from {moved.algebraic()[0]}: {' '.join(moved.algebraic()[:8])} ...")

    # An open tour cannot: on 5 x 5 only the 13 squares of a1's colour can start one.
    starts = sweep(5, 5, method="auto")
    print(
        f"5 x 5: an open tour starts from {25 - starts.failures} of 25 squares; "
        f"not from {' '.join(starts.failed_squares())}"
    )


if __name__ == "__main__":
    main()
