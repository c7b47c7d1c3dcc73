"""How instant the commands feel: whole processes, paired with a bare Python start.

Run with `make bench` (or `.venv/bin/python benchmarks/bench_startup.py [ROUNDS]`).
Each round runs ``python -c pass`` and then each command once, as separate
processes, alternating, so that both see the same load on this machine; the
figure is the median over the rounds of the ratio (command / bare start of the
same round) and the median seconds.  The targets of issue 25 (item 6) are printed
beside the ratios: ``--version`` within 2x of a bare start, ``tour 8 8`` within 5x,
``tour 1000 1000 --closed --format npy -o FILE`` within 6x (median of 21 rounds).
``tour 8 8 -o FILE`` is the same tour written to a file.  Every command has one route
(``tour 8 8`` too: ``find_tour``, which imports numpy, then the formats).

Each command runs twice per round: as the installed console script
(``.venv/bin/knightgraph``, what a user types; the script's wrapper imports
``knightgraph.cli`` before ``main`` runs) and as ``python -m knightgraph``.  Three
floors are printed for comparison: ``python -c "import numpy"`` (what every command
that needs arrays pays first, ``tour 8 8`` included) with one OpenBLAS thread, as the command line asks
for, and with OpenBLAS's default pool of one thread per core; and the same with
``os._exit(0)``, which shows what the interpreter's teardown costs once numpy is
imported (a finished command skips it when nothing else would run at exit:
``knightgraph.cli._running.leave_if_nothing_left``).

The package's bytecode is compiled first (``compileall``): with
``PYTHONDONTWRITEBYTECODE=1`` in the environment nothing caches it, and every run would
compile knightgraph's modules from source (~60 ms), which no installed copy does.
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
"""What every command that needs arrays pays first (printed for comparison)."""

CASES: list[tuple[str, float | None]] = [
    ("--version", 2.0),
    ("--help", None),
    ("tour --help", None),
    ("tour 8 8", 5.0),
    ("tour 8 8 --closed --format board", None),
    ("tour 8 8 -o {tmp}/eight.txt", 5.0),
    ("tour 1000 1000 --closed --format npy -o {tmp}/big.npy", 6.0),
]
"""The commands and their targets (a ratio to a bare Python start), if any."""


def _script() -> list[str] | None:
    script = Path(sys.executable).with_name("knightgraph")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return None


def _wall(argv: list[str], env: dict[str, str] | None = None) -> float:
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, env=env)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr!r}")
    return seconds


def _compile_package() -> None:
    """Compile knightgraph's bytecode, as any installed copy has it (see the module notes)."""
    import knightgraph

    folder = Path(knightgraph.__file__).resolve().parent
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(folder)], check=True, capture_output=True
    )


def main(rounds: int = 21) -> None:
    _compile_package()
    python = sys.executable
    base = [python, "-c", "pass"]
    runners = [("", [python, "-m", "knightgraph"])]
    script = _script()
    if script is not None:
        runners.insert(0, ("", script))
    one_thread = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    default_pool = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    with tempfile.TemporaryDirectory() as tmp:
        # (shown name, argv, env, target)
        runs: list[tuple[str, list[str], dict[str, str] | None, float | None]] = []
        for args, target in CASES:
            words = args.format(tmp=tmp).split()
            shown = args.replace("{tmp}/", "")
            for name, argv in runners:
                label = "knightgraph" if name == "" and argv == script else "python -m knightgraph"
                runs.append((f"{label} {shown}", argv + words, None, target))
        runs.append(
            (f"python -c '{FLOOR}' (1 BLAS thread)", [python, "-c", FLOOR], one_thread, None)
        )
        runs.append(
            (f"python -c '{FLOOR}' (BLAS default)", [python, "-c", FLOOR], default_pool, None)
        )
        quick = f"{FLOOR}, os; os._exit(0)"  # the same without the interpreter's teardown
        runs.append(
            (f"python -c '{quick}' (1 BLAS thread)", [python, "-c", quick], one_thread, None)
        )
        bare: list[float] = []
        ratios: list[list[float]] = [[] for _ in runs]
        seconds: list[list[float]] = [[] for _ in runs]
        for _ in range(rounds):
            for i, (_shown, argv, env, _target) in enumerate(runs):
                b = _wall(base)  # a bare start right before each command: the pair
                s = _wall(argv, env)
                bare.append(b)
                seconds[i].append(s)
                ratios[i].append(s / b)
    print(f"whole process, {rounds} rounds, each paired with `python -c pass`, alternating")
    print(f"bare Python start: median {statistics.median(bare) * 1000:.1f} ms")
    print(f"{'command':70} {'median ms':>10} {'ratio':>7}  target")
    for (shown, _argv, _env, target), secs, rats in zip(runs, seconds, ratios, strict=True):
        ratio = statistics.median(rats)
        verdict = "" if target is None else f"{target:g}x {'met' if ratio <= target else 'MISSED'}"
        print(f"{shown:70} {statistics.median(secs) * 1000:10.1f} {ratio:6.2f}x  {verdict}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 21)
