"""Boards with topology (issue 17, part 1): cylinders, tori and 3-D boards, against an
exhaustive search without knightgraph's code (its own move generation too), in
tests/independent.py.
"""

from __future__ import annotations

import itertools

import pytest
from independent import (
    count_hamiltonian_from,
    hamiltonian_exists,
    hamiltonian_sequences,
    leaper_adjacency,
)

import knightgraph as kg
from knightgraph.boards.topology import topology_board
from knightgraph.certcheck.checker import check_graph_certificate


# ------------------------------------------------------------ independent code
def count_sequences(adj, closed, start=None):
    """Directed Hamiltonian paths (closed: cycles counted once per direction, from ``start``
    or from the first vertex), by the plain depth-first search of tests/independent.py."""
    return sum(1 for _ in hamiltonian_sequences(adj, closed, start=start))


def valid(adj, squares, closed):
    return (
        sorted(squares) == sorted(adj)
        and all(b in adj[a] for a, b in itertools.pairwise(squares))
        and (not closed or squares[0] in adj[squares[-1]])
    )


CASES = [
    *[((m, n), w) for m in range(1, 5) for n in range(m, 5) for w in ("both", "rows", "cols")],
    (((2, 7), "cols")),
    (((2, 2, 2), None)),
    (((2, 2, 3), None)),
    (((2, 3, 3), None)),
    (((2, 2, 4), None)),
]


def board_of(shape, wrap):
    if len(shape) == 3:
        return topology_board(shape[0], shape[1], levels=shape[2])
    return topology_board(*shape, wrap=wrap)


@pytest.mark.parametrize(("shape", "wrap"), CASES, ids=[f"{s}-{w}" for s, w in CASES])
def test_existence_and_counts_agree_with_brute_force(shape, wrap):
    adj = leaper_adjacency(shape, wrap)
    board = board_of(shape, wrap)
    assert {tuple(v) for v in board.nodes()} == set(adj)
    for closed in (False, True):
        truth = count_sequences(adj, closed)
        counted = kg.count_tours(board, closed=closed, timeout=60)
        assert counted.directed == truth, (shape, wrap, closed)
        res = kg.tour_exists(board, closed=closed, timeout=60)
        assert res.found == (truth > 0), (shape, wrap, closed, res.reason)
        if res.found:
            assert valid(adj, res.tour.nodes(), closed)
        else:
            assert res.status is kg.Status.PROVEN_ABSENT and res.stats["checked"]
        first = next(iter(adj))
        from_first = count_sequences(adj, closed, start=first)
        res = kg.tour_exists(board, closed=closed, start=first)
        assert res.found == (from_first > 0)
        if res.found:
            assert res.tour.nodes()[0] == first and valid(adj, res.tour.nodes(), closed)
        assert kg.count_tours(board, closed=closed, start=first).directed == from_first


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shape", "wrap"), [((3, 3, 3), None), ((2, 3, 4), None), ((2, 9), "cols")]
)
def test_larger_boards_agree_from_a_corner(shape, wrap):
    adj = leaper_adjacency(shape, wrap)
    board = board_of(shape, wrap)
    first = next(iter(adj))
    for closed in (False, True):
        truth = count_sequences(adj, closed, start=first)
        assert kg.count_tours(board, closed=closed, start=first).directed == truth
        assert kg.tour_exists(board, closed=closed, start=first).found == (truth > 0)
        if closed:  # a cycle passes through the corner
            assert kg.tour_exists(board, closed=True).found == (truth > 0)


