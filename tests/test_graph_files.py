"""Graph files (issue 29, item 4): ``read_graph`` and ``knightgraph tour|exists --graph FILE``.

Each format is written here, from networkx's graphs (HCP and DIMACS by the test's own few
lines), then read back and held to facts: the Petersen graph has a Hamiltonian path and
no Hamiltonian cycle (the "no" a certificate that ``python -m knightgraph.certcheck``
accepts from the JSON alone), the dodecahedron has a Hamiltonian cycle.  Every tour the
command line prints is checked by the test's own adjacency sets, built from the graph it
wrote, never by knightgraph.  Every malformed file is exit 2 with one line on standard
error naming the file, no traceback.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import networkx as nx
import pytest
from cli_support import call, one_line, run_cli, subprocess_env

from knightgraph.exceptions import InvalidBoardError, InvalidOptionError, TourFormatError
from knightgraph.io.graphfiles import EXTENSIONS, FORMATS, format_of, read_graph

PETERSEN = nx.petersen_graph()
DODECAHEDRON = nx.dodecahedral_graph()


# ------------------------------------------------------------- the test's writers
def hcp_text(graph: nx.Graph, *, lists: bool = False) -> str:
    """An HCP file of ``graph`` (nodes 0..n-1), its vertices 1..n."""
    head = ["NAME : test", "COMMENT : written by the test", "TYPE : HCP"]
    head += [f"DIMENSION : {graph.number_of_nodes()}"]
    if lists:
        head += ["EDGE_DATA_FORMAT : ADJ_LIST", "EDGE_DATA_SECTION"]
        body = [" ".join(str(v + 1) for v in [u, *sorted(graph[u])]) + " -1" for u in graph]
        return "\n".join([*head, *body, "-1", "EOF"]) + "\n"
    head += ["EDGE_DATA_FORMAT : EDGE_LIST", "EDGE_DATA_SECTION"]
    body = [f" {u + 1} {v + 1}" for u, v in graph.edges()]
    return "\n".join([*head, *body, "-1", "EOF"]) + "\n"


def dimacs_text(graph: nx.Graph) -> str:
    lines = ["c written by the test", f"p edge {graph.number_of_nodes()} {graph.number_of_edges()}"]
    return "\n".join(lines + [f"e {u + 1} {v + 1}" for u, v in graph.edges()]) + "\n"


WRITERS = {
    "hcp": ("g.hcp", lambda g, p: p.write_text(hcp_text(g))),
    "dimacs": ("g.col", lambda g, p: p.write_text(dimacs_text(g))),
    "edgelist": ("g.edgelist", lambda g, p: nx.write_edgelist(g, p)),
    "adjlist": ("g.adjlist", lambda g, p: nx.write_adjlist(g, p)),
    "graphml": ("g.graphml", lambda g, p: nx.write_graphml(g, p)),
    "gml": ("g.gml", lambda g, p: nx.write_gml(g, p)),
    "graph6": ("g.g6", lambda g, p: nx.write_graph6(g, p)),
    "sparse6": ("g.s6", lambda g, p: nx.write_sparse6(g, p)),
    "pajek": ("g.net", lambda g, p: nx.write_pajek(g, p)),
    "json": ("g.json", lambda g, p: p.write_text(json.dumps(nx.node_link_data(g, edges="edges")))),
}
"""Each format: the file's name and how the test writes a graph of nodes 0..n-1 in it."""


def write(fmt: str, graph: nx.Graph, folder) -> str:
    name, writer = WRITERS[fmt]
    path = folder / name
    writer(graph, path)
    return str(path)


def node_of(fmt: str, name: str) -> int:
    """The node (0..n-1) of the test's graph that the file names ``name``."""
    return int(name) - 1 if fmt in ("hcp", "dimacs") else int(name)


def check_tour(fmt: str, graph: nx.Graph, names: list[str], closed: bool) -> None:
    """The test's own check: every vertex once, consecutive vertices adjacent."""
    adjacent = {v: set(graph[v]) for v in graph}
    nodes = [node_of(fmt, name) for name in names]
    assert sorted(nodes) == sorted(graph), f"not every vertex once: {names}"
    steps = list(itertools.pairwise(nodes)) + ([(nodes[-1], nodes[0])] if closed else [])
    assert all(b in adjacent[a] for a, b in steps), f"a step is not an edge: {names}"


