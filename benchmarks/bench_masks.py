"""Time masked boards at scale (issue 17): a verified tour or a checked "no", each under 10 s.

    python benchmarks/bench_masks.py

Boards: 1000 x 1000 with 100 random holes (two seeds: the holes usually unbalance the
colours, a checked "no"), 1000 x 1000 with 50 holes of each colour (a tour), the disc of
radius 300 centred on a square (601 x 601, open and closed), the disc of radius 300
centred on a corner of four squares (600 x 600, whose colours balance: a tour), and the
first disc with 40 squares of its majority colour removed, near the centre or on the rim
(its colours then allow an open tour).

Two figures per board, each the median of three runs:

* API: ``find_tour`` on the board already read (mask parsing apart);
* CLI: the whole process ``python -m knightgraph tour M N --mask FILE --format json -o
  OUT`` (start-up, reading the mask, the search, writing the JSON), once with the text
  mask and once with the PNG.

Every answer is then checked here without knightgraph: a tour square by square against
the mask (knight moves, every square once, no hole), a "no" by counting the two colours
of the mask with numpy.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from timing import run_knightgraph

from knightgraph import find_tour
from knightgraph.boards.masks import board_from_array, board_from_text, mask_text, write_mask


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


def rim_balanced_disc(radius: int, seed: int = 0) -> np.ndarray:
    """The disc with random squares of its rim (a square with a neighbour outside) of its
    majority colour removed, until the colour classes differ by one."""
    mask = disc(radius)
    side = 2 * radius + 1
    colour = ((side - 1 - np.arange(side))[:, None] + np.arange(side)[None, :]) % 2
    light, dark = int((mask & (colour == 0)).sum()), int((mask & (colour == 1)).sum())
    inner = np.zeros_like(mask)
    inner[1:-1, 1:-1] = mask[:-2, 1:-1] & mask[2:, 1:-1] & mask[1:-1, :-2] & mask[1:-1, 2:]
    rim = np.argwhere(mask & ~inner & (colour == (0 if light > dark else 1)))
    pick = rim[np.random.default_rng(seed).choice(len(rim), abs(light - dark) - 1, replace=False)]
    mask[pick[:, 0], pick[:, 1]] = False
    return mask


def corner_disc(radius: int) -> np.ndarray:
    """The squares whose centres lie within ``radius`` of the corner shared by the four
    middle squares of a ``2 * radius`` board."""
    r = np.arange(2 * radius) - (radius - 0.5)
    return r[:, None] ** 2 + r[None, :] ** 2 <= radius * radius


def check_answer(mask: np.ndarray, closed: bool, answer: dict) -> str:
    """Check a JSON answer of ``knightgraph tour`` against the mask, without knightgraph."""
    side = mask.shape[0]
    ok = np.zeros((side, mask.shape[1]), dtype=bool)
    ok[::-1] = mask  # rank r is row side-1-r of the mask
    if answer["squares"] is None:
        colour = (np.arange(side)[:, None] + np.arange(mask.shape[1])[None, :]) % 2
        light, dark = int((ok & (colour == 0)).sum()), int((ok & (colour == 1)).sum())
        if answer["certificate"]["kind"] != "colour-count":
            return "a no without a colour count (not checked here)"
        if sorted(answer["certificate"]["counts"]) != sorted([light, dark]):
            return "wrong colour counts"
        allowed = light == dark if closed else abs(light - dark) <= 1
        return "checked no (colours)" if not allowed else "WRONG: the colours allow a tour"
    sq = np.array(answer["squares"], dtype=np.int64)
    if len(sq) != int(ok.sum()) or not ok[sq[:, 0], sq[:, 1]].all():
        return "WRONG: not the squares of the mask"
    seen = np.zeros_like(ok)
    seen[sq[:, 0], sq[:, 1]] = True
    if int(seen.sum()) != len(sq):
        return "WRONG: a square twice"
    steps = np.abs(np.diff(np.vstack([sq, sq[:1]]) if closed else sq, axis=0))
    if not ((np.sort(steps, axis=1) == [1, 2]).all()):
        return "WRONG: not a knight's move"
    return "checked tour"


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
        ("disc r=300 on a square, open", disc(300), False),
        ("disc r=300 on a square, closed", disc(300), True),
        ("disc r=300 on a corner, open", corner_disc(300), False),
        ("disc r=300 on a corner, closed", corner_disc(300), True),
        ("disc r=300 balanced by holes", balanced_disc(300), False),
        ("disc r=300 balanced at the rim", rim_balanced_disc(300), False),
    ]
    print(f"{'board':34s} {'answer':30s} {'API s':>6s} {'CLI txt':>8s} {'CLI png':>8s}  check")
    with tempfile.TemporaryDirectory() as folder:
        for name, mask, closed in cases:
            board = board_from_array(mask)
            text = mask_text(board)
            began = time.perf_counter()
            assert board_from_text(text) == board
            times = []
            for _ in range(3):
                began = time.perf_counter()
                res = find_tour(board, closed=closed, timeout=10)
                times.append(time.perf_counter() - began)
            answer = res.status.value + (f" ({res.certificate.kind})" if res.certificate else "")
            whole = {}
            checks = set()
            for suffix in ("txt", "png"):
                path = Path(folder) / f"mask.{suffix}"
                write_mask(board, path)
                out = Path(folder) / "out.json"
                args = ["tour", str(board.m), str(board.n), "--mask", str(path)]
                args += ["--format", "json", "-o", str(out), "--timeout", "10"]
                args += ["--closed"] if closed else []
                spent = []
                for _ in range(3):
                    out.unlink(missing_ok=True)
                    began = time.perf_counter()
                    done = run_knightgraph(args)
                    spent.append(time.perf_counter() - began)
                    if done.returncode not in (0, 1):
                        raise SystemExit(f"{name}: exit {done.returncode}: {done.stderr!r}")
                    checks.add(check_answer(mask, closed, json.loads(out.read_text())))
                whole[suffix] = statistics.median(spent)
            print(
                f"{name:34s} {answer:30s} {statistics.median(times):6.2f} "
                f"{whole['txt']:8.2f} {whole['png']:8.2f}  {', '.join(sorted(checks))} "
                f"({int(np.sum(mask)):,} squares)"
            )


if __name__ == "__main__":
    main()
