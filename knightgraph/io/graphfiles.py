"""Reading graph files: TSPLIB/FHCP HCP, DIMACS and networkx's own formats, as a networkx Graph.

:func:`read_graph` reads one undirected simple graph from a file (or a file object) and
returns it as a :class:`networkx.Graph`; ``knightgraph tour --graph FILE`` and ``knightgraph
exists --graph FILE`` take it as their board.  The format is named by the file's extension,
or given, or recognised from the content (:func:`format_of`):

============  ===============================  ==============================================
format        extensions                       vertices
============  ===============================  ==============================================
``hcp``       ``.hcp``                         ``1 .. DIMENSION`` (whole numbers)
``dimacs``    ``.col``, ``.clq``, ``.dimacs``  ``1 .. N`` of the ``p edge N M`` line
``edgelist``  ``.edgelist``, ``.edges``        the words of the file (text)
``adjlist``   ``.adjlist``                     the words of the file (text)
``graphml``   ``.graphml``                     the ``id`` of each ``node`` (text)
``gml``       ``.gml``                         each node's ``label`` (its ``id`` without one)
``graph6``    ``.g6``                          ``0 .. n-1``
``sparse6``   ``.s6``                          ``0 .. n-1``
``pajek``     ``.net``                         each vertex's label
``json``      ``.json``                        each node's ``id`` (networkx's node-link data)
============  ===============================  ==============================================

Every malformed file raises :class:`~knightgraph.TourFormatError`, and a graph that cannot
be a board (directed, with a loop, without vertices, too large) an
:class:`~knightgraph.InvalidBoardError`: one line naming the file, the line of the defect
(HCP, DIMACS, edge lists: :mod:`knightgraph.io.graphtext`) and the bad value; what
networkx's own parsers raise is caught and said in one line too.  A file that cannot be
read at all (missing, a folder, a device, more than :data:`FILE_LIMIT` bytes) or whose
format is not known raises :class:`~knightgraph.InvalidOptionError`.

Examples
--------
>>> import io
>>> square = "TYPE : HCP\\nDIMENSION : 4\\nEDGE_DATA_SECTION\\n1 2\\n2 3\\n3 4\\n4 1\\n-1\\nEOF\\n"
>>> sorted(read_graph(io.StringIO(square)).edges())
[(1, 2), (1, 4), (2, 3), (3, 4)]
>>> read_graph(io.StringIO("c a triangle\\np edge 3 3\\ne 1 2\\ne 2 3\\ne 3 1\\n")).number_of_edges()
3
>>> read_graph(io.StringIO("p edge 3 3\\ne 1 2\\ne 2 4\\n"))
Traceback (most recent call last):
...
knightgraph.exceptions.TourFormatError: cannot read graph '<stream>': line 3: vertex 4 is out of range 1..3 (p edge 3 3)
"""

from __future__ import annotations

import codecs
import os
import re
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidOptionError, describe_value
from ..running.disk import read_input
from .graphtext import MAX_VERTICES, GraphSource, read_dimacs, read_edgelist, read_hcp

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["EXTENSIONS", "FILE_LIMIT", "FORMATS", "MAX_VERTICES", "format_of", "read_graph"]

EXTENSIONS = {
    ".hcp": "hcp",
    ".col": "dimacs",
    ".clq": "dimacs",
    ".dimacs": "dimacs",
    ".edgelist": "edgelist",
    ".edges": "edgelist",
    ".adjlist": "adjlist",
    ".graphml": "graphml",
    ".gml": "gml",
    ".g6": "graph6",
    ".s6": "sparse6",
    ".net": "pajek",
    ".json": "json",
}
"""The format of a file by its extension (in any case)."""

FORMATS = (
    "hcp",
    "dimacs",
    "edgelist",
    "adjlist",
    "graphml",
    "gml",
    "graph6",
    "sparse6",
    "pajek",
    "json",
)
"""The formats :func:`read_graph` reads."""

FILE_LIMIT = 16 << 20
"""Bytes a graph file may hold (16 MiB: about a million edges)."""


