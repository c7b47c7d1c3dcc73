"""Split counts and the 8x8 projection (issue 15): measured CPU time, wall time and memory.

    python benchmarks/bench_count_split.py            # 6x8 and 7x8 closed, whole and in parts;
                                                      # 8x8 closed up to step 33, and the projection
                                                      # (with the estimate the count makes first)
    python benchmarks/bench_count_split.py --quick    # 6x8 only, 8x8 up to step 30
    python benchmarks/bench_count_split.py --stop 39  # carry 8x8 further (step 39: 6.3 GiB, 125 s)
    python benchmarks/bench_count_split.py --whole    # the whole 8x8 count, checked against
                                                      # McKay's number (one part: 20 min, 16 GiB,
                                                      # 26 Nov 2026; 2 parts when memory is short)

From step 33 the projection says ~107 M states at the peak (26 Nov 2026), from step 39
~214 M (94.8 M are already there): early steps underestimate, use ``--stop 39``.

The machine is shared and slow: wall times move with the load, so the CPU time of each
count (its own process and its workers: ``getrusage``) is the figure to compare.  Each
count runs in a fresh process, so that its peak resident set size is its own.

The 8x8 projection is a model, stated here and printed with its inputs, all measured in
this run: the frontier program processes 8 squares a column; the largest layer of a
column grows from column to column as it does on 7 x 8 (same column, same position in
the column), and the total work (the sum of the layer sizes) is the peak times the ratio
of total to peak on 7 x 8; the CPU time per state is the one measured on 8x8's first
steps.  A table holds a state in 16 bytes at most 3/4 full, its capacity a power of two;
a step holds the layer it reads and the one it writes, and three tables while the one it
writes grows.
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = """
import json, resource, sys, time
from knightgraph import Board, count_tours
m, n, parts, stop = (int(x) for x in sys.argv[1:5])
sizes = []
began, cpu = time.perf_counter(), time.process_time()
if stop:
    from knightgraph.counting.compiled import compiled_kernel, mirror_ids, run_compiled, slot_plan
    from knightgraph.counting.split import _plan_of
    graph, steps = _plan_of(Board(m, n), False, (), ())
    width, plan = slot_plan(graph, steps, mirror_ids(graph))
    stats = {}
    run_compiled(compiled_kernel(), width, plan, memory=20 * 2**30, deadline=None, stats=stats,
                  progress=lambda d: sizes.append(d["states"]), stop=stop)
    undirected = None
else:
    from knightgraph.running.parallel import get_executor
    with get_executor(workers=2 if parts else None) as ex:  # closed: the workers' CPU is counted
        kw = {"parts": parts, "executor": ex} if parts else {}
        result = count_tours(m, n, closed=True, progress=lambda d: sizes.append(d["states"]), **kw)
    stats, undirected = result.stats, result.undirected
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"undirected": undirected, "wall": time.perf_counter() - began,
                  "cpu": time.process_time() - cpu + kids.ru_utime + kids.ru_stime,
                  "rss": max(me.ru_maxrss, kids.ru_maxrss) * 1024, "sizes": sizes,
                  "stats": stats}))
"""

KNOWN = {(6, 8): 55_488_142, (7, 8): 34_524_432_316, (8, 8): 13_267_364_410_532}
"""Closed tours, undirected (OEIS A175881 for 6 x n and 7 x 8 (A193054), A001230 for 8 x 8)."""


def run(m: int, n: int, parts: int = 0, stop: int = 0) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(m), str(n), str(parts), str(stop)],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    split = data["stats"].get("split")
    how = f"{parts} parts on 2 processes" if parts else "whole"
    if stop:
        how = f"first {stop} steps"
    check = ""
    if data["undirected"] is not None:
        good = data["undirected"] == KNOWN[(m, n)]
        check = "  (= literature)" if good else f"  (MISMATCH: literature {KNOWN[(m, n)]:,})"
    print(
        f"{m}x{n} closed, {how}: {data['undirected'] or 0:>16,}  CPU {data['cpu']:7.1f} s  "
        f"wall {data['wall']:7.1f} s  peak RSS {data['rss'] / 2**20:7.0f} MiB  "
        f"max layer {(split or data['stats']).get('max_part_states', data['stats'].get('max_states', 0)):,}"
        + (
            f"  cut {split['cut']}, largest part table {split.get('max_part_peak_bytes', 0) / 2**20:.0f} MiB"
            if split
            else ""
        )
        + check,
        flush=True,
    )
    return data


def column_maxima(sizes: list[int], m: int) -> list[int]:
    return [max(sizes[i : i + m]) for i in range(0, len(sizes), m)]


def project(seven: dict, eight: dict) -> None:
    """The 8x8 projection from 7x8 (whole) and 8x8's first steps (see the module notes)."""
    s7, s8 = seven["sizes"], eight["sizes"]
    c7 = column_maxima(s7, 7)
    done = len(s8)
    col, pos = divmod(done - 1, 8)  # the last measured step: column col, position pos
    # the layer at 8x8's last step, scaled to its column's largest as on 7x8 (same position)
    pos7 = min(pos, 6)
    grow_in_column = c7[col] / s7[7 * col + pos7]
    peak8 = s8[-1] * grow_in_column
    column = col
    while column + 1 < len(c7) and c7[column + 1] > c7[column]:
        peak8 *= c7[column + 1] / c7[column]
        column += 1
    total8 = peak8 * sum(s7) / max(s7)
    per_state = eight["cpu"] / sum(s8)
    capacity = 1
    while capacity * 3 < peak8 * 4:
        capacity *= 2
    table = capacity * 16
    from knightgraph import Board
    from knightgraph.counting.estimate import estimate_count_memory

    model = estimate_count_memory(Board(8, 8), closed=True) or 0
    print(f"8x8 estimate before the work (knightgraph.counting.estimate): {model / 2**30:.1f} GiB")
    print(
        f"8x8 projection: measured {done} of 64 steps ({sum(s8):,} states, "
        f"{per_state * 1e6:.2f} us CPU a state); largest layer ~{peak8 / 1e6:,.0f} M states "
        f"(column {column}), total ~{total8 / 1e9:,.1f} G states -> ~{total8 * per_state / 3600:,.1f} h "
        f"CPU; tables {table / 2**30:,.0f} GiB each, {2 * table / 2**30:,.0f}-{3 * table / 2**30:,.0f} "
        "GiB at the peak step"
    )


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    stop = int(argv[argv.index("--stop") + 1]) if "--stop" in argv else (30 if quick else 33)
    if "--whole" in argv:  # count_tours' own budget and split, as `knightgraph count 8 8`
        run(8, 8)
        return
    run(6, 8)
    run(6, 8, parts=2)
    if quick:
        return
    seven = run(7, 8)
    run(7, 8, parts=2)
    eight = run(8, 8, stop=stop)
    project(seven, eight)


if __name__ == "__main__":
    main(sys.argv[1:])
