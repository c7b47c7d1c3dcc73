"""``knightgraph tour M N`` on a board of one stored block, answered without numpy.

``auto`` (and ``divide``) answer a plain knight board with both sides from 5 to
10, not both odd, with the stored closed tour of that block read from the start
(:mod:`knightgraph.tours.blocktour`); on a board that has a tour the cheap certificates
``auto`` tries first find nothing, so the answer is that tour.  This route gives
the same answer and the same output (squares, numbered board, JSON; exit 0) with
the standard library alone, so that ``knightgraph tour 8 8`` costs a fraction of
numpy's import.  Any other request (another method, leaper or shape, an end,
options, a budget, an output file, a square that is not plainly on the board)
takes the full route, which also reports every error.
``tests/test_cli_quick.py`` compares both routes on every such board, start and kind.
The full route imports numpy here (``Tour`` holds an array; the board's arrays, the
cheap certificates and ``divide`` compute with it): ``benchmarks/bench_startup.py``
measures ``tour 8 8 -o FILE`` (that route) beside ``tour 8 8`` (this one).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..boards.squares import KNIGHT, Square, parse_square_text, square_name
from ..exceptions import InvalidSquareError
from ..io.formats import numbered_board, outcome_fields
from ..tours.blocktour import block_tour_order
from ._shared import EXIT_OK

__all__ = ["quick_tour"]

METHODS = ("auto", "divide")
"""The methods whose answer on these boards is the stored block's tour."""

_NONE_GIVEN = (
    "end",
    "mask",
    "wrap",
    "levels",
    "moves",
    "order",
    "rule",
    "repair",
    "attempts",
    "limit",
    "timeout",
    "output",
    "proof",
)
"""Flags of ``tour`` that, given, send the request down the full route."""


def quick_tour(args: argparse.Namespace) -> int | None:
    """Answer ``tour`` from a stored block and return the exit code, or None when the
    request is not one this route serves exactly (the caller then runs the full route).

    Examples
    --------
    >>> args = argparse.Namespace(m=5, n=6, leaper=(1, 2), remove=[], start="a1", closed=True,
    ...     method="auto", prune=False, oracle=False, format="squares",
    ...     **dict.fromkeys(_NONE_GIVEN))
    >>> quick_tour(args)
    a1 b3 a5 c4 e5 f3 e1 d3 f2 d1 b2 a4 c5 e4 ... b4 c2
    0
    >>> quick_tour(argparse.Namespace(**{**vars(args), "m": 7, "n": 7})) is None
    True
    """
    began = time.perf_counter()
    if not _served(args):
        return None
    plain, start = _start(args)
    order = block_tour_order(args.m, args.n, closed=args.closed, start=start) if plain else None
    if order is None:
        return None
    seconds = time.perf_counter() - began
    if args.format == "json":
        import json

        print(json.dumps(_as_dict(order, args.m, args.n, args.closed, seconds)))
    elif args.format == "board":
        numbers = [0] * (args.m * args.n)
        for step, square in enumerate(order, 1):
            numbers[square] = step
        print(numbered_board(numbers, args.m, args.n))
    else:
        print(" ".join(square_name(*divmod(i, args.n)) for i in order))
    return EXIT_OK


def _served(args: argparse.Namespace) -> bool:
    return (
        args.method in METHODS
        and tuple(args.leaper) == KNIGHT
        and not args.remove
        and not args.prune
        and not args.oracle
        and args.format in ("squares", "board", "json")
        and all(getattr(args, flag, None) is None for flag in _NONE_GIVEN)
    )


def _start(args: argparse.Namespace) -> tuple[bool, Square | None]:
    """Whether the start is plain (none, or a square on the board), and the square; the
    full route names the error of a start that is not."""
    if args.start is None:
        return True, None
    try:
        r, c = parse_square_text(args.start)
    except InvalidSquareError:
        return False, None
    return 0 <= r < args.m and 0 <= c < args.n, (r, c)


def _as_dict(order: list[int], m: int, n: int, closed: bool, seconds: float) -> dict[str, Any]:
    """The JSON object of :func:`knightgraph.io.formats.result_to_dict` for this tour."""
    return {
        "rows": m,
        "cols": n,
        "closed": closed,
        "start": square_name(*divmod(order[0], n)),
        "end": square_name(*divmod(order[-1], n)),
        "squares": [list(divmod(i, n)) for i in order],
        **outcome_fields("divide", seconds, {"squares": len(order)}),
        "status": "found",
        "reason": "",
    }
