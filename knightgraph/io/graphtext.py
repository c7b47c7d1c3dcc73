"""The line formats of graph files, read with line numbers: TSPLIB/FHCP HCP, DIMACS, edge lists.

The readers behind :func:`knightgraph.io.graphfiles.read_graph` for the formats whose
defects can be named by their line: each takes the file's text and a :class:`GraphSource`
(the file's name, for messages) and returns a :class:`networkx.Graph`, or raises
:class:`~knightgraph.TourFormatError` naming the file, the line and the bad value
(:class:`~knightgraph.InvalidBoardError` for a graph too large to be a board).  The
formats themselves are described in :func:`~knightgraph.io.graphfiles.read_graph`.

Examples
--------
>>> source = GraphSource("triangle.col")
>>> sorted(read_dimacs("p edge 3 3\\ne 1 2\\ne 2 3\\ne 3 1\\n", source).edges())
[(1, 2), (1, 3), (2, 3)]
>>> read_dimacs("p edge 3 3\\ne 1 2\\ne 2 3\\n", source)
Traceback (most recent call last):
...
knightgraph.exceptions.TourFormatError: cannot read graph 'triangle.col': the p line (line 1) announces 3 edges, the file has 2 e lines (truncated?)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..exceptions import InvalidBoardError, TourFormatError, describe_value

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["MAX_VERTICES", "GraphSource", "read_dimacs", "read_edgelist", "read_hcp"]

MAX_VERTICES = 100_000
"""Most vertices a graph file may have (the graph layer is for graphs of about 10^4)."""

_WHOLE = re.compile(r"-?[0-9]+")
_HCP_KEYS = frozenset(
    [
        "NAME",
        "TYPE",
        "COMMENT",
        "DIMENSION",
        "CAPACITY",
        "EDGE_DATA_FORMAT",
        "EDGE_WEIGHT_TYPE",
        "EDGE_WEIGHT_FORMAT",
        "NODE_COORD_TYPE",
        "DISPLAY_DATA_TYPE",
    ]
)
"""The keywords of TSPLIB's specification part (an HCP file needs TYPE and DIMENSION)."""

_SECTIONS = ("EDGE_DATA_SECTION", "NODE_COORD_SECTION", "DISPLAY_DATA_SECTION")


