"""Every board as the independent checker sees it: vertices and their moves.

A :class:`Rectangle` (its leaper and removed squares) recomputes its moves from
coordinates and stores nothing per square, so the checks that need not look at every
square run on boards of any size; a :class:`Graph` holds vertex names and the edges
between them (any graph, tori, cylinders, 3-D boards).  Both answer the same questions
(the questions of :class:`Graph`), each in its own words, for :mod:`knightgraph.certcheck.checker`.
Standard library only.

Examples
--------
>>> board = Graph(["x", "y", "z"], [["x", "y"], ["y", "z"]])
>>> board.count, sorted(board.moves("y")), board.ends("x", None)
(3, ['x', 'z'], ('x', None))
>>> Graph(["x", "x"], [])
Traceback (most recent call last):
...
knightgraph.certcheck.adjacency.Rejected: the vertex names are not unique
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

__all__ = ["MAX_ENUMERATED", "Graph", "Malformed", "Rectangle", "parse_square", "square_name"]

Square = tuple[int, int]


class Rejected(Exception):
    """A certificate does not prove what it claims (its message says why)."""


class Malformed(ValueError):
    """The input cannot be read as an answer (wrong types, missing keys, too large): the
    command line's exit 2.

    Examples
    --------
    >>> Rectangle(10**5, 10**5, (1, 2), ()).require_small()
    Traceback (most recent call last):
    ...
    knightgraph.certcheck.adjacency.Malformed: a board of 10,000,000,000 squares is too large to check here
    """


MAX_ENUMERATED = 10_000_000
"""Most squares a check that looks at every square will enumerate (larger: malformed)."""


def require(condition: bool, why: str) -> None:
    """Reject unless ``condition`` holds."""
    if not condition:
        raise Rejected(why)


class Graph:
    """A graph given by its vertex names and edges (pairs of names), checked as it is read:
    what every check asks of a board (:class:`Rectangle` answers the same questions).

    Examples
    --------
    >>> sorted(Graph(["x", "y", "z"], [["x", "y"], ["y", "z"]]).moves("y"))
    ['x', 'z']
    """

    kinds = frozenset(("tour", "colour-count", "degree", "connectivity", "sat-refutation"))
    words: ClassVar[dict[str, str]] = {  # the words of the checks every board shares
        "unknown": "unknown certificate kind {kind!r}",
        "count": "{got} squares for {want} vertices",
        "visit": "does not visit every vertex once",
        "step": "step {k} {u}-{v} is not an edge",
        "cycle": "fewer than three vertices make no cycle",
        "end": "the {what} is {got}, not {want}",
        "done": "a verified tour of {got} vertices",
        "loop": "a variable is a loop",
        "moves": "the variables are not the graph's edges",
        "auxiliary": "an auxiliary variable",
        "cut": "{clause} is not a cut",
    }
    tagged = False  # whether a rejection names the certificate's kind
    hub: Any = None  # the extra vertex of an open tour's SAT encoding

    def __init__(self, vertices: Iterable[str], edges: Iterable[Sequence[str]]) -> None:
        names = list(vertices)
        require(len(set(names)) == len(names) > 0, "the vertex names are not unique")
        self.adj: dict[Any, set[Any]] = {v: set() for v in names}
        for edge in edges:
            require(len(edge) == 2, f"edge {edge!r} does not have two ends")
            u, v = edge
            require(u in self.adj and v in self.adj and u != v, f"edge {edge!r} is not an edge")
            self.adj[u].add(v)
            self.adj[v].add(u)
        self.count = len(names)

    @property
    def vertices(self) -> list[Any]:
        """Every vertex."""
        return list(self.adj)

    def on(self, vertex: Any) -> bool:
        return vertex in self.adj

    def moves(self, vertex: Any) -> set[Any]:
        return self.adj[vertex]

    def vertex(self, name: Any) -> Any:
        """The vertex a certificate names."""
        return name

    def square(self, square: Any) -> Any:
        """The vertex of a tour's entry."""
        require(isinstance(square, str), "a square is not a vertex name")
        return square

    def ends(self, start: str | None, end: str | None) -> tuple[Any, Any]:
        """The vertices of the ends asked for."""
        for s in (start, end):
            require(s is None or s in self.adj, f"the end {s!r} is not a vertex")
        require(
            start is None or start != end or self.count == 1,  # one vertex: its own tour
            "the start and the end are the same vertex",
        )
        return start, end

    def require_small(self) -> None:
        """Refuse (as malformed) a board too large for a check that visits every vertex."""

    def allows(self, clause: Sequence[int], edges: Sequence[frozenset[Any]]) -> bool:
        """Whether a SAT certificate's clause is valid for a reason this board knows beyond
        the tour encoding's own (none here: a symmetric request's board, in
        :mod:`knightgraph.certcheck.symmetric`, allows its symmetry's clauses)."""
        return False

    def parity(self) -> tuple[list[int], Callable[[Any], int], str] | None:
        """The class sizes of a colouring read from coordinates, each square's colour, and
        the board's size: a rectangle's (a graph's certificate names its ``side``)."""
        return None


