"""Running a command: every error becomes one line on standard error and an exit
code, never a traceback; SIGTERM unwinds like Ctrl-C, so that worker processes
are stopped and nothing is left behind."""

from __future__ import annotations

import argparse
import math
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, NoReturn

from ..exceptions import KnightGraphError
from ._shared import (
    EXIT_INTERNAL,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    Terminated,
    TimeUp,
    UsageError,
    command_seconds,
    preflight,
)
from ._watchdog import WATCHDOG

BACKSTOP_SHARE = 0.1
"""The backstop of a command's budget: at ``timeout * (1 + BACKSTOP_SHARE) +``
:data:`BACKSTOP_SECONDS` after the command began, the contract's bound, the command is
stopped wherever it is (exit 3, one line, no answer); searches and counts stop by
themselves at the timeout, and their ABORTED answer is out long before (``tour 8 8
--timeout 0``: 0.12 s).  Only what no search's clock covers reaches it: building a
large graph board, drawing, a slow write."""

BACKSTOP_SECONDS = 0.5


def run_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command: map every error to one line and an exit code, never a traceback.

    Standard output is part of the command: what it prints is flushed before the command
    ends, and a write, flush or close that fails (standard output closed, a full disk,
    ``EIO``) is exit 2 with one line, like an output file that cannot be written; a
    reader that went away (``| head``) ends the command quietly with 141 (128 + SIGPIPE).
    """
    seconds = command_seconds(args)
    args.budget = None  # no --timeout: no clock (and nothing imported for one)
    if seconds is not None:
        from ..running.budget import Budget

        args.budget = Budget(seconds)  # the clock starts with the command
    try:
        with _checked_stdout():
            from ._kinds import check_kind  # the board kind's flags, then the rest

            check_kind(args)
            preflight(args)
            with _backstop(seconds):
                code: int = args.run(args)
    except TimeUp:
        args.time_up = True  # the process leaves at once (nothing to tidy but memory)
        _answer_when_time_is_up(args, seconds)
        return fail(
            f"{parser.prog} {args.command}: stopped at the timeout of {seconds:g} s before "
            "an answer was out (building the board or writing the answer took the time)",
            EXIT_UNKNOWN,
        )
    except UsageError as err:
        return fail(f"{parser.prog} {args.command}: error: {err}")
    except KnightGraphError as err:
        if _is_internal(err):
            return _internal(parser.prog, str(err).removeprefix("internal error").lstrip(": "))
        return fail(f"{parser.prog} {args.command}: error: {_one_line(str(err))}")
    except _StdoutFailed as err:
        _silence_stdout()
        return fail(f"{parser.prog} {args.command}: error: cannot write to standard output: {err}")
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        _silence_stdout()
        return 141
    except OSError as err:
        where = f" {err.filename!r}" if err.filename else ""
        return fail(
            f"{parser.prog} {args.command}: error: cannot write{where}: {err.strerror or err}"
        )
    except MemoryError:
        return fail(f"{parser.prog} {args.command}: error: out of memory")
    except KeyboardInterrupt:
        return fail(f"{parser.prog} {args.command}: interrupted", 130)
    except Terminated:
        return fail(f"{parser.prog} {args.command}: terminated", 128 + signal.SIGTERM)
    except Exception as err:  # a bug: say so, with a distinct exit code
        stopped = _interruption_in_ctypes(err)
        if stopped == "KeyboardInterrupt":
            return fail(f"{parser.prog} {args.command}: interrupted", 130)
        if stopped == "Terminated":
            return fail(f"{parser.prog} {args.command}: terminated", 128 + signal.SIGTERM)
        if stopped == "TimeUp":
            args.time_up = True
            return fail(
                f"{parser.prog} {args.command}: stopped at the timeout of {seconds:g} s",
                EXIT_UNKNOWN,
            )
        return _internal(parser.prog, f"{type(err).__name__}: {err}")
    finally:
        files = sys.modules.get("knightgraph.running.disk")  # not imported: no FIFO held open
        if files is not None:
            files.release_outputs()
    return code


def _interruption_in_ctypes(err: Exception) -> str | None:
    """The name of the signal's exception (``KeyboardInterrupt``, ``Terminated``,
    ``TimeUp``) when ``err`` is ctypes' wrapping of it: a signal that lands while
    ctypes converts the arguments of a call into a compiled kernel comes out as
    ``ctypes.ArgumentError: argument 10: KeyboardInterrupt: ``, not as itself."""
    if type(err).__name__ != "ArgumentError":
        return None
    for name in ("KeyboardInterrupt", "Terminated", "TimeUp"):
        if f": {name}" in str(err):
            return name
    return None


class _StdoutFailed(Exception):
    """Writing, flushing or closing standard output failed (its reason in words)."""


class _CheckedStdout:
    """Standard output while a command runs: the stream it stands for (None when the
    process started with it closed), whose failures become :class:`_StdoutFailed` (a
    closed pipe stays a BrokenPipeError: ``| head`` is no error)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _failed(self, err: BaseException) -> _StdoutFailed:
        if isinstance(err, OSError):
            return _StdoutFailed((err.strerror or str(err)).lower())
        return _StdoutFailed("it is closed")

    def write(self, text: str) -> int:
        if text:  # the answer is being printed: it comes out whole (no backstop past here)
            _disarm_backstop()
        try:
            if self._stream is None:
                raise ValueError("closed")
            written = self._stream.write(text)
            return len(text) if written is None else int(written)
        except BrokenPipeError:
            raise
        except (OSError, ValueError, AttributeError) as err:
            raise self._failed(err) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as err:
            raise self._failed(err) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def _checked_stdout() -> Iterator[None]:
    """Standard output checked while the command runs (:class:`_CheckedStdout`), and
    flushed before it ends, so that a failed flush is the command's error."""
    real = sys.stdout
    checked = _CheckedStdout(real)
    sys.stdout = checked
    try:
        yield
        checked.flush()
    finally:
        if sys.stdout is checked:
            sys.stdout = real


