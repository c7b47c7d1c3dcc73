"""What every command shares: exit codes, the parser class, argument types and adders,
the checks made before any work, progress bars and executors.

Nothing heavy is imported here at module level (no matplotlib, networkx, tqdm or
solvers): ``knightgraph --help`` and ``--version`` stay instant.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, cast

from ..exceptions import InvalidOptionError

if TYPE_CHECKING:
    from ..boards.board import Board, Square
    from ..tours.results import Status

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug, not bad input
KNIGHT = (1, 2)
"""``board.KNIGHT``, the default ``--leaper``, without importing numpy before a command runs
(``tests/test_examples.py`` checks that the two agree)."""


class _ExitOf:
    """The exit code of a search's :class:`~knightgraph.Status` (found 0, proven absent 1,
    aborted 3), looked up by the status's value so that this module needs no results (and
    their dataclasses) before a command runs."""

    _CODES: ClassVar[dict[str, int]] = {
        "found": EXIT_OK,
        "proven_absent": EXIT_NO,
        "aborted": EXIT_UNKNOWN,
    }

    def __getitem__(self, status: Status) -> int:
        return self._CODES[status.value]


EXIT_OF = _ExitOf()

EXAMPLES = """\
examples:
  knightgraph tour 8 8 --closed --format board     a closed 8x8 tour as a numbered board
  knightgraph tour 8 8 --closed --start d4 --format json
  knightgraph tour 5 5 --start a1 --end e5         an open tour between two squares
  knightgraph tour 6 6 --method backtrack --moves "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"
  knightgraph tour 3 8 --closed                    exit 1: Schwenk (1991) rules it out
  knightgraph exists 7 7 --closed --format json    the certificate of absence
  knightgraph verify 8 8 tour.json --closed        check a tour (algebraic text, JSON or .npy)

exit codes: 0 found/exists/valid, 1 proven absent/invalid, 2 bad input or an output that
  could not be written, 3 gave up (unknown), 70 internal error (a bug: please report it),
  130 interrupted (SIGINT), 141 standard output closed by its reader, 143 terminated (SIGTERM)
