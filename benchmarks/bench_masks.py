"""Time masked boards at scale (issue 17): a verified tour or a checked "no", each under 10 s.

    python benchmarks/bench_masks.py

Boards: 1000 x 1000 with 100 random holes (two seeds: the holes usually unbalance the
colours, a checked "no"), 1000 x 1000 with 50 holes of each colour (a tour), and the
disc of radius 300 (open and closed), and that disc with 40 interior holes of its majority
colour, which balance the colours (a tour).  Each figure is the median of three runs of
find_tour (mask parsing not included), with the time to read the same board from its
text mask beside it.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from knightgraph import find_tour
from knightgraph.masks import board_from_array, board_from_text, mask_text


def disc(radius: int) -> np.ndarray:
    y, x = np.mgrid[-radius : radius + 1, -radius : radius + 1]
    return x * x + y * y <= radius * radius


def balanced_disc(radius: int, seed: int = 0) -> np.ndarray:
    """The disc with random holes of its majority colour near the centre, until the colour
    classes differ by one (so that the colour count allows an open tour)."""
    mask = disc(radius)
    side = 2 * radius + 1
    rank_plus_file = (side - 1 - np.arange(side))[:, None] + np.arange(side)[None, :]
    colour = rank_plus_file % 2
    light = int((mask & (colour == 0)).sum())
    dark = int(mask.sum()) - light
    major = 0 if light > dark else 1
    rng = np.random.default_rng(seed)
    left = abs(light - dark) - 1
    while left > 0:
        r, c = (int(x) for x in rng.integers(radius - radius // 3, radius + radius // 3, size=2))
        if mask[r, c] and colour[r, c] == major:
            mask[r, c] = False
            left -= 1
    return mask


def random_holes(side: int, holes: int, seed: int, balanced: bool = False) -> np.ndarray:
    """As in tests/test_masks.py: ``holes`` random holes (half of each colour if balanced)."""
    rng = np.random.default_rng(seed)
    mask = np.ones((side, side), dtype=bool)
    per_colour = [0, 0]
    while (~mask).sum() < holes:
        r, c = (int(x) for x in rng.integers(side, size=2))
        colour = (side - 1 - r + c) % 2
        if mask[r, c] and (not balanced or per_colour[colour] < holes // 2):
            mask[r, c] = False
            per_colour[colour] += 1
    return mask


def main() -> None:
    cases = [
        ("1000x1000, 100 random holes (seed 0)", random_holes(1000, 100, 0), False),
        ("1000x1000, 100 random holes (seed 1)", random_holes(1000, 100, 1), False),
        ("1000x1000, 50 + 50 holes", random_holes(1000, 100, 5, balanced=True), False),
        ("disc of radius 300, open", disc(300), False),
        ("disc of radius 300, closed", disc(300), True),
        ("disc of radius 300, balanced by holes", balanced_disc(300), False),
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
