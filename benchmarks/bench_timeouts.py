"""Measure how well ``--timeout`` and ``--limit`` hold: requested vs actual seconds, peak memory.

Every case runs ``knightgraph ...`` as a whole process (start-up included) and
reports its wall-clock seconds, its exit code, its peak resident set size and
the overshoot over what was asked.  The target (issue 12) is to stop within
10 % + 0.5 s of the timeout and with exit 3 (gave up) when the budget ran out.
``starts``, ``ends``, ``table`` and ``sweep`` take a timeout *per search*
(per square, per board search, per start square): their budget is the
timeout times the searches that can run into it (``items``), and their
``--timeout 0`` cases show what each search costs beyond its budget.

A watchdog kills a case (and reports ``killed``) when it runs far past its
budget (``--cap`` seconds, default 90) or its resident set grows past
``--memory`` GiB (default 4), so that the "before" figures of a broken budget
can be taken safely.

    python benchmarks/bench_timeouts.py                 # every case
    python benchmarks/bench_timeouts.py count sat      # cases whose command contains a word
    python benchmarks/bench_timeouts.py --big          # also the cases of a minute or more
    python benchmarks/bench_timeouts.py --python       # with KNIGHTGRAPH_KERNELS=python
    python benchmarks/bench_timeouts.py --tree /tmp/old  # another checkout (its extensions built)

Measured on the 2-core development machine (shared with other work; start-up
0.2 s), 25 Nov 2026, before issue 12's budget work (commit e7b8820) and after;
whole-process seconds (peak RSS):

    tour 200 200 --method sat --timeout 2        31.5 s (1.3 GiB)  ->  2.4 s (485 MiB)
    tour 300 300 --method sat --limit 10         killed at 60 s, 2.7 GiB  ->  6.7 s, 1.2 GiB, exit 3
    count 7 7 --timeout 3                        4.6 s   ->  3.2 s
    count 8 8 --closed --timeout 10              10.4-14.2 s  ->  10.4 s (10.2 s in Python)
    count 7 8 --closed --timeout 40              42.4 s  ->  40.2 s
    count 99999999999999999999 8                 killed at 4 GiB  ->  0.2 s, exit 2
    starts 7 7 --closed --timeout 1 --counts     killed at 60 s  ->  10.6 s (10 counts of 1 s)
    starts 6 6 --timeout 0                       4.1 s   ->  0.25 s
    table 8 --timeout 0                          0.45 s  ->  0.30 s

``sweep 10 10 --method backtrack --timeout 0.2`` takes 22-24 s for 100
searches of 0.2 s: the backtracking kernel stops about 35 ms after its
timeout (it checks the clock between chunks of placements).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from timing import knightgraph_command


@dataclass(frozen=True)
class Case:
    args: str
    timeout: float | None  # the seconds asked for (None: a --limit or refusal case)
    items: int = 1  # searches that can each take the timeout
    big: bool = False  # only with --big (a minute or more)

    @property
    def budget(self) -> float | None:
        return None if self.timeout is None else self.timeout * self.items


CASES = [
    Case("tour 200 200 --method sat --timeout 2", 2),
    Case("tour 300 300 --method sat --limit 10", None),  # ten conflicts
    Case("tour 100 100 --closed --method sat --timeout 1", 1),
    Case("count 8 8 --closed --timeout 10", 10),
    Case("count 7 8 --closed --timeout 5", 5),
    Case("count 6 8 --closed --timeout 0.5", 0.5),
    Case("count 7 7 --timeout 3", 3),
    Case("count 7 8 --closed --timeout 40", 40, big=True),  # issue 12: 46 s
    Case("count 99999999999999999999 8", None),  # refused up front
    Case("exists 4 60 --closed --timeout 1", 1),
    Case("starts 7 7 --closed --timeout 1 --counts", 1, 10),  # 10 orbits counted, each stopped
    Case("starts 6 6 --timeout 0", 0, 36),
    Case("ends 8 8 --start a1 --timeout 0 --no-counts", 0, 63),
    Case("table 8 --timeout 0", 0, 64),
    Case("sweep 10 10 --method backtrack --timeout 0", 0, 100),
    Case("sweep 10 10 --method backtrack --timeout 0.2", 0.2, 100),
    # --total-timeout bounds the whole run of the per-square commands
    Case("sweep 10 10 --method backtrack --timeout 0.2 --total-timeout 2", 2),
    Case("sweep 1000000 6 --timeout 0.1 --total-timeout 1", 1),  # 6 million start squares
    Case("starts 7 7 --closed --timeout 1 --counts --total-timeout 3", 3),
    Case("table 10 --timeout 1 --total-timeout 2", 2),
    # setup on millions of squares checks the budget too
    Case("tour 1000000 6 --method backtrack --timeout 0", 0),
    Case("tour 1000000 6 --method backtrack --prune --timeout 0.3", 0.3),
    Case("tour 1000000 6 --method warnsdorff --timeout 0.3", 0.3),
    Case("tour 1 1000000 --method backtrack", None),  # no timeout: exhausts 500,000 starts
]


@dataclass
class Outcome:
    seconds: float
    code: int | None  # None: killed by the watchdog
    peak: int  # bytes
    stderr: str


def _rss(pid: int) -> int:
    """Resident bytes of a process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(args: str, *, cap: float, memory: int, env: dict[str, str]) -> Outcome:
    """Run one case in its own session; kill the session past ``cap`` s or ``memory`` bytes."""
    began = time.perf_counter()
    proc = subprocess.Popen(
        knightgraph_command(args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    peak, killed = 0, False
    while proc.poll() is None:
        rss = _rss(proc.pid)
        peak = max(peak, rss)
        if not killed and (time.perf_counter() - began > cap or rss > memory):
            os.killpg(proc.pid, signal.SIGKILL)
            killed = True
        time.sleep(0.05)
    seconds = time.perf_counter() - began
    _, stderr = proc.communicate()
    lines = stderr.decode(errors="replace").strip().splitlines()
    return Outcome(seconds, None if killed else proc.returncode, peak, lines[-1] if lines else "")


def main(argv: list[str]) -> None:
    cap, memory = 90.0, 4 * 2**30
    words = []
    big = False
    env = dict(os.environ)
    items = iter(argv)
    for item in items:
        if item == "--cap":
            cap = float(next(items))
        elif item == "--memory":
            memory = int(float(next(items)) * 2**30)
        elif item == "--big":
            big = True
        elif item == "--python":
            env["KNIGHTGRAPH_KERNELS"] = "python"
        elif item == "--tree":
            env["PYTHONPATH"] = next(items)
        else:
            words.append(item)
    cases = [
        c for c in CASES if (big or not c.big) and (not words or any(w in c.args for w in words))
    ]
    # What a command costs before its clock starts (imports, parsing): the fastest of three.
    startup = min(run("tour 1 1", cap=cap, memory=memory, env=env).seconds for _ in range(3))
    print(
        f"start-up (knightgraph tour 1 1): {startup:.2f} s; 'ok': within 10 % + 0.5 s of "
        "the budget, whole process; 'net': the overshoot less the start-up"
    )
    print(
        f"{'command':<48} {'asked':>8} {'actual':>8} {'over':>7} {'net':>6} {'ok':>3} "
        f"{'exit':>6} {'peak RSS':>10}  last line of stderr",
        flush=True,
    )
    for case in cases:
        out = run(case.args, cap=cap, memory=memory, env=env)
        budget = case.budget
        asked = (
            "-"
            if budget is None
            else (f"{case.timeout:g}" if case.items == 1 else f"{case.items}x{case.timeout:g}")
        )
        over = "-" if budget is None else f"{out.seconds - budget:+.2f}"
        net = "-" if budget is None else f"{out.seconds - budget - startup:+.2f}"
        held = "-" if budget is None else ("yes" if out.seconds <= budget * 1.1 + 0.5 else "NO")
        code = "killed" if out.code is None else str(out.code)
        print(
            f"{case.args:<48} {asked:>8} {out.seconds:8.2f} {over:>7} {net:>6} {held:>3} {code:>6} "
            f"{out.peak / 2**20:7.0f} MiB  {out.stderr[:70]}",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
