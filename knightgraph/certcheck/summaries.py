"""Checking the answers that summarise many searches: ``starts``, ``ends`` and ``table``.

Their JSON carries ``proofs``, the evidence behind every decided cell, and this module
(standard library only, like the rest of :mod:`knightgraph.certcheck`) re-checks each
proof against the request it stands for and the answer's claims against the proofs:

* a map (``starts``: ``start`` null; ``ends``: ``start`` the fixed first square): each
  proof ``{"square", "found", "squares" | "certificate"}`` is checked on the answer's board
  for a tour (``closed`` as the map) from that square (``starts``) or from ``start`` to
  it (``ends``); ``ok`` must say yes exactly where a proof has a tour, and every square
  it says no for (not removed, not the fixed start, not sampled out, not ``unknown``)
  needs a certificate;
* a table (``codes``): each board's ``evidence`` (``request`` ``closed``, ``closed minus
  a1`` or ``open`` on the knight's ``rows x cols`` board) is checked, the code is derived
  from it as the table derives it (``c`` a closed tour; else ``e`` the board minus a1
  has a closed tour; else ``o`` an open tour, ``x`` none; ``?`` when a search it needs
  is missing), and must be the code in ``codes``; every decided code needs its proofs.

Examples
--------
>>> board = lambda answer: (lambda item, closed, start, end: (True, "ok"))
>>> check_summary({"rows": 1, "cols": 2, "closed": False, "start": None,
...                "ok": [[True, False]], "unknown": [], "proofs": []}, board)
(False, 'starts: a1: ok says a tour starts here, but no proof is given')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from .adjacency import Malformed, parse_square, square_name

__all__ = ["check_summary"]

Check = Callable[[dict[str, Any], bool, "str | None", "str | None"], tuple[bool, str]]
BoardOf = Callable[[Mapping[str, Any]], Check]

REQUESTS = {"closed": (True, []), "closed minus a1": (True, ["a1"]), "open": (False, [])}
"""The searches of a table's cell: closedness and the squares removed from the board."""


def check_summary(answer: Mapping[str, Any], board_of: BoardOf) -> tuple[bool, str]:
    """The verdict on a ``starts``, ``ends`` (``ok``) or ``table`` (``codes``) answer and its
    ``proofs``; ``board_of(answer)`` gives the check of one item on a board
    (:func:`knightgraph.certcheck.answers._board`).

    Examples
    --------
    >>> anything = lambda answer: (lambda item, closed, start, end: (True, "accepted"))
    >>> check_summary({"rows": 1, "cols": 2, "closed": False, "start": None,
    ...                "ok": [[True, False]], "unknown": ["b1"], "proofs": [
    ...                    {"square": "a1", "found": True, "squares": ["a1", "b1"]}]}, anything)
    (True, 'starts: 1 squares proved (tours 1)')
    >>> check_summary({"rows": 1, "cols": 1, "codes": [["c"]], "proofs": []}, anything)
    (False, "table: 1x1: code 'c' without its proofs")
    """
    proofs: Any = answer.get("proofs")
    _expect(isinstance(proofs, list) and all(isinstance(p, Mapping) for p in proofs), "proofs")
    if "codes" in answer:
        return _check_table(answer, proofs, board_of)
    return _check_map(answer, proofs, board_of)


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise Malformed(f"invalid {what!r} in a summary")


def _item(proof: Mapping[str, Any]) -> tuple[bool, dict[str, Any]]:
    """A proof's claim (a tour exists) and its tour or certificate as a checkable item."""
    found = proof.get("found")
    _expect(isinstance(found, bool), "found")
    if found:
        _expect(isinstance(proof.get("squares"), list), "squares")
        return True, {"kind": "tour", "squares": proof["squares"]}
    cert: Any = proof.get("certificate")
    _expect(isinstance(cert, Mapping), "certificate")
    return False, dict(cert)


def _cells(answer: Mapping[str, Any]) -> tuple[dict[str, Any], set[str], Callable[[str], str]]:
    """The map's ``ok`` by square name, the squares that need no proof (removed), and the
    name the map gives a square (a grid's squares by any name: ``A1`` is ``a1``)."""
    ok: Any = answer.get("ok")
    if isinstance(ok, Mapping):  # a board of another topology: by name
        _expect(all(isinstance(k, str) for k in ok), "ok")
        return dict(ok), set(), str
    m: Any = answer.get("rows")
    n: Any = answer.get("cols")
    _expect(isinstance(m, int) and isinstance(n, int) and isinstance(ok, list), "ok")
    _expect(len(ok) == m and all(isinstance(row, list) and len(row) == n for row in ok), "ok")
    cells = {square_name((r, c)): ok[r][c] for r in range(m) for c in range(n)}
    removed = {square_name(parse_square(x)) for x in answer.get("removed") or ()}

    def named(square: str) -> str:
        try:
            name = square_name(parse_square(square))
        except (ValueError, IndexError):
            raise Malformed(f"invalid square {square[:40]!r} in a summary") from None
        _expect(name in cells, "square")
        return name

    return cells, removed, named


def _canonical(name: Any, cells: Mapping[str, Any], named: Callable[[str], str]) -> str:
    _expect(isinstance(name, str), "square")
    name = named(name)
    _expect(name in cells, "square")
    return str(name)


