"""The command line: ``knightgraph tour | exists | verify``.

Exit codes: 0 found / exists / valid; 1 proven absent / invalid; 2 bad input or
usage; 3 gave up (budget or timeout) with existence unknown; 70 an internal
error (a bug, please report it).  Errors are one line on standard error, never
a traceback; output files are written whole or not at all.

Every command checks its input before doing any work: board sizes (against
the memory the work needs), squares, worker counts (at most a few per CPU),
dask addresses, budgets and output paths (the folder must exist).  SIGTERM is
handled like Ctrl-C: worker processes are stopped and nothing is left behind.

The package, by job: :mod:`._common` (exit codes, the parser class, argument
types and adders, checks before any work, progress bars, executors),
:mod:`._running` (errors to exit codes, signals), :mod:`.search` (``tour``,
``exists``, ``verify``, ``classic``), :mod:`.explore` (``table``, ``sweep``,
``count``, ``starts``, ``ends``), :mod:`.sample` (``sample``) and :mod:`.draw`
(``draw ...``).  Nothing heavy
is imported before a command runs: ``--help`` and ``--version`` stay instant.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence

from .._version import __version__
from . import draw, explore, sample, search
from ._common import (
    _EXAMPLES,
    EXIT_INTERNAL,
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    _Parser,
)
from ._running import _attach_dash_values, _exit_at_once, _run, _sigterm_unwinds

__all__ = ["EXIT_INTERNAL", "EXIT_NO", "EXIT_OK", "EXIT_UNKNOWN", "EXIT_USAGE", "main"]


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
    # the order of the commands in --help and in argparse's messages
    search._add_tour(sub)
    search._add_exists(sub)
    explore._add_table(sub)
    search._add_verify(sub)
    explore._add_sweep(sub)
    search._add_classic(sub)
    explore._add_count_parsers(sub)
    sample._add_sample(sub)
    draw._add_draw(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Examples
    --------
    >>> main(["tour", "5", "5", "--start", "a1", "--method", "backtrack"])
    a1 b3 c5 e4 d2 ...
    0
    >>> main(["exists", "4", "6", "--closed"])
    closed tour on 4x6: does not exist (Schwenk (1991): on 4x6 no move joins two squares of the outer ranks 1 and 4, which hold half the board and both colours, so there is no closed tour)
    1
    >>> main(["tour", "0", "6"])  # bad input: one line on standard error
    2
    """
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
