"""Symmetric closed tours of large square boards in linear time: :func:`symmetric_codes`.

A *pinwheel*: an ``n x n`` board is a central ``k x k`` core and four ``w x (w + k)``
rectangles around it (``w = (n - k) / 2``), each the quarter turn of the one before.
The core holds a stored tour fixed by the symmetry asked for (a 6 x 6 tour fixed by the
quarter turn when ``n = 4j + 2``, an 8 x 8 one fixed by the half turn when ``n = 4j``);
the first rectangle holds a closed tour of ``divide``'s blocks (:func:`grid_board`) and
the others its turned copies, so the five cycles together are fixed by the symmetry.
They are joined into one cycle by *exchanges*: a move ``c-d`` of the core and a move
``a-b`` of a rectangle with ``a`` a knight's move from ``c`` and ``b`` from ``d`` are
replaced by ``c-a`` and ``d-b``, which merges the two cycles.  Each exchange is made
together with its images under the symmetry, so the result stays symmetric: the
quarter turn's four images join the four rectangles; for the half turn, the first and
second rectangle are joined by exchanges found separately, each with its half-turn image.

Everything is neighbour codes on numpy arrays (:mod:`knightgraph.solvers.codes`): a
turn of a piece is ``np.rot90`` with its move nibbles renamed, an exchange rewrites four
bytes, and one compiled walk reads the order out.

Examples
--------
>>> from knightgraph.solvers.codes import follow_unchecked
>>> codes = symmetric_codes(18, "rot90")
>>> order = follow_unchecked(codes, 0, cycle=True)
>>> len(order)
324
>>> symmetric_codes(16, "rot90") is None  # 16 = 4k: no such tour (and no construction)
True
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InternalError
from .codes import DIRECTIONS, NONE, REMOVED, Codes, codes_from_order
from .joins import grid_board

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["CORES", "SMALLEST", "symmetric_codes"]

CORES: dict[str, tuple[int, tuple[int, ...]]] = {
    # a 6 x 6 closed tour fixed by the quarter turn (found by symsat, re-verified on use)
    "rot90": (
        6,
        (
            0,
            13,
            24,
            20,
            12,
            25,
            33,
            29,
            16,
            5,
            9,
            1,
            14,
            3,
            7,
            18,
            31,
            27,
            35,
            22,
            11,
            15,
            23,
            10,
            2,
            6,
            19,
            30,
            26,
            34,
            21,
            32,
            28,
            17,
            4,
            8,
        ),
    ),
    # an 8 x 8 closed tour fixed by the half turn (found by symsat, re-verified on use)
    "rot180": (
        8,
        (
            0,
            17,
            32,
            49,
            59,
            42,
            48,
            58,
            41,
            56,
            50,
            60,
            43,
            28,
            11,
            1,
            18,
            8,
            25,
            19,
            2,
            12,
            6,
            23,
            29,
            39,
            54,
            37,
            47,
            30,
            36,
            53,
            63,
            46,
            31,
            14,
            4,
            21,
            15,
            5,
            22,
            7,
            13,
            3,
            20,
            35,
            52,
            62,
            45,
            55,
            38,
            44,
            61,
            51,
            57,
            40,
            34,
            24,
            9,
            26,
            16,
            33,
            27,
            10,
        ),
    ),
}
"""The stored cores: their side and a closed tour (flat indices) fixed by the symmetry."""

SMALLEST = 18
"""The smallest board the pinwheel serves (the rectangles need sides of 6 or more); smaller
boards are solved by SAT (:mod:`knightgraph.solvers.symsat`)."""

_TURN = np.array(
    [DIRECTIONS.index((dc, -dr)) for dr, dc in DIRECTIONS] + [NONE] * 8, dtype=np.uint8
)
"""A move's name after a quarter turn, ``(r, c) -> (c, n-1-r)``: ``(dr, dc) -> (dc, -dr)``."""


def symmetric_codes(n: int, kind: str) -> Codes | None:
    """Neighbour codes of a closed tour of ``n x n`` fixed by ``kind`` (``"rot180"`` or
    ``"rot90"``), or None where the pinwheel does not apply (``n`` below :data:`SMALLEST`,
    odd, or ``n = 4j`` for the quarter turn).

    Notes
    -----
    ``k`` is 6 for ``n = 4j + 2`` and 8 for ``n = 4j``, so ``w = (n - k) / 2`` is even and
    at least 6 and every rectangle ``w x (w + k)`` has a closed tour (Schwenk).  An exchange
    of two moves of two different cycles for two moves between them always leaves one
    cycle; the exchanges touch distinct moves of the core (no move is its own image under
    a half turn of an even board), so making them one after another is sound, and making
    each with its images keeps the move set symmetric.  The result is checked as a tour
    (and for its symmetry) by the caller.  O(n^2) time, one byte per square.

    Examples
    --------
    >>> codes = symmetric_codes(20, "rot180")
    >>> turned = np.where(codes == REMOVED, REMOVED, _rename(codes[::-1, ::-1], 2))
    >>> bool((turned == codes).all())  # the half turn maps the tour onto itself
    True
    """
    if n < SMALLEST or n % 2 or (kind == "rot90" and n % 4 != 2) or kind not in CORES:
        return None
    k = 6 if n % 4 == 2 else 8
    core_kind = "rot90" if k == 6 else "rot180"
    w = (n - k) // 2
    codes = np.full((n, n), REMOVED, dtype=np.uint8)
    codes[w : w + k, w : w + k] = _core(core_kind)
    piece = np.full((n, n), REMOVED, dtype=np.uint8)
    piece[:w, : w + k] = grid_board(w, w + k)
    turns = [piece]
    for _ in range(3):
        turns.append(_turned(turns[-1]))
    for t in turns:
        codes = np.where(t == REMOVED, codes, t)
    core = [int(x) for x in _core_order(core_kind, n, w)]
    used: set[frozenset[int]] = set()
    first = _find_join(codes, core, turns[0] != REMOVED, used)
    steps = (1, 2, 3) if kind == "rot90" else (2,)
    _join_with_images(codes, first, steps, used)
    if kind == "rot180":
        second = _find_join(codes, core, turns[1] != REMOVED, used)
        _join_with_images(codes, second, (2,), used)
    return codes


