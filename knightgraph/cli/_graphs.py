"""The graph boards the flags name: ``--graph FILE`` and ``--wrap`` / ``--levels``.

``--graph FILE`` (on ``tour`` and ``exists``) makes the board the graph in a file, in place of M N.

The file is read by :func:`knightgraph.io.graphfiles.read_graph` (TSPLIB/FHCP HCP, DIMACS,
or networkx's edge list, adjacency list, GraphML, GML, graph6, sparse6, Pajek or node-link
JSON, by extension or content) before any work; its vertices keep the file's names
(``--start 3`` is the file's vertex 3).  Exactly one of ``M N`` and ``--graph`` names the
board: without either, argparse's own message for the missing sizes
(:func:`board_or_graph`); the flags that shape a board of squares are refused with
``--graph`` (:func:`graph_request`).  The answers' routes are those of
:class:`~knightgraph.cli._kinds.GraphFile`.

``--wrap rows|cols|both`` and ``--levels K`` make a cylinder, a torus or an ``M x N x K``
board (:func:`shape_board`), whose vertices are named ``c3`` / ``c3:2`` or ``r,c[,l]``
(:func:`shape_vertex`); their routes are those of :class:`~knightgraph.cli._kinds.Shape`.
"""

from __future__ import annotations

import argparse
from typing import Any

from ._shared import KNIGHT, Parser, UsageError

__all__ = ["add_graph", "board_or_graph", "graph_request", "shape_board", "shape_vertex"]

GRAPH_HELP = (
    "the board is the graph in FILE, in place of M N: TSPLIB/FHCP .hcp, DIMACS .col, or "
    "networkx's .edgelist, .adjlist, .graphml, .gml, .g6, .s6, .net, .json; vertices are "
    "named as in the file"
)

SQUARE_FLAGS = (
    ("leaper", "--leaper"),
    ("remove", "--remove"),
    ("mask", "--mask"),
    ("wrap", "--wrap"),
    ("levels", "--levels"),
    ("moves", "--moves"),
    ("prune", "--prune"),
    ("oracle", "--oracle"),
    ("order", "--order"),
    ("rule", "--rule"),
    ("repair", "--repair"),
    ("attempts", "--attempts"),
)
"""The flags that shape a board of squares or steer a strategy of boards: not with --graph."""


def add_graph(p: Parser) -> None:
    """Add ``--graph FILE`` to a command that has ``M N`` (:func:`~._shared.add_board`):
    the sizes become optional to argparse, and :func:`board_or_graph` asks for one of the two."""
    p.add_argument("--graph", metavar="FILE", help=GRAPH_HELP)
    for action in p._actions:
        if action.dest in ("m", "n"):
            action.required = False
            action.help = f"{action.help}; none with --graph"
    p.checks = (*p.checks, board_or_graph)


def board_or_graph(parser: Parser, args: argparse.Namespace) -> None:
    """``M N`` or ``--graph FILE``, not both (a usage error, exit 2); without either, the
    message argparse gives for missing sizes, word for word.

    Examples
    --------
    >>> parser = Parser(prog="knightgraph exists")
    >>> board_or_graph(parser, argparse.Namespace(m=8, n=8, graph=None))
    >>> board_or_graph(parser, argparse.Namespace(m=8, n=None, graph=None))
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    if args.graph is None:
        missing = [name for name, value in (("M", args.m), ("N", args.n)) if value is None]
        if missing:
            parser.error(f"the following arguments are required: {', '.join(missing)}")
    elif args.m is not None or args.n is not None:
        parser.error("--graph FILE takes no M N: the board is the graph in the file")


def graph_request(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """The graph board of ``--graph FILE`` (its kind ``graph FILE``) and the ends named on
    the command line by the file's vertex names; a flag of :data:`SQUARE_FLAGS` is refused
    first, then a file that cannot be read, both before any work."""
    from ..boards.graphboard import GraphBoard
    from ..io.graphfiles import read_graph

    for dest, flag in SQUARE_FLAGS:
        if _given(args, dest):
            raise UsageError(
                f"{flag} does not apply to --graph: the board is the graph in the file"
            )
    board = GraphBoard.from_networkx(read_graph(args.graph), kind=f"graph {args.graph}")
    return board, _vertex(board, args.start), _vertex(board, args.end)


def _given(args: argparse.Namespace, dest: str) -> bool:
    """Whether the flag of ``dest`` was given (its value is not the default)."""
    value = getattr(args, dest, None)
    if dest == "leaper":
        return value is not None and tuple(value) != KNIGHT
    if dest == "repair":  # --repair or --no-repair
        return value is not None
    return value is not None and value is not False and value != []


def _vertex(board: Any, name: str | None) -> Any:
    """The vertex named ``name`` (as the file names it), or None."""
    return None if name is None else board.node(board.index(name))


# ------------------------------------------------------ --wrap and --levels
def shape_board(args: argparse.Namespace) -> Any:
    """The graph board of ``--wrap`` / ``--levels`` (check_kind has checked the command)."""
    from ..boards.topology import topology_board

    if args.mask is not None or args.remove:
        raise UsageError("--wrap and --levels take no --mask or --remove")
    if args.levels is not None and args.levels < 1:
        raise UsageError(f"invalid --levels {args.levels}: expected a whole number >= 1")
    return topology_board(args.m, args.n, wrap=args.wrap, levels=args.levels, leaper=args.leaper)


def shape_vertex(board: Any, text: str | None) -> Any:
    """A vertex given as a name (``c3``, ``c3:2``) or 0-based ``r,c[,l]``."""
    if text is None:
        return None
    parts = text.split(",")
    if len(parts) > 1 and all(p.strip().lstrip("-").isdigit() for p in parts):
        return board.node(board.index(tuple(int(p) for p in parts)))
    return board.node(board.index(text.strip()))