def _is_internal(err: KnightGraphError) -> bool:
    """A broken promise of knightgraph itself (an ``InternalError``, or a message that
    says ``internal error``), as opposed to bad input."""
    from ..exceptions import InternalError

    return isinstance(err, InternalError) or str(err).startswith("internal error")


def _internal(prog: str, detail: str) -> int:
    return fail(f"{prog}: internal error: {_one_line(detail)} (please report this)", EXIT_INTERNAL)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """``message`` on standard error, after what standard output holds; neither a closed
    or failing standard output nor a closed standard error turns it into a traceback."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except (AttributeError, OSError, ValueError):  # closed (None) or failing: drop it
        _silence_stdout()
    with suppress(AttributeError, OSError, ValueError):
        if sys.stderr is not None:
            print(message, file=sys.stderr)
            sys.stderr.flush()
    return code


@contextmanager
def sigterm_unwinds() -> Iterator[None]:
    """While a command runs, SIGTERM raises :class:`Terminated` (like Ctrl-C raises
    KeyboardInterrupt), so that executors stop their workers on the way out."""

    def terminated(signum: int, frame: object) -> None:
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def exit_at_once(code: int) -> NoReturn:
    """Leave the process now, after an interruption, with the one-line message already out.

    The interpreter's exit hooks would try to wake a process pool whose workers were
    just killed, and may print a traceback about a closed pipe after our one line.
    Only the command itself (``argv`` from the process) exits this way.
    """
    import os

    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def leave_if_nothing_left(code: int) -> None:
    """Leave the process now when the interpreter's finalization would only free memory.

    Tearing the interpreter down after numpy is imported costs half a bare Python
    start or more (benchmarks/bench_startup.py: ``python -c "import numpy"`` against
    the same with ``os._exit(0)``): every module is cleared and every object freed,
    which the operating system does at once when the process ends.
    This skips it when nothing else would run at exit: no :mod:`atexit` hook (which
    :mod:`multiprocessing`, :mod:`logging`, coverage and dask's client register), no
    thread but this one (and the signal watchdog's) and no hook of :mod:`threading` (which
    :mod:`concurrent.futures` registers), and standard output and error flushed.
    Files the command wrote are closed already (every output goes through
    :mod:`knightgraph.running.disk`).  Otherwise it returns and the normal exit runs.
    Only the process's entry point (:func:`knightgraph.cli.console_main`) calls it.
    """
    import atexit

    hooks = getattr(atexit, "_ncallbacks", None)
    if hooks is None or hooks() != 0:
        return
    threading = sys.modules.get("threading")
    if threading is not None and (
        any(  # another thread but the watchdog (cli._watchdog), which may go with us
            t is not threading.current_thread() and t.name != WATCHDOG
            for t in threading.enumerate()
        )
        or getattr(threading, "_threading_atexits", [None])
    ):
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except (AttributeError, OSError, ValueError):
        return  # no stream, or a closed pipe or stream: the normal exit reports it as before
    exit_at_once(code)


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that the final flush cannot fail again
    (nothing to do when it is closed, or not a file of the process)."""
    import os

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


_VALUE_FLAGS = ("--moves", "--start", "--end", "--remove", "--leaper")


def attach_dash_values(argv: Sequence[str]) -> list[str]:
    """Write ``--moves -2,1;...`` as ``--moves=-2,1;...`` so argparse does not take the
    value for an option (move orders and ``r,c`` squares may start with a minus)."""
    out: list[str] = []
    for token in argv:
        if out and out[-1] in _VALUE_FLAGS and token.startswith("-") and token[1:2].isdigit():
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def _answer_when_time_is_up(args: argparse.Namespace, seconds: float | None) -> None:
    """Print the command's ABORTED answer (``"exists": null``, ``"status": "aborted"``) when
    the backstop stopped it and it had one ready (``args.aborted_answer``, set by a command
    that answers in JSON once its request is known): ``--format json`` always prints its
    object, whatever ends the command.  A failing write here is left to the one line."""
    answer = getattr(args, "aborted_answer", None)
    if answer is None:
        return
    with suppress(OSError, ValueError, _StdoutFailed, KnightGraphError):
        answer(f"stopped at the timeout of {seconds:g} s before the answer was out")


def _disarm_backstop() -> None:
    """Stop the backstop's timer (:func:`_backstop`): called when the command starts to
    print its answer on standard output, so that an answer is never cut in half (a file
    is written whole or not at all whatever happens; standard output cannot be)."""
    with suppress(ValueError, AttributeError, OSError):
        signal.setitimer(signal.ITIMER_REAL, 0)


@contextmanager
def _backstop(seconds: float | None) -> Iterator[None]:
    """While the command runs, a timer that raises :class:`TimeUp` past its budget
    (:data:`BACKSTOP_SHARE`, :data:`BACKSTOP_SECONDS`): what no search's own clock covers
    (building a graph board, drawing, writing a file) cannot overrun ``--timeout``.  Unwinds
    like Ctrl-C (workers stopped, no partial file); the main thread only.  Once the answer
    starts on standard output the timer is stopped (:func:`_disarm_backstop`): printing
    it is not cut short."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        yield
        return

    def spent(signum: int, frame: object) -> None:
        raise TimeUp

    try:
        previous = signal.signal(signal.SIGALRM, spent)
    except (ValueError, AttributeError):  # not the main thread, or no SIGALRM
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds * (1 + BACKSTOP_SHARE) + BACKSTOP_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
