"""Tours of any graph (issue 17, part 3): find_tour, tour_exists and count_tours on networkx
graphs, against an exhaustive search and facts from the literature.

The brute force (tests/independent.py) uses nothing of knightgraph: adjacency sets and a
depth-first enumeration of vertex sequences.
"""

from __future__ import annotations

import importlib
import itertools
import random

import networkx as nx
import pytest
from independent import hamiltonian_sequences

import knightgraph as kg
from knightgraph.boards.graphboard import GraphBoard
from knightgraph.certcheck.checker import check_graph_certificate
from knightgraph.counting.vertexorder import vertex_order


# ------------------------------------------------------------ independent code
def adjacency(graph):
    return {v: set(graph[v]) - {v} for v in graph.nodes}


def is_hamiltonian(graph, nodes, closed):
    adj = adjacency(graph)
    if sorted(map(repr, nodes)) != sorted(map(repr, graph.nodes)) or len(nodes) != len(graph):
        return False
    if any(b not in adj[a] for a, b in itertools.pairwise(nodes)):
        return False
    return not closed or (len(nodes) >= 3 and nodes[0] in adj[nodes[-1]])


def small_graphs():
    rng = random.Random(17)
    graphs = [
        ("petersen", nx.petersen_graph()),
        ("q3", nx.hypercube_graph(3)),
        ("k4", nx.complete_graph(4)),
        ("star", nx.star_graph(3)),
        ("path", nx.path_graph(5)),
        ("two triangles", nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
        ("k23", nx.complete_bipartite_graph(2, 3)),
        ("grid 3x3", nx.grid_2d_graph(3, 3)),
    ]
    for k in range(10):
        n = rng.randint(4, 9)
        graphs.append((f"gnp{k}", nx.gnp_random_graph(n, rng.choice([0.3, 0.5, 0.7]), seed=k)))
    return graphs


SMALL = small_graphs()


# ---------------------------------------------------------------- the facts
def test_petersen_has_a_path_and_no_cycle():
    petersen = nx.petersen_graph()
    res = kg.find_tour(petersen)
    assert res.found and is_hamiltonian(petersen, res.tour.nodes(), False)
    no = kg.tour_exists(petersen, closed=True)
    assert no.status is kg.Status.PROVEN_ABSENT
    board = GraphBoard.from_networkx(petersen)
    edges = [[board.names[i], board.names[j]] for i, j in board.edges()]
    accepted, why = check_graph_certificate(
        no.certificate.to_dict(), board.names, edges, closed=True
    )
    assert accepted, why
    # The same certificate does not prove the absence of a cycle in another graph.
    other = [*edges[:-1], [board.names[0], board.names[2]]]
    assert not check_graph_certificate(no.certificate.to_dict(), board.names, other, closed=True)[0]


def test_dodecahedron_cycles():  # Hamilton's icosian game: 30 Hamiltonian cycles
    r = kg.count_tours(nx.dodecahedral_graph(), closed=True)
    assert (r.undirected, r.directed) == (30, 60)
    assert r.stats["width"] <= 10


@pytest.mark.parametrize(("d", "cycles"), [(2, 1), (3, 6), (4, 1344)])  # OEIS A066037
def test_hypercube_cycles(d, cycles):
    q = nx.hypercube_graph(d)
    assert kg.count_tours(q, closed=True).undirected == cycles
    res = kg.find_tour(q, closed=True, start=(0,) * d)
    assert res.found and res.tour.start == (0,) * d
    assert is_hamiltonian(q, res.tour.nodes(), True)


def test_random_cubic_graph_of_200_vertices():
    graph = nx.random_regular_graph(3, 200, seed=2026)
    for closed in (False, True):
        res = kg.find_tour(graph, closed=closed, timeout=60)
        assert res.status is kg.Status.FOUND, res.reason
        assert is_hamiltonian(graph, res.tour.nodes(), closed)


# ------------------------------------------- against the exhaustive search
@pytest.mark.parametrize(("name", "graph"), SMALL, ids=[name for name, _ in SMALL])
def test_existence_and_counts_agree_with_brute_force(name, graph):
    nodes = list(graph.nodes)
    for closed in (False, True):
        # Every path; closed: every cycle from the first vertex, in both directions (closed
        # tours count once per direction, not once per starting vertex).
        truth = list(hamiltonian_sequences(adjacency(graph), closed))
        counted = kg.count_tours(graph, closed=closed)
        assert counted.directed == len(truth), name
        for method in ("auto", "sat", "backtrack"):
            res = kg.find_tour(graph, closed=closed, method=method)
            assert res.found == bool(truth), (name, closed, method, res.reason)
            if res.found:
                assert is_hamiltonian(graph, res.tour.nodes(), closed)
            else:
                assert res.status is kg.Status.PROVEN_ABSENT and res.stats["checked"]
        for s, t in [(nodes[0], None), (None, nodes[-1]), (nodes[0], nodes[-1])]:
            want = [p for p in truth if (s is None or p[0] == s) and (t is None or p[-1] == t)]
            if closed and s is not None:  # a closed tour from s: any rotation of a cycle
                want = list(hamiltonian_sequences(adjacency(graph), True, start=s, end=t))
            if closed and s is None and t is not None:
                want = [p[::-1] for p in hamiltonian_sequences(adjacency(graph), True, start=t)]
            res = kg.tour_exists(graph, closed=closed, start=s, end=t)
            assert res.found == bool(want), (name, closed, s, t)
            if res.found:
                got = res.tour.nodes()
                assert is_hamiltonian(graph, got, closed)
                assert (s is None or got[0] == s) and (t is None or got[-1] == t)
            counted = kg.count_tours(graph, closed=closed, start=s, end=t)
            assert counted.directed == len(want), (name, closed, s, t)


def test_backtracking_absence_is_re_proved_and_checked():
    res = kg.find_tour(
        GraphBoard.from_networkx(nx.petersen_graph()), closed=True, method="backtrack"
    )
    assert res.certificate.kind == "sat-refutation" and res.stats["certified_by"] == "sat"


# -------------------------------------------------------- the checker refuses
def test_checker_rejects_false_certificates():
    cube = GraphBoard.from_networkx(nx.hypercube_graph(3))
    names, edges = cube.names, [[cube.names[i], cube.names[j]] for i, j in cube.edges()]
    check = check_graph_certificate
    assert not check({"kind": "colour-count", "side": names[:4]}, names, edges, closed=True)[0]
    colour = cube.bipartition()
    side = [names[v] for v in range(8) if colour[v] == 0]
    assert not check({"kind": "colour-count", "side": side}, names, edges, closed=True)[0]
    assert not check({"kind": "connectivity", "component": names[:3]}, names, edges)[0]
    assert not check({"kind": "degree", "vertices": [names[0]]}, names, edges, closed=True)[0]
    assert not check({"kind": "magic"}, names, edges)[0]
    petersen = GraphBoard.from_networkx(nx.petersen_graph())
    res = kg.find_tour(petersen, closed=True, method="sat")
    cert = res.certificate.to_dict()
    pnames = petersen.names
    pedges = [[pnames[i], pnames[j]] for i, j in petersen.edges()]
    assert check(cert, pnames, pedges, closed=True)[0]
    assert not check({**cert, "proof": cert["proof"][:-1]}, pnames, pedges, closed=True)[0]
    assert not check({**cert, "cnf": [*cert["cnf"], [1]]}, pnames, pedges, closed=True)[0]


# -------------------------------------------------------- bad input, budget
def test_bad_requests_are_refused():
    petersen = nx.petersen_graph()
    with pytest.raises(kg.InvalidOptionError, match="warnsdorff"):
        kg.find_tour(petersen, method="warnsdorff")
    with pytest.raises(kg.InvalidSquareError, match="99"):
        kg.find_tour(petersen, start=99)
    with pytest.raises(kg.InvalidSquareError, match="same"):
        kg.find_tour(petersen, start=1, end=1)
    with pytest.raises(kg.InvalidOptionError):
        kg.find_tour(petersen, leaper=(1, 3))
    with pytest.raises(kg.InvalidBoardError):
        GraphBoard([], [])
    with pytest.raises(kg.InvalidBoardError, match="directed"):
        kg.find_tour(nx.DiGraph([(0, 1), (1, 2)]))
    with pytest.raises(kg.InvalidBoardError, match="loop"):
        kg.find_tour(nx.Graph([(0, 0), (0, 1)]))
    with pytest.raises(kg.InvalidTourError):
        kg.Tour(GraphBoard.from_networkx(petersen), list(range(10)))


def test_one_tour_class_serves_graph_boards():
    """A graph board's tour is a Tour: verified when built, same views as before, frozen,
    pickled (and verified again), and the rectangle-only methods refuse it in one line."""
    import copy
    import pickle

    board = GraphBoard.from_networkx(nx.cycle_graph(5))
    tour = kg.Tour(board, [2, 3, 4, 0, 1], closed=True)
    assert isinstance(tour, kg.Tour) and isinstance(tour.board, GraphBoard)
    assert (tour.start, tour.end, len(tour), tour.closed) == (2, 1, 5, True)
    assert tour.nodes() == tour.squares() == list(tour) == [2, 3, 4, 0, 1]
    assert tour.algebraic() == ["2", "3", "4", "0", "1"]
    assert tour.order.tolist() == [2, 3, 4, 0, 1] and not tour.order.flags.writeable
    assert tour.to_dict() == {"closed": True, "squares": ["2", "3", "4", "0", "1"]}
    assert tour.to_json() == '{"closed": true, "squares": ["2", "3", "4", "0", "1"]}'
    assert pickle.loads(pickle.dumps(tour)) == tour and copy.deepcopy(tour) is tour
    assert hash(kg.Tour(board, (2, 3, 4, 0, 1), closed=True)) == hash(tour)
    assert tour != kg.Tour(board, [2, 3, 4, 0, 1]) and tour != kg.Tour(kg.Board(1, 1), [0])
    assert tour.rerooted(0).nodes() == [0, 1, 2, 3, 4]
    assert tour.reversed().nodes() == [1, 0, 4, 3, 2]
    assert tour._repr_png_() is None and tour._repr_html_() is None
    assert repr(tour) == "Tour(GraphBoard(graph, 5 vertices, 5 edges), closed, 2 3 4 0 1)"
    for call in (
        tour.numbered,
        lambda: tour.transformed("rot90"),
        lambda: tour.save_npy("unused.npy"),
        lambda: tour.m,
        tour.draw,
    ):
        with pytest.raises(kg.InvalidBoardError, match="needs a rectangular board, not a graph"):
            call()
    with pytest.raises(kg.ImmutableError):
        tour.closed = False
    with pytest.raises(kg.InvalidTourError, match="step 1 from 0 to 2 is not an edge"):
        kg.Tour(board, [0, 2, 1, 3, 4])
    with pytest.raises(kg.InvalidTourError, match="4 vertices, the graph has 5"):
        kg.Tour(board, [0, 1, 2, 3])
    with pytest.raises(kg.InvalidTourError, match="missing or repeated"):
        kg.Tour(board, [0, 1, 2, 3, 3])
    with pytest.raises(kg.InvalidTourError, match="last vertex is not joined"):
        kg.Tour(GraphBoard(range(3), [(0, 1), (1, 2)]), [0, 1, 2], closed=True)
    with pytest.raises(kg.InvalidTourError, match="not a Tour of a rectangular board"):
        importlib.import_module("knightgraph.io.formats").format_squares(tour)


def test_budget_gives_aborted():
    graph = nx.random_regular_graph(3, 200, seed=1)
    res = kg.find_tour(graph, method="backtrack", timeout=0.2, closed=True)
    assert res.status in (kg.Status.ABORTED, kg.Status.FOUND)
    assert res.seconds < 5
    big = nx.grid_2d_graph(12, 12)
    r = kg.count_tours(big, timeout=0)
    assert r.aborted and r.status is kg.Status.ABORTED


def test_vertex_order_of_a_grid_is_narrow():
    order, width = vertex_order(GraphBoard.from_networkx(nx.grid_2d_graph(4, 12)))
    assert sorted(order) == list(range(48)) and width <= 6
    r = kg.count_tours(GraphBoard.from_networkx(nx.grid_2d_graph(4, 4)), closed=True)
    assert r.undirected == 6  # OEIS A003763: 4x4 grid graph has 6 Hamiltonian cycles


def test_sat_alone_refutes_a_star_and_the_checker_accepts_the_empty_clause():
    from knightgraph.running.budget import Budget
    from knightgraph.solvers.problem import Problem
    from knightgraph.solvers.sat import graph_cnf_search

    star = GraphBoard.from_networkx(nx.star_graph(3))
    edges = [[star.names[i], star.names[j]] for i, j in star.edges()]
    for closed in (False, True):
        res = graph_cnf_search(Problem(star, closed), Budget.make(None, None, None))
        assert res.status is kg.Status.PROVEN_ABSENT
        cert = res.certificate.to_dict()
        assert check_graph_certificate(cert, star.names, edges, closed=closed)[0]
        # On the 4-cycle (every vertex of degree 2) the same clauses are not all valid.
        square = [["0", "1"], ["0", "2"], ["0", "3"], ["1", "2"]]
        assert not check_graph_certificate(cert, star.names, square, closed=closed)[0]
