"""The independent certificate checker: one check of each certificate kind, for every
board (:mod:`knightgraph.certcheck.adjacency`: a rectangle or any graph).

Every "no tour" that knightgraph reports carries a certificate; this module re-checks
one from its data alone, without the code that produced it (standard library only;
SAT refutations through the independent DRUP checker, :mod:`knightgraph.certcheck.drup`):

``tour``
    every vertex once, each step a move (the closing one too for a closed tour of three
    or more vertices), the ends asked for.
``colour-count``
    a tour alternates the classes of a 2-colouring: ``side`` (one class, checked against
    every edge) or, on a rectangle, ``clause`` and ``counts`` (its squares' colours, none
    enumerated); the class sizes and the colours of the ends against what a tour needs.
``degree``
    the degrees of the vertices named: ``clause`` (``low-degree``, ``degree-one``,
    ``closing-move``, ``disconnected``) or ``vertices`` (below two for a closed tour, none
    for an open one, more than two that must be ends); three vertices and the edge
    between given ends for a closed tour.
``connectivity``
    ``component`` is a non-empty proper set of vertices that no edge leaves.
``schwenk-4xn``, ``forced-moves`` (they need a rectangle's coordinates)
    the outer lines of a 4 x n board hold half the squares, both colours and no move
    between two of them; or the forced-move rules of an open tour between the given
    ends, replayed at the squares named, reach a contradiction (work proportional to
    the squares named, whatever the board's length).
``sat-refutation``
    the variables are exactly the moves (plus the hub's edges of an open tour), every
    clause one every tour satisfies (exactly two tour edges at a vertex, the empty
    clause at a vertex with fewer than two edges, a required end, or "some edge leaves
    S" for the next listed set S), and the DRUP proof refutes the clauses.

Run it on the JSON of any answer (:mod:`knightgraph.certcheck.answers`)::

    knightgraph exists 4 4 --format json | python -m knightgraph.certcheck

Examples
--------
>>> check_certificate({"kind": "colour-count", "clause": "closed-needs-balance",
...                    "counts": [25, 24]}, 8, 8, closed=True)[0]
False
>>> star = [["a", "b"], ["a", "c"], ["a", "d"]]
>>> check_graph_certificate({"kind": "degree", "vertices": ["b", "c", "d"]}, "abcd", star)
(True, 'degree: b, c, d must all be ends of an open tour')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .adjacency import (
    Graph,
    Rectangle,
    Rejected,
    Square,
    colour,
    parse_square,
    require,
    square_name,
)

__all__ = ["check", "check_certificate", "check_graph_certificate", "check_request"]

_MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)


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
    """Re-check a certificate (its JSON form) for the request on a rectangle;
    ``(accepted, why)``.

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
    except _MALFORMED as err:
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
    return check(certificate, lambda: Rectangle(m, n, leaper, removed), closed, start, end)


def check_graph_certificate(
    certificate: Mapping[str, Any],
    vertices: Sequence[str],
    edges: Sequence[Sequence[str]],
    *,
    closed: bool = False,
    start: str | None = None,
    end: str | None = None,
) -> tuple[bool, str]:
    """Re-check a certificate that the graph (vertex names, edges as pairs of names) has
    no tour answering the request; ``(accepted, why)``.

    Examples
    --------
    >>> path = ["x", "y", "z"]
    >>> check_graph_certificate({"kind": "colour-count", "side": ["y"]}, path,
    ...                         [["x", "y"], ["y", "z"]], closed=False, start="y")
    (True, 'colour-count: the classes have 1 and 2 vertices; an open tour must start and end in the larger')
    >>> square = ["a", "b", "c", "d"]
    >>> edges = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "a"], ["a", "c"]]
    >>> check_graph_certificate({"kind": "degree", "vertices": ["a", "b", "c"]},
    ...                         square, edges, closed=False)[0]  # no vertex of degree 1 here
    False
    >>> check_graph_certificate({"kind": "tour", "squares": ["x", "z", "y"]}, path,
    ...                         [["x", "y"], ["y", "z"]])
    (False, 'step 1 x-z is not an edge')
    """
    try:
        return check(certificate, lambda: Graph(vertices, edges), closed, start, end)
    except _MALFORMED as err:
        return False, f"malformed certificate: {err!r}"


