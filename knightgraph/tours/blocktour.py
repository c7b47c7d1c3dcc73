"""Tours of one stored block, read without numpy: the small boards' quick route.

``divide`` (:mod:`knightgraph.solvers.divide`) builds a tour of a board with both
sides from 5 to 10, not both odd, from one stored block: the closed tour
``grid_MxN`` of ``knightgraph/data/blocks.txt`` (made by ``scripts/make_blocks.py``
with knightgraph's own SAT solver), with no joins, read from the requested start
(square a1 when there is none).  That is the tour of ``knightgraph tour 8 8``.
The library is a text file, one tour a line (its name, kind, size, whether it
is closed, a strip's height and window, then the squares in tour order), read
here with the standard library alone: :func:`stored_meta` and :func:`stored_order`
are the one reader of the library, which :mod:`knightgraph.solvers.blocks` uses
too, so that the command line answers such a request without importing numpy
(numpy's import alone costs about four bare Python starts) and every command
that needs a block reads one short file.  The answer is the one ``divide`` gives:
``tests/test_cli_quick.py`` compares the two on every such board, start and kind.

Examples
--------
>>> from knightgraph.boards.squares import square_name
>>> order = block_tour_order(8, 8, closed=True)
>>> len(order), order[0], [square_name(*divmod(i, 8)) for i in order[:3]]
(64, 0, ['a1', 'b3', 'c1'])
>>> block_tour_order(8, 8, closed=False, start=(3, 3))[0]  # read from d4
27
>>> block_tour_order(7, 7, closed=True) is None  # both sides odd: not one stored block
True
"""

from __future__ import annotations

import functools
import itertools
import os
from typing import Any

from ..boards.squares import KNIGHT, Square
from ..exceptions import InternalError

__all__ = [
    "BLOCK_SIDES",
    "block_tour_order",
    "check_order_plain",
    "library_text",
    "stored_meta",
    "stored_order",
]

BLOCK_SIDES = range(5, 11)
"""Board sides ``divide`` fills with one stored block (when not both are odd)."""

_LIBRARY = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "blocks.txt"
)
"""The stored block tours, one a line (see the module notes and the file's own header)."""


def block_tour_order(
    m: int, n: int, *, closed: bool, start: Square | None = None
) -> list[int] | None:
    """The tour ``divide`` builds on an ``m x n`` knight board that is one stored block.

    Parameters
    ----------
    m, n : int
        The board; both sides in :data:`BLOCK_SIDES` and not both odd, else None.
    closed : bool
        A closed tour, or an open one (the closed tour without its closing move,
        as ``divide`` answers on a board that has a closed tour).
    start : (r, c), optional
        The first square (default a1), on the board.

    Returns
    -------
    list of int or None
        Flat indices ``r * n + c``, checked by :func:`check_order_plain`; None
        when the board is not one stored block.

    Notes
    -----
    The stored tour is a cycle; ``divide`` holds it as neighbour codes and reads
    it from the start by leaving each square by its successor in the stored order
    (:func:`knightgraph.solvers.codes.follow_codes` with ``first=0``), which is the
    stored order rotated to begin at the start.  O(mn) time.

    Examples
    --------
    >>> order = block_tour_order(5, 6, closed=True, start=(2, 2))
    >>> len(order), divmod(order[0], 6)
    (30, (2, 2))
    """
    if m not in BLOCK_SIDES or n not in BLOCK_SIDES or (m % 2 and n % 2):
        return None
    if start is not None and not (0 <= start[0] < m and 0 <= start[1] < n):
        return None
    cycle = stored_order(f"grid_{m}x{n}")
    first = 0 if start is None else start[0] * n + start[1]
    at = cycle.index(first)
    order = cycle[at:] + cycle[:at]
    check_order_plain(order, m, n, closed)
    return order


