"""``knightgraph tour | exists | verify | classic``: one board, one answer."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidTourError
from ._replies import exists_reason, stopped_result
from ._shared import (
    EXAMPLES,
    EXIT_NO,
    EXIT_OF,
    EXIT_OK,
    UsageError,
    add_board,
    add_ends,
    add_kind,
    add_search_options,
    emit,
    progress_bar,
    request_of,
    search_board,
    solver_options_of,
)
from .shapes import graph_exists, graph_requested, graph_tour, graph_verify

if TYPE_CHECKING:  # results (dataclasses, inspect) are imported when a command needs them
    from ..boards.board import Board, Square
    from ..tours.results import SearchResult


# ------------------------------------------------------------------ parsers
def _add_tour(sub: Any) -> None:
    tour = sub.add_parser(
        "tour",
        help="find a tour (or prove there is none)",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_board(tour)
    add_ends(tour)
    add_kind(tour)
    add_search_options(tour, default_method="auto")
    tour.add_argument(
        "--format",
        default="squares",
        choices=("squares", "board", "json", "npy"),
        help="output format (default squares)",
    )
    tour.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically)")
    _add_proof(tour)
    tour.set_defaults(run=_cmd_tour)


def _add_exists(sub: Any) -> None:
    exists = sub.add_parser("exists", help="decide whether a tour exists, with a certificate")
    add_board(exists)
    add_ends(exists)
    add_kind(exists)
    exists.add_argument(
        "--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC seconds"
    )
    exists.add_argument("--format", default="text", choices=("text", "json"))
    _add_proof(exists)
    exists.set_defaults(run=_cmd_exists)


def _add_verify(sub: Any) -> None:
    verify = sub.add_parser(
        "verify", help="check a tour file (algebraic text, numbered board, JSON or .npy)"
    )
    add_board(verify)
    verify.add_argument(
        "file", nargs="?", metavar="FILE", help="the tour (default: standard input)"
    )
    add_ends(verify)
    verify.add_argument("--closed", action="store_true", help="also require a closed tour")
    verify.set_defaults(run=_cmd_verify)


def _add_classic(sub: Any) -> None:
    classic = sub.add_parser(
        "classic",
        help="the seed-002 exercise: three lines (M N, start, end) in, a tour or Not Found out",
    )
    classic.add_argument("file", nargs="?", metavar="FILE", help="the input (default: stdin)")
    classic.add_argument(
        "--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC seconds"
    )
    classic.set_defaults(run=_cmd_classic)


def _add_proof(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--proof",
        metavar="FILE",
        help="when absence is proved by SAT, write the DRUP proof to FILE and the CNF "
        "(DIMACS) to FILE.cnf, for drat-trim or python -m knightgraph.certcheck.drup",
    )


# --------------------------------------------------------------------- tour
def _cmd_tour(args: argparse.Namespace) -> int:
    from .quick import quick_tour

    code = quick_tour(args)  # one stored block (tour 8 8): the same answer, without numpy
    if code is not None:
        return code
    import json

    from ..io.formats import format_board, format_squares, result_to_dict, write_npy

    if graph_requested(args):
        code, result = graph_tour(args)
        _write_proof(result, args.proof)
        return code
    board, start, end = request_of(args)
    if args.format == "npy" and not args.output:
        raise UsageError("--format npy writes binary data: give -o FILE")
    if args.format == "json":
        args.aborted_answer = lambda reason: emit(
            json.dumps(
                result_to_dict(stopped_result(args, reason), board, args.closed, start, end)
            ),
            args.output,
        )
    options = solver_options_of(args)
    result = search_board(args, board, start, end, **options)
    _write_proof(result, args.proof)
    if args.format == "json":
        emit(json.dumps(result_to_dict(result, board, args.closed, start, end)), args.output)
    elif result.tour is None:
        print(result.reason)
    elif args.format == "npy":
        write_npy(result.tour.order, args.output)
    else:
        render = format_board if args.format == "board" else format_squares
        emit(render(result.tour), args.output)
    return EXIT_OF[result.status]


def _write_proof(result: SearchResult, path: str | None) -> None:
    """Write a SAT refutation's proof and CNF, if there is one and a file was asked for."""
    if path is None:
        return
    cert = result.certificate
    if cert is None or cert.kind != "sat-refutation":
        if result.found:
            what = "a tour was found"
        elif cert is not None:
            what = f"the certificate is {cert.kind}, not a SAT refutation"
        else:
            what = "nothing was proved"
        print(f"no proof written to {path}: {what}", file=sys.stderr)
        return
    from ..running.disk import write_text

    clauses = cert.data["cnf"]
    variables = max((abs(x) for clause in clauses for x in clause), default=0)
    dimacs = [f"c knightgraph: {cert.reason}", f"p cnf {variables} {len(clauses)}"]
    dimacs += [" ".join(map(str, [*clause, 0])) for clause in clauses]
    write_text("\n".join(dimacs), path + ".cnf")
    write_text("\n".join(cert.data["proof"]), path)


