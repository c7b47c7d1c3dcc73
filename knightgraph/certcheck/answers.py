"""Reading answers for the independent checker: ``python -m knightgraph.certcheck [FILE]``.

The input (a file, or standard input) holds one JSON answer, a list of them (``sample``)
or several, one a line (JSON lines: a batch checked in one process).  Each answer
describes its board, and every tour and certificate it carries is re-checked on it
(:mod:`knightgraph.certcheck.checker`, one check of each kind for every board):

* a rectangle: ``rows``, ``cols``, and ``leaper`` and ``removed`` (a ``--mask`` is its
  removed squares) when they differ from the knight and the whole board;
* a cylinder, a torus or a 3-D board (``wrap`` ``rows|cols|both``, ``levels``): its
  moves are recomputed here from those fields (a leaper ``(a, b)`` moves ``a`` and ``b``
  along two of the directions, ``(a, b, c)`` along all three; a wrapped direction is
  taken modulo its size; the levels never wrap), then checked as a graph; squares are
  ``[r, c]`` / ``[r, c, level]`` (0-based) or names (``a1``, ``a1:2``);
* a graph board (the API's networkx graphs, :func:`knightgraph.io.formats.result_to_dict`):
  ``vertices`` (names) and ``edges`` (pairs of names), checked as a graph;
* a knight's-tour number puzzle (``clues``): its solutions and refutations, the puzzle's
  CNF rebuilt from the puzzle (:mod:`knightgraph.certcheck.puzzles`);
* a magic tour (``magic``): its line sums, and its refutations, the CNF rebuilt from the
  board (:mod:`knightgraph.certcheck.magic`);
* a directed graph (:func:`knightgraph.solvers.directed.digraph_answer`): ``vertices`` and
  ``arcs`` (pairs of names); its cycle or path is checked arc by arc, a certificate on the
  split graph the checker builds from the arcs (:mod:`knightgraph.certcheck.digraphs`).

What is checked: ``certificate`` (a proof of absence, or ``{"kind": "tour", ...}`` in
``exists``), ``squares`` (a tour: ``tour``, each answer of ``sample``) and ``tours``
(``count --list``), against the request (``closed``, ``start``, ``end``).  The
summaries ``starts``, ``ends`` and ``table`` carry ``proofs``, the tour or certificate
behind each cell: each is checked against the request it stands for, and the map's
``ok`` (the table's ``codes``) against them (:mod:`knightgraph.certcheck.summaries`).
An answer that carries none of them (a count without ``--list``) is reported as having
nothing to check.

Exit codes: 0 every answer accepted; 1 one rejected (``rejected: ...``); 2 the input
cannot be read as answers (not JSON, nested too deeply, wrong types, missing keys,
sizes too large to check): one line on standard error, never a traceback.

Examples
--------
>>> check_answer({"rows": 3, "cols": 4, "wrap": "cols", "closed": True, "start": None,
...               "end": None, "squares": None, "certificate": {"kind": "colour-count",
...               "side": []}})  # an empty side is not a colouring of the cylinder
(False, 'edge a1-b3 joins two vertices of one class')
>>> check_answer({"rows": 1, "cols": 1, "squares": [[0, 0]]})
(True, 'tour: a verified tour of 1 squares')
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from .adjacency import Graph, Malformed, Rectangle, parse_square, square_name
from .checker import check as check_on

__all__ = ["check_answer", "check_text", "main"]

MAX_GRAPH_SQUARES = 1_000_000
"""Most squares of a cylinder, torus or 3-D board the checker builds (knightgraph's take
at most 250,000)."""

WRAPS = ("rows", "cols", "both")


def main(argv: Sequence[str] | None = None) -> int:
    """Check every answer in a file (``argv[0]``) or standard input; print one verdict line
    per answer; return 0 (all accepted), 1 (one rejected) or 2 (unreadable, on stderr).

    Examples
    --------
    >>> import json, os, tempfile
    >>> answer = {"rows": 7, "cols": 7, "closed": True, "certificate": {
    ...     "kind": "colour-count", "clause": "closed-needs-balance", "counts": [25, 24]}}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "7x7.json")
    ...     with open(path, "w", encoding="utf-8") as f:
    ...         _ = f.write(json.dumps(answer) + "\\n" + json.dumps({**answer, "rows": 8}))
    ...     main([path])
    accepted: colour-count: 7x7 has 25 squares of one colour and 24 of the other
    rejected: colour-count: the counts are [28, 28], not [25, 24]
    1
    >>> main([os.path.join(folder, "gone.json")])  # the reason goes to standard error
    2
    """
    from ..running.disk import read_input

    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if len(args) > 1:
            raise Malformed(f"one file at most, not {len(args)}: {' '.join(args)[:80]}")
        raw = read_input(args[0] if args else None, "answer")
        verdicts = check_text(raw)
    except Exception as err:  # every failure to read is one line, exit 2
        print(f"cannot read an answer: {_one_line(err)}", file=sys.stderr)
        return 2
    for accepted, why in verdicts:
        print(("accepted: " if accepted else "rejected: ") + why)
    return 0 if all(accepted for accepted, _ in verdicts) else 1


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def check_text(raw: bytes | str) -> list[tuple[bool, str]]:
    """The verdict on each answer of a text: one JSON value, a list of answers, or JSON
    lines; raises :class:`~knightgraph.certcheck.Malformed` when it cannot be read.

    Examples
    --------
    >>> check_text('{"rows": 1, "cols": 1, "squares": [[0, 0]]}\\n[{"rows": 2, "cols": 2}]')
    [(True, 'tour: a verified tour of 1 squares'), (True, 'nothing to check: the answer carries no tour and no certificate')]
    >>> check_text('[[[')
    Traceback (most recent call last):
    ...
    knightgraph.certcheck.adjacency.Malformed: not JSON at line 1 column 4: Expecting value
    """
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise Malformed("not UTF-8 text") from None
    decoder = json.JSONDecoder()
    answers: list[Any] = []
    at = 0
    while True:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        if at == len(text):
            break
        try:
            value, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as err:
            raise Malformed(
                f"not JSON at line {err.lineno} column {err.colno}: {err.msg}"
            ) from None
        except RecursionError:
            raise Malformed("the JSON is nested too deeply") from None
        answers.extend(value if isinstance(value, list) else [value])
    if not answers:
        raise Malformed("no answer in the input")
    return [check_answer(answer) for answer in answers]


def check_answer(answer: Any) -> tuple[bool, str]:
    """The verdict on one answer (its JSON as a dict): every tour and certificate it
    carries, checked on the board it describes, and what it says (``exists``, ``status``)
    against what it carries; raises :class:`~knightgraph.certcheck.Malformed` for one
    that cannot be read.

    Examples
    --------
    >>> check_answer({"rows": 2, "cols": 2, "levels": 2, "squares": ["a1:1"]})
    (False, 'tour: 1 squares for 8')
    >>> check_answer({"vertices": ["x", "y"], "edges": [], "exists": False,
    ...               "certificate": {"kind": "connectivity", "component": ["x"]}})
    (True, 'connectivity: no edge joins 1 vertices to the other 1')
    >>> check_answer({"rows": 3, "cols": "4"})  # nothing to check, but a malformed board
    (True, 'nothing to check: the answer carries no tour and no certificate')
    >>> check_answer({"rows": 3, "cols": "4", "squares": []})
    Traceback (most recent call last):
    ...
    knightgraph.certcheck.adjacency.Malformed: invalid 'cols': '4'
    """
    if not isinstance(answer, Mapping):
        raise Malformed(f"an answer is a JSON object, not {_kind(answer)}")
    if "magic" in answer:  # a magic tour: its sums, its refutations
        from .magic import check_magic_answer

        return check_magic_answer(answer)
    if "clues" in answer:  # a knight's-tour number puzzle: its own checks
        from .puzzles import check_puzzle_answer

        return check_puzzle_answer(answer)
    if "symmetric" in answer:  # a symmetric tour, or none: the symmetry checked too
        from .symmetric import check_symmetric_answer

        return check_symmetric_answer(answer)
    if "proofs" in answer:  # starts, ends, table: the evidence of every cell
        from .summaries import check_summary

        return check_summary(answer, _board)
    closed = answer.get("closed")
    _expect(closed is None or isinstance(closed, bool), "closed", closed)
    ends = [answer.get(key) for key in ("start", "end")]
    for key, value in zip(("start", "end"), ends, strict=True):
        _expect(value is None or isinstance(value, str), key, value)
    items = _items(answer)
    says = _claim(answer)
    for item in items:  # what the answer says agrees with what it carries
        tour = item.get("kind") == "tour"
        if says is not None and says != tour:
            claim = "a tour exists" if says else "there is no tour"
            return False, f"the answer says {claim}, but carries a {_kind(item.get('kind'))} proof"
    if says is False and not items and "directed" not in answer:  # an exhaustive count: 0
        return False, "the answer says there is no tour, but carries no certificate"
    if not items:
        return True, "nothing to check: the answer carries no tour and no certificate"
    board = _board(answer)
    verdicts: list[tuple[bool, str]] = []
    for item in items:
        try:
            verdicts.append(board(item, bool(closed), ends[0], ends[1]))
        except Malformed:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            raise Malformed(f"a {_kind(item.get('kind'))} certificate: {err!r}") from None
        if not verdicts[-1][0]:
            return verdicts[-1]
    if len(verdicts) == 1:
        return verdicts[0]
    return True, f"{verdicts[0][1]} (the first of {len(verdicts)}, each accepted)"


def _claim(answer: Mapping[str, Any]) -> bool | None:
    """What the answer says: a tour exists (True), none does (False), or nothing (None)."""
    exists = answer.get("exists", ...)
    if exists is not ...:
        return exists if isinstance(exists, bool) else None
    return {"found": True, "proven_absent": False}.get(str(answer.get("status")))


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return repr(value[:40])
    return {dict: "an object", list: "a list", bool: "a boolean", type(None): "null"}.get(
        type(value), f"a {type(value).__name__}"
    )


def _expect(condition: bool, key: str, value: Any) -> None:
    if not condition:
        raise Malformed(f"invalid {key!r}: {_kind(value)}")


def _items(answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The tours and certificates an answer carries, each as a certificate."""
    items: list[dict[str, Any]] = []
    cert = answer.get("certificate")
    _expect(cert is None or isinstance(cert, Mapping), "certificate", cert)
    if cert is not None:
        items.append(dict(cert))
    squares = answer.get("squares")
    _expect(squares is None or isinstance(squares, list), "squares", squares)
    if squares is not None:
        items.append({"kind": "tour", "squares": squares})
    tours = answer.get("tours")
    _expect(tours is None or isinstance(tours, list), "tours", tours)
    for tour in tours or ():
        _expect(isinstance(tour, list), "tours", tour)
        items.append({"kind": "tour", "squares": tour})
    return items


