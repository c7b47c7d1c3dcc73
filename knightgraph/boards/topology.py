"""Boards with topology: cylinders and tori (moves wrap around), and m x n x k boards.

Each is a :class:`~knightgraph.boards.graphboard.GraphBoard`, so every exact strategy, the
counter, the independent checker and the drawing of graphs work on it unchanged.

* ``wrap="cols"``: the files wrap around (file ``a`` follows the last file): a cylinder;
  ``wrap="rows"``: the ranks wrap around; ``wrap="both"``: a torus.  A move is taken
  modulo the sizes of the wrapped directions.  Squares are ``(r, c)`` named as on a
  board (``a1`` is ``(0, 0)``).
* ``levels=k``: ``k`` boards stacked; a square is ``(r, c, l)``, named ``a1:1`` (square
  ``a1`` of level 1).  The leaper ``(a, b)`` moves by ``a`` and ``b`` along two of the
  three directions (the 3-D knight moves 1 and 2), a leaper ``(a, b, c)`` by all three.

Two moves that reach the same square (on a torus of width 4, two files left is two
files right) are one edge: tours are Hamiltonian paths and cycles of the graph.

Examples
--------
>>> torus = topology_board(4, 4, wrap="both")
>>> torus.kind, torus.num_squares, len(torus.edges()), torus.name((0, 0))  # it is Q4
('torus 4x4', 16, 32, 'a1')
>>> cube = topology_board(2, 3, levels=2)
>>> cube.kind, cube.names[:3]
('board 2x3x2', ('a1:1', 'a1:2', 'b1:1'))
"""

from __future__ import annotations

import itertools
from typing import Any

from ..exceptions import InvalidBoardError, InvalidOptionError
from .board import KNIGHT
from .graphboard import GraphBoard
from .squares import square_name

__all__ = ["MAX_SQUARES", "WRAPS", "leaper_offsets", "topology_board"]

WRAPS = ("rows", "cols", "both")
"""The wrap options: ranks wrap, files wrap, both (a torus)."""

_WRAP_WORDS = {"rows": "ranks", "cols": "files", "both": "ranks and files"}

MAX_SQUARES = 250_000
"""Most squares of a topology board (graph boards are Python objects: about 1 KB a square)."""


def leaper_offsets(leaper: tuple[int, ...], dims: int) -> list[tuple[int, ...]]:
    """The moves of a leaper in ``dims`` (2 or 3) directions, as offset tuples, sorted.

    Examples
    --------
    >>> len(leaper_offsets((1, 2), 2)), len(leaper_offsets((1, 2), 3))  # the 3-D knight: 24
    (8, 24)
    >>> leaper_offsets((1, 1, 1), 3)[:2]
    [(-1, -1, -1), (-1, -1, 1)]
    """
    steps = tuple(int(x) for x in leaper)
    if len(steps) > dims or len(steps) < 2 or any(x < 0 for x in steps) or not any(steps):
        raise InvalidBoardError(f"invalid leaper {leaper!r} for {dims} dimensions")
    padded = steps + (0,) * (dims - len(steps))
    out = set()
    for perm in itertools.permutations(padded):
        for signs in itertools.product((1, -1), repeat=dims):
            out.add(tuple(s * x for s, x in zip(signs, perm, strict=True)))
    return sorted(out)


def _size(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidBoardError(f"invalid {what} {value!r}: expected a positive whole number")
    return value


def topology_board(
    m: int,
    n: int | None = None,
    *,
    wrap: str | None = None,
    levels: int | None = None,
    leaper: tuple[int, ...] = KNIGHT,
) -> GraphBoard:
    """A cylinder, a torus or an ``m x n x k`` board as a :class:`~knightgraph.boards.graphboard.GraphBoard`.

    Parameters
    ----------
    m, n : int
        Ranks and files (``n`` defaults to ``m``).
    wrap : {None, "rows", "cols", "both"}
        Which directions wrap around.
    levels : int, optional
        Stack this many boards (a 3-D board; ``None`` is a flat board).
    leaper : tuple
        The piece: ``(1, 2)`` the knight; on a 3-D board a 3-tuple moves along all
        three directions.

    Examples
    --------
    >>> topology_board(3, 4, wrap="cols").kind
    'cylinder 3x4 (files wrap)'
    >>> topology_board(2, 2, levels=2, wrap="both").kind  # a 3-D board names its wrap too
    'board 2x2x2 (ranks and files wrap)'
    >>> topology_board(3, 3, wrap="sideways")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid wrap 'sideways': choose rows, cols or both
    """
    m = _size(m, "number of ranks")
    n = _size(m if n is None else n, "number of files")
    if wrap is not None and wrap not in WRAPS:
        raise InvalidOptionError(f"invalid wrap {wrap!r}: choose rows, cols or both")
    k = 1 if levels is None else _size(levels, "number of levels")
    if m * n * k > MAX_SQUARES:
        raise InvalidBoardError(
            f"invalid board {m}x{n}x{k}: {m * n * k:,} squares, a topology board takes "
            f"at most {MAX_SQUARES:,}"
        )
    flat = levels is None
    offsets = leaper_offsets(tuple(leaper), 2 if flat else 3)
    rows_wrap = wrap in ("rows", "both")
    cols_wrap = wrap in ("cols", "both")
    if flat:
        nodes: list[Any] = [(r, c) for r in range(m) for c in range(n)]
        names = [square_name(r, c) for r, c in nodes]
        pos = {v: (float(v[1]), float(v[0])) for v in nodes}
    else:
        nodes = [(r, c, lv) for r in range(m) for c in range(n) for lv in range(k)]
        names = [f"{square_name(r, c)}:{lv + 1}" for r, c, lv in nodes]
        pos = {v: (float(v[1] + v[2] * (n + 1)), float(v[0])) for v in nodes}
    edges: set[tuple[Any, Any]] = set()
    for v in nodes:
        for step in offsets:
            r, c = v[0] + step[0], v[1] + step[1]
            r = r % m if rows_wrap else r
            c = c % n if cols_wrap else c
            if not (0 <= r < m and 0 <= c < n):
                continue
            w: tuple[int, ...] = (r, c)
            if not flat:
                lv = v[2] + step[2]
                if not 0 <= lv < k:
                    continue
                w = (r, c, lv)
            if w != v:
                edges.add((min(v, w), max(v, w)))
    if not flat:
        kind = f"board {m}x{n}x{k}"
        if wrap is not None:  # the wrap is named, as on a flat board
            kind += f" ({_WRAP_WORDS[wrap]} wrap)"
    elif wrap == "both":
        kind = f"torus {m}x{n}"
    elif wrap is not None:
        kind = f"cylinder {m}x{n} ({_WRAP_WORDS[wrap]} wrap)"
    else:
        kind = f"board {m}x{n}"
    if tuple(leaper) != KNIGHT:
        kind += f" with leaper {tuple(leaper)}"
    shape = (m, n) if flat else (m, n, k)
    return GraphBoard(
        nodes,
        edges,  # GraphBoard sorts each vertex's neighbours (one sort of them all: seconds)
        names=names,
        kind=kind,
        pos=pos,
        shape=shape,
        wrap=wrap,
        leaper=tuple(leaper),
    )
