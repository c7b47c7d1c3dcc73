"""Sampling and maps on any graph (issue 17, part 3): sample_tours, start_map and end_map
given a networkx graph or a torus, cylinder or 3-D board, against an exhaustive search
without knightgraph's code (its own move tables too: tests/independent.py).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import networkx as nx
import pytest
from independent import hamiltonian_sequences, leaper_adjacency

import knightgraph as kg
from knightgraph.boards.topology import topology_board
from knightgraph.cli import main

# Upper 0.1 % points of the chi-square distribution (tables), by degrees of freedom.
CHI2_999 = {11: 31.264, 23: 49.728}


# ------------------------------------------------------------ independent code
def chi_square(drawn, categories):
    expected = len(drawn) / len(categories)
    tally = Counter(drawn)
    assert set(tally) <= set(categories)
    return sum((tally.get(c, 0) - expected) ** 2 / expected for c in categories)


def nx_adjacency(graph):
    return {v: set(graph[v]) - {v} for v in graph.nodes}


# -------------------------------------------------------------------- sampling
def board_of(shape, wrap):
    """The package's board of ``shape`` (a third size: levels) and ``wrap``."""
    if len(shape) == 3:
        return topology_board(*shape[:2], levels=shape[2])
    return topology_board(*shape, wrap=wrap)


def test_q3_cycles_are_uniform():
    q3 = nx.hypercube_graph(3)
    truth = list(hamiltonian_sequences(nx_adjacency(q3), closed=True, start=(0, 0, 0)))
    assert len(truth) == 12  # 6 Hamiltonian cycles (OEIS A066037), two directions
    r = kg.sample_tours(q3, k=1200, closed=True, seed=0)
    assert r.status is kg.Status.FOUND and r.directed == 12
    drawn = [tuple(t.nodes()) for t in r.tours]
    assert chi_square(drawn, truth) < CHI2_999[11]
    assert r.stats["width"] >= 1


def test_petersen_paths_from_a_vertex_are_uniform():
    petersen = nx.petersen_graph()
    truth = list(hamiltonian_sequences(nx_adjacency(petersen), closed=False, start=0))
    assert len(truth) == 24
    r = kg.sample_tours(petersen, k=2400, start=0, seed=1)
    assert r.directed == 24 and all(t.start == 0 for t in r.tours)
    assert chi_square([tuple(t.nodes()) for t in r.tours], truth) < CHI2_999[23]
    no = kg.sample_tours(petersen, k=3, closed=True)
    assert no.status is kg.Status.PROVEN_ABSENT and no.directed == 0 and no.tours == []


@pytest.mark.parametrize(
    ("shape", "wrap"),
    [((3, 3), "cols"), ((3, 4), "rows"), ((2, 4), "cols"), ((2, 3, 2), None), ((3, 4), "both")],
)
def test_samples_of_topology_boards_are_tours_and_counts_agree(shape, wrap):
    adj, board = leaper_adjacency(shape, wrap), board_of(shape, wrap)
    first = next(iter(adj))
    for closed in (False, True):
        truth = set(hamiltonian_sequences(adj, closed, start=first))
        r = kg.sample_tours(board, k=40, closed=closed, start=first, seed=2)
        assert r.directed == len(truth), (shape, wrap, closed)
        assert r.status is (kg.Status.FOUND if truth else kg.Status.PROVEN_ABSENT)
        assert all(tuple(t.nodes()) in truth for t in r.tours)
        assert len(r.tours) == (40 if truth else 0)


def test_prescribed_ends_and_the_same_seed():
    torus = topology_board(3, 4, wrap="both")
    adj = leaper_adjacency((3, 4), "both")
    truth = set(hamiltonian_sequences(adj, False, start=(0, 0), end=(2, 3)))
    r = kg.sample_tours(torus, k=30, start="a1", end="d3", seed=5)
    assert r.directed == len(truth) and all(tuple(t.nodes()) in truth for t in r.tours)
    again = kg.sample_tours(torus, k=30, start="a1", end="d3", seed=5)
    assert [t.nodes() for t in again.tours] == [t.nodes() for t in r.tours]
    closed = set(hamiltonian_sequences(adj, True, start=(0, 0), end=(1, 2)))
    r = kg.sample_tours(torus, k=10, closed=True, start="a1", end="c2", seed=5)
    assert r.directed == len(closed) and all(tuple(t.nodes()) in closed for t in r.tours)


def test_sampling_refuses_what_it_cannot_do():
    with pytest.raises(kg.BoardTooLargeError, match="frontier"):
        kg.sample_tours(nx.grid_2d_graph(20, 20), k=1)
    with pytest.raises(kg.InvalidOptionError):
        kg.sample_tours(nx.petersen_graph(), 5, k=1)
    with pytest.raises(kg.InvalidOptionError, match="k"):
        kg.sample_tours(nx.petersen_graph(), k=0)
    with pytest.raises(kg.InvalidSquareError, match="99"):
        kg.sample_tours(nx.petersen_graph(), k=1, start=99)
    r = kg.sample_tours(topology_board(4, 4, wrap="both"), k=2, closed=True, timeout=0)
    assert r.status is kg.Status.ABORTED


