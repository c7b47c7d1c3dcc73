"""The one exception tree of knightgraph.

Every error knightgraph raises on purpose derives from :class:`KnightGraphError`,
so ``except KnightGraphError`` catches all of them.  Errors about values the
caller passed in (a board size, a square, a file) are also :class:`ValueError`.
Each message names the offending value; the command line prints it as one line.

Examples
--------
>>> import knightgraph as kg
>>> try:
...     kg.Board(0, 8)
... except kg.InvalidBoardError as err:
...     print(err)
invalid board size 0: the number of ranks must be a whole number >= 1
>>> issubclass(kg.InvalidSquareError, ValueError)
True
"""

from __future__ import annotations

import reprlib

__all__ = [
    "BoardTooLargeError",
    "ImmutableError",
    "InternalError",
    "InvalidBoardError",
    "InvalidOptionError",
    "InvalidResultError",
    "InvalidSquareError",
    "InvalidTourError",
    "KnightGraphError",
    "MissingBoardError",
    "NoTourError",
    "OutOfMemoryError",
    "ProofFormatError",
    "SearchAbortedError",
    "TourFormatError",
    "describe_value",
]


class KnightGraphError(Exception):
    """Root of every error knightgraph raises on purpose."""


class InvalidBoardError(KnightGraphError, ValueError):
    """A board size, leaper or set of removed squares is not valid."""


class BoardTooLargeError(InvalidBoardError):
    """The board is valid but the work asked for cannot fit in this machine's memory."""


class MissingBoardError(InvalidBoardError, TypeError):
    """No board was given where one is needed (squares carry no board; a Tour does)."""


class InvalidSquareError(KnightGraphError, ValueError):
    """A square name or coordinate is malformed, off the board, or removed."""


class InvalidTourError(KnightGraphError, ValueError):
    """A sequence of squares is not a knight's tour.

    Parameters
    ----------
    message : str
        One line naming the first defect.
    defect : str
        A short machine-readable tag: ``"off-board"``, ``"removed"``,
        ``"repeated"``, ``"bad-move"``, ``"length"``, ``"not-closed"``,
        ``"wrong-start"``, ``"wrong-end"`` or ``"malformed"``.
    step : int or None
        The 0-based position in the sequence where the defect shows, if any.
    """

    def __init__(self, message: str, *, defect: str = "malformed", step: int | None = None):
        super().__init__(message)
        self.defect = defect
        self.step = step


class InvalidOptionError(KnightGraphError, ValueError):
    """A search option (method, move order, rule, budget, ...) is not valid."""


class TourFormatError(KnightGraphError, ValueError):
    """A tour file or text cannot be read at all (corrupt JSON, unknown tokens, ...)."""


class ProofFormatError(KnightGraphError, ValueError):
    """A formula (DIMACS CNF) or a DRUP proof cannot be read: the message names the line."""


class ImmutableError(KnightGraphError, AttributeError):
    """An attempt to change an immutable object, such as a verified :class:`~knightgraph.Tour`.

    Examples
    --------
    >>> import knightgraph as kg
    >>> t = kg.Tour(kg.Board(1, 1), [0])
    >>> try:
    ...     t.closed = True
    ... except kg.KnightGraphError as err:
    ...     print(err)
    cannot set Tour.closed: a Tour is immutable (it was verified when it was built)
    """


class OutOfMemoryError(KnightGraphError, MemoryError):
    """The work did not fit in memory (an allocation failed); the message says which work."""


class InternalError(KnightGraphError):
    """knightgraph broke one of its own contracts: a bug, never the caller's input.

    For instance a strategy returned a tour other than the one asked for, or a
    result was built without the tour or certificate its status needs.
    """


class InvalidResultError(InternalError, ValueError):
    """A :class:`~knightgraph.SearchResult` built without what its status needs."""


class NoTourError(KnightGraphError):
    """Raised when a tour was required but none exists (the search proved it)."""


class SearchAbortedError(KnightGraphError):
    """Raised when a tour was required but the search stopped on a budget or timeout."""


def describe_value(value: object) -> str:
    """A short one-line description of any value, for error messages.

    Arrays are described by dtype and shape, anything else by a shortened repr.

    Examples
    --------
    >>> import numpy as np
    >>> describe_value(np.zeros((3, 3)))
    'a float64 array of shape (3, 3)'
    >>> describe_value(list(range(100)))
    '[0, 1, 2, 3, 4, 5, ...]'
    """
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    if dtype is not None and isinstance(shape, tuple):  # an array (numpy is not imported here)
        article = "an" if str(dtype)[0] in "aeio" else "a"
        return f"{article} {dtype} array of shape {shape}"
    return " ".join(reprlib.repr(value).split())