def _whole(answer: Mapping[str, Any], key: str, *, default: Any = ...) -> Any:
    value = answer.get(key, None if default is ... else default)
    if value is None and default is not ...:
        return default
    _expect(isinstance(value, int) and not isinstance(value, bool) and value >= 1, key, value)
    return value


def _leaper(answer: Mapping[str, Any], most: int) -> list[int]:
    leaper = answer.get("leaper", [1, 2])
    _expect(isinstance(leaper, list) and 2 <= len(leaper) <= most, "leaper", leaper)
    _expect(all(isinstance(x, int) and not isinstance(x, bool) for x in leaper), "leaper", leaper)
    _expect(all(0 <= x < 1 << 62 for x in leaper) and any(leaper), "leaper", leaper)
    return list(leaper)


def _board(answer: Mapping[str, Any]) -> Any:
    """The check of one item on the answer's board: ``check(item, closed, start, end)``."""
    if "arcs" in answer:  # a directed graph: its own checks, and its split graph
        from .digraphs import digraph_board

        return digraph_board(answer)
    if isinstance(answer.get("vertices"), list) or "edges" in answer:
        build, square, size = _graph(answer)
    elif answer.get("wrap") is not None or answer.get("levels") is not None:
        build, square, size = _topology(answer)
    else:
        build, square, size = _rectangle(answer)
    built: list[Any] = []

    def board() -> Any:
        if not built:  # the moves, only once there is something to check with them
            built.append(build())
        return built[0]

    def check(item: dict[str, Any], closed: bool, start: str | None, end: str | None) -> Any:
        if item.get("kind") == "tour":
            squares = _list(item.get("squares"))
            if size is not None and len(squares) != size:
                return False, f"tour: {len(squares)} squares for {size}"
            item = {**item, "squares": [square(s) for s in squares]}
        return check_on(item, board, closed, start, end)

    return check


