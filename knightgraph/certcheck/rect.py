"""The independent certificate checker of rectangles (:mod:`knightgraph.certcheck`).

Every "no tour" that knightgraph reports carries a certificate; this module
re-checks one from its data alone, without using the code that produced it.
It recomputes the board's moves itself (standard library only) and uses the
independent DRUP checker of :mod:`knightgraph.certcheck.drup` for SAT refutations.

Certificate kinds and what is re-checked:

``tour``
    the squares form a tour answering the request.
``colour-count``
    the colour counts of the board and the colours of the ends, against the
    clause named (a tour alternates colours).
``degree``
    the degree of each named square, the closing move, or (``disconnected``)
    that the second named square cannot be reached from the first.
``schwenk-4xn``
    that the outer lines hold half the squares, both colours, and no move
    between two of them; and the conclusion drawn.
``forced-moves``
    replays the forced-move rules of an open tour between the given ends at
    the squares named (each uses one move if an end, two otherwise; moves
    forced when a square has just enough left; no cycle and no early path
    from start to end) and finds their contradiction: work proportional to the
    squares named, whatever the board's length.
``sat-refutation``
    that the variables are exactly the board's moves (plus hub edges for open
    tours), that every clause is one every tour satisfies (exactly two tour
    edges at each vertex, a required end, or "some edge leaves S" for a listed
    set S), and that the DRUP proof refutes the clauses.

Run it on the JSON of any answer (``tour``, ``exists``, ``count``, ``sample``, ...:
:mod:`knightgraph.certcheck.answers` reads the board, cylinders, tori, 3-D boards and
graph boards included, and checks every tour and certificate the answer carries)::

    knightgraph exists 4 4 --format json | python -m knightgraph.certcheck

Examples
--------
>>> check_certificate({"kind": "colour-count", "clause": "closed-needs-balance",
...                    "counts": [25, 24]}, 7, 7, closed=True)
(True, 'colour-count: 7x7 has 25 squares of one colour and 24 of the other')
>>> check_certificate({"kind": "colour-count", "clause": "closed-needs-balance",
...                    "counts": [25, 24]}, 8, 8, closed=True)[0]
False
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["MAX_ENUMERATED", "Malformed", "check_certificate", "check_request"]

Square = tuple[int, int]


class _Rejected(Exception):
    pass


class Malformed(ValueError):
    """The input cannot be read as an answer (wrong types, missing keys, too large): the
    command line's exit 2.

    Examples
    --------
    >>> _Board(10**5, 10**5, (1, 2), ()).require_small()
    Traceback (most recent call last):
    ...
    knightgraph.certcheck.rect.Malformed: a board of 10,000,000,000 squares is too large to check here
    """


MAX_ENUMERATED = 10_000_000
"""Most squares a check that looks at every square will enumerate (larger: malformed)."""


def _require(condition: bool, why: str) -> None:
    if not condition:
        raise _Rejected(why)


class _Board:
    """The board, recomputed from first principles (nothing is stored per square)."""

    def __init__(self, m: int, n: int, leaper: Sequence[int], removed: Sequence[str]) -> None:
        self.m, self.n = m, n
        a, b = sorted(int(x) for x in leaper)
        self.jumps = {(x, y) for p, q in ((a, b), (b, a)) for x in (p, -p) for y in (q, -q)}
        self.removed = {parse_square(name) for name in removed}
        self.count = m * n - len(self.removed)

    def require_small(self) -> None:
        """Refuse (as malformed) a board too large for a check that visits every square."""
        if self.m * self.n > MAX_ENUMERATED:
            raise Malformed(f"a board of {self.m * self.n:,} squares is too large to check here")

    @property
    def squares(self) -> list[Square]:
        """Every square (O(mn): used only by checks that must look at them all)."""
        self.require_small()
        return [(r, c) for r in range(self.m) for c in range(self.n) if (r, c) not in self.removed]

    def on(self, square: Square) -> bool:
        r, c = square
        return 0 <= r < self.m and 0 <= c < self.n and square not in self.removed

    def moves(self, square: Square) -> set[Square]:
        r, c = square
        return {(r + x, c + y) for x, y in self.jumps if self.on((r + x, c + y))}

    def colour(self, square: Square) -> int:
        return (square[0] + square[1]) % 2

    def alternating(self) -> bool:
        x, y = next(iter(self.jumps))
        return (x + y) % 2 == 1


def parse_square(name: str) -> Square:
    text = name.strip().lower()
    if "," in text:
        r, c = text.strip("()").split(",")
        return int(r), int(c)
    letters = "".join(itertools.takewhile(str.isalpha, text))
    column = 0
    for ch in letters:
        column = column * 26 + (ord(ch) - ord("a") + 1)
    return int(text[len(letters) :]) - 1, column - 1


def check_certificate(
    certificate: Mapping[str, Any],
    m: int,
    n: int,
    *,
    closed: bool = False,
    start: str | None = None,
    end: str | None = None,
    leaper: Sequence[int] = (1, 2),
    removed: Sequence[str] = (),
) -> tuple[bool, str]:
    """Re-check a certificate (its JSON form) for the request; ``(accepted, why)``.

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> cert = find_tour(4, 6, closed=True).certificate.to_dict()
    >>> check_certificate(cert, 4, 6, closed=True)
    (True, 'schwenk-4xn: no closed tour (outer squares would alternate and share a colour)')
    >>> cert = find_tour(4, 4).certificate.to_dict()  # a SAT refutation with its DRUP proof
    >>> check_certificate(cert, 4, 4)
    (True, 'sat-refutation: ... valid clauses; DRUP: the empty clause was derived (... lemmas checked)')
    >>> check_certificate(cert, 4, 5)  # it proves nothing about another board
    (False, "sat-refutation: the variables are not the board's moves")
    >>> check_certificate({"kind": "theorem"}, 4, 4)
    (False, "certificates of kind 'theorem' cannot be checked independently")
    """
    try:
        return check_request(
            certificate, m, n, closed=closed, start=start, end=end, leaper=leaper, removed=removed
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        return False, f"{certificate.get('kind')}: malformed certificate ({err!r})"


def check_request(
    certificate: Mapping[str, Any],
    m: int,
    n: int,
    *,
    closed: bool = False,
    start: str | None = None,
    end: str | None = None,
    leaper: Sequence[int] = (1, 2),
    removed: Sequence[str] = (),
) -> tuple[bool, str]:
    """:func:`check_certificate`, but data it cannot read raises (``KeyError``,
    ``TypeError``, ``ValueError``, ...: the command line's exit 2) instead of rejecting.

    Examples
    --------
    >>> check_request({"kind": "degree", "clause": "low-degree", "square": 7}, 3, 3)
    Traceback (most recent call last):
    ...
    AttributeError: 'int' object has no attribute 'strip'
    """
    board = _Board(m, n, leaper, removed)
    ends = (
        None if start is None else parse_square(start),
        None if end is None else parse_square(end),
    )
    kind = certificate.get("kind")
    if not isinstance(kind, str) or kind not in _CHECKS:
        return False, f"certificates of kind {kind!r} cannot be checked independently"
    try:
        return True, f"{kind}: " + _CHECKS[kind](certificate, board, closed, ends)
    except _Rejected as why:
        return False, f"{kind}: {why}"


def _check_tour(cert: Mapping[str, Any], board: _Board, closed: bool, ends: Any) -> str:
    squares = [tuple(s) for s in cert["squares"]]
    _require(len(squares) == board.count, f"{len(squares)} squares for {board.count}")
    _require(sorted(squares) == sorted(board.squares), "does not visit every square once")
    steps = list(itertools.pairwise(squares)) + ([(squares[-1], squares[0])] if closed else [])
    _require(all(b in board.moves(a) for a, b in steps), "has a step that is not a move")
    _require(not closed or len(squares) > 2, "two squares make no cycle")
    for want, got, what in ((ends[0], squares[0], "start"), (ends[1], squares[-1], "end")):
        _require(want is None or want == got, f"the {what} is not the one asked for")
    return f"a verified tour of {len(squares)} squares"


def _check_colours(cert: Mapping[str, Any], board: _Board, closed: bool, ends: Any) -> str:
    _require(board.alternating(), "this leaper does not alternate colours")
    ones = board.m * board.n // 2  # squares (r, c) with r + c odd, before removals
    gone = [sum(1 for s in board.removed if board.colour(s) == k) for k in (0, 1)]
    counts = [board.m * board.n - ones - gone[0], ones - gone[1]]
    _require(list(cert["counts"]) == counts, f"the counts are {counts}, not {cert['counts']}")
    zeros, ones = counts
    given = [board.colour(s) for s in ends if s is not None]
    clause = cert["clause"]
    size = f"{board.m}x{board.n}"
    if clause == "closed-needs-balance":
        _require(closed and zeros != ones, "the counts balance")
        return f"{size} has {max(counts)} squares of one colour and {min(counts)} of the other"
    if clause == "open-needs-near-balance":
        _require(abs(zeros - ones) > 1, "the counts differ by at most one")
        return f"{size} has {zeros} and {ones} squares of the two colours"
    if clause == "ends-differ":
        _require(zeros == ones and len(given) == 2 and given[0] == given[1], "the ends differ")
        return "equal colour classes, and both ends have one colour"
    if clause == "ends-on-larger-class":
        larger = 0 if zeros > ones else 1
        _require(
            abs(zeros - ones) == 1 and any(c != larger for c in given),
            "no end off the larger class",
        )
        return "an end lies on the smaller colour class"
    raise _Rejected(f"unknown clause {clause!r}")


def _check_degree(cert: Mapping[str, Any], board: _Board, closed: bool, ends: Any) -> str:
    clause = cert["clause"]
    total = board.count
    if clause == "low-degree":
        if "square" not in cert:
            _require(closed and total == 1, "more than one square")
            return "a single square has no move back to itself"
        square = parse_square(cert["square"])
        _require(board.on(square), "the square is not on the board")
        degree = len(board.moves(square))
        _require(degree == cert["degree"], f"the square has degree {degree}")
        _require((degree == 0 and total > 1) or (closed and degree < 2), "the degree is enough")
        return f"{cert['square']} has {degree} moves"
    if clause == "degree-one":
        _require(not closed, "the clause is for open tours")
        named = [parse_square(s) for s in cert["squares"]]
        _require(
            all(board.on(s) and len(board.moves(s)) == 1 for s in named),
            "a square has another degree",
        )
        given = {s for s in ends if s is not None}
        others = {s for s in named if s not in given}
        _require(len(others) > 2 - len(given), "the squares of degree one can all be ends")
        return f"{len(others)} squares of degree one are not ends"
    if clause == "closing-move":
        s, t = ends
        _require(closed and s is not None and t is not None, "no closed tour with both ends")
        _require(t not in board.moves(s), "the end is one move from the start")
        return "the end is not one move from the start"
    if clause == "disconnected":
        a, b = (parse_square(x) for x in cert["squares"])
        _require(board.on(a) and board.on(b), "a named square is not on the board")
        board.require_small()
        seen, queue = {a}, deque([a])
        while queue:
            for nxt in board.moves(queue.popleft()):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        _require(b not in seen, "the second square can be reached from the first")
        return f"{cert['squares'][1]} cannot be reached from {cert['squares'][0]}"
    raise _Rejected(f"unknown clause {clause!r}")


def _check_partition(cert: Mapping[str, Any], board: _Board, closed: bool, ends: Any) -> str:
    where = cert["partition"]
    lines = {"ranks 1 and 4": (0, board.m, board.n), "files a and d": (1, board.n, board.m)}
    _require(where in lines, f"unknown partition {where!r}")
    axis, width, length = lines[where]
    _require(width == 4, f"the board does not have four {where.split()[0]}")

    def outer(square: Square) -> bool:
        return square[axis] in (0, 3)

    # No move joins two outer squares: a jump changes the line by 0 or 3 in no case.
    _require(
        all(abs(jump[axis]) not in (0, 3) for jump in board.jumps),
        "a move can join two outer squares",
    )
    outer_gone = sum(1 for s in board.removed if outer(s))
    _require(
        2 * (2 * length - outer_gone) == board.count, "the outer lines do not hold half the squares"
    )
    colours = set()
    for k in range(min(length, len(board.removed) + 2)):
        square = (0, k) if axis == 0 else (k, 0)
        if board.on(square):
            colours.add(board.colour(square))
    _require(colours == {0, 1}, "the outer lines do not show both colours")
    if closed:
        return "no closed tour (outer squares would alternate and share a colour)"
    _require(any(s is not None and not outer(s) for s in ends), "both ends are outer squares")
    return "an open tour must start and end on the outer lines"


def _check_forced(cert: Mapping[str, Any], board: _Board, closed: bool, ends: Any) -> str:
    """Replay the rules at the named squares, in rounds until nothing changes."""
    s, t = ends
    _require(not closed and s is not None and t is not None, "it needs an open tour with both ends")
    _require(s != t and board.on(s) and board.on(t) and board.count >= 3, "the ends are not valid")
    named = [parse_square(x) for x in cert["squares"]]
    _require(all(board.on(v) for v in named), "a named square is not on the board")
    link: dict[Square, set[Square]] = {}

    def room(v: Square) -> int:
        return (1 if v in (s, t) else 2) - len(link.get(v, ()))

    def fragment(v: Square) -> tuple[Square, int]:
        """The far end of v's chain of forced moves, and its length in squares."""
        before: Square | None = None
        here, size = v, 1
        while True:
            ahead = [u for u in link.get(here, ()) if u != before]
            if not ahead:
                return here, size
            before, here, size = here, ahead[0], size + 1

    def usable(v: Square, u: Square) -> bool:
        if u in link.get(v, ()) or room(u) <= 0:
            return False
        (far_v, size_v), (far_u, size_u) = fragment(v), fragment(u)
        if far_v == u:
            return False  # a cycle
        return not ({far_v, far_u} == {s, t} and size_v + size_u < board.count)

    progress = True
    while progress:
        progress = False
        for v in named:
            if room(v) == 0:
                continue
            free = [u for u in sorted(board.moves(v)) if usable(v, u)]
            if len(free) < room(v):
                return (
                    f"{square_name(v)} needs {room(v)} more move(s) and has {len(free)} left, "
                    f"after {sum(len(x) for x in link.values()) // 2} forced moves"
                )
            if len(free) == room(v):
                for u in free:
                    if not usable(v, u):
                        return (
                            f"the moves forced at {square_name(v)} close a cycle or an early path"
                        )
                    link.setdefault(v, set()).add(u)
                    link.setdefault(u, set()).add(v)
                    if room(u) < 0:
                        return f"{square_name(u)} is forced to use more moves than it may"
                progress = True
    raise _Rejected("the rules reach no contradiction at the squares named")


def square_name(square: Square) -> str:
    r, c = square
    letters = ""
    c += 1
    while c:
        c, rest = divmod(c - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{r + 1}"


def _check_sat(cert: Mapping[str, Any], board: _Board, closed: bool, ends: Any) -> str:
    def vertex(name: str) -> Square | str:
        return "hub" if name == "hub" else parse_square(name)

    edges: list[frozenset[Any]] = [frozenset(vertex(v) for v in edge) for edge in cert["edges"]]
    expected: set[frozenset[Any]] = {
        frozenset((s, t)) for s in board.squares for t in board.moves(s)
    }
    if not closed:
        start, end = ends
        allowed = [start, end] if start is not None and end is not None else board.squares
        expected |= {frozenset((s, "hub")) for s in allowed}
    _require(all(len(e) == 2 for e in edges), "an edge is a loop")
    _require(len(set(edges)) == len(edges), "an edge has two variables")
    _require(set(edges) == expected, "the variables are not the board's moves")
    variable = {e: k + 1 for k, e in enumerate(edges)}
    incident: dict[Any, set[int]] = {}
    for e, k in variable.items():
        for v in e:
            incident.setdefault(v, set()).add(k)
    ends_of = {k: e for e, k in variable.items()}
    units = _valid_units(variable, closed, ends)
    cuts = [frozenset(vertex(v) for v in S) for S in cert["cuts"]]
    everything = set(incident)
    used = 0
    for clause in cert["cnf"]:
        _require(
            all(0 < abs(x) <= len(edges) for x in clause), "a clause has an auxiliary variable"
        )
        if _degree_clause(clause, incident, ends_of) or (len(clause) == 1 and clause[0] in units):
            continue
        _require(used < len(cuts), f"clause {clause} is not a valid constraint")
        inside = cuts[used]
        used += 1
        _require(bool(inside) and inside < everything, "a cut set is empty or everything")
        crossing = {k for e, k in variable.items() if len(e & inside) == 1}
        _require(sorted(clause) == sorted(crossing), f"clause {clause} is not the cut of its set")
    from .drup import check_drup  # here, so that ``python -m knightgraph.certcheck.drup`` runs
    # a module its package has not imported already

    accepted, why = check_drup(cert["cnf"], cert["proof"])
    _require(accepted, f"the proof: {why}")
    return f"{len(cert['cnf'])} valid clauses; DRUP: {why}"


def _valid_units(variable: Mapping[frozenset[Any], int], closed: bool, ends: Any) -> set[int]:
    """Unit clauses every tour satisfies: the hub's edges to given ends, or the closing move."""
    start, end = ends
    if closed:
        if start is not None and end is not None and frozenset((start, end)) in variable:
            return {variable[frozenset((start, end))]}
        return set()
    return {variable[frozenset((s, "hub"))] for s in ends if s is not None}


def _degree_clause(
    clause: Sequence[int], incident: Mapping[Any, set[int]], ends_of: Mapping[int, frozenset[Any]]
) -> bool:
    """Part of "exactly two tour edges at a vertex": at least two, or at most two.

    Only the (at most two) vertices of the clause's first edge can be its vertex.
    """
    if not clause:
        return False
    literals = set(clause)
    for vertex in ends_of.get(abs(clause[0]), ()):
        edges = incident[vertex]
        if all(x > 0 for x in clause) and literals <= edges and len(literals) == len(edges) - 1:
            return True
        if len(literals) == 3 and all(x < 0 for x in clause) and {-x for x in literals} <= edges:
            return True
    return False


_CHECKS = {
    "tour": _check_tour,
    "colour-count": _check_colours,
    "degree": _check_degree,
    "schwenk-4xn": _check_partition,
    "forced-moves": _check_forced,
    "sat-refutation": _check_sat,
}
