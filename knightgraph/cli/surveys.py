"""``knightgraph table | sweep | count | starts | ends``: many searches, or all tours."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ._kinds import kind_of
from ._shared import (
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    add_board,
    add_ends,
    add_executor,
    add_kind,
    add_search_options,
    add_total_timeout,
    board_of,
    executor_of,
    memory_arg,
    progress_bar,
    size_arg,
    solver_options_of,
    tables_memory,
    time_left,
)
from ._symmetric import add_symmetric, check_symmetric, symmetric_count


# ------------------------------------------------------------------ parsers
def _add_table(sub: Any) -> None:
    table = sub.add_parser(
        "table",
        help="existence table (codes c/e/o/x) for every board 1..M x 1..N, each cell proved",
    )
    table.add_argument("m", type=size_arg, metavar="M", help="largest number of ranks")
    table.add_argument(
        "n", type=size_arg, nargs="?", metavar="N", help="largest number of files (default M)"
    )
    table.add_argument("--format", default="text", choices=("text", "json"))
    table.add_argument(
        "--timeout", type=float, metavar="SEC", help="seconds allowed to each search (then '?')"
    )
    add_total_timeout(table)
    add_executor(table)
    table.set_defaults(run=_cmd_table)


def _add_sweep(sub: Any) -> None:
    sweep = sub.add_parser(
        "sweep",
        help="run a method from every start square; report which succeeded",
        description="Run a search from every start square and report which gave a tour "
        "(seed 003's experiment: sweep 50 50 --method warnsdorff --rule border).",
    )
    add_board(sweep)
    add_kind(sweep)
    add_search_options(sweep, default_method="warnsdorff")
    sweep.add_argument("--format", default="text", choices=("text", "json"))
    add_total_timeout(sweep)
    add_executor(sweep)
    sweep.set_defaults(run=_cmd_sweep)


def _add_count_parsers(sub: Any) -> None:
    count = sub.add_parser(
        "count",
        help="count tours exactly (frontier dynamic program; OEIS conventions)",
        description="Count tours exactly: closed tours as undirected cycles (directed = 2x), "
        "open tours as directed paths (the OEIS conventions).",
    )
    add_board(count)
    add_ends(count)
    add_kind(count)
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
    add_symmetric(count, classes=True)
    count.add_argument("--list", type=int, metavar="K", help="also list up to K tours")
    count.add_argument("--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC")
    count.add_argument("--format", default="text", choices=("text", "json"))
    count.add_argument(
        "--parts",
        type=int,
        metavar="N",
        help="count in N independent parts whose sum is exact (default with --workers, "
        "--dask or --checkpoint: one per worker, at least 2)",
    )
    count.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="keep the finished parts in FILE; a rerun of the same count skips them",
    )
    count.add_argument(
        "--memory",
        type=memory_arg,
        metavar="SIZE",
        help="the most memory the count may hold (like 4G: K, M, G, T are powers of 1024); "
        "it splits into parts to fit, or is refused at once with its estimate "
        "(default: 90%% of the free memory)",
    )
    add_executor(count)
    count.set_defaults(run=_run_count)

    starts = sub.add_parser("starts", help="which start squares admit a tour (exact)")
    add_board(starts)
    add_kind(starts)
    _add_map_options(starts)
    starts.set_defaults(run=_cmd_starts)

    ends = sub.add_parser("ends", help="which end squares a tour from --start can reach (exact)")
    add_board(ends)
    ends.add_argument("--start", metavar="SQ", required=True, help="the first square")
    add_kind(ends)
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
    add_total_timeout(p)
    p.add_argument(
        "--sample",
        type=int,
        metavar="K",
        help="decide only K squares drawn at random (boards too large to fill; no counts)",
    )
    p.add_argument("--seed", type=int, default=0, help="the seed of --sample (default 0)")
    p.add_argument("--format", default="text", choices=("text", "json"))
    add_executor(p)


# -------------------------------------------------------------------- table
def _cmd_table(args: argparse.Namespace) -> int:
    from ..explore import existence_table

    rows, cols = table_size(args)
    with (
        progress_bar("boards", unit=" boards", total=rows * cols) as progress,
        executor_of(args) as executor,
    ):
        table = existence_table(
            rows,
            cols,
            timeout=args.timeout,
            total_timeout=args.total_timeout,
            executor=executor,
            progress=progress,
        )
    print(json.dumps(table.to_dict()) if args.format == "json" else table.text())
    for line in table.disagreements:
        print(f"knightgraph table: disagreement: {line}", file=sys.stderr)
    if table.disagreements:
        return EXIT_NO
    return EXIT_UNKNOWN if any("?" in row for row in table.codes) else EXIT_OK


def table_size(args: argparse.Namespace) -> tuple[int, int]:
    """The table's largest board (``N`` defaults to ``M``; ``0`` is not a default),
    checked, and refused up front when its tours cannot fit in memory."""
    from ..boards.board import Board
    from ..running.resources import require_table_memory

    rows, cols = args.m, args.m if args.n is None else args.n
    Board(rows, cols)  # validates the sizes (a message naming the bad one)
    require_table_memory(rows, cols)
    return rows, cols


# -------------------------------------------------------------------- sweep
def _cmd_sweep(args: argparse.Namespace) -> int:
    import numpy as np

    from ..explore import sweep
    from ..solvers import solver_info

    board = board_of(args)
    options = solver_options_of(args)
    board.require_memory("sweep", extra=solver_info(args.method).memory(board))
    with (
        progress_bar("start squares", unit=" starts", total=board.num_squares) as progress,
        executor_of(args) as executor,
    ):
        result = sweep(
            board,
            method=args.method,
            closed=args.closed,
            timeout=args.timeout,
            total_timeout=args.total_timeout,
            seed=args.seed,
            limit=args.limit,
            executor=executor,
            progress=progress,
            **options,
        )
    stopped = EXIT_UNKNOWN if result.not_started else EXIT_OK
    if result.not_started:
        print(
            f"stopped at the total timeout: {result.not_started:,} start squares not tried",
            file=sys.stderr,
        )
    if args.format == "json":
        from ..io.formats import board_fields

        print(json.dumps({**result.to_dict(), **board_fields(board)}))
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


# -------------------------------------------------------------------- count
def _cmd_count(args: argparse.Namespace) -> int:
    kind = kind_of(args)
    _answer_count_json_when_stopped(args, kind)  # first: a busy machine's imports are slow
    from ..counting import count_symmetric, enumerate_tours

    board, start, end = kind.request(args)
    kind.check_count(args, board, (start, end))
    result = kind.count(args, board, (start, end), _count_maybe_split)
    head = kind.head(args, board, (start, end))
    if result.aborted:
        print(result.reason, file=sys.stderr)
        if args.format == "json":  # the object, with "status": "aborted"
            print(json.dumps({**head, **result.to_dict()}))
        return EXIT_UNKNOWN
    symmetry = None
    if args.symmetry:
        with executor_of(args) as executor:
            left = time_left(args)  # the command's one budget, for both counts
            symmetry = count_symmetric(board, closed=args.closed, timeout=left, executor=executor)
        if symmetry.aborted:
            print(symmetry.reason, file=sys.stderr)
            return EXIT_UNKNOWN
    tours = []
    if args.list:
        tours = list(
            enumerate_tours(board, closed=args.closed, start=start, end=end, limit=args.list)
        )
    if args.format == "json":
        out = {**head, **result.to_dict()}
        if symmetry is not None:
            out["symmetry"] = {"classes": symmetry.classes, "fixed": symmetry.fixed}
        if args.list is not None:
            out["tours"] = [t.to_dict()["squares"] for t in tours]
        print(json.dumps(out))
    else:
        print(kind.count_text(args, board, (start, end), result))
        if symmetry is not None and symmetry.fixed is not None:
            fixed = ", ".join(f"{k} {v:,}" for k, v in symmetry.fixed.items())
            print(f"up to symmetry: {symmetry.classes:,} (fixed: {fixed})")
        for t in tours:
            print(" ".join(t.algebraic()))
    return EXIT_OK if result.directed else EXIT_NO


def _answer_count_json_when_stopped(args: argparse.Namespace, kind: Any) -> None:
    """With ``--format json``, the object the backstop prints when it stops ``count``
    (:func:`~knightgraph.cli._running._answer_when_time_is_up`) wherever it is, imports
    and the board's building included: ``"status": "aborted"``, as a count stopped by its
    own clock."""
    if args.format != "json":
        return

    def stopped(reason: str) -> None:
        from dataclasses import replace

        from ..counting import count_tours

        board, start, end = kind.request(args)  # the clock is stopped now
        ends = {"start": start, "end": end, "convention": args.convention}
        result = count_tours(board, closed=args.closed, timeout=0, **ends)
        if result.aborted:  # (a count settled at once by a theorem is left to the line)
            out = {**kind.head(args, board, (start, end)), **replace(result, reason=reason).to_dict()}
            print(json.dumps(out))

    args.aborted_answer = stopped


def _count_maybe_split(args: argparse.Namespace, board: Any, start: Any, end: Any) -> Any:
    """``count`` on a board: in one piece with a bar of squares, or split (``--parts``,
    ``--workers``, ``--dask``, ``--checkpoint``) with a bar of the parts done and the time
    left."""
    from ..counting import count_tours
    from ..counting.checkpoint import begun_in_the_middle
    from ..counting.estimate import memory_note
    from ..counting.middle import meets_in_the_middle

    kw = dict(closed=args.closed, start=start, end=end, convention=args.convention)
    kw["timeout"] = time_left(args)  # the budget started with the command
    kw["memory"] = tables_memory(args.memory)
    note = (
        None
        if args.parts or args.workers or args.dask
        else memory_note(
            board,
            closed=args.closed,
            memory=kw["memory"],
            middle=meets_in_the_middle(board, args.closed, start is not None or end is not None)
            or begun_in_the_middle(args.checkpoint),
        )
    )
    if note:  # issue 15: the estimate before the work
        print(note, file=sys.stderr)
    if args.parts is None and args.checkpoint is None and not (args.workers or args.dask):
        with progress_bar("counting", unit=" squares", total=board.num_squares) as progress:
            return count_tours(board, progress=progress, **kw)
    with progress_bar("counting parts", unit=" parts") as on_part, executor_of(args) as executor:
        return count_tours(
            board,
            parts=args.parts,
            executor=executor,
            checkpoint=args.checkpoint,
            on_part=None if on_part is None else lambda p: on_part(_parts_done(p)),
            **kw,
        )


def _parts_done(info: dict[str, Any]) -> dict[str, Any]:
    return {"done": info["parts_done"], "total": info["parts"]}


# ------------------------------------------------------------- starts, ends
def _cmd_starts(args: argparse.Namespace) -> int:
    from ..explore import start_map

    return _cmd_map(args, "start squares", start_map)


def _cmd_ends(args: argparse.Namespace) -> int:
    from ..explore import end_map

    return _cmd_map(args, "end squares", end_map)


def _cmd_map(args: argparse.Namespace, what: str, make: Callable[..., Any]) -> int:
    """``starts`` and ``ends``: an exact map of the squares, with a progress bar."""
    kind = kind_of(args)
    board, where = kind.map_request(args)
    total = kind.check_map(args, board, where)
    with (
        progress_bar(what, unit=" squares", total=total) as progress,
        executor_of(args) as executor,
    ):
        result = make(
            board,
            closed=args.closed,
            executor=executor,
            timeout=args.timeout,
            total_timeout=args.total_timeout,
            counts="auto" if args.counts is None else args.counts,
            progress=progress,
            sample=args.sample,
            seed=args.seed,
            **where,
        )
    if args.format == "json":
        head = kind.head(args, board, (where.get("start"), None))
        print(json.dumps({**head, **result.to_dict(), **kind.tail(board)}))
    else:
        print(result.text())
    return EXIT_UNKNOWN if result.unknown else EXIT_OK


# ------------------------------------------------- count --symmetric, --by-symmetry
def _run_count(args: argparse.Namespace) -> int:
    """``count``: with ``--symmetric`` or ``--by-symmetry``, :func:`_count_symmetric`;
    else :func:`_cmd_count`.  Both are armed with the signal watchdog when they are the
    process: the compiled kernel may hold the main thread for minutes."""
    if getattr(args, "own_process", False):
        from ._watchdog import signal_watchdog

        signal_watchdog(args.command)
    if args.symmetric or args.by_symmetry:
        return _count_symmetric(args, kind_of(args))
    return _cmd_count(args)


def _count_symmetric(args: argparse.Namespace, kind: Any) -> int:
    """``count --symmetric`` (the tours one symmetry fixes) or ``--by-symmetry`` (classes
    by symmetry type)."""
    check_symmetric(args, None)
    board, _, _ = kind.request(args)
    board.require_memory("count")
    check_symmetric(args, board)
    result, text = symmetric_count(args, board, time_left(args))
    if result.aborted or not text:
        print(result.reason, file=sys.stderr)
        if args.format == "json":
            print(json.dumps(result.to_dict()))
        return EXIT_UNKNOWN
    print(json.dumps(result.to_dict()) if args.format == "json" else text)
    return EXIT_OK if result.status.value == "found" else EXIT_NO
