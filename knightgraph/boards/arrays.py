"""The array layer of a board: its move table, its mask of squares and its symmetries.

:class:`~knightgraph.Board` stores only its size, leaper and removed squares; the
tables it hands out on request are built here with numpy, in time and memory linear
in the board (one vectorised pass per move).  :class:`~knightgraph.Board`'s methods
check the request and the memory first, then call these functions.

Examples
--------
>>> move_table(3, 4, ((1, 2), (2, 1)), frozenset(), -1, False)[0].tolist()
[6, 9]
>>> sorted(symmetries(3, 3, frozenset({4})))[:3]
['antitranspose', 'flip_files', 'flip_ranks']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["available", "index_dtype", "move_table", "symmetries"]


def index_dtype(area: int) -> type[np.signedinteger[Any]]:
    """``int32`` when every flat index of ``area`` squares fits, else ``int64``.

    Examples
    --------
    >>> index_dtype(64).__name__, index_dtype(2**31).__name__
    ('int32', 'int64')
    """
    return np.int32 if area < 2**31 else np.int64


def available(area: int, removed: frozenset[int]) -> NDArray[np.bool_]:
    """Boolean array over the flat indices: False at the ``removed`` ones.

    Examples
    --------
    >>> available(4, frozenset({1})).tolist()
    [True, False, True, True]
    """
    mask = np.ones(area, dtype=bool)
    if removed:
        mask[list(removed)] = False
    return mask


def move_table(
    m: int,
    n: int,
    columns: Sequence[tuple[int, int]],
    removed: frozenset[int],
    missing: int,
    sentinel: bool,
) -> NDArray[np.signedinteger[Any]]:
    """The move table of :meth:`knightgraph.Board.move_table`: ``T[i, j]`` the flat index
    reached from ``i`` by the move ``columns[j]``, ``missing`` where there is none.

    Notes
    -----
    One slice assignment per move: the squares whose image stays on the board form a
    rectangle, copied from the grid of indices shifted by the move.  Removed squares
    are then cut both ways (their rows, and every entry that leads to them).
    ``O(m n k)`` time and memory for ``k`` moves.

    Examples
    --------
    >>> move_table(2, 3, ((1, 2),), frozenset({5}), -1, True).ravel().tolist()
    [-1, -1, -1, -1, -1, -1, -1]
    """
    area, k = m * n, len(columns)
    dtype = index_dtype(area)
    grid = np.arange(area, dtype=dtype).reshape(m, n)
    table = np.full((area + int(sentinel), k), missing, dtype=dtype)
    cells = table[:area].reshape(m, n, k)
    for j, (dr, dc) in enumerate(columns):
        src_r = slice(max(0, -dr), min(m, m - dr))
        src_c = slice(max(0, -dc), min(n, n - dc))
        dst_r = slice(max(0, dr), min(m, m + dr))
        dst_c = slice(max(0, dc), min(n, n + dc))
        if src_r.start < src_r.stop and src_c.start < src_c.stop:
            cells[src_r, src_c, j] = grid[dst_r, dst_c]
    if removed:
        gone = np.fromiter(removed, dtype=np.int64)
        table[gone] = missing
        table[np.isin(table, gone)] = missing
    return table


def symmetries(m: int, n: int, removed: frozenset[int]) -> dict[str, NDArray[np.int64]]:
    """The symmetries of :meth:`knightgraph.Board.symmetries` as index permutations:
    those of the rectangle (or square) that map the ``removed`` indices onto themselves.

    Examples
    --------
    >>> symmetries(1, 2, frozenset())["flip_files"].tolist()
    [1, 0]
    """
    r, c = np.divmod(np.arange(m * n, dtype=np.int64), n)
    images: dict[str, tuple[NDArray[np.int64], NDArray[np.int64], int]] = {
        "identity": (r, c, n),
        "rot180": (m - 1 - r, n - 1 - c, n),
        "flip_ranks": (m - 1 - r, c, n),
        "flip_files": (r, n - 1 - c, n),
    }
    if m == n:
        images |= {
            "transpose": (c, r, m),
            "antitranspose": (n - 1 - c, m - 1 - r, m),
            "rot90": (c, n - 1 - r, m),
            "rot270": (n - 1 - c, r, m),
        }
    out = {}
    for name, (rr, cc, width) in images.items():
        perm = rr * width + cc
        if all(int(perm[i]) in removed for i in removed):
            out[name] = perm
    return out
