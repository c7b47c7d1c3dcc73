"""The searches of restricted forms, each in a process of its own (:func:`search_in_child`).

:func:`~knightgraph.magic.solving.find_magic_tour` first asks for a tour of a form that
keeps a small part of the tours: the nested and the quartet forms
(:class:`~knightgraph.magic.quartets.QuartetCNF`) and Beverley's form
(:meth:`~knightgraph.magic.encoding.MagicCNF.block_clauses`).  One solver call, which
CaDiCaL cannot interrupt, runs in a child process that the parent ends at the timeout.

Examples
--------
>>> from knightgraph.running.budget import Budget
>>> order = search_in_child("nested", 8, 8, "semi", False, Budget.make(timeout=None))
>>> sorted(order) == list(range(64))
True
"""

from __future__ import annotations

from typing import Any, Literal

from ..exceptions import InternalError
from ..running.budget import Budget
from .encoding import MagicCNF
from .quartets import QuartetCNF

__all__ = ["search_in_child"]

SOLVER = "cadical195"


def search_in_child(
    form: str, m: int, n: int, kind: str, closed: bool, budget: Budget
) -> list[int] | Literal[False] | None:
    """The search of a form (``"nested"``, ``"quartets"`` or ``"blocks"``) in a process of its own: one uninterrupted solver call
    (CaDiCaL cannot be interrupted, and slicing its search into short calls slows it down
    many times over on these formulas), stopped by ending the process at the timeout.
    The order of the squares found, False (none of that form), or None (past the timeout)."""
    import multiprocessing

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context: Any = multiprocessing.get_context(method)
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(
        target=_form_search, args=(form, m, n, kind, closed, sender), name="knightgraph-magic"
    )
    child.daemon = True
    child.start()
    sender.close()
    try:
        while True:
            wait = 0.05 if budget.timeout is None else min(0.05, max(budget.remaining() or 0, 0))
            if receiver.poll(wait):
                try:
                    found: list[int] | Literal[False] = receiver.recv()
                except EOFError:
                    raise InternalError("internal error: the magic search's process ended "
                                        f"without an answer (exit {child.exitcode})") from None  # fmt: skip
                return found
            if budget.out_of_time():
                return None
            if not child.is_alive() and not receiver.poll():
                raise InternalError(
                    f"internal error: the magic search's process ended (exit {child.exitcode})"
                )
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()


def _form_search(form: str, m: int, n: int, kind: str, closed: bool, sender: Any) -> None:
    """The child's work: the CNF of the form, solved; the order sent back."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    import itertools
    from collections.abc import Iterable

    from pysat.solvers import Solver

    cnf: MagicCNF | QuartetCNF
    clauses: Iterable[list[int]]
    if form in ("nested", "quartets"):
        cnf = QuartetCNF(m, n, kind, closed, nested=form == "nested")
        clauses = cnf.clauses()
    else:
        cnf = MagicCNF(m, n, kind, closed)
        clauses = itertools.chain(cnf.iter_clauses(), cnf.block_clauses())
    with Solver(name=SOLVER) as sat:
        add = getattr(sat, "solver", sat).add_clause
        for clause in clauses:
            add(clause)
        sender.send(cnf.decode(sat.get_model()) if sat.solve() else False)
    sender.close()
