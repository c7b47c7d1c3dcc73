"""Time uniform sampling (``knightgraph sample``) and the quick zeros of issue 15.

Targets (issue 15): ``sample 6 6 --closed -k 1000 --seed 1`` returns 1,000 verified tours
in under 10 s; ``count 6 6 --open --leaper 1,3`` and ``starts 6 6 --open --leaper 1,3``
answer 0 in under a second (before: over 150 s).

Each command runs in a fresh process, as a user runs it; wall-clock and CPU seconds
(the child's user + system time, which the other processes on a shared machine do not
inflate) are printed.  The baseline, run alternately with the sampler in the same run, is
the plain count of the same tours by the Python engine (``count_tours(..., engine=
"python")``, the program the sampler extends): the median ratio is what drawing 1,000
tours costs over counting them.

    python benchmarks/bench_sample.py            # 3 rounds
    python benchmarks/bench_sample.py --rounds 5
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys

from timing import knightgraph_command

COUNT = [
    sys.executable,
    "-c",
    "from knightgraph import count_tours; "
    "print(count_tours(6, 6, closed=True, engine='python').directed)",
]


def run(command: list[str]) -> tuple[str, float, float]:
    """Standard output, wall seconds and CPU seconds of ``command`` in a child process."""
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if out.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({out.returncode}): {out.stderr}")
    return out.stdout, wall, cpu


def check_tours(text: str) -> int:
    """How many lines of ``text`` are closed 6x6 tours (checked here, without knightgraph)."""
    good = 0
    for line in text.splitlines():
        squares = [(int(x[1:]) - 1, ord(x[0]) - ord("a")) for x in line.split()]
        steps = zip(squares, squares[1:] + squares[:1], strict=True)
        moves = all(sorted((abs(a - c), abs(b - d))) == [1, 2] for (a, b), (c, d) in steps)
        good += moves and len(set(squares)) == 36 == len(squares)
    return good


def main(argv: list[str]) -> None:
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 3
    sample = knightgraph_command("sample 6 6 --closed -k 1000 --seed 1")
    ratios = []
    for k in range(rounds):
        out, wall, cpu = run(sample)
        good = check_tours(out)
        base, base_wall, base_cpu = run(COUNT)
        ratios.append(wall / base_wall)
        print(
            f"round {k + 1}: sample 6 6 --closed -k 1000: {wall:6.2f} s wall, {cpu:6.2f} s CPU, "
            f"{good} of 1000 lines closed tours; count (python engine, {base.strip()} directed): "
            f"{base_wall:6.2f} s wall, {base_cpu:6.2f} s CPU",
            flush=True,
        )
    print(f"median ratio sample / count: {statistics.median(ratios):.2f}")
    for args in ("count 6 6 --open --leaper 1,3", "starts 6 6 --open --leaper 1,3"):
        times = [run(knightgraph_command(args))[1:] for _ in range(rounds)]
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        print(f"{args}: {wall:.2f} s wall, {cpu:.2f} s CPU (median of {rounds}; target < 1 s)")


if __name__ == "__main__":
    main(sys.argv[1:])