def _check_map(
    answer: Mapping[str, Any], proofs: list[Mapping[str, Any]], board_of: BoardOf
) -> tuple[bool, str]:
    start, closed = answer.get("start"), bool(answer.get("closed"))
    what = "starts" if start is None else "ends"
    if "rows" not in answer and not isinstance(answer.get("vertices"), list):
        raise Malformed(  # the API's map of a networkx graph: to_dict() has no edges
            "a map of a graph without its vertices and edges (add "
            "knightgraph.io.formats.board_fields(map.board) to its to_dict())"
        )
    check = board_of(answer)  # the board's fields, checked before they are used
    cells, removed, named = _cells(answer)
    unknown = answer.get("unknown") or []
    _expect(isinstance(unknown, list) and all(isinstance(u, str) for u in unknown), "unknown")
    proved: dict[str, bool] = {}
    for proof in proofs:
        square = _canonical(proof.get("square"), cells, named)
        found, _ = _item(proof)
        if square in proved:
            return False, f"{what}: {square}: two proofs"
        proved[square] = found
        if found != bool(cells[square]):
            says = "a tour" if cells[square] else "no tour"
            return False, f"{what}: {square}: ok says {says}, but the proof says the opposite"
    _expect(start is None or isinstance(start, str), "start")
    fixed = start if start is None else named(start)
    exempt = removed | {_canonical(u, cells, named) for u in unknown}
    if fixed is not None and len(cells) - len(removed) > 1:
        exempt.add(fixed)  # an ends map's start is no candidate (but on one square)
    for square, ok in cells.items():
        if ok is None or square in proved:
            continue
        if ok:
            verb = "starts" if what == "starts" else "ends"
            return False, f"{what}: {square}: ok says a tour {verb} here, but no proof is given"
        if square not in exempt:
            return False, f"{what}: {square}: ok says no tour, but no certificate is given"
    if not proofs:
        return True, f"nothing to check: {what} decided no square"
    kinds: Counter[str] = Counter()
    for proof in proofs:
        square = _canonical(proof.get("square"), cells, named)
        found, item = _item(proof)
        ends = (square, None) if fixed is None else (start, proof.get("square"))
        accepted, why = _checked(check, item, closed, ends)
        if not accepted:
            return False, f"{what}: {square}: {why}"
        kinds["tours" if found else str(item.get("kind"))] += 1
    return True, f"{what}: {len(proofs)} squares proved ({_tally(kinds)})"


def _checked(check: Check, item: dict[str, Any], closed: bool, ends: Any) -> tuple[bool, str]:
    try:
        return check(item, closed, ends[0], ends[1])
    except Malformed:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise Malformed(f"a {str(item.get('kind'))[:40]!r} proof: {err!r}") from None


def _tally(kinds: Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))


def _code(m: int, n: int, found: Mapping[str, bool]) -> str:
    """The code the table gives a board whose searches found ``found`` (by request)."""
    closed = found.get("closed")
    if closed is None:
        return "?"
    if closed:
        return "c"
    if m * n > 1:
        minus = found.get("closed minus a1")
        if minus is None:
            return "?"
        if minus:
            return "e"
    opened = found.get("open")
    return "?" if opened is None else "o" if opened else "x"


def _check_table(
    answer: Mapping[str, Any], proofs: list[Mapping[str, Any]], board_of: BoardOf
) -> tuple[bool, str]:
    rows: Any = answer.get("rows")
    cols: Any = answer.get("cols")
    codes: Any = answer.get("codes")
    _expect(isinstance(rows, int) and isinstance(cols, int) and isinstance(codes, list), "codes")
    _expect(len(codes) == rows, "codes")
    _expect(all(isinstance(r, list) and len(r) == cols for r in codes), "codes")
    seen: set[tuple[int, int]] = set()
    kinds: Counter[str] = Counter()
    for cell in proofs:
        fields: list[Any] = [cell.get(k) for k in ("rows", "cols", "code", "evidence")]
        m, n, code, evidence = fields
        _expect(isinstance(m, int) and isinstance(n, int) and isinstance(evidence, list), "proofs")
        _expect(1 <= m <= rows and 1 <= n <= cols and (m, n) not in seen, "proofs")
        seen.add((m, n))
        board = f"{m}x{n}"
        said = codes[m - 1][n - 1]
        if code != said:
            return False, f"table: {board}: the proofs are of code {code!r}, codes say {said!r}"
        found: dict[str, bool] = {}
        for proof in evidence:
            _expect(isinstance(proof, Mapping) and proof.get("request") in REQUESTS, "request")
            request = str(proof["request"])
            _expect(request not in found, "request")
            found[request], item = _item(proof)
            closed, removed = REQUESTS[request]
            check = board_of({"rows": m, "cols": n, "removed": removed})
            accepted, why = _checked(check, item, closed, (None, None))
            if not accepted:
                return False, f"table: {board} {request}: {why}"
            kinds["tours" if found[request] else str(item.get("kind"))] += 1
        derived = _code(m, n, found)
        if code != "?" and derived != code:
            return False, f"table: {board}: code {code!r}, but the proofs give {derived!r}"
    for m in range(1, rows + 1):
        for n in range(1, cols + 1):
            if codes[m - 1][n - 1] != "?" and (m, n) not in seen:
                return False, f"table: {m}x{n}: code {codes[m - 1][n - 1]!r} without its proofs"
    if not kinds:
        return True, "nothing to check: the table decided no board"
    return True, f"table: {len(seen)} boards, {sum(kinds.values())} proofs ({_tally(kinds)})"
