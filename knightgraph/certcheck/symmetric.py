"""The independent checks of symmetric tours (``--symmetric rot180|rot90|mirror``).

An answer with ``"symmetric"`` claims a tour of a rectangle whose moves the named symmetry
maps onto themselves, or that there is none.  Re-checked here from the board's size alone
(standard library; nothing of the code that found or refuted it):

* a tour: a tour of the board (:mod:`knightgraph.certcheck.checker`), and its set of
  moves (the closing one too) mapped onto itself by the symmetry, whose images are
  recomputed from coordinates (:func:`image`); for ``mirror``, by one of the board's
  reflections;
* a "no": a certificate that there is no tour at all (any kind the checker accepts), or
  one of kind ``symmetric`` whose ``cases`` cover every symmetry the request names (the
  half turn; the quarter turn; each reflection that maps the board onto itself), each by
  a theorem whose conditions are recomputed here (:func:`theorem_holds`, the clauses of
  :mod:`knightgraph.proofs.symmetric`) or by a SAT refutation whose clauses are the tour
  encoding's plus ``[-e, g(e)]`` for moves ``e`` and their images ``g(e)``.

Examples
--------
>>> tour = ["a1", "b3", "c1", "a2", "b4", "c2", "a3", "b1", "c3", "a4", "b2", "c4"]
>>> check_symmetric_answer({"rows": 4, "cols": 3, "symmetric": "rot180", "squares": tour})
(True, 'tour: a verified tour of 12 squares, fixed by rot180')
>>> check_symmetric_answer({"rows": 8, "cols": 8, "closed": True, "symmetric": "rot90",
...     "exists": False, "certificate": {"kind": "symmetric", "symmetric": "rot90",
...     "cases": [{"symmetry": "rot90", "clause": "cycle-quarter-turn"}]}})
(True, 'symmetric: rot90 by theorem cycle-quarter-turn')
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from .adjacency import Malformed, Rectangle, Rejected, Square, parse_square, require
from .checker import check, check_certificate

__all__ = ["check_symmetric_answer", "image", "theorem_holds", "tour_is_symmetric"]

KINDS = ("rot180", "rot90", "mirror")
REFLECTIONS = ("flip_ranks", "flip_files", "transpose", "antitranspose")


def image(element: str, m: int, n: int, square: Square) -> Square:
    """The image of ``(r, c)`` under a symmetry of the ``m x n`` board.

    Examples
    --------
    >>> image("rot90", 6, 6, (0, 0)), image("flip_files", 3, 4, (0, 0))
    ((0, 5), (0, 3))
    """
    r, c = square
    return {
        "identity": (r, c),
        "rot180": (m - 1 - r, n - 1 - c),
        "flip_ranks": (m - 1 - r, c),
        "flip_files": (r, n - 1 - c),
        "transpose": (c, r),
        "antitranspose": (n - 1 - c, m - 1 - r),
        "rot90": (c, n - 1 - r),
        "rot270": (n - 1 - c, r),
    }[element]


def _elements(kind: str, m: int, n: int, removed: set[Square]) -> list[str]:
    """The symmetries a request names, among those that map the board onto itself."""
    if kind == "mirror":
        named = [x for x in REFLECTIONS if m == n or x in ("flip_ranks", "flip_files")]
    else:
        require(kind == "rot180" or m == n, f"{kind} is not a symmetry of {m}x{n}")
        named = [kind]
    return [x for x in named if {image(x, m, n, s) for s in removed} == removed]


def tour_is_symmetric(squares: Sequence[Square], m: int, n: int, closed: bool, kind: str) -> str:
    """The symmetry (one of ``kind``'s) that maps the tour's moves onto themselves, or
    :class:`Rejected`; the squares are a tour already checked.

    Examples
    --------
    >>> tour_is_symmetric([(0, 0), (2, 1), (0, 2), (1, 0), (3, 1), (1, 2), (2, 0), (0, 1),
    ...                    (2, 2), (3, 0), (1, 1), (3, 2)], 4, 3, False, "mirror")
    Traceback (most recent call last):
    ...
    knightgraph.certcheck.adjacency.Rejected: no reflection of 4x3 maps the tour's moves onto themselves
    """
    pairs = list(itertools.pairwise(squares))
    if closed and len(squares) > 2:
        pairs.append((squares[-1], squares[0]))
    moves = {frozenset(p) for p in pairs}
    for element in _elements(kind, m, n, set()):
        mapped = {frozenset(image(element, m, n, s) for s in move) for move in moves}
        if mapped == moves:
            return element
    what = "reflection" if kind == "mirror" else kind
    raise Rejected(f"no {what} of {m}x{n} maps the tour's moves onto themselves")


def theorem_holds(clause: str, element: str, m: int, n: int, closed: bool) -> bool:
    """Whether the theorem ``clause`` rules out knight's tours of the whole ``m x n`` board
    fixed by ``element`` (the conditions of :mod:`knightgraph.proofs.symmetric`, recomputed).

    Examples
    --------
    >>> theorem_holds("cycle-quarter-turn", "rot90", 8, 8, True)
    True
    >>> theorem_holds("cycle-quarter-turn", "rot90", 6, 6, True)  # 6 = 4k + 2
    False
    """
    if m * n < 2:
        return False
    odd_m, odd_n = m % 2, n % 2
    fixed = {"flip_ranks": odd_m * n, "flip_files": odd_n * m}.get(element, n)
    rules = {
        ("path-quarter-turn", False): element in ("rot90", "rot270") and m == n,
        ("path-half-turn", False): element == "rot180" and not odd_m and not odd_n,
        ("path-mirror", False): element in REFLECTIONS and fixed != 1,
        ("cycle-quarter-turn", True): element in ("rot90", "rot270") and m == n and n % 4 != 2,
        ("cycle-mirror", True): element in REFLECTIONS
        and not (fixed == 2 or (fixed == 0 and m * n % 4 == 2)),
    }
    return rules.get((clause, closed), False)


class _SymmetricRectangle(Rectangle):
    """A rectangle whose SAT certificates may also use the clauses ``[-e, g(e)]``."""

    def __init__(self, m: int, n: int, leaper: Any, removed: Any, element: str) -> None:
        super().__init__(m, n, leaper, removed)
        self.element = element

    def allows(self, clause: Sequence[int], edges: Sequence[frozenset[Any]]) -> bool:
        if len(clause) != 2 or not clause[0] < 0 < clause[1]:
            return False
        move, target = edges[-clause[0] - 1], edges[clause[1] - 1]
        mapped = {v if v == self.hub else image(self.element, self.m, self.n, v) for v in move}
        return mapped == set(target)


def _board_of(m: int, n: int, leaper: Any, removed: Any, element: str) -> Any:
    return lambda: _SymmetricRectangle(m, n, leaper, removed, element)


def _check_cases(
    cert: Mapping[str, Any], kind: str, board: tuple[int, int, list[int], list[str]], closed: bool
) -> str:
    m, n, leaper, removed = board
    gone = {parse_square(x) for x in removed}
    require(cert.get("symmetric") == kind, f"it is about {cert.get('symmetric')!r}, not {kind}")
    needed = _elements(kind, m, n, gone)
    knight = sorted(leaper) == [1, 2] and not gone
    said = []
    for case in cert["cases"]:
        element = case["symmetry"]
        require(element in needed, f"{element!r} is not a symmetry the request names")
        if "clause" in case:
            clause = case["clause"]
            holds = knight and theorem_holds(clause, element, m, n, closed)
            require(holds, f"theorem {clause!r} does not rule out {element} on {m}x{n}")
            said.append(f"{element} by theorem {clause}")
            continue
        refutation = case["certificate"]
        require(refutation.get("kind") == "sat-refutation", f"{element}: not a SAT refutation")
        require(refutation.get("symmetry") == element, f"{element}: its refutation is not for it")
        ok, why = check(refutation, _board_of(m, n, leaper, removed, element), closed, None, None)
        require(ok, f"{element}: {why}")
        said.append(f"{element} by SAT ({why.removeprefix('sat-refutation: ')})")
    covered = {case["symmetry"] for case in cert["cases"]}
    missing = [x for x in needed if x not in covered]
    require(not missing, f"no case for {', '.join(missing)}")
    return "; ".join(said) if said else "the board has none of these symmetries"


def check_symmetric_answer(answer: Mapping[str, Any]) -> tuple[bool, str]:
    """The verdict on an answer that claims a symmetric tour or that none exists;
    :class:`~knightgraph.certcheck.Malformed` for one that cannot be read.

    Examples
    --------
    >>> check_symmetric_answer({"rows": 6, "cols": 8, "symmetric": "spin", "squares": []})
    Traceback (most recent call last):
    ...
    knightgraph.certcheck.adjacency.Malformed: invalid 'symmetric': 'spin'
    """
    kind = answer.get("symmetric")
    if kind not in KINDS:
        raise Malformed(f"invalid 'symmetric': {kind!r}")
    m, n = answer.get("rows"), answer.get("cols")
    for key, value in (("rows", m), ("cols", n)):
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
            raise Malformed(f"invalid {key!r}: {value!r}")
    assert isinstance(m, int) and isinstance(n, int)
    closed = bool(answer.get("closed"))
    leaper = list(answer.get("leaper", [1, 2]))
    removed = list(answer.get("removed", []))
    cert = answer.get("certificate")
    squares = answer.get("squares")
    if squares is None and isinstance(cert, Mapping) and cert.get("kind") == "tour":
        squares = cert.get("squares")
    says = answer.get(
        "exists", {"found": True, "proven_absent": False}.get(str(answer.get("status")))
    )
    try:
        if squares is not None:
            if says is False:
                return False, "the answer says there is no tour, but carries one"
            tour = [parse_square(s) if isinstance(s, str) else tuple(s) for s in squares]
            ok, why = check_certificate(
                {"kind": "tour", "squares": tour}, m, n, closed=closed, leaper=leaper,
                removed=removed, start=answer.get("start"),
            )  # fmt: skip
            if not ok:
                return False, why
            element = tour_is_symmetric(tour, m, n, closed, kind)
            return True, f"{why}, fixed by {element}"
        if not isinstance(cert, Mapping):
            if says is False:
                return False, "the answer says there is no tour, but carries no certificate"
            return True, "nothing to check: the answer carries no tour and no certificate"
        if says is True:
            return False, "the answer says a tour exists, but carries a proof of absence"
        if cert.get("kind") != "symmetric":  # no tour at all: no symmetric one either
            return check_certificate(
                cert, m, n, closed=closed, leaper=leaper, removed=removed
            )  # fmt: skip
        return True, "symmetric: " + _check_cases(cert, kind, (m, n, leaper, removed), closed)
    except Rejected as why:
        return False, str(why)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise Malformed(f"a symmetric answer: {err!r}") from None
