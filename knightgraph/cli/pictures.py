"""``knightgraph draw tour | graph | table | file``: pictures, format from the suffix; and
``knightgraph play``: the page to build a tour by hand.

matplotlib, networkx and the page writers are imported only when a picture or page is made.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ._kinds import kind_of
from ._shared import (
    EXIT_NO,
    EXIT_OF,
    EXIT_OK,
    EXIT_UNKNOWN,
    KNIGHT,
    Parser,
    UsageError,
    add_board,
    add_ends,
    add_kind,
    add_search_options,
    add_total_timeout,
    board_of,
    check_output_path,
    emit,
    leaper_arg,
    progress_bar,
    size_arg,
)
from .surveys import table_size

if TYPE_CHECKING:
    from ..boards.board import Board


# ------------------------------------------------------------------ parsers
def _add_draw(sub: Any) -> None:
    """``knightgraph draw tour | graph | table | file``: pictures, format from the suffix."""
    draw = sub.add_parser(
        "draw",
        help="pictures of tours, knight graphs and the existence table (PNG, SVG, PDF, GIF)",
        description="Draw a tour, a knight graph or the existence table; the format is the "
        "output file's suffix: .png, .svg, .pdf or .gif (--animate: .gif, or .mp4 with ffmpeg).",
    )
    what = draw.add_subparsers(dest="what", metavar="WHAT", parser_class=Parser)
    what.required = True

    tour = what.add_parser("tour", help="find a tour and draw it")
    add_board(tour)
    add_ends(tour)
    add_kind(tour)
    add_search_options(tour, default_method="auto")
    _add_draw_style(tour)
    tour.set_defaults(run=_cmd_draw_tour)

    _add_draw_graph(what)
    table = what.add_parser("table", help="draw the existence table (codes c/e/o/x)")
    table.add_argument("m", type=size_arg, metavar="M", help="largest number of ranks")
    table.add_argument("n", type=size_arg, nargs="?", metavar="N", help="largest number of files")
    table.add_argument(
        "--timeout", type=float, metavar="SEC", help="seconds allowed to each search (then '?')"
    )
    add_total_timeout(table)
    _add_draw_output(table)
    table.set_defaults(run=_cmd_draw_table)

    _add_draw_file(what)


def _add_draw_graph(what: Any) -> None:
    """``draw graph``: the knight graph of a board in a layout."""
    graph = what.add_parser("graph", help="draw the knight graph of a board")
    add_board(graph)
    graph.add_argument(
        "--layout",
        default="board",
        metavar="NAME",
        help="board (default), spring, circular, spectral, shell or bipartite",
    )
    graph.add_argument(
        "--color-by",
        default="color",
        choices=("color", "degree"),
        help="colour nodes by square colour (default) or degree",
    )
    graph.add_argument(
        "--labels",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="square names on the nodes (default: up to 64 nodes)",
    )
    graph.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the spring layout")
    _add_draw_output(graph)
    graph.set_defaults(run=_cmd_draw_graph)


def _add_draw_file(what: Any) -> None:
    """``draw file``: a tour read from a file."""
    file = what.add_parser("file", help="draw a tour file (JSON; or text, .npy with M N)")
    file.add_argument(
        "file",
        metavar="FILE",
        help="the tour: JSON from `tour --format json`, "
        "or algebraic text, a numbered board or .npy with M N; - for stdin",
    )
    file.add_argument(
        "m", type=size_arg, nargs="?", metavar="M", help="ranks (files other than JSON)"
    )
    file.add_argument(
        "n", type=size_arg, nargs="?", metavar="N", help="files (files other than JSON)"
    )
    file.add_argument(
        "--leaper",
        type=leaper_arg,
        default=KNIGHT,
        metavar="A,B",
        help="the piece, with M N (default 1,2)",
    )
    file.add_argument(
        "--remove",
        action="append",
        default=[],
        metavar="SQ",
        help="a removed square, with M N (repeat for more)",
    )
    file.add_argument("--closed", action="store_true", help="the tour is closed (JSON says so)")
    _add_draw_style(file)
    file.set_defaults(run=_cmd_draw_file)


def _add_draw_output(p: argparse.ArgumentParser, *, page: bool = False) -> None:
    what = ".png, .svg, .pdf or .gif"
    if page:
        what = ".png, .svg, .pdf, .gif, or .html for an interactive page"
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help=f"the picture: {what} (written atomically)",
    )
    p.add_argument(
        "--dpi",
        type=float,
        default=100,
        metavar="DPI",
        help="resolution of PNG and GIF (default 100, at most 1200)",
    )


def _add_draw_style(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--numbers", action="store_true", help="the visiting number in every square (up to 50x50)"
    )
    p.add_argument("--arrows", action="store_true", help="an arrowhead on every move")
    p.add_argument(
        "--color-by",
        default="step",
        choices=("step", "direction", "none"),
        help="colour the moves by step (default), direction or not at all",
    )
    p.add_argument(
        "--no-labels", dest="labels", action="store_false", help="no file/rank labels or title"
    )
    p.add_argument(
        "--no-markers", dest="markers", action="store_false", help="do not mark the start and end"
    )
    p.add_argument(
        "--animate",
        action="store_true",
        help="an animation of the tour being walked (.gif, or .mp4 with ffmpeg)",
    )
    p.add_argument("--fps", type=int, default=12, metavar="N", help="animation frames a second")
    _add_draw_output(p, page=True)


def _add_play(sub: Any) -> None:
    """``knightgraph play M N``: one HTML file to build a tour by hand in a browser."""
    play = sub.add_parser(
        "play",
        help="a page to build a tour by hand in a browser (HTML, works offline)",
        description="Write one self-contained HTML page (no network) to build a tour of the "
        "board by hand: click squares (or use the arrows and Enter); the legal next squares "
        "show their Warnsdorff degree; undo and redo; a hint (Warnsdorff's choice); 'can it "
        "still be finished?' answers yes with a completion it found and checked, no with the "
        "reason (a square cut off, the colours, a dead end, ...), or unknown within 1 s; a "
        "finished tour gets its closed/open verdict and a JSON download that `knightgraph "
        "verify` accepts.  Without -o the page goes to standard output.",
    )
    play.add_argument("m", type=size_arg, metavar="M", help="number of ranks (rows)")
    play.add_argument("n", type=size_arg, metavar="N", help="number of files (columns)")
    play.add_argument(
        "--leaper",
        type=leaper_arg,
        default=KNIGHT,
        metavar="A,B",
        help="the piece as an (a, b)-leaper (default 1,2: the knight)",
    )
    play.add_argument(
        "--remove",
        action="append",
        default=[],
        metavar="SQ",
        help="take a square off the board (repeat for more)",
    )
    play.add_argument(
        "--mask",
        metavar="FILE",
        help="the board's shape: a text mask ('.' square, '#' hole) or a black-and-white image",
    )
    play.add_argument(
        "--start", metavar="SQ", help="the first square, played when the page opens (a1 or r,c)"
    )
    add_kind(play)
    play.add_argument(
        "-o", "--output", metavar="FILE", help="write the page to FILE (atomically), e.g. play.html"
    )
    play.set_defaults(run=_cmd_play)


# ------------------------------------------------------------- checks first
def _check_draw_output(args: argparse.Namespace, *, page: bool = False) -> None:
    """Refuse a bad suffix, dpi or fps, or a missing folder before any work (exit 2).

    ``page``: the command can also write the interactive HTML page (``.html``).
    """
    from ..draw import ANIMATION_FORMATS, FORMATS, MAX_DPI

    if not 0 < args.dpi <= MAX_DPI:  # not NaN either
        raise UsageError(
            f"invalid --dpi {args.dpi:g}: expected a number above 0, at most {MAX_DPI}"
        )
    if getattr(args, "fps", 1) < 1:
        raise UsageError(f"invalid --fps {args.fps}: expected a whole number >= 1")
    path = args.output
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    animate = getattr(args, "animate", False)
    allowed = ANIMATION_FORMATS if animate else FORMATS + (("html",) if page else ())
    if suffix not in allowed:
        what = "an animation" if animate else "a picture"
        shown = f"'.{suffix}'" if suffix else "no suffix"
        raise UsageError(
            f"cannot write {what} to {path!r} ({shown}): use " + ", ".join(f".{s}" for s in allowed)
        )
    if suffix == "mp4":
        from matplotlib import animation

        if not animation.writers.is_available("ffmpeg"):
            raise UsageError("cannot write MP4: ffmpeg is not installed (write a .gif)")
    check_output_path(path, "-o")


def _is_page(path: str) -> bool:
    """Whether ``path`` asks for the interactive HTML page rather than a picture."""
    return path.lower().endswith(".html")


# ------------------------------------------------------------------ drawing
def _draw_tour_to(tour: Any, args: argparse.Namespace) -> None:
    from ..draw import animate_tour, draw_tour, save_figure

    style = {
        "numbers": args.numbers,
        "arrows": args.arrows,
        "color_by": None if args.color_by == "none" else args.color_by,
        "labels": args.labels,
        "markers": args.markers,
    }
    if _is_page(args.output) and not args.animate:
        from ..draw.page import write_tour_html

        write_tour_html(tour, args.output)
    elif args.animate:
        with progress_bar("animating", unit=" frames") as progress:
            dpi = max(1, round(args.dpi))
            animate_tour(tour, args.output, fps=args.fps, dpi=dpi, progress=progress, **style)
    else:
        save_figure(draw_tour(tour, **style), args.output, dpi=args.dpi)
    kind = "closed" if tour.closed else "open"
    squares = f"{len(tour):,} square{'' if len(tour) == 1 else 's'}"
    print(f"wrote {args.output}: {kind} tour of {tour.m}x{tour.n} ({squares})")


def _cmd_draw_tour(args: argparse.Namespace) -> int:
    _check_draw_output(args, page=True)
    kind = kind_of(args)
    board, start, end = kind.request(args)
    kind.check_draw(args, board)
    result = kind.search(args, board, start, end)
    if result.tour is None:
        print(result.reason)
        return EXIT_OF[result.status]
    kind.draw(args, board, result.tour, _draw_tour_to)
    return EXIT_OK


def _cmd_play(args: argparse.Namespace) -> int:
    from ..draw.play import play_html

    board = board_of(args)  # the output path was checked before (preflight)
    page = play_html(board, start=args.start, closed=args.closed)
    if args.output is None:
        emit(page, None)
        return EXIT_OK
    from ..running.disk import atomic_output

    with atomic_output(args.output, "wb") as handle:
        handle.write(page.encode("utf-8"))
    goal = "closed" if args.closed else "open"
    start = f", start {board.name(board.parse_square(args.start))}" if args.start else ""
    size = len(page.encode("utf-8"))
    print(
        f"wrote {args.output}: play page for {board.m}x{board.n} ({goal} tour{start}; {size:,} bytes)"
    )
    return EXIT_OK


def _cmd_draw_file(args: argparse.Namespace) -> int:
    from ..io.formats import parse_tour_bytes
    from ..tours.tour import Tour

    _check_draw_output(args, page=True)
    if (args.m is None) != (args.n is None):
        raise UsageError("give the board size as M N, or neither (JSON files carry it)")
    given = board_of(args) if args.m is not None else None
    raw, name = _read_draw_input(args.file, given)
    board = given if given is not None else _board_of_json(raw, name)
    squares, says_closed = parse_tour_bytes(raw, board, name)
    _draw_tour_to(Tour.from_squares(squares, board, closed=args.closed or says_closed), args)
    return EXIT_OK


def _read_draw_input(path: str, board: Board | None) -> tuple[bytes, str]:
    """The bytes of a tour file, or of standard input for ``-``, and a name for messages;
    read bounded (:func:`knightgraph.running.disk.read_input`): at most what a tour of ``board``
    may hold (:func:`knightgraph.io.formats.tour_file_limit`), or, for a JSON file that names
    its own board, :data:`DRAW_INPUT_LIMIT`.

    Not :func:`knightgraph.io.formats.read_tour_file`: that one needs the board before
    reading, and a JSON file read here names its own board (:func:`_board_of_json`).
    """
    from ..exceptions import InvalidOptionError, TourFormatError
    from ..io.formats import tour_file_limit
    from ..running.disk import read_input

    limit = DRAW_INPUT_LIMIT if board is None else tour_file_limit(board)
    try:
        raw = read_input(path, "tour", limit=limit)
    except InvalidOptionError as err:
        raise TourFormatError(str(err)) from None
    return raw, "<stdin>" if path == "-" else path


DRAW_INPUT_LIMIT = 1 << 26
"""The most bytes ``draw file`` reads of a JSON tour that names its board (64 MiB: a
tour of a million squares; pictures of larger ones are refused anyway)."""


def _board_of_json(raw: bytes, path: str) -> Board:
    """The board a JSON tour describes (``rows``, ``cols``, ``leaper``, ``removed``).

    Only the board: the squares are read by :func:`knightgraph.io.formats.parse_tour_bytes`
    for every format alike (not :meth:`Tour.from_dict`, whose messages are the API's).
    """
    from ..boards.board import Board
    from ..exceptions import TourFormatError

    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UsageError(
            f"{path!r} is not a JSON tour: give the board size (draw file FILE M N)"
        ) from None
    if not isinstance(data, dict) or "rows" not in data or "cols" not in data:
        raise UsageError(f"{path!r} does not say its board size: draw file FILE M N")
    try:
        return Board(
            data["rows"],
            data["cols"],
            leaper=tuple(data.get("leaper", KNIGHT)),
            removed=data.get("removed", ()),
        )
    except TypeError:
        raise TourFormatError(f"cannot read {path!r}: a bad 'leaper' or 'removed'") from None


def _cmd_draw_graph(args: argparse.Namespace) -> int:
    from ..boards.nxgraph import knight_graph
    from ..draw import LAYOUTS, draw_knight_graph, save_figure

    _check_draw_output(args)
    if args.layout not in LAYOUTS:
        raise UsageError(f"invalid layout {args.layout!r}: choose from {', '.join(LAYOUTS)}")
    board = board_of(args)
    if board.area > 10_000:
        raise UsageError(
            f"the graph of {board.m}x{board.n} is too big to draw: at most 10,000 squares"
        )
    G = knight_graph(board)
    ax = draw_knight_graph(
        G, layout=args.layout, color_by=args.color_by, labels=args.labels, seed=args.seed
    )
    save_figure(ax, args.output, dpi=args.dpi)
    print(f"wrote {args.output}: {G.number_of_nodes()} squares, {G.number_of_edges()} moves")
    return EXIT_OK


def _cmd_draw_table(args: argparse.Namespace) -> int:
    from ..draw import draw_existence_table, save_figure
    from ..explore import existence_table

    _check_draw_output(args)
    rows, cols = table_size(args)
    with progress_bar("boards", unit=" boards", total=rows * cols) as progress:
        table = existence_table(
            rows,
            cols,
            timeout=args.timeout,
            total_timeout=args.total_timeout,
            progress=progress,
        )
    save_figure(draw_existence_table(table), args.output, dpi=args.dpi)
    print(f"wrote {args.output}: existence table 1..{rows} x 1..{cols}")
    for line in table.disagreements:
        print(f"knightgraph draw: disagreement: {line}", file=sys.stderr)
    if table.disagreements:
        return EXIT_NO
    return EXIT_UNKNOWN if any("?" in row for row in table.codes) else EXIT_OK
