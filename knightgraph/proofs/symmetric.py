"""Symmetric tours: which symmetries a request names, and the theorems that rule some out.

A tour is *symmetric* under a symmetry ``g`` of the board when ``g`` maps its set of moves
onto itself (the same cycle, or the same path up to reversal).  ``--symmetric`` names
three kinds: ``rot180`` (the half turn; Jelliss's *binary* symmetry), ``rot90`` (the
quarter turn; *quaternary*, square boards) and ``mirror`` (some reflection of the board:
a median or, on a square, a diagonal).

The theorems (:func:`symmetric_theorem`), for the knight on a whole ``m x n`` board of two
squares or more, each a clause that :mod:`knightgraph.certcheck.symmetric` re-derives from
``m``, ``n`` and the request alone:

``path-quarter-turn``
    No open tour is fixed by a quarter turn.
``path-half-turn``
    No open tour of a board with both sides even is fixed by the half turn.
``path-mirror``
    No open tour is fixed by a reflection unless the reflection fixes exactly one square.
``cycle-quarter-turn``
    No closed tour of an ``n x n`` board is fixed by a quarter turn unless ``n = 4k + 2``.
``cycle-mirror``
    No closed tour is fixed by a reflection unless the reflection fixes no square and
    ``mn = 4k + 2`` (a median across a side of length ``4k + 2`` when the other side is
    odd), or fixes exactly two squares.

Notes
-----
Why each holds.  A symmetry ``g`` that maps a tour's moves onto themselves permutes the
tour's squares in the order of the tour, so it acts on the path or cycle as one of its own
automorphisms, and it is not the identity there (it moves some square).  A path's only
automorphisms are the identity and the reversal; a cycle of ``N`` squares has the ``N``
rotations and ``N`` reflections.

* The reversal has order 2, so ``g`` squared fixes every square: never a quarter turn
  (``path-quarter-turn``).  The reversal fixes the middle square (``N`` odd) or swaps the
  two ends of the middle move (``N`` even); so ``g`` fixes exactly one square, or none and
  some move joins a square ``a`` to ``g(a)``.  A knight's move never joins a square to its
  mirror image (the two share a file, a rank, or lie on a diagonal: differences ``(0, d)``
  or ``(d, d)``), so a reflection must fix exactly one square (``path-mirror``).  The half
  turn of an even x even board fixes no square and maps ``(r, c)`` to
  ``(m-1-r, n-1-c)``: both differences odd, never a knight's move (``path-half-turn``).
* On a cycle, ``g`` of order 4 acts as a rotation by ``N/4`` (reflections have order 2):
  each square is ``N/4`` steps from its image.  Steps alternate colours and a quarter
  turn of an even board changes every square's colour (``(r, c)`` to ``(c, n-1-r)``:
  the sum changes by ``n-1-2r``, odd), so ``N/4 = n^2/4`` is odd: ``n = 4k + 2``; an
  odd board has no closed tour (colours) (``cycle-quarter-turn``).
* A reflection acts on a cycle as the rotation by ``N/2`` (no square fixed) or as one of
  its reflections, which fix two squares, or none and swap the ends of two moves, or (N
  odd) one square and one move.  Moves joining a square to its mirror image do not exist
  (above), so either ``g`` fixes exactly two squares, or none and each square is ``N/2``
  steps from its image; a median reflection across an even side changes colours, so
  ``N/2`` is odd: ``mn = 4k + 2`` (Kraitchik's condition for tours symmetric about a
  median, 4k + 2 cells); a diagonal one fixes the ``n`` squares of its diagonal
  (``cycle-mirror``).

Each check is O(1) arithmetic.  Sources: Jelliss, *Symmetry in Knight's Tours* and
*Knight's Tour Notes* (mayhematics.com: "in open tours any symmetry is necessarily
binary"; birotary symmetry "is possible in knight's tours on square boards of side
4n + 2"); Kraitchik, *Mathematical Recreations* (1942), p. 258 (median symmetry needs
4k + 2 cells); OEIS A328340 (symmetric open 4 x n tours need n odd).

Examples
--------
>>> from knightgraph import Board
>>> symmetric_theorem(Board(8, 8), "rot90", closed=True)[0]
'cycle-quarter-turn'
>>> symmetric_theorem(Board(6, 6), "rot90", closed=True) is None  # 6 = 4k + 2: no rule
True
>>> symmetric_theorem(Board(3, 10), "flip_files", closed=True) is None  # 30 = 4k + 2
True
>>> symmetric_theorem(Board(6, 6), "rot180", closed=False)[0]
'path-half-turn'
"""

from __future__ import annotations

from typing import Any

from ..boards.board import Board
from ..exceptions import InvalidOptionError, describe_value

__all__ = [
    "KINDS",
    "REFLECTIONS",
    "fixed_squares",
    "symmetric_theorem",
    "symmetry_elements",
    "theorem_cases",
]

KINDS = ("rot180", "rot90", "mirror")
"""What ``--symmetric`` names: the half turn, the quarter turn, some reflection."""