# ------------------------------------------------------------------------ maps
@pytest.mark.parametrize(
    ("shape", "wrap"), [((3, 3), "cols"), ((3, 4), "rows"), ((2, 5), "cols"), ((2, 2, 3), None)]
)
def test_maps_agree_with_brute_force(shape, wrap):
    adj, board = leaper_adjacency(shape, wrap), board_of(shape, wrap)
    nodes = board.nodes()
    first = nodes[0]
    for closed in (False, True):
        starts = kg.start_map(board, closed=closed)
        for i, v in enumerate(nodes):
            number = len(list(hamiltonian_sequences(adj, closed, start=v)))
            assert starts.ok[i] == (number > 0) and starts.counts[i] == number, (v, closed)
        ends = kg.end_map(board, start=first, closed=closed)
        for i, v in enumerate(nodes[1:], start=1):
            number = len(list(hamiltonian_sequences(adj, closed, start=first, end=v)))
            assert ends.ok[i] == (number > 0) and ends.counts[i] == number, (v, closed)
        assert not ends.ok[0] and 0 not in ends.evidence


def test_map_of_a_networkx_graph():
    graph = nx.petersen_graph()
    starts = kg.start_map(graph, closed=True)
    assert starts.failures == 10 and starts.squares() == []
    assert all(starts.evidence[v].status is kg.Status.PROVEN_ABSENT for v in range(10))
    ends = kg.end_map(graph, start=0)
    adj = nx_adjacency(graph)
    want = sorted({p[-1] for p in hamiltonian_sequences(adj, False, start=0)})
    assert ends.squares() == [str(v) for v in want]
    with pytest.raises(kg.InvalidOptionError):
        kg.start_map(graph, 3)


def test_maps_of_a_graph_in_worker_processes_and_no_sample():
    """The tours come back from worker processes (re-verified when unpickled), the map is
    the serial one, and ``sample`` (for boards of squares) is refused, not ignored."""
    import pickle

    from knightgraph.running.parallel import get_executor

    board = board_of((3, 4), "both")
    serial = kg.start_map(board, counts=False)
    with get_executor(workers=2) as executor:
        pooled = kg.start_map(board, counts=False, executor=executor)
    assert pooled.ok == serial.ok and pooled.failures == serial.failures == 0
    tour = next(iter(pooled.evidence.values())).tour
    assert pickle.loads(pickle.dumps(tour)) == tour
    with pytest.raises(kg.ImmutableError):
        tour.closed = True
    with pytest.raises(kg.InvalidOptionError, match="sample"):
        kg.start_map(board, sample=2)
    with pytest.raises(kg.InvalidOptionError, match="sample"):
        kg.end_map(nx.petersen_graph(), start=0, sample=1)


# ---------------------------------------------------------------- command line
def test_command_line(capsys, tmp_path):
    assert main(["sample", "3", "4", "--wrap", "both", "-k", "3", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    adj = leaper_adjacency((3, 4), "both")
    files = "abcd"
    for line in lines:
        squares = [(int(s[1:]) - 1, files.index(s[0])) for s in line.split()]
        assert sorted(squares) == sorted(adj)
        assert all(b in adj[a] for a, b in itertools.pairwise(squares))
    assert len(lines) == 3
    out = tmp_path / "s.json"
    assert main(["sample", "2", "3", "--levels", "2", "-k", "1", "--format", "json",
                 "-o", str(out)]) == 1  # fmt: skip
    assert "no open tour of the board 2x3x2" in capsys.readouterr().err and not out.exists()
    assert main(["sample", "4", "4", "--wrap", "both", "--closed", "-k", "2", "--format",
                 "json", "-o", str(out)]) == 0  # fmt: skip
    drawn = json.loads(out.read_text())
    adj = leaper_adjacency((4, 4), "both")
    for tour in drawn:
        squares = [tuple(s) for s in tour["squares"]]
        assert tour["stats"]["directed"] == 2688 and tour["closed"] and tour["wrap"] == "both"
        assert all(b in adj[a] for a, b in itertools.pairwise([*squares, squares[0]]))
    assert main(["starts", "3", "4", "--wrap", "cols", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    adj = leaper_adjacency((3, 4), "cols")
    assert got["wrap"] == "cols" and got["failures"] == 0 and len(got["ok"]) == 12
    assert got["counts"]["a1"] == len(list(hamiltonian_sequences(adj, False, start=(0, 0))))
    assert main(["ends", "3", "3", "--levels", "3", "--start", "a1:1"]) == 0
    assert "0 of 26 end squares" in capsys.readouterr().out
    assert main(["starts", "3", "4", "--wrap", "cols", "--workers", "2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] == got["ok"]
    for bad in (
        ["starts", "3", "4", "--wrap", "both", "--sample", "2"],
        ["ends", "3", "3", "--levels", "3", "--start", "z9"],
        ["starts", "3", "3", "--levels", "0"],
        ["sample", "3", "3", "--wrap", "both", "-k", "0"],
        ["sweep", "4", "4", "--wrap", "both"],
    ):
        assert main(bad) == 2, bad
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
