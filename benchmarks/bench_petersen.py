"""Issue 29: how far checked proofs of absence reach on the generalized Petersen graphs.

G(n, 2) (outer cycle u_i u_{i+1}, spokes u_i v_i, inner edges v_i v_{i+2}) has no
Hamiltonian cycle exactly when n = 5 (mod 6) (Alspach 1983).  For those n, from 11 up, this
times the whole API call ``find_tour(G, closed=True, method="sat")``: the SAT rounds of cut
clauses, the DRUP proof read from the solver, and the independent checker's verdict (the
solver gate), until a call takes longer than ``--limit`` seconds::

    .venv/bin/python benchmarks/bench_petersen.py            # the table, up to 60 s a call
    .venv/bin/python benchmarks/bench_petersen.py --limit 5  # a quick look

Each row gives the rounds (solver calls), the cut constraints, the DRUP proof's lines, the
seconds, and the growth exponent ``log(t / t_prev) / log(n / n_prev)``; the last line fits
one exponent to every row of a second or more (least squares on log t against log n).
"""

from __future__ import annotations

import argparse
import math

import networkx as nx
from timing import timed

from knightgraph import Status, find_tour


def petersen_family(n: int) -> nx.Graph:
    """G(n, 2), built by hand (networkx has only G(5, 2), ``petersen_graph``)."""
    graph = nx.Graph()
    for i in range(n):
        graph.add_edge(("u", i), ("u", (i + 1) % n))
        graph.add_edge(("u", i), ("v", i))
        graph.add_edge(("v", i), ("v", (i + 2) % n))
    return graph


def fitted_exponent(rows: list[tuple[int, float]]) -> float | None:
    """The slope of log(seconds) against log(n) over ``rows`` (None for fewer than two)."""
    if len(rows) < 2:
        return None
    xs = [math.log(n) for n, _ in rows]
    ys = [math.log(t) for _, t in rows]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    den = sum((x - mx) ** 2 for x in xs)
    return num / den


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0, help="stop after a call this long")
    parser.add_argument("--start", type=int, default=11, help="the first n (5 mod 6)")
    args = parser.parse_args(argv)
    if args.start % 6 != 5:
        parser.error(f"--start {args.start} is not 5 mod 6")
    print('G(n, 2), n = 5 (mod 6): find_tour(G, closed=True, method="sat"), checked "no"')
    print(
        f"{'n':>5} {'vertices':>8} {'rounds':>7} {'cuts':>7} {'proof lines':>12} "
        f"{'seconds':>8} {'growth':>7}"
    )
    rows: list[tuple[int, float]] = []
    best = None
    n = args.start
    while True:
        res, seconds = timed(lambda n=n: find_tour(petersen_family(n), closed=True, method="sat"))
        assert res.status is Status.PROVEN_ABSENT, (n, res.status, res.reason)
        assert "the empty clause was derived" in res.stats["checked"], res.stats
        data = res.certificate.data
        growth = ""
        if rows and rows[-1][1] > 0:
            growth = f"{math.log(seconds / rows[-1][1]) / math.log(n / rows[-1][0]):7.2f}"
        print(
            f"{n:>5} {2 * n:>8} {res.stats['rounds']:>7,} {len(data['cuts']):>7,} "
            f"{len(data['proof']):>12,} {seconds:>8.2f} {growth:>7}",
            flush=True,
        )
        rows.append((n, seconds))
        if seconds > args.limit:
            break
        best = n
        n += 6
    exponent = fitted_exponent([(n, t) for n, t in rows if t >= 1.0])
    print(f"largest n within {args.limit:g} s: {best}")
    if exponent is not None:
        print(f"time grows about as n^{exponent:.1f} (fitted to the rows of 1 s or more)")


if __name__ == "__main__":
    main()
