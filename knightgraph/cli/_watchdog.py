"""The last resort of a command with workers, or a count: SIGINT and SIGTERM end it even when
its main thread cannot run (see :func:`signal_watchdog`)."""

from __future__ import annotations

import contextlib
import os

__all__ = ["SIGNAL_GRACE", "WATCHDOG", "signal_watchdog"]

SIGNAL_GRACE = 3.0
"""Seconds a command with workers (or a count) has, after SIGINT or SIGTERM, to stop by
itself before :func:`signal_watchdog` ends the process."""


WATCHDOG = "knightgraph-signal-watchdog"
"""The name of the watchdog's thread: the quick exit
(:func:`knightgraph.cli._running.leave_if_nothing_left`) may leave it behind."""


def signal_watchdog(command: str) -> None:
    """Make sure SIGINT and SIGTERM end a command that runs workers, whatever its main
    thread is doing.

    The command stops by itself: the signal becomes an exception in the main thread, the
    executor kills its workers, one line is printed (about 0.01 s).  That needs the main
    thread to run Python code; one case in thousands under load did not stop within 30 s.
    The C signal handler also writes the signal's number to a pipe
    (:func:`signal.set_wakeup_fd`) at once, whatever the main thread does, and a daemon
    thread reading it ends the process :data:`SIGNAL_GRACE` seconds later with the same
    line and code (130 or 143) if it is still there; the workers die with it (see
    :func:`knightgraph.running.parallel.die_with_parent`).  Armed once, from the main thread, only
    for commands with workers, and for ``count`` (whose main thread may sit in the compiled
    counting kernel for minutes), run as the process itself (not :func:`knightgraph.cli.main`
    called from a program): elsewhere a thread would cost the quick exit
    (:func:`knightgraph.cli._running.leave_if_nothing_left`).
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or getattr(
        signal_watchdog, "armed", False
    ):
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except (ValueError, OSError):  # pragma: no cover - not the main thread
        os.close(read)
        os.close(write)
        return
    if previous != -1:  # someone else listens (an event loop): leave it to them
        signal.set_wakeup_fd(previous)
        os.close(read)
        os.close(write)
        return
    signal_watchdog.armed = True  # type: ignore[attr-defined]
    words = {int(signal.SIGINT): "interrupted", int(signal.SIGTERM): "terminated"}
    line = f"knightgraph {command}: "

    def watch() -> None:
        import time

        while True:
            for number in os.read(read, 64):
                if number in words:
                    time.sleep(SIGNAL_GRACE)
                    with contextlib.suppress(OSError):
                        os.write(2, f"{line}{words[number]}\n".encode())
                    os._exit(128 + number)

    threading.Thread(target=watch, name=WATCHDOG, daemon=True).start()


# ------------------------------------------------------------- checks first
