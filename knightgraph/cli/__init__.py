"""The command line: ``knightgraph tour | exists | verify | ... | draw | play``.

Exit codes: 0 found / exists / valid; 1 proven absent / invalid; 2 bad input or
usage, or an output that could not be written; 3 gave up (budget or timeout) with
existence unknown; 70 an internal error (a bug, please report it); 130 interrupted
(SIGINT); 141 the reader of standard output went away (quietly); 143 terminated (SIGTERM).  Errors are one line on standard error, never
a traceback; output files are written whole or not at all.

Every command checks its input before doing any work: board sizes (against
the memory the work needs), squares, worker counts (at most a few per CPU),
dask addresses, budgets and output paths (the folder must exist).  SIGTERM is
handled like Ctrl-C: worker processes are stopped and nothing is left behind.

The package, by job: :mod:`._shared` (exit codes, the parser class, argument
types and adders, checks before any work, progress bars, executors),
:mod:`._kinds` (the one place that asks which kind of board the flags name:
a rectangle, a torus, cylinder or 3-D board, or a graph file), :mod:`._graphs` (the
graph boards of ``--graph FILE``, ``--wrap`` and ``--levels``), :mod:`._replies` (the pieces
of answers every kind shares), :mod:`._running` (errors to exit codes, signals),
:mod:`.search` (``tour``, ``exists``, ``verify``, ``classic``), :mod:`.surveys`
(``table``, ``sweep``, ``count``, ``starts``, ``ends``), :mod:`.random_tours`
(``sample``), :mod:`.pictures` (``draw ...``, ``play``) and :mod:`.puzzles` (``puzzle solve``,
``puzzle make``).  Nothing heavy
is imported before a command runs: ``--help`` and ``--version`` stay instant.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from .._version import __version__
from ._running import (
    attach_dash_values,
    exit_at_once,
    fail,
    leave_if_nothing_left,
    run_command,
    sigterm_unwinds,
)
from ._shared import (
    EXAMPLES,
    EXIT_INTERNAL,
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    Parser,
    Terminated,
)

__all__ = [
    "EXIT_INTERNAL",
    "EXIT_NO",
    "EXIT_OK",
    "EXIT_UNKNOWN",
    "EXIT_USAGE",
    "console_main",
    "main",
]


def _print_version() -> int:
    """``knightgraph --version``: the version and the engine in use, and a warning on
    standard error when it is not the compiled one (no C compiler at install time)."""
    from ..running.native import engine

    name, warning = engine()
    print(f"knightgraph {__version__}\nengine: {name}", flush=True)
    if warning:
        print(f"knightgraph: warning: {warning}", file=sys.stderr)
    return EXIT_OK


def _one_blas_thread() -> None:
    """Ask numpy's OpenBLAS for one thread, unless the user chose (``OPENBLAS_NUM_THREADS``).

    OpenBLAS starts its thread pool when numpy is imported, one thread per core; no
    command does linear algebra worth a thread, and on a busy machine starting and
    parking those threads cost 50-80 ms of every command's start (benchmarks/bench_startup.py).
    Only for a command line process, before numpy is imported; worker processes inherit it.
    """
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


class _Version(argparse.Action):
    """``--version`` anywhere on the line: print :func:`_print_version` and stop."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.update(nargs=0, default=argparse.SUPPRESS)
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        parser.exit(_print_version())


_ADDERS = [
    ("search", "_add_tour", ("tour",)),
    ("search", "_add_exists", ("exists",)),
    ("surveys", "_add_table", ("table",)),
    ("search", "_add_verify", ("verify",)),
    ("surveys", "_add_sweep", ("sweep",)),
    ("search", "_add_classic", ("classic",)),
    ("surveys", "_add_count_parsers", ("count", "starts", "ends")),
    ("random_tours", "_add_sample", ("sample",)),
    ("pictures", "_add_draw", ("draw",)),
    ("pictures", "_add_play", ("play",)),
    ("puzzles", "_add_puzzle", ("puzzle",)),
]
"""The commands in the order of --help and argparse's messages: (module, adder, the
commands it registers)."""


def _build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` (a word it registers), that command's only, so that a
    command imports and builds none of the others (``--help`` and unknown words: all)."""
    import importlib

    parser = Parser(
        prog="knightgraph",
        description="Knight's tours as graph problems: every answer is a verified tour "
        "or a certificate that none exists.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action=_Version, help="show the version and the engine in use, and exit"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    known = any(command in names for _, _, names in _ADDERS)
    for module, adder, names in _ADDERS:
        if not known or command in names:
            getattr(importlib.import_module(f".{module}", __name__), adder)(sub)
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
    >>> main(["--version"])
    knightgraph ...
    engine: ...
    0
    """
    words = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | None = None
    with sigterm_unwinds():  # from the start: a signal while the parser is built is one line
        try:
            if argv is None:
                _one_blas_thread()
            if words == ["--version"]:  # answered before the parser (and its commands) is built
                return _print_version()
            parser = _build_parser(words[0] if words else None)
            args, extra = parser.parse_known_args(attach_dash_values(words))
            if extra and args.command == "verify" and args.file is None and len(extra) == 1:
                args.file = extra.pop()  # `verify M N --closed FILE`: argparse leaves FILE over
            if extra:
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            args.own_process = argv is None  # the process is the command's (signals, exit)
            code = run_command(parser, args)
        except KeyboardInterrupt:  # before the command began (its own are handled in run_command)
            code = fail("knightgraph: interrupted", 130)
        except Terminated:
            code = fail("knightgraph: terminated", 128 + signal.SIGTERM)
    time_up = args is not None and getattr(args, "time_up", False)
    if argv is None and (code in (130, 128 + signal.SIGTERM) or time_up):
        exit_at_once(code)
    return code


def console_main() -> int:
    """The process's entry point (the ``knightgraph`` script, ``python -m knightgraph``):
    :func:`main` on the process's arguments, then leave at once when nothing else would
    run at exit (:func:`._running.leave_if_nothing_left`); else return the exit code.

    A program that calls :func:`main` is never ended by it, apart from an interruption.

    Examples
    --------
    >>> import subprocess, sys
    >>> argv = [sys.executable, "-m", "knightgraph", "exists", "4", "4", "--closed"]
    >>> done = subprocess.run(argv, capture_output=True, text=True)
    >>> done.returncode, done.stdout.split(":")[0]
    (1, 'closed tour on 4x4')
    """
    code = main()
    leave_if_nothing_left(code)
    return code
