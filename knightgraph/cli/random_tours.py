"""``knightgraph sample``: tours drawn uniformly at random from the counting program.

Exit codes: 0 the ``K`` tours drawn; 1 no tour of the kind asked for exists (the count
is 0, with a certificate where a cheap argument shows it; ``--format json`` prints a list
of one answer with ``squares`` null and that certificate, ``-o FILE`` is not written); 2 bad input, including a board
too large to sample (``min(m, n)`` times the longer leap over 12: a knight on more than
6 ranks and 6 files) refused before any work; 3 the budget (``--timeout`` or memory) ran
out first.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ._kinds import Rectangle, kind_of
from ._shared import (
    EXIT_OF,
    EXIT_OK,
    UsageError,
    add_board,
    add_ends,
    add_kind,
    emit,
    progress_bar,
)


def _add_sample(sub: Any) -> None:
    sample = sub.add_parser(
        "sample",
        help="K tours drawn uniformly at random (counting program; boards up to 6 ranks)",
        description="Draw K tours uniformly at random (independently, with repetition) from "
        "the exact counting program, each one verified.  Boards whose shorter side times "
        "the longer leap exceeds 12 are refused (exit 2).",
    )
    add_board(sample)
    add_kind(sample)
    add_ends(sample)
    sample.add_argument(
        "-k", type=int, required=True, metavar="K", help="how many tours to draw (>= 1)"
    )
    sample.add_argument("--seed", type=int, metavar="S", help="seed: the same seed, the same tours")
    sample.add_argument(
        "--timeout", type=float, metavar="SEC", help="give up (exit 3) after SEC seconds"
    )
    sample.add_argument(
        "--format",
        default="squares",
        choices=("squares", "json"),
        help="squares: one tour per line; json: a list of tour objects",
    )
    sample.add_argument("-o", "--output", metavar="FILE", help="write the tours to FILE")
    sample.set_defaults(run=_cmd_sample)


def _cmd_sample(args: argparse.Namespace) -> int:
    from ..counting import sample_tours
    from ..io.formats import outcome_fields

    if args.k < 1:
        raise UsageError(f"invalid -k {args.k}: expected a whole number >= 1")
    kind = kind_of(args)
    board, start, end = kind.request(args)
    kind.check_sample(board)
    with progress_bar("sampling", unit=" steps") as progress:
        result: Any = sample_tours(
            board,
            k=args.k,
            closed=args.closed,
            start=start,
            end=end,
            seed=args.seed,
            timeout=args.timeout,
            progress=progress,
        )
    code = EXIT_OF[result.status]
    if code != EXIT_OK:
        closed = "closed" if args.closed else "open"
        why = result.reason or f"the count of {closed} tours is 0"
        where = kind.where(board)
        print(f"no {closed} tour {where}: {why}" if result.directed == 0 else why, file=sys.stderr)
        if args.format == "json" and result.directed == 0 and not args.output:
            print(json.dumps([_no_tour(args, kind, board, (start, end), result, why)]))  # the "no"
        return code
    stats = {"directed": result.directed, "seed": args.seed, **kind.sample_stats(result)}
    if args.format == "json":
        fields = outcome_fields("sample", result.seconds, stats)
        heads = [kind.tour_head(args, board, (start, end), tour) for tour in result.tours]
        out = [{**head, **fields, "status": "found", "reason": ""} for head in heads]
        emit(json.dumps(out), args.output)
    else:
        emit("\n".join(kind.squares(tour) for tour in result.tours), args.output)
    return code


def _no_tour(
    args: argparse.Namespace,
    kind: Rectangle,
    board: Any,
    ends: tuple[Any, Any],
    result: Any,
    why: str,
) -> dict[str, Any]:
    """The JSON answer of a sample with no tour to draw: the board described (as the tour
    objects describe it), ``squares`` null, and the certificate when there is one.

    Examples
    --------
    >>> from knightgraph.cli import main
    >>> main(["sample", "3", "3", "-k", "1", "--format", "json"])  # doctest: +ELLIPSIS
    [{"rows": 3, "cols": 3, ..., "squares": null, "directed": 0, ..., "certificate": {"kind": "degree", ...}}]
    1
    """
    from ..io.formats import outcome_fields

    head = kind.tour_head(args, board, ends, None)
    stats = {"directed": 0, "seed": args.seed}
    out = {**head, "squares": None, "directed": 0}  # the count: 0, exhaustive
    out.update(outcome_fields("sample", result.seconds, stats))
    out.update(status=result.status.value, reason=why)
    if result.certificate is not None:
        out["certificate"] = result.certificate.to_dict()
    return out
