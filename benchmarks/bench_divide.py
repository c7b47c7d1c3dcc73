"""Issue-5 figures: divide and conquer, whole process, and verifying 10^8 squares.

Run with `make bench`.  Targets (this 2-core machine, whole process including
writing the .npy): 1000x1000 closed <= 0.3 s, 4000x4000 <= 1 s, 8000x8000
<= 2.5 s, 10,000 x 10,000 <= 4 s with peak memory <= 12 bytes per square;
rectangles and odd boards at the same cost per square; `validate_tour` on a
10^8-square tour <= 2 s.  For comparison (issue 5): Parberry's C++ Tourney
0.018 / 0.10 / 0.43 / 1.9 s at 1000 / 2000 / 4000 / 8000 (about 11.5 bytes
per square); JGraphT 1.7 s at 1000x1000.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from timing import whole_process

from knightgraph import validate_tour


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "tour.npy")
        print("divide and conquer, whole process (best of 3 below 10^7 squares), .npy written")
        runs = [
            (1000, 1000, True),
            (2000, 2000, True),
            (4000, 4000, True),
            (8000, 8000, True),
            (10_000, 10_000, True),
            (9999, 10_001, False),
            (3, 3_000_000, True),
            (3, 3_000_001, False),
            (4, 2_500_000, False),
        ]
        for m, n, closed in runs:
            args = ["tour", str(m), str(n), "--method", "divide", "--format", "npy", "-o", out]
            args.append("--closed" if closed else "--open")
            repeat = 3 if m * n < 10**7 else 1
            seconds, peak = min(whole_process(args) for _ in range(repeat))
            kind = "closed" if closed else "open"
            print(
                f"  {m}x{n} {kind}: {seconds:6.2f} s, peak {peak / 2**20:7.1f} MiB "
                f"({peak / (m * n):5.1f} bytes/square; "
                f"{seconds / (m * n) * 1e9:5.1f} ns/square)"
            )
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "tour.npy")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "knightgraph",
                "tour",
                "10000",
                "10000",
                "--closed",
                "--method",
                "divide",
                "--format",
                "npy",
                "-o",
                out,
            ],
            check=True,
        )
        order = np.load(out)
        began = time.perf_counter()
        validate_tour(order, 10_000, 10_000, closed=True)
        print(f"validate_tour, 10^8 squares (in process): {time.perf_counter() - began:.2f} s")
        del order
    print(
        f"(peak of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:.0f} MiB)"
    )


if __name__ == "__main__":
    main()
