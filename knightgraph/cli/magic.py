"""``knightgraph tour M N --magic semi|full`` and ``exists M N --magic ...``: magic tours.

A semi-magic tour numbers the squares ``1 .. MN`` along a knight's tour so that every
rank and file sums alike; a magic one (``full``, square boards) also both long diagonals
(:mod:`knightgraph.magic`).  ``tour`` prints the tour (``--format squares``, ``board``: the
numbered board, ``json``: the answer with its sums, or its certificate of absence);
``exists`` prints the verdict.  Both take ``--closed``, ``--timeout`` and the size only:
any other option of a tour search (a start, a method, another board) is refused before any
work (exit 2).  Exit codes as everywhere: 0 found, 1 none (a certificate that ``python -m
knightgraph.certcheck`` accepts), 3 unknown within the budget (``--timeout``; on boards
over 48 squares the solver logs no proof, so it never says "no" there; past 100 squares,
sides multiples of 4, only tours of a restricted form are searched, and finding none of
it is "unknown" too).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ._shared import EXIT_OF, KNIGHT, METHOD_FLAGS, UsageError, emit

_REFUSED = {
    "start": "--start",
    "end": "--end",
    **METHOD_FLAGS,
    "seed": "--seed",
    "limit": "--limit",
    "remove": "--remove",
    "mask": "--mask",
    "wrap": "--wrap",
    "levels": "--levels",
    "graph": "--graph",
    "proof": "--proof",
}
"""Options a magic search does not take: refused (exit 2) when given."""

_WORDS = {"semi": "semi-magic", "full": "magic"}


def add_magic(p: argparse.ArgumentParser) -> None:
    """The ``--magic`` option of ``tour`` and ``exists``."""
    p.add_argument(
        "--magic",
        choices=("semi", "full"),
        help="a magic tour: every rank and file sums alike (semi), and both long "
        "diagonals (full, square boards)",
    )


def _check(args: argparse.Namespace) -> None:
    """Every refusal, before any work: options a magic search does not take, the kind."""
    for dest, flag in _REFUSED.items():
        value = getattr(args, dest, None)
        if value not in (None, False, []):
            raise UsageError(f"{flag} does not go with --magic (a magic tour of the whole board)")
    if getattr(args, "method", "auto") not in ("auto", "sat"):
        raise UsageError(f"invalid --method {args.method!r} with --magic: the search is SAT")
    if tuple(getattr(args, "leaper", KNIGHT)) != KNIGHT:
        raise UsageError("--leaper does not go with --magic: magic tours are the knight's")
    if args.m is None or args.n is None:
        raise UsageError("--magic needs the board's size M N")
    if args.magic == "full" and args.m != args.n:
        raise UsageError(
            f"invalid --magic full for the {args.m}x{args.n} board: the diagonals need a "
            "square board"
        )
    if getattr(args, "format", None) == "npy":
        raise UsageError("--format npy does not go with --magic: use json")
    from ..magic.solving import search_refusal

    refusal = search_refusal(args.m, args.n, args.magic)
    if refusal is not None:
        raise UsageError(f"invalid board {args.m}x{args.n} for --magic: {refusal}")


def _search(args: argparse.Namespace) -> Any:
    from ..magic import find_magic_tour

    budget = getattr(args, "budget", None)  # the user's --timeout, on the command's clock
    return find_magic_tour(args.m, args.n, kind=args.magic, closed=args.closed, budget=budget)


def run_magic_tour(args: argparse.Namespace) -> int:
    """``tour M N --magic KIND``: the tour in the asked format, or why there is none."""
    _check(args)
    result = _search(args)
    if args.format == "json":
        emit(json.dumps(_tour_dict(args, result)), args.output)
    elif result.tour is None:
        print(result.reason)
    elif args.format == "board":
        from ..io.formats import format_board

        emit(format_board(result.tour), args.output)
    else:
        from ..io.formats import format_squares

        emit(format_squares(result.tour), args.output)
    return EXIT_OF[result.status]


def run_magic_exists(args: argparse.Namespace) -> int:
    """``exists M N --magic KIND``: the verdict, with its evidence in JSON."""
    _check(args)
    result = _search(args)
    verdict = {"found": True, "proven_absent": False}.get(result.status.value)
    if result.tour is not None:
        reason = f"a {_WORDS[args.magic]} tour was found by SAT and verified, sums and all"
    elif result.certificate is not None:
        reason = result.certificate.reason
    else:
        reason = f"undecided: {result.reason}"
    if args.format == "json":
        out = _head(args)
        out.update(exists=verdict, reason=reason, certificate=None)
        if result.tour is not None:
            squares = [list(sq) for sq in result.tour.squares()]
            out["certificate"] = {"kind": "tour", "reason": reason, "squares": squares}
        elif result.certificate is not None:
            out["certificate"] = result.certificate.to_dict()
        print(json.dumps(out))
    else:
        word = {True: "exists", False: "does not exist", None: "unknown"}[verdict]
        kind = "closed" if args.closed else "open"
        print(f"{_WORDS[args.magic]} {kind} tour on {args.m}x{args.n}: {word} ({reason})")
    return EXIT_OF[result.status]


def _head(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "rows": args.m,
        "cols": args.n,
        "closed": args.closed,
        "start": None,
        "end": None,
        "magic": args.magic,
    }


def _tour_dict(args: argparse.Namespace, result: Any) -> dict[str, Any]:
    """``tour --format json``: the contract's fields, ``magic`` and the line sums."""
    out = _head(args)
    tour = result.tour
    if tour is not None:
        names = tour.algebraic()
        out.update(start=names[0], end=names[-1])
    out["squares"] = None if tour is None else [list(sq) for sq in tour.squares()]
    out.update(method=result.method, seconds=round(result.seconds, 3), stats=result.stats)
    out.update(status=result.status.value, reason=result.reason)
    if result.certificate is not None:
        out["certificate"] = result.certificate.to_dict()
    return out