def test_every_format_has_a_writer_and_an_extension():
    assert set(WRITERS) == set(FORMATS) == set(EXTENSIONS.values())


# ------------------------------------------------------------------- read_graph
@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_reads_the_petersen_graph(fmt, tmp_path):
    graph = read_graph(write(fmt, PETERSEN, tmp_path))
    assert type(graph) is nx.Graph
    assert graph.number_of_nodes() == 10 and graph.number_of_edges() == 15
    edges = {frozenset(node_of(fmt, str(v)) for v in e) for e in graph.edges()}
    assert edges == {frozenset(e) for e in PETERSEN.edges()}
    assert format_of(str(tmp_path / WRITERS[fmt][0]), b"") == fmt


def test_hcp_keeps_the_file_numbers_and_its_isolated_vertices(tmp_path):
    path = tmp_path / "g.hcp"
    path.write_text("TYPE: HCP\nDIMENSION :5\nEDGE_DATA_SECTION\n1 2 2 3\n3 2\n-1\n")
    graph = read_graph(path)
    assert list(graph) == [1, 2, 3, 4, 5]  # 4 and 5 isolated; the repeated edge counted once
    assert sorted(graph.edges()) == [(1, 2), (2, 3)]


def test_hcp_adjacency_lists_and_coordinates(tmp_path):
    path = tmp_path / "g.hcp"
    text = hcp_text(DODECAHEDRON, lists=True).replace("EOF\n", "")
    text += "DISPLAY_DATA_SECTION\n" + "".join(f"{v + 1} {v}.5 {-v}\n" for v in range(20))
    path.write_text(text + "EOF\n")
    graph = read_graph(path)
    assert nx.is_isomorphic(graph, DODECAHEDRON)
    assert graph.nodes[3]["pos"] == (2.5, -2.0)


def test_hcp_eof_may_stand_for_the_closing_minus_one():
    text = "TYPE : HCP\nDIMENSION : 3\nEDGE_DATA_SECTION\n1 2\n2 3\nEOF\n"
    assert read_graph(_stream(text), "hcp").number_of_edges() == 2


def test_dimacs_counts_edges_listed_once_or_both_ways():
    both = "p col 3 2\ne 1 2\ne 2 1\ne 2 3\ne 3 2\n"
    assert sorted(read_graph(_stream(both)).edges()) == [(1, 2), (2, 3)]
    with pytest.raises(TourFormatError, match=r"announces 2 edges, the file has 3 e lines$"):
        read_graph(_stream("p edge 3 2\ne 1 2\ne 2 3\ne 1 3\n"))


def test_the_content_names_the_format_when_the_extension_does_not(tmp_path):
    (tmp_path / "petersen.txt").write_text(hcp_text(PETERSEN))
    (tmp_path / "petersen.data").write_text(dimacs_text(PETERSEN))
    for name in ("petersen.txt", "petersen.data"):
        assert read_graph(tmp_path / name).number_of_edges() == 15
    (tmp_path / "pairs.txt").write_text("1 2\n2 3\n")
    with pytest.raises(InvalidOptionError, match="its format is not known"):
        read_graph(tmp_path / "pairs.txt")


def test_directed_graphs_loops_and_huge_sizes_are_refused(tmp_path):
    nx.write_graphml(nx.DiGraph([(0, 1), (1, 2)]), tmp_path / "d.graphml")
    with pytest.raises(InvalidBoardError, match="it is directed"):
        read_graph(tmp_path / "d.graphml")
    with pytest.raises(TourFormatError, match=r"line 4: a loop at vertex 2$"):
        read_graph(_stream("TYPE : HCP\nDIMENSION : 3\nEDGE_DATA_SECTION\n2 2\n-1\n"))
    with pytest.raises(InvalidBoardError, match="a loop at vertex '1'"):
        read_graph(_stream("1 2 3\n1 1\n"), "adjlist")
    with pytest.raises(InvalidBoardError, match="DIMENSION 10,000,000 is more than"):
        read_graph(_stream("TYPE : HCP\nDIMENSION : 10000000\nEDGE_DATA_SECTION\n-1\n"))
    with pytest.raises(InvalidBoardError, match="68,719,476,735 vertices is more than"):
        read_graph(_stream(b":~~~~~~~~"), "sparse6")  # networkx would make every vertex


def _stream(text: str | bytes):
    import io

    return io.BytesIO(text) if isinstance(text, bytes) else io.StringIO(text)


