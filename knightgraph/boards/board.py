"""Boards: sizes, removed squares, colours and the move table (names, leapers: ``squares``).

A :class:`Board` is an ``m x n`` grid (``m`` ranks, ``n`` files) on which an
``(a, b)``-leaper moves ``a`` squares one way and ``b`` the other; the knight is
the ``(1, 2)``-leaper.  Squares may be removed.  Square ``(r, c)`` is 0-based
with flat index ``r * n + c``; its algebraic name is the file letters of ``c``
(``a`` .. ``z``, then ``aa``, ``ab``, ... in bijective base 26) followed by the
rank ``r + 1``.  The colour of ``(r, c)`` is ``(r + c) % 2``, so ``a1`` has
colour 0.

This is the array layer's view of a board; its networkx graph is built only on
request (:meth:`Board.to_networkx`, what :func:`knightgraph.knight_graph` asks).

Examples
--------
>>> from knightgraph import Board
>>> b = Board(8, 8)
>>> b.parse_square("h8"), b.name((7, 0)), b.index("d4")
((7, 7), 'a8', 27)
>>> b.color("a1"), b.color("h1")
(0, 1)
>>> Board(3, 3).degrees().reshape(3, 3)
array([[2, 2, 2],
       [2, 0, 2],
       [2, 2, 2]])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidBoardError, InvalidSquareError
from ..running.resources import require_board_memory
from .squares import (
    CAMEL,
    GIRAFFE,
    KNIGHT,
    LEAPERS,
    ZEBRA,
    Square,
    SquareLike,
    coerce_square,
    describe_square,
    file_index,
    file_name,
    index_pairs,
    is_whole,
    leaper_offsets,
    names_line,
    parse_square_text,
    plain_pair,
    square_name,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "CAMEL",
    "GIRAFFE",
    "KNIGHT",
    "LEAPERS",
    "ZEBRA",
    "Board",
    "Square",
    "SquareLike",
    "coerce_square",
    "describe_square",
    "file_index",
    "file_name",
    "parse_square_text",
    "square_name",
]


def _positive_size(value: object, what: str) -> int:
    if not is_whole(value) or int(value) < 1:
        raise InvalidBoardError(
            f"invalid board size {value!r}: the number of {what} must be a whole number >= 1"
        )
    return int(value)


class Board:
    """An ``m x n`` board for an ``(a, b)``-leaper, possibly with squares removed.

    Parameters
    ----------
    m : int
        Number of ranks (rows), >= 1.
    n : int
        Number of files (columns), >= 1.
    leaper : tuple of two ints, default (1, 2)
        The piece: ``(1, 2)`` knight, ``(1, 3)`` camel, ``(2, 3)`` zebra,
        ``(1, 4)`` giraffe, or any other ``(a, b)``.  Stored as ``(min, max)``.
    removed : iterable of squares, default ()
        Squares taken off the board (names like ``"a1"`` or ``(r, c)`` pairs).

    Raises
    ------
    InvalidBoardError
        For a size below 1, a bad leaper.
    InvalidSquareError
        For a removed square that is malformed or off the board.

    Notes
    -----
    A board is immutable and cheap: it stores its size and the removed
    squares, never one entry per square, so ``Board(100000, 100000)`` is fine;
    the tables (:meth:`move_table`, :meth:`degrees`) are built on request,
    after a check that they fit in memory (:meth:`require_memory`).

    Examples
    --------
    >>> Board(8, 8)
    Board(8, 8)
    >>> b = Board(5, 5, leaper=(2, 1), removed=["c3"])
    >>> b
    Board(5, 5, removed=('c3',))
    >>> b.num_squares, b.color_counts()
    (24, (12, 12))
    """

    __slots__ = ("_offsets", "_removed_index", "leaper", "m", "n", "removed")

    def __init__(
        self,
        m: int,
        n: int,
        *,
        leaper: tuple[int, int] = KNIGHT,
        removed: Iterable[SquareLike] = (),
    ) -> None:
        self.m: int = _positive_size(m, "ranks")
        self.n: int = _positive_size(n, "files")
        self.leaper: Square
        self.leaper, self._offsets = leaper_offsets(leaper)
        if isinstance(removed, str):
            removed = [removed]
        if not isinstance(removed, Iterable) or isinstance(removed, bytes | dict):
            raise InvalidSquareError(
                f"invalid removed {removed!r}: expected a list of squares like ['a1', (2, 3)]"
            )
        m, n = self.m, self.n  # plain (r, c) pairs on the board (a mask's holes) as they are
        squares = {s if plain_pair(s, m, n) else self._checked(s) for s in removed}
        if len(squares) == self.m * self.n:
            raise InvalidBoardError(f"invalid board: all {len(squares)} squares are removed")
        self.removed: frozenset[Square] = frozenset(squares)
        self._removed_index = frozenset(r * self.n + c for r, c in squares)

    # ------------------------------------------------------------------ basics
    @property
    def shape(self) -> tuple[int, int]:
        """``(m, n)``: ranks and files."""
        return self.m, self.n

    @property
    def area(self) -> int:
        """``m * n``, the number of cells including removed ones (the flat index range)."""
        return self.m * self.n

    @property
    def num_squares(self) -> int:
        """The number of squares a tour must visit (removed squares excluded)."""
        return self.m * self.n - len(self.removed)

    @property
    def offsets(self) -> tuple[Square, ...]:
        """The leaper's moves as ``(d_rank, d_file)`` pairs, in the fixed trial order."""
        return self._offsets

    @property
    def is_standard(self) -> bool:
        """True for a knight on a full rectangle (where the classical theorems apply)."""
        return self.leaper == KNIGHT and not self.removed

    @property
    def alternates_color(self) -> bool:
        """True when every move changes the square's color (``a + b`` odd)."""
        return sum(self.leaper) % 2 == 1

    @property
    def alternates_colour(self) -> bool:
        """Deprecated spelling of :attr:`alternates_color` (kept for one release)."""
        import warnings

        warnings.warn("alternates_colour: use alternates_color", DeprecationWarning, stacklevel=2)
        return self.alternates_color

    def __repr__(self) -> str:
        extra = ""
        if self.leaper != KNIGHT:
            extra += f", leaper={self.leaper}"
        if self.removed:
            names = tuple(square_name(r, c) for r, c in sorted(self.removed))
            extra += f", removed={names}"
        return f"Board({self.m}, {self.n}{extra})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.m, self.n, self.leaper, self.removed) == (
            other.m,
            other.n,
            other.leaper,
            other.removed,
        )

    def __hash__(self) -> int:
        return hash((self.m, self.n, self.leaper, self.removed))

    def __contains__(self, square: object) -> bool:
        try:
            self.parse_square(square)  # type: ignore[arg-type]
        except InvalidSquareError:
            return False
        return True

    def __iter__(self) -> Iterator[Square]:
        """The available squares in flat-index order."""
        for r in range(self.m):
            for c in range(self.n):
                if (r, c) not in self.removed:
                    yield r, c

    def squares(self) -> list[Square]:
        """All available squares in flat-index order.

        Raises
        ------
        BoardTooLargeError
            When the list cannot fit in memory.
        """
        self.require_memory("squares")
        return list(self)

    def require_memory(self, kind: str, *, extra: int = 0) -> None:
        """Refuse, up front, a kind of work on this board that cannot fit in memory.

        Parameters
        ----------
        kind : str
            A kind of work of :data:`knightgraph.running.resources.FOOTPRINTS`:
            ``"knight graph"``, ``"move table"``, ``"sweep"``, ``"map"``,
            ``"count"``, ...
        extra : int, default 0
            Further bytes the same work needs.

        Raises
        ------
        BoardTooLargeError
            Naming the board, the memory needed and the memory free.

        Examples
        --------
        >>> Board(8, 8).require_memory("map")
        >>> Board(10**12, 10**12).require_memory("move table")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        knightgraph.exceptions.BoardTooLargeError: the move table of 1000000000000x1000000000000 (1,000,000,000,000,000,000,000,000 squares) needs about ... of memory; only ... is available
        """
        require_board_memory(kind, self.m, self.n, extra=extra)

    # ----------------------------------------------------------------- squares
    def _checked(self, square: Any) -> Square:
        """``(r, c)`` of any square form, on the board (removed or not)."""
        r, c = coerce_square(square)
        if not (0 <= r < self.m and 0 <= c < self.n):
            shown = square.strip() if isinstance(square, str) else describe_square(r, c)
            raise InvalidSquareError(
                f"invalid square {shown}: off the {self.m}x{self.n} board "
                f"(files a..{file_name(self.n - 1)}, ranks 1..{self.m})"
            )
        return r, c

    def parse_square(self, square: SquareLike) -> Square:
        """Return ``(r, c)`` for a name, an ``"r,c"`` string or a pair, checked on this board.

        Raises
        ------
        InvalidSquareError
            If the square is malformed, off the board or removed.

        Examples
        --------
        >>> Board(8, 8).parse_square("e2")
        (1, 4)
        >>> Board(8, 8).parse_square("i1")
        Traceback (most recent call last):
        ...
        knightgraph.exceptions.InvalidSquareError: invalid square i1: off the 8x8 board (files a..h, ranks 1..8)
        """
        sq = self._checked(square)
        if sq in self.removed:
            raise InvalidSquareError(
                f"invalid square {self.name(sq)}: it is removed from the board"
            )
        return sq

    def index(self, square: SquareLike) -> int:
        """Flat index ``r * n + c`` of a square (checked on this board)."""
        r, c = self.parse_square(square)
        return r * self.n + c

    def square(self, index: int) -> Square:
        """The ``(r, c)`` pair of a flat index.

        Examples
        --------
        >>> Board(8, 8).square(27)
        (3, 3)
        """
        if not is_whole(index) or not 0 <= index < self.area:
            raise InvalidSquareError(
                f"invalid square index {index!r}: expected a whole number in 0..{self.area - 1}"
            )
        r, c = divmod(int(index), self.n)
        return r, c

    def name(self, square: SquareLike | int) -> str:
        """Algebraic name of a square given as a pair, a string or a flat index."""
        if is_whole(square):
            return square_name(*self.square(int(square)))
        r, c = self._checked(square)
        return square_name(r, c)

    # ------------------------------------------------- the protocol of every board kind
    def wording(self) -> tuple[str, str]:
        """How messages name the board and one of its squares (the same method on a
        :class:`~knightgraph.boards.graphboard.GraphBoard`: ``of the torus ...``, ``vertex``).

        Examples
        --------
        >>> Board(8, 8).wording()
        ('on 8x8', 'square')
        """
        return f"on {self.m}x{self.n}", "square"

    def names_at(self, indices: Any) -> list[str]:
        """The algebraic names of the flat indices ``indices`` (a sequence or an array).

        Vectorised: the file letters and rank numbers are named once each and joined per
        square by numpy (about 0.1 s for a million squares); a few are named one by one.

        Examples
        --------
        >>> Board(8, 8).names_at([0, 9, 63])
        ['a1', 'b2', 'h8']
        """
        import numpy as np

        flat = np.asarray(indices, dtype=np.int64)
        if flat.size <= 64:  # a few: one by one, not a table of every file and rank
            return [square_name(*divmod(i, self.n)) for i in flat.tolist()]
        rows, cols = np.divmod(flat, self.n)
        files = np.array([file_name(c) for c in range(self.n)], dtype=object)
        ranks = np.array([str(r + 1) for r in range(self.m)], dtype=object)
        names: list[str] = (files[cols] + ranks[rows]).tolist()
        return names

    def squares_at(self, indices: Iterable[int]) -> Iterator[Square]:
        """The ``(r, c)`` pairs of the flat indices ``indices``, one by one.

        Examples
        --------
        >>> list(Board(8, 8).squares_at([0, 9]))
        [(0, 0), (1, 1)]
        """
        n = self.n
        return (divmod(i, n) for i in indices)

    def tour_fields(self, order: Any, closed: bool) -> dict[str, Any]:
        """The JSON fields of a tour of this board visiting ``order``: ``rows``, ``cols``,
        ``closed``, ``start``, ``end``, then ``leaper`` and ``removed`` when not the
        defaults, and ``squares`` as ``[r, c]`` pairs (:meth:`knightgraph.Tour.to_dict`).

        Examples
        --------
        >>> Board(1, 2, leaper=(0, 1)).tour_fields([0, 1], False)["squares"]
        [[0, 0], [0, 1]]
        """
        d: dict[str, Any] = {
            "rows": self.m,
            "cols": self.n,
            "closed": closed,
            "start": self.name(int(order[0])),
            "end": self.name(int(order[-1])),
        }
        d.update(self.checker_fields())
        d["squares"] = index_pairs(order, self.n)
        return d

    rectangle = property(lambda self: self, doc="The board itself (a graph board's is None).")

    def checker_fields(self) -> dict[str, Any]:
        """What an independent checker needs beyond ``rows`` and ``cols``: ``leaper`` and
        ``removed`` (square names) when they differ from the knight and the whole board.

        Examples
        --------
        >>> Board(3, 4, leaper=(1, 3), removed=["b2", "a1"]).checker_fields()
        {'leaper': [1, 3], 'removed': ['a1', 'b2']}
        """
        out: dict[str, Any] = {}
        if self.leaper != KNIGHT:
            out["leaper"] = list(self.leaper)
        if self.removed:
            flat = sorted(r * self.n + c for r, c in self.removed)
            out["removed"] = names_line(flat, self.m, self.n).split()
        return out

    def answer_fields(self, closed: bool, start: str | None, end: str | None) -> dict[str, Any]:
        """The head of an answer's JSON on this board: ``rows``, ``cols``, ``closed``,
        ``start``, ``end`` and :meth:`checker_fields` (a graph board's names its graph).

        Examples
        --------
        >>> Board(3, 4).answer_fields(False, "a1", None)
        {'rows': 3, 'cols': 4, 'closed': False, 'start': 'a1', 'end': None}
        """
        head = {"rows": self.m, "cols": self.n, "closed": closed, "start": start, "end": end}
        return {**head, **self.checker_fields()}

    def color(self, square: SquareLike) -> int:
        """Colour ``(r + c) % 2`` of a square; ``a1`` is colour 0."""
        r, c = self._checked(square)
        return (r + c) % 2

    def color_counts(self) -> tuple[int, int]:
        """Numbers of available squares of colour 0 and colour 1.

        Examples
        --------
        >>> Board(5, 5).color_counts(), Board(8, 8).color_counts()
        ((13, 12), (32, 32))
        """
        zeros = (self.area + 1) // 2
        ones = self.area // 2
        for r, c in self.removed:
            if (r + c) % 2:
                ones -= 1
            else:
                zeros -= 1
        return zeros, ones

    def neighbors(self, square: SquareLike) -> list[Square]:
        """The available squares one leap from ``square``, in the move order.

        Examples
        --------
        >>> Board(8, 8).neighbors("a1")
        [(2, 1), (1, 2)]
        """
        r, c = self.parse_square(square)
        out = []
        for dr, dc in self._offsets:
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.m and 0 <= cc < self.n and (rr, cc) not in self.removed:
                out.append((rr, cc))
        return out

    # ------------------------------------------------------------------ arrays
    # The tables are built by knightgraph.boards.arrays (numpy, imported when first asked).
    def index_dtype(self) -> type[np.signedinteger[Any]]:
        """``int32`` when every flat index fits, else ``int64``."""
        from .arrays import index_dtype

        return index_dtype(self.area)

    def available(self) -> NDArray[np.bool_]:
        """Boolean array over flat indices: True where the square is on the board."""
        from .arrays import available

        self.require_memory("mask")
        return available(self.area, self._removed_index)

    def move_table(
        self,
        moves: Sequence[Square] | None = None,
        *,
        missing: int = -1,
        sentinel: bool = False,
    ) -> NDArray[np.signedinteger[Any]]:
        """Table ``T`` of shape ``(m * n, k)``: ``T[i, j]`` is the flat index reached
        from square ``i`` by move ``j``, or ``missing`` if that leaves the board or
        touches a removed square (rows of removed squares are all ``missing``).

        Parameters
        ----------
        moves : sequence of (d_rank, d_file), optional
            The columns, in this order (each one of :attr:`offsets`); default
            :attr:`offsets`.
        missing : int, default -1
            The entry for a move that does not exist.
        sentinel : bool, default False
            Add a last row (index ``m * n``) of ``missing`` entries: with
            ``missing = m * n`` the table then never leads off itself, which is
            how the compiled kernels avoid bounds checks.

        Examples
        --------
        >>> Board(3, 4).move_table()[0].tolist()
        [9, 6, -1, -1, -1, -1, -1, -1]
        >>> Board(3, 4).move_table([(1, 2), (2, 1)], missing=12, sentinel=True)[[0, 12]].tolist()
        [[6, 9], [12, 12]]
        """
        from .arrays import move_table

        self.require_memory("move table")
        columns: Any = self._offsets if moves is None else tuple(tuple(mv) for mv in moves)
        if not set(columns) <= set(self._offsets):
            raise InvalidBoardError(
                f"invalid moves {columns}: not all are moves of the {self.leaper} leaper"
            )
        return move_table(self.m, self.n, columns, self._removed_index, missing, sentinel)

    def degrees(self) -> NDArray[np.int64]:
        """Number of available neighbours of every flat index (0 for removed squares)."""
        degrees: NDArray[np.int64] = (self.move_table() >= 0).sum(axis=1).astype("int64")
        return degrees

    def symmetries(self) -> dict[str, NDArray[np.int64]]:
        """The board's symmetries as index permutations: ``perm[i]`` is the image of square ``i``.

        Four for a rectangle (identity, ``rot180``, ``flip_ranks``, ``flip_files``),
        eight for a square board (adding ``transpose``, ``antitranspose``, ``rot90``,
        ``rot270``); with removed squares, only those that map the removed set onto
        itself.  Every leaper's move set is invariant under all of them, so each
        maps tours to tours.

        Examples
        --------
        >>> sorted(Board(3, 4).symmetries())
        ['flip_files', 'flip_ranks', 'identity', 'rot180']
        >>> len(Board(5, 5).symmetries()), len(Board(5, 5, removed=["a1"]).symmetries())
        (8, 2)
        """
        from .arrays import symmetries

        self.require_memory("symmetries")
        return symmetries(self.m, self.n, self._removed_index)

    def to_networkx(self) -> Any:
        """The board's leaper graph, what :func:`~knightgraph.knight_graph` returns."""
        self.require_memory("knight graph")
        import networkx as nx

        name = f"{self.leaper} leaper graph {self.m}x{self.n}"
        graph = nx.Graph(rows=self.m, cols=self.n, leaper=self.leaper, name=name)
        for r, c in self:
            graph.add_node((r, c), pos=(c, r), color=(r + c) % 2, name=self.name((r, c)))
        for i, row in enumerate(self.move_table().tolist()):
            for j in row:
                if j > i:
                    graph.add_edge(divmod(i, self.n), divmod(j, self.n))
        return graph

    cells = squares  # a start or end map's cells (knightgraph.explore): the squares
    cell = parse_square  # the cell of a square a user names
    cell_name = name

    def cell_square(self, cell: Square) -> Square:
        """The square of a cell, as the searches take it: the ``(r, c)`` itself."""
        return cell

    def cell_table(self, fill: Any, dtype: Any) -> Any:
        """A value per cell, all ``fill``: an ``(m, n)`` array (a graph board's: a list)."""
        import numpy as np

        return np.full((self.m, self.n), fill, dtype=dtype)
