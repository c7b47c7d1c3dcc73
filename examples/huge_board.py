"""A tour of a 1000 x 1000 board (a million squares), verified, in about a second.

The array layer never builds a graph: the board is a move table of flat
indices, Warnsdorff's walk runs in compiled C, and the tour is stored as one
int32 array (4 bytes a square).  When the divide-and-conquer strategy is
available (``divide``), it builds the same size of tour too, for comparison.  The tour is checked twice: by knightgraph's
numpy verifier and by a few lines of numpy below that share no code with it.

Run: .venv/bin/python examples/huge_board.py [SIDE]
"""

from __future__ import annotations

import sys
import time

import numpy as np

import knightgraph as kg


def independent_check(order: np.ndarray, m: int, n: int, closed: bool) -> None:
    """Every square once, every step a knight's move (no knightgraph code)."""
    assert order.size == m * n and np.array_equal(np.sort(order), np.arange(m * n))
    r, c = np.divmod(order.astype(np.int64), n)
    if closed:
        r, c = np.append(r, r[0]), np.append(c, c[0])
    dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
    assert np.all(((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1)))


def main() -> None:
    side = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    methods = ["warnsdorff"] + (["divide"] if "divide" in kg.available_methods() else [])
    for method, closed in [(method, closed) for method in methods for closed in (False, True)]:
        began = time.perf_counter()
        result = kg.find_tour(side, side, closed=closed, method=method, seed=0)
        tour = result.require_tour()
        found = time.perf_counter() - began
        began = time.perf_counter()
        kg.validate_tour(tour.order, side, side, closed=closed)
        independent_check(tour.order, side, side, closed)
        checked = time.perf_counter() - began
        kind = "closed" if closed else "open"
        print(
            f"{method}: {kind} tour of {side}x{side}: {len(tour):,} squares from {tour.algebraic_slice(0, 1)[0]} "
            f"to {tour.algebraic_slice(len(tour) - 1, len(tour))[0]}; found in {found:.2f} s "
            f"({result.stats}), verified twice in {checked:.2f} s, "
            f"{tour.order.nbytes / 2**20:.1f} MiB"
        )


if __name__ == "__main__":
    main()