def _rectangle(answer: Mapping[str, Any]) -> tuple[Any, Any, None]:
    """A rectangle: ``rows``, ``cols``, ``leaper``, ``removed``; squares ``[r, c]`` or names."""
    m, n = _whole(answer, "rows"), _whole(answer, "cols")
    leaper = _leaper(answer, 2)
    removed = answer.get("removed", [])
    _expect(isinstance(removed, list), "removed", removed)
    _expect(all(isinstance(x, str) for x in removed), "removed", removed)
    gone = {parse_square(x) for x in removed}
    _expect(len(gone) == len(removed), "removed", removed)
    _expect(all(0 <= r < m and 0 <= c < n for r, c in gone), "removed", removed)

    def pair(square: Any) -> Any:
        if isinstance(square, str):
            return parse_square(square)
        _expect(isinstance(square, list) and len(square) == 2, "square", square)
        _expect(
            all(isinstance(x, int) and not isinstance(x, bool) for x in square), "square", square
        )
        return tuple(square)

    return (lambda: Rectangle(m, n, leaper, removed)), pair, None


def _list(value: Any) -> list[Any]:
    _expect(isinstance(value, list), "squares", value)
    return list(value)


def _graph(answer: Mapping[str, Any]) -> tuple[Any, Any, None]:
    """A graph board: ``vertices`` (names) and ``edges`` (pairs of names)."""
    vertices: Any = answer.get("vertices")
    edges: Any = answer.get("edges")
    _expect(isinstance(vertices, list) and bool(vertices), "vertices", vertices)
    _expect(all(isinstance(v, str) for v in vertices), "vertices", vertices)
    _expect(isinstance(edges, list), "edges", edges)
    for edge in edges:
        _expect(isinstance(edge, list) and len(edge) == 2, "edges", edge)
        _expect(all(isinstance(v, str) for v in edge), "edges", edge)

    def named(square: Any) -> str:
        _expect(isinstance(square, str), "square", square)
        return str(square)

    return (lambda: Graph(vertices, edges)), named, None