# ------------------------------------------------------------- the command line
@pytest.mark.parametrize("fmt", FORMATS)
def test_petersen_has_a_path_in_every_format(fmt, tmp_path, capsys):
    path = write(fmt, PETERSEN, tmp_path)
    code, out, err = call(capsys, "tour", "--graph", path, "--open")
    assert (code, err) == (0, "")
    assert out.endswith("\n") and out.count("\n") == 1 and "  " not in out
    check_tour(fmt, PETERSEN, out.split(), closed=False)


def test_petersen_has_no_cycle_in_any_format_and_the_checker_agrees(tmp_path):
    answers = []
    for fmt in FORMATS:
        folder = tmp_path / fmt
        folder.mkdir()
        done = run_cli(
            "exists", "--graph", write(fmt, PETERSEN, folder), "--closed", "--format", "json"
        )
        assert done.returncode == 1, (fmt, done.stderr)
        answer = json.loads(done.stdout)
        assert answer["exists"] is False and answer["certificate"]["kind"] != "tour"
        assert answer["graph"].endswith(WRITERS[fmt][0]) and len(answer["vertices"]) == 10
        answers.append(done.stdout.strip())
    checked = subprocess.run(
        [sys.executable, "-m", "knightgraph.certcheck"],
        input="\n".join(answers),
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verdicts = checked.stdout.splitlines()
    assert len(verdicts) == len(FORMATS) and all(v.startswith("accepted: ") for v in verdicts)


@pytest.mark.parametrize("fmt", ["hcp", "dimacs"])
def test_the_dodecahedron_has_a_hamiltonian_cycle(fmt, tmp_path, capsys):
    path = write(fmt, DODECAHEDRON, tmp_path)
    code, out, _ = call(capsys, "exists", "--graph", path, "--closed")
    assert code == 0 and ": exists (a tour was found" in out
    code, out, _ = call(
        capsys, "tour", "--graph", path, "--closed", "--start", "7", "--format", "json"
    )
    answer = json.loads(out)
    assert code == 0 and answer["status"] == "found" and answer["start"] == "7"
    assert answer["squares"][0] == "7"
    check_tour(fmt, DODECAHEDRON, answer["squares"], closed=True)
    assert {k for k in answer if k not in ("certificate",)} >= {
        "graph", "vertices", "edges", "closed", "start", "end", "squares", "method",
        "seconds", "stats", "status", "reason",
    }  # fmt: skip


def test_ends_are_the_file_names_of_vertices(tmp_path, capsys):
    path = write("hcp", PETERSEN, tmp_path)
    code, out, _ = call(capsys, "tour", "--graph", path, "--start", "10", "--end", "3")
    names = out.split()
    assert code == 0 and (names[0], names[-1]) == ("10", "3")
    check_tour("hcp", PETERSEN, names, closed=False)
    code, _, err = call(capsys, "tour", "--graph", path, "--start", "0")
    assert code == 2 and "invalid square '0': not a vertex of the graph" in one_line(err)


def test_standard_input_is_read_by_its_content():
    done = run_cli("tour", "--graph", "-", "--closed", stdin=dimacs_text(DODECAHEDRON))
    assert done.returncode == 0, done.stderr
    check_tour("dimacs", DODECAHEDRON, done.stdout.split(), closed=True)


# --------------------------------------------------------------- bad requests
def test_sizes_and_graph_are_one_or_the_other(tmp_path, capsys):
    path = write("dimacs", PETERSEN, tmp_path)
    for args in (["8", "8", "--graph", path], ["--graph", path, "8"]):
        code, out, err = call(capsys, "tour", *args)
        assert (code, out) == (2, "")
        assert (
            one_line(err)
            == "knightgraph tour: error: --graph FILE takes no M N: the board is the graph in the file"
        )
    # without either, argparse's own words, as before --graph
    for args, missing in (
        (["exists", "8"], "N"),
        (["tour"], "M, N"),
        (["tour", "--closed"], "M, N"),
    ):
        code, _, err = call(capsys, *args)
        assert code == 2
        assert (
            err
            == f"knightgraph {args[0]}: error: the following arguments are required: {missing}\n"
        )


@pytest.mark.parametrize(
    "flags",
    [
        ["--leaper", "1,3"],
        ["--remove", "a1"],
        ["--wrap", "both"],
        ["--levels", "2"],
        ["--moves", "1,2"],
        ["--prune"],
        ["--no-repair"],
        ["--format", "board"],
        ["--format", "npy", "-o", "x.npy"],
        ["--method", "warnsdorff"],
    ],
)
def test_flags_of_square_boards_are_refused_with_graph(flags, tmp_path, capsys):
    path = write("hcp", PETERSEN, tmp_path)
    code, out, err = call(capsys, "tour", "--graph", path, *flags)
    assert (code, out) == (2, "")
    assert flags[0].lstrip("-").split("-")[-1] in one_line(err)


GOOD = "NAME : g\nTYPE : HCP\nDIMENSION : 4\nEDGE_DATA_SECTION\n1 2\n2 3\n3 4\n4 1\n-1\nEOF\n"
MALFORMED = {
    "no-dimension.hcp": (
        GOOD.replace("DIMENSION : 4\n", ""),
        "EDGE_DATA_SECTION before the DIMENSION line",
    ),
    "out-of-range.hcp": (GOOD.replace("3 4\n", "3 5\n"), "line 7: vertex 5 is out of range 1..4"),
    "not-a-number.hcp": (
        GOOD.replace("2 3\n", "2 three\n"),
        "line 6: 'three' is not a vertex number",
    ),
    "truncated.hcp": (GOOD[: GOOD.index("3 4")], "the file ends inside EDGE_DATA_SECTION"),
    "half-edge.hcp": (GOOD[: GOOD.index(" 4\n4 1")], "the file ends inside the edge of vertex 3"),
    "wrong-type.hcp": (GOOD.replace("HCP", "TSP"), "line 2: TYPE is 'TSP', not HCP"),
    "bad-dimension.hcp": (
        GOOD.replace(": 4", ": 4.5"),
        "DIMENSION '4.5' is not a whole number >= 1",
    ),
    "unknown-key.hcp": (GOOD.replace("NAME", "NAEM"), "line 1: unknown keyword 'NAEM'"),
    "empty.hcp": ("", "it is empty"),
    "junk.hcp": (bytes(range(256)) * 4, "not UTF-8 text"),
    "junk": (b"\x00\x01\x02\xff" * 64, "its format is not known"),
    "truncated.col": (
        "p edge 4 4\ne 1 2\ne 2 3\n",
        "announces 4 edges, the file has 2 e lines (truncated?)",
    ),
    "range.col": ("p edge 3 1\ne 1 9\n", "line 2: vertex 9 is out of range 1..3"),
    "no-p.col": ("c nothing\ne 1 2\n", "line 2: an e line before the 'p edge N M' line"),
    "bad.graphml": ("<graphml><graph", "not graphml:"),
    "bad.gml": ("graph [ node [ id 0 ", "not gml:"),
    "bad.json": ('{"nodes": [{"id": 0}], "edges": [{"source": 0}]}', "not json:"),
    "two.g6": ("Bw\nBw\n", "it holds 2 graph6 lines"),
    "one.edgelist": ("a b\nc\n", "line 2: 'c' is not an edge 'u v'"),
}
"""Malformed files: their content and what the one line says of them."""


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_file_is_one_line_naming_it(name, tmp_path, capsys):
    content, said = MALFORMED[name]
    path = tmp_path / name
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    code, out, err = call(capsys, "exists", "--graph", str(path), "--closed")
    line = one_line(err)
    assert (code, out) == (2, "")
    assert line.startswith("knightgraph exists: error: ") and repr(str(path)) in line
    assert said in line


@pytest.mark.parametrize("case", ["missing", "folder", "malformed", "directed"])
def test_files_that_cannot_be_boards_in_a_process(case, tmp_path):
    path = tmp_path / {"folder": "dir.hcp", "directed": "d.gml"}.get(case, "g.hcp")
    if case == "folder":
        path.mkdir()
    elif case == "malformed":
        path.write_text(GOOD.replace("4 1\n", "4\n"))  # a lone 4 before the -1
    elif case == "directed":
        nx.write_gml(nx.DiGraph(PETERSEN), path)
    done = run_cli("tour", "--graph", str(path))
    line = one_line(done.stderr)
    assert (done.returncode, done.stdout) == (2, "")
    assert line.startswith("knightgraph tour: error: cannot ") and repr(str(path)) in line
    assert {
        "missing": "No such file or directory",
        "folder": "it is a folder",
        "malformed": "line 9: -1 after vertex 4 (line 8), a lone end",
        "directed": "it is directed",
    }[case] in line
