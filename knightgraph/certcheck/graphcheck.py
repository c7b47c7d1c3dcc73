"""The independent checker of certificates of absence on general graphs (standard library only).

The twin of :mod:`knightgraph.certcheck` for graph boards (any graph, tori,
cylinders, 3-D boards): it receives the graph as it was asked about (vertex names
and edges as pairs of names) and the request, and re-derives every fact the
certificate relies on, trusting nothing the solver computed.

Certificate kinds and what is re-checked:

``tour``
    ``squares`` (vertex names) is a tour answering the request: every vertex once,
    each step an edge, the closing step too for a closed tour (of three or more
    vertices), and the required start and end.
``colour-count``
    ``side`` lists one class of a 2-colouring: every edge must join the class to
    its complement.  A tour alternates classes, so a closed tour needs equal
    classes; an open one classes differing by at most one, a larger class
    holding both ends, equal classes ends of opposite classes.
``degree``
    recomputed from the edges: a vertex of degree below two rules out a closed
    tour (``vertices`` names one); a vertex of degree 0 rules out an open tour
    of two or more vertices; more than two vertices that must be ends (degree
    1, or required ends) rule out an open tour; a closed tour from ``start``
    to ``end`` needs the edge between them; fewer than three vertices have no
    closed tour.
``connectivity``
    ``component`` is a non-empty proper set of vertices that no edge leaves.
``sat-refutation``
    the variables are exactly the edges (plus the hub's edges of an open tour:
    to both ends when both are given, else to every vertex; the hub is
    ``null``), every clause is one that every tour satisfies (exactly two tour
    edges at a vertex, the empty clause when a vertex has fewer than two edges, a
    required end, or "some edge leaves S" for the next listed cut set ``S``), and the DRUP proof (:mod:`knightgraph.certcheck.drup`) refutes
    the clauses.

Examples
--------
>>> square = ["a", "b", "c", "d"]
>>> edges = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "a"], ["a", "c"]]
>>> check_graph_certificate({"kind": "degree", "vertices": ["a", "b", "c"]},
...                         square, edges, closed=False)[0]  # no vertex of degree 1 here
False
>>> star = [["a", "b"], ["a", "c"], ["a", "d"]]
>>> check_graph_certificate({"kind": "degree", "vertices": ["b", "c", "d"]}, square, star)
(True, 'degree: b, c, d must all be ends of an open tour')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["check_graph_certificate", "check_graph_request"]


class _Rejected(Exception):
    pass


def _require(condition: bool, why: str) -> None:
    if not condition:
        raise _Rejected(why)


def check_graph_certificate(
    certificate: Mapping[str, Any],
    vertices: Sequence[str],
    edges: Sequence[Sequence[str]],
    *,
    closed: bool = False,
    start: str | None = None,
    end: str | None = None,
) -> tuple[bool, str]:
    """Re-check a certificate that the graph has no tour answering the request.

    Parameters
    ----------
    certificate : mapping
        The certificate's JSON (``kind`` and its data).
    vertices : sequence of str
        The vertex names.
    edges : sequence of pairs of str
        The edges, by vertex names.
    closed : bool
    start, end : str, optional
        Required ends, by name.

    Returns
    -------
    (bool, str)
        Accepted or not, and why.

    Examples
    --------
    >>> path = ["x", "y", "z"]
    >>> check_graph_certificate({"kind": "colour-count", "side": ["y"]}, path,
    ...                         [["x", "y"], ["y", "z"]], closed=False, start="y")
    (True, 'colour-count: the classes have 1 and 2 vertices; an open tour must start and end in the larger')
    """
    try:
        return check_graph_request(
            certificate, vertices, edges, closed=closed, start=start, end=end
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        return False, f"malformed certificate: {err!r}"


def check_graph_request(
    certificate: Mapping[str, Any],
    vertices: Sequence[str],
    edges: Sequence[Sequence[str]],
    *,
    closed: bool = False,
    start: str | None = None,
    end: str | None = None,
) -> tuple[bool, str]:
    """:func:`check_graph_certificate`, but data it cannot read raises (``KeyError``,
    ``TypeError``, ``ValueError``, ...) instead of rejecting.

    Examples
    --------
    >>> check_graph_request({"kind": "tour", "squares": ["x", "y", "z"]}, ["x", "y", "z"],
    ...                     [["x", "y"], ["y", "z"]], start="x")
    (True, 'tour: a verified tour of 3 vertices')
    >>> check_graph_request({"kind": "tour", "squares": ["x", "z", "y"]}, ["x", "y", "z"],
    ...                     [["x", "y"], ["y", "z"]])
    (False, 'step 1 x-z is not an edge')
    >>> check_graph_request({"kind": "connectivity", "component": 3}, ["x"], [])
    Traceback (most recent call last):
    ...
    TypeError: 'int' object is not iterable
    """
    try:
        names = list(vertices)
        _require(len(set(names)) == len(names) > 0, "the vertex names are not unique")
        known = set(names)
        adj: dict[str, set[str]] = {v: set() for v in names}
        for edge in edges:
            _require(len(edge) == 2, f"edge {edge!r} does not have two ends")
            u, v = edge
            _require(u in known and v in known and u != v, f"edge {edge!r} is not an edge")
            adj[u].add(v)
            adj[v].add(u)
        for s in (start, end):
            _require(s is None or s in known, f"the end {s!r} is not a vertex")
        _require(
            start is None or start != end or len(names) == 1,  # one vertex: its own tour
            "the start and the end are the same vertex",
        )
        kind = certificate.get("kind")
        check = _CHECKS.get(str(kind))
        _require(check is not None, f"unknown certificate kind {kind!r}")
        assert check is not None
        why = check(certificate, adj, closed, (start, end))
    except _Rejected as rejected:
        return False, str(rejected)
    return True, f"{kind}: {why}"


def _check_tour(cert: Mapping[str, Any], adj: dict[str, set[str]], closed: bool, ends: Any) -> str:
    squares = list(cert["squares"])
    _require(all(isinstance(v, str) for v in squares), "a square is not a vertex name")
    _require(len(squares) == len(adj), f"{len(squares)} squares for {len(adj)} vertices")
    _require(set(squares) == set(adj), "does not visit every vertex once")
    steps = list(zip(squares, squares[1:] + squares[:1] if closed else squares[1:], strict=False))
    for k, (u, v) in enumerate(steps):
        _require(v in adj[u], f"step {k + 1} {u}-{v} is not an edge")
    _require(not closed or len(squares) > 2, "fewer than three vertices make no cycle")
    for want, got, what in ((ends[0], squares[0], "start"), (ends[1], squares[-1], "end")):
        _require(want is None or want == got, f"the {what} is {got}, not {want}")
    return f"a verified tour of {len(squares)} vertices"


def _check_colours(
    cert: Mapping[str, Any], adj: dict[str, set[str]], closed: bool, ends: Any
) -> str:
    side = set(cert["side"])
    _require(side <= set(adj), "the colour class names a vertex that is not in the graph")
    for u, around in adj.items():
        for v in sorted(around):  # the same message on every run
            _require((u in side) != (v in side), f"edge {u}-{v} joins two vertices of one class")
    a, b = len(side), len(adj) - len(side)
    given = [s for s in ends if s is not None]
    if closed:
        _require(a != b, "the classes are equal")
        return f"the classes have {a} and {b} vertices; a closed tour needs equal classes"
    if abs(a - b) > 1:
        return f"the classes have {a} and {b} vertices; a tour needs them within one"
    if a == b:
        _require(len(given) == 2, "equal classes and fewer than two ends given")
        _require((given[0] in side) == (given[1] in side), "the ends are of opposite classes")
        return f"the classes are equal ({a}); the ends of an open tour are of opposite classes"
    larger = side if a > b else set(adj) - side
    _require(any(s not in larger for s in given), "every given end is in the larger class")
    return (
        f"the classes have {min(a, b)} and {max(a, b)} vertices; "
        "an open tour must start and end in the larger"
    )


def _check_degree(
    cert: Mapping[str, Any], adj: dict[str, set[str]], closed: bool, ends: Any
) -> str:
    start, end = ends
    named = list(cert.get("vertices", []))
    _require(all(v in adj for v in named), "the certificate names a vertex not in the graph")
    if closed:
        if len(adj) < 3:
            return f"a closed tour needs three vertices, the graph has {len(adj)}"
        if start is not None and end is not None and end not in adj[start]:
            return f"a closed tour from {start} to {end} needs the edge between them"
        _require(len(named) == 1 and len(adj[named[0]]) < 2, "no named vertex of degree below 2")
        return f"{named[0]} has {len(adj[named[0]])} edges; a closed tour needs two"
    _require(len(adj) >= 2, "a single vertex is an open tour")
    if len(named) == 1:
        _require(not adj[named[0]], f"{named[0]} has edges")
        return f"{named[0]} has no edge"
    musts = {v for v in adj if len(adj[v]) == 1} | {s for s in ends if s is not None}
    _require(len(set(named)) == len(named) > 2, "fewer than three vertices named")
    _require(set(named) <= musts, "a named vertex need not be an end")
    return f"{', '.join(named)} must all be ends of an open tour"


def _check_component(
    cert: Mapping[str, Any], adj: dict[str, set[str]], closed: bool, ends: Any
) -> str:
    del closed, ends
    part = set(cert["component"])
    _require(bool(part) and part < set(adj), "the component is empty, the whole graph or foreign")
    for u in sorted(part):  # the same message on every run
        _require(adj[u] <= part, f"an edge leaves the component at {u}")
    return f"no edge joins {len(part)} vertices to the other {len(adj) - len(part)}"


def _check_sat(cert: Mapping[str, Any], adj: dict[str, set[str]], closed: bool, ends: Any) -> str:
    start, end = ends
    hub: Any = None
    variables = [frozenset(edge) for edge in cert["edges"]]
    expected: set[frozenset[Any]] = {frozenset((u, v)) for u in adj for v in adj[u]}
    if not closed:
        allowed = [start, end] if start is not None and end is not None else list(adj)
        expected |= {frozenset((s, hub)) for s in allowed}
    _require(all(len(e) == 2 for e in variables), "a variable is a loop")
    _require(len(set(variables)) == len(variables), "an edge has two variables")
    _require(set(variables) == expected, "the variables are not the graph's edges")
    number = {e: k + 1 for k, e in enumerate(variables)}
    incident: dict[Any, set[int]] = {}
    for e, k in number.items():
        for v in e:
            incident.setdefault(v, set()).add(k)
    units: set[int] = set()
    if closed and start is not None and end is not None:
        units = {number[frozenset((start, end))]} if end in adj[start] else set()
    if not closed:
        units = {number[frozenset((s, hub))] for s in ends if s is not None}
    cuts = [frozenset(s) for s in cert["cuts"]]
    everything = set(incident)
    used = 0
    for clause in cert["cnf"]:
        _require(all(0 < abs(x) <= len(variables) for x in clause), "an auxiliary variable")
        lits = set(clause)
        if any(_degree_part(lits, incident[v]) for v in _vertices_of(clause, variables)):
            continue
        if len(clause) == 1 and clause[0] in units:
            continue
        if not clause and any(len(incident.get(v, ())) < 2 for v in [*adj, *[hub][: not closed]]):
            continue  # "exactly two" at a vertex with fewer than two edges
        _require(used < len(cuts), f"clause {clause} is not a valid constraint")
        inside = cuts[used]
        used += 1
        _require(bool(inside) and inside < everything, "a cut set is empty or everything")
        crossing = {k for e, k in number.items() if len(e & inside) == 1}
        _require(lits == crossing and len(lits) == len(clause), f"{clause} is not a cut")
    if any(not clause for clause in cert["cnf"]):  # a valid empty clause refutes by itself
        return f"{len(cert['cnf'])} valid clauses, the empty clause among them"
    from .drup import check_drup  # here, so that ``python -m knightgraph.certcheck.drup`` runs
    # a module its package has not imported already

    accepted, why = check_drup(cert["cnf"], cert["proof"])
    _require(accepted, f"the proof: {why}")
    return f"{len(cert['cnf'])} valid clauses; DRUP: {why}"


def _vertices_of(clause: Sequence[int], variables: Sequence[frozenset[Any]]) -> frozenset[Any]:
    """The vertices a degree clause can belong to: the ends of its first variable."""
    return variables[abs(clause[0]) - 1] if clause else frozenset()


def _degree_part(literals: set[int], edges: set[int]) -> bool:
    """Part of "exactly two of ``edges``": every one but one (at least two), or no three."""
    if all(x > 0 for x in literals) and literals <= edges and len(literals) == len(edges) - 1:
        return True
    return len(literals) == 3 and all(x < 0 for x in literals) and {-x for x in literals} <= edges


_CHECKS = {
    "tour": _check_tour,
    "colour-count": _check_colours,
    "degree": _check_degree,
    "connectivity": _check_component,
    "sat-refutation": _check_sat,
}