class GraphSource:
    """The file being read, for messages: ``cannot read graph 'NAME': line K: ...``.

    Examples
    --------
    >>> GraphSource("g.hcp").error("vertex 9 is out of range 1..8", 7)
    TourFormatError("cannot read graph 'g.hcp': line 7: vertex 9 is out of range 1..8")
    >>> GraphSource("g.gml").refuse("it is directed")
    InvalidBoardError("cannot use graph 'g.gml': it is directed")
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def error(self, what: str, line: int | None = None) -> TourFormatError:
        """A malformed file: the file, the line (when known) and the defect."""
        where = "" if line is None else f"line {line}: "
        return TourFormatError(f"cannot read graph {self.name!r}: {where}{what}")

    def refuse(self, what: str) -> InvalidBoardError:
        """A graph read whole that cannot be a board."""
        return InvalidBoardError(f"cannot use graph {self.name!r}: {what}")


def _whole(word: str, src: GraphSource, line: int, what: str = "a vertex number") -> int:
    if not _WHOLE.fullmatch(word):
        raise src.error(f"{describe_value(word)} is not {what}", line)
    return int(word)


def _count(word: str, src: GraphSource, line: int, key: str) -> int:
    """A vertex count (``DIMENSION``, DIMACS's N): a whole number from 1 to MAX_VERTICES."""
    if not _WHOLE.fullmatch(word) or int(word) < 1:
        raise src.error(f"{key} {describe_value(word)} is not a whole number >= 1", line)
    if int(word) > MAX_VERTICES:
        raise src.refuse(
            f"{key} {int(word):,} is more than the {MAX_VERTICES:,} vertices a graph may have"
        )
    return int(word)


def _numbered(n: int) -> nx.Graph:
    """The graph of the vertices ``1 .. n``, no edges yet."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(1, n + 1))
    return graph


# ---------------------------------------------------------------------------- HCP
def read_hcp(text: str, src: GraphSource) -> nx.Graph:
    """The graph of a TSPLIB/FHCP HCP file (its vertices ``1 .. DIMENSION``).

    Examples
    --------
    >>> hcp = "NAME : path\\nTYPE : HCP\\nDIMENSION : 3\\nEDGE_DATA_SECTION\\n1 2\\n2 3\\n-1\\n"
    >>> g = read_hcp(hcp, GraphSource("path.hcp"))
    >>> list(g.edges()), g.graph["name"]
    ([(1, 2), (2, 3)], 'path')
    >>> read_hcp(hcp.replace("HCP", "TSP"), GraphSource("path.hcp"))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read graph 'path.hcp': line 2: TYPE is 'TSP', not HCP
    """
    lines = text.splitlines()
    header: dict[str, tuple[str, int]] = {}  # keyword: (value, line)
    graph: nx.Graph | None = None  # made at the first section, from the header
    edges = 0  # the line of EDGE_DATA_SECTION
    k = 0
    while k < len(lines):
        line, content = k + 1, lines[k].strip()
        k += 1
        if not content:
            continue
        if content == "EOF":
            break
        key, colon, value = content.partition(":")
        key = key.strip().upper()
        if colon and key not in _SECTIONS:
            if key not in _HCP_KEYS:
                raise src.error(f"unknown keyword {describe_value(key)}", line)
            if key in header:
                raise src.error(f"a second {key} line (the first is line {header[key][1]})", line)
            if graph is not None:
                raise src.error(f"{key} after a data section (the keywords come first)", line)
            header[key] = (value.strip(), line)
            continue
        if key not in _SECTIONS or value.strip():
            raise src.error(
                f"{describe_value(content)} is not 'KEYWORD : value' or a section", line
            )
        if "DIMENSION" not in header:
            raise src.error(f"{key} before the DIMENSION line", line)
        graph = _hcp_head(header, src) if graph is None else graph
        if key != "EDGE_DATA_SECTION":
            k = _hcp_coordinates(lines, k, graph, src)
        elif edges:
            raise src.error(f"a second EDGE_DATA_SECTION (the first is line {edges})", line)
        else:
            edges = line
            k = _hcp_edges(lines, k, graph, header, src)
    if graph is None or not edges:
        raise src.error("no EDGE_DATA_SECTION (an HCP file lists its edges there)")
    return graph


def _hcp_head(header: dict[str, tuple[str, int]], src: GraphSource) -> nx.Graph:
    """The graph of the header: ``TYPE : HCP``, ``DIMENSION`` vertices, ``NAME``, ``COMMENT``."""
    kind, line = header.get("TYPE", ("", 0))
    if not line:
        raise src.error("no TYPE line (an HCP file says TYPE : HCP)")
    if kind.upper() != "HCP":
        raise src.error(f"TYPE is {describe_value(kind)}, not HCP", line)
    value, line = header["DIMENSION"]
    graph = _numbered(_count(value, src, line, "DIMENSION"))
    for key in ("NAME", "COMMENT"):
        if key in header:
            graph.graph[key.lower()] = header[key][0]
    form, line = header.get("EDGE_DATA_FORMAT", ("EDGE_LIST", 0))
    if form.upper() not in ("EDGE_LIST", "ADJ_LIST"):
        raise src.error(
            f"EDGE_DATA_FORMAT {describe_value(form)} is not EDGE_LIST or ADJ_LIST", line
        )
    return graph


def _hcp_edges(
    lines: list[str], k: int, graph: nx.Graph, header: dict[str, tuple[str, int]], src: GraphSource
) -> int:
    """Read EDGE_DATA_SECTION from line index ``k`` into ``graph``; the index after it.

    The section ends at a ``-1`` where a pair (a list) would begin, or at ``EOF`` there.
    """
    n = graph.number_of_nodes()
    lists = header.get("EDGE_DATA_FORMAT", ("EDGE_LIST", 0))[0].upper() == "ADJ_LIST"
    held: tuple[int, int] | None = None  # (vertex, line): a pair's first end, or a list's head
    eof = 0
    for i in range(k, len(lines)):
        line, words = i + 1, lines[i].split()
        if words == ["EOF"]:
            if held is None:
                return i
            eof = line
            break
        for j, word in enumerate(words):
            v = _whole(word, src, line)
            if v == -1:
                if held is None:  # the end of the section
                    if j + 1 < len(words):
                        after = describe_value(words[j + 1])
                        raise src.error(f"{after} after the -1 that ends EDGE_DATA_SECTION", line)
                    return i + 1
                if not lists:
                    raise src.error(f"-1 after vertex {held[0]} (line {held[1]}), a lone end", line)
                held = None
            elif not 1 <= v <= n:
                raise src.error(f"vertex {v} is out of range 1..{n} (DIMENSION : {n})", line)
            elif held is None:
                held = (v, line)
            elif held[0] == v:
                raise src.error(f"a loop at vertex {v}", line)
            else:
                graph.add_edge(held[0], v)
                held = held if lists else None
    what = "EDGE_DATA_SECTION"
    if held is not None:
        kind = "adjacency list" if lists else "edge"
        what = f"the {kind} of vertex {held[0]} (line {held[1]})"
    if eof:
        raise src.error(f"EOF inside {what}, before its closing -1", eof)
    raise src.error(f"the file ends inside {what}, before its closing -1 (truncated?)")


def _hcp_coordinates(lines: list[str], k: int, graph: nx.Graph, src: GraphSource) -> int:
    """Read a section of ``v x y`` lines (``pos``) from line index ``k``; the index after it."""
    n = graph.number_of_nodes()
    for i in range(k, len(lines)):
        words = lines[i].split()
        if not words:
            continue
        if not _WHOLE.fullmatch(words[0]):
            return i  # the next keyword, section or EOF
        v, shown = int(words[0]), describe_value(lines[i].strip())
        if not 1 <= v <= n or len(words) < 3:
            raise src.error(f"{shown} is not 'vertex x y' with a vertex in 1..{n}", i + 1)
        try:
            graph.nodes[v]["pos"] = (float(words[1]), float(words[2]))
        except ValueError:
            raise src.error(f"{shown} has a coordinate that is not a number", i + 1) from None
    return len(lines)


# ------------------------------------------------------------------------- DIMACS
def read_dimacs(text: str, src: GraphSource) -> nx.Graph:
    """The graph of a DIMACS file (``p edge N M``, ``e u v``): its vertices ``1 .. N``.

    Examples
    --------
    >>> read_dimacs("c two edges, listed both ways\\np edge 3 2\\ne 1 2\\ne 2 1\\ne 2 3\\ne 3 2",
    ...             GraphSource("g.col")).number_of_edges()
    2
    >>> read_dimacs("p edge 3 1\\ne 1 x\\n", GraphSource("g.col"))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read graph 'g.col': line 2: 'x' is not a vertex number
    """
    graph: nx.Graph | None = None
    announced = (0, 0, "")  # M, the p line's number, the p line
    edge_lines = 0
    for line, raw in enumerate(text.splitlines(), start=1):
        words = raw.split()
        if not words or words[0].startswith("c"):
            continue
        kind, shown = words[0], describe_value(raw.strip())
        if kind == "p":
            if graph is not None:
                raise src.error(f"a second p line (the first is line {announced[1]})", line)
            if len(words) != 4 or words[1] not in ("edge", "edges", "col"):
                raise src.error(f"{shown} is not 'p edge N M'", line)
            graph = _numbered(_count(words[2], src, line, "N"))
            m = _whole(words[3], src, line, "an edge count M")
            if m < 0:
                raise src.error(f"the edge count M {m} is negative", line)
            announced = (m, line, " ".join(words))
            continue
        if kind not in ("e", "n"):
            raise src.error(f"{shown} is not a c, p or e line", line)
        if graph is None:
            raise src.error(f"an {kind} line before the 'p edge N M' line", line)
        if (kind == "e" and len(words) != 3) or len(words) < 2:
            raise src.error(f"{shown} is not 'e u v'", line)
        ends = [_whole(w, src, line) for w in words[1 : 3 if kind == "e" else 2]]
        n = graph.number_of_nodes()
        for v in ends:
            if not 1 <= v <= n:
                raise src.error(f"vertex {v} is out of range 1..{n} ({announced[2]})", line)
        if kind == "e":
            if ends[0] == ends[1]:
                raise src.error(f"a loop at vertex {ends[0]}", line)
            graph.add_edge(*ends)
            edge_lines += 1
    if graph is None:
        raise src.error("no 'p edge N M' line")
    m = announced[0]
    if edge_lines != m and not (edge_lines == 2 * m and graph.number_of_edges() == m):
        short = " (truncated?)" if edge_lines < m else ""
        raise src.error(
            f"the p line (line {announced[1]}) announces {m} edges, "
            f"the file has {edge_lines} e lines{short}"
        )
    return graph


# ---------------------------------------------------------------------- edge lists
def read_edgelist(text: str, src: GraphSource) -> nx.Graph:
    """networkx's edge list: ``u v`` a line, then nothing, a dict or numbers; ``#`` comments.

    Examples
    --------
    >>> read_edgelist("a b {'weight': 2}\\nb c 3.5  # a comment\\n", GraphSource("g.edges")).edges()
    EdgeView([('a', 'b'), ('b', 'c')])
    >>> read_edgelist("a b\\nc\\n", GraphSource("g.edges"))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read graph 'g.edges': line 2: 'c' is not an edge 'u v'
    """
    import ast

    import networkx as nx

    graph = nx.Graph()
    for line, raw in enumerate(text.splitlines(), start=1):
        data = raw.split("#", 1)[0]
        words = data.split(maxsplit=2)
        if not words:
            continue
        if len(words) < 2:
            raise src.error(f"{describe_value(data.strip())} is not an edge 'u v'", line)
        rest = words[2].strip() if len(words) == 3 else ""
        if rest.startswith("{"):
            try:
                ok = isinstance(ast.literal_eval(rest), dict)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                ok = False
        else:
            ok = all(_is_number(w) for w in rest.split())
        if not ok:
            raise src.error(f"{describe_value(rest)} after the edge is not a dict or numbers", line)
        if words[0] == words[1]:
            raise src.error(f"a loop at vertex {describe_value(words[0])}", line)
        graph.add_edge(words[0], words[1])
    return graph


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True
