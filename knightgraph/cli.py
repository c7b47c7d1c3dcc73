"""The command line: ``knightgraph tour | exists | verify``.

Exit codes: 0 found / exists / valid; 1 proven absent / invalid; 2 bad input or
usage; 3 gave up (budget or timeout) with existence unknown; 70 an internal
error (a bug, please report it).  Errors are one line on standard error, never
a traceback; output files are written whole or not at all.

Every command checks its input before doing any work: board sizes (against
the memory the work needs), squares, worker counts (at most a few per CPU),
dask addresses, budgets and output paths (the folder must exist).  SIGTERM is
handled like Ctrl-C: worker processes are stopped and nothing is left behind.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, NoReturn

from ._version import __version__
from .board import KNIGHT, Board, Square
from .exceptions import InvalidOptionError, InvalidTourError, KnightGraphError
from .tour import SearchResult, Status

__all__ = ["main"]

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug, not bad input
_EXIT_OF = {Status.FOUND: EXIT_OK, Status.PROVEN_ABSENT: EXIT_NO, Status.ABORTED: EXIT_UNKNOWN}

_EXAMPLES = """\
examples:
  knightgraph tour 8 8 --closed --format board     a closed 8x8 tour as a numbered board
  knightgraph tour 8 8 --closed --start d4 --format json
  knightgraph tour 5 5 --start a1 --end e5         an open tour between two squares
  knightgraph tour 6 6 --method backtrack --moves "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"
  knightgraph tour 3 8 --closed                    exit 1: Schwenk (1991) rules it out
  knightgraph exists 7 7 --closed --format json    the certificate of absence
  knightgraph verify 8 8 tour.json --closed        check a tour (algebraic text, JSON or .npy)

exit codes: 0 found/exists/valid, 1 proven absent/invalid, 2 bad input, 3 gave up (unknown),
  70 internal error (a bug: please report it)
