"""The clauses of the tour encoding: cardinality constraints, and how much memory they take.

:class:`~knightgraph.solvers.cnf.TourCNF` says "exactly two tour edges at every
square" with these builders.  Each takes the literals and ``top``, the highest
variable number in use, and returns the clauses with the new ``top``: above the old
one when the builder numbered auxiliary variables (a sequential counter), which the
encoding records, because a CNF with auxiliary variables cannot back a certificate.

Examples
--------
>>> clauses, top = exactly_two([1, 2, 3], top=3)
>>> clauses, top
([[2, 3], [1, 3], [1, 2], [-1, -2, -3]], 3)
>>> clauses, top = hub_clauses(list(range(1, 71)), top=70)  # a hub with 70 edges
>>> len(clauses), top  # O(k) clauses, 2 (k - 1) auxiliary variables
(344, 208)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..boards.board import Board

__all__ = [
    "BYTES_PER_CLAUSE",
    "DIRECT_LIMIT",
    "cnf_bytes",
    "counter",
    "exactly_two",
    "exactly_two_rows",
    "hub_clauses",
]

Clauses = tuple[list[list[int]], int]
"""Clauses, and the highest variable number in use after them."""

DIRECT_LIMIT = 64
"""Up to this many literals, "at most two" is written out triple by triple."""

BYTES_PER_CLAUSE = 300
"""What one clause costs while the CNF is built and solved (the solver's copy, its watches
and learnt clauses; and the Python list when the encoding keeps its clauses): measured on
100x100 and 200x200 boards, with a margin."""


def cnf_bytes(
    board: Board,
    closed: bool = False,
    start: int | None = None,
    end: int | None = None,
    keep_clauses: bool = False,
) -> int:
    """About the bytes that building and solving the tour encoding takes, before any is built
    (:class:`~knightgraph.solvers.cnf.TourCNF` in a solver).

    Counts the clauses from the squares' degrees (``d`` "at least" clauses and
    ``C(d, 3)`` "at most" clauses at a square with ``d`` moves, five per square
    for the hub's counter), at :data:`BYTES_PER_CLAUSE` each, twice that when
    the clauses are kept as Python lists too.

    Examples
    --------
    >>> from knightgraph import Board
    >>> cnf_bytes(Board(8, 8), closed=True) < 2**20 < cnf_bytes(Board(300, 300)) // 1000
    True
    """
    degree = (board.move_table() >= 0).sum(axis=1)[board.available()].astype(np.int64)
    hub = 0
    if not closed:
        degree = degree + 1
        ends = sum(x is not None for x in (start, end))
        hub = (
            2
            if ends == 2
            else (
                5 * board.num_squares
                if board.num_squares > DIRECT_LIMIT
                else board.num_squares**3 // 6
            )
        )
    clauses = int((degree + degree * (degree - 1) * (degree - 2) // 6).sum()) + hub
    return clauses * BYTES_PER_CLAUSE * (2 if keep_clauses else 1)


@functools.cache
def _triples(k: int) -> np.ndarray[Any, Any]:
    """The index triples of ``range(k)`` in :func:`itertools.combinations` order."""
    return np.array(list(itertools.combinations(range(k), 3)), dtype=np.int64).reshape(-1, 3)


def exactly_two(literals: Sequence[int], top: int) -> Clauses:
    """Clauses for "exactly two of ``literals``".

    Up to :data:`DIRECT_LIMIT` literals: "at least two" is one clause per
    literal (all the others), "at most two" one clause per triple.  Beyond
    (only the hub of a large open board), a sequential counter with
    auxiliary variables (:func:`counter`).

    Examples
    --------
    >>> exactly_two([5], top=5)  # fewer than two possible edges: unsatisfiable
    ([[]], 5)
    """
    k = len(literals)
    if k < 2:
        return [[]], top  # unsatisfiable: a vertex with fewer than two possible tour edges
    if k <= DIRECT_LIMIT:
        at_least = [[x for x in literals if x != skip] for skip in literals]
        at_most: list[list[int]] = (-np.asarray(literals)[_triples(k)]).tolist()
        return at_least + at_most, top
    return counter("equals", literals, 2, top)


@functools.cache
def _others(k: int) -> np.ndarray[Any, Any]:
    """Row ``s`` holds ``range(k)`` without ``s``: the "at least two" clauses' columns."""
    return np.array([[j for j in range(k) if j != s] for s in range(k)], dtype=np.int64)


