"""``knightgraph puzzle solve FILE | puzzle make M N --clues K``: knight's-tour number puzzles.

``puzzle solve FILE`` reads a puzzle (text grid or JSON: :mod:`knightgraph.io.puzzlefiles`;
``-`` for standard input) and prints a solution; ``--count`` counts the solutions exactly,
and ``--count --limit 2`` answers "unique or not" quickly.  ``puzzle make M N --clues K``
makes a puzzle whose solution is unique (proven; the proof checked) with as few clues as it
reaches, stopping at ``K``.  ``--page FILE`` writes the printable page (``.pdf``: the
puzzle, then the answer on page 2; ``.svg`` or ``.png``: side by side).

Exit codes: 0 a solution (``solve``), a count (``--count``: exactly k >= 1, or at least the
limit), a puzzle made; 1 no solution (with a certificate the checker accepts: ``--format
json`` prints it), or for ``make`` no tour of the board; 2 bad input (a malformed puzzle,
clues no knight's path can join, ...: one line); 3 the timeout passed first (``--count``:
the solutions found so far are printed, the count is unknown).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ._shared import EXIT_NO, EXIT_OK, EXIT_UNKNOWN, UsageError, emit, size_arg


def _add_puzzle(sub: Any) -> None:
    from ._shared import Parser

    puzzle = sub.add_parser(
        "puzzle",
        help="knight's-tour number puzzles: solve, count, make",
        description="Solve knight's-tour number puzzles (a board with some squares "
        "numbered; a solution numbers every square along a knight's tour) or make one whose "
        "solution is unique.  Every solution is verified, every 'no' is a checked proof.",
    )
    what = puzzle.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)
    what.required = True
    solve = what.add_parser("solve", help="solve (or count the solutions of) a puzzle file")
    solve.add_argument("file", metavar="FILE", help="the puzzle: a text grid or JSON ('-': stdin)")
    solve.add_argument(
        "--count", action="store_true", help="count the solutions (exactly, or up to --limit)"
    )
    solve.add_argument(
        "--limit",
        type=int,
        metavar="N",
        help="with --count: stop at N solutions ('at least N'; --limit 2: unique or not)",
    )
    _add_common(solve)
    solve.set_defaults(run=_cmd_solve)

    make = what.add_parser("make", help="make a puzzle whose solution is unique")
    make.add_argument("m", type=size_arg, metavar="M", help="number of ranks (rows)")
    make.add_argument("n", type=size_arg, metavar="N", help="number of files (columns)")
    make.add_argument(
        "--clues",
        type=int,
        required=True,
        metavar="K",
        help="stop removing clues at K (0: remove while any can go)",
    )
    make.add_argument("--seed", type=int, metavar="S", help="the same seed, the same puzzle")
    make.add_argument("--closed", action="store_true", help="the solution is a closed tour")
    make.add_argument(
        "--tries",
        type=int,
        default=1,
        metavar="T",
        help="removal orders to try, keeping the fewest clues (default 1)",
    )
    _add_common(make)
    make.set_defaults(run=_cmd_make)


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC s")
    p.add_argument(
        "--format",
        default="text",
        choices=("text", "json"),
        help="text: the puzzle or solution as a grid; json: the answer with its certificate",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the answer to FILE (atomically)")
    p.add_argument(
        "--page",
        metavar="FILE",
        help="also write the printable page: .pdf (puzzle, then answer) or .svg/.png",
    )


def _check_page(args: argparse.Namespace) -> None:
    from ._shared import check_output_path

    if args.page is None:
        return
    if args.page.rsplit(".", 1)[-1].lower() not in ("pdf", "svg", "png"):
        raise UsageError(f"invalid --page {args.page!r}: expected a .pdf, .svg or .png file")
    check_output_path(args.page, "--page")


def _cmd_solve(args: argparse.Namespace) -> int:
    from ..io.puzzlefiles import read_puzzle
    from ..puzzles import count_solutions, solve_puzzle

    if args.limit is not None and (not args.count or args.limit < 1):
        raise UsageError(
            f"invalid --limit {args.limit}: expected a whole number >= 1, with --count"
        )
    _check_page(args)
    puzzle = read_puzzle(args.file)
    if args.count:
        answer = count_solutions(puzzle, limit=args.limit, timeout=args.timeout)
    else:
        answer = solve_puzzle(puzzle, timeout=args.timeout)
    return _reply(args, answer, "count" if args.count else "solve")


def _cmd_make(args: argparse.Namespace) -> int:
    from ..puzzles import make_puzzle

    for flag, value, least in (("--clues", args.clues, 0), ("--tries", args.tries, 1)):
        if value < least:
            raise UsageError(f"invalid {flag} {value}: expected a whole number >= {least}")
    if args.clues > args.m * args.n:
        raise UsageError(
            f"invalid --clues {args.clues}: the {args.m}x{args.n} board has {args.m * args.n} "
            "squares"
        )
    _check_page(args)
    answer = make_puzzle(
        args.m,
        args.n,
        clues=args.clues,
        closed=args.closed,
        seed=args.seed,
        tries=args.tries,
        timeout=args.timeout,
    )
    if answer.status.value == "found" and 0 < args.clues < answer.puzzle.clue_count:
        print(
            f"knightgraph puzzle make: {answer.puzzle.clue_count} clues, not {args.clues}: "
            "every clue left is needed for a unique solution (try another --seed or --tries)",
            file=sys.stderr,
        )
    return _reply(args, answer, "make")


def _reply(args: argparse.Namespace, answer: Any, command: str) -> int:
    """Print (or write) the answer, and the page; the exit code of the answer."""
    from ..io.puzzlefiles import answer_dict, answer_text

    status = answer.status.value
    if status == "aborted":
        found = len(answer.solutions)
        so_far = f"; {found} solution{'s' if found != 1 else ''} found so far"
        so_far = so_far if found and command != "make" else ""
        print(
            f"knightgraph puzzle {args.action}: gave up: {answer.reason}{so_far}", file=sys.stderr
        )
    if args.format == "json":
        if command == "make" and status == "proven_absent":
            out = _no_board(answer)
        elif command == "make" and status == "aborted":
            return EXIT_UNKNOWN
        else:
            out = answer_dict(answer, command=command)
        emit(json.dumps(out), args.output)
    elif status == "proven_absent":
        emit(_no_solution(answer, command), args.output)
    elif command == "make" and status == "found":
        emit(_made_text(answer), args.output)
    elif command != "make" and answer.solutions:  # a count that gave up: those found so far
        emit(answer_text(answer), args.output)
    if status == "found" and args.page is not None:
        from ..draw.puzzleplot import save_puzzle_page

        save_puzzle_page(answer.puzzle, answer.tour.order.tolist(), args.page)
    return {"found": EXIT_OK, "proven_absent": EXIT_NO}.get(status, EXIT_UNKNOWN)


def _made_text(answer: Any) -> str:
    """A made puzzle in the text form, its answer in comment lines under it."""
    from ..io.puzzlefiles import puzzle_text, solution_text

    p = answer.puzzle
    head = (
        f"a {p.rows}x{p.cols} {'closed' if p.closed else 'open'}-tour puzzle, "
        f"{_clues(p.clue_count)}; its solution is unique (the refutation of a second one checked)",
    )
    grid = solution_text(answer.tour.order.tolist(), p).splitlines()
    return puzzle_text(p, comments=head) + "\n# answer:\n" + "\n".join(f"#   {g}" for g in grid)


def _no_solution(answer: Any, command: str) -> str:
    """The "no" in one line: what has none, and why (the certificate was checked)."""
    p = answer.puzzle
    kind = "closed" if p.closed else "open"
    if command == "make":
        return f"no puzzle: {answer.reason}"
    checked = " (certificate checked)" if answer.stats.get("checked") else ""
    return (
        f"the {p.rows}x{p.cols} puzzle ({kind} tour, {_clues(p.clue_count)}) has no solution: "
        f"{answer.reason}{checked}"
    )


def _no_board(answer: Any) -> dict[str, Any]:
    """``make`` on a board without a tour of the kind: the JSON of ``exists`` (its
    certificate is a tour search's, which ``python -m knightgraph.certcheck`` checks)."""
    p = answer.puzzle
    out: dict[str, Any] = {
        "rows": p.rows,
        "cols": p.cols,
        "closed": p.closed,
        "start": None,
        "end": None,
        "exists": False,
        "reason": answer.reason,
    }
    if answer.certificate is not None:
        out["certificate"] = answer.certificate.to_dict()
    return out


def _clues(k: int) -> str:
    return f"{k} clue{'' if k == 1 else 's'}"