squares: algebraic (a1, h8, aa1 for the 27th file) or 0-based "r,c"
"""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class _UsageError(Exception):
    """A problem with the command line itself (exit 2)."""


class _Terminated(BaseException):
    """SIGTERM arrived: unwind like Ctrl-C, so that worker processes are stopped."""


def _size(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid board size {text!r}: expected a whole number >= 1"
        ) from None


def _leaper(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid leaper {text!r}: expected two whole numbers like '1,2'"
        ) from None
    return a, b


def _add_board(p: argparse.ArgumentParser) -> None:
    p.add_argument("m", type=_size, metavar="M", help="number of ranks (rows)")
    p.add_argument("n", type=_size, metavar="N", help="number of files (columns)")
    p.add_argument(
        "--leaper",
        type=_leaper,
        default=KNIGHT,
        metavar="A,B",
        help="the piece as an (a, b)-leaper (default 1,2: the knight)",
    )
    p.add_argument(
        "--remove",
        action="append",
        default=[],
        metavar="SQ",
        help="take a square off the board (repeat for more)",
    )


def _add_kind(p: argparse.ArgumentParser) -> None:
    kind = p.add_mutually_exclusive_group()
    kind.add_argument(
        "--closed", action="store_true", help="a closed tour (ends next to its start)"
    )
    kind.add_argument("--open", dest="closed", action="store_false", help="an open tour (default)")


def _add_ends(p: argparse.ArgumentParser) -> None:
    p.add_argument("--start", metavar="SQ", help="first square (a1 or r,c)")
    p.add_argument("--end", metavar="SQ", help="last square")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="knightgraph",
        description="Knight's tours as graph problems: every answer is a verified tour "
        "or a certificate that none exists.",
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"knightgraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    tour = sub.add_parser(
        "tour",
        help="find a tour (or prove there is none)",
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board(tour)
    _add_ends(tour)
    _add_kind(tour)
    _add_search_options(tour, default_method="auto")
    tour.add_argument(
        "--format",
        default="squares",
        choices=("squares", "board", "json", "npy"),
        help="output format (default squares)",
    )
    tour.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically)")
    _add_proof(tour)
    tour.set_defaults(run=_cmd_tour)

    exists = sub.add_parser("exists", help="decide whether a tour exists, with a certificate")
    _add_board(exists)
    _add_ends(exists)
    _add_kind(exists)
    exists.add_argument(
        "--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC seconds"
    )
    exists.add_argument("--format", default="text", choices=("text", "json"))
    _add_proof(exists)
    exists.set_defaults(run=_cmd_exists)

    table = sub.add_parser(
        "table",
        help="existence table (codes c/e/o/x) for every board 1..M x 1..N, each cell proved",
    )
    table.add_argument("m", type=_size, metavar="M", help="largest number of ranks")
    table.add_argument(
        "n", type=_size, nargs="?", metavar="N", help="largest number of files (default M)"
    )
    table.add_argument("--format", default="text", choices=("text", "json"))
    table.add_argument(
        "--timeout", type=float, metavar="SEC", help="seconds allowed to each search (then '?')"
    )
    _add_total_timeout(table)
    _add_executor(table)
    table.set_defaults(run=_cmd_table)

    verify = sub.add_parser(
        "verify", help="check a tour file (algebraic text, numbered board, JSON or .npy)"
    )
    _add_board(verify)
    verify.add_argument(
        "file", nargs="?", metavar="FILE", help="the tour (default: standard input)"
    )
    _add_ends(verify)
    verify.add_argument("--closed", action="store_true", help="also require a closed tour")
    verify.set_defaults(run=_cmd_verify)

    sweep = sub.add_parser(
        "sweep",
        help="run a method from every start square; report which succeeded",
        description="Run a search from every start square and report which gave a tour "
        "(seed 003's experiment: sweep 50 50 --method warnsdorff --rule border).",
    )
    _add_board(sweep)
    _add_kind(sweep)
    _add_search_options(sweep, default_method="warnsdorff")
    sweep.add_argument("--format", default="text", choices=("text", "json"))
    _add_total_timeout(sweep)
    _add_executor(sweep)
    sweep.set_defaults(run=_cmd_sweep)

    classic = sub.add_parser(
        "classic",
        help="the seed-002 exercise: three lines (M N, start, end) in, a tour or Not Found out",
    )
    classic.add_argument("file", nargs="?", metavar="FILE", help="the input (default: stdin)")
    classic.add_argument(
        "--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC seconds"
    )
    classic.set_defaults(run=_cmd_classic)
    _add_count_parsers(sub)
    _add_draw(sub)
    return parser


def _add_proof(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--proof",
        metavar="FILE",
        help="when absence is proved by SAT, write the DRUP proof to FILE and the CNF "
        "(DIMACS) to FILE.cnf, for drat-trim or python -m knightgraph.drup",
    )


def _add_search_options(p: argparse.ArgumentParser, *, default_method: str) -> None:
    p.add_argument(
        "--method",
        default=default_method,
        metavar="NAME",
        help=f"auto, backtrack, warnsdorff, sat or divide (default {default_method})",
    )
    p.add_argument(
        "--moves",
        metavar="MOVES",
        help='trial order "dr,dc;dr,dc;..." as (d_rank, d_file) pairs (backtrack; warnsdorff ties)',
    )
    p.add_argument(
        "--prune",
        action="store_true",
        help="backtrack: cut subtrees that hold no tour (same answer, fewer nodes)",
    )
    p.add_argument(
        "--oracle",
        action="store_true",
        help="backtrack: the same first tour, found by asking a SAT solver which subtree holds one",
    )
    p.add_argument(
        "--order",
        choices=("fixed", "warnsdorff"),
        help="backtrack: try moves in the fixed order (default) or fewest onward moves first",
    )
    p.add_argument(
        "--rule",
        metavar="RULE",
        help="warnsdorff: roth (default), random, first, pohl, squirrel or border",
    )
    p.add_argument(
        "--repair",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="warnsdorff: use Posa rotations (default: on for roth, off for the named rules)",
    )
    p.add_argument("--attempts", type=int, metavar="K", help="warnsdorff: walks to try")
    p.add_argument("--seed", type=int, metavar="S", help="seed for random choices")
    p.add_argument("--limit", type=int, metavar="N", help="work budget (nodes or steps)")
    p.add_argument(
        "--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC seconds"
    )


# ---------------------------------------------------------------------- tour
_METHOD_FLAGS = {
    "moves": "--moves",
    "prune": "--prune",
    "oracle": "--oracle",
    "order": "--order",
    "rule": "--rule",
    "repair": "--repair",
    "attempts": "--attempts",
}


def _solver_options(args: argparse.Namespace) -> dict[str, Any]:
    from .solvers import solver_info

    info = solver_info(args.method)
    given = {
        "moves": args.moves,
        "prune": args.prune or None,
        "oracle": args.oracle or None,
        "order": args.order,
        "rule": args.rule,
        "repair": args.repair,
        "attempts": args.attempts,
    }
    options = {k: v for k, v in given.items() if v is not None}
    for key in options:
        if key not in info.options:
            raise InvalidOptionError(
                f"{_METHOD_FLAGS[key]} does not apply to --method {args.method}"
            )
    return options


def _request(args: argparse.Namespace) -> tuple[Board, Square | None, Square | None]:
    """The board and the (checked) ends named on the command line."""
    from .solvers import Problem

    board = Board(args.m, args.n, leaper=args.leaper, removed=args.remove)
    problem = Problem.make(board, args.closed, args.start, args.end)
    return (
        board,
        None if problem.start is None else board.square(problem.start),
        None if problem.end is None else board.square(problem.end),
    )


def _cmd_tour(args: argparse.Namespace) -> int:
    from .formats import format_board, format_squares, result_to_dict, write_npy
    from .solvers import find_tour

    board, start, end = _request(args)
    if args.format == "npy" and not args.output:
        raise _UsageError("--format npy writes binary data: give -o FILE")
    options = _solver_options(args)
    with _progress("searching") as progress:
        result = find_tour(
            board,
            closed=args.closed,
            start=start,
            end=end,
            method=args.method,
            seed=args.seed,
            limit=args.limit,
            timeout=args.timeout,
            progress=progress,
            **options,
        )
    _write_proof(result, args.proof)
    if args.format == "json":
        _emit(json.dumps(result_to_dict(result, board, args.closed, start, end)), args.output)
    elif result.tour is None:
        print(result.reason)
    elif args.format == "npy":
        write_npy(result.tour.order, args.output)
    else:
        render = format_board if args.format == "board" else format_squares
        _emit(render(result.tour), args.output)
    return _EXIT_OF[result.status]


def _emit(text: str, output: str | None) -> None:
    from .formats import write_text

    if output:
        write_text(text, output)
    else:
        print(text)


@contextmanager
def _progress(
    what: str, *, unit: str = " steps", total: int | None = None
) -> Iterator[Callable[[dict[str, Any]], None] | None]:
    """A tqdm bar on a terminal (standard error), nothing otherwise.  The callback takes
    the solvers' counters; the work done is ``done``, ``placed`` or ``steps``."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(desc=what, unit=unit, total=total, leave=False, file=sys.stderr, mininterval=0.5)

    def update(stats: dict[str, Any]) -> None:
        work = stats.get("done", stats.get("placed", stats.get("steps", 0)))
        bar.update(max(0, int(work) - bar.n))
        bar.set_postfix(
            {k: v for k, v in stats.items() if k not in ("placed", "steps")}, refresh=False
        )

    try:
        yield update
    finally:
        bar.close()


