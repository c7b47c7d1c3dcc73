"""Issue 29: Hamiltonian cycles of any graph, knightgraph against CP-SAT, paired.

Two tables:

1. Seeded random 3-regular graphs (``networkx.random_regular_graph(3, n, seed)``) of 200
   to 100,000 vertices (``--sizes``): the whole API call ``knightgraph.find_tour(G,
   closed=True)`` (method ``auto``: the graph conversion, the search and the tour's
   check) against OR-Tools CP-SAT's ``AddCircuit`` with one worker (the model built
   from the same graph, an arc each way per edge, then solved).  The two are run
   alternately ``--repeat`` times on the same graph; the table gives each one's median
   and the median of the paired ratios (CP-SAT / knightgraph: above 1, knightgraph is
   faster).
2. Hard families, each answered by ``auto``, with the strategy that answered and the
   certificate's kind: the non-Hamiltonian Petersen, Herschel, Tutte and Coxeter graphs,
   the flower snarks J5 .. J11, the generalized Petersen graphs G(n, 2) (Hamiltonian
   exactly when n is not 5 mod 6, Alspach 1983), hypercubes, grid graphs and knight
   graphs with holes.

The strategy column names what answered (:func:`answered_by`): ``sat`` for the SAT loop's
cut clauses, ``sat+patching`` when the last model's cycles were joined by two-edge
exchanges (graphs of 1,000 vertices and more), ``warnsdorff`` for the walks.

    .venv/bin/python benchmarks/bench_graphs.py                 # both tables
    .venv/bin/python benchmarks/bench_graphs.py --sizes 1000 10000 --repeat 3
    .venv/bin/python benchmarks/bench_graphs.py --families-only
    .venv/bin/python benchmarks/bench_graphs.py --sizes 1000000 --repeat 1 --timeout 60 --cubic-only

CP-SAT is optional (``pip install ortools``); without it the first table has
knightgraph's column only.  This machine is noisy: compare within one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import networkx as nx

from knightgraph import find_tour, knight_graph


def cpsat_cycle(graph: nx.Graph, timeout: float) -> tuple[str, float]:
    """CP-SAT's answer for a Hamiltonian cycle of ``graph`` and the seconds of the whole
    call (model built and solved, one worker)."""
    from ortools.sat.python import cp_model

    began = time.perf_counter()
    index = {v: i for i, v in enumerate(graph.nodes)}
    model = cp_model.CpModel()
    arcs = []
    for u, v in graph.edges():
        i, j = index[u], index[v]
        arcs.append((i, j, model.NewBoolVar("")))
        arcs.append((j, i, model.NewBoolVar("")))
    model.AddCircuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = timeout
    status = solver.Solve(model)
    return solver.StatusName(status), time.perf_counter() - began


def knightgraph_cycle(graph: nx.Graph, timeout: float) -> tuple[str, float, Any]:
    """knightgraph's answer (``auto``), the seconds of the whole call, and the result."""
    began = time.perf_counter()
    result = find_tour(graph, closed=True, timeout=timeout)
    return result.status.name, time.perf_counter() - began, result


def answered_by(result: Any) -> str:
    """The strategy that answered: the stats' ``method`` when a phase names itself
    (``warnsdorff``, ``sat+patching``), ``sat`` for the SAT loop's own answers (their stats
    count rounds), else the method called."""
    stats = result.stats or {}
    if "method" in stats:
        return str(stats["method"])
    return "sat" if "rounds" in stats else str(result.method)


def have_cpsat() -> bool:
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def cubic_table(sizes: list[int], repeat: int, timeout: float, seed: int) -> None:
    cpsat = have_cpsat()
    print(f"random 3-regular graphs (seed {seed}), closed, median of {repeat} paired runs")
    head = f"{'vertices':>9} {'knightgraph':>12} {'answer':>8} {'strategy':>12}"
    print(head + (f" {'CP-SAT':>9} {'answer':>8} {'ratio':>7}" if cpsat else "  (no ortools)"))
    for n in sizes:
        graph = nx.random_regular_graph(3, n, seed=seed)
        ours, theirs, ratios = [], [], []
        answer = their_answer = strategy = ""
        for _ in range(repeat):
            answer, t_kg, result = knightgraph_cycle(graph, timeout)
            strategy = answered_by(result)
            ours.append(t_kg)
            if cpsat:
                their_answer, t_cp = cpsat_cycle(graph, timeout)
                theirs.append(t_cp)
                ratios.append(t_cp / t_kg)
        line = f"{n:>9} {statistics.median(ours):>11.3f}s {answer[:8]:>8} {strategy[:12]:>12}"
        if cpsat:
            line += (
                f" {statistics.median(theirs):>8.3f}s {their_answer[:8]:>8} "
                f"{statistics.median(ratios):>6.1f}x"
            )
        print(line, flush=True)


