"""The verified tour, :class:`Tour`: one class for every board kind, rectangles and graphs.

A :class:`Tour` is verified when it is built, so holding one means holding a
valid tour (what a :class:`~knightgraph.SearchResult` that is ``FOUND`` carries).

Examples
--------
>>> from knightgraph import Board, Tour
>>> t = Tour.from_squares(["a1", "c2", "a3", "b1", "c3", "a2", "c1", "b3"],
...                       Board(3, 3, removed=["b2"]), closed=True)
>>> t
Tour(Board(3, 3, removed=('b2',)), closed, a1 c2 a3 b1 c3 a2 c1 b3)
>>> print(t.numbered())
[[1 4 7]
 [6 0 2]
 [3 8 5]]
>>> t.rerooted("b1").algebraic()[:3]
['b1', 'c3', 'a2']
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from typing import TYPE_CHECKING, Any

import numpy as np

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.graphboard import GraphBoard
from ..exceptions import (
    ImmutableError,
    InvalidBoardError,
    InvalidOptionError,
    InvalidSquareError,
    InvalidTourError,
    TourFormatError,
    describe_value,
)
from .presenters import presenter as _presenter
from .verify import TourBase, check_closed, check_form, check_order, to_flat

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray
    from typing_extensions import TypeIs

__all__ = ["Tour"]


class Tour(TourBase):
    """A verified tour of any board: the visiting order as flat indices, open or closed.

    On a :class:`~knightgraph.boards.graphboard.GraphBoard` (torus, cylinder, 3-D board, any graph)
    it is a Hamiltonian path or cycle; methods that need a rectangle say so in one line.

    A tour is immutable: its attributes cannot be set or deleted
    (:class:`~knightgraph.exceptions.ImmutableError`) and :attr:`order` is a read-only
    array whose write flag cannot be turned back on, so a tour stays the tour
    that was verified.  Transforms (:meth:`rerooted`, :meth:`reversed`,
    :meth:`transformed`) return new tours.  Tours pickle (they travel to
    worker processes); unpickling verifies the tour again.

    Parameters
    ----------
    board : Board or GraphBoard
    order : array_like of int
        Flat indices ``r * n + c`` (vertex indices on a graph board) in visiting order.
    closed : bool, default False
        Whether the last square is a leap from the first.

    Raises
    ------
    InvalidTourError
        If ``order`` is not a tour of ``board`` (the message names the first defect).
    InvalidBoardError, InvalidOptionError
        If ``board`` is not a :class:`Board` or ``closed`` is not a bool.

    Notes
    -----
    ``order`` is stored read-only as ``int32`` when the board has fewer than
    2^31 cells (else ``int64``): 4 bytes a square.  Building a tour checks it
    in O(N) with :func:`~knightgraph.validate_tour`'s engine.  A writeable
    array passed in is copied; a read-only one of the right dtype is used as
    it is when the array owning its memory is read-only too (no copy: the
    solvers hand over arrays of 10^8 squares this way), so whoever passes one
    must not make that array writeable again.

    Examples
    --------
    >>> t = Tour(Board(1, 1), [0])
    >>> t.squares(), t.closed, len(t)
    ([(0, 0)], False, 1)
    >>> Tour(Board(2, 3), [0, 5, 6])
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidTourError: square #3 (index 6) is off the 2x3 board
    >>> t.order[0] = 0
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
    >>> t.order = []
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.ImmutableError: cannot set Tour.order: a Tour is immutable (it was verified when it was built)
    """

    __slots__ = ("board", "closed", "order")

    board: Any  # Board | GraphBoard: Any spares rectangle-only callers a narrowing each
    """The board the tour covers (a :class:`Board` or a :class:`~knightgraph.boards.graphboard.GraphBoard`)."""
    order: NDArray[np.signedinteger[Any]]
    """The visiting order as flat indices ``r * n + c`` (read-only)."""
    closed: bool
    """Whether the last square is a leap from the first."""

    def __init__(self, board: Board | GraphBoard, order: ArrayLike, closed: bool = False) -> None:
        if hasattr(self, "order"):
            raise ImmutableError("cannot initialise a Tour again: a Tour is immutable")
        if not isinstance(board, Board | GraphBoard):
            raise InvalidBoardError(f"invalid board {describe_value(board)}: expected a Board")
        closed = check_closed(closed)
        if _on_rectangle(board):
            flat = to_flat(_order_array(order), board)
            check_order(board, flat, closed)
            arr = flat.order.astype(board.index_dtype(), copy=False)
        else:  # a graph board checks a visiting order itself
            arr = board.check_order(order, closed)
        if isinstance(order, np.ndarray) and not _frozen(order) and np.may_share_memory(arr, order):
            arr = arr.copy()  # the caller could still change it
        arr.flags.writeable = False
        view = arr.view()  # its memory's owner is read-only: its write flag cannot be set again
        view.flags.writeable = False
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "order", view)
        object.__setattr__(self, "closed", closed)

    def __setattr__(self, name: str, value: Any) -> None:
        raise ImmutableError(
            f"cannot set Tour.{name}: a Tour is immutable (it was verified when it was built)"
        )

    def __delattr__(self, name: str) -> None:
        raise ImmutableError(
            f"cannot delete Tour.{name}: a Tour is immutable (it was verified when it was built)"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle, (self.board, np.asarray(self.order), self.closed))

    def __copy__(self) -> Tour:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Tour:
        return self

    @classmethod
    def from_squares(
        cls,
        squares: Sequence[Any] | NDArray[Any],
        board: Board,
        closed: bool = False,
    ) -> Tour:
        """Build a tour from ``(r, c)`` pairs or algebraic names.

        Examples
        --------
        >>> pairs = [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)]
        >>> Tour.from_squares(pairs, Board(3, 3, removed=["b2"]), closed=True).algebraic()[:3]
        ['a1', 'c2', 'a3']
        """
        if not isinstance(board, Board):
            raise InvalidBoardError(f"invalid board {describe_value(board)}: expected a Board")
        closed = check_closed(closed)
        check_form(squares)
        flat = to_flat(squares, board)
        if flat.off_name:  # the order was cut there: let the check name that square
            check_order(board, flat, closed)
        return cls(board, flat.order, closed)

    # ----------------------------------------------------------------- views
    def _rectangle(self, what: str) -> Board:
        """The board, or InvalidBoardError (one line) when ``what`` needs a rectangle."""
        if _on_rectangle(self.board):
            return self.board
        raise InvalidBoardError(f"{what} needs a rectangular board, not a {self.board.kind}")

    @property
    def m(self) -> int:
        """Number of ranks of the board."""
        return self._rectangle("Tour.m").m

    @property
    def n(self) -> int:
        """Number of files of the board."""
        return self._rectangle("Tour.n").n

    @property
    def start(self) -> Any:
        """The first square (``(r, c)``, or a graph board's vertex)."""
        return self.board.square(int(self.order[0]))

    @property
    def end(self) -> Any:
        """The last square (``(r, c)``, or a graph board's vertex)."""
        return self.board.square(int(self.order[-1]))

    def __len__(self) -> int:
        return len(self.order)

    def __iter__(self) -> Iterator[Any]:
        squares: Iterator[Any] = self.board.squares_at(self.order.tolist())
        return squares

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        return (
            self.board == other.board
            and self.closed == other.closed
            and np.array_equal(self.order, other.order)
        )

    def __hash__(self) -> int:
        return hash((self.board, self.closed, self.order.tobytes()))

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        names = (
            self.algebraic()
            if len(self) <= 12
            else [
                f"{len(self):,} squares:",
                *self.algebraic_slice(0, 5),
                "...",
                *self.algebraic_slice(len(self) - 2, len(self)),
            ]
        )
        return f"Tour({self.board!r}, {kind}, {' '.join(names)})"

    def _repr_png_(self) -> bytes | None:
        """The tour as a picture, for Jupyter and IPython (see :func:`knightgraph.draw.draw_tour`).

        Boards up to 12 x 12 show the visiting numbers too.  Beyond 10,000 squares (and on
        a graph board) this returns None, so a notebook shows the text repr instead.
        """
        if self.board.area > 10_000 or not _on_rectangle(self.board):
            return None
        png: bytes = _presenter("png")(self, numbers=self.board.area <= 144, dpi=72)
        return png

    def _repr_html_(self) -> str | None:
        """The interactive page of :func:`knightgraph.draw.page.notebook_html`, for Jupyter.

        A tour of more than 40,000 squares or of a graph board gives None (the notebook then
        shows the picture or the text repr).
        """
        if not _on_rectangle(self.board):
            return None
        html: str | None = _presenter("html")(self)
        return html

    def draw(self, **style: Any) -> Any:
        """Draw the tour with :func:`knightgraph.draw.draw_tour`; returns the matplotlib Axes.

        Examples
        --------
        >>> from knightgraph import find_tour
        >>> ax = find_tour(5, 5, start="a1", seed=0).tour.draw(numbers=True)
        >>> len(ax.texts)
        25
        """
        self._rectangle("Tour.draw (use knightgraph.draw.draw_graph_tour)")
        return _presenter("draw")(self, **style)

    def algebraic_slice(self, lo: int, hi: int) -> list[str]:
        """Algebraic names of the squares visited at positions ``lo .. hi - 1`` (vertex
        names on a graph board; see the board's ``names_at``)."""
        try:
            lo, hi = operator.index(lo), operator.index(hi)
        except TypeError:
            raise InvalidOptionError(
                f"invalid positions {describe_value(lo)}, {describe_value(hi)}: "
                "expected whole numbers"
            ) from None
        names: list[str] = self.board.names_at(self.order[lo:hi])
        return names

    def squares(self) -> list[Any]:
        """The squares as ``(r, c)`` pairs (a graph board's vertices) in visiting order."""
        return list(self)

    nodes = squares  # a graph board's name for them

    def algebraic(self) -> list[str]:
        """The squares as algebraic names (``"a1"``, ...) in visiting order."""
        return self.algebraic_slice(0, len(self))

    def numbered(self) -> NDArray[np.int64]:
        """The ``(m, n)`` grid with the visiting number 1..N of every square (0 if removed).

        Row ``r`` is rank ``r + 1``, so ``numbered()[0, 0]`` is square ``a1``.
        """
        board = self._rectangle("Tour.numbered")
        grid = np.zeros(board.area, dtype=np.int64)
        grid[self.order] = np.arange(1, len(self) + 1)
        return grid.reshape(board.m, board.n)

    # ------------------------------------------------------------ transforms
    def rerooted(self, square: SquareLike) -> Tour:
        """The same tour starting at ``square``.

        A closed tour can start anywhere (its order is rotated); an open tour
        can only be re-rooted at one of its ends (at the end it is reversed).
        """
        i = self.board.index(square)
        if self.closed:
            at = int(np.flatnonzero(self.order == i)[0])
            return Tour(self.board, np.roll(self.order, -at), closed=True)
        if i == int(self.order[0]):
            return self
        if i == int(self.order[-1]):
            return self.reversed()
        raise InvalidSquareError(
            f"cannot re-root an open tour at {self.board.name(i)}: it is not one of its ends"
        )

    def reversed(self) -> Tour:
        """The tour walked backwards (its last square becomes the first)."""
        return Tour(self.board, self.order[::-1], closed=self.closed)

    def transformed(self, symmetry: str) -> Tour:
        """The image of the tour under a board symmetry (see :meth:`Board.symmetries`).

        Examples
        --------
        >>> t = Tour.from_squares(["a1", "c2", "a3", "b1", "c3", "a2", "c1", "b3"],
        ...                       Board(3, 3, removed=["b2"]), closed=True)
        >>> t.transformed("rot90").algebraic()[:3]
        ['c1', 'b3', 'a1']
        """
        board = self._rectangle("Tour.transformed")
        if not isinstance(symmetry, str):
            raise InvalidOptionError(
                f"invalid symmetry {describe_value(symmetry)}: expected a name such as 'rot180'"
            )
        symmetries = board.symmetries()
        if symmetry not in symmetries:
            if symmetry not in SYMMETRIES:
                why = "unknown symmetry"
            elif board.m != board.n:
                why = f"{symmetry} needs a square board"
            else:
                why = f"{symmetry} does not map the removed squares onto themselves"
            raise InvalidOptionError(
                f"invalid symmetry {symmetry!r} for the {board.m}x{board.n} board {board!r}: "
                f"{why}; choose from {', '.join(sorted(symmetries))}"
            )
        return Tour(board, symmetries[symmetry][self.order], closed=self.closed)

    # ----------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``rows``, ``cols``, ``closed``, ``start``, ``end``, ``squares``.

        ``leaper`` and ``removed`` when not the defaults; a graph board's: ``closed``, ``squares``.
        """
        fields: dict[str, Any] = self.board.tour_fields(self.order, self.closed)
        return fields

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tour:
        """Inverse of :meth:`to_dict`; raises TourFormatError for a malformed dict."""
        if not isinstance(data, Mapping):
            raise TourFormatError(
                f"not a knightgraph tour object: expected a dict, not {describe_value(data)}"
            )
        try:
            board = Board(
                data["rows"],
                data["cols"],
                leaper=tuple(data.get("leaper", KNIGHT)),
                removed=data.get("removed", ()),
            )
            squares = data["squares"]
            closed = data.get("closed", False)
        except (KeyError, TypeError) as err:
            raise TourFormatError(
                f"not a knightgraph tour object: missing or bad field {err}"
            ) from None
        if not isinstance(squares, list) or not isinstance(closed, bool):
            raise TourFormatError(
                "not a knightgraph tour object: 'squares' must be a list, 'closed' a bool"
            )
        return cls.from_squares(squares, board, closed=closed)

    def to_json(self) -> str:
        """The :meth:`to_dict` form as a JSON string.

        Examples
        --------
        >>> t = Tour(Board(1, 1), [0])
        >>> t.to_json()
        '{"rows": 1, "cols": 1, "closed": false, "start": "a1", "end": "a1", "squares": [[0, 0]]}'
        >>> Tour.from_json(t.to_json()) == t
        True
        """
        import json

        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> Tour:
        """Inverse of :meth:`to_json`."""
        import json

        if not isinstance(text, str | bytes | bytearray):
            raise TourFormatError(f"not JSON text: {describe_value(text)}")
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise TourFormatError(f"not valid JSON: {err}") from None
        if not isinstance(data, dict):
            raise TourFormatError("not a knightgraph tour object: expected a JSON object")
        return cls.from_dict(data)

    def save_npy(self, path: str) -> None:
        """Write the order (flat indices) as a ``.npy`` file, atomically."""
        self._rectangle("Tour.save_npy")
        _presenter("write_npy")(self.order, path)

    @classmethod
    def load_npy(cls, path: str, board: Board, closed: bool = False) -> Tour:
        """Read a tour written by :meth:`save_npy` for ``board``."""
        return cls(board, _presenter("read_npy")(path), closed=closed)


SYMMETRIES = (
    "identity",
    "rot90",
    "rot180",
    "rot270",
    "flip_ranks",
    "flip_files",
    "transpose",
    "antitranspose",
)
"""The names :meth:`Tour.transformed` knows (a board has those that map it onto itself)."""


def tour_of_rectangle(tour: object) -> Tour:
    """``tour`` if it is a :class:`Tour` of a rectangle (for numbered boards, pages), else
    InvalidTourError naming it.

    Examples
    --------
    >>> tour_of_rectangle("a1")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidTourError: not a Tour: 'a1'
    """
    if not isinstance(tour, Tour):
        raise InvalidTourError(f"not a Tour: {describe_value(tour)}")
    if not _on_rectangle(tour.board):
        raise InvalidTourError(f"not a Tour of a rectangular board: {describe_value(tour)}")
    return tour


def _on_rectangle(board: Board | GraphBoard) -> TypeIs[Board]:
    """Whether ``board`` is a rectangle: the one question this module asks about its kind."""
    return board.rectangle is not None


def _order_array(order: object) -> NDArray[Any]:
    """``order`` as a 1-D integer array, or InvalidTourError naming what it is instead."""
    arr = None
    if isinstance(order, np.ndarray):
        arr = order
    elif isinstance(order, Iterable) and not isinstance(
        order, str | bytes | bytearray | Mapping | Set
    ):
        with contextlib.suppress(TypeError, ValueError, OverflowError):
            arr = np.asarray(order)
    if arr is not None and arr.size == 0 and arr.ndim == 1:
        return np.zeros(0, dtype=np.int64)
    if arr is None or arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidTourError(
            f"invalid tour order {describe_value(order)}: expected a 1-D sequence of whole-number "
            "flat indices r * n + c (use Tour.from_squares for names or (r, c) pairs)",
            defect="malformed",
        )
    return arr


def _frozen(array: NDArray[Any]) -> bool:
    """True when ``array``'s memory cannot be written without turning a flag back on:
    it and every array it views are read-only, and so is the buffer under them."""
    base: Any = array
    while isinstance(base, np.ndarray):
        if base.flags.writeable:
            return False
        base = base.base
    if base is None:
        return True  # a read-only array owning its memory
    try:
        return memoryview(base).readonly
    except TypeError:
        return False


def _unpickle(board: Board, order: NDArray[Any], closed: bool) -> Tour:
    """Rebuild a pickled tour (verifying it again); the fresh array is adopted, not copied."""
    if isinstance(order, np.ndarray) and order.base is None:
        order.flags.writeable = False  # nobody else holds it
    return Tour(board, order, closed)