@functools.cache
def _core(kind: str) -> Codes:
    k, order = CORES[kind]
    return codes_from_order(k, k, list(order), True)  # checks every move


def _core_order(kind: str, n: int, w: int) -> NDArray[np.int64]:
    """The core's tour as flat indices of the ``n x n`` board."""
    k, order = CORES[kind]
    r, c = np.divmod(np.array(order, dtype=np.int64), k)
    out: NDArray[np.int64] = (r + w) * n + (c + w)
    return out


def _rename(codes: NDArray[Any], quarter_turns: int) -> NDArray[np.uint8]:
    """Codes whose move nibbles are renamed for ``quarter_turns`` quarter turns."""
    out = codes.astype(np.uint8)
    for _ in range(quarter_turns):
        out = _TURN[out & 15] | (_TURN[out >> 4] << 4)
    return out.astype(np.uint8)


def _turned(codes: Codes) -> Codes:
    """The codes of the same cycles turned a quarter, ``(r, c) -> (c, n-1-r)``."""
    moved = np.ascontiguousarray(np.rot90(codes, -1))
    return np.where(moved == REMOVED, REMOVED, _rename(moved, 1)).astype(np.uint8)


def _neighbours(codes: Codes, square: int) -> list[int]:
    n = codes.shape[1]
    byte = int(codes.reshape(-1)[square])
    out = []
    for nibble in (byte & 15, byte >> 4):
        dr, dc = DIRECTIONS[nibble]
        out.append(square + dr * n + dc)
    return out


def _find_join(
    codes: Codes, core: list[int], region: NDArray[np.bool_], used: set[frozenset[int]]
) -> tuple[int, int, int, int]:
    """An exchange ``(c, d, a, b)``: ``c-d`` a move of the core's cycle not in ``used``,
    ``a-b`` a move of the piece in ``region``, ``a`` a knight's move from ``c`` and ``b``
    from ``d``."""
    n = codes.shape[1]
    inside = region.reshape(-1)
    for i, c in enumerate(core):
        for d in (core[i - 1], core[(i + 1) % len(core)]):
            if frozenset((c, d)) in used:
                continue
            cr, cc = divmod(c, n)
            for dr, dc in DIRECTIONS:
                ar, ac = cr + dr, cc + dc
                if not (0 <= ar < n and 0 <= ac < n) or not inside[ar * n + ac]:
                    continue
                a = ar * n + ac
                for b in _neighbours(codes, a):
                    br, bc = divmod(b, n)
                    if {abs(br - d // n), abs(bc - d % n)} == {1, 2}:
                        return c, d, a, b
    raise InternalError(f"internal error: no exchange joins a piece to the core of {n}x{n}")


def _image(square: int, n: int, quarter_turns: int) -> int:
    r, c = divmod(square, n)
    for _ in range(quarter_turns):
        r, c = c, n - 1 - r
    return r * n + c


def _join_with_images(
    codes: Codes, join: tuple[int, int, int, int], steps: tuple[int, ...], used: set[frozenset[int]]
) -> None:
    """Make the exchange and its images under the given numbers of quarter turns."""
    n = codes.shape[1]
    for t in (0, *steps):
        c, d, a, b = (_image(x, n, t) for x in join)
        used.add(frozenset((c, d)))
        _exchange(codes, c, d, a, b)


def _exchange(codes: Codes, c: int, d: int, a: int, b: int) -> None:
    """Replace the moves ``c-d`` and ``a-b`` by ``c-a`` and ``d-b``."""
    flat = codes.reshape(-1)
    n = codes.shape[1]
    for here, old, new in ((c, d, a), (d, c, b), (a, b, c), (b, a, d)):
        byte = int(flat[here])
        dold = DIRECTIONS.index((old // n - here // n, old % n - here % n))
        dnew = DIRECTIONS.index((new // n - here // n, new % n - here % n))
        if byte & 15 == dold:
            flat[here] = (byte & 0xF0) | dnew
        else:
            flat[here] = (byte & 0x0F) | (dnew << 4)