def check_order_plain(order: list[int], m: int, n: int, closed: bool) -> None:
    """Check that ``order`` is a knight's tour of the whole ``m x n`` board, in plain Python.

    Raises
    ------
    InternalError
        Naming the first defect: the stored data are knightgraph's own, so a
        defect is a bug (or a damaged installation), never bad input.

    Notes
    -----
    Every square once (a set of the indices), every step a knight's move (the
    differences of rank and file are 1 and 2 in some order), and for a closed
    tour the last square a move from the first.  O(mn) time.

    Examples
    --------
    >>> check_order_plain([0, 7, 2], 1, 3, False)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InternalError: internal error: a stored block tour of 1x3 is not a tour (square #2 is off the board)
    """

    def defect(what: str) -> InternalError:
        return InternalError(
            f"internal error: a stored block tour of {m}x{n} is not a tour ({what})"
        )

    area = m * n
    for k, i in enumerate(order):
        if not 0 <= i < area:
            raise defect(f"square #{k + 1} is off the board")
    if len(order) != area or len(set(order)) != area:
        raise defect("it does not visit every square once")
    steps = list(itertools.pairwise(order))
    if closed:
        steps.append((order[-1], order[0]))
    moves = {KNIGHT, KNIGHT[::-1]}
    for k, (u, v) in enumerate(steps):
        (r, c), (s, t) = divmod(u, n), divmod(v, n)
        if (abs(r - s), abs(c - t)) not in moves:
            raise defect(f"step {k + 1} is not a knight's move")


@functools.cache
def stored_order(name: str) -> list[int]:
    """The order of the stored tour ``name`` of the block library, as a list.

    Examples
    --------
    >>> stored_order("grid_5x6")[:4]
    [0, 13, 24, 20]
    """
    try:
        text = _library()[name][1]
    except KeyError:
        raise InternalError(f"internal error: no stored block {name!r}") from None
    return [int(word) for word in text.split()]


@functools.cache
def stored_meta() -> dict[str, dict[str, Any]]:
    """The metadata of the stored block tours, by name (sizes, kind, strips' windows).

    Examples
    --------
    >>> stored_meta()["grid_8x8"]
    {'closed': True, 'cols': 8, 'kind': 'grid', 'rows': 8}
    >>> stored_meta()["strip3_corner_23"]["window"]
    [8, 4]
    """
    return {name: info for name, (info, _) in _library().items()}


_HEADER = """\
# knightgraph's stored block tours, made by scripts/make_blocks.py (do not edit).
# One tour a line: name kind rows cols closed|open strip window : the squares in
# tour order as flat indices r * cols + c.  strip: the strip height or -;
# window: x+period, the repeatable window of a strip, or -.
"""


def library_text(entries: dict[str, tuple[dict[str, Any], list[int]]]) -> str:
    """The text of a block library (what :func:`stored_meta` and :func:`stored_order`
    read back): ``entries`` maps each name to its metadata and its order.

    Examples
    --------
    >>> print(library_text({"grid_5x6": (stored_meta()["grid_5x6"], [0, 13, 24])}), end="")
    # knightgraph's stored block tours, ...
    grid_5x6 grid 5 6 closed - - : 0 13 24
    """
    lines = [_HEADER]
    for name in sorted(entries):
        info, order = entries[name]
        strip = str(info["strip"]) if "strip" in info else "-"
        window = "+".join(str(x) for x in info["window"]) if "window" in info else "-"
        closed = "closed" if info["closed"] else "open"
        squares = " ".join(str(int(i)) for i in order)
        head = f"{name} {info['kind']} {info['rows']} {info['cols']} {closed} {strip} {window}"
        lines.append(f"{head} : {squares}\n")
    return "".join(lines)


@functools.cache
def _library() -> dict[str, tuple[dict[str, Any], str]]:
    """The library by name: each tour's metadata and the text of its squares (parsed
    by :func:`stored_order` when asked for)."""
    out: dict[str, tuple[dict[str, Any], str]] = {}
    with open(_LIBRARY, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            head, _, order = line.partition(" : ")
            words = head.split()
            if len(words) != 7 or words[4] not in ("closed", "open") or not order:
                raise InternalError(f"internal error: {_LIBRARY} line {number} is damaged")
            name, kind, rows, cols, closed, strip, window = words
            info: dict[str, Any] = {
                "closed": closed == "closed",
                "cols": int(cols),
                "kind": kind,
                "rows": int(rows),
            }
            if strip != "-":
                info["strip"] = int(strip)
            if window != "-":
                info["window"] = [int(x) for x in window.split("+")]
            out[name] = (info, order)
    return out
