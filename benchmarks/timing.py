"""Timing helpers shared by the benchmark scripts (not a benchmark itself).

The scripts are run as ``python benchmarks/bench_*.py``, so this module is
importable as ``timing`` from their folder.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any


def timed(run: Callable[[], Any]) -> tuple[Any, float]:
    """``run()``'s result and the seconds it took."""
    began = time.perf_counter()
    result = run()
    return result, time.perf_counter() - began


def seconds_each(run: Callable[[], Any], repeat: int) -> list[float]:
    return [timed(run)[1] for _ in range(repeat)]


def best_of(run: Callable[[], Any], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    return min(seconds_each(run, repeat))


def median_of(run: Callable[[], Any], repeat: int = 3) -> float:
    """The median of ``repeat`` runs, in seconds."""
    return statistics.median(seconds_each(run, repeat))


def knightgraph_command(args: str | list[str]) -> list[str]:
    """The command line of ``knightgraph ARGS`` run by this Python."""
    return [sys.executable, "-m", "knightgraph", *(args.split() if isinstance(args, str) else args)]


def run_knightgraph(
    args: str | list[str], *, check: bool = False
) -> subprocess.CompletedProcess[bytes]:
    """Run ``knightgraph ARGS`` as a whole process (output captured)."""
    done = subprocess.run(knightgraph_command(args), capture_output=True, check=False)
    if check and done.returncode != 0:
        raise SystemExit(f"`knightgraph {args}` exited {done.returncode}: {done.stderr!r}")
    return done


def whole_process(args: list[str]) -> tuple[float, int]:
    """Seconds and peak resident bytes (ru_maxrss of the child) of one `knightgraph` run,
    its standard output discarded, timed by a Python process of its own so that the
    peak is the run's alone."""
    script = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "done = subprocess.run([sys.executable, '-m', 'knightgraph', *sys.argv[1:]],"
        " stdout=subprocess.DEVNULL)\n"
        "seconds = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024\n"
        "print(seconds, peak, done.returncode)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True
    ).stdout.split()
    if out[2] != "0":
        raise SystemExit(f"knightgraph {' '.join(args)} exited {out[2]}")
    return float(out[0]), int(out[1])
