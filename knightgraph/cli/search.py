"""``knightgraph tour | exists | verify | classic``: one board, one answer."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidTourError
from ._graphs import add_graph
from ._kinds import Rectangle, kind_of
from ._replies import stopped_result
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
)
from ._symmetric import (
    add_symmetric,
    check_symmetric,
    symmetric_exists_answer,
    symmetric_exists_text,
    symmetric_search,
)
from .magic import add_magic

if TYPE_CHECKING:  # results (dataclasses, inspect) are imported when a command needs them
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
    add_graph(tour)
    add_ends(tour)
    add_kind(tour)
    add_symmetric(tour)
    add_search_options(tour, default_method="auto")
    tour.add_argument(
        "--format",
        default="squares",
        choices=("squares", "board", "json", "npy"),
        help="output format (default squares)",
    )
    tour.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically)")
    _add_proof(tour)
    add_magic(tour)
    tour.set_defaults(run=_run_tour)


def _add_exists(sub: Any) -> None:
    exists = sub.add_parser("exists", help="decide whether a tour exists, with a certificate")
    add_board(exists)
    add_graph(exists)
    add_ends(exists)
    add_kind(exists)
    add_symmetric(exists)
    exists.add_argument(
        "--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC seconds"
    )
    exists.add_argument("--format", default="text", choices=("text", "json"))
    _add_proof(exists)
    add_magic(exists)
    exists.set_defaults(run=_run_exists)


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
    if args.magic is not None:
        from .magic import run_magic_tour

        return run_magic_tour(args)
    kind = kind_of(args)
    kind.check_tour(args)
    # first, before any import: the backstop may stop a busy machine's command anywhere
    request = _answer_json_when_stopped(args, kind, kind.tour_dict, emit)
    board, start, end = request[:] = kind.request(args)
    if args.format == "npy" and not args.output:
        raise UsageError("--format npy writes binary data: give -o FILE")
    result = kind.search(args, board, start, end)
    return _tour_reply(args, kind, board, (start, end), result)


def _tour_reply(
    args: argparse.Namespace,
    kind: Rectangle,
    board: Any,
    ends: tuple[Any, Any],
    result: SearchResult,
    **more: Any,
) -> int:
    """Write ``tour``'s answer in the format asked (the proof file too); its exit code.
    ``more``: fields the JSON adds after the answer's own (``"symmetric"``)."""
    import json

    from ..io.formats import write_npy

    _write_proof(result, args.proof)
    if args.format == "json":
        emit(json.dumps({**kind.tour_dict(args, board, ends, result), **more}), args.output)
    elif result.tour is None:
        print(result.reason)
    elif args.format == "npy":
        write_npy(result.tour.order, args.output)
    elif args.format == "board":
        emit(kind.numbered(board, result.tour), args.output)
    else:
        emit(kind.squares(result.tour), args.output)
    return EXIT_OF[result.status]


def _answer_json_when_stopped(
    args: argparse.Namespace,
    kind: Rectangle,
    answer: Callable[..., dict[str, Any]],
    write: Callable[[str, str | None], None],
) -> list[Any]:
    """With ``--format json``, the answer the backstop prints when it stops the command
    (:func:`~knightgraph.cli._running._answer_when_time_is_up`): the request as far as it
    is known; the list returned takes the board and its ends once they are built."""
    import json

    request: list[Any] = [None, None, None]
    if args.format != "json":
        return request

    def stopped(reason: str) -> None:
        board, start, end = request
        if board is None and kind.unbuilt_head(args) is None:
            # a rectangle is described by the board itself; stopped before it was built
            # (a busy machine's imports), it is built now, with the clock stopped
            board, start, end = kind.request(args)
        result = stopped_result(args, reason)
        write(json.dumps(answer(args, board, (start, end), result)), getattr(args, "output", None))

    args.aborted_answer = stopped
    return request


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

    if args.magic is not None:
        from .magic import run_magic_exists

        return run_magic_exists(args)
    kind = kind_of(args)
    request = _answer_json_when_stopped(args, kind, kind.exists_dict, _print_json)
    board, start, end = request[:] = kind.request(args)
    from ..solvers import tour_exists

    with progress_bar("deciding") as progress:
        result = tour_exists(
            board, closed=args.closed, start=start, end=end, timeout=args.timeout, progress=progress
        )
    _write_proof(result, args.proof)
    if args.format == "json":
        print(json.dumps(kind.exists_dict(args, board, (start, end), result)))
    else:
        print(kind.exists_text(args, board, (start, end), result))
    return EXIT_OF[result.status]


def _run_tour(args: argparse.Namespace) -> int:
    """``tour``: a symmetric tour with ``--symmetric`` (:func:`_tour_symmetric`), else
    :func:`_cmd_tour` (which hands ``--magic`` on)."""
    _one_structure(args)
    return _tour_symmetric(args) if args.symmetric else _cmd_tour(args)


def _run_exists(args: argparse.Namespace) -> int:
    """``exists``: with ``--symmetric``, :func:`_exists_symmetric`; else :func:`_cmd_exists`."""
    _one_structure(args)
    return _exists_symmetric(args, kind_of(args)) if args.symmetric else _cmd_exists(args)


def _one_structure(args: argparse.Namespace) -> None:
    """UsageError, before any work: ``--symmetric`` and ``--magic`` are two searches."""
    if args.symmetric and args.magic is not None:
        raise UsageError("--symmetric and --magic are two kinds of tour: give one")


def _tour_symmetric(args: argparse.Namespace) -> int:
    """``tour --symmetric``: a tour the symmetry maps onto itself, or a checked "no"; the
    answer as ``tour`` prints it, its JSON with ``"symmetric"``."""
    from ._shared import time_left

    kind = kind_of(args)
    kind.check_tour(args)
    check_symmetric(args, None)  # the flags, before the board is built
    request = _answer_json_when_stopped(args, kind, kind.tour_dict, emit)
    board, start, end = request[:] = kind.request(args)
    if args.format == "npy" and not args.output:
        raise UsageError("--format npy writes binary data: give -o FILE")
    check_symmetric(args, board)
    result = symmetric_search(args, board, time_left(args))
    return _tour_reply(args, kind, board, (start, end), result, symmetric=args.symmetric)


def _exists_symmetric(args: argparse.Namespace, kind: Rectangle) -> int:
    """``exists --symmetric``: the verdict and its evidence (a tour, or a checked "no")."""
    import json

    from ._shared import time_left

    check_symmetric(args, None)  # the flags first, then the board
    board, _, _ = kind.request(args)
    check_symmetric(args, board)
    result = symmetric_search(args, board, time_left(args))
    _write_proof(result, args.proof)
    if args.format == "json":
        print(json.dumps(symmetric_exists_answer(args, board, result, kind.found)))
    else:
        print(symmetric_exists_text(args, board, result))
    return EXIT_OF[result.status]


def _print_json(text: str, output: str | None) -> None:
    print(text)


# ------------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    kind = kind_of(args)
    board, start, end = kind.request(args)
    try:
        closed = kind.verify_file(args, board, (start, end))
    except InvalidTourError as err:
        print(f"invalid: {err}")
        return EXIT_NO
    kind_word = "closed" if closed else "open"
    print(f"ok: a valid {kind_word} tour of {kind.named(board)} ({board.num_squares} squares)")
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
