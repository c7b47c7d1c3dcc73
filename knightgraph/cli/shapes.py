"""Boards beyond the rectangle on the command line: ``--wrap``, ``--levels`` and ``--mask``.

``--mask FILE`` makes an ordinary board with holes (every command takes it; ``M N`` must
be the mask's size).  ``--wrap rows|cols|both`` (a cylinder or a torus) and ``--levels K``
(an ``M x N x K`` board) make a graph board, which ``tour``, ``exists``, ``count``,
``sample``, ``starts``, ``ends``, ``verify`` and ``draw tour`` answer here with the same exit codes and formats (squares named ``a1``, or ``a1:2`` on
level 2; JSON squares as ``[r, c]`` or ``[r, c, level]``, 0-based).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ._replies import exists_reason, stopped_result
from ._shared import (
    EXIT_OF,
    KNIGHT,
    UsageError,
    emit,
    progress_bar,
    search_board,
)

if TYPE_CHECKING:  # results (dataclasses, inspect) are imported when a command needs them
    from ..tours.results import SearchResult

GRAPH_COMMANDS = ("tour", "exists", "count", "draw", "verify", "sample", "starts", "ends")

GRAPH_ONLY = (
    "--wrap and --levels apply to tour, exists, count, sample, starts, ends, verify and "
    "draw tour only"
)


def graph_requested(args: argparse.Namespace) -> bool:
    """True when ``--wrap`` or ``--levels`` asks for a graph board."""
    return getattr(args, "wrap", None) is not None or getattr(args, "levels", None) is not None


def _graph_board(args: argparse.Namespace) -> Any:
    from ..boards.topology import topology_board

    if args.command not in GRAPH_COMMANDS:
        raise UsageError(GRAPH_ONLY)
    if args.mask is not None or args.remove:
        raise UsageError("--wrap and --levels take no --mask or --remove")
    if args.levels is not None and args.levels < 1:
        raise UsageError(f"invalid --levels {args.levels}: expected a whole number >= 1")
    return topology_board(args.m, args.n, wrap=args.wrap, levels=args.levels, leaper=args.leaper)


def _vertex(board: Any, text: str | None) -> Any:
    """A square given as a name (``c3``, ``c3:2``) or 0-based ``r,c[,l]``."""
    if text is None:
        return None
    parts = text.split(",")
    if len(parts) > 1 and all(p.strip().lstrip("-").isdigit() for p in parts):
        return board.node(board.index(tuple(int(p) for p in parts)))
    return board.node(board.index(text.strip()))


def _head(board: Any, args: argparse.Namespace, start: Any, end: Any) -> dict[str, Any]:
    """The request's fields of an answer's JSON; without a board (the backstop stopped its
    building), as the command line gave them."""
    if board is None:
        out: dict[str, Any] = {"rows": args.m, "cols": args.n}
        out.update({"levels": args.levels} if args.levels is not None else {})
        out.update({"wrap": args.wrap} if args.wrap is not None else {})
        out.update({"leaper": list(args.leaper)} if tuple(args.leaper) != KNIGHT else {})
        return {**out, "closed": args.closed, "start": args.start, "end": args.end}
    shape = board.shape
    out = {"rows": shape[0], "cols": shape[1]}
    if len(shape) == 3:
        out["levels"] = shape[2]
    if board.wrap is not None:
        out["wrap"] = board.wrap
    if tuple(args.leaper) != KNIGHT:
        out["leaper"] = list(args.leaper)
    out["closed"] = args.closed
    out["start"] = None if start is None else board.name(start)
    out["end"] = None if end is None else board.name(end)
    return out


def numbered(board: Any, order: list[int]) -> str:
    """The visiting numbers on the board (3-D: the levels side by side, level 1 first).

    Examples
    --------
    >>> from knightgraph.boards.topology import topology_board
    >>> print(numbered(topology_board(2, 3, levels=2), list(range(12))))  # numbers, not a tour
    2 |  7  9 11    8 10 12
    1 |  1  3  5    2  4  6
         a  b  c    a  b  c
    """
    shape = board.shape
    m, n = shape[0], shape[1]
    k = shape[2] if len(shape) == 3 else 1
    at = {board.node(v): i + 1 for i, v in enumerate(order)}
    width = len(str(len(order)))
    rows = []
    for r in range(m - 1, -1, -1):
        cells = []
        for lv in range(k):
            keys = [(r, c) if len(shape) == 2 else (r, c, lv) for c in range(n)]
            cells.append(" ".join(f"{at[key]:>{width}}" for key in keys))
        rows.append(f"{r + 1:>{len(str(m))}} | " + "   ".join(cells))
    from ..boards.board import file_name

    files = " ".join(f"{file_name(c):>{width}}" for c in range(n))
    rows.append(" " * (len(str(m)) + 3) + "   ".join([files] * k))
    return "\n".join(rows)


def graph_tour(args: argparse.Namespace) -> tuple[int, SearchResult]:
    """``knightgraph tour`` on a graph board: the exit code and the result."""
    import json

    if args.format == "npy":
        raise UsageError("--format npy is for rectangular boards: use json")
    board = start = end = None
    if args.format == "json":
        args.aborted_answer = lambda reason: emit(
            json.dumps(_result_dict(board, args, start, end, stopped_result(args, reason))),
            args.output,
        )
    board = _graph_board(args)
    start, end = _vertex(board, args.start), _vertex(board, args.end)
    result = _search(args, board, start, end)
    if args.format == "json":
        emit(json.dumps(_result_dict(board, args, start, end, result)), args.output)
    elif result.tour is None:
        print(result.reason)
    elif args.format == "board":
        emit(numbered(board, list(result.tour.order)), args.output)
    else:
        emit(" ".join(result.tour.algebraic()), args.output)
    return EXIT_OF[result.status], result


def _search(args: argparse.Namespace, board: Any, start: Any, end: Any) -> SearchResult:
    if args.method not in ("auto", "sat", "backtrack"):
        raise UsageError(f"--method {args.method} does not apply to --wrap/--levels boards")
    return search_board(args, board, start, end)


def graph_draw_tour(args: argparse.Namespace) -> int:
    """``knightgraph draw tour`` on a graph board: wrap moves as dashed stubs, 3-D levels
    side by side (:func:`~knightgraph.draw.shapeplot.draw_graph_tour`)."""
    from ..draw import save_figure
    from ..draw.shapeplot import draw_graph_tour

    board = _graph_board(args)
    if args.animate or str(args.output).lower().endswith((".html", ".htm")):
        raise UsageError("--animate and .html pages are for rectangular boards")
    start, end = _vertex(board, args.start), _vertex(board, args.end)
    result = _search(args, board, start, end)
    if result.tour is None:
        print(result.reason)
        return EXIT_OF[result.status]
    tour: Any = result.tour
    save_figure(draw_graph_tour(tour, numbers=args.numbers), args.output, dpi=args.dpi)
    kind = "closed" if args.closed else "open"
    print(f"wrote {args.output}: {kind} tour of the {board.kind} ({board.num_squares} squares)")
    return EXIT_OF[result.status]


def _result_dict(
    board: Any, args: argparse.Namespace, start: Any, end: Any, result: SearchResult
) -> dict[str, Any]:
    out = _head(board, args, start, end)
    tour = result.tour
    out["squares"] = None if tour is None else [list(v) for v in tour.nodes()]
    out.update(
        method=result.method,
        seconds=round(result.seconds, 6),
        stats=result.stats,
        status=result.status.value,
        reason=result.reason,
    )
    if result.certificate is not None:
        out["certificate"] = result.certificate.to_dict()
    return out


def _exists_dict(
    board: Any, args: argparse.Namespace, start: Any, end: Any, result: SearchResult
) -> dict[str, Any]:
    """``exists --format json`` on a graph board."""
    from ..tours.results import Status

    reason = exists_reason(result)
    out = _head(board, args, start, end)
    exists = {Status.FOUND: True, Status.PROVEN_ABSENT: False}.get(result.status)
    out.update(exists=exists, reason=reason, certificate=None)
    if result.tour is not None:
        squares = result.tour.algebraic()
        out["certificate"] = {"kind": "tour", "reason": reason, "squares": squares}
    elif result.certificate is not None:
        out["certificate"] = result.certificate.to_dict()
    return out


def graph_exists(args: argparse.Namespace) -> tuple[int, SearchResult]:
    """``knightgraph exists`` on a graph board: the exit code and the result."""
    import json

    from ..solvers import tour_exists
    from ..tours.results import Status

    board = start = end = None
    if args.format == "json":  # the backstop's answer, with what is known when it strikes
        args.aborted_answer = lambda reason: print(
            json.dumps(_exists_dict(board, args, start, end, stopped_result(args, reason)))
        )
    board = _graph_board(args)
    start, end = _vertex(board, args.start), _vertex(board, args.end)
    with progress_bar("deciding") as progress:
        result = tour_exists(
            board, closed=args.closed, start=start, end=end, timeout=args.timeout, progress=progress
        )
    exists = {Status.FOUND: True, Status.PROVEN_ABSENT: False}.get(result.status)
    reason = exists_reason(result)
    if args.format == "json":
        print(json.dumps(_exists_dict(board, args, start, end, result)))
    else:
        verdict = {True: "exists", False: "does not exist", None: "unknown"}[exists]
        print(
            f"{'closed' if args.closed else 'open'} tour of the {board.kind}: {verdict} ({reason})"
        )
    return EXIT_OF[result.status], result


def graph_count(args: argparse.Namespace) -> int:
    """``knightgraph count`` on a graph board (``--symmetry``, ``--list`` and ``--convention
    knuth`` are for rectangles)."""
    import json

    from ..counting import count_tours

    board = _graph_board(args)
    if args.symmetry or args.list is not None or args.convention != "oeis":
        raise UsageError("--symmetry, --list and --convention knuth are for rectangular boards")
    if args.parts is not None or args.checkpoint is not None:
        raise UsageError("--parts and --checkpoint are for rectangular boards")
    start, end = _vertex(board, args.start), _vertex(board, args.end)
    with progress_bar("counting", unit=" squares", total=board.num_squares) as progress:
        result = count_tours(
            board, closed=args.closed, start=start, end=end, timeout=args.timeout, progress=progress
        )
    if result.aborted:
        print(result.reason, file=sys.stderr)
    if args.format == "json":
        out = _head(board, args, start, end)
        out.update(result.to_dict())
        print(json.dumps(out))
    elif not result.aborted:
        kind = "closed" if args.closed else "open"
        undirected = "" if result.undirected is None else f", {result.undirected:,} undirected"
        print(
            f"{result.directed:,} {kind} tours of the {board.kind} (directed{undirected}; "
            f"frontier width {result.stats.get('width')})"
        )
    return EXIT_OF[result.status]


def graph_verify(args: argparse.Namespace) -> int:
    """``knightgraph verify`` on a graph board: a file of square names (``a1 c2 ...``), or
    the JSON of ``tour --format json`` (squares as names or 0-based lists)."""
    import json

    from ..exceptions import InvalidSquareError, InvalidTourError
    from ..io.formats import tour_file_limit
    from ..running.disk import read_input
    from ..tours.tour import Tour

    board = _graph_board(args)
    start, end = _vertex(board, args.start), _vertex(board, args.end)
    raw = read_input(args.file, "tour", limit=tour_file_limit(board))
    where = "standard input" if args.file in (None, "-") else repr(args.file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {where}: not UTF-8 text") from None
    closed = args.closed
    try:
        if text.lstrip().startswith("{"):
            data = json.loads(text)
            closed = closed or bool(data.get("closed"))
            squares: list[Any] = [
                s if isinstance(s, str) else tuple(s) for s in data["squares"] or []
            ]
        else:
            squares = text.split()
        tour = Tour(board, [board.index(s) for s in squares], closed)
        if start is not None and tour.start != start:
            raise InvalidTourError(f"invalid tour: it starts at {tour.algebraic()[0]}")
        if end is not None and tour.end != end:
            raise InvalidTourError(f"invalid tour: it ends at {tour.algebraic()[-1]}")
    except RecursionError:
        raise UsageError(f"cannot read {where}: JSON nested too deeply") from None
    except (InvalidTourError, InvalidSquareError, ValueError, KeyError, TypeError) as err:
        print(f"invalid: {err}")
        return 1
    kind = "closed" if closed else "open"
    print(f"ok: a valid {kind} tour of the {board.kind} ({board.num_squares} squares)")
    return 0


def graph_sample_request(args: argparse.Namespace) -> tuple[Any, Any, Any, str]:
    """``knightgraph sample`` on a graph board: the board, its ends, and how to name it."""
    board = _graph_board(args)
    return board, _vertex(board, args.start), _vertex(board, args.end), f"of the {board.kind}"


def graph_sample_head(
    args: argparse.Namespace, board: Any, ends: tuple[Any, Any]
) -> dict[str, Any]:
    """The JSON head of ``sample`` on a graph board (its shape, wrap or levels, the ends)."""
    return _head(board, args, *ends)


def graph_sample_output(
    args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: Any
) -> tuple[list[dict[str, Any]], list[str]]:
    """The tours of ``sample`` on a graph board: their JSON heads (``[r, c]`` or
    ``[r, c, level]`` squares) and their lines of names."""
    head = graph_sample_head(args, board, ends)
    heads = [{**head, "squares": [list(v) for v in tour.nodes()]} for tour in result.tours]
    return heads, [" ".join(tour.algebraic()) for tour in result.tours]


def graph_map_request(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """``knightgraph starts`` / ``ends`` on a graph board: the board and the fixed start
    (``ends``), for the one flow of ``cli.explore._cmd_map``."""
    board = _graph_board(args)
    where = {} if args.command == "starts" else {"start": _vertex(board, args.start)}
    return board, where


def graph_map_head(args: argparse.Namespace, board: Any, where: dict[str, Any]) -> dict[str, Any]:
    """The JSON head of a graph board's map: its shape, wrap or levels, and the start."""
    return _head(board, args, where.get("start"), None)
