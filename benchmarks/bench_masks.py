"""Time masked boards at scale (issue 17): a verified tour or a checked "no", each under 10 s.

    python benchmarks/bench_masks.py

Boards: 1000 x 1000 with 100 random holes (two seeds: the holes usually unbalance the
colours, a checked "no"), 1000 x 1000 with 50 holes of each colour (a tour), and the
disc of radius 300 (open and closed).  Each figure is the median of three runs of
find_tour (mask parsing not included), with the time to read the same board from its
text mask beside it.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_masks import disc, random_holes  # noqa: E402

from knightgraph import find_tour  # noqa: E402
from knightgraph.masks import board_from_array, board_from_text, mask_text  # noqa: E402


def main() -> None:
    cases = [
        ("1000x1000, 100 random holes (seed 0)", random_holes(1000, 100, 0), False),
        ("1000x1000, 100 random holes (seed 1)", random_holes(1000, 100, 1), False),
        ("1000x1000, 50 + 50 holes", random_holes(1000, 100, 5, balanced=True), False),
        ("disc of radius 300, open", disc(300), False),
        ("disc of radius 300, closed", disc(300), True),
    ]
    for name, mask, closed in cases:
        board = board_from_array(mask)
        text = mask_text(board)
        began = time.perf_counter()
        assert board_from_text(text) == board
        parse = time.perf_counter() - began
        times = []
        for _ in range(3):
            began = time.perf_counter()
            res = find_tour(board, closed=closed, timeout=10)
            times.append(time.perf_counter() - began)
        answer = res.status.value + (f" ({res.certificate.kind})" if res.certificate else "")
        print(
            f"{name:40s} {answer:36s} {statistics.median(times):6.2f} s "
            f"(mask text parsed in {parse:.2f} s, {int(np.sum(mask)):,} squares)"
        )


if __name__ == "__main__":
    main()
