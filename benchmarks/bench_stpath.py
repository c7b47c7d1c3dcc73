"""Issue-14 figures: open tours between prescribed ends, whole process, against closed tours.

Run with `make bench` (or `python benchmarks/bench_stpath.py [ROUNDS]`).
Targets: `tour 10000 10000 --start s --end t --format npy -o FILE` within 1.5x
the time of `tour 10000 10000 --closed --format npy -o FILE` (random
colour-valid pairs, runs alternated, the median of the paired ratios), with
peak memory (ru_maxrss of the child) at most 12 bytes per square; and
`tour 1000 1000 --start a1 --end b1` (squares written to a pipe) under 0.5 s.
Thin boards (issue 14, part B): `tour 5 2000000 --start s --end t` against the
closed tour of the same board, paired the same way; `tour 4 2500000 --start s
--end t` (both ends on the outer ranks, far from the short edges) against the
open tour of the same board (4 x n has no closed tour).
Every tour written is read back and checked.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from timing import whole_process

from knightgraph import Board, validate_tour


def paired(
    st_args: list[str],
    base_args: list[str],
    k: int,
    out: str,
    ends: tuple[int, int, str, str],
    base: str = "closed",
) -> dict[str, tuple[float, int]]:
    """Round ``k`` of the pairing: the s-t tour of ``m x n`` from ``s`` to ``t`` (``ends``)
    and the baseline (``base``: the closed tour, or the open tour with no ends), whole
    process, in alternating order; the first round's files are checked."""
    m, n, s, t = ends
    runs = [("st", st_args), (base, base_args)]
    if k % 2:
        runs.reverse()
    got = {}
    for name, args in runs:
        got[name] = whole_process([*args, "--format", "npy", "-o", out])
        if k == 0:
            given = (s, t) if name == "st" else (None, None)
            check_npy(out, m, n, *given, closed=name == "closed")
    return got


class Tally:
    """The rounds of one pairing, against the ``base`` run (``closed`` or ``open``) of a
    board of ``squares`` squares: a line a round, then the medians and the peak."""

    def __init__(self, base: str, squares: int) -> None:
        self.base, self.squares = base, squares
        self.rows: list[tuple[float, float, int]] = []

    def add(self, s: str, t: str, got: dict[str, tuple[float, int]]) -> None:
        (st, peak), (other, _) = got["st"], got[self.base]
        self.rows.append((st, other, peak))
        print(
            f"  {s} -> {t}: {st:.2f} s, {self.base} {other:.2f} s, ratio {st / other:.2f}, "
            f"peak {peak / self.squares:.2f} bytes/square"
        )

    def summary(self, targets: str = "") -> None:
        st, other, _ = (statistics.median(column) for column in zip(*self.rows, strict=True))
        ratio = statistics.median(a / b for a, b, _ in self.rows)
        peak = max(row[2] for row in self.rows) / self.squares
        print(
            f"  median: s-t {st:.2f} s, {self.base} {other:.2f} s, ratio {ratio:.2f}, "
            f"peak {peak:.2f} bytes/square{targets}"
        )


def random_pair(board: Board, rng: random.Random) -> tuple[str, str]:
    """A random pair of squares of different colours (an even board)."""
    while True:
        s = (rng.randrange(board.m), rng.randrange(board.n))
        t = (rng.randrange(board.m), rng.randrange(board.n))
        if (s[0] + s[1] + t[0] + t[1]) % 2:
            return board.name(s), board.name(t)


def check_npy(
    path: str, m: int, n: int, start: str | None, end: str | None, closed: bool = False
) -> None:
    order = np.load(path)
    board = Board(m, n)
    validate_tour(order, m, n, closed=closed)
    if start is not None:
        assert board.name(int(order[0])) == start and board.name(int(order[-1])) == end


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rng = random.Random(14)
    size = 10_000
    board = Board(size, size)
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "tour.npy")
        tally = Tally("closed", size * size)
        print(f"{size}x{size}, whole process, .npy written; {rounds} alternated pairs")
        for k in range(rounds):
            s, t = random_pair(board, rng)
            st_args = ["tour", str(size), str(size), "--start", s, "--end", t]
            closed_args = ["tour", str(size), str(size), "--closed"]
            tally.add(s, t, paired(st_args, closed_args, k, out, (size, size, s, t)))
        tally.summary(" (targets: ratio <= 1.5, peak <= 12 bytes/square)")
        small = []
        for _ in range(max(5, rounds)):
            args = ["tour", "1000", "1000", "--start", "a1", "--end", "b1"]
            small.append(whole_process(args)[0])
        done = subprocess.run(
            [sys.executable, "-m", "knightgraph", *args], capture_output=True, text=True, check=True
        )
        names = done.stdout.split()
        assert names[0] == "a1" and names[-1] == "b1" and len(names) == 10**6
        print(
            f"tour 1000 1000 --start a1 --end b1 (squares to a pipe): median "
            f"{statistics.median(small):.2f} s of {len(small)} (target < 0.5 s)"
        )
        thin(rounds, rng, out)
        four(rounds, rng, out)


def thin(rounds: int, rng: random.Random, out: str) -> None:
    """5 x 2,000,000 (ten million squares): s-t tours of thin boards against the closed tour."""
    m, n = 5, 2_000_000
    board = Board(m, n)
    tally = Tally("closed", m * n)
    print(f"{m}x{n}, whole process, .npy written; {rounds} alternated pairs")
    for k in range(rounds):
        while True:
            s, t = random_pair(board, rng)
            if "b3" not in (s, t) and board.name((2, n - 2)) not in (s, t):  # no tour ends there
                break
        st_args = ["tour", str(m), str(n), "--start", s, "--end", t]
        got = paired(st_args, ["tour", str(m), str(n), "--closed"], k, out, (m, n, s, t))
        tally.add(s, t, got)
    tally.summary()


def four(rounds: int, rng: random.Random, out: str) -> None:
    """4 x 2,500,000 (ten million squares), both ends on ranks 1 and 4 at least a tenth of
    the board from its short edges, against the open tour (no ends) of the same board."""
    m, n = 4, 2_500_000
    board = Board(m, n)
    tally = Tally("open", m * n)
    print(f"{m}x{n}, whole process, .npy written; {rounds} alternated pairs (open tour)")
    for k in range(rounds):
        while True:
            s = (rng.choice((0, 3)), rng.randrange(n // 10, n - n // 10))
            t = (rng.choice((0, 3)), rng.randrange(n // 10, n - n // 10))
            if (sum(s) + sum(t)) % 2:
                break
        a, b = board.name(s), board.name(t)
        st_args = ["tour", str(m), str(n), "--start", a, "--end", b]
        got = paired(st_args, ["tour", str(m), str(n)], k, out, (m, n, a, b), base="open")
        tally.add(a, b, got)
    tally.summary()


if __name__ == "__main__":
    main()
