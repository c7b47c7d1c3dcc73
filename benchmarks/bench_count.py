"""Time exact tour counting (the frontier dynamic program) and its peak memory.

Each count runs in a fresh Python process so that its peak resident set size
(RSS) is its own.  Targets from issue 7 (graphillion, the best peer, needs
0.29 s / 2.6 s / 10.5 s with 1.4 GiB for 6x6 / 6x7 / 6x8): 6x7 <= 1 s and
6x8 <= 5 s within 0.5 GiB.

    python benchmarks/bench_count.py            # 6x6, 6x7, 6x8 closed; 5x5 and 6x6 open
    python benchmarks/bench_count.py --big      # also 7x8 closed (34,524,432,316)
    python benchmarks/bench_count.py 5x6 6x7o   # chosen boards ("o": open tours)
    python benchmarks/bench_count.py --summit   # 7x8 closed, 8x8 closed, 7x7 open (issue 26)
    python benchmarks/bench_count.py --summit --baseline /tmp/before   # paired with a build

``--baseline DIR`` runs each board with ``PYTHONPATH=DIR`` too (a checkout of the build to
compare with, its compiled libraries built in place: ``git worktree add /tmp/before REV``,
then ``python -m pip install -e /tmp/before --no-deps --target ...`` or ``gcc -O3 -shared
-fPIC`` of its C files), alternating the two (``--repeat K`` rounds, baseline first), and
prints the ratio of the times and of the peaks (the median over the rounds).

Measured on the 2-core development machine (22 Nov 2026): 6x6 0.11 s, 6x7
0.76 s, 6x8 1.97 s (93 MiB peak RSS); 7x8 closed 69 s, 1.53 GiB; 7x7 open
(165,575,218,320 directed, A165134) 758 s and 8.0 GiB (`7x7o`).  The kernel of issue 15
(mirror merging, subsets by degree pattern, labels renumbered in registers), CPU time
on the same machine under load: 6x8 1.3-1.5 s (was 2.5-2.9 s), 7x8 58.7 s (was 108 s),
1.0 GiB peak RSS.  The snake order, mirror merging inside the step and reused tables
(issue 15, 26 Nov 2026; `knightgraph count 7 8 --closed` under /usr/bin/time, the old
build alternately): 7x8 closed 19.3-21.1 s user CPU, 19.9-21.8 s wall and 557 MB peak RSS
(was 42.6-45.8 s, 45.6-48.6 s and 1.08 GB; tables 512 MiB, 6,450,386 states in the largest
layer);
`benchmarks/bench_count_split.py` has the split counts and 8x8.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = """
import json, resource, sys, time
from knightgraph import count_tours
m, n, closed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "closed"
began = time.perf_counter()
result = count_tours(m, n, closed=closed)
seconds = time.perf_counter() - began
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"directed": result.directed, "undirected": result.undirected,
                  "seconds": seconds, "rss": rss, "stats": result.stats}))
"""

KNOWN = {
    (6, 6, True): 9_862,
    (6, 7, True): 1_067_638,
    (6, 8, True): 55_488_142,
    (7, 8, True): 34_524_432_316,
    (8, 8, True): 13_267_364_410_532,
    (5, 5, False): 864,
    (6, 6, False): 3_318_960,
    (7, 7, False): 82_787_609_160,
}
"""Undirected counts from the literature (OEIS A001230, A175881, A165134: directed = 2x)."""


def run(m: int, n: int, closed: bool, path: str | None = None, label: str = "") -> dict:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(m), str(n), "closed" if closed else "open"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tempfile.gettempdir(),  # not a checkout: '' leads sys.path for ``-c``
    )
    data: dict = json.loads(out.stdout)
    known = KNOWN.get((m, n, closed))
    check = (
        ""
        if known is None
        else (
            "  (= literature)"
            if data["undirected"] == known
            else f"  (MISMATCH: literature {known:,})"
        )
    )
    stats = data["stats"]
    print(
        f"{label}{m}x{n} {'closed' if closed else 'open  '}: {data['undirected']:>18,} undirected  "
        f"{data['seconds']:8.3f} s  peak RSS {data['rss'] / 2**20:8.1f} MiB  "
        f"(tables {stats.get('peak_bytes', 0) / 2**20:.0f} MiB, "
        f"{stats.get('max_states', 0):,} states, engine {stats.get('engine')}){check}",
        flush=True,
    )
    return data


def paired(m: int, n: int, closed: bool, baseline: str, repeat: int) -> None:
    """The board on the baseline and on this build alternately; the median ratios."""
    times, peaks = [], []
    for _ in range(repeat):
        old = run(m, n, closed, baseline, "before ")
        new = run(m, n, closed, None, "now    ")
        times.append(new["seconds"] / old["seconds"])
        peaks.append(new["rss"] / old["rss"])
    print(
        f"{m}x{n} {'closed' if closed else 'open'}: time now/before "
        f"{statistics.median(times):.2f}, peak RSS now/before {statistics.median(peaks):.2f} "
        f"(median of {repeat})",
        flush=True,
    )


def main(argv: list[str]) -> None:
    boards = [(6, 6, True), (6, 7, True), (6, 8, True), (5, 5, False), (6, 6, False)]
    baseline, repeat = None, 1
    if "--baseline" in argv:
        at = argv.index("--baseline")
        baseline = argv[at + 1]
        del argv[at : at + 2]
    if "--repeat" in argv:
        at = argv.index("--repeat")
        repeat = int(argv[at + 1])
        del argv[at : at + 2]
    if "--summit" in argv:
        argv = [a for a in argv if a != "--summit"] + ["7x8", "8x8", "7x7o"]
    chosen = [a for a in argv if a != "--big"]
    if chosen:
        boards = []
        for item in chosen:
            closed = not item.endswith("o")
            m, n = (int(x) for x in item.rstrip("o").split("x"))
            boards.append((m, n, closed))
    if "--big" in argv:
        boards.append((7, 8, True))
    for m, n, closed in boards:
        if baseline is None:
            run(m, n, closed)
        else:
            paired(m, n, closed, baseline, repeat)


if __name__ == "__main__":
    main(sys.argv[1:])
