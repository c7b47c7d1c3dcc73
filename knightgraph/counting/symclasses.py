"""Tours by symmetry type: :func:`symmetry_classes` (``count --by-symmetry``) and the
tours a symmetry fixes, :func:`count_fixed` (``count --symmetric``).

Both read the counts of :func:`~knightgraph.counting.symmetry.count_symmetric`: for each
symmetry ``g`` of the board, the undirected tours ``g`` maps onto themselves.

Notes
-----
A tour's *stabiliser* is the subgroup of the board's symmetries that fix it; tours in
one class (an orbit) have conjugate stabilisers, and the class of a tour with
stabiliser ``H`` holds ``|G| / |H|`` tours.  Let ``f(H)`` be the tours fixed by every
element of ``H`` and ``e(H)`` those whose stabiliser is exactly ``H``; then
``f(H) = sum of e(K) over the subgroups K containing H``, so, from the largest
subgroups down, ``e(H) = f(H) - sum of e(K) over K strictly above H`` (Moebius
inversion on the subgroup lattice), and the classes of type ``[H]`` number
``|H| / |G|`` times the sum of ``e`` over the conjugates of ``H``.

``f`` of a cyclic subgroup is the count of its generator.  A subgroup with two
generators (a Klein group, the whole dihedral group) contains a reflection or a
second involution; ``f`` is at most the count of each of its elements, so it is 0 as
soon as one of them fixes no tour (and it is the total when each of them fixes every
tour) -- always, for the knight on a whole board: no
reflection fixes an open tour, and of a rectangle's two reflections at least one fixes
no closed tour (:mod:`knightgraph.proofs.symmetric`).  Otherwise ``f`` is not known
from these counts, and the types are not given.

On 6 x 6 closed (rot90 fixes 10 tours, rot180 78, the reflections none): quaternary
``e = 10`` gives ``10 * 4 / 8 = 5`` classes, binary ``e = 78 - 10 = 68`` gives
``68 * 2 / 8 = 17``, asymmetric ``e = 9862 - 78`` gives ``9784 / 8 = 1223`` (Jelliss:
5 quaternary and 17 binary closed 6 x 6 tours).  The work is the counts' work; the
lattice of at most 10 subgroups is nothing beside it.

Examples
--------
>>> r = symmetry_classes(6, 6, closed=True)
>>> r.types
{'quaternary': 5, 'binary': 17, 'asymmetric': 1223}
>>> count_fixed(4, 5, symmetric="rot180").undirected  # OEIS A328340: 3 classes of 2
6
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.coercion import as_board
from ..proofs.symmetric import symmetry_elements
from ..running.budget import Budget
from ..tours.verify import check_closed
from .count import count_cycles
from .limits import CountAbortedError, CountStatus, check_budget, require_plan_memory
from .symmetry import count_symmetric

if TYPE_CHECKING:
    from ..running.parallel import Executor

__all__ = ["TYPES", "FixedCount", "SymmetryClasses", "count_fixed", "symmetry_classes"]

TYPES = (
    "octonary",
    "quaternary",
    "biaxial",
    "biaxial-diagonal",
    "binary",
    "axial",
    "axial (flip_ranks)",
    "axial (flip_files)",
    "diagonal",
    "asymmetric",
)
"""The symmetry types, largest stabiliser first (the order of :attr:`SymmetryClasses.types`)."""


@dataclass(frozen=True)
class SymmetryClasses(CountStatus):
    """Classes of tours (up to the board's symmetries) by the symmetry their tours have.

    Attributes
    ----------
    total : int or None
        Undirected tours.
    fixed : dict or None
        The undirected tours each symmetry fixes (:func:`count_symmetric`).
    types : dict or None
        Classes by type, largest stabiliser first, types with none left out:
        ``octonary``, ``quaternary`` (the quarter turn), ``biaxial`` and
        ``biaxial-diagonal`` (two reflections), ``binary`` (the half turn), ``axial`` and
        ``diagonal`` (one reflection; on rectangles ``axial (flip_ranks)`` and ``axial
        (flip_files)``), ``asymmetric``.
    classes : int or None
        All classes (Burnside's lemma); the sum of ``types``.

    Examples
    --------
    >>> r = symmetry_classes(3, 10, closed=True)
    >>> r.types, r.classes  # 4 tours fixed by the half turn, 4 by the file mirror
    ({'binary': 2, 'axial (flip_files)': 2, 'asymmetric': 2}, 6)
    """

    board: Board
    closed: bool
    total: int | None
    fixed: dict[str, int] | None
    types: dict[str, int] | None
    classes: int | None
    seconds: float = 0.0
    reason: str = ""

    def _counted(self) -> int | None:
        return self.total

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": self.board.m,
            "cols": self.board.n,
            "closed": self.closed,
            "undirected": self.total,
            "fixed": self.fixed,
            "classes": self.classes,
            "by_symmetry": self.types,
            "seconds": round(self.seconds, 6),
            "status": self.status.value,
        }


@dataclass(frozen=True)
class FixedCount(CountStatus):
    """Undirected tours that a symmetry (``--symmetric``) maps onto themselves.

    Examples
    --------
    >>> r = count_fixed(6, 6, symmetric="rot90", closed=True)
    >>> r.undirected, r.directed, r.fixed
    (10, 20, {'rot90': 10})
    """

    board: Board
    closed: bool
    symmetric: str
    undirected: int | None
    fixed: dict[str, int] | None
    seconds: float = 0.0
    reason: str = ""

    @property
    def directed(self) -> int | None:
        """Both directions of each tour (closed: cycles; open: paths)."""
        return None if self.undirected is None else 2 * self.undirected

    def _counted(self) -> int | None:
        return self.undirected

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": self.board.m,
            "cols": self.board.n,
            "closed": self.closed,
            "symmetric": self.symmetric,
            "directed": self.directed,
            "undirected": self.undirected,
            "fixed": self.fixed,
            "seconds": round(self.seconds, 6),
            "status": self.status.value,
        }


def count_fixed(
    m: int | Board,
    n: int | None = None,
    *,
    symmetric: str,
    closed: bool = False,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    timeout: float | None = None,
) -> FixedCount:
    """Count the undirected tours that ``symmetric`` (``rot180``, ``rot90``, ``mirror``:
    some reflection) maps onto themselves.

    For ``mirror`` the count is the sum over the board's reflections, exact when at most
    one of them fixes any tour (a tour fixed by two would be counted twice): otherwise
    the result is ABORTED with the reason.  The Python engine counts on a plan that adds
    whole orbits of the symmetry at once (:func:`count_symmetric`).

    Examples
    --------
    >>> count_fixed(3, 10, symmetric="mirror", closed=True).fixed
    {'flip_ranks': 0, 'flip_files': 4}
    >>> count_fixed(5, 5, symmetric="rot180").undirected  # each reversed by the half turn
    32
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    closed = check_closed(closed)
    elements = symmetry_elements(board, symmetric)
    check_budget("auto", None, timeout)
    require_plan_memory(board, "counting the symmetric tours of")
    began = time.perf_counter()
    budget = Budget(timeout)
    perms = board.symmetries()
    fixed: dict[str, int] = {}
    try:
        for element in elements:
            if board.num_squares == 1:
                fixed[element] = 0 if closed else 1
                continue
            fixed[element] = count_cycles(
                board,
                virtual=not closed,
                perm=perms[element].tolist(),
                engine="python",
                budget=budget,
            )
    except CountAbortedError as stop:
        return FixedCount(board, closed, symmetric, None, None, _since(began), str(stop))
    if sum(1 for k in fixed.values() if k) > 1:
        why = "tours fixed by two reflections at once are not counted: the sum is not exact"
        return FixedCount(board, closed, symmetric, None, fixed, _since(began), why)
    return FixedCount(board, closed, symmetric, sum(fixed.values()), fixed, _since(began))


def _since(began: float) -> float:
    return time.perf_counter() - began


def symmetry_classes(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    timeout: float | None = None,
    executor: Executor | None = None,
) -> SymmetryClasses:
    """Classes of tours by symmetry type (see the module notes for the derivation).

    Examples
    --------
    >>> symmetry_classes(5, 5).types  # open: only the half turn (32 tours, 8 classes)
    {'binary': 8, 'asymmetric': 104}
    """
    counts = count_symmetric(
        m, n, closed=closed, leaper=leaper, removed=removed, timeout=timeout, executor=executor
    )
    board, fixed = counts.board, counts.fixed
    if fixed is None or counts.total is None:
        return SymmetryClasses(board, closed, None, None, None, None, counts.seconds, counts.reason)
    types, why = _types(board, fixed, counts.total)
    classes = None if types is None else sum(types.values())
    if classes is not None and classes != counts.classes:  # pragma: no cover - a bug
        raise AssertionError(f"types sum to {classes}, Burnside gives {counts.classes}")
    return SymmetryClasses(
        board, closed, counts.total, fixed, types, classes, counts.seconds, why or counts.reason
    )


def _types(board: Board, fixed: dict[str, int], total: int) -> tuple[dict[str, int] | None, str]:
    """Classes by type from the fixed counts (Moebius inversion), or None and why not."""
    # the symmetries compose as those of a small board of the same shape, where no two are
    # the same permutation (on 1 x n, say, flip_ranks moves no square)
    small = Board(3, 3) if board.m == board.n else Board(3, 4)
    perms = {name: tuple(int(x) for x in p) for name, p in small.symmetries().items()}
    perms = {name: perm for name, perm in perms.items() if name in fixed}
    named = {p: name for name, p in perms.items()}

    def compose(a: str, b: str) -> str:
        return named[tuple(perms[a][i] for i in perms[b])]

    def closure(gens: Iterable[str]) -> frozenset[str]:
        group = {"identity", *gens}
        while True:
            more = {compose(a, b) for a in group for b in group} - group
            if not more:
                return frozenset(group)
            group |= more

    names = list(perms)
    subgroups = {closure(pair) for pair in itertools.combinations_with_replacement(names, 2)}
    if board.num_squares == 1:  # one square, one tour: every symmetry fixes it
        return {_type_name(frozenset(perms), board): total}, ""
    f: dict[frozenset[str], int | None] = {}
    for h in subgroups:
        generators = [x for x in h if closure([x]) == h]
        if generators:
            f[h] = fixed[generators[0]]
        elif any(fixed[x] == 0 for x in h if x != "identity"):
            f[h] = 0
        elif all(fixed[x] == total for x in h):  # each fixes every tour, so H does
            f[h] = total
        else:
            f[h] = None
    exact: dict[frozenset[str], int] = {}
    for h in sorted(subgroups, key=len, reverse=True):
        above = [exact.get(k) for k in subgroups if h < k]
        value = f[h]
        if value is None or any(x is None for x in above):
            return None, "tours fixed by two symmetries at once are not counted here"
        exact[h] = value - sum(x for x in above if x is not None)
    size = len(perms)
    types: dict[str, int] = {}
    for h in sorted(subgroups, key=len, reverse=True):
        classes, rest = divmod(exact[h] * len(h), size)
        if rest:  # pragma: no cover - an orbit holds |G|/|H| tours
            raise AssertionError(f"{exact[h]} tours with stabiliser {sorted(h)}")
        name = _type_name(h, board)
        if classes:
            types[name] = types.get(name, 0) + classes
    return {t: types[t] for t in sorted(types, key=TYPES.index)}, ""


def _type_name(h: frozenset[str], board: Board) -> str:
    """Jelliss's (Bergholt's) name of a stabiliser's symmetry type."""
    square = board.m == board.n
    rest = sorted(h - {"identity"})
    if not rest:
        return "asymmetric"
    if rest == ["rot180"]:
        return "binary"
    if len(rest) == 1 and rest[0] in ("transpose", "antitranspose"):
        return "diagonal"
    if len(rest) == 1:
        return "axial" if square else f"axial ({rest[0]})"
    if "rot90" in h:
        return "octonary" if len(h) == 8 else "quaternary"
    if len(h) == 4:
        return "biaxial-diagonal" if "transpose" in h else "biaxial"
    return "+".join(sorted(h))  # pragma: no cover - every subgroup of D4 is named above
