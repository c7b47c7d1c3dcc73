"""Issue-4 figures: existence tables with checked certificates, SAT proofs and tours.

Run with `make bench`.  Targets (this 2-core machine): `table 20` with every
certificate checked <= 10 s and `table 40` <= 60 s (whole process); SAT
refutation of closed tours on 4 x n forced through SAT (no colour shortcut),
DRUP proof checked, <= 1 s for every n up to 100; SAT closed tours 30x30
<= 0.5 s and 100x100 <= 5 s.
"""

from __future__ import annotations

from timing import run_knightgraph, timed

from knightgraph import Board, Status, find_tour
from knightgraph.solvers.incremental import solving


def whole_process(args: str) -> float:
    return timed(lambda: run_knightgraph(args, check=True))[1]


def refute_only(n: int) -> float:
    """Seconds for CaDiCaL (proof logging on) to refute a closed tour of 4 x n."""
    with solving(Board(4, n), True, None, None, proof=True) as session:
        outcome, seconds = timed(session.solve)
    assert outcome.status == "unsat", (n, outcome.status)
    return seconds


def main() -> None:
    print("existence tables, every cell backed by a verified tour or a checked certificate")
    for size in (20, 40):
        print(
            f"  table {size}: {whole_process(f'table {size} --format json'):6.2f} s whole process"
        )

    print("SAT refutations of closed tours on 4 x n (no shortcuts)")
    print("  solve = CaDiCaL with proof logging; total = solve + DRUP proof read and checked")
    worst_solve, worst_total = (0.0, 0), (0.0, 0)
    for n in range(5, 101):
        solved = refute_only(n)
        res, seconds = timed(
            lambda n=n: find_tour(Board(4, n), method="sat", closed=True, shortcuts=False)
        )
        assert res.status is Status.PROVEN_ABSENT, (n, res.status)
        worst_solve, worst_total = max(worst_solve, (solved, n)), max(worst_total, (seconds, n))
        if n % 20 == 0:
            lines = len(res.certificate.data["proof"])
            print(f"  4x{n}: solve {solved:6.3f} s, total {seconds:6.3f} s ({lines:,} proof lines)")
    print(
        f"  slowest solve: 4x{worst_solve[1]} {worst_solve[0]:.3f} s; "
        f"slowest total: 4x{worst_total[1]} {worst_total[0]:.3f} s"
    )

    print("SAT closed tours (in process)")
    for m in (30, 100):
        res, seconds = timed(lambda m=m: find_tour(m, m, closed=True, method="sat"))
        assert res.status is Status.FOUND
        print(f"  {m}x{m}: {seconds:6.3f} s ({res.stats.get('rounds')} rounds)")


if __name__ == "__main__":
    main()
