"""Issue 29, item 3: Hamiltonian paths and cycles of directed graphs.

1. Tournaments (``networkx.tournament.random_tournament(n, seed=n)``): the whole call
   ``knightgraph.hamiltonian_path(T)`` (Rédei's insertion, the path checked arc by arc)
   against networkx's ``tournament.hamiltonian_path(T)``, alternately ``--repeat`` times;
   medians and the median paired ratio (networkx / knightgraph).  networkx recurses once
   per vertex, so past about 250 vertices it stops with a RecursionError ("fails").
2. Directed questions through the split graph: random digraphs, de Bruijn graphs and
   strongly connected / transitive tournaments, each answered by
   ``hamiltonian_cycle`` with its kind of answer.

    .venv/bin/python benchmarks/bench_directed.py
    .venv/bin/python benchmarks/bench_directed.py --sizes 100 200 1000 --repeat 3
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable
from typing import Any

import networkx as nx

import knightgraph as kg


def seconds(run: Callable[[], Any]) -> float | None:
    """The seconds of ``run()``, or None when it fails (networkx's recursion limit)."""
    began = time.perf_counter()
    try:
        run()
    except RecursionError:
        return None
    return time.perf_counter() - began


def tournament_table(sizes: list[int], repeat: int) -> None:
    print(f"tournaments: a Hamiltonian path, median of {repeat} paired runs")
    print(f"{'vertices':>9} {'knightgraph':>12} {'networkx':>10} {'ratio':>7}")
    for n in sizes:
        tournament = nx.tournament.random_tournament(n, seed=n)
        ours, theirs = [], []
        for _ in range(repeat):
            ours.append(seconds(lambda t=tournament: kg.hamiltonian_path(t)) or 0.0)
            theirs.append(seconds(lambda t=tournament: nx.tournament.hamiltonian_path(t)))
        mine = statistics.median(ours)
        if any(t is None for t in theirs):
            print(f"{n:>9} {mine:>11.4f}s {'fails':>10} {'':>7}", flush=True)
            continue
        ratios = [t / o for t, o in zip(theirs, ours, strict=True) if t is not None and o]
        print(
            f"{n:>9} {mine:>11.4f}s {statistics.median(t for t in theirs if t):>9.4f}s "
            f"{statistics.median(ratios):>6.1f}x",
            flush=True,
        )


def de_bruijn(k: int) -> nx.DiGraph:
    words = ["".join(w) for w in itertools.product("01", repeat=k)]
    return nx.DiGraph([(w, w[1:] + c) for w in words for c in "01" if w != w[1:] + c])


def family_table(timeout: float) -> None:
    print(f"\ndirected cycles through the split graph (hamiltonian_cycle, timeout {timeout:g} s)")
    print(f"{'graph':>34} {'V':>6} {'arcs':>7} {'answer':>14} {'seconds':>8}")
    graphs = [
        (f"de Bruijn B(2, {k})", de_bruijn(k)) for k in (6, 9, 11)
    ] + [
        (f"random digraph n={n} p={p}", nx.gnp_random_graph(n, p, seed=n, directed=True))
        for n, p in ((30, 0.2), (100, 0.08), (300, 0.04), (1000, 0.012))
    ] + [
        ("tournament 60 (random)", nx.tournament.random_tournament(60, seed=1)),
        ("transitive tournament 40", nx.DiGraph([(i, j) for i in range(40) for j in range(i + 1, 40)])),
    ]  # fmt: skip
    for name, graph in graphs:
        began = time.perf_counter()
        try:
            kg.hamiltonian_cycle(graph, timeout=timeout)
            answer = "FOUND"
        except kg.NoTourError as err:
            answer = err.certificate.kind
        except kg.SearchAbortedError:
            answer = "ABORTED"
        took = time.perf_counter() - began
        print(
            f"{name:>34} {len(graph):>6} {graph.number_of_edges():>7} {answer:>14} {took:>8.3f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 1000, 3000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    kg.hamiltonian_path(nx.tournament.random_tournament(5, seed=0))  # the imports
    tournament_table(args.sizes, args.repeat)
    family_table(args.timeout)


if __name__ == "__main__":
    main()