# -------------------------------------------------------------------- exists
def _cmd_exists(args: argparse.Namespace) -> int:
    from .solvers import tour_exists

    board, start, end = _request(args)
    with _progress("deciding") as progress:
        result = tour_exists(
            board, closed=args.closed, start=start, end=end, timeout=args.timeout, progress=progress
        )
    _write_proof(result, args.proof)
    if args.format == "json":
        print(json.dumps(_exists_dict(result, board, args.closed, start, end)))
    else:
        print(_exists_text(result, board, args.closed, start, end))
    return _EXIT_OF[result.status]


def _write_proof(result: SearchResult, path: str | None) -> None:
    """Write a SAT refutation's proof and CNF, if there is one and a file was asked for."""
    if path is None:
        return
    cert = result.certificate
    if cert is None or cert.kind != "sat-refutation":
        what = "a tour was found" if result.found else (
            f"the certificate is {cert.kind}, not a SAT refutation" if cert else "nothing was proved")  # fmt: skip
        print(f"no proof written to {path}: {what}", file=sys.stderr)
        return
    from .formats import write_text

    clauses = cert.data["cnf"]
    variables = max((abs(x) for clause in clauses for x in clause), default=0)
    dimacs = [f"c knightgraph: {cert.reason}", f"p cnf {variables} {len(clauses)}"]
    dimacs += [" ".join(map(str, [*clause, 0])) for clause in clauses]
    write_text("\n".join(dimacs), path + ".cnf")
    write_text("\n".join(cert.data["proof"]), path)


# --------------------------------------------------------------------- table
def _cmd_table(args: argparse.Namespace) -> int:
    from .explore import existence_table

    rows, cols = _table_size(args)
    with _progress("boards", unit=" boards", total=rows * cols) as progress, \
            _executor(args) as executor:  # fmt: skip
        table = existence_table(
            rows, cols, timeout=args.timeout, total_timeout=args.total_timeout, executor=executor,
            progress=None if progress is None else lambda done, total: progress({"done": done}),
        )  # fmt: skip
    print(json.dumps(table.to_dict()) if args.format == "json" else table.text())
    for line in table.disagreements:
        print(f"knightgraph table: disagreement: {line}", file=sys.stderr)
    if table.disagreements:
        return EXIT_NO
    return EXIT_UNKNOWN if any("?" in row for row in table.codes) else EXIT_OK


def _table_size(args: argparse.Namespace) -> tuple[int, int]:
    """The table's largest board (``N`` defaults to ``M``; ``0`` is not a default),
    checked, and refused up front when its tours cannot fit in memory."""
    from .resources import require_table_memory

    rows, cols = args.m, args.m if args.n is None else args.n
    Board(rows, cols)  # validates the sizes (a message naming the bad one)
    require_table_memory(rows, cols)
    return rows, cols


def _exists_dict(
    result: SearchResult, board: Board, closed: bool, start: Square | None, end: Square | None
) -> dict[str, Any]:
    name = board.name
    out: dict[str, Any] = {
        "rows": board.m,
        "cols": board.n,
        "closed": closed,
        "start": None if start is None else name(start),
        "end": None if end is None else name(end),
        "exists": {Status.FOUND: True, Status.PROVEN_ABSENT: False}.get(result.status),
        "reason": _exists_reason(result),
        "certificate": None,
    }
    if result.tour is not None:
        out["certificate"] = {
            "kind": "tour",
            "reason": out["reason"],
            "method": result.method,
            "squares": result.tour.to_dict()["squares"],
        }
    elif result.certificate is not None:
        out["certificate"] = result.certificate.to_dict()
    if board.leaper != KNIGHT:
        out["leaper"] = list(board.leaper)
    if board.removed:
        out["removed"] = [board.name(s) for s in sorted(board.removed)]
    theorem = _theorem_check(result, board, closed, start, end)
    if theorem is not None:
        out["theorem"] = theorem
    return out


def _theorem_check(
    result: SearchResult, board: Board, closed: bool, start: Square | None, end: Square | None
) -> dict[str, Any] | None:
    """What the existence theorem says, and whether the proof agrees (it must)."""
    from .existence import closed_tour_exists, open_tour_exists

    if not board.is_standard or start is not None or end is not None:
        return None
    verdict = (closed_tour_exists if closed else open_tour_exists)(board.m, board.n)
    agrees = None if result.status is Status.ABORTED else result.found == bool(verdict)
    return {"exists": bool(verdict), "reason": verdict.reason, "agrees": agrees}