squares: algebraic (a1, h8, aa1 for the 27th file) or 0-based "r,c"
"""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit code 2.

    Its help is as wide as :func:`shutil.get_terminal_size` says, read here (the
    ``COLUMNS`` variable, else standard output's terminal, else 80) rather than by
    argparse, whose formatter imports :mod:`shutil` (and with it three compression
    libraries) on every command, help or not.
    """

    checks: tuple[Callable[[Parser, argparse.Namespace], None], ...] = ()
    """Rules between arguments, checked where argparse checks its own (``--graph`` or M N)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[Any, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        for check in self.checks:
            check(self, parsed)
        return parsed, extra

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        # every HelpFormatter takes width (typeshed types the class with prog only)
        return self.formatter_class(prog=self.prog, width=_help_width())  # type: ignore[call-arg]


def _help_width() -> int:
    """The width argparse gives help: the terminal's columns less two.

    Examples
    --------
    >>> import os
    >>> saved = os.environ.get("COLUMNS")
    >>> os.environ["COLUMNS"] = "100"
    >>> _help_width()
    98
    >>> _ = os.environ.pop("COLUMNS") if saved is None else os.environ.update(COLUMNS=saved)
    """
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2


class UsageError(Exception):
    """A problem with the command line itself (exit 2)."""


class Terminated(BaseException):
    """SIGTERM arrived: unwind like Ctrl-C, so that worker processes are stopped."""


class TimeUp(BaseException):
    """The command's budget ran out where no search stops by itself (building a board,
    writing an answer): unwind like Ctrl-C, then exit 3."""


def command_seconds(args: argparse.Namespace) -> float | None:
    """The seconds the whole command may take: ``--total-timeout`` where the command has
    one (its ``--timeout`` is each search's), else ``--timeout``; None without."""
    if hasattr(args, "total_timeout"):
        return cast(float | None, args.total_timeout)
    return cast(float | None, getattr(args, "timeout", None))


def time_left(args: argparse.Namespace) -> float | None:
    """What is left of the command's ``--timeout`` (its budget started with the command:
    building the board counts), for a search or a count to stop by itself in time."""
    budget = getattr(args, "budget", None)
    if budget is None or budget.timeout is None:
        return cast(float | None, getattr(args, "timeout", None))
    return cast(float, budget.remaining())


def tables_memory(memory: int | None) -> int | None:
    """What ``--memory`` leaves for the count's tables: the size given, less what the process
    holds already (the interpreter and its libraries) and the kernel's buffers, so that the
    whole process stays within it (None: no ``--memory``)."""
    if memory is None:
        return None
    from ..counting.compiled import kernel_overhead
    from ..running.resources import format_bytes, resident_bytes

    held = resident_bytes() + kernel_overhead()
    if memory <= held:
        raise UsageError(
            f"--memory {format_bytes(memory)} is less than the {format_bytes(held)} the "
            "program and the counting kernel's buffers hold before any table"
        )
    return memory - held


# ---------------------------------------------------------- argument types
def size_arg(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid board size {text!r}: expected a whole number >= 1"
        ) from None


def leaper_arg(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid leaper {text!r}: expected two whole numbers like '1,2'"
        ) from None
    return a, b


def memory_arg(text: str) -> int:
    from ..running.resources import parse_bytes

    try:
        return parse_bytes(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# --------------------------------------------------------- argument adders
def add_board(p: argparse.ArgumentParser) -> None:
    p.add_argument("m", type=size_arg, metavar="M", help="number of ranks (rows)")
    p.add_argument("n", type=size_arg, metavar="N", help="number of files (columns)")
    p.add_argument(
        "--leaper",
        type=leaper_arg,
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
    p.add_argument(
        "--mask",
        metavar="FILE",
        help="the board's shape: a text mask ('.' square, '#' hole) or a black-and-white image",
    )
    p.add_argument(
        "--wrap",
        choices=("rows", "cols", "both"),
        help="moves wrap around the ranks, the files or both (a torus); not for sweep, table, "
        "classic, draw graph, draw file",
    )
    p.add_argument("--levels", type=int, metavar="K", help="an M x N x K board (as --wrap)")


def add_kind(p: argparse.ArgumentParser) -> None:
    kind = p.add_mutually_exclusive_group()
    kind.add_argument(
        "--closed", action="store_true", help="a closed tour (ends next to its start)"
    )
    kind.add_argument("--open", dest="closed", action="store_false", help="an open tour (default)")


def add_ends(p: argparse.ArgumentParser) -> None:
    p.add_argument("--start", metavar="SQ", help="first square (a1 or r,c)")
    p.add_argument("--end", metavar="SQ", help="last square")


def add_search_options(p: argparse.ArgumentParser, *, default_method: str) -> None:
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


def add_total_timeout(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--total-timeout",
        type=float,
        metavar="SEC",
        help="seconds for the whole run: no search starts after SEC, each gets at "
        "most what is left, and what was not decided is '?' (exit 3)",
    )


def add_executor(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers", type=int, metavar="N", help="run on N local processes (0: one per CPU)"
    )
    where.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on a dask.distributed scheduler (pip install 'knightgraph[distributed]')",
    )


# ------------------------------------------------------ the request itself
METHOD_FLAGS = {
    "moves": "--moves",
    "prune": "--prune",
    "oracle": "--oracle",
    "order": "--order",
    "rule": "--rule",
    "repair": "--repair",
    "attempts": "--attempts",
}


def solver_options_of(args: argparse.Namespace) -> dict[str, Any]:
    from ..solvers import solver_info

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
                f"{METHOD_FLAGS[key]} does not apply to --method {args.method}"
            )
    return options


def board_of(args: argparse.Namespace) -> Board:
    """The board of ``M N --leaper --remove --mask`` (``--mask FILE``: its holes removed too)."""
    from ..boards.board import Board

    removed = list(args.remove)
    if getattr(args, "mask", None) is not None:
        from ..boards.masks import read_mask

        mask = read_mask(args.mask)
        if (mask.m, mask.n) != (args.m, args.n):
            raise UsageError(
                f"invalid --mask {args.mask!r}: it is {mask.m}x{mask.n}, not {args.m}x{args.n}"
            )
        removed += sorted(mask.removed)
    return Board(args.m, args.n, leaper=args.leaper, removed=removed)


def request_of(args: argparse.Namespace) -> tuple[Board, Square | None, Square | None]:
    """The board and the (checked) ends named on the command line."""
    from ..solvers import Problem

    board = board_of(args)
    problem = Problem.make(board, args.closed, args.start, args.end)
    return (
        board,
        None if problem.start is None else board.square(problem.start),
        None if problem.end is None else board.square(problem.end),
    )


# ----------------------------------------------------------- while working
def emit(text: str, output: str | None) -> None:
    from ..running.disk import write_text

    if output:
        write_text(text, output)
    else:
        print(text)


PROGRESS_DELAY = 0.5
"""Seconds of work before a progress bar appears (and tqdm is imported): none for quick work."""


@contextmanager
def progress_bar(
    what: str, *, unit: str = " steps", total: int | None = None
) -> Iterator[Callable[[dict[str, Any]], None] | None]:
    """A tqdm bar on a terminal (standard error), nothing otherwise (a pipe, a file).  The
    callback takes the solvers' counters; the work done is ``done``, ``placed`` or
    ``steps``; the elapsed time moves on even when no counters come.

    The bar appears only once the work has taken :data:`PROGRESS_DELAY` seconds, and only
    then is tqdm imported: a command that is done sooner (``tour 8 8``) writes nothing to
    the terminal and pays nothing for the bar.  A quiet thread makes the bar then, and
    keeps its clock moving when a strategy sends no counters (divide on a big board)."""
    if sys.stderr is None or not sys.stderr.isatty():  # closed (2>&-): no bar
        yield None
        return
    import threading

    lock = threading.Lock()
    stop = threading.Event()
    latest: dict[str, Any] = {}
    bar: Any = None

    def done(stats: dict[str, Any]) -> int:
        return int(stats.get("done", stats.get("placed", stats.get("steps", 0))))

    def show(stats: dict[str, Any]) -> None:  # with the lock held, once the bar is up
        if stats.get("total") is not None and bar.total != stats["total"]:
            bar.total = stats["total"]  # known once the work is divided (count's parts)
        bar.update(max(0, done(stats) - bar.n))
        bar.set_postfix(
            {k: v for k, v in stats.items() if k not in ("placed", "steps", "total")},
            refresh=False,
        )

    def update(stats: dict[str, Any]) -> None:
        with lock:
            if bar is None:
                latest.clear()
                latest.update(stats)
            else:
                show(stats)

    def tick() -> None:
        nonlocal bar
        if stop.wait(PROGRESS_DELAY):
            return
        from tqdm import tqdm

        with lock:
            bar = tqdm(  # what was done before it came up counts as done at its start
                desc=what,
                unit=unit,
                total=total,
                initial=done(latest),
                leave=False,
                file=sys.stderr,
                mininterval=0.5,
            )
            if latest:
                show(latest)
                bar.refresh()
        while not stop.wait(0.5):
            with lock:
                bar.refresh()

    ticker = threading.Thread(target=tick, name="knightgraph-progress", daemon=True)
    ticker.start()
    try:
        yield update
    finally:
        stop.set()
        ticker.join()
        if bar is not None:
            bar.close()


def executor_of(args: argparse.Namespace) -> Any:
    from ..running.parallel import get_executor

    if (args.workers or args.dask) and getattr(args, "own_process", False):
        from ._watchdog import signal_watchdog

        signal_watchdog(args.command)
    return get_executor(workers=args.workers, dask=args.dask)


# ------------------------------------------------------------- checks first
def check_output_path(path: str, flag: str) -> None:
    """Refuse an output path that cannot be written, before any work (exit 2): the
    writer's own rule (:func:`knightgraph.running.disk.check_output`: the folder must exist and
    be writable; a folder, a socket, a block device or a FIFO with no reader is refused;
    symbolic links are followed)."""
    from ..running.disk import check_output

    if not path.strip():
        raise UsageError(f"invalid {flag} {path!r}: expected a file name")
    try:
        check_output(path)
    except InvalidOptionError as err:
        raise UsageError(str(err)) from None
    except OSError as err:
        raise UsageError(f"cannot write {path!r}: {err.strerror or err}") from None


def preflight(args: argparse.Namespace) -> None:
    """The checks every command makes before any work: worker count, dask address,
    budgets and output paths (board sizes and squares are checked by each command
    as soon as it has built its board, also before any work; the board's kind just before)."""
    if getattr(args, "workers", None) is not None:
        from ..running.parallel import check_workers

        check_workers(args.workers)
    if getattr(args, "dask", None) is not None:
        from ..running.parallel import check_dask_address

        check_dask_address(args.dask)
    for flag in ("timeout", "total_timeout"):
        seconds = getattr(args, flag, None)
        if seconds is not None and not (math.isfinite(seconds) and seconds >= 0):
            name = "--" + flag.replace("_", "-")
            raise UsageError(f"invalid {name} {seconds:g}: expected seconds >= 0")
    for flag in ("limit", "attempts"):
        value = getattr(args, flag, None)
        if value is not None and value < (1 if flag == "attempts" else 0):
            least = 1 if flag == "attempts" else 0
            raise UsageError(f"invalid --{flag} {value}: expected a whole number >= {least}")
    if args.command != "draw" and getattr(args, "output", None) is not None:
        check_output_path(args.output, "-o")
    if getattr(args, "checkpoint", None) is not None:
        check_output_path(args.checkpoint, "--checkpoint")
    if getattr(args, "parts", None) is not None:
        from ..counting.split import check_parts

        check_parts(args.parts)
    if getattr(args, "proof", None) is not None:
        check_output_path(args.proof, "--proof")
        check_output_path(args.proof + ".cnf", "--proof")
