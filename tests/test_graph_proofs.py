"""Proofs of absence after many incremental rounds (issue 29, item 2): the generalized
Petersen graphs G(n, 2), which have a Hamiltonian cycle exactly when n is not 5 mod 6
(Alspach 1983; G(5, 2) is the Petersen graph).

The family is built here by hand, and every answer is held to that theorem, never to
knightgraph's own output: a cycle is checked by the few lines of :func:`is_hamiltonian_cycle`
and by the independent checker on the answer's JSON; a "no" must carry a certificate that
the independent checker accepts from the JSON alone (``python -m knightgraph.certcheck`` in
a subprocess for G(35, 2), the first member whose proof did not check before the fix: 674
rounds of cut clauses).

CaDiCaL sets clauses aside when it eliminates variables or substitutes equivalent literals,
logs them as deleted, and silently puts them back when a later round adds a cut clause over
those variables; its DRUP log never re-adds them, so the log used clauses it had deleted.
knightgraph now switches those simplifications off while a proof is logged
(``knightgraph.solvers.incremental.PROOF_OPTIONS``); the raw log of the old configuration is
kept here as a tampered proof the checker must reject.
"""

from __future__ import annotations

import json
import subprocess
import sys

import networkx as nx
import pytest
from cli_support import subprocess_env

import knightgraph as kg
from knightgraph.boards.graphboard import GraphBoard
from knightgraph.certcheck import check_text
from knightgraph.certcheck.checker import check_graph_certificate
from knightgraph.certcheck.drup import check_drup
from knightgraph.io.formats import result_to_dict


# ------------------------------------------------------------ independent code
def petersen_family(n: int) -> nx.Graph:
    """G(n, 2): the outer cycle u_i u_{i+1}, the spokes u_i v_i, the inner edges v_i v_{i+2}."""
    graph = nx.Graph()
    for i in range(n):
        graph.add_edge(("u", i), ("u", (i + 1) % n))
        graph.add_edge(("u", i), ("v", i))
        graph.add_edge(("v", i), ("v", (i + 2) % n))
    return graph


def hamiltonian_by_theorem(n: int) -> bool:
    """Alspach (1983): G(n, 2) is Hamiltonian unless n = 5 (mod 6)."""
    return n % 6 != 5


def is_hamiltonian_cycle(graph: nx.Graph, nodes: list[object]) -> bool:
    """Every vertex once, each step an edge, and the last vertex joined to the first."""
    if len(nodes) != graph.number_of_nodes() or set(nodes) != set(graph.nodes):
        return False
    return all(graph.has_edge(a, nodes[(k + 1) % len(nodes)]) for k, a in enumerate(nodes))


def answer_json(board: GraphBoard, result: kg.SearchResult) -> str:
    """The JSON of an answer, as ``knightgraph`` prints it (vertex names and edges)."""
    return json.dumps(result_to_dict(result, board, True, None, None))


def graph_check(board: GraphBoard, certificate: dict[str, object]) -> tuple[bool, str]:
    names = board.names
    edges = [[names[i], names[j]] for i, j in board.edges()]
    return check_graph_certificate(certificate, names, edges, closed=True)


# ---------------------------------------------------------------- the family
@pytest.mark.parametrize("n", range(5, 48))
def test_the_family_against_the_theorem(n: int) -> None:
    graph = petersen_family(n)
    board = GraphBoard.from_networkx(graph)
    result = kg.find_tour(board, closed=True, method="sat")
    [(accepted, why)] = check_text(answer_json(board, result))
    assert accepted, why
    if hamiltonian_by_theorem(n):
        assert result.status is kg.Status.FOUND
        assert is_hamiltonian_cycle(graph, result.tour.nodes())
        assert why.startswith("tour:")
    else:
        assert result.status is kg.Status.PROVEN_ABSENT, result.reason
        assert result.certificate.kind == "sat-refutation"
        assert why.startswith("sat-refutation:") and "the empty clause was derived" in why