class Rectangle(Graph):
    """A rectangle with a leaper and removed squares: a graph whose moves are recomputed
    from coordinates (nothing is stored per square).

    Examples
    --------
    >>> sorted(Rectangle(3, 3, (1, 2), ["b3"]).moves((0, 0)))  # b3 is (2, 1)
    [(1, 2)]
    """

    kinds = frozenset(
        ("tour", "colour-count", "degree", "schwenk-4xn", "forced-moves", "sat-refutation")
    )
    words: ClassVar[dict[str, str]] = {
        "unknown": "certificates of kind {kind!r} cannot be checked independently",
        "count": "{got} squares for {want}",
        "visit": "does not visit every square once",
        "step": "has a step that is not a move",
        "cycle": "two squares make no cycle",
        "end": "the {what} is not the one asked for",
        "done": "a verified tour of {got} squares",
        "loop": "an edge is a loop",
        "moves": "the variables are not the board's moves",
        "auxiliary": "a clause has an auxiliary variable",
        "cut": "clause {clause} is not the cut of its set",
    }
    tagged = True
    hub = "hub"

    def __init__(self, m: int, n: int, leaper: Sequence[int], removed: Sequence[str]) -> None:
        self.m, self.n = m, n
        a, b = sorted(int(x) for x in leaper)
        self.jumps = {(x, y) for p, q in ((a, b), (b, a)) for x in (p, -p) for y in (q, -q)}
        self.removed = {parse_square(name) for name in removed}
        self.count = m * n - len(self.removed)

    @property
    def vertices(self) -> list[Any]:
        """Every square (O(mn): used only by checks that must look at them all)."""
        self.require_small()
        return [(r, c) for r in range(self.m) for c in range(self.n) if (r, c) not in self.removed]

    def on(self, vertex: Any) -> bool:
        r, c = vertex
        return 0 <= r < self.m and 0 <= c < self.n and vertex not in self.removed

    def moves(self, vertex: Any) -> set[Any]:
        r, c = vertex
        return {(r + x, c + y) for x, y in self.jumps if self.on((r + x, c + y))}

    def vertex(self, name: Any) -> Any:
        return parse_square(name)

    def square(self, square: Any) -> Any:
        return tuple(square)

    def ends(self, start: str | None, end: str | None) -> tuple[Any, Any]:
        return tuple(None if x is None else parse_square(x) for x in (start, end))  # type: ignore[return-value]

    def require_small(self) -> None:
        if self.m * self.n > MAX_ENUMERATED:
            raise Malformed(f"a board of {self.m * self.n:,} squares is too large to check here")

    def parity(self) -> tuple[list[int], Callable[[Any], int], str] | None:
        x, y = next(iter(self.jumps))
        require((x + y) % 2 == 1, "this leaper does not alternate colours")
        ones = self.m * self.n // 2  # squares (r, c) with r + c odd, before removals
        gone = [sum(1 for s in self.removed if colour(s) == k) for k in (0, 1)]
        counts = [self.m * self.n - ones - gone[0], ones - gone[1]]
        return counts, colour, f"{self.m}x{self.n}"


def colour(square: Square) -> int:
    """A square's colour: 0 for a1's."""
    return (square[0] + square[1]) % 2


def parse_square(name: str) -> Square:
    """A square's ``(row, column)`` from its name (``b3``, ``AA10``) or ``"r,c"``.

    Examples
    --------
    >>> parse_square("b3"), parse_square("(2,1)")
    ((2, 1), (2, 1))
    """
    text = name.strip().lower()
    if "," in text:
        r, c = text.strip("()").split(",")
        return int(r), int(c)
    letters = "".join(itertools.takewhile(str.isalpha, text))
    column = 0
    for ch in letters:
        column = column * 26 + (ord(ch) - ord("a") + 1)
    return int(text[len(letters) :]) - 1, column - 1


def square_name(square: Square) -> str:
    """The name of the square ``(row, column)``.

    Examples
    --------
    >>> square_name((2, 1)), square_name((0, 26))
    ('b3', 'aa1')
    """
    r, c = square
    letters = ""
    c += 1
    while c:
        c, rest = divmod(c - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{r + 1}"