def _exists_reason(result: SearchResult) -> str:
    if result.tour is not None:
        return f"a tour was found by {result.method} and verified"
    if result.certificate is not None:
        return result.certificate.reason
    return f"undecided: {result.reason}"


def _exists_text(
    result: SearchResult, board: Board, closed: bool, start: Square | None, end: Square | None
) -> str:
    from .solvers import Problem

    what = Problem.make(board, closed, start, end).describe()
    verdict = {Status.FOUND: "exists", Status.PROVEN_ABSENT: "does not exist"}.get(
        result.status, "unknown"
    )
    return f"{what}: {verdict} ({_exists_reason(result)})"


# -------------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    from .formats import read_tour_file
    from .verify import validate_tour

    board, start, end = _request(args)
    try:
        squares, says_closed = read_tour_file(args.file, board)
        closed = args.closed or says_closed
        validate_tour(squares, board, closed=closed, start=start, end=end)
    except InvalidTourError as err:
        print(f"invalid: {err}")
        return EXIT_NO
    kind = "closed" if closed else "open"
    print(f"ok: a valid {kind} tour of {board.m}x{board.n} ({board.num_squares} squares)")
    return EXIT_OK


# --------------------------------------------------------------------- sweep
def _cmd_sweep(args: argparse.Namespace) -> int:
    import numpy as np

    from .explore import sweep
    from .solvers import solver_info

    board = Board(args.m, args.n, leaper=args.leaper, removed=args.remove)
    options = _solver_options(args)
    board.require_memory("sweep", extra=solver_info(args.method).memory(board))
    with _progress("start squares", unit=" starts", total=board.num_squares) as progress, \
            _executor(args) as executor:  # fmt: skip
        result = sweep(
            board, method=args.method, closed=args.closed, timeout=args.timeout,
            total_timeout=args.total_timeout, seed=args.seed, limit=args.limit, executor=executor,
            progress=None if progress is None else lambda done, total: progress({"done": done}),
            **options,
        )  # fmt: skip
    stopped = EXIT_UNKNOWN if result.not_started else EXIT_OK
    if result.not_started:
        print(f"stopped at the total timeout: {result.not_started:,} start squares not tried",
              file=sys.stderr)  # fmt: skip
    if args.format == "json":
        print(json.dumps(result.to_dict()))
        return stopped
    available = board.available().reshape(board.m, board.n)
    cells = np.where(result.ok, ".", "X")
    cells[~available] = " "
    label = len(str(board.m))
    lines = (f"{str(r + 1).rjust(label)} | {''.join(cells[r])}" for r in range(board.m - 1, -1, -1))
    print("\n".join(lines))
    failed = result.failed_squares(limit=21)
    shown = " ".join(failed[:20]) + (" ..." if len(failed) > 20 else "")
    print(
        f"{result.failures} of {board.num_squares} start squares failed with {args.method}"
        f" ({result.seconds:.2f} s){': ' + shown if failed else ''}"
    )
    return stopped


# ------------------------------------------------------------------- classic
def _cmd_classic(args: argparse.Namespace) -> int:
    from .classic import solve_classic

    if args.file is None or args.file == "-":
        stream = getattr(sys.stdin, "buffer", None)  # None: a text stream put in its place
        try:
            text = sys.stdin.read() if stream is None else stream.read().decode("utf-8")
        except UnicodeDecodeError:
            raise _UsageError("cannot read standard input: not UTF-8 text") from None
    else:
        try:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as err:
            why = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
            raise _UsageError(f"cannot read {args.file!r}: {why}") from None
    answer = solve_classic(text, timeout=args.timeout)
    print(answer.text)
    if answer.text == "Not Found":
        return EXIT_NO
    return _EXIT_OF[answer.result.status]