def test_g35_2_is_proven_non_hamiltonian_from_the_json_alone() -> None:
    """The first member whose proof did not check (674 rounds then; over 100 still, the
    rounds after the 100th with orbit cuts); the checker runs as the command line does, in
    another process, on the JSON ``knightgraph`` prints."""
    board = GraphBoard.from_networkx(petersen_family(35))
    result = kg.find_tour(board, closed=True, method="sat")
    assert result.status is kg.Status.PROVEN_ABSENT, result.reason
    assert result.stats["rounds"] > 100
    done = subprocess.run(
        [sys.executable, "-m", "knightgraph.certcheck"],
        input=answer_json(board, result).encode(),
        capture_output=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )
    out = done.stdout.decode()
    assert done.returncode == 0, (out, done.stderr.decode())
    assert out.startswith("accepted: sat-refutation:"), out


@pytest.mark.slow
@pytest.mark.parametrize("n", [53, 59, 65, 71, 77, 83])
def test_larger_non_hamiltonian_members(n: int) -> None:
    board = GraphBoard.from_networkx(petersen_family(n))
    result = kg.find_tour(board, closed=True, method="sat")
    assert result.status is kg.Status.PROVEN_ABSENT, result.reason
    [(accepted, why)] = check_text(answer_json(board, result))
    assert accepted and why.startswith("sat-refutation:"), why


def test_auto_and_tour_exists_agree_on_g35_2() -> None:
    graph = petersen_family(35)
    for answer in (kg.find_tour(graph, closed=True), kg.tour_exists(graph, closed=True)):
        assert answer.status is kg.Status.PROVEN_ABSENT, answer.reason


# ------------------------------------------------------------ tampered proofs
@pytest.fixture(scope="module")
def g35() -> tuple[GraphBoard, dict[str, object]]:
    board = GraphBoard.from_networkx(petersen_family(35))
    result = kg.find_tour(board, closed=True, method="sat")
    assert result.status is kg.Status.PROVEN_ABSENT, result.reason
    return board, result.certificate.to_dict()


def test_the_certificate_checks(g35: tuple[GraphBoard, dict[str, object]]) -> None:
    board, cert = g35
    assert graph_check(board, cert)[0]


