"""The verifier's compiled fast path: one C pass over a long order (``_verify.c``).

:func:`compiled_pass` answers "every step of this order is a leap to a new square on
the board" in one pass of the compiled ``kg_check``; when it says anything else (or
the library is not built, or ``KNIGHTGRAPH_KERNELS=python``), :mod:`knightgraph.tours.verify`
runs its numpy finders, which locate and name the defect.  The fast path can only
save time: a ``False`` never rejects a tour.

Examples
--------
>>> from knightgraph import Board
>>> order = np.arange(5000)  # a row-by-row walk: not a tour
>>> compiled_pass(order, Board(50, 100))
False
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ..running.native import load_library, python_only

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ..boards.board import Board

__all__ = ["compiled_pass"]


def compiled_pass(order: NDArray[Any], board: Board) -> bool:
    """True when the compiled one-pass check accepts every step of ``order``.

    A fast path only: when it finds a defect (or is not built), the numpy
    finders of :mod:`knightgraph.tours.verify` locate and name it.  Orders shorter than
    4,096 squares are left to them too (numpy is as quick there).

    Examples
    --------
    >>> from knightgraph import Board
    >>> compiled_pass(np.arange(16), Board(4, 4))  # too short: the numpy finders decide
    False
    """
    check = _compiled_check()
    if check is None or order.dtype not in (np.int32, np.int64) or len(order) < 4096:
        return False
    if len(order) != board.num_squares:
        return False  # not a tour, and its board-sized scratch array could be huge
    seq = np.ascontiguousarray(order)
    removed = None
    if board.removed:
        removed = (~board.available()).astype(np.uint8)
    wide = seq.dtype == np.int64
    seen = np.zeros(board.area, dtype=np.uint8)
    mask = None if removed is None else removed.ctypes.data
    a, b = board.leaper
    first_bad = check(
        None if wide else seq.ctypes.data,
        seq.ctypes.data if wide else None,
        len(seq),
        board.m,
        board.n,
        a,
        b,
        mask,
        seen,
    )
    return bool(first_bad < 0)


def _compiled_check() -> Any:
    """``kg_check`` of the extension ``knightgraph._verify`` (``_verify.c``), or None when it
    was not built or ``KNIGHTGRAPH_KERNELS=python`` switches it off."""
    return None if python_only() else _load_check()


@functools.cache
def _load_check() -> Any:
    import ctypes

    library = load_library("_verify")
    if library is None or not hasattr(library, "kg_check"):
        return None
    check = library.kg_check
    check.restype = ctypes.c_int64
    check.argtypes = [
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_void_p,
        np.ctypeslib.ndpointer(dtype=np.uint8, flags="C_CONTIGUOUS"),
    ]
    return check
