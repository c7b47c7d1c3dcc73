"""Large sparse graphs (issue 29, item 1): the numpy-built graph board and encoding, patching.

Speed itself is measured in ``benchmarks/bench_graphs.py``, never here.  These tests check
what the fast paths build against a few independent lines written with networkx and
itertools: the adjacency of :class:`GraphBoard` against networkx's own, the clauses of the
encoding against "exactly two of the edges at each vertex" written out by hand, the cycles
read from a model against the edges the model chose.  Every tour found is checked by the
independent lines of ``tests/test_hamiltonian.py`` (:func:`is_cycle`, :func:`is_path`) and
by the independent checker from the answer's JSON.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import numpy as np
import pytest
from test_hamiltonian import answer_accepted, is_cycle, is_path

import knightgraph as kg
from knightgraph.boards.graphboard import GraphBoard
from knightgraph.exceptions import InvalidBoardError, InvalidTourError, SearchAbortedError
from knightgraph.solvers.cnf import TourCNF
from knightgraph.solvers.incremental import solving
from knightgraph.solvers.sat import PATCH_FROM


# ------------------------------------------------------------------ the graph board
def networkx_adjacency(graph: nx.Graph) -> list[tuple[int, ...]]:
    """Independent: each vertex's neighbours, numbered in node order, sorted."""
    index = {v: i for i, v in enumerate(graph.nodes)}
    return [tuple(sorted({index[w] for w in graph[v] if w != v})) for v in graph.nodes]


@pytest.mark.parametrize(
    "graph",
    [
        nx.random_regular_graph(3, 500, seed=1),
        nx.relabel_nodes(nx.gnm_random_graph(300, 900, seed=2), lambda v: f"city{v}"),
        nx.relabel_nodes(nx.cycle_graph(50), {i: (7 * i) % 50 for i in range(50)}),
        nx.grid_2d_graph(7, 9),
        nx.MultiGraph([(0, 1), (1, 0), (1, 2), (2, 0), (0, 1)]),
        nx.empty_graph(4),
        nx.relabel_nodes(nx.path_graph(6), {i: 10 + 3 * i for i in range(6)}),
        nx.Graph([(2, 0), (0, 1), (1, 3), (3, 2)]),
        nx.Graph([(True, 2), (2, 0)]),
    ],
    ids=[
        "cubic",
        "names",
        "shuffled",
        "grid",
        "multigraph",
        "no edges",
        "gaps",
        "unordered",
        "bool",
    ],
)
def test_the_graph_board_has_networkx_adjacency(graph: nx.Graph) -> None:
    board = GraphBoard.from_networkx(graph)
    expected = networkx_adjacency(graph)
    assert list(board.adj) == expected
    rebuilt = GraphBoard(list(graph.nodes), list(graph.edges()))
    assert list(rebuilt.adj) == expected
    indptr, indices = board.csr()
    assert [tuple(indices[indptr[v] : indptr[v + 1]].tolist()) for v in range(len(board))] == (
        expected
    )
    assert board.edges() == sorted({(i, j) for i, row in enumerate(expected) for j in row if i < j})
    assert board.degrees() == [len(row) for row in expected]
    table = board.move_table()
    assert [tuple(x for x in row if x >= 0) for row in table.tolist()] == expected


def test_bad_edges_are_refused_by_name_in_their_order() -> None:
    with pytest.raises(InvalidBoardError, match=r"edge \(0, 9\) has an unknown end"):
        GraphBoard(range(3), [(0, 1), (0, 9), (2, 2)])
    with pytest.raises(InvalidBoardError, match="a loop at 2"):
        GraphBoard(range(3), [(0, 1), (2, 2), (0, 9)])
    with pytest.raises(InvalidBoardError, match="it has a loop"):
        GraphBoard.from_networkx(nx.Graph([(0, 1), (1, 1)]))


def test_a_walk_is_checked_step_by_step() -> None:
    """A Hamiltonian cycle of the 6 x 6 grid (a boustrophedon closed down the first column)
    passes; the same with two vertices swapped fails at the first step that is no edge."""
    graph = nx.grid_2d_graph(6, 6)
    board = GraphBoard.from_networkx(graph)
    snake = [(0, 0)]
    for r in range(6):
        snake += [(r, c) for c in (range(1, 6) if r % 2 == 0 else range(5, 0, -1))]
    snake += [(r, 0) for r in range(5, 0, -1)]
    assert is_cycle(graph, snake)
    order = [board.index(v) for v in snake]
    assert board.check_order(order, closed=True).tolist() == order
    swapped = snake[:]
    swapped[10], swapped[20] = swapped[20], swapped[10]
    step = next(k for k in range(35) if not graph.has_edge(swapped[k], swapped[k + 1]))
    with pytest.raises(InvalidTourError, match=f"step {step + 1} from"):
        board.check_order([board.index(v) for v in swapped], closed=True)
    with pytest.raises(InvalidTourError, match="missing or repeated"):
        board.check_order([*order[:-1], order[0]], closed=True)