def check(
    certificate: Mapping[str, Any],
    board_of: Callable[[], Graph],
    closed: bool,
    start: str | None,
    end: str | None,
) -> tuple[bool, str]:
    """The verdict on a certificate for a request on the board ``board_of()`` builds (a
    board it cannot build rejects it); data it cannot read raises (``KeyError``,
    ``TypeError``, ``ValueError``, ...: the command line's exit 2) instead of rejecting.

    Examples
    --------
    >>> check({"kind": "tour", "squares": [[0, 0], [0, 1]]}, lambda: Rectangle(1, 2, (0, 1), ()),
    ...       False, None, "a1")
    (False, 'tour: the end is not the one asked for')
    >>> check({"kind": "connectivity", "component": 3}, lambda: Graph(["x"], []), False, None, None)
    Traceback (most recent call last):
    ...
    TypeError: 'int' object is not iterable
    """
    tag = ""
    try:
        board = board_of()
        ends = board.ends(start, end)
        kind = certificate.get("kind")
        if not isinstance(kind, str) or kind not in board.kinds:
            return False, board.words["unknown"].format(kind=kind)
        tag = f"{kind}: " if board.tagged else ""
        return True, f"{kind}: " + _CHECKS[kind](certificate, board, closed, ends)
    except Rejected as why:
        return False, f"{tag}{why}"


def _check_tour(cert: Mapping[str, Any], board: Graph, closed: bool, ends: Any) -> str:
    words = board.words
    squares = [board.square(s) for s in cert["squares"]]
    require(len(squares) == board.count, words["count"].format(got=len(squares), want=board.count))
    require(sorted(squares) == sorted(board.vertices), words["visit"])
    steps = zip(squares, squares[1:] + squares[:1] if closed else squares[1:], strict=False)
    for k, (u, v) in enumerate(steps):
        if v not in board.moves(u):
            raise Rejected(words["step"].format(k=k + 1, u=u, v=v))
    require(not closed or len(squares) > 2, words["cycle"])
    for want, got, what in ((ends[0], squares[0], "start"), (ends[1], squares[-1], "end")):
        require(want is None or want == got, words["end"].format(what=what, got=got, want=want))
    return words["done"].format(got=len(squares))


def _check_colours(cert: Mapping[str, Any], board: Graph, closed: bool, ends: Any) -> str:
    """A 2-colouring's classes: a rectangle's, from its squares' coordinates, or else the
    certificate's ``side`` (checked edge by edge)."""
    parity = board.parity()
    if parity is not None:
        return _colour_clause(cert, parity, closed, ends)
    side = set(cert["side"])
    vertices = board.vertices
    require(side <= set(vertices), "the colour class names a vertex that is not in the graph")
    for u in vertices:
        for v in sorted(board.moves(u)):  # the same message on every run
            require((u in side) != (v in side), f"edge {u}-{v} joins two vertices of one class")
    a, b = len(side), len(vertices) - len(side)
    given = [s for s in ends if s is not None]
    if closed:
        require(a != b, "the classes are equal")
        return f"the classes have {a} and {b} vertices; a closed tour needs equal classes"
    if abs(a - b) > 1:
        return f"the classes have {a} and {b} vertices; a tour needs them within one"
    if a == b:
        require(len(given) == 2, "equal classes and fewer than two ends given")
        require((given[0] in side) == (given[1] in side), "the ends are of opposite classes")
        return f"the classes are equal ({a}); the ends of an open tour are of opposite classes"
    larger = side if a > b else set(vertices) - side
    require(any(s not in larger for s in given), "every given end is in the larger class")
    return (
        f"the classes have {min(a, b)} and {max(a, b)} vertices; "
        "an open tour must start and end in the larger"
    )


def _colour_clause(cert: Mapping[str, Any], parity: Any, closed: bool, ends: Any) -> str:
    """The rectangle's colours: its counts and the named clause."""
    counts, colour, size = parity
    require(list(cert["counts"]) == counts, f"the counts are {counts}, not {cert['counts']}")
    zeros, ones = counts
    given = [colour(s) for s in ends if s is not None]
    clause = cert["clause"]
    if clause == "closed-needs-balance":
        require(closed and zeros != ones, "the counts balance")
        return f"{size} has {max(counts)} squares of one colour and {min(counts)} of the other"
    if clause == "open-needs-near-balance":
        require(abs(zeros - ones) > 1, "the counts differ by at most one")
        return f"{size} has {zeros} and {ones} squares of the two colours"
    if clause == "ends-differ":
        require(zeros == ones and len(given) == 2 and given[0] == given[1], "the ends differ")
        return "equal colour classes, and both ends have one colour"
    if clause == "ends-on-larger-class":
        larger = 0 if zeros > ones else 1
        require(
            abs(zeros - ones) == 1 and any(c != larger for c in given),
            "no end off the larger class",
        )
        return "an end lies on the smaller colour class"
    raise Rejected(f"unknown clause {clause!r}")


