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

from typing import Literal

from ..running.budget import Budget
from .encoding import MagicCNF
from .quartets import QuartetCNF

__all__ = ["search_in_child"]

SOLVER = "cadical195"


def search_in_child(
    form: str, m: int, n: int, kind: str, closed: bool, budget: Budget
) -> list[int] | Literal[False] | None:
    """The search of a form (``"nested"``, ``"quartets"`` or ``"blocks"``) in a process of
    its own (:func:`~knightgraph.running.child.in_child`): one uninterrupted solver call
    (CaDiCaL cannot be interrupted, and slicing its search into short calls slows it down
    many times over on these formulas), stopped by ending the process at the timeout.
    The order of the squares found, False (none of that form), or None (past the timeout).

    Examples
    --------
    >>> search_in_child("blocks", 8, 8, "semi", False, Budget.make(timeout=0)) is None
    True
    """
    from ..running.child import in_child

    found = in_child(_form_search, (form, m, n, kind, closed), budget, name="knightgraph-magic")
    return None if found is None else (found or False)


def _form_search(form: str, m: int, n: int, kind: str, closed: bool) -> list[int]:
    """The child's work: the CNF of the form, solved; the order of the squares, or ``[]``
    when the form has no tour."""
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
        order: list[int] = cnf.decode(sat.get_model()) if sat.solve() else []
    return order
