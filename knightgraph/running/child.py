"""A piece of work in a process of its own, ended at a budget's timeout: :func:`in_child`.

Some solver calls cannot be stopped from inside: CaDiCaL cannot be interrupted at all,
and any solver spends seconds releasing the memory of a formula with millions of clauses.
Such work runs in a forked child process; the parent waits for its answer, reading the
clock every :data:`POLL` seconds, and at the timeout it kills the child, whose memory the
system takes back at once.  A timeout is then honoured within a fraction of a second,
whatever the child was doing.

The child ignores Ctrl-C (the parent, which receives it too, stops the child) and dies
with its parent even when the parent is killed (:func:`~knightgraph.running.parallel.die_with_parent`).

"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

from ..exceptions import InternalError
from .budget import Budget

__all__ = ["POLL", "in_child"]

T = TypeVar("T")

POLL = 0.05
"""Seconds between the parent's looks at the clock while the child works."""


def in_child(
    work: Callable[..., T], args: tuple[Any, ...], budget: Budget, name: str = "knightgraph-child"
) -> T | None:
    """``work(*args)`` run in a forked child process: its return value (sent back through
    a pipe, so it must pickle), or None when the budget's timeout comes first (the child
    is then killed).

    Parameters
    ----------
    work : callable
        What the child does; it sees the parent's memory as it was at the fork.
    args : tuple
        Its arguments.
    budget : Budget
        Only its timeout is read here (a work limit is ``work``'s own business).
    name : str
        The child process's name (seen in ``ps``).

    Returns
    -------
    object or None
        What ``work`` returned, or None past the timeout.

    Raises
    ------
    InternalError
        When the child raised or ended without an answer (a bug, or the system killed it).

    Notes
    -----
    Where the system cannot fork, the child is spawned, and ``work`` and ``args`` must then
    pickle too.  The parent's wait costs nothing but the polls; the child's answer is
    pickled once (a tour of a million vertices: a few megabytes).

    Examples
    --------
    >>> from knightgraph.running.budget import Budget
    >>> in_child(sum, ([1, 2, 3],), Budget(timeout=10))
    6
    >>> import time
    >>> in_child(time.sleep, (5,), Budget(timeout=0.2)) is None  # killed at the timeout
    True
    """
    import multiprocessing

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context: Any = multiprocessing.get_context(method)
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(
        target=_child, args=(work, args, sender, os.getpid()), name=name, daemon=True
    )
    child.start()
    sender.close()
    try:
        while True:
            left = budget.remaining()
            wait = POLL if left is None else min(POLL, max(left, 0.0))
            if receiver.poll(wait):
                try:
                    done, value = receiver.recv()
                except EOFError:
                    raise InternalError(
                        f"internal error: the {name} process ended without an answer "
                        f"(exit {child.exitcode})"
                    ) from None
                if not done:
                    raise InternalError(f"internal error in the {name} process: {value}")
                answer: T = value
                return answer
            if budget.out_of_time():
                return None
            if not child.is_alive() and not receiver.poll():
                raise InternalError(
                    f"internal error: the {name} process ended (exit {child.exitcode})"
                )
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()


def _child(work: Callable[..., Any], args: tuple[Any, ...], sender: Any, parent: int) -> None:
    """The child's side: tied to the parent, run ``work``, send ``(True, value)`` or
    ``(False, what went wrong)``."""
    from .parallel import die_with_parent

    die_with_parent(parent, tied=True)
    try:
        value = work(*args)
    except BaseException as err:  # every failure goes back to the parent, by name
        sender.send((False, f"{type(err).__name__}: {err}"))
    else:
        sender.send((True, value))
    sender.close()