def test_a_proof_without_its_lemmas_is_rejected(
    g35: tuple[GraphBoard, dict[str, object]],
) -> None:
    board, cert = g35
    proof = list(cert["proof"])  # type: ignore[call-overload]
    assert proof[-1].strip() == "0"
    lemmas = [k for k, line in enumerate(proof) if not line.startswith("d")]
    half = set(lemmas[len(lemmas) // 2 : -1])  # the second half of the lemmas, not the last
    cut_short = [line for k, line in enumerate(proof) if k not in half]
    for tampered in (proof[:-1], cut_short, ["0"]):
        accepted, why = graph_check(board, {**cert, "proof": tampered})
        assert not accepted and "the proof" in why, why


def test_a_proof_of_clauses_without_the_cuts_is_rejected(
    g35: tuple[GraphBoard, dict[str, object]],
) -> None:
    """Without its cut clauses the CNF is satisfiable: the outer rim and the inner cycle
    (G(35, 2)'s inner edges v_i v_{i+2} form one cycle) use two edges at every vertex.  So
    no proof may refute it; the checker must say no."""
    board, cert = g35
    names = {name: node for name, node in zip(board.names, board.nodes(), strict=True)}
    rims = {
        k + 1
        for k, (a, b) in enumerate(cert["edges"])  # type: ignore[arg-type]
        if names[a][0] == names[b][0]  # both on the outer rim, or both inner
    }
    cuts = len(cert["cuts"])  # type: ignore[arg-type]
    rest = cert["cnf"][: len(cert["cnf"]) - cuts]  # type: ignore[index]
    assert all(any((x in rims) == (x > 0) for x in clause) for clause in rest)
    accepted, why = graph_check(board, {**cert, "cnf": rest, "cuts": []})
    assert not accepted, why


def test_a_session_of_674_rounds_logs_a_proof_that_checks() -> None:
    """Without orbit cuts (no symmetries given) G(35, 2) takes 674 rounds, one solver and
    one DRUP log across them all."""
    from knightgraph.solvers.incremental import solving

    board = GraphBoard.from_networkx(petersen_family(35))
    with solving(board, True, proof=True) as session:  # type: ignore[arg-type]
        outcome = session.solve()
        accepted, why = check_drup(session.cnf.clauses, session.proof())
    assert outcome.status == "unsat" and outcome.rounds == 674
    assert accepted, why


def test_the_log_of_clauses_set_aside_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bug itself: with CaDiCaL's elimination and substitution on, its log of G(35, 2)
    deletes clauses that the solver later restores and uses; the checker rejects that log
    (it honours deletions), and accepts the log made with ``PROOF_OPTIONS``."""
    from knightgraph.solvers import incremental

    board = GraphBoard.from_networkx(petersen_family(35))

    def logged() -> tuple[str, tuple[bool, str]]:
        with incremental.solving(board, True, proof=True) as session:  # type: ignore[arg-type]
            status = session.solve().status
            return status, check_drup(session.cnf.clauses, session.proof())

    status, (accepted, why) = logged()
    assert status == "unsat" and accepted, why
    monkeypatch.setattr(incremental, "PROOF_OPTIONS", {})
    status, (accepted, why) = logged()
    assert status == "unsat" and not accepted
    assert "does not follow by unit propagation" in why


# ------------------------------------------------------------ the orbit cuts
def adjacency_lists(graph: nx.Graph) -> tuple[list[object], list[list[int]]]:
    nodes = list(graph.nodes)
    index = {v: k for k, v in enumerate(nodes)}
    return nodes, [[index[u] for u in graph[v]] for v in nodes]


def is_automorphism(graph: nx.Graph, nodes: list[object], perm: list[int]) -> bool:
    return sorted(perm) == list(range(len(nodes))) and all(
        graph.has_edge(nodes[perm[nodes.index(a)]], nodes[perm[nodes.index(b)]])
        for a, b in graph.edges
    )


@pytest.mark.parametrize("n", [7, 11, 12, 35])
def test_the_automorphisms_of_the_family(n: int) -> None:
    """G(n, 2) has the 2n rotations and reflections (and no more for these n, which avoid
    the exceptional G(5, 2), G(10, 2)); all are found, each one an automorphism."""
    from knightgraph.solvers.automorphisms import automorphisms

    graph = petersen_family(n)
    nodes, adjacency = adjacency_lists(graph)
    group = automorphisms(adjacency, limit=10 * n)
    assert len(group) == 2 * n and len({tuple(p) for p in group}) == 2 * n
    assert all(is_automorphism(graph, nodes, p) for p in group)


def test_automorphisms_of_other_graphs() -> None:
    from knightgraph.solvers.automorphisms import automorphisms

    for graph, order in [
        (nx.petersen_graph(), 120),  # S5
        (nx.hypercube_graph(3), 48),  # 2^3 3!
        (nx.cycle_graph(9), 18),
        (nx.star_graph(4), 24),  # the leaves: S4
        (nx.frucht_graph(), 1),  # cubic and rigid
    ]:
        nodes, adjacency = adjacency_lists(graph)
        group = automorphisms(adjacency, limit=1000)
        assert len(group) == order, (graph, len(group))
        assert all(is_automorphism(graph, nodes, p) for p in group)
    nodes, adjacency = adjacency_lists(nx.complete_graph(8))  # 40,320: listed up to the limit
    assert len(automorphisms(adjacency, limit=50)) == 50
    nodes, adjacency = adjacency_lists(nx.random_regular_graph(3, 200, seed=7))
    few = automorphisms(adjacency, limit=100, work=10_000)  # out of work: what it found
    assert few[0] == list(range(200))


def test_orbit_cuts_are_cuts_the_checker_validates() -> None:
    """G(41, 2) is refuted with orbit cuts (its certificate lists the images' sets like any
    other cut, and the checker accepts them); each listed set is a proper vertex set whose
    cut clause the test recomputes from the graph."""
    graph = petersen_family(41)
    board = GraphBoard.from_networkx(graph)
    result = kg.find_tour(board, closed=True, method="sat")
    assert result.status is kg.Status.PROVEN_ABSENT, result.reason
    cert = result.certificate.to_dict()
    edges = [frozenset(edge) for edge in cert["edges"]]
    cuts, cnf = cert["cuts"], cert["cnf"]
    assert len(cuts) > result.stats["rounds"]  # more sets than rounds: the images
    for members, clause in zip(cuts, cnf[len(cnf) - len(cuts) :], strict=True):
        inside = set(members)
        assert 0 < len(inside) < graph.number_of_nodes()
        leaving = sorted(k + 1 for k, e in enumerate(edges) if len(e & inside) == 1)
        assert clause == leaving
    assert graph_check(board, cert)[0]