def _check_degree(cert: Mapping[str, Any], board: Graph, closed: bool, ends: Any) -> str:
    """Degrees: the named ``clause`` (a rectangle's), or the ``vertices`` named."""
    if "clause" in cert:
        return _degree_clause(cert, board, closed, ends)
    start, end = ends
    named = list(cert.get("vertices", []))
    require(all(board.on(v) for v in named), "the certificate names a vertex not in the graph")
    if closed:
        if board.count < 3:
            return f"a closed tour needs three vertices, the graph has {board.count}"
        if start is not None and end is not None and end not in board.moves(start):
            return f"a closed tour from {start} to {end} needs the edge between them"
        require(
            len(named) == 1 and len(board.moves(named[0])) < 2, "no named vertex of degree below 2"
        )
        return f"{named[0]} has {len(board.moves(named[0]))} edges; a closed tour needs two"
    require(board.count >= 2, "a single vertex is an open tour")
    if len(named) == 1:
        require(not board.moves(named[0]), f"{named[0]} has edges")
        return f"{named[0]} has no edge"
    musts = {v for v in board.vertices if len(board.moves(v)) == 1}
    musts |= {s for s in ends if s is not None}
    require(len(set(named)) == len(named) > 2, "fewer than three vertices named")
    require(set(named) <= musts, "a named vertex need not be an end")
    return f"{', '.join(named)} must all be ends of an open tour"


def _degree_clause(cert: Mapping[str, Any], board: Graph, closed: bool, ends: Any) -> str:
    clause = cert["clause"]
    total = board.count
    if clause == "low-degree":
        if "square" not in cert:
            require(closed and total == 1, "more than one square")
            return "a single square has no move back to itself"
        square = board.vertex(cert["square"])
        require(board.on(square), "the square is not on the board")
        degree = len(board.moves(square))
        require(degree == cert["degree"], f"the square has degree {degree}")
        require((degree == 0 and total > 1) or (closed and degree < 2), "the degree is enough")
        return f"{cert['square']} has {degree} moves"
    if clause == "degree-one":
        require(not closed, "the clause is for open tours")
        named = [board.vertex(s) for s in cert["squares"]]
        require(
            all(board.on(s) and len(board.moves(s)) == 1 for s in named),
            "a square has another degree",
        )
        given = {s for s in ends if s is not None}
        others = {s for s in named if s not in given}
        require(len(others) > 2 - len(given), "the squares of degree one can all be ends")
        return f"{len(others)} squares of degree one are not ends"
    if clause == "closing-move":
        s, t = ends
        require(closed and s is not None and t is not None, "no closed tour with both ends")
        require(t not in board.moves(s), "the end is one move from the start")
        return "the end is not one move from the start"
    if clause == "disconnected":
        a, b = (board.vertex(x) for x in cert["squares"])
        require(board.on(a) and board.on(b), "a named square is not on the board")
        board.require_small()
        require(b not in _reached(board, a), "the second square can be reached from the first")
        return f"{cert['squares'][1]} cannot be reached from {cert['squares'][0]}"
    raise Rejected(f"unknown clause {clause!r}")


