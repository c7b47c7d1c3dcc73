"""Hamiltonian paths of small blocks with given ends, by SAT, for the corridor of
:mod:`knightgraph.solvers.corridor` (open tours between prescribed ends).

A block of at most 12 x 12 squares gets a path from an entry square to an exit square
that uses some forced moves (the moves the joins of divide and conquer exchange).  The
answers are cached per kind of block; one incremental SAT instance per block size
answers every kind, the ends and forced moves given as assumptions.

Examples
--------
>>> order = block_path(6, 6, (0, 0), (0, 1), ())
>>> order[0], order[-1], len(order)  # a1 to b1 through all 36 squares
(0, 1, 36)
>>> block_path(3, 3, (0, 0), (2, 2), ()) is None  # the 3 x 3 centre has no move
True
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import threading
from typing import TYPE_CHECKING, Any

from ..boards.board import Board
from ..running.budget import Budget
from .codes import Square

if TYPE_CHECKING:
    from .incremental import SolverSession

Move = tuple[Square, Square]
"""A move between two squares of a block, as (rank, file) pairs."""


@functools.lru_cache(maxsize=4096)
def block_path(
    h: int, w: int, entry: Square, exit_: Square, forced: tuple[Move, ...]
) -> tuple[int, ...] | None:
    """A Hamiltonian path of the h x w block from ``entry`` to ``exit_`` using the
    ``forced`` moves (flat local indices), or None when SAT proves there is none
    (cached: a corridor repeats its kinds of block).

    One incremental SAT instance per block size answers every kind: the ends and the
    forced moves are assumptions of the call, not clauses, and the cut clauses it
    learns (no cycle apart from the hub's) hold for every pair of ends, so a map that
    asks for hundreds of kinds encodes each block size once."""
    instance, lock = _block_instance(h, w)
    cnf = instance.cnf
    board = cnf.board
    a, z = board.index(entry), board.index(exit_)
    try:
        assumptions = [cnf.var(cnf.hub, a), cnf.var(cnf.hub, z)]
        assumptions += [cnf.var(board.index(u), board.index(v)) for u, v in forced]
    except (KeyError, ValueError):
        return None
    with lock:
        outcome = instance.solve(assumptions)
    return _from(outcome, a)


_INSTANCES: dict[tuple[int, int], tuple[SolverSession, threading.Lock]] = {}
_INSTANCES_LOCK = threading.Lock()
_SESSIONS = contextlib.ExitStack()
"""The ``with`` blocks of the kept solver sessions, left at exit."""


def _block_instance(h: int, w: int) -> tuple[SolverSession, threading.Lock]:
    """The open Hamiltonian-path CNF of an h x w block with free ends (the hub joined to
    every square), kept for the process, and the lock that serialises its calls.  The
    solvers are released at exit, before the interpreter tears python-sat down."""
    with _INSTANCES_LOCK:
        if (h, w) not in _INSTANCES:
            from .incremental import solving

            if not _INSTANCES:
                atexit.register(_release_instances)
            session = _SESSIONS.enter_context(solving(Board(h, w), False))
            _INSTANCES[h, w] = (session, threading.Lock())
        return _INSTANCES[h, w]


def _release_instances() -> None:
    with _INSTANCES_LOCK:
        _SESSIONS.close()
        _INSTANCES.clear()


def solve_path(
    h: int,
    w: int,
    entry: Square,
    exit_: Square,
    forced: tuple[Move, ...],
    budget: Budget | None,
) -> tuple[int, ...] | None:
    """:func:`block_path` without the cache, within ``budget`` (None also when it runs out)."""
    from .incremental import solving

    board = Board(h, w)
    a, z = board.index(entry), board.index(exit_)
    with solving(board, False, a, z) as session:
        try:
            units = [[session.cnf.var(board.index(u), board.index(v))] for u, v in forced]
        except (KeyError, ValueError):
            return None
        session.add_clauses(units)
        outcome = session.solve(budget=budget)
    return _from(outcome, a)


def _from(outcome: Any, a: int) -> tuple[int, ...] | None:
    """The path of a SAT outcome read from square ``a`` (None unless it is satisfiable)."""
    if outcome.status != "sat":
        return None
    order = list(outcome.order)
    if order[0] != a:
        order.reverse()
    return tuple(order)
