"""``knightgraph.hamiltonian_cycle`` / ``hamiltonian_path`` (issue 29, items 2 and 5): any
networkx graph, answered with a list of vertices or a ``NoTourError`` carrying a checked
certificate.

Every fact here comes from a theorem, never from knightgraph's own output:

- non-Hamiltonian: the Petersen graph; the Herschel graph (bipartite, 5 + 6 vertices);
  the Tutte graph (Tutte 1946); the Coxeter graph (Tutte 1971); the flower snarks J_n
  (Isaacs 1975: snarks, so no Hamiltonian cycle, which would 3-edge-colour them); G(n, 2)
  for n = 5 mod 6 (Alspach 1983); K_{a,b} with a != b; bipartite graphs with unequal
  sides; a graph with a cut vertex;
- Hamiltonian: G(n, 2) for n != 5 mod 6, hypercubes Q_d (Gray codes), even grids, the
  8 x 8 knight graph minus two squares of opposite colours at a1 and h1 (checked below by
  the independent search of ``tests/independent.py``), the dodecahedron;
- paths: a bipartite graph whose sides differ by one has Hamiltonian paths only between
  two vertices of the larger side; a path graph only between its two ends.

A returned cycle or path is checked by the few lines of :func:`is_cycle` /
:func:`is_path` here, and its JSON by the independent checker; a certificate carried by
``NoTourError`` must be accepted by the checker from the JSON alone.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import networkx as nx
import pytest
from cli_support import subprocess_env
from independent import hamiltonian_exists

import knightgraph as kg
from knightgraph.boards.graphboard import GraphBoard
from knightgraph.certcheck import check_text
from knightgraph.io.formats import result_to_dict


# ------------------------------------------------------------ independent code
def is_path(graph: nx.Graph, nodes: list[object]) -> bool:
    """Every vertex once, each step an edge."""
    if len(nodes) != graph.number_of_nodes() or set(nodes) != set(graph.nodes):
        return False
    return all(graph.has_edge(a, b) for a, b in itertools.pairwise(nodes))


def is_cycle(graph: nx.Graph, nodes: list[object]) -> bool:
    """A Hamiltonian path whose last vertex is joined to its first (three vertices at least)."""
    return len(nodes) >= 3 and is_path(graph, nodes) and graph.has_edge(nodes[-1], nodes[0])


def generalized_petersen(n: int, k: int = 2) -> nx.Graph:
    graph = nx.Graph()
    for i in range(n):
        graph.add_edge(("u", i), ("u", (i + 1) % n))
        graph.add_edge(("u", i), ("v", i))
        graph.add_edge(("v", i), ("v", (i + k) % n))
    return graph


def flower_snark(n: int) -> nx.Graph:
    """J_n (n odd): stars a_i - b_i, c_i, d_i; the b's on an n-cycle; c_0..c_{n-1}, d_0..d_{n-1}
    on one 2n-cycle."""
    graph = nx.Graph()
    for i in range(n):
        for x in "bcd":
            graph.add_edge(("a", i), (x, i))
        graph.add_edge(("b", i), ("b", (i + 1) % n))
    nx.add_cycle(graph, [("c", i) for i in range(n)] + [("d", i) for i in range(n)])
    return graph


def coxeter() -> nx.Graph:
    """The Coxeter graph: 7 centres z_i joined to a_i, b_i, c_i; a_i ~ a_{i+1}, b_i ~ b_{i+2},
    c_i ~ c_{i+3} (indices mod 7)."""
    graph = nx.Graph()
    for i in range(7):
        for ring, step in (("a", 1), ("b", 2), ("c", 3)):
            graph.add_edge((ring, i), (ring, (i + step) % 7))
            graph.add_edge(("z", i), (ring, i))
    return graph


def herschel() -> nx.Graph:
    """The Herschel graph: 11 vertices, 18 edges, planar, bipartite with sides 5 and 6."""
    return nx.Graph(
        [(0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (1, 6), (1, 7), (2, 8), (3, 9),
         (4, 8), (4, 10), (5, 9), (5, 10), (6, 8), (6, 10), (7, 9), (7, 10)]
    )  # fmt: skip


def answer_accepted(
    graph: nx.Graph,
    result: kg.SearchResult,
    closed: bool,
    start: object = None,
    end: object = None,
) -> str:
    """The independent checker's verdict on the answer's JSON (as ``knightgraph`` prints it),
    which must accept it."""
    board = GraphBoard.from_networkx(graph)
    text = json.dumps(result_to_dict(result, board, closed, start, end))
    [(accepted, why)] = check_text(text)
    assert accepted, why
    return why


# --------------------------------------------------------- non-Hamiltonian
NO_CYCLE = {
    "Petersen": nx.petersen_graph(),
    "Herschel": herschel(),
    "Tutte": nx.tutte_graph(),
    "Coxeter": coxeter(),
    "flower snark J5": flower_snark(5),
    "flower snark J7": flower_snark(7),
    "flower snark J9": flower_snark(9),
    "G(11, 2)": generalized_petersen(11),
    "G(23, 2)": generalized_petersen(23),
    "K(3, 4)": nx.complete_bipartite_graph(3, 4),
    "two triangles at a cut vertex": nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]),
}


def test_the_graphs_are_the_named_ones() -> None:
    """The constructions above are what they claim (sizes, degrees, girth, bipartition)."""
    h = herschel()
    assert (len(h), h.number_of_edges(), nx.is_planar(h)) == (11, 18, True)
    assert sorted(len(side) for side in nx.bipartite.sets(h)) == [5, 6]
    c = coxeter()
    assert (len(c), c.number_of_edges(), nx.girth(c), nx.is_distance_regular(c)) == (
        28,
        42,
        7,
        True,
    )
    for n in (5, 7, 9):
        j = flower_snark(n)
        assert (len(j), j.number_of_edges(), {d for _, d in j.degree()}) == (4 * n, 6 * n, {3})
    assert nx.is_isomorphic(generalized_petersen(5), nx.petersen_graph())


@pytest.mark.parametrize("name", sorted(NO_CYCLE))
def test_no_cycle_raises_with_a_checked_certificate(name: str) -> None:
    graph = NO_CYCLE[name]
    with pytest.raises(kg.NoTourError) as caught:
        kg.hamiltonian_cycle(graph)
    err = caught.value
    assert err.certificate is not None and err.result.status is kg.Status.PROVEN_ABSENT
    why = answer_accepted(graph, err.result, closed=True)
    assert why.startswith(err.certificate.kind), why


def test_the_herschel_graph_falls_to_a_colour_count() -> None:
    with pytest.raises(kg.NoTourError) as caught:
        kg.hamiltonian_cycle(herschel())
    assert caught.value.certificate.kind == "colour-count"


def test_the_certificate_is_accepted_by_certcheck_from_the_json_alone() -> None:
    graph = nx.tutte_graph()
    with pytest.raises(kg.NoTourError) as caught:
        kg.hamiltonian_cycle(graph)
    text = json.dumps(
        result_to_dict(caught.value.result, GraphBoard.from_networkx(graph), True, None, None)
    )
    done = subprocess.run(
        [sys.executable, "-m", "knightgraph.certcheck"],
        input=text.encode(),
        capture_output=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("accepted: sat-refutation:")


# -------------------------------------------------------------- Hamiltonian
HAS_CYCLE = {
    "dodecahedron": nx.dodecahedral_graph(),
    "G(30, 2)": generalized_petersen(30),
    "G(31, 2)": generalized_petersen(31),
    "G(40, 3)": generalized_petersen(40, 3),
    "hypercube Q4": nx.hypercube_graph(4),
    "hypercube Q9": nx.hypercube_graph(9),
    "grid 6 x 8": nx.grid_2d_graph(6, 8),
    "grid 20 x 21": nx.grid_2d_graph(20, 21),
    "K(5, 5)": nx.complete_bipartite_graph(5, 5),
    "random 3-regular, 2000 vertices": nx.random_regular_graph(3, 2000, seed=7),
}


@pytest.mark.parametrize("name", sorted(HAS_CYCLE))
def test_hamiltonian_graphs_give_a_cycle(name: str) -> None:
    graph = HAS_CYCLE[name]
    cycle = kg.hamiltonian_cycle(graph, seed=0)
    assert is_cycle(graph, cycle)
    result = kg.find_tour(graph, closed=True, seed=0)
    assert answer_accepted(graph, result, closed=True).startswith("tour:")


def test_random_cubic_graphs_agree_with_an_exhaustive_search() -> None:
    """Small seeded 3-regular graphs: the answer (cycle or certificate) against the
    independent exhaustive search of ``tests/independent.py``."""
    seen = set()
    for seed in range(40):
        graph = nx.random_regular_graph(3, 14, seed=seed)
        adj = {v: set(graph[v]) for v in graph}
        truth = hamiltonian_exists(adj, closed=True)
        try:
            cycle = kg.hamiltonian_cycle(graph)
        except kg.NoTourError as err:
            assert not truth, seed
            answer_accepted(graph, err.result, closed=True)
            seen.add(False)
        else:
            assert truth and is_cycle(graph, cycle), seed
            seen.add(True)
    assert seen == {True, False}  # both answers were exercised


def test_a_knight_graph_with_holes() -> None:
    """8 x 8 minus a1 and h8 (same colour): no cycle, no path (colour count); minus a1 and
    h1 (opposite colours): a cycle."""
    same = kg.knight_graph(8, 8)
    same.remove_nodes_from([(0, 0), (7, 7)])
    with pytest.raises(kg.NoTourError):
        kg.hamiltonian_path(same)
    apart = kg.knight_graph(8, 8)
    apart.remove_nodes_from([(0, 0), (0, 7)])
    assert is_cycle(apart, kg.hamiltonian_cycle(apart))


# ------------------------------------------------------------------- paths
def test_paths_with_given_ends_in_a_bipartite_graph() -> None:
    """The 5 x 5 grid: 13 squares of colour (r + c) even, 12 odd; a Hamiltonian path has
    both ends on the even squares."""
    graph = nx.grid_2d_graph(5, 5)
    path = kg.hamiltonian_path(graph, source=(0, 0), target=(4, 4))
    assert is_path(graph, path) and (path[0], path[-1]) == ((0, 0), (4, 4))
    path = kg.hamiltonian_path(graph, source=(2, 2))
    assert is_path(graph, path) and path[0] == (2, 2) and sum(path[-1]) % 2 == 0
    for source, target in (((0, 1), None), ((0, 0), (0, 1)), (None, (1, 2))):
        with pytest.raises(kg.NoTourError) as caught:
            kg.hamiltonian_path(graph, source=source, target=target)
        answer_accepted(graph, caught.value.result, False, source, target)


def test_a_path_graph_has_its_path_between_its_ends_only() -> None:
    graph = nx.path_graph(6)
    assert kg.hamiltonian_path(graph, source=5) == [5, 4, 3, 2, 1, 0]
    assert kg.hamiltonian_path(graph, target=0) == [5, 4, 3, 2, 1, 0]
    with pytest.raises(kg.NoTourError):
        kg.hamiltonian_path(graph, source=2)


def test_vertices_named_by_strings() -> None:
    graph = nx.relabel_nodes(nx.cycle_graph(5), {i: f"city{i}" for i in range(5)})
    path = kg.hamiltonian_path(graph, source="city3", target="city4")
    assert is_path(graph, path) and path[0] == "city3" and path[-1] == "city4"


# ------------------------------------------------------------ bad requests
def test_a_timeout_raises_search_aborted_with_the_result() -> None:
    with pytest.raises(kg.SearchAbortedError) as caught:
        kg.hamiltonian_cycle(generalized_petersen(89), timeout=0.05)
    assert caught.value.result.status is kg.Status.ABORTED


def test_bad_graphs_and_ends_are_refused() -> None:
    with pytest.raises(kg.InvalidBoardError, match="loop"):
        kg.hamiltonian_cycle(nx.Graph([(0, 1), (1, 2), (2, 0), (1, 1)]))
    with pytest.raises(kg.InvalidSquareError):
        kg.hamiltonian_path(nx.path_graph(3), source=7)
    with pytest.raises(kg.InvalidOptionError):
        kg.hamiltonian_cycle(nx.cycle_graph(4), method="divide")


def test_tiny_graphs_follow_find_tours_convention() -> None:
    assert kg.hamiltonian_path(nx.empty_graph(1)) == [0]
    assert sorted(kg.hamiltonian_path(nx.path_graph(2))) == [0, 1]
    for graph in (nx.empty_graph(1), nx.path_graph(2)):
        with pytest.raises(kg.NoTourError):
            kg.hamiltonian_cycle(graph)
    assert sorted(kg.hamiltonian_cycle(nx.complete_graph(3))) == [0, 1, 2]