def shapes_up_to(squares):
    """Every torus and cylinder (both wrap directions) and every 3-D board (sizes sorted:
    the 3-D knight treats the axes alike) with 5 .. ``squares`` squares."""
    out = []
    for m in range(1, squares + 1):
        for n in range(1, squares // m + 1):
            if m * n >= 5:
                out += [((m, n), "rows"), ((m, n), "cols")] + ([((m, n), "both")] * (m <= n))
    for a in range(1, squares + 1):
        for b in range(a, squares + 1):
            for c in range(b, squares // max(1, a * b) + 1):
                if 5 <= a * b * c <= squares:
                    out.append(((a, b, c), None))
    return out


def check_existence(shape, wrap):
    """Open and closed existence against :func:`hamiltonian_exists`; a tour checked against
    the move table here, a "no" by the independent graph checker."""
    adj = leaper_adjacency(shape, wrap)
    board = board_of(shape, wrap)
    assert {tuple(v) for v in board.nodes()} == set(adj)
    edges = [[board.names[i], board.names[j]] for i, j in board.edges()]
    assert {frozenset((board.node(i), board.node(j))) for i, j in board.edges()} == {
        frozenset((v, w)) for v in adj for w in adj[v]
    }
    for closed in (False, True):
        truth = hamiltonian_exists(adj, closed)
        res = kg.tour_exists(board, closed=closed, timeout=60)
        assert res.found == truth, (shape, wrap, closed, res.reason)
        if truth:
            assert valid(adj, res.tour.nodes(), closed)
        else:
            cert = res.certificate.to_dict()
            accepted, why = check_graph_certificate(cert, board.names, edges, closed=closed)
            assert accepted, (shape, wrap, closed, why)


UP_TO_30 = [
    ((5, 5), "both"),
    ((5, 6), "both"),
    ((4, 7), "both"),
    ((3, 9), "both"),
    ((2, 12), "both"),
    ((5, 5), "cols"),
    ((3, 8), "cols"),
    ((2, 15), "rows"),
    ((5, 6), "rows"),
    ((1, 30), "cols"),
    ((2, 4), "rows"),  # no closed tour: a SAT refutation
    ((4, 4), "rows"),  # no closed tour: a SAT refutation
    ((2, 3, 5), None),
    ((3, 3, 3), None),  # the centre has no move
    ((2, 2, 7), None),
    ((1, 3, 5), None),  # no open tour (SAT), no closed one (colours)
    ((1, 4, 4), None),  # neither (SAT)
    ((2, 4, 4), None),
]


@pytest.mark.parametrize(("shape", "wrap"), UP_TO_30, ids=[f"{s}-{w}" for s, w in UP_TO_30])
def test_existence_up_to_30_squares_agrees_with_an_independent_search(shape, wrap):
    check_existence(shape, wrap)


@pytest.mark.slow  # 326 boards, about two minutes
def test_existence_on_every_board_up_to_30_squares():
    for shape, wrap in shapes_up_to(30):
        check_existence(shape, wrap)


COUNTS_FROM_A_CORNER = [((3, 5), "both"), ((3, 6), "cols"), ((2, 2, 5), None)]
SLOW_COUNTS = [
    ((4, 5), "both"),
    ((3, 6), "both"),
    ((4, 6), "rows"),
    ((3, 8), "cols"),
    ((2, 3, 4), None),
    # 25 to 27 squares: the memoised count takes one to two minutes each way
    ((5, 5), "rows"),
    ((2, 13), "cols"),
    ((3, 9), "cols"),
]


@pytest.mark.parametrize(
    ("shape", "wrap"),
    [*COUNTS_FROM_A_CORNER, *(pytest.param(*c, marks=pytest.mark.slow) for c in SLOW_COUNTS)],
)
def test_counts_from_a_corner_agree_with_a_memoised_count(shape, wrap):
    # The 3 x 5 torus's open count once stopped the compiled kernel (nine candidate edges
    # at one step: eight moves and the virtual vertex); it runs in C now.
    adj = leaper_adjacency(shape, wrap)
    board = board_of(shape, wrap)
    first = next(iter(adj))
    for closed in (False, True):
        truth = count_hamiltonian_from(adj, first, closed)
        counted = kg.count_tours(board, closed=closed, start=first, timeout=300)
        assert counted.directed == truth, (shape, wrap, closed)


def test_the_4x4_torus_is_the_4_cube():
    # The 4x4 toroidal knight graph is the hypercube Q4: 1344 Hamiltonian cycles (A066037).
    assert kg.count_tours(topology_board(4, 4, wrap="both"), closed=True).undirected == 1344


def test_names_and_graph():
    torus = topology_board(5, 5, wrap="both")
    assert torus.index("e5") == torus.index((4, 4))
    graph = kg.knight_graph(torus)
    assert graph.number_of_edges() == 100 and graph.nodes[(0, 0)]["name"] == "a1"
    cube = topology_board(3, 3, levels=3)
    assert cube.index("b2:2") == cube.index((1, 1, 1)) and not cube.adj[cube.index("b2:2")]
    res = kg.tour_exists(cube)  # the centre of the 3x3x3 cube has no 3-D knight move
    assert res.certificate.kind == "degree"
    res = kg.find_tour(torus, closed=True, start="c3", end="e4")
    assert res.found and res.tour.algebraic()[0] == "c3" and res.tour.algebraic()[-1] == "e4"


def test_bad_topology_is_refused():
    with pytest.raises(kg.InvalidOptionError, match="sideways"):
        topology_board(4, 4, wrap="sideways")
    with pytest.raises(kg.InvalidBoardError, match="0"):
        topology_board(4, 0)
    with pytest.raises(kg.InvalidBoardError, match="squares"):
        topology_board(1000, 1000, wrap="both")
    with pytest.raises(kg.InvalidSquareError, match="z9"):
        kg.find_tour(topology_board(4, 4, wrap="both"), start="z9")


# ------------------------------------------------------------- command line
def test_command_line(capsys):
    import json

    from knightgraph.cli import main

    assert main(["tour", "5", "5", "--wrap", "both", "--closed", "--start", "c3"]) == 0
    names = capsys.readouterr().out.split()
    adj = leaper_adjacency((5, 5), "both")
    files = "abcde"
    squares = [(int(s[1:]) - 1, files.index(s[0])) for s in names]
    assert squares[0] == (2, 2) and valid(adj, squares, True)
    assert main(["exists", "3", "3", "--levels", "3", "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["exists"] is False and out["certificate"]["kind"] == "degree"
    assert main(["count", "4", "4", "--wrap", "both", "--closed", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["undirected"] == 1344 and out["wrap"] == "both"
    assert main(["tour", "2", "3", "--levels", "4", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    adj = leaper_adjacency((2, 3, 4), None)
    assert valid(adj, [tuple(s) for s in out["squares"]], False)
    for bad in (
        ["tour", "4", "4", "--wrap", "both", "--method", "warnsdorff"],
        ["tour", "4", "4", "--wrap", "both", "--start", "z9"],
        ["verify", "4", "4", "--wrap", "both"],
        ["tour", "4", "4", "--levels", "0"],
        ["count", "4", "4", "--wrap", "both", "--symmetry"],
    ):
        assert main(bad) == 2, bad
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_large_torus_and_3d_board_get_tours_fast():
    for shape, wrap in (((60, 60), "both"), ((12, 12, 6), None)):
        adj = leaper_adjacency(shape, wrap)
        board = board_of(shape, wrap)
        res = kg.find_tour(board, closed=True, seed=1, timeout=60)
        assert res.found and valid(adj, res.tour.nodes(), True), res.reason


def test_drawing_marks_the_wrap_moves():
    from knightgraph.draw.shapeplot import draw_graph_tour

    tour = kg.find_tour(topology_board(6, 6, wrap="both"), closed=True).tour
    ax = draw_graph_tour(tour, numbers=True)
    moves_drawn, stubs = ax.collections[-2:]
    names = tour.algebraic()
    wraps = sum(
        1
        for a, b in zip(names, names[1:] + names[:1], strict=True)
        if abs(ord(a[0]) - ord(b[0])) > 2 or abs(int(a[1:]) - int(b[1:])) > 2
    )
    assert len(stubs.get_segments()) == 2 * wraps and wraps > 0
    assert len(moves_drawn.get_segments()) + wraps == 36 and len(ax.texts) == 36
    cube = kg.find_tour(topology_board(2, 3, levels=4)).tour
    assert len(draw_graph_tour(cube).collections[-2].get_segments()) == 23


def test_draw_tour_on_the_command_line(tmp_path, capsys):
    from knightgraph.cli import main

    out = tmp_path / "torus.png"
    assert main(["draw", "tour", "6", "6", "--wrap", "both", "--closed", "-o", str(out)]) == 0
    assert out.stat().st_size > 0 and "torus 6x6" in capsys.readouterr().out
    assert main(["draw", "tour", "3", "3", "--levels", "3", "-o", str(tmp_path / "c.png")]) == 1
    assert not (tmp_path / "c.png").exists()
    capsys.readouterr()
    assert main(["draw", "graph", "3", "3", "--levels", "3", "-o", str(out)]) == 2
    assert capsys.readouterr().err == (  # before any work: the board kind's flags
        "knightgraph draw: error: --wrap and --levels apply to tour, exists, count, sample, "
        "starts, ends, verify and draw tour only\n"
    )


def test_verify_on_the_command_line(tmp_path, capsys):
    from knightgraph.cli import main

    path = tmp_path / "tour.json"
    assert (
        main(["tour", "5", "5", "--wrap", "both", "--closed", "--format", "json", "-o", str(path)])
        == 0
    )
    assert main(["verify", "5", "5", str(path), "--wrap", "both"]) == 0
    assert "ok: a valid closed tour of the torus 5x5" in capsys.readouterr().out
    assert main(["verify", "5", "5", str(path), "--wrap", "cols"]) == 1  # not a cylinder tour
    text = tmp_path / "tour.txt"
    text.write_text("a1:1 b2:1")
    assert main(["verify", "2", "3", str(text), "--levels", "4"]) == 1
    assert "invalid" in capsys.readouterr().out