# ------------------------------------------------------------------ the encoding
def exactly_two_by_hand(literals: list[int]) -> list[list[int]]:
    """Independent: "at least two" (every literal but one), then "at most two" (no three)."""
    at_least = [[x for x in literals if x != skip] for skip in literals]
    at_most = [[-a, -b, -c] for a, b, c in itertools.combinations(literals, 3)]
    return at_least + at_most


@pytest.mark.parametrize("closed", [True, False])
def test_the_clauses_are_exactly_two_edges_at_every_vertex(closed: bool) -> None:
    """A graph with degrees 1 to 7: the encoding's clauses, vertex by vertex, against the
    rule written out here with the edges numbered in sorted order (the hub's last)."""
    graph = nx.gnm_random_graph(600, 1500, seed=5)
    board = GraphBoard.from_networkx(graph)
    cnf = TourCNF(board, closed=closed, keep_clauses=True)
    edges = sorted(board.edges())
    hub = len(board)
    if not closed:
        edges += [(v, hub) for v in range(hub)]
    assert cnf.edges == edges
    number = {edge: k + 1 for k, edge in enumerate(edges)}
    expected = []
    for v in range(hub if closed else hub + 1):
        literals = sorted(number[e] for e in edges if v in e)
        if v < hub and len(literals) >= 2:
            expected.append(exactly_two_by_hand(literals))
        elif v < hub:
            expected.append([[]])  # fewer than two edges: no tour
    groups = list(cnf.base_clauses())
    if not closed:
        groups = groups[:hub]  # the hub's counter has auxiliary variables: not by hand
    assert [g for g in groups if g] == expected
    assert cnf.num_clauses == len(cnf.clauses)


def test_the_cycles_of_a_model_follow_its_edges() -> None:
    """A 2-factor of the 30 x 30 grid made of its 2 x 2 squares, as a model: 225 cycles
    of four, each step a chosen edge, every vertex once."""
    graph = nx.grid_2d_graph(30, 30)
    board = GraphBoard.from_networkx(graph)
    cnf = TourCNF(board, closed=True)
    chosen = set()
    for r in range(0, 30, 2):
        for c in range(0, 30, 2):
            ring = [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]
            for a, b in itertools.pairwise([*ring, ring[0]]):
                chosen.add(cnf.var(board.index(a), board.index(b)))
    model = [k if k in chosen else -k for k in range(1, len(cnf.edges) + 1)]
    cycles = cnf.cycles(model)
    assert len(cycles) == 225 and sorted(v for c in cycles for v in c) == list(range(900))
    for cycle in cycles:
        assert all(cnf.var(a, b) in chosen for a, b in itertools.pairwise([*cycle, cycle[0]]))


def test_the_cut_clauses_of_disjoint_sets_are_the_edges_leaving_each() -> None:
    """Random disjoint vertex sets of a random graph, given together: each clause is the
    edges with exactly one end in its set, in variable order (the hub's edges too)."""
    graph = nx.gnm_random_graph(400, 1000, seed=8)
    cnf = TourCNF(GraphBoard.from_networkx(graph), closed=False)
    rng = random.Random(8)
    vertices = list(range(401))  # the hub is vertex 400
    for _ in range(20):
        rng.shuffle(vertices)
        cuts = sorted(rng.sample(range(1, 401), rng.randint(1, 6)))
        sets = [vertices[i:j] for i, j in itertools.pairwise([0, *cuts, 401])][:-1]
        expected = [
            [k for k, (u, v) in enumerate(cnf.edges, 1) if (u in inside) != (v in inside)]
            for inside in map(set, sets)
        ]
        assert cnf.cuts(sets) == expected


def test_the_clock_is_read_between_batches_of_a_graph() -> None:
    """A deadline met at the third look at the clock (before the variables, before the
    first batch, before the second: 256 vertices written) stops the writing there."""

    class Deadline:
        timeout = 1.0

        def __init__(self) -> None:
            self.looks = 0

        def out_of_time(self) -> bool:
            self.looks += 1
            return self.looks >= 3

    board = GraphBoard.from_networkx(nx.random_regular_graph(3, 2000, seed=3))
    with (
        pytest.raises(SearchAbortedError, match=r"\(256 of 2,000 squares written\)"),
        solving(board, budget=Deadline()),  # type: ignore[arg-type]
    ):
        pytest.fail("the block was entered")