def read_graph(source: Any, format: str | None = None) -> nx.Graph:
    """Read an undirected simple graph from a file: HCP, DIMACS or a networkx format.

    Parameters
    ----------
    source : str, path-like or file object
        The file (a regular file of at most :data:`FILE_LIMIT` bytes), or an open file
        object (text or binary; its ``name``, else ``<stream>``, names it in messages).
    format : str, optional
        One of :data:`FORMATS`; by default the file's extension says
        (:data:`EXTENSIONS`), else its content (:func:`format_of`).

    Returns
    -------
    networkx.Graph
        The graph; repeated edges count once.  HCP and DIMACS vertices are the whole
        numbers ``1 .. n`` of the file (isolated ones too), in that order; a networkx
        format's are what networkx reads (text for edge lists, adjacency lists, GraphML).

    Raises
    ------
    TourFormatError
        A malformed file: one line naming the file, the line and the bad value.
    InvalidBoardError
        A graph that cannot be a board: directed, with a loop, without vertices, with
        more than :data:`~knightgraph.io.graphtext.MAX_VERTICES`, or with two vertices
        of one name (``1`` and ``"1"``).
    InvalidOptionError
        A file that cannot be read (missing, a folder, too large) or an unknown format.

    Notes
    -----
    *HCP* (TSPLIB, the FHCP challenge set): ``KEYWORD : value`` lines first (``TYPE : HCP``
    and ``DIMENSION : n`` are required; ``NAME``, ``COMMENT`` and TSPLIB's other keywords
    are accepted), then ``EDGE_DATA_SECTION``: with ``EDGE_DATA_FORMAT : EDGE_LIST`` (the
    default) pairs of vertices ended by ``-1``; with ``ADJ_LIST``, lists ``v w1 w2 ... -1``,
    the section ended by one more ``-1``.  A line ``EOF`` ends the file; where the section
    could end it stands for the closing ``-1``, but a file that ends with neither is
    truncated.  ``NODE_COORD_SECTION`` / ``DISPLAY_DATA_SECTION`` (``v x y``) give the
    vertices' ``pos``.  A loop is refused.

    *DIMACS* (the graph colouring and clique benchmarks): ``c`` comment lines, one ``p edge
    N M`` line (``p col`` too), then ``e u v`` lines (and ``n v ...`` lines, whose vertex
    is checked and value ignored).  The file must have ``M`` edge lines, or ``2M`` that
    list each of ``M`` edges both ways; fewer is a truncated file, more an error too.

    *networkx's formats* are read by networkx (``parse_adjlist``, ``read_graphml``,
    ``parse_gml``, ``from_graph6_bytes``, ``from_sparse6_bytes``, ``parse_pajek``,
    ``node_link_graph``), but for edge lists, whose lines are checked here: ``u v`` then
    nothing, a dict (``{'weight': 2}``, as ``write_edgelist`` writes) or numbers; ``#``
    starts a comment.  A graph6 or sparse6 file holds one graph (its size is checked
    before networkx builds it).  Directed graphs (GraphML, GML, Pajek ``*arcs``, JSON)
    are refused: their tours would follow the arrows.

    Examples
    --------
    >>> import io, os, tempfile
    >>> import networkx as nx
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "petersen.g6")
    ...     nx.write_graph6(nx.petersen_graph(), path)
    ...     g = read_graph(path)
    >>> g.number_of_nodes(), g.number_of_edges()
    (10, 15)
    >>> lists = "TYPE : HCP\\nDIMENSION : 3\\nEDGE_DATA_FORMAT : ADJ_LIST\\nEDGE_DATA_SECTION\\n1 2 3 -1\\n2 3 -1\\n-1\\n"
    >>> sorted(read_graph(io.StringIO(lists), "hcp").edges())
    [(1, 2), (1, 3), (2, 3)]
    >>> read_graph(io.StringIO("TYPE : HCP\\nEDGE_DATA_SECTION\\n1 2\\n-1\\n"))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read graph '<stream>': line 2: EDGE_DATA_SECTION before the DIMENSION line
    >>> read_graph(io.StringIO("a b\\nb c\\n"), "edgelist").edges()
    EdgeView([('a', 'b'), ('b', 'c')])
    >>> read_graph(io.StringIO('graph [ directed 1 node [ id 0 ] ]'), "gml")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidBoardError: cannot use graph '<stream>': it is directed (tours of undirected graphs only)
    """
    name, data = _load(source)
    src = GraphSource(name)
    if format is None:
        format = format_of(name, data)
    if format not in FORMATS:
        raise InvalidOptionError(
            f"unknown graph format {format!r}: choose from {', '.join(FORMATS)}"
        )
    if not data.strip():
        raise src.error("it is empty")
    if format in ("graph6", "sparse6"):
        return _checked(_read_six(data, format, src), src)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        byte = data[err.start]
        raise src.error(f"not UTF-8 text (byte {byte:#04x} at offset {err.start})") from None
    readers = {"hcp": read_hcp, "dimacs": read_dimacs, "edgelist": read_edgelist}
    if format in readers:
        return _checked(readers[format](text, src), src)
    return _checked(_read_networkx(text, data, format, src), src)


