"""The existence theorems, as predicates that name the clause which decides.

* :func:`closed_tour_exists` — Schwenk (1991): an ``m x n`` board, ``m <= n``, has
  no closed knight's tour exactly when (1) ``m`` and ``n`` are both odd, or
  (2) ``m`` is 1, 2 or 4, or (3) ``m = 3`` and ``n`` is 4, 6 or 8.
* :func:`open_tour_exists` — Cull and De Curtins (1978), Conrad, Hindrichs,
  Morsy and Wegener (1994): every board has an open tour except ``1 x n``
  (``n > 1``), ``2 x n``, ``3 x 3``, ``3 x 5``, ``3 x 6`` and ``4 x 4``.
* :func:`color_obstruction` — the necessary colour conditions.  A knight's
  move changes colour, so a tour alternates colours: a closed tour needs as
  many squares of each colour; an open tour needs the counts to differ by at
  most one, its ends on different colours when they are equal, and both ends
  on the larger class (the corner colour of a full board) when they are not.

Each predicate returns a :class:`Verdict`, truthy when a tour exists, whose
``certificate`` carries the deciding clause.  The theorems *explain*; the
searches and certificates in :mod:`knightgraph.proofs.certificates` and the solvers *prove*.

Convention for ``1 x 1``: the single square is an open tour (of length one);
there is no closed tour, since the last square is not a knight's move from the
first — as clause (1) of Schwenk's theorem says.

Examples
--------
>>> from knightgraph import closed_tour_exists, open_tour_exists
>>> bool(closed_tour_exists(8, 8)), bool(closed_tour_exists(3, 8))
(True, False)
>>> closed_tour_exists(3, 8).reason
'Schwenk (1991): no closed tour when the shorter side is 3 and the longer is 4, 6 or 8 (3x8)'
>>> [(m, n) for m in range(1, 7) for n in range(m, 7) if open_tour_exists(m, n)]
[(1, 1), (3, 4), (4, 5), (4, 6), (5, 5), (5, 6), (6, 6)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..boards.board import Board, Square, SquareLike
from ..tours.results import Certificate
from ..tours.verify import check_closed

__all__ = [
    "Verdict",
    "closed_tour_exists",
    "color_obstruction",
    "open_tour_exists",
    "requested_ends",
]


@dataclass(frozen=True)
class Verdict:
    """A yes/no answer with the certificate (clause) that decides it; truthy on yes.

    Examples
    --------
    >>> v = closed_tour_exists(4, 5)
    >>> bool(v), v.reason
    (False, 'Schwenk (1991): no closed tour when the shorter side is 1, 2 or 4 (4x5)')
    >>> v.certificate.data
    {'theorem': 'schwenk-1991', 'clause': 'short-side-1-2-4'}
    >>> "open tour" if open_tour_exists(4, 5) else "none"
    'open tour'
    """

    exists: bool
    certificate: Certificate

    def __bool__(self) -> bool:
        return self.exists

    @property
    def reason(self) -> str:
        """The deciding clause in words."""
        return self.certificate.reason


def _theorem(exists: bool, theorem: str, clause: str, reason: str) -> Verdict:
    return Verdict(exists, Certificate("theorem", reason, {"theorem": theorem, "clause": clause}))


def closed_tour_exists(m: int, n: int) -> Verdict:
    """Schwenk's theorem (1991): does the ``m x n`` board have a closed knight's tour?

    Examples
    --------
    >>> closed_tour_exists(7, 7).reason
    'Schwenk (1991): no closed tour when both sides are odd (7x7)'
    >>> closed_tour_exists(4, 12).certificate.data
    {'theorem': 'schwenk-1991', 'clause': 'short-side-1-2-4'}
    >>> bool(closed_tour_exists(3, 10)), bool(closed_tour_exists(5, 6))
    (True, True)
    """
    board = Board(m, n)  # validates the sizes
    lo, hi = sorted(board.shape)
    size = f"{m}x{n}"
    if lo % 2 and hi % 2:
        return _theorem(
            False,
            "schwenk-1991",
            "both-odd",
            f"Schwenk (1991): no closed tour when both sides are odd ({size})",
        )
    if lo in (1, 2, 4):
        return _theorem(
            False,
            "schwenk-1991",
            "short-side-1-2-4",
            f"Schwenk (1991): no closed tour when the shorter side is 1, 2 or 4 ({size})",
        )
    if lo == 3 and hi in (4, 6, 8):
        return _theorem(
            False,
            "schwenk-1991",
            "3x4-3x6-3x8",
            "Schwenk (1991): no closed tour when the shorter side is 3 and the longer "
            f"is 4, 6 or 8 ({size})",
        )
    return _theorem(
        True,
        "schwenk-1991",
        "otherwise",
        f"Schwenk (1991): every other board has a closed tour ({size})",
    )


def open_tour_exists(m: int, n: int) -> Verdict:
    """Does the ``m x n`` board have an open knight's tour (a Hamiltonian path)?

    Cull and De Curtins (1978) settled ``min(m, n) >= 5``; Conrad et al.
    (1994) the rest.

    Examples
    --------
    >>> open_tour_exists(4, 4).reason
    'Conrad et al. (1994): 3x3, 3x5, 3x6 and 4x4 have no open tour (4x4)'
    >>> open_tour_exists(2, 5).reason
    'a 2 x n board has no open tour: a knight on two ranks keeps the parity of its file (2x5)'
    >>> open_tour_exists(3, 4).reason
    'Conrad et al. (1994): every other board has an open tour (3x4)'
    """
    board = Board(m, n)
    lo, hi = sorted(board.shape)
    size = f"{m}x{n}"
    if lo == hi == 1:
        return _theorem(True, "trivial", "1x1", "the 1x1 board is its own open tour of one square")
    if lo == 1:
        return _theorem(
            False,
            "trivial",
            "one-rank",
            f"a 1 x n board with n > 1 has no knight moves at all ({size})",
        )
    if lo == 2:
        return _theorem(
            False,
            "trivial",
            "two-ranks",
            "a 2 x n board has no open tour: a knight on two ranks keeps the parity "
            f"of its file ({size})",
        )
    if (lo, hi) in ((3, 3), (3, 5), (3, 6), (4, 4)):
        return _theorem(
            False,
            "conrad-1994",
            "3x3-3x5-3x6-4x4",
            f"Conrad et al. (1994): 3x3, 3x5, 3x6 and 4x4 have no open tour ({size})",
        )
    return _theorem(
        True,
        "conrad-1994",
        "otherwise",
        f"Conrad et al. (1994): every other board has an open tour ({size})",
    )


def requested_ends(
    board: Board, start: SquareLike | None, end: SquareLike | None
) -> tuple[Square | None, Square | None]:
    """The requested ends as ``(r, c)`` squares, checked on ``board`` (on it, not removed).

    Every maker of a certificate reads its ends through this, so that a square
    off the board is refused whichever argument decides first.

    Examples
    --------
    >>> requested_ends(Board(8, 8), "a1", None)
    ((0, 0), None)
    >>> requested_ends(Board(8, 8), None, "z9")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidSquareError: invalid square z9: off the 8x8 board ...
    """
    return (
        None if start is None else board.parse_square(start),
        None if end is None else board.parse_square(end),
    )


def color_obstruction(
    board: Board,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
) -> Certificate | None:
    """The colour count that rules a tour out, or None when the colours allow one.

    Only leapers whose moves change colour (``a + b`` odd: knight, zebra,
    giraffe) are covered; for the others this returns None.

    Returns
    -------
    Certificate or None
        Kind ``"colour-count"`` with ``data`` holding the colour counts
        ``counts = [colour 0, colour 1]`` and the colours of the given ends,
        enough to re-check the arithmetic.

    Examples
    --------
    >>> color_obstruction(Board(7, 7), closed=True).reason
    'a closed tour alternates colours, so it needs as many squares of each colour; 7x7 has 25 of colour 0 and 24 of colour 1'
    >>> color_obstruction(Board(5, 5), start="b1").reason
    'an open tour of 25 squares alternates colours and both its ends lie on the larger colour class, colour 0 (that of a1); b1 has colour 1'
    >>> color_obstruction(Board(8, 8), start="a1", end="h8").reason
    'an open tour of 64 squares alternates colours, so its ends differ in colour; a1 and h8 both have colour 0'
    >>> color_obstruction(Board(8, 8), start="a1", end="h1") is None
    True
    """
    start, end = requested_ends(board, start, end)
    closed = check_closed(closed)
    if not board.alternates_color:
        return None
    zeros, ones = board.color_counts()
    counts = f"{board.m}x{board.n} has {zeros:,} of colour 0 and {ones:,} of colour 1"

    def certificate(clause: str, reason: str, **extra: object) -> Certificate:
        return Certificate(
            "colour-count", reason, {"clause": clause, "counts": [zeros, ones], **extra}
        )

    if closed and zeros != ones:
        return certificate(
            "closed-needs-balance",
            f"a closed tour alternates colours, so it needs as many squares of each colour; {counts}",
        )
    if abs(zeros - ones) > 1:
        return certificate(
            "open-needs-near-balance",
            f"a tour alternates colours, so the two colour classes differ by at most one; {counts}",
        )
    given = [(board.name(sq), board.color(sq)) for sq in (start, end) if sq is not None]
    colours = [c for _, c in given]
    if zeros == ones:
        if len(given) == 2 and colours[0] == colours[1]:
            kind = "a closed" if closed else "an open"
            return certificate(
                "ends-differ",
                f"{kind} tour of {zeros + ones:,} squares alternates colours, so its ends differ "
                f"in colour; {given[0][0]} and {given[1][0]} both have colour {colours[0]}",
                end_colours=colours,
            )
        return None
    larger = 0 if zeros > ones else 1
    for name, colour in given:
        if colour != larger:
            return certificate(
                "ends-on-larger-class",
                f"an open tour of {zeros + ones:,} squares alternates colours and both its ends lie "
                f"on the larger colour class, colour {larger} (that of {'a1' if larger == 0 else 'b1'}); "
                f"{name} has colour {colour}",
                end_colours=colours,
            )
    return None


def colour_obstruction(board: Board, **request: Any) -> Certificate | None:
    """Deprecated spelling of :func:`color_obstruction` (kept for one release).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     colour_obstruction(Board(7, 7), closed=True).kind, caught[0].category.__name__
    ('colour-count', 'DeprecationWarning')
    """
    import warnings

    warnings.warn(
        "colour_obstruction is deprecated: use color_obstruction", DeprecationWarning, stacklevel=2
    )
    return color_obstruction(board, **request)