def petersen_family(n: int, k: int = 2) -> nx.Graph:
    """The generalized Petersen graph G(n, k), built by hand."""
    graph = nx.Graph()
    for i in range(n):
        graph.add_edge(("u", i), ("u", (i + 1) % n))
        graph.add_edge(("u", i), ("v", i))
        graph.add_edge(("v", i), ("v", (i + k) % n))
    return graph


def flower_snark(n: int) -> nx.Graph:
    """The flower snark J_n (n odd): stars a_i - b_i, c_i, d_i; the b's on a cycle; the
    c's and d's on one cycle of length 2n."""
    graph = nx.Graph()
    for i in range(n):
        for x in "bcd":
            graph.add_edge(("a", i), (x, i))
        graph.add_edge(("b", i), ("b", (i + 1) % n))
    ring = [("c", i) for i in range(n)] + [("d", i) for i in range(n)]
    nx.add_cycle(graph, ring)
    return graph


def holed_knight_graph(m: int, n: int, holes: list[tuple[int, int]]) -> nx.Graph:
    graph = knight_graph(m, n)
    graph.remove_nodes_from(holes)
    return graph


def families() -> list[tuple[str, nx.Graph, bool | None]]:
    """(name, graph, Hamiltonian by theorem or None when the table is the answer)."""
    out: list[tuple[str, nx.Graph, bool | None]] = [
        ("Petersen", nx.petersen_graph(), False),
        ("Herschel", _herschel(), False),
        ("Tutte", nx.tutte_graph(), False),
        ("Coxeter", _coxeter(), False),
    ]
    out += [(f"flower snark J{n}", flower_snark(n), False) for n in (5, 7, 9, 11)]
    out += [(f"G({n}, 2)", petersen_family(n), n % 6 != 5) for n in (29, 30, 59, 60, 89, 90)]
    out += [(f"hypercube Q{d}", nx.hypercube_graph(d), True) for d in (6, 10, 14)]
    out += [(f"grid {k}x{k}", nx.grid_2d_graph(k, k), k % 2 == 0) for k in (10, 31, 100, 200)]
    out += [
        ("knight 8x8 minus a1, h8", holed_knight_graph(8, 8, [(0, 0), (7, 7)]), False),
        ("knight 8x8 minus a1, h1", holed_knight_graph(8, 8, [(0, 0), (0, 7)]), True),
        (
            "knight 30x30 minus 4",
            holed_knight_graph(30, 30, [(3, 3), (3, 4), (10, 3), (10, 4)]),
            True,
        ),
    ]
    return out


def _herschel() -> nx.Graph:
    """The Herschel graph: 11 vertices, 18 edges, bipartite 5 + 6 (so no Hamiltonian
    cycle)."""
    edges = [(0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (1, 6), (1, 7), (2, 8), (3, 9),
             (4, 8), (4, 10), (5, 9), (5, 10), (6, 8), (6, 10), (7, 9), (7, 10)]  # fmt: skip
    return nx.Graph(edges)


def _coxeter() -> nx.Graph:
    """The Coxeter graph: 28 vertices, cubic, non-Hamiltonian (Tutte 1971)."""
    graph = nx.Graph()
    for i in range(7):
        for j, step in ((0, 1), (1, 2), (2, 3)):
            graph.add_edge((j, i), (j, (i + step) % 7))
        for j in range(3):
            graph.add_edge(("z", i), (j, i))
    return graph


def family_table(timeout: float) -> None:
    print(f"\nhard families, closed, find_tour(G, closed=True) (auto), timeout {timeout:g} s")
    print(f"{'graph':>26} {'V':>6} {'E':>7} {'answer':>14} {'by':>12} {'certificate':>16} {'s':>8}")
    for name, graph, hamiltonian in families():
        status, seconds, result = knightgraph_cycle(graph, timeout)
        by = answered_by(result)
        cert = result.certificate.kind if result.certificate is not None else "-"
        agrees = hamiltonian is None or (status == "FOUND") == hamiltonian
        flag = "" if agrees or status == "ABORTED" else "  DISAGREES WITH THE THEOREM"
        print(
            f"{name:>26} {graph.number_of_nodes():>6} {graph.number_of_edges():>7} "
            f"{status:>14} {by[:12]:>12} {cert[:16]:>16} {seconds:>8.3f}{flag}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 1000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5, help="paired runs per size")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per call")
    parser.add_argument("--seed", type=int, default=1, help="the graphs' seed")
    parser.add_argument("--families-only", action="store_true")
    parser.add_argument("--cubic-only", action="store_true", help="the first table alone")
    args = parser.parse_args(argv)
    find_tour(nx.petersen_graph(), closed=True)  # imports and the solver's first load
    if not args.families_only:
        cubic_table(args.sizes, args.repeat, args.timeout, args.seed)
    if not args.cubic_only:
        family_table(args.timeout)


if __name__ == "__main__":
    main()