def format_of(name: str, data: bytes) -> str:
    """The format of a file: by its extension (:data:`EXTENSIONS`), else by its content
    (an HCP header, a DIMACS ``c`` or ``p`` line, GraphML, GML, JSON, Pajek, graph6 or
    sparse6 with their ``>>graph6<<`` / ``>>sparse6<<`` header, sparse6's leading ``:``).

    Edge and adjacency lists are known by their extension only: ``1 2`` is both.

    Examples
    --------
    >>> format_of("petersen.HCP", b""), format_of("data.txt", b"c from DIMACS\\np edge 5 0\\n")
    ('hcp', 'dimacs')
    >>> format_of("g", b"NAME : g\\nTYPE : HCP\\n"), format_of("g", b'{"nodes": []}')
    ('hcp', 'json')
    >>> format_of("g.txt", b"1 2\\n")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: cannot read graph 'g.txt': its format is not known: name it by an extension (.hcp, .col, .clq, .dimacs, .edgelist, .edges, .adjlist, .graphml, .gml, .g6, .s6, .net, .json) or begin it with an HCP header or a DIMACS 'p edge N M' line
    """
    extension = os.path.splitext(name)[1].lower()
    if extension in EXTENSIONS:
        return EXTENSIONS[extension]
    head = data[:4096].removeprefix(codecs.BOM_UTF8).lstrip()
    first = (head.split(maxsplit=1) or [b""])[0]
    if re.match(rb"[A-Za-z_]+\s*:", head) or first == b"EDGE_DATA_SECTION":
        return "hcp"
    if first in (b"c", b"p"):
        return "dimacs"
    for prefix, found in (
        (b">>graph6<<", "graph6"),
        (b">>sparse6<<", "sparse6"),
        (b":", "sparse6"),
        (b"<", "graphml"),
        (b"{", "json"),
    ):
        if head.startswith(prefix):
            return found
    if re.search(rb"(?m)^\s*graph\s*\[", head):
        return "gml"
    if head[:9].lower() in (b"*vertices", b"*network"):
        return "pajek"
    raise InvalidOptionError(
        f"cannot read graph {name!r}: its format is not known: name it by an extension "
        f"({', '.join(EXTENSIONS)}) or begin it with an HCP header or a DIMACS 'p edge N M' line"
    )


def _load(source: Any) -> tuple[str, bytes]:
    """The name and the bytes of a file or a file object (at most :data:`FILE_LIMIT`)."""
    if not hasattr(source, "read"):
        name = os.fspath(source) if isinstance(source, str | os.PathLike) else source
        data = read_input(name, "graph", limit=FILE_LIMIT)  # checks the name too
        return str(name), data
    name = getattr(source, "name", None)
    name = name if isinstance(name, str) else "<stream>"
    data = source.read(FILE_LIMIT + 1)
    data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if len(data) > FILE_LIMIT:
        raise InvalidOptionError(
            f"cannot read graph {name!r}: more than the {FILE_LIMIT >> 20} MiB a graph may hold"
        )
    return name, data


def _six_size(body: bytes) -> int | None:
    """The vertex count a graph6 or sparse6 line begins with (6, 18 or 36 bits), or None.

    Examples
    --------
    The examples of the format's description (McKay's ``formats.txt``):

    >>> _six_size(b"]"), _six_size(b"~B?x"), _six_size(b"~~?ZZZZZ"), _six_size(b"~B")
    (30, 12345, 460175067, None)
    """
    codes = [c - 63 for c in body[:8]]
    if not codes or any(not 0 <= c < 64 for c in codes):
        return None
    if codes[0] < 63:
        return codes[0]
    wide = codes[1:2] == [63]
    digits = codes[2:8] if wide else codes[1:4]
    if len(digits) < (6 if wide else 3):
        return None
    return sum(d << 6 * (len(digits) - 1 - i) for i, d in enumerate(digits))