REFLECTIONS = ("flip_ranks", "flip_files", "transpose", "antitranspose")
"""The reflections among :meth:`Board.symmetries`'s names (the diagonals on squares only)."""


def symmetry_elements(board: Board, kind: object) -> list[str]:
    """The board's symmetries a kind asks for, by the names of :meth:`Board.symmetries`.

    Raises
    ------
    InvalidOptionError
        For a kind other than :data:`KINDS`, or one the board does not have (a quarter
        turn of a board that is not square; removed squares the symmetry moves).

    Examples
    --------
    >>> symmetry_elements(Board(6, 6), "mirror")
    ['flip_ranks', 'flip_files', 'transpose', 'antitranspose']
    >>> symmetry_elements(Board(6, 8), "rot90")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid symmetric 'rot90': the 6x8 board is not square
    """
    if not isinstance(kind, str) or kind not in KINDS:
        raise InvalidOptionError(
            f"invalid symmetric {describe_value(kind)}: expected rot180, rot90 or mirror"
        )
    if kind == "rot90" and board.m != board.n:
        raise InvalidOptionError(
            f"invalid symmetric 'rot90': the {board.m}x{board.n} board is not square"
        )
    have = board.symmetries()
    wanted = [x for x in REFLECTIONS if x in have] if kind == "mirror" else [kind]
    if not wanted or any(x not in have for x in wanted):
        raise InvalidOptionError(
            f"invalid symmetric {kind!r}: the removed squares are not symmetric under it"
        )
    return wanted


def fixed_squares(m: int, n: int, element: str) -> int:
    """How many squares of the whole ``m x n`` board the symmetry ``element`` fixes.

    Examples
    --------
    >>> fixed_squares(5, 6, "flip_ranks"), fixed_squares(5, 6, "flip_files")
    (6, 0)
    >>> fixed_squares(7, 7, "rot90"), fixed_squares(8, 8, "transpose")
    (1, 8)
    """
    odd_m, odd_n = m % 2, n % 2
    return {
        "identity": m * n,
        "rot180": odd_m * odd_n,
        "rot90": odd_m * odd_n,
        "rot270": odd_m * odd_n,
        "flip_ranks": odd_m * n,
        "flip_files": odd_n * m,
        "transpose": n,
        "antitranspose": n,
    }[element]


def symmetric_theorem(board: Board, element: str, closed: bool) -> tuple[str, str] | None:
    """The clause and reason of a theorem that rules out tours fixed by ``element``, or
    None where none applies (see the module notes for why each is sound).

    Only the knight on a whole board of two squares or more: other leapers, removed
    squares and one square are left to SAT.  O(1).

    Examples
    --------
    >>> symmetric_theorem(Board(5, 5), "transpose", closed=False)[1]
    'a reflection that fixes an open tour reverses it, so it fixes exactly one square; transpose fixes 5 of 5x5'
    >>> symmetric_theorem(Board(5, 5), "rot180", closed=False) is None
    True
    """
    m, n = board.m, board.n
    if board.leaper not in ((1, 2), (2, 1)) or board.removed or m * n < 2:
        return None
    fixed = fixed_squares(m, n, element)
    if not closed:
        if element in ("rot90", "rot270"):
            return (
                "path-quarter-turn",
                "a symmetry of an open tour reverses it (order 2); a quarter turn has order 4",
            )
        if element == "rot180" and m % 2 == 0 and n % 2 == 0:
            return (
                "path-half-turn",
                f"the half turn of {m}x{n} fixes no square and no move joins a square to its "
                "image, but it must fix the middle square or move of a tour it reverses",
            )
        if element in REFLECTIONS and fixed != 1:
            return (
                "path-mirror",
                "a reflection that fixes an open tour reverses it, so it fixes exactly one "
                f"square; {element} fixes {fixed} of {m}x{n}",
            )
        return None
    if element in ("rot90", "rot270") and n % 4 != 2:
        return (
            "cycle-quarter-turn",
            f"a quarter turn shifts a closed tour by {m}*{n}/4 steps, which must be odd: "
            f"only n = 4k + 2 allows it, not {n}",
        )
    if element in REFLECTIONS and not (fixed == 2 or (fixed == 0 and m * n % 4 == 2)):
        return (
            "cycle-mirror",
            f"{element} fixes {fixed} squares of {m}x{n}; a closed tour it fixes needs exactly "
            "two, or none and mn = 4k + 2",
        )
    return None


def theorem_cases(board: Board, elements: list[str], closed: bool) -> list[dict[str, Any]]:
    """The certificate cases (``symmetry``, ``clause``, ``reason``) of the elements a
    theorem rules out, in order; the others are left out.

    Examples
    --------
    >>> [c["clause"] for c in theorem_cases(Board(6, 6), ["flip_ranks", "transpose"], True)]
    ['cycle-mirror', 'cycle-mirror']
    """
    cases = []
    for element in elements:
        rule = symmetric_theorem(board, element, closed)
        if rule is not None:
            cases.append({"symmetry": element, "clause": rule[0], "reason": rule[1]})
    return cases