# ---------------------------------------------------------------------- draw
def _add_draw(sub: Any) -> None:
    """``knightgraph draw tour | graph | table | file``: pictures, format from the suffix."""
    draw = sub.add_parser(
        "draw",
        help="pictures of tours, knight graphs and the existence table (PNG, SVG, PDF, GIF)",
        description="Draw a tour, a knight graph or the existence table; the format is the "
        "output file's suffix: .png, .svg, .pdf or .gif (--animate: .gif, or .mp4 with ffmpeg).",
    )
    what = draw.add_subparsers(dest="what", metavar="WHAT", parser_class=_Parser)
    what.required = True

    tour = what.add_parser("tour", help="find a tour and draw it")
    _add_board(tour)
    _add_ends(tour)
    _add_kind(tour)
    _add_search_options(tour, default_method="auto")
    _add_draw_style(tour)
    tour.set_defaults(run=_cmd_draw_tour)

    graph = what.add_parser("graph", help="draw the knight graph of a board")
    _add_board(graph)
    graph.add_argument("--layout", default="board", metavar="NAME",
                       help="board (default), spring, circular, spectral, shell or bipartite")  # fmt: skip
    graph.add_argument("--color-by", default="color", choices=("color", "degree"),
                       help="colour nodes by square colour (default) or degree")  # fmt: skip
    graph.add_argument("--labels", action=argparse.BooleanOptionalAction, default=None,
                       help="square names on the nodes (default: up to 64 nodes)")  # fmt: skip
    graph.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the spring layout")
    _add_draw_output(graph)
    graph.set_defaults(run=_cmd_draw_graph)

    table = what.add_parser("table", help="draw the existence table (codes c/e/o/x)")
    table.add_argument("m", type=_size, metavar="M", help="largest number of ranks")
    table.add_argument("n", type=_size, nargs="?", metavar="N", help="largest number of files")
    table.add_argument("--timeout", type=float, metavar="SEC",
                       help="seconds allowed to each search (then '?')")  # fmt: skip
    _add_total_timeout(table)
    _add_draw_output(table)
    table.set_defaults(run=_cmd_draw_table)

    file = what.add_parser("file", help="draw a tour file (JSON; or text, .npy with M N)")
    file.add_argument("file", metavar="FILE", help="the tour: JSON from `tour --format json`, "
                      "or algebraic text, a numbered board or .npy with M N; - for stdin")  # fmt: skip
    file.add_argument("m", type=_size, nargs="?", metavar="M", help="ranks (files other than JSON)")
    file.add_argument("n", type=_size, nargs="?", metavar="N", help="files (files other than JSON)")
    file.add_argument("--leaper", type=_leaper, default=KNIGHT, metavar="A,B",
                      help="the piece, with M N (default 1,2)")  # fmt: skip
    file.add_argument("--remove", action="append", default=[], metavar="SQ",
                      help="a removed square, with M N (repeat for more)")  # fmt: skip
    file.add_argument("--closed", action="store_true", help="the tour is closed (JSON says so)")
    _add_draw_style(file)
    file.set_defaults(run=_cmd_draw_file)


def _add_draw_output(p: argparse.ArgumentParser, *, page: bool = False) -> None:
    what = ".png, .svg, .pdf or .gif"
    if page:
        what = ".png, .svg, .pdf, .gif, or .html for an interactive page"
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help=f"the picture: {what} (written atomically)")  # fmt: skip
    p.add_argument("--dpi", type=float, default=100, metavar="DPI",
                   help="resolution of PNG and GIF (default 100, at most 1200)")  # fmt: skip


def _add_draw_style(p: argparse.ArgumentParser) -> None:
    p.add_argument("--numbers", action="store_true",
                   help="the visiting number in every square (up to 50x50)")  # fmt: skip
    p.add_argument("--arrows", action="store_true", help="an arrowhead on every move")
    p.add_argument("--color-by", default="step", choices=("step", "direction", "none"),
                   help="colour the moves by step (default), direction or not at all")  # fmt: skip
    p.add_argument("--no-labels", dest="labels", action="store_false",
                   help="no file/rank labels or title")  # fmt: skip
    p.add_argument("--no-markers", dest="markers", action="store_false",
                   help="do not mark the start and end")  # fmt: skip
    p.add_argument("--animate", action="store_true",
                   help="an animation of the tour being walked (.gif, or .mp4 with ffmpeg)")  # fmt: skip
    p.add_argument("--fps", type=int, default=12, metavar="N", help="animation frames a second")
    _add_draw_output(p, page=True)


def _check_draw_output(args: argparse.Namespace, *, page: bool = False) -> None:
    """Refuse a bad suffix, dpi or fps, or a missing folder before any work (exit 2).

    ``page``: the command can also write the interactive HTML page (``.html``).
    """
    import os

    from .draw import ANIMATION_FORMATS, FORMATS, MAX_DPI

    if not 0 < args.dpi <= MAX_DPI:  # not NaN either
        raise _UsageError(
            f"invalid --dpi {args.dpi:g}: expected a number above 0, at most {MAX_DPI}"
        )
    if getattr(args, "fps", 1) < 1:
        raise _UsageError(f"invalid --fps {args.fps}: expected a whole number >= 1")
    path = args.output
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    animate = getattr(args, "animate", False)
    allowed = ANIMATION_FORMATS if animate else FORMATS + (("html",) if page else ())
    if suffix not in allowed:
        what = "an animation" if animate else "a picture"
        shown = f"'.{suffix}'" if suffix else "no suffix"
        raise _UsageError(
            f"cannot write {what} to {path!r} ({shown}): use " + ", ".join(f".{s}" for s in allowed)
        )
    if suffix == "mp4":
        from matplotlib import animation

        if not animation.writers.is_available("ffmpeg"):
            raise _UsageError("cannot write MP4: ffmpeg is not installed (write a .gif)")
    _check_output_path(path, "-o")


def _is_page(path: str) -> bool:
    """Whether ``path`` asks for the interactive HTML page rather than a picture."""
    return path.lower().endswith(".html")


def _draw_tour_to(tour: Any, args: argparse.Namespace) -> None:
    from .draw import animate_tour, draw_tour, save_figure

    style = {
        "numbers": args.numbers,
        "arrows": args.arrows,
        "color_by": None if args.color_by == "none" else args.color_by,
        "labels": args.labels,
        "markers": args.markers,
    }
    if _is_page(args.output) and not args.animate:
        from .tourpage import write_tour_html

        write_tour_html(tour, args.output)
    elif args.animate:
        animate_tour(tour, args.output, fps=args.fps, dpi=max(1, round(args.dpi)), **style)
    else:
        save_figure(draw_tour(tour, **style), args.output, dpi=args.dpi)
    kind = "closed" if tour.closed else "open"
    squares = f"{len(tour):,} square{'' if len(tour) == 1 else 's'}"
    print(f"wrote {args.output}: {kind} tour of {tour.m}x{tour.n} ({squares})")