# ------------------------------------------------------------------ patching
@pytest.mark.parametrize("size", [32, 60])
def test_grid_graphs_are_answered_by_patching(size: int) -> None:
    """Even grids are Hamiltonian; the first model is many short cycles, joined at once."""
    graph = nx.grid_2d_graph(size, size)
    assert graph.number_of_nodes() >= PATCH_FROM
    result = kg.find_tour(graph, closed=True, timeout=60)
    assert result.status is kg.Status.FOUND
    assert result.stats["method"] == "sat+patching" and result.stats["patched"] > 1
    assert is_cycle(graph, result.tour.nodes())
    assert answer_accepted(graph, result, closed=True).startswith("tour:")


def test_paths_through_the_hub_are_patched_too() -> None:
    """An open tour of the 40 x 40 grid between two corners of opposite colours (the hub's
    edges join the ends), and a closed one that must use a given edge."""
    graph = nx.grid_2d_graph(40, 40)
    result = kg.find_tour(graph, closed=False, start=(0, 0), end=(0, 39), timeout=60)
    assert result.status is kg.Status.FOUND
    path = result.tour.nodes()
    assert is_path(graph, path) and (path[0], path[-1]) == ((0, 0), (0, 39))
    answer_accepted(graph, result, False, (0, 0), (0, 39))
    result = kg.find_tour(graph, closed=True, start=(5, 5), end=(5, 6), timeout=60)
    cycle = result.tour.nodes()
    assert is_cycle(graph, cycle) and (cycle[0], cycle[-1]) == ((5, 5), (5, 6))


def test_smaller_graphs_are_not_patched() -> None:
    """Below PATCH_FROM vertices the cut clauses alone answer (no "method" in the stats)."""
    graph = nx.grid_2d_graph(20, 20)
    result = kg.find_tour(graph, closed=True)
    assert "method" not in result.stats and result.stats["rounds"] > 1
    assert is_cycle(graph, result.tour.nodes())


def test_a_random_cubic_graph_of_a_few_thousand_vertices() -> None:
    graph = nx.random_regular_graph(3, 3000, seed=11)
    result = kg.find_tour(graph, closed=True, timeout=60)
    assert result.status is kg.Status.FOUND
    assert is_cycle(graph, result.tour.nodes())


def test_a_timeout_of_zero_on_a_large_graph_is_aborted_not_decided() -> None:
    graph = nx.random_regular_graph(3, 5000, seed=2)
    result = kg.find_tour(graph, closed=True, timeout=0)
    assert result.status is kg.Status.ABORTED and "timeout" in result.reason


def test_patching_joins_what_random_models_leave() -> None:
    """Random 2-factors of squares of a 40 x 40 grid, shuffled: patch joins them and the
    result is a Hamiltonian cycle by the independent check."""
    from knightgraph.solvers.patching import patch

    graph = nx.grid_2d_graph(40, 40)
    board = GraphBoard.from_networkx(graph)
    cycles = [
        [board.index(v) for v in [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]]
        for r in range(0, 40, 2)
        for c in range(0, 40, 2)
    ]
    random.Random(4).shuffle(cycles)
    joined = patch(cycles, board.adj)
    assert joined is not None
    assert is_cycle(graph, [board.node(i) for i in joined])
    assert np.array_equal(np.sort(joined), np.arange(1600))


# ------------------------------------------------------------------ the breadth-first search
def _graphs_for_the_search() -> list[nx.Graph]:
    rng = random.Random(1)
    graphs = []
    for k in range(60):
        graph = nx.gnp_random_graph(rng.randint(1, 300), rng.random() * 0.05, seed=k)
        if k % 3 == 0:
            graph = nx.disjoint_union(graph, nx.path_graph(rng.randint(1, 100)))
        graphs.append(graph)
    return [
        *graphs,
        nx.path_graph(5000),
        nx.cycle_graph(4001),
        nx.grid_2d_graph(80, 80),
        nx.star_graph(500),
        nx.complete_graph(60),
        nx.hypercube_graph(10),
        nx.random_regular_graph(3, 20000, seed=2),
    ]


def test_the_breadth_first_search_agrees_with_networkx() -> None:
    """bfs_colours (numpy levels, Python for small ones) against networkx: the component of
    the first vertex, the parity of each distance, and bipartiteness of that component."""
    from knightgraph.boards.csr import bfs_colours

    for graph in _graphs_for_the_search():
        board = GraphBoard.from_networkx(graph)
        searched = bfs_colours(*board.csr())
        assert searched is not None
        colours, odd = searched
        nodes = list(graph.nodes)
        distance = nx.single_source_shortest_path_length(graph, nodes[0])
        assert {nodes[i] for i in np.flatnonzero(colours >= 0)} == set(distance)
        assert all(colours[i] == distance[v] % 2 for i, v in enumerate(nodes) if v in distance)
        assert odd == (not nx.is_bipartite(graph.subgraph(distance)))


def test_the_breadth_first_search_stops_when_asked() -> None:
    from knightgraph.boards.csr import bfs_colours

    board = GraphBoard.from_networkx(nx.path_graph(5000))
    assert bfs_colours(*board.csr(), stop=lambda: True) is None