def exactly_two_rows(literals: np.ndarray[Any, Any]) -> list[list[list[int]]]:
    """:func:`exactly_two`'s clauses for each row of a ``(rows, k)`` array of literals
    (``2 <= k <= DIRECT_LIMIT``), the same clauses in the same order, built in numpy.

    Notes
    -----
    Two fancy-indexing steps (``k`` clauses of ``k - 1`` literals, ``C(k, 3)`` of three)
    and one conversion to lists: O(rows * k^3) work, without a Python call per row; this
    is how a large graph's encoding is written in batches.

    Examples
    --------
    >>> import numpy as np
    >>> exactly_two_rows(np.array([[1, 2, 3], [4, 5, 6]]))[1] == exactly_two([4, 5, 6], 6)[0]
    True
    """
    k = literals.shape[1]
    at_least: list[list[list[int]]] = literals[:, _others(k)].tolist()
    at_most: list[list[list[int]]] = (-literals[:, _triples(k)]).tolist()
    return [a + b for a, b in zip(at_least, at_most, strict=True)]


def hub_clauses(literals: Sequence[int], top: int) -> Clauses:
    """Clauses for "exactly two hub edges" for a hub with many edges, in O(k) clauses.

    "At least two" is written as "at least one": every square has exactly
    two tour edges, so the hub's edges number ``2 * squares - 2 * (edges
    between squares)``, an even number; at least one and at most two means
    two.  "At most two" is Sinz's sequential counter, written with numpy: its
    ``2 (k - 1)`` auxiliary variables are numbered after ``top``.

    Examples
    --------
    >>> clauses, top = hub_clauses([1, 2, 3], top=3)
    >>> top, clauses[0]
    (7, [1, 2, 3])
    """
    x = np.asarray(literals, dtype=np.int64)
    k = len(x)
    # s[i, j]: at least j + 1 of x[0..i] are true (i < k - 1, j in {0, 1}).
    s = top + 1 + np.arange(2 * (k - 1), dtype=np.int64).reshape(k - 1, 2)
    mid = np.arange(1, k - 1)
    xi, prev, here = x[mid], s[mid - 1], s[mid]
    clauses: list[list[int]] = [list(literals), [-int(x[0]), int(s[0, 0])], [-int(s[0, 1])]]
    for block in (
        np.stack([-xi, here[:, 0]], axis=1),
        np.stack([-prev[:, 0], here[:, 0]], axis=1),
        np.stack([-xi, -prev[:, 0], here[:, 1]], axis=1),
        np.stack([-prev[:, 1], here[:, 1]], axis=1),
        np.stack([-xi, -prev[:, 1]], axis=1),
    ):
        clauses += block.tolist()
    clauses.append([-int(x[-1]), -int(s[-1, 1])])
    return clauses, top + 2 * (k - 1)


def counter(kind: str, literals: Sequence[int], bound: int, top: int) -> Clauses:
    """A sequential-counter cardinality constraint (python-sat's ``CardEnc``): ``kind``
    ``"atmost"`` or ``"equals"`` ``bound`` of ``literals``, auxiliary variables after ``top``.

    Examples
    --------
    >>> clauses, top = counter("atmost", [1, 2, 3], 1, top=3)
    >>> top > 3
    True
    """
    from pysat.card import CardEnc, EncType

    encode = getattr(CardEnc, kind)
    encoded = encode(lits=list(literals), bound=bound, top_id=top, encoding=EncType.seqcounter)
    return [list(clause) for clause in encoded.clauses], max(top, encoded.nv)