def _topology(answer: Mapping[str, Any]) -> tuple[Any, Any, int]:
    """A cylinder, torus or 3-D board: its vertices and moves, recomputed here."""
    m, n = _whole(answer, "rows"), _whole(answer, "cols")
    levels = _whole(answer, "levels", default=None)
    wrap = answer.get("wrap")
    _expect(wrap is None or wrap in WRAPS, "wrap", wrap)
    dims = 2 if levels is None else 3
    leaper = _leaper(answer, dims)
    k = 1 if levels is None else levels
    if m * n * k > MAX_GRAPH_SQUARES:
        raise Malformed(f"a board of {m * n * k:,} squares is too large to check here")
    cells = [(r, c, lv) for r in range(m) for c in range(n) for lv in range(k)]
    label = {
        cell: square_name(cell[:2]) + ("" if levels is None else f":{cell[2] + 1}")
        for cell in cells
    }

    def named(square: Any) -> str:
        if isinstance(square, str):
            return square
        _expect(isinstance(square, list) and len(square) == dims, "square", square)
        _expect(
            all(isinstance(x, int) and not isinstance(x, bool) for x in square), "square", square
        )
        cell = (square[0], square[1], square[2] if dims == 3 else 0)
        _expect(cell in label, "square", square)
        return label[cell]

    def build() -> Graph:
        steps = leaper + [0] * (dims - len(leaper))
        return Graph(label.values(), _moves(cells, label, steps, (m, n, k), wrap))

    return build, named, len(cells)


def _moves(
    cells: list[tuple[int, int, int]],
    label: Mapping[tuple[int, int, int], str],
    steps: list[int],
    size: tuple[int, int, int],
    wrap: str | None,
) -> list[list[str]]:
    """The edges of a cylinder, torus or 3-D board: every move of the leaper (its
    ``steps``, one per direction, 0 padded, permuted and signed over the 2 or 3 directions), wrapped directions taken modulo their
    size, levels never wrapped; a move to its own square, or off the board, is none."""
    m, n, k = size
    dims = len(steps)
    offsets = {
        tuple(sign * x for sign, x in zip(signs, perm, strict=True)) + (0,) * (3 - dims)
        for perm in itertools.permutations(steps)
        for signs in itertools.product((1, -1), repeat=dims)
    }
    edges = set()
    for cell in cells:
        for dr, dc, dl in offsets:
            r, c, lv = cell[0] + dr, cell[1] + dc, cell[2] + dl
            r = r % m if wrap in ("rows", "both") else r
            c = c % n if wrap in ("cols", "both") else c
            if 0 <= r < m and 0 <= c < n and 0 <= lv < k and (r, c, lv) != cell:
                edges.add(tuple(sorted((label[cell], label[(r, c, lv)]))))
    return [list(edge) for edge in sorted(edges)]