def _cmd_draw_tour(args: argparse.Namespace) -> int:
    from .solvers import find_tour

    _check_draw_output(args, page=True)
    board, start, end = _request(args)
    options = _solver_options(args)
    with _progress("searching") as progress:
        result = find_tour(
            board, closed=args.closed, start=start, end=end, method=args.method, seed=args.seed,
            limit=args.limit, timeout=args.timeout, progress=progress, **options,
        )  # fmt: skip
    if result.tour is None:
        print(result.reason)
        return _EXIT_OF[result.status]
    _draw_tour_to(result.tour, args)
    return EXIT_OK


def _cmd_draw_file(args: argparse.Namespace) -> int:
    from .formats import parse_tour_bytes
    from .tour import Tour

    _check_draw_output(args, page=True)
    if (args.m is None) != (args.n is None):
        raise _UsageError("give the board size as M N, or neither (JSON files carry it)")
    raw, name = _read_draw_input(args.file)
    if args.m is not None:
        board = Board(args.m, args.n, leaper=args.leaper, removed=args.remove)
    else:
        board = _board_of_json(raw, name)
    squares, says_closed = parse_tour_bytes(raw, board, name)
    _draw_tour_to(Tour.from_squares(squares, board, closed=args.closed or says_closed), args)
    return EXIT_OK


def _read_draw_input(path: str) -> tuple[bytes, str]:
    """The bytes of a tour file, or of standard input for ``-``, and a name for messages."""
    from .exceptions import TourFormatError

    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    try:
        with open(path, "rb") as f:
            return f.read(), path
    except OSError as err:
        raise TourFormatError(f"cannot read {path!r}: {err.strerror or err}") from None


def _board_of_json(raw: bytes, path: str) -> Board:
    """The board a JSON tour describes (``rows``, ``cols``, ``leaper``, ``removed``)."""
    from .exceptions import TourFormatError

    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise _UsageError(
            f"{path!r} is not a JSON tour: give the board size (draw file FILE M N)"
        ) from None
    if not isinstance(data, dict) or "rows" not in data or "cols" not in data:
        raise _UsageError(f"{path!r} does not say its board size: draw file FILE M N")
    try:
        return Board(data["rows"], data["cols"], leaper=tuple(data.get("leaper", KNIGHT)),
                     removed=data.get("removed", ()))  # fmt: skip
    except TypeError:
        raise TourFormatError(f"cannot read {path!r}: a bad 'leaper' or 'removed'") from None


def _cmd_draw_graph(args: argparse.Namespace) -> int:
    from .draw import LAYOUTS, draw_knight_graph, save_figure
    from .graph import knight_graph

    _check_draw_output(args)
    if args.layout not in LAYOUTS:
        raise _UsageError(f"invalid layout {args.layout!r}: choose from {', '.join(LAYOUTS)}")
    board = Board(args.m, args.n, leaper=args.leaper, removed=args.remove)
    if board.area > 10_000:
        raise _UsageError(
            f"the graph of {board.m}x{board.n} is too big to draw: at most 10,000 squares"
        )
    G = knight_graph(board)
    ax = draw_knight_graph(G, layout=args.layout, color_by=args.color_by, labels=args.labels,
                           seed=args.seed)  # fmt: skip
    save_figure(ax, args.output, dpi=args.dpi)
    print(f"wrote {args.output}: {G.number_of_nodes()} squares, {G.number_of_edges()} moves")
    return EXIT_OK


def _cmd_draw_table(args: argparse.Namespace) -> int:
    from .draw import draw_existence_table, save_figure
    from .explore import existence_table

    _check_draw_output(args)
    rows, cols = _table_size(args)
    with _progress("boards", unit=" boards", total=rows * cols) as progress:
        table = existence_table(
            rows, cols, timeout=args.timeout, total_timeout=args.total_timeout,
            progress=None if progress is None else lambda done, total: progress({"done": done}),
        )  # fmt: skip
    save_figure(draw_existence_table(table), args.output, dpi=args.dpi)
    print(f"wrote {args.output}: existence table 1..{rows} x 1..{cols}")
    for line in table.disagreements:
        print(f"knightgraph draw: disagreement: {line}", file=sys.stderr)
    if table.disagreements:
        return EXIT_NO
    return EXIT_UNKNOWN if any("?" in row for row in table.codes) else EXIT_OK


# --------------------------------------------------------- count, starts, ends
def _add_total_timeout(p: argparse.ArgumentParser) -> None:
    p.add_argument("--total-timeout", type=float, metavar="SEC",
                   help="seconds for the whole run: no search starts after SEC, each gets at "
                   "most what is left, and what was not decided is '?' (exit 3)")  # fmt: skip


def _add_executor(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers", type=int, metavar="N", help="run on N local processes (0: one per CPU)"
    )
    where.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on a dask.distributed scheduler (pip install 'knightgraph[distributed]')",
    )


def _executor(args: argparse.Namespace) -> Any:
    from .parallel import get_executor

    return get_executor(workers=args.workers, dask=args.dask)


