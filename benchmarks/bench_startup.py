"""How instant the commands feel: whole processes, paired with a bare Python start.

Run with `make bench` (or `.venv/bin/python benchmarks/bench_startup.py [ROUNDS]`).
Each round runs ``python -c pass`` and then each command once, as separate
processes, alternating, so that both see the same load on this machine; the
figure is the median over the rounds of the ratio (command / bare start of the
same round) and the median seconds.  The targets of issue 16 are printed beside
the ratios: ``--version`` within 2.5x of a bare start, ``tour 8 8`` within 4x,
``tour 1000 1000 --closed --format npy -o FILE`` within 5x.

The command is the installed console script (``.venv/bin/knightgraph``), which is
what a user types; without it, ``python -m knightgraph``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR = "import numpy"
"""What every command that touches a board pays first (printed for comparison)."""

CASES: list[tuple[str, float | None]] = [
    ("--version", 2.5),
    ("--help", None),
    ("tour --help", None),
    ("tour 8 8", 4.0),
    ("tour 8 8 --closed --format board", None),
    ("tour 1000 1000 --closed --format npy -o {tmp}/big.npy", 5.0),
]
"""The commands and their targets (a ratio to a bare Python start), if any."""


def _command() -> list[str]:
    script = Path(sys.executable).with_name("knightgraph")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "knightgraph"]


def _wall(argv: list[str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr!r}")
    return seconds


def main(rounds: int = 15) -> None:
    base = [sys.executable, "-c", "pass"]
    cmd = _command()
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(args.format(tmp=tmp).split(), target) for args, target in CASES]
        cases.append((["-c", FLOOR], None))
        bare: list[float] = []
        ratios: list[list[float]] = [[] for _ in cases]
        seconds: list[list[float]] = [[] for _ in cases]
        for _ in range(rounds):
            for i, (args, _target) in enumerate(cases):
                b = _wall(base)  # a bare start right before each command: the pair
                s = _wall((base[:1] if args[0] == "-c" else cmd) + args)
                bare.append(b)
                seconds[i].append(s)
                ratios[i].append(s / b)
    print(f"whole process, {rounds} rounds, each paired with `python -c pass`")
    print(f"bare Python start: median {statistics.median(bare) * 1000:.1f} ms")
    print(f"{'knightgraph ...':58} {'median ms':>10} {'ratio':>7}  target")
    shown_cases = [*CASES, (f"(python -c '{FLOOR}', the floor)", None)]
    for (args, target), secs, rats in zip(shown_cases, seconds, ratios, strict=True):
        ratio = statistics.median(rats)
        verdict = "" if target is None else f"{target:g}x {'met' if ratio <= target else 'MISSED'}"
        shown = args.replace("{tmp}/", "")
        print(f"{shown:58} {statistics.median(secs) * 1000:10.1f} {ratio:6.2f}x  {verdict}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
