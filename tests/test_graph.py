"""The graph layer: knight graphs as networkx graphs, checked against known facts."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from independent import knight_moves

from knightgraph import Board, knight_graph

sizes = st.integers(min_value=2, max_value=25)


@given(sizes, sizes)
def test_edge_count_formula(m, n):
    # Each 2x3 or 3x2 rectangle holds exactly two knight moves.
    assert knight_graph(m, n).number_of_edges() == 4 * m * n - 6 * (m + n) + 8


@given(st.integers(1, 12), st.integers(1, 12))
def test_bipartite_by_colour(m, n):
    G = knight_graph(m, n)
    assert all(G.nodes[u]["color"] != G.nodes[v]["color"] for u, v in G.edges)
    assert all(G.nodes[(r, c)]["color"] == (r + c) % 2 for r, c in G)


def test_known_facts():
    assert knight_graph(8).number_of_edges() == 168
    assert knight_graph(3).degree[(1, 1)] == 0
    assert nx.number_connected_components(knight_graph(3)) == 2
    assert knight_graph(1, 5).number_of_edges() == 0
    assert nx.number_connected_components(knight_graph(2, 7)) > 1
    assert nx.is_connected(knight_graph(3, 4)) and nx.is_connected(knight_graph(8, 8))
    degrees = sorted(d for _, d in knight_graph(8).degree)
    assert degrees.count(2) == 4 and degrees.count(8) == 16


@pytest.mark.parametrize("leaper", [(1, 2), (1, 3), (2, 3), (1, 4)])
def test_leaper_graphs_match_brute_force(leaper):
    m, n = 7, 9
    G = knight_graph(m, n, leaper=leaper)
    expected = {
        frozenset([(r, c), t])
        for r in range(m)
        for c in range(n)
        for t in knight_moves(m, n, r, c, leaper)
    }
    assert {frozenset(e) for e in G.edges} == expected
    assert G.graph["leaper"] == tuple(sorted(leaper))


def test_camel_graph_keeps_colour():
    G = knight_graph(8, 8, leaper=(1, 3))
    assert all(G.nodes[u]["color"] == G.nodes[v]["color"] for u, v in G.edges)
    assert nx.number_connected_components(G) == 2


def test_attributes_and_removed_squares():
    G = knight_graph(4, 5, removed=["b3", (0, 0)])
    assert (0, 0) not in G and (2, 1) not in G and G.number_of_nodes() == 18
    assert G.nodes[(3, 4)] == {"pos": (4, 3), "color": 1, "name": "e4"}
    assert G.graph["rows"] == 4 and G.graph["cols"] == 5
    assert all((2, 1) not in G[u] for u in G)


def test_board_argument():
    board = Board(5, 6, removed=["a1"])
    assert nx.utils.graphs_equal(knight_graph(board), knight_graph(5, 6, removed=["a1"]))
    with pytest.raises(TypeError):
        knight_graph(board, 6)
    assert nx.utils.graphs_equal(board.to_networkx(), knight_graph(board))  # the board's own


def test_graph_board_argument():
    from knightgraph.boards.topology import topology_board

    torus = topology_board(5, 5, wrap="both")
    assert nx.utils.graphs_equal(knight_graph(torus), torus.to_networkx())
    with pytest.raises(TypeError, match="pass either a Board or sizes"):  # never ignored
        knight_graph(torus, 5)


def test_networkx_algorithms_work_on_it():
    G = knight_graph(5, 5)
    assert nx.shortest_path_length(G, (0, 0), (4, 4)) == 4
    assert nx.diameter(G) == 4