# ------------------------------------------------------------- checks first
def _check_output_path(path: str, flag: str) -> None:
    """Refuse an output path that cannot be written, before any work (exit 2)."""
    if not path.strip():
        raise _UsageError(f"invalid {flag} {path!r}: expected a file name")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise _UsageError(f"cannot write {path!r}: no such folder {folder!r}")
    if os.path.isdir(path):
        raise _UsageError(f"cannot write {path!r}: it is a folder")
    if not os.access(folder, os.W_OK):
        raise _UsageError(f"cannot write {path!r}: permission denied")


def _preflight(args: argparse.Namespace) -> None:
    """The checks every command makes before any work: worker count, dask address,
    budgets and output paths (board sizes and squares are checked by each command
    as soon as it has built its board, also before any work)."""
    from .parallel import check_dask_address, check_workers

    if getattr(args, "workers", None) is not None:
        check_workers(args.workers)
    if getattr(args, "dask", None) is not None:
        check_dask_address(args.dask)
    for flag in ("timeout", "total_timeout"):
        seconds = getattr(args, flag, None)
        if seconds is not None and not (math.isfinite(seconds) and seconds >= 0):
            name = "--" + flag.replace("_", "-")
            raise _UsageError(f"invalid {name} {seconds:g}: expected seconds >= 0")
    for flag in ("limit", "attempts"):
        value = getattr(args, flag, None)
        if value is not None and value < (1 if flag == "attempts" else 0):
            least = 1 if flag == "attempts" else 0
            raise _UsageError(f"invalid --{flag} {value}: expected a whole number >= {least}")
    if args.command != "draw" and getattr(args, "output", None) is not None:
        _check_output_path(args.output, "-o")
    if getattr(args, "proof", None) is not None:
        _check_output_path(args.proof, "--proof")
        _check_output_path(args.proof + ".cnf", "--proof")


def _add_count_parsers(sub: Any) -> None:
    count = sub.add_parser(
        "count",
        help="count tours exactly (frontier dynamic program; OEIS conventions)",
        description="Count tours exactly: closed tours as undirected cycles (directed = 2x), "
        "open tours as directed paths (the OEIS conventions).",
    )
    _add_board(count)
    _add_ends(count)
    _add_kind(count)
    count.add_argument(
        "--convention",
        choices=("oeis", "knuth"),
        default="oeis",
        help="knuth: leave out open tours whose ends are a knight's move apart",
    )
    count.add_argument(
        "--symmetry",
        action="store_true",
        help="also count tours up to the board's symmetries (Burnside), and those each fixes",
    )
    count.add_argument("--list", type=int, metavar="K", help="also list up to K tours")
    count.add_argument("--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC")
    count.add_argument("--format", default="text", choices=("text", "json"))
    _add_executor(count)
    count.set_defaults(run=_cmd_count)

    starts = sub.add_parser("starts", help="which start squares admit a tour (exact)")
    _add_board(starts)
    _add_kind(starts)
    _add_map_options(starts)
    starts.set_defaults(run=_cmd_starts)

    ends = sub.add_parser("ends", help="which end squares a tour from --start can reach (exact)")
    _add_board(ends)
    ends.add_argument("--start", metavar="SQ", required=True, help="the first square")
    _add_kind(ends)
    _add_map_options(ends)
    ends.set_defaults(run=_cmd_ends)


def _add_map_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--counts",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="count the tours per square too (default: on boards of at most 36 squares)",
    )
    p.add_argument("--timeout", type=float, metavar="SEC", help="seconds allowed to each square")
    _add_total_timeout(p)
    p.add_argument("--format", default="text", choices=("text", "json"))
    _add_executor(p)


def _cmd_count(args: argparse.Namespace) -> int:
    from .counting import count_symmetric, count_tours, enumerate_tours
    from .exceptions import SearchAbortedError

    board, start, end = _request(args)
    board.require_memory("count")
    if args.list is not None and args.list < 0:
        raise _UsageError(f"invalid --list {args.list}: expected a whole number >= 0")
    if args.symmetry and (start is not None or end is not None):
        raise _UsageError("--symmetry counts whole boards: leave out --start and --end")
    began = time.monotonic()
    try:
        with _progress("counting", unit=" squares", total=board.num_squares) as progress:
            result = count_tours(
                board, closed=args.closed, start=start, end=end, convention=args.convention,
                timeout=args.timeout, progress=progress,
            )  # fmt: skip
            symmetry = None
            if args.symmetry:
                with _executor(args) as executor:
                    left = (
                        None
                        if args.timeout is None
                        else max(0.0, args.timeout - (time.monotonic() - began))
                    )  # one budget for both
                    symmetry = count_symmetric(board, closed=args.closed, timeout=left,
                                               executor=executor)  # fmt: skip
    except SearchAbortedError as err:
        print(f"{err}", file=sys.stderr)
        return EXIT_UNKNOWN
    tours = []
    if args.list:
        tours = list(enumerate_tours(board, closed=args.closed, start=start, end=end,
                                     limit=args.list))  # fmt: skip
    if args.format == "json":
        out = result.to_dict()
        if symmetry is not None:
            out["symmetry"] = {"classes": symmetry.classes, "fixed": symmetry.fixed}
        if args.list is not None:
            out["tours"] = [t.to_dict()["squares"] for t in tours]
        print(json.dumps(out))
    else:
        kind = "closed" if args.closed else "open"
        where = "".join(f" {w} {board.name(sq)}" for w, sq in (("from", start), ("to", end)) if sq)
        text = f"{kind} tours on {board.m}x{board.n}{where}: {result.directed:,} directed"
        if result.undirected is not None:
            text += f", {result.undirected:,} undirected"
        print(f"{text} ({result.seconds:.2f} s)")
        if symmetry is not None:
            fixed = ", ".join(f"{k} {v:,}" for k, v in symmetry.fixed.items())
            print(f"up to symmetry: {symmetry.classes:,} (fixed: {fixed})")
        for t in tours:
            print(" ".join(t.algebraic()))
    return EXIT_OK if result.directed else EXIT_NO