def _reached(board: Graph, first: Any) -> set[Any]:
    """The vertices a walk from ``first`` reaches."""
    seen, queue = {first}, deque([first])
    while queue:
        for nxt in board.moves(queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _check_component(cert: Mapping[str, Any], board: Graph, closed: bool, ends: Any) -> str:
    del closed, ends
    part = set(cert["component"])
    vertices = set(board.vertices)
    require(bool(part) and part < vertices, "the component is empty, the whole graph or foreign")
    for u in sorted(part):  # the same message on every run
        require(board.moves(u) <= part, f"an edge leaves the component at {u}")
    return f"no edge joins {len(part)} vertices to the other {len(vertices) - len(part)}"


def _check_partition(cert: Mapping[str, Any], board: Rectangle, closed: bool, ends: Any) -> str:
    where = cert["partition"]
    lines = {"ranks 1 and 4": (0, board.m, board.n), "files a and d": (1, board.n, board.m)}
    require(where in lines, f"unknown partition {where!r}")
    axis, width, length = lines[where]
    require(width == 4, f"the board does not have four {where.split()[0]}")

    def outer(square: Square) -> bool:
        return square[axis] in (0, 3)

    # No move joins two outer squares: a jump changes the line by 0 or 3 in no case.
    require(
        all(abs(jump[axis]) not in (0, 3) for jump in board.jumps),
        "a move can join two outer squares",
    )
    outer_gone = sum(1 for s in board.removed if outer(s))
    require(
        2 * (2 * length - outer_gone) == board.count, "the outer lines do not hold half the squares"
    )
    colours = set()
    for k in range(min(length, len(board.removed) + 2)):
        square = (0, k) if axis == 0 else (k, 0)
        if board.on(square):
            colours.add(colour(square))
    require(colours == {0, 1}, "the outer lines do not show both colours")
    if closed:
        return "no closed tour (outer squares would alternate and share a colour)"
    require(any(s is not None and not outer(s) for s in ends), "both ends are outer squares")
    return "an open tour must start and end on the outer lines"


def _check_forced(cert: Mapping[str, Any], board: Rectangle, closed: bool, ends: Any) -> str:
    """Replay the rules at the named squares, in rounds until nothing changes."""
    s, t = ends
    require(not closed and s is not None and t is not None, "it needs an open tour with both ends")
    require(s != t and board.on(s) and board.on(t) and board.count >= 3, "the ends are not valid")
    named = [parse_square(x) for x in cert["squares"]]
    require(all(board.on(v) for v in named), "a named square is not on the board")
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
    raise Rejected("the rules reach no contradiction at the squares named")


def _check_sat(cert: Mapping[str, Any], board: Graph, closed: bool, ends: Any) -> str:
    hub, vertices, words = board.hub, board.vertices, board.words

    def vertex(name: Any) -> Any:
        return hub if name == hub else board.vertex(name)

    edges = [frozenset(vertex(v) for v in edge) for edge in cert["edges"]]
    expected = {frozenset((s, t)) for s in vertices for t in board.moves(s)}
    if not closed:
        start, end = ends
        allowed = [start, end] if start is not None and end is not None else vertices
        expected |= {frozenset((s, hub)) for s in allowed}
    require(all(len(e) == 2 for e in edges), words["loop"])
    require(len(set(edges)) == len(edges), "an edge has two variables")
    require(set(edges) == expected, words["moves"])
    variable = {e: k + 1 for k, e in enumerate(edges)}
    incident: dict[Any, set[int]] = {}
    for e, k in variable.items():
        for v in e:
            incident.setdefault(v, set()).add(k)
    pair = frozenset(ends)  # unit clauses: the closing move between given ends, or the
    units = {variable[pair]} if closed and pair in variable else set()  # hub's edges to them
    if not closed:
        units = {variable[frozenset((s, hub))] for s in ends if s is not None}
    short = any(len(incident.get(v, ())) < 2 for v in [*vertices, *[hub][: not closed]])
    cuts = [frozenset(vertex(v) for v in S) for S in cert["cuts"]]
    everything = set(incident)
    used = 0
    for clause in cert["cnf"]:
        require(all(0 < abs(x) <= len(edges) for x in clause), words["auxiliary"])
        valid = _is_degree_clause(clause, incident, edges) or board.allows(clause, edges)
        if valid or (len(clause) == 1 and clause[0] in units):
            continue
        if not clause and short:
            continue  # "exactly two" at a vertex with fewer than two edges
        require(used < len(cuts), f"clause {clause} is not a valid constraint")
        inside = cuts[used]
        used += 1
        require(bool(inside) and inside < everything, "a cut set is empty or everything")
        crossing = {k for e, k in variable.items() if len(e & inside) == 1}
        if sorted(clause) != sorted(crossing):
            raise Rejected(words["cut"].format(clause=clause))
    if any(not clause for clause in cert["cnf"]):  # a valid empty clause refutes by itself
        return f"{len(cert['cnf'])} valid clauses, the empty clause among them"
    from .drup import check_drup  # here, so that ``python -m knightgraph.certcheck.drup`` runs
    # a module its package has not imported already

    accepted, why = check_drup(cert["cnf"], cert["proof"])
    require(accepted, f"the proof: {why}")
    return f"{len(cert['cnf'])} valid clauses; DRUP: {why}"


def _is_degree_clause(
    clause: Sequence[int], incident: Mapping[Any, set[int]], edges: Sequence[frozenset[Any]]
) -> bool:
    """Part of "exactly two tour edges at a vertex": every one but one of its edges (at
    least two), or no three.  Only the ends of the clause's first edge can be its vertex."""
    if not clause:
        return False
    literals = set(clause)
    for vertex in edges[abs(clause[0]) - 1]:
        around = incident[vertex]
        if all(x > 0 for x in clause) and literals <= around and len(literals) == len(around) - 1:
            return True
        if len(literals) == 3 and all(x < 0 for x in clause) and {-x for x in literals} <= around:
            return True
    return False


_CHECKS: dict[str, Callable[[Mapping[str, Any], Any, bool, Any], str]] = {
    "tour": _check_tour,
    "colour-count": _check_colours,
    "degree": _check_degree,
    "connectivity": _check_component,
    "schwenk-4xn": _check_partition,
    "forced-moves": _check_forced,
    "sat-refutation": _check_sat,
}
