"""Hamiltonian cycles and paths of directed graphs (issue 29, item 3), against theorems
and an exhaustive search written here, never against knightgraph's own output.

- Rédei (1934): every tournament has a Hamiltonian path.
- Camion (1959): a tournament (of three vertices or more) has a Hamiltonian cycle exactly
  when it is strongly connected.
- A directed acyclic graph has no cycle, and a Hamiltonian path exactly when consecutive
  vertices of its topological order are joined (its topological order is unique).
- De Bruijn graphs B(2, k) have Hamiltonian cycles (de Bruijn sequences, 1946).

Every directed answer's JSON (``digraph_answer``) goes to the independent checker, which
rebuilds the split graph from the arcs by itself; tampered answers must be rejected.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import networkx as nx
import pytest
from cli_support import subprocess_env

import knightgraph as kg
from knightgraph.certcheck import check_text
from knightgraph.solvers.directed import digraph_answer, directed_search


# ------------------------------------------------------------ independent code
def exists_by_search(graph: nx.DiGraph, closed: bool, source=None, target=None) -> bool:
    """Is there a directed Hamiltonian cycle (path from source to target)?  All orders."""
    nodes = list(graph.nodes)
    for order in itertools.permutations(nodes):
        if source is not None and order[0] != source:
            continue
        if target is not None and order[-1] != target:
            continue
        steps = list(itertools.pairwise(order)) + ([(order[-1], order[0])] if closed else [])
        if all(graph.has_edge(u, v) for u, v in steps) and (not closed or len(order) >= 2):
            return True
    return False


def is_directed_path(graph: nx.DiGraph, order: list[object], closed: bool) -> bool:
    if len(order) != len(graph) or set(order) != set(graph.nodes):
        return False
    steps = list(itertools.pairwise(order)) + ([(order[-1], order[0])] if closed else [])
    return all(graph.has_edge(u, v) for u, v in steps)


def accepted(answer_json: dict[str, object]) -> str:
    [(ok, why)] = check_text(json.dumps(answer_json))
    assert ok, why
    return why


def random_digraph(n: int, p: float, seed: int) -> nx.DiGraph:
    graph = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    return nx.DiGraph(graph)


# ---------------------------------------------------- against the search
REQUESTS = [
    {"closed": True},
    {"closed": False},
    {"closed": False, "source": 0},
    {"closed": False, "target": 1},
    {"closed": False, "source": 2, "target": 0},
]


@pytest.mark.parametrize("seed", range(12))
def test_random_digraphs_against_an_exhaustive_search(seed: int) -> None:
    graph = random_digraph(6, 0.35 + 0.02 * seed, seed)
    for request in REQUESTS:
        truth = exists_by_search(
            graph, request["closed"], request.get("source"), request.get("target")
        )
        answer = directed_search(graph, **request)
        why = accepted(digraph_answer(answer))
        if truth:
            assert answer.order is not None, (seed, request)
            nodes = [answer.digraph.nodes[i] for i in answer.order]
            assert is_directed_path(graph, nodes, request["closed"])
            assert why.startswith("tour: a verified directed")
        else:
            assert answer.order is None and answer.result.certificate is not None, request
            assert "split graph" in why


def test_both_answers_are_exercised() -> None:
    found = {
        directed_search(random_digraph(6, 0.4, s), closed=True).order is None for s in range(12)
    }
    assert found == {True, False}


# ------------------------------------------------------------ the theorems
@pytest.mark.parametrize("n", [3, 10, 250, 2000])
def test_every_tournament_has_a_path(n: int) -> None:
    tournament = nx.tournament.random_tournament(n, seed=n)
    path = kg.hamiltonian_path(tournament)
    assert is_directed_path(tournament, path, closed=False)


@pytest.mark.parametrize("seed", range(8))
def test_camion_a_tournament_has_a_cycle_iff_strongly_connected(seed: int) -> None:
    tournament = nx.tournament.random_tournament(7, seed=seed)
    strong = nx.is_strongly_connected(tournament)
    try:
        cycle = kg.hamiltonian_cycle(tournament)
    except kg.NoTourError as err:
        assert not strong
        accepted(digraph_answer(err.answer))
    else:
        assert strong and is_directed_path(tournament, cycle, closed=True)


def test_a_transitive_tournament_has_no_cycle() -> None:
    transitive = nx.DiGraph([(i, j) for i in range(9) for j in range(i + 1, 9)])
    assert kg.hamiltonian_path(transitive) == list(range(9))
    with pytest.raises(kg.NoTourError) as caught:
        kg.hamiltonian_cycle(transitive)
    accepted(digraph_answer(caught.value.answer))


@pytest.mark.parametrize("seed", range(6))
def test_dags_have_a_path_iff_their_order_is_unique(seed: int) -> None:
    graph = nx.DiGraph([(u, v) for u, v in random_digraph(8, 0.45, seed).edges() if u < v])
    graph.add_nodes_from(range(8))
    order = list(nx.topological_sort(graph))
    unique = all(graph.has_edge(u, v) for u, v in itertools.pairwise(order))
    try:
        path = kg.hamiltonian_path(graph)
    except kg.NoTourError as err:
        assert not unique
        accepted(digraph_answer(err.answer))
    else:
        assert unique and path == order


@pytest.mark.parametrize("k", [3, 5, 7])
def test_de_bruijn_graphs_have_cycles(k: int) -> None:
    words = ["".join(w) for w in itertools.product("01", repeat=k)]
    graph = nx.DiGraph([(w, w[1:] + c) for w in words for c in "01" if w != w[1:] + c])
    cycle = kg.hamiltonian_cycle(graph)
    assert is_directed_path(graph, cycle, closed=True)
    sequence = "".join(w[0] for w in cycle)  # a de Bruijn sequence: every k-word once
    assert len({(sequence * 2)[i : i + k] for i in range(len(sequence))}) == 2**k


def test_directed_cycles_and_two_vertex_cycles() -> None:
    ring = nx.DiGraph(list(itertools.pairwise([*range(30), 0])))
    assert kg.hamiltonian_cycle(ring) == list(range(30))
    with pytest.raises(kg.NoTourError):
        kg.hamiltonian_path(ring, source=3, target=5)  # 3 -> ... -> 2 only
    assert kg.hamiltonian_path(ring, source=3) == [*range(3, 30), 0, 1, 2]
    assert kg.hamiltonian_cycle(nx.DiGraph([(0, 1), (1, 0)])) == [0, 1]
    with pytest.raises(kg.NoTourError):
        kg.hamiltonian_cycle(nx.DiGraph([(0, 0)]))  # a loop is not a cycle


# ---------------------------------------------------------- the checker
def test_the_certificate_is_accepted_from_the_json_alone() -> None:
    transitive = nx.DiGraph([(i, j) for i in range(6) for j in range(i + 1, 6)])
    with pytest.raises(kg.NoTourError) as caught:
        kg.hamiltonian_cycle(transitive)
    done = subprocess.run(
        [sys.executable, "-m", "knightgraph.certcheck"],
        input=json.dumps(digraph_answer(caught.value.answer)).encode(),
        capture_output=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert "split graph" in done.stdout.decode()


def test_tampered_directed_answers_are_rejected() -> None:
    graph = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 1)])
    no = digraph_answer(directed_search(graph, closed=True))
    assert no["certificate"]["kind"] == "sat-refutation"
    with_arc = {**no, "arcs": [*no["arcs"], ["3", "0"]]}  # 0 1 2 3 0 is now a cycle
    [(ok, why)] = check_text(json.dumps(with_arc))
    assert not ok, why
    yes = digraph_answer(directed_search(graph, closed=False))
    reversed_path = {**yes, "squares": yes["squares"][::-1]}
    [(ok, why)] = check_text(json.dumps(reversed_path))
    assert not ok and "not an arc" in why
    other_start = {**yes, "start": "0"}
    [(ok, why)] = check_text(json.dumps(other_start))
    assert not ok and "start" in why