def _cmd_starts(args: argparse.Namespace) -> int:
    from .explore import start_map

    return _cmd_map(args, "start squares", start_map)


def _cmd_ends(args: argparse.Namespace) -> int:
    from .explore import end_map

    return _cmd_map(args, "end squares", end_map, start=args.start)


def _cmd_map(args: argparse.Namespace, what: str, make: Callable[..., Any], **where: Any) -> int:
    """``starts`` and ``ends``: an exact map of the squares, with a progress bar."""
    board = Board(args.m, args.n, leaper=args.leaper, removed=args.remove)
    board.require_memory("map")
    if "start" in where:
        board.parse_square(where["start"])  # a bad --start is named before any work
    with _progress(what, unit=" squares", total=board.num_squares) as progress, \
            _executor(args) as executor:  # fmt: skip
        result = make(
            board, closed=args.closed, executor=executor, timeout=args.timeout,
            total_timeout=args.total_timeout, counts="auto" if args.counts is None else args.counts,
            progress=None if progress is None else lambda done, total: progress({"done": done}),
            **where,
        )  # fmt: skip
    print(json.dumps(result.to_dict()) if args.format == "json" else result.text())
    return EXIT_UNKNOWN if result.unknown else EXIT_OK


# ---------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = _build_parser()
    args, extra = parser.parse_known_args(
        _attach_dash_values(sys.argv[1:] if argv is None else argv)
    )
    if extra and args.command == "verify" and args.file is None and len(extra) == 1:
        args.file = extra.pop()  # `verify M N --closed FILE`: argparse leaves FILE over
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    with _sigterm_unwinds():
        code = _run(parser, args)
    if argv is None and code in (130, 128 + signal.SIGTERM):
        _exit_at_once(code)
    return code


def _exit_at_once(code: int) -> NoReturn:
    """Leave the process now, after an interruption, with the one-line message already out.

    The interpreter's exit hooks would try to wake a process pool whose workers were
    just killed, and may print a traceback about a closed pipe after our one line.
    Only the command itself (``argv`` from the process) exits this way.
    """
    import os

    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command: map every error to one line and an exit code, never a traceback."""
    try:
        _preflight(args)
        code: int = args.run(args)
    except _UsageError as err:
        return _fail(f"{parser.prog} {args.command}: error: {err}")
    except KnightGraphError as err:
        if _is_internal(err):
            return _internal(parser.prog, str(err).removeprefix("internal error").lstrip(": "))
        return _fail(f"{parser.prog} {args.command}: error: {_one_line(str(err))}")
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        _silence_stdout()
        return 141
    except OSError as err:
        where = f" {err.filename!r}" if err.filename else ""
        return _fail(
            f"{parser.prog} {args.command}: error: cannot write{where}: {err.strerror or err}"
        )
    except MemoryError:
        return _fail(f"{parser.prog} {args.command}: error: out of memory")
    except KeyboardInterrupt:
        return _fail(f"{parser.prog} {args.command}: interrupted", 130)
    except _Terminated:
        return _fail(f"{parser.prog} {args.command}: terminated", 128 + signal.SIGTERM)
    except Exception as err:  # a bug: say so, with a distinct exit code
        return _internal(parser.prog, f"{type(err).__name__}: {err}")
    return code


def _is_internal(err: KnightGraphError) -> bool:
    """A broken promise of knightgraph itself (an ``InternalError``, or a message that
    says ``internal error``), as opposed to bad input."""
    from .exceptions import InternalError

    return isinstance(err, InternalError) or str(err).startswith("internal error")


def _internal(prog: str, detail: str) -> int:
    return _fail(f"{prog}: internal error: {_one_line(detail)} (please report this)", EXIT_INTERNAL)


def _one_line(text: str) -> str:
    return " ".join(text.split())


@contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """While a command runs, SIGTERM raises :class:`_Terminated` (like Ctrl-C raises
    KeyboardInterrupt), so that executors stop their workers on the way out."""

    def terminated(signum: int, frame: object) -> None:
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_VALUE_FLAGS = ("--moves", "--start", "--end", "--remove", "--leaper")


def _attach_dash_values(argv: Sequence[str]) -> list[str]:
    """Write ``--moves -2,1;...`` as ``--moves=-2,1;...`` so argparse does not take the
    value for an option (move orders and ``r,c`` squares may start with a minus)."""
    out: list[str] = []
    for token in argv:
        if out and out[-1] in _VALUE_FLAGS and token.startswith("-") and token[1:2].isdigit():
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that the final flush cannot fail again."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    sys.stdout.flush()
    print(message, file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
