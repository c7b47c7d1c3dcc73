"""The stored block tours: the one reader (and writer) of ``knightgraph/data/blocks.txt``.

``divide`` (:mod:`knightgraph.solvers.divide`) builds a tour of a board with both
sides from 5 to 10, not both odd, from one stored block: the closed tour
``grid_MxN`` of ``knightgraph/data/blocks.txt`` (made by ``scripts/make_blocks.py``
with knightgraph's own SAT solver), with no joins, read from the requested start
(square a1 when there is none).  That is the tour of ``knightgraph tour 8 8``.
The library is a text file, one tour a line (its name, kind, size, whether it
is closed, a strip's height and window, then the squares in tour order), read
here with the standard library alone: :func:`stored_meta` and :func:`stored_order`
are the one reader of the library (:mod:`knightgraph.solvers.blocks` turns its
tours into neighbour codes), and :func:`library_text` the one writer.

Examples
--------
>>> from knightgraph.boards.squares import square_name
>>> order = stored_order("grid_8x8")
>>> len(order), order[0], [square_name(*divmod(i, 8)) for i in order[:3]]
(64, 0, ['a1', 'b3', 'c1'])
>>> stored_meta()["grid_8x8"]["closed"]
True
"""

from __future__ import annotations

import functools
import os
from typing import Any

from ..exceptions import InternalError

__all__ = [
    "library_text",
    "stored_meta",
    "stored_order",
]

_LIBRARY = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "blocks.txt"
)
"""The stored block tours, one a line (see the module notes and the file's own header)."""


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
