"""Joining a 2-factor's cycles by two-edge exchanges (``knightgraph.solvers.patching``).

Whatever :func:`patch` returns is checked here by a few independent lines: every vertex of
the cycles once, each step (and the closing one) an edge of the graph.  Grid graphs with
an even number of vertices are Hamiltonian, and their 2-factors made of side-by-side
squares always join; two triangles with no edge between them never do.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest

from knightgraph.solvers.patching import patch


def adjacency(graph: nx.Graph) -> tuple[list[set[int]], dict[object, int]]:
    index = {v: i for i, v in enumerate(sorted(graph))}
    adj: list[set[int]] = [set() for _ in index]
    for a, b in graph.edges():
        adj[index[a]].add(index[b])
        adj[index[b]].add(index[a])
    return adj, index


def is_cycle_through(cycle: list[int], vertices: set[int], adj: list[set[int]]) -> bool:
    return (
        len(cycle) == len(vertices)
        and set(cycle) == vertices
        and all(cycle[(k + 1) % len(cycle)] in adj[v] for k, v in enumerate(cycle))
    )


def squares_of(rows: int, cols: int, index: dict[object, int]) -> list[list[int]]:
    """The 2-factor of a grid (both sides even) made of its 2 x 2 squares."""
    return [
        [index[(r, c)], index[(r, c + 1)], index[(r + 1, c + 1)], index[(r + 1, c)]]
        for r in range(0, rows, 2)
        for c in range(0, cols, 2)
    ]


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 6), (4, 4), (6, 10), (40, 40)])
def test_the_squares_of_an_even_grid_join(rows: int, cols: int) -> None:
    adj, index = adjacency(nx.grid_2d_graph(rows, cols))
    cycles = squares_of(rows, cols, index)
    rng = random.Random(rows * cols)
    rng.shuffle(cycles)
    joined = patch(cycles, adj)
    assert joined is not None
    assert is_cycle_through(joined, set(range(rows * cols)), adj)
    assert joined[0] == cycles[0][0]


def test_cycles_with_no_edge_between_them_stay_apart() -> None:
    graph = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(4))
    adj, _ = adjacency(graph)
    assert patch([[0, 1, 2], [3, 4, 5, 6]], adj) is None


def test_a_single_cycle_is_returned_as_it_is() -> None:
    adj, _ = adjacency(nx.cycle_graph(5))
    assert patch([[0, 1, 2, 3, 4]], adj) == [0, 1, 2, 3, 4]
    assert patch([], adj) is None


def test_the_stop_is_asked_and_honoured() -> None:
    adj, index = adjacency(nx.grid_2d_graph(4, 4))
    asked = []

    def stop() -> bool:
        asked.append(1)
        return True

    assert patch(squares_of(4, 4, index), adj, stop=stop) is None
    assert asked


@pytest.mark.parametrize("seed", range(20))
def test_whatever_it_returns_is_a_hamiltonian_cycle(seed: int) -> None:
    """Random 2-factors: the disjoint union of random cycles over a random vertex order,
    inside a random graph that holds them; a join, when found, must check."""
    rng = random.Random(seed)
    n = rng.randrange(9, 40)
    order = list(range(n))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(3, n - 2), k=min(3, (n - 3) // 3)))
    cycles, last = [], 0
    for cut in [*cuts, n]:
        if cut - last >= 3:
            cycles.append(order[last:cut])
            last = cut
    cycles[-1] += order[last:]
    graph = nx.gnp_random_graph(n, 0.3, seed=seed)
    for cycle in cycles:
        nx.add_cycle(graph, cycle)
    adj, _ = adjacency(graph)
    joined = patch(cycles, adj)
    if joined is not None:
        assert is_cycle_through(joined, set(range(n)), adj)
