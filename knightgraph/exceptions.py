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
from typing import Any

__all__ = [
    "BoardTooLargeError",
    "ImmutableError",
    "InternalError",
    "InvalidBoardError",
    "InvalidOptionError",
    "InvalidPuzzleError",
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
    """Root of every error knightgraph raises on purpose.

    Examples
    --------
    >>> import knightgraph as kg
    >>> try:
    ...     kg.find_tour(8, 8, start="z9")
    ... except kg.KnightGraphError as err:
    ...     print(type(err).__name__, "-", err)
    InvalidSquareError - invalid square z9: off the 8x8 board (files a..h, ranks 1..8)
    >>> issubclass(kg.NoTourError, kg.KnightGraphError), issubclass(KeyError, kg.KnightGraphError)
    (True, False)
    """


class InvalidBoardError(KnightGraphError, ValueError):
    """A board size, leaper or set of removed squares is not valid.

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.Board(8, 8, leaper=(0, 0))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidBoardError: invalid leaper (0, 0): expected two whole numbers (a, b) >= 0, not both 0
    """


class BoardTooLargeError(InvalidBoardError):
    """The board is valid but the work asked for cannot fit in this machine's memory.

    Raised before anything is allocated.  It is an :class:`InvalidBoardError`:
    the board, not the machine, is what the caller can change.

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.find_tour(10**6, 10**6)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.BoardTooLargeError: a tour of 1000000x1000000 (1,000,000,000,000 squares) with method divide needs about 5.5 TiB of memory; only ... is available
    >>> issubclass(kg.BoardTooLargeError, kg.InvalidBoardError)
    True
    """


class MissingBoardError(InvalidBoardError, TypeError):
    """No board was given where one is needed (squares carry no board; a Tour does).

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.validate_tour(["a1", "c2"])
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.MissingBoardError: no board given for the tour ['a1', 'c2']: pass the board size m, n (only a Tour carries its own board)
    >>> issubclass(kg.MissingBoardError, TypeError)  # like a missing argument
    True
    """


class InvalidSquareError(KnightGraphError, ValueError):
    """A square name or coordinate is malformed, off the board, or removed.

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.Board(8, 8).index("i1")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidSquareError: invalid square i1: off the 8x8 board (files a..h, ranks 1..8)
    >>> kg.Board(8, 8, removed=["b2"]).index("b2")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidSquareError: invalid square b2: it is removed from the board
    """


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

    Examples
    --------
    >>> import knightgraph as kg
    >>> try:
    ...     kg.validate_tour(["a1", "b3", "a1"], 3, 4)
    ... except kg.InvalidTourError as err:
    ...     print(err, "|", err.defect, err.step)
    square #3 a1 is visited again (first as #1) | repeated 2
    """

    def __init__(self, message: str, *, defect: str = "malformed", step: int | None = None):
        super().__init__(message)
        self.defect = defect
        self.step = step


class InvalidOptionError(KnightGraphError, ValueError):
    """A search option (method, move order, rule, budget, ...) is not valid.

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.find_tour(8, 8, method="magic")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: unknown method 'magic': choose from auto, backtrack, ...
    >>> kg.find_tour(8, 8, timeout=-1)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid timeout -1: expected seconds >= 0
    """


class TourFormatError(KnightGraphError, ValueError):
    """A tour file or text cannot be read at all (corrupt JSON, unknown tokens, ...).

    Text that reads as squares but is no tour raises :class:`InvalidTourError` instead.

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.Tour.from_json('{"rows": 3}')
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: not a knightgraph tour object: missing or bad field 'cols'
    """


class ProofFormatError(KnightGraphError, ValueError):
    """A formula (DIMACS CNF) or a DRUP proof cannot be read: the message names the line.

    Examples
    --------
    >>> from knightgraph.certcheck.drup import parse_dimacs
    >>> parse_dimacs("p cnf 2 1\\n1 x 0\\n")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.ProofFormatError: malformed DIMACS line 2 '1 x 0': 'x' is not a literal
    """


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
    """The work did not fit in memory (an allocation failed); the message says which work.

    It is a :class:`MemoryError` too, so code that already handles running out
    of memory catches it (the compiled DRUP checker raises it when it cannot
    allocate its tables).

    Examples
    --------
    >>> import knightgraph as kg
    >>> try:
    ...     raise kg.OutOfMemoryError("out of memory while checking a proof of 10 literals")
    ... except MemoryError as err:
    ...     print(isinstance(err, kg.KnightGraphError), err)
    True out of memory while checking a proof of 10 literals
    """


class InternalError(KnightGraphError):
    """knightgraph broke one of its own contracts: a bug, never the caller's input.

    For instance a strategy returned a tour other than the one asked for, or a
    result was built without the tour or certificate its status needs.

    Examples
    --------
    A strategy that ignores the requested start is caught before its answer
    leaves the solver layer:

    >>> import knightgraph as kg
    >>> @kg.solver("example-ignores-start")
    ... def ignores_start(problem, budget, *, seed=None):
    ...     tour = kg.find_tour(problem.board, start="a1", method="backtrack").tour
    ...     return problem.found(tour.order)  # a tour from a1, whatever was asked
    >>> ignores_start(kg.Board(5, 5), start="c3")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InternalError: internal error: example-ignores-start returned Tour(Board(5, 5), open, 25 squares: a5 c4 ...) for a open tour on 5x5 from c3
    """


class InvalidResultError(InternalError, ValueError):
    """A :class:`~knightgraph.SearchResult` built without what its status needs.

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.SearchResult(kg.Status.FOUND)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidResultError: invalid SearchResult: status FOUND needs a tour, got tour=None
    """


class InvalidPuzzleError(KnightGraphError, ValueError):
    """A knight's-tour number puzzle (or its file) is malformed, or its clues contradict
    each other plainly (two numbers farther apart on the board than along the tour).

    Examples
    --------
    >>> from knightgraph.puzzles import Puzzle
    >>> Puzzle(2, 2, {"a1": 5})
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidPuzzleError: invalid puzzle: the clue 5 at a1 is out of range: the 2x2 board takes 1..4
    """


class NoTourError(KnightGraphError):
    """Raised when a tour was required but none exists (the search proved it).

    Examples
    --------
    A closed tour alternates colours, so a board with more squares of one
    colour has none:

    >>> import knightgraph as kg
    >>> kg.find_tour(5, 5, closed=True).require_tour()
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.NoTourError: no closed tour on 5x5: a closed tour alternates colours, so it needs as many squares of each colour; 5x5 has 13 of colour 0 and 12 of colour 1 (...)

    The error carries the proof: :attr:`certificate` (the checked certificate of
    absence) and :attr:`result` (the whole answer), both None when raised without them;
    for a directed graph (:func:`~knightgraph.hamiltonian_cycle`), :attr:`answer` is the
    directed answer (:class:`~knightgraph.solvers.directed.DirectedAnswer`).

    >>> try:
    ...     kg.find_tour(5, 5, closed=True).require_tour()
    ... except kg.NoTourError as err:
    ...     print(err.certificate.kind, err.result.status.name)
    colour-count PROVEN_ABSENT
    """

    def __init__(
        self, reason: str, *, certificate: Any = None, result: Any = None, answer: Any = None
    ) -> None:
        super().__init__(reason)
        self.certificate = certificate
        self.result = result
        self.answer = answer


class SearchAbortedError(KnightGraphError):
    """Raised when a tour was required but the search stopped on a budget or timeout.

    Examples
    --------
    >>> import knightgraph as kg
    >>> kg.find_tour(6, 6, method="backtrack", limit=1000).require_tour()
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.SearchAbortedError: stopped at the work limit of 1,000

    :attr:`result` is the whole answer (its ``stats`` say how far the search went), or
    None when raised without it.
    """

    def __init__(self, reason: str, *, result: Any = None) -> None:
        super().__init__(reason)
        self.result = result


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