# ------------------------------------------------------------------- exists
def _cmd_exists(args: argparse.Namespace) -> int:
    import json

    from ..solvers import tour_exists

    if graph_requested(args):
        code, found = graph_exists(args)
        _write_proof(found, args.proof)
        return code
    board, start, end = request_of(args)
    if args.format == "json":
        args.aborted_answer = lambda reason: print(
            json.dumps(_exists_dict(stopped_result(args, reason), board, args.closed, start, end))
        )
    with progress_bar("deciding") as progress:
        result = tour_exists(
            board, closed=args.closed, start=start, end=end, timeout=args.timeout, progress=progress
        )
    _write_proof(result, args.proof)
    if args.format == "json":
        print(json.dumps(_exists_dict(result, board, args.closed, start, end)))
    else:
        print(_exists_text(result, board, args.closed, start, end))
    return EXIT_OF[result.status]


def _exists_dict(
    result: SearchResult, board: Board, closed: bool, start: Square | None, end: Square | None
) -> dict[str, Any]:
    from ..tours.results import Status

    name = board.name
    out: dict[str, Any] = {
        "rows": board.m,
        "cols": board.n,
        "closed": closed,
        "start": None if start is None else name(start),
        "end": None if end is None else name(end),
        "exists": {Status.FOUND: True, Status.PROVEN_ABSENT: False}.get(result.status),
        "reason": exists_reason(result),
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
    from ..io.formats import board_fields

    out.update(board_fields(board))
    theorem = _theorem_check(result, board, closed, start, end)
    if theorem is not None:
        out["theorem"] = theorem
    return out


def _theorem_check(
    result: SearchResult, board: Board, closed: bool, start: Square | None, end: Square | None
) -> dict[str, Any] | None:
    """What the existence theorem says, and whether the proof agrees (it must)."""
    from ..proofs.theorems import closed_tour_exists, open_tour_exists
    from ..tours.results import Status

    if not board.is_standard or start is not None or end is not None:
        return None
    verdict = (closed_tour_exists if closed else open_tour_exists)(board.m, board.n)
    agrees = None if result.status is Status.ABORTED else result.found == bool(verdict)
    return {"exists": bool(verdict), "reason": verdict.reason, "agrees": agrees}


def _exists_text(
    result: SearchResult, board: Board, closed: bool, start: Square | None, end: Square | None
) -> str:
    from ..solvers import Problem
    from ..tours.results import Status

    what = Problem.make(board, closed, start, end).describe()
    verdict = {Status.FOUND: "exists", Status.PROVEN_ABSENT: "does not exist"}.get(
        result.status, "unknown"
    )
    return f"{what}: {verdict} ({exists_reason(result)})"


# ------------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    from ..io.formats import read_tour_file
    from ..tours.verify import validate_tour

    if graph_requested(args):
        return graph_verify(args)
    board, start, end = request_of(args)
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


# ------------------------------------------------------------------ classic
CLASSIC_LIMIT = 1 << 16
"""The most bytes ``classic`` reads: its input is three short lines."""


def _cmd_classic(args: argparse.Namespace) -> int:
    from ..running.disk import read_input
    from ..solvers.classic import solve_classic

    raw = read_input(args.file, "classic input", limit=CLASSIC_LIMIT)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        where = "standard input" if args.file in (None, "-") else repr(args.file)
        raise UsageError(f"cannot read {where}: not UTF-8 text") from None
    answer = solve_classic(text, timeout=args.timeout)
    print(answer.text)
    if answer.text == "Not Found":
        return EXIT_NO
    return EXIT_OF[answer.result.status]