def _read_six(data: bytes, format: str, src: GraphSource) -> nx.Graph:
    """One graph6 or sparse6 graph; its size is checked before networkx builds it."""
    import networkx as nx

    lines = [line.strip() for line in data.splitlines() if line.strip()]
    if len(lines) != 1:
        raise src.error(f"it holds {len(lines)} {format} lines: one graph expected")
    line = lines[0]
    body = line.removeprefix(b">>graph6<<" if format == "graph6" else b">>sparse6<<")
    n = _six_size(body[1:] if format == "sparse6" and body[:1] == b":" else body)
    if n is None or (format == "sparse6" and body[:1] != b":"):
        raise src.error(f"{describe_value(line[:40])} is not {format}", 1)
    if n > MAX_VERTICES:
        raise src.refuse(f"{n:,} vertices is more than the {MAX_VERTICES:,} a graph may have")
    parse = nx.from_graph6_bytes if format == "graph6" else nx.from_sparse6_bytes
    try:
        return parse(line)
    except Exception as err:  # networkx's parser: any failure is a malformed file
        raise src.error(f"not {format}: {_said(err)}") from None


def _read_networkx(text: str, data: bytes, format: str, src: GraphSource) -> nx.Graph:
    """The graph networkx reads from an adjacency list, GraphML, GML, Pajek or JSON."""
    import inspect
    import io
    import json

    import networkx as nx

    try:
        if format == "adjlist":
            return nx.parse_adjlist(text.splitlines())
        if format == "graphml":
            return nx.read_graphml(io.BytesIO(data))
        if format == "pajek":
            return nx.parse_pajek(text.splitlines())
        if format == "gml":
            try:
                return nx.parse_gml(text.splitlines())
            except nx.NetworkXError as err:
                if "has no 'label' attribute" not in str(err):
                    raise
                return nx.parse_gml(text.splitlines(), label=None)  # nodes named by their id
        value = json.loads(text)
        if not isinstance(value, dict):
            raise ValueError(f"expected a node-link object, not a {type(value).__name__}")
        key = "links" if "links" in value and "edges" not in value else "edges"
        named = "edges" if "edges" in inspect.signature(nx.node_link_graph).parameters else "link"
        return nx.node_link_graph(value, **{named: key})  # networkx < 3.4 calls it link=
    except Exception as err:  # networkx's parsers: any failure is a malformed file
        raise src.error(f"not {format}: {_said(err)}") from None


def _said(err: BaseException) -> str:
    """An exception in one line of at most 200 characters.

    Examples
    --------
    >>> _said(KeyError("source")), _said(ValueError("two\\nlines"))
    ("missing 'source'", 'two lines')
    """
    text = " ".join(str(err).split()) or type(err).__name__
    if isinstance(err, KeyError):
        text = f"missing {text}"
    return text if len(text) <= 200 else text[:197] + "..."


def _checked(graph: Any, src: GraphSource) -> nx.Graph:
    """The graph as a simple undirected :class:`networkx.Graph`, or the reason it is none."""
    import networkx as nx

    if graph.is_directed():
        raise src.refuse("it is directed (tours of undirected graphs only)")
    if graph.is_multigraph():
        graph = nx.Graph(graph)  # repeated edges count once
    loop = next(iter(nx.selfloop_edges(graph)), None)
    if loop is not None:
        raise src.refuse(f"a loop at vertex {describe_value(loop[0])}")
    if graph.number_of_nodes() == 0:
        raise src.refuse("it has no vertices")
    if graph.number_of_nodes() > MAX_VERTICES:
        many = graph.number_of_nodes()
        raise src.refuse(f"{many:,} vertices is more than the {MAX_VERTICES:,} a graph may have")
    names: dict[str, Any] = {}
    for v in graph:
        first = names.setdefault(str(v), v)
        if first is not v:
            raise src.refuse(f"vertices {first!r} and {v!r} have the same name {str(v)!r}")
    return graph
