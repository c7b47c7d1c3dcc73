"""Which boards can carry a magic tour: the line sums, and the arguments that rule one out.

A tour of the ``m x n`` board numbers its squares ``1 .. N`` (``N = m * n``) in the order
it visits them.  It is *semi-magic* when every rank sums to ``n (N + 1) / 2`` and every
file to ``m (N + 1) / 2`` (the total ``N (N + 1) / 2`` shared equally), and *magic*
(``kind="full"``) when, on a square board, both long diagonals sum to ``n (N + 1) / 2``
too.  Two more kinds ask for one direction only: ``"files"`` (every file; on a ``4 x n``
board the short lines, the tours counted by OEIS A328816) and ``"ranks"``.

Two arguments settle most boards before any search (:func:`magic_obstruction`):

``magic-sums``
    the sum a line must have is not a whole number: with ``N`` even and ``m`` odd,
    ``m (N + 1) / 2`` is not (``N + 1`` is odd), so no numbering has equal file sums;
    likewise ranks with ``n`` odd.
``magic-parity``
    both sides odd, ``N > 1``: a knight's move changes the colour of its square, so a
    tour numbers the squares of its first colour with the odd numbers, and with ``N``
    odd it starts and ends on the majority colour (``(N + 1) / 2`` squares, those of
    ``a1``).  Ranks 1 and 2 (files a and b when there is one rank) hold ``(n + 1) / 2``
    and ``(n - 1) / 2`` of those squares: their sums differ in parity, so cannot be
    equal.

``magic-halves``
    (semi-magic and magic tours; both sides 2 more than a multiple of 4, such as 6 x 6 and
    6 x 10, where Jelliss (2003) showed there is none).  Let ``x_k`` be +1 when the square
    of ``k`` is on an even rank, -1 otherwise, and ``y_k`` the same for files.  The even
    ranks are half of the ranks, so with equal rank sums they hold half of the total:
    ``sum k x_k = 0``, and ``sum x_k = 0`` (half of the squares); likewise
    ``sum k y_k = sum y_k = 0``.  A knight's move changes the parity of exactly one of
    rank and file, so ``x_k y_k`` alternates in sign: ``y_k = e (-1)^k x_k`` with ``e``
    fixed.  The four sums then give ``sum over even k of k x_k = 0``: the halves
    ``j = k / 2`` of the even numbers, ``1 .. N / 2``, split into two sets of equal sum.
    With ``N = m n`` and ``m / 2``, ``n / 2`` odd, ``N / 2 = 2 (m / 2)(n / 2)`` and
    ``1 + 2 + ... + N / 2 = (m / 2)(n / 2)(N / 2 + 1)`` is odd: no such split.

Examples
--------
>>> magic_obstruction(6, 6, "semi").kind  # Jelliss: none on (4h + 2) x (4k + 2)
'magic-halves'
>>> magic_sums(8, 8)
{'ranks': 260, 'files': 260, 'diagonals': 260}
>>> magic_obstruction(5, 5, "semi").kind, magic_obstruction(4, 5, "semi").kind
('magic-parity', 'magic-sums')
>>> magic_obstruction(8, 8, "full") is None  # no argument: a search must decide
True
>>> magic_defect([0, 1], 1, 2, "files")
'file a sums to 1, not 3/2'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..exceptions import InvalidOptionError
from ..tours.results import Certificate

__all__ = [
    "KINDS",
    "check_kind",
    "line_target",
    "magic_defect",
    "magic_lines",
    "magic_obstruction",
    "magic_sums",
]

KINDS = ("semi", "full", "files", "ranks")
"""The magic kinds: ranks and files; and both diagonals; the files only; the ranks only."""


def check_kind(kind: Any, m: int, n: int) -> str:
    """``kind`` checked against the board (else InvalidOptionError naming the bad value).

    Examples
    --------
    >>> check_kind("full", 6, 8)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid magic kind 'full' for the 6x8 board: the diagonals need a square board
    """
    if kind not in KINDS:
        raise InvalidOptionError(f"invalid magic kind {kind!r}: expected one of {', '.join(KINDS)}")
    if kind == "full" and m != n:
        raise InvalidOptionError(
            f"invalid magic kind 'full' for the {m}x{n} board: the diagonals need a square board"
        )
    return str(kind)


def magic_sums(m: int, n: int) -> dict[str, Fraction | int]:
    """The sum of each rank, file and long diagonal (a Fraction when it is not whole).

    Examples
    --------
    >>> magic_sums(4, 8)
    {'ranks': 132, 'files': 66}
    >>> magic_sums(3, 4)["files"]
    Fraction(39, 2)
    """
    size = m * n
    out: dict[str, Fraction | int] = {}
    for key, length in (("ranks", n), ("files", m)):
        value = Fraction(length * (size + 1), 2)
        out[key] = int(value) if value.denominator == 1 else value
    if m == n:
        out["diagonals"] = out["ranks"]
    return out


def magic_lines(m: int, n: int, kind: str) -> list[tuple[str, list[int]]]:
    """The lines whose sums the kind fixes, each as (name, flat squares ``r * n + c``):
    ranks bottom up (a file to h), files left to right (rank 1 up), then the diagonal from
    a1 and the diagonal from the last file's rank 1.

    Examples
    --------
    >>> magic_lines(2, 2, "full")
    [('rank 1', [0, 1]), ('rank 2', [2, 3]), ('file a', [0, 2]), ('file b', [1, 3]), ('diagonal a1', [0, 3]), ('diagonal b1', [1, 2])]
    """
    from ..boards.squares import file_name

    lines: list[tuple[str, list[int]]] = []
    if kind in ("semi", "full", "ranks"):
        lines += [(f"rank {r + 1}", [r * n + c for c in range(n)]) for r in range(m)]
    if kind in ("semi", "full", "files"):
        lines += [(f"file {file_name(c)}", [r * n + c for r in range(m)]) for c in range(n)]
    if kind == "full":
        lines.append(("diagonal a1", [i * n + i for i in range(n)]))
        lines.append((f"diagonal {file_name(n - 1)}1", [i * n + n - 1 - i for i in range(n)]))
    return lines


def line_target(m: int, n: int, name: str) -> Fraction | int:
    """The sum the line ``name`` (of :func:`magic_lines`) must have.

    Examples
    --------
    >>> line_target(4, 8, "file a"), line_target(4, 8, "rank 1")
    (66, 132)
    """
    sums = magic_sums(m, n)
    return sums["ranks" if name.startswith(("rank", "diagonal")) else "files"]


def magic_defect(order: Sequence[int], m: int, n: int, kind: str) -> str | None:
    """The first line of the numbering ``order`` (number ``k`` on flat square ``order[k-1]``)
    whose sum is wrong, in words; None when every line of the kind has its sum.

    Examples
    --------
    >>> magic_defect([0, 3, 1, 2], 2, 2, "semi")
    'rank 1 sums to 4, not 5'
    """
    number = {int(s): k for k, s in enumerate(order, 1)}
    for name, squares in magic_lines(m, n, kind):
        total = sum(number[s] for s in squares)
        want = line_target(m, n, name)
        if total != want:
            return f"{name} sums to {total}, not {want}"
    return None


def _halves(m: int, n: int) -> Certificate:
    """``magic-halves`` (see the module's text) for an ``m x n`` board with ``m`` and ``n``
    both 2 more than a multiple of 4."""
    half = m * n // 2
    total = half * (half + 1) // 2
    return Certificate(
        "magic-halves",
        f"both sides are 2 more than a multiple of 4: the even ranks and the even files would "
        f"each hold half of every number's total, and a knight's move changes the parity of "
        f"exactly one of rank and file, so the even numbers 2j on even ranks would split "
        f"1 .. {half} into two halves of equal sum; their total {total} is odd",
        {"half": half, "total": total},
    )


def magic_obstruction(m: int, n: int, kind: str) -> Certificate | None:
    """The argument (see the module's text) that no tour of the kind exists, or None.

    Parameters
    ----------
    m, n : int
        Ranks and files.
    kind : str
        One of :data:`KINDS`.

    Returns
    -------
    Certificate or None
        ``magic-sums`` (a line sum is not whole) or ``magic-parity`` (odd sides), with the
        lines and figures the independent checker (:mod:`knightgraph.certcheck.magic`)
        re-derives; None when neither applies (a search must decide).

    Notes
    -----
    O(1).  Sound: an equal share of a whole-number total is whole, and a knight's tour
    alternates colours (see the module's text); both need only the tour to be a
    numbering along knight's moves, so they hold for open and closed tours alike.

    Examples
    --------
    >>> magic_obstruction(3, 3, "files").reason
    'both sides are odd: a tour puts the odd numbers on the 5 squares of the colour of a1, 2 in file a and 1 in file b, so their sums differ in parity'
    >>> magic_obstruction(1, 1, "full") is None  # the one-square tour is magic
    True
    """
    size = m * n
    sums = magic_sums(m, n)
    wanted = {"semi": ("ranks", "files"), "full": ("ranks", "files"), "files": ("files",)}
    for key in wanted.get(kind, ("ranks",)):
        value = sums[key]
        if isinstance(value, Fraction):
            lines = n if key == "files" else m
            return Certificate(
                "magic-sums",
                f"the {lines} {key} must share the total {size * (size + 1) // 2} equally, "
                f"{value} each, not a whole number",
                {"lines": key, "total": size * (size + 1) // 2, "count": lines},
            )
    if kind in ("semi", "full") and m % 4 == 2 and n % 4 == 2:
        return _halves(m, n)
    if size % 2 == 0 or size == 1:
        return None
    if kind != "files" and m >= 3:
        length = n
        names = ["rank 1", "rank 2"]
    elif kind != "ranks" and n >= 3:
        from ..boards.squares import file_name

        length = m
        names = [f"file {file_name(0)}", f"file {file_name(1)}"]
    else:  # one line of the kind: its sum is the total
        return None
    counts = [(length + 1) // 2, (length - 1) // 2]
    return Certificate(
        "magic-parity",
        f"both sides are odd: a tour puts the odd numbers on the {(size + 1) // 2} squares of "
        f"the colour of a1, {counts[0]} in {names[0]} and {counts[1]} in {names[1]}, so their sums "
        "differ in parity",
        {"lines": [names[0], names[1]], "odd_numbers": counts},
    )
