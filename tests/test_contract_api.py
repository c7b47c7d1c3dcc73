"""Hostile-input contract tests of the Python API (issue 12, build point 5).

Hypothesis calls the public functions with random mixes of valid and hostile
arguments (sizes that are zero, negative, huge, floats, strings, booleans;
squares off the board, removed or malformed; bad leapers, methods, options,
budgets, paths, tours, dictionaries, JSON ...) on small boards, each call in
this process under a watchdog and a memory cap.  The contract asserted:

* every exception is a :class:`knightgraph.KnightGraphError` (never a bare
  ``TypeError``/``ValueError``/``RuntimeError``/``MemoryError``, never an
  :class:`~knightgraph.exceptions.InternalError`), with a one-line message;
  file-system errors of the writers may also be :class:`OSError`;
* a call built with a value that is certainly bad raises, and the message
  names the value; a well-formed call does not raise;
* ``FOUND`` results carry tours that pass :func:`knightgraph.validate_tour`
  and the independent checker (``tests/independent.py``) for the request as
  asked; ``PROVEN_ABSENT`` results carry certificates that
  :func:`knightgraph.proofs.certificates.check` and :func:`knightgraph.certcheck.check_certificate`
  accept; on boards small enough, every answer (existence, counts, maps) agrees
  with the independent enumeration;
* a verified :class:`~knightgraph.Tour` cannot be changed;
* no file is left behind, no process is started and left behind, and no call
  runs away (watchdog) or takes the machine's memory (address-space cap).

``make test`` runs this derandomized; ``make fuzz`` with
``KNIGHTGRAPH_FUZZ_API_CASES`` cases.  ``KNIGHTGRAPH_CONTRACT_LOG=FILE`` logs
violations (JSON lines) instead of failing.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import shutil
import signal
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import contract_support as support
import numpy as np
import pytest
from contract_support import (
    BRUTE_FORCE_SQUARES,
    KNIGHT,
    KNIGHT_MOVES,
    KNOWN_TOURS,
    KnownTour,
    Request,
    file_letters,
    name,
    parse_name,
)
from hypothesis import given
from hypothesis import strategies as st
from independent import knight_moves

import knightgraph as kg
from knightgraph import explore
from knightgraph.certcheck import check_certificate
from knightgraph.exceptions import KnightGraphError
from knightgraph.io import formats
from knightgraph.proofs import certificates as proofs
from knightgraph.running.parallel import get_executor
from knightgraph.solvers.classic import solve_classic

DEFAULT_CASES = 1000
"""API cases in ``make test`` (``KNIGHTGRAPH_FUZZ_API_CASES`` overrides: ``make fuzz``)."""
NAN = float("nan")
INF = float("inf")


# ---------------------------------------------------------------- squares
def as_pair(value: Any) -> tuple[int, int] | None:
    """``(r, c)`` of a square given as ``"d4"``, ``"r,c"`` or a pair (independently of knightgraph)."""
    if isinstance(value, str):
        return parse_name(value)
    if isinstance(value, tuple | list) and len(value) == 2:
        r, c = value
        if all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in (r, c)):
            return int(r), int(c)
    return None


# ---------------------------------------------------------------- calls
@dataclass
class Call:
    label: str
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    bad: list[Any] = field(default_factory=list)
    must_raise: bool = False
    odd: bool = False
    check: Callable[[Any, list[str]], None] | None = None
    allowed: tuple[type[BaseException], ...] = ()
    folder: Path | None = None
    outputs: set[str] = field(default_factory=set)
    odd_values: list[Any] = field(default_factory=list)

    @property
    def well_formed(self) -> bool:
        return not (self.bad or self.must_raise or self.odd)

    def describe(self) -> str:
        parts = [_show(a) for a in self.args] + [f"{k}={_show(v)}" for k, v in self.kwargs.items()]
        return f"{self.label}({', '.join(parts)})"


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


class Build(support.Draws):
    """Draws argument values, remembering which are certainly bad (must be named)."""

    def __init__(self, draw: Any) -> None:
        super().__init__(draw)
        self.bad: list[Any] = []
        self.must_raise = False
        self.odd = False
        self.odd_values: list[Any] = []

    def value(self, good: list[Any], bad: list[Any], odd: list[Any] = (), percent: int = 12) -> Any:  # type: ignore[assignment]
        if self.chance(percent):
            index = self.integer(0, len(bad) + len(odd) - 1)
            if index < len(bad):
                self.bad.append(bad[index])
                return bad[index]
            self.odd = True
            self.odd_values.append(odd[index - len(bad)])
            return odd[index - len(bad)]
        return self.pick(good)

    # -- boards
    def size(self, lo: int = 1, hi: int = 6, percent: int = 8) -> Any:
        if self.chance(percent):
            value = self.pick(
                [0, -1, -7, True, False, 1.5, 3.0, NAN, INF, "8", "", [3], (3,), b"3", 3 + 0j]
            )
            self.bad.append(value)
            return value
        value = self.integer(lo, hi)
        return np.int64(value) if self.chance(8) else value

    def board_args(
        self, lo: int = 1, hi: int = 6, *, max_area: int = 36, huge: str = "odd", percent: int = 8
    ) -> tuple[Any, Any]:
        """``(m, n)``; ``huge``: "odd" (refusing or answering are fine), "bad" (must refuse)."""
        if huge and self.chance(4):
            m, n = self.pick(
                [
                    (10**12, 10**12),
                    (10**20, 8),
                    (8, 10**20),
                    (2**63, 2**63),
                    (10**7, 10**7),
                    (10**9, 10**9),
                ]
            )
            if huge == "bad":
                self.bad += [m, n]
            else:
                self.odd = True
                self.odd_values += [m, n]
            return m, n
        m, n = self.size(lo, hi, percent), self.size(lo, hi, percent)
        if _int(m) and _int(n):
            while int(m) * int(n) > max_area:
                m, n = (m - 1, n) if m >= n else (m, n - 1)
        return m, n

    def leaper(self) -> Any:
        return self.value(
            [KNIGHT, (2, 1), (1, 3), (0, 1), (2, 3), [1, 2], (1, 1)],
            [(0, 0), (-1, 2), (1.5, 2), "12", (1,), (1, 2, 3), None, (True, 2), "knight", 5],
        )

    def square(self, m: Any, n: Any, *, percent: int = 10) -> Any:
        if not (_int(m) and _int(n)):
            return self.pick(["a1", (0, 0), "1,1"])
        m, n = int(m), int(n)
        if self.chance(percent):
            value = self.pick(
                [
                    (m + 1, 0),
                    (0, n + 2),
                    (-1, 0),
                    (0, -1),
                    name((m + 2, 0)),
                    f"{m},0",
                    "",
                    "x",
                    "a0",
                    "1,",
                    (1.5, 2),
                    (True, 1),
                    (0, 0, 0),
                    "a1b",
                    5,
                    [0],
                    (None, 1),
                    b"a1",
                ]
            )
            self.bad.append(value)
            return value
        sq = (self.integer(0, m - 1), self.integer(0, n - 1))
        style = self.integer(0, 3)
        return [name(sq), sq, f"{sq[0]},{sq[1]}", [sq[0], sq[1]]][style]

    def removed(self, m: Any, n: Any) -> Any:
        if not self.chance(15):
            return ()
        if self.chance(10):
            value = self.pick([5, None, [None], "zz99", [(0, 0, 0)]])
            self.bad.append(value)
            return value
        squares = [self.square(m, n) for _ in range(self.integer(1, 2))]
        return (
            squares[0]
            if len(squares) == 1 and isinstance(squares[0], str) and self.chance(30)
            else squares
        )

    def closed(self) -> Any:
        return self.value(
            [False, True], ["yes", None, "False", [], 2.5], [1, 0, np.bool_(True)], percent=6
        )

    def timeout(self, good: list[Any]) -> Any:
        return self.value(good, [-1, -0.5, NAN, "1", [], True], [INF], percent=8)


def _int(value: Any) -> bool:
    return (
        isinstance(value, int | np.integer) and not isinstance(value, bool) and 1 <= value <= 10**6
    )


def make_request(
    b: Build,
    m: Any,
    n: Any,
    leaper: Any = KNIGHT,
    removed: Any = (),
    closed: Any = False,
    start: Any = None,
    end: Any = None,
) -> Request | None:
    """The request the arguments stand for, when every one of them is valid."""
    with contextlib.suppress(TypeError):  # an end on a removed square is bad on any board
        items = [removed] if isinstance(removed, str) else list(removed)
        gone_pairs = {as_pair(s) for s in items} - {None}
        for sq in (start, end):
            pair = None if sq is None else as_pair(sq)
            if pair is not None and pair in gone_pairs and min(pair) >= 0:
                b.bad += [name(pair), pair, sq]
    if not (_int(m) and _int(n)) or m * n > 10**4:
        return None
    items = [removed] if isinstance(removed, str) else removed
    try:
        gone = [as_pair(s) for s in items]
    except TypeError:
        return None
    if any(s is None or not (0 <= s[0] < m and 0 <= s[1] < n) for s in gone):
        return None
    gone_set = frozenset(gone)  # type: ignore[arg-type]
    if len(gone_set) >= m * n:
        b.must_raise = True  # every square removed: refused, whatever else is wrong
        return None
    if not isinstance(closed, bool):
        return None
    lp = as_pair(list(leaper)) if isinstance(leaper, tuple | list) else None
    if lp is None or min(lp) < 0 or lp == (0, 0):
        return None
    lp = (min(lp), max(lp))
    ends = []
    for sq in (start, end):
        if sq is None:
            ends.append(None)
            continue
        pair = as_pair(sq)
        if pair is None or not (0 <= pair[0] < m and 0 <= pair[1] < n):
            return None
        ends.append(pair)
    if any(pair in gone_set for pair in ends):
        return None  # named bad above
    return Request(int(m), int(n), lp, gone_set, closed, ends[0], ends[1])


# ---------------------------------------------------------------- running
def _renderings(value: Any) -> set[str]:
    """Ways a message may name ``value``."""
    out = {repr(value), str(value)}
    if isinstance(value, bool):
        pass
    elif isinstance(value, int | np.integer):
        out |= {f"{int(value):,}", f"{int(value):_}", str(int(value))}
    elif isinstance(value, float):
        out |= {f"{value:g}"}
    elif isinstance(value, str):
        out |= {value.strip()} if value.strip() else {"''", '""', "empty"}
    elif isinstance(value, bytes):
        out |= {value.decode(errors="replace")}
    elif isinstance(value, tuple | list):
        out |= {
            ",".join(map(str, value)),
            ", ".join(map(str, value)),
            str(tuple(value)),
            str(list(value)),
        }
        pair = as_pair(list(value))
        if pair is not None and min(pair) >= 0:
            out.add(name(pair))
    if value is None or callable(value):
        out.add(type(value).__name__)
    return {text for text in out if text}


def names_value(message: str, values: list[Any]) -> bool:
    lowered = message.lower()
    return any(
        text in message or text.lower() in lowered for v in values for text in _renderings(v)
    )


def run_call(call: Call, counter: Counter[str]) -> None:
    problems: list[str] = []
    before = support.children(os.getpid())
    result: Any = None
    error: BaseException | None = None
    began = time.monotonic()
    files_before = _files(call.folder)
    try:
        with (
            support.watchdog(),
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
        ):
            result = call.fn(*call.args, **call.kwargs)
            if isinstance(result, itertools.islice | map | filter) or hasattr(result, "__next__"):
                result = list(itertools.islice(result, 50))  # generators do their work lazily
    except support.Hang:
        problems.append(f"still running after {support.HANG_SECONDS:.0f} s")
    except KeyboardInterrupt:
        raise
    except BaseException as err:
        error = err
    seconds = time.monotonic() - began
    if error is not None:
        problems += _error_problems(call, error)
    elif not problems:
        if call.bad or call.must_raise:
            bad = ", ".join(_show(v) for v in call.bad[:3])
            problems.append(
                f"bad input ({bad or 'an impossible request'}) accepted: returned {_show(result)}"
            )
        if call.check is not None:
            try:
                call.check(result, problems)
            except Exception as err:  # a broken result object is a violation too
                problems.append(f"the result cannot be checked: {type(err).__name__}: {err}")
    extra = support.new_children(before)
    if extra:
        problems.append(f"processes left behind: {sorted(extra)}")
        for pid in extra:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    if call.folder is not None:
        allowed = call.outputs if error is None else set()
        for rel in sorted(_files(call.folder) - files_before - allowed):
            problems.append(f"file left behind: {rel}")
    counter["api"] += 1
    outcome = type(error).__name__ if error is not None else "ok"
    support.trace(f"{seconds:7.2f} s  api  {outcome:24}  {call.describe()}")
    if not problems:
        return
    counter["api violations"] += 1
    shown = "" if error is None else f"\n  raised {type(error).__name__}: {str(error)[:300]}"
    report = f"{call.describe()}{shown}\n" + "".join(f"  VIOLATION: {p}\n" for p in problems)
    support.log_or_fail({"suite": "api", "call": call.describe(), "problems": problems}, report)


def _files(folder: Path | None) -> set[str]:
    return set() if folder is None else support.snapshot(folder)


def _error_problems(call: Call, error: BaseException) -> list[str]:
    problems = []
    message = str(error)
    kind = type(error).__name__
    if not isinstance(error, KnightGraphError) and not isinstance(error, call.allowed):
        where = traceback.extract_tb(error.__traceback__)[-1]
        problems.append(
            f"{kind} is not a KnightGraphError: {message[:200]!r} "
            f"(raised at {Path(where.filename).name}:{where.lineno})"
        )
        return problems
    if isinstance(error, kg.exceptions.InternalError):
        problems.append(f"an internal error: {message[:200]!r}")
    if "\n" in message.strip():
        problems.append(f"a message of several lines: {message[:200]!r}")
    if not message.strip():
        problems.append(f"{kind} without a message")
    if call.well_formed:
        problems.append(f"a well-formed call raised {kind}: {message[:200]!r}")
    elif call.bad and not call.must_raise and not names_value(message, call.bad + call.odd_values):
        bad = ", ".join(_show(v) for v in call.bad[:3])
        problems.append(f"the message does not name the bad value ({bad}): {message[:200]!r}")
    return problems


# ---------------------------------------------------------------- result checks
def check_search(
    req: Request | None, *, exact: bool, board: Any = None
) -> Callable[[Any, list[str]], None]:
    def check(res: Any, problems: list[str]) -> None:
        if not isinstance(res, kg.SearchResult):
            problems.append(f"not a SearchResult: {_show(res)}")
            return
        status = res.status
        if status is kg.Status.FOUND:
            if res.tour is None:
                problems.append("FOUND without a tour")
                return
            try:
                kg.validate_tour(res.tour)
            except KnightGraphError as err:
                problems.append(f"validate_tour rejects the tour found: {err}")
            if req is not None:
                why = req.defect(res.tour.squares())
                if why:
                    problems.append(f"the independent checker rejects the tour found: {why}")
                if req.brute() and not req.brute_exists():
                    problems.append("FOUND, but the enumeration finds no tour")
        elif status is kg.Status.PROVEN_ABSENT:
            if res.certificate is None:
                problems.append("PROVEN_ABSENT without a certificate")
                return
            if req is not None:
                b = kg.Board(req.m, req.n, leaper=req.leaper, removed=sorted(req.removed))
                ok, why = proofs.check(
                    res.certificate, b, closed=req.closed, start=req.start, end=req.end
                )
                if not ok:
                    problems.append(f"proofs.check rejects the certificate: {why}")
                ok, why = req.certificate(res.certificate)
                if not ok:
                    problems.append(
                        f"check_certificate rejects the certificate (request as asked): {why}"
                    )
                if req.brute() and req.brute_exists():
                    problems.append("PROVEN_ABSENT, but the enumeration finds a tour")
        elif status is kg.Status.ABORTED:
            if res.tour is not None or res.certificate is not None:
                problems.append("ABORTED with a tour or a certificate")
        else:
            problems.append(f"unknown status {status!r}")

    return check


# ---------------------------------------------------------------- call families
def family(build: Callable[[Any, Build], Call]) -> Callable[[], st.SearchStrategy[Call]]:
    """A strategy of calls from ``build(draw, builder)``; the builder's unsure values go along."""

    @st.composite
    def strategy(draw: Any) -> Call:
        b = Build(draw)
        call = build(draw, b)
        call.odd_values = list(b.odd_values)
        return call

    return strategy  # type: ignore[no-any-return]


METHOD_OPTIONS: dict[str, dict[str, list[Any]]] = {
    "backtrack": {
        "prune": [True, False],
        "oracle": [True],
        "order": ["fixed", "warnsdorff"],
        "moves": [KNIGHT_MOVES, list(reversed(KNIGHT_MOVES))],
    },
    "warnsdorff": {
        "rule": ["roth", "random", "first", "pohl", "squirrel", "border"],
        "attempts": [1, 5],
        "repair": [True, False],
        "moves": [KNIGHT_MOVES],
    },
    "sat": {},
    "divide": {},
    "auto": {},
}
BAD_OPTIONS: dict[str, list[Any]] = {
    "prune": ["yes", 2],
    "order": ["x", 5],
    "rule": ["nope", ""],
    "attempts": [-1, 1.5, "3"],
    "moves": ["abc", [(0, 0)], [(1, 2, 3)], 5, [("a", "b")]],
    "repair": ["no"],
    "oracle": ["yes"],
}


@family
def search_calls(draw: Any, b: Build) -> Call:
    family = draw(st.sampled_from(["find_tour", "tour_exists"]))
    m, n = b.board_args(1, 7, max_area=42)
    given = b.chance(12)
    leaper = b.leaper() if given else KNIGHT
    removed = b.removed(m, n)
    closed = b.closed()
    start = b.square(m, n) if b.chance(40) else None
    end = b.square(m, n) if b.chance(25) else None
    kwargs: dict[str, Any] = {}
    if given:
        kwargs["leaper"] = leaper
    if removed != ():
        kwargs["removed"] = removed
    if closed is not False:
        kwargs["closed"] = closed
    if start is not None:
        kwargs["start"] = start
    if end is not None:
        kwargs["end"] = end
    method = "auto"
    if family == "find_tour":
        if b.chance(60):
            method = b.value(
                ["auto", "backtrack", "warnsdorff", "sat", "divide"], ["nope", "", None, 5, "AUTO"]
            )
            kwargs["method"] = method
        for option, values in (
            METHOD_OPTIONS.get(method, {}).items() if isinstance(method, str) else []
        ):
            if b.chance(20):
                kwargs[option] = b.value(values, BAD_OPTIONS.get(option, ["?"]))
        if b.chance(4):
            other = b.pick(["prune", "rule", "attempts", "foo", "shortcuts"])
            if other not in METHOD_OPTIONS.get(method, {}) and other not in ("shortcuts",):
                kwargs[other] = 1
                b.bad.append(other)
        if b.chance(15):
            kwargs["seed"] = b.value([0, 1, 2**40], ["abc", 1.5, []], [-1, 2**70])
        if b.chance(12):
            kwargs["limit"] = b.value([50, 10**5], [-1, 1.5, "10", True], [0])
        lp = as_pair(list(leaper)) if isinstance(leaper, tuple | list) else None
        if "moves" in kwargs and (lp is None or sorted(lp) != [1, 2]):
            b.odd = True  # the knight's move order given for another piece: refused, or moot
            b.odd_values += ["move order", "moves"]
        if method in ("warnsdorff", "divide") and (
            start is not None or end is not None or closed or removed != () or given
        ):
            b.odd = True  # an unsupported combination may be refused, naming the method or option
            b.odd_values += [method, "start", "end", "closed", "removed", "leaper"]
    kwargs["timeout"] = b.timeout([0.3, 0.5, 1.0, 0])
    if b.chance(5):
        kwargs["progress"] = b.value([lambda stats: None], [5, "x"])
    if start is not None and end is not None and as_pair(start) == as_pair(end) is not None:
        b.odd = True  # refused or proven absent: both fine; a refusal names the square
        b.odd_values += [start, end, name(as_pair(start))]  # type: ignore[arg-type]
    req = make_request(b, m, n, leaper, removed, closed, start, end)
    if b.chance(10) and req is not None:
        board = kg.Board(req.m, req.n, leaper=req.leaper, removed=sorted(req.removed))
        args: tuple[Any, ...] = (board,)
        kwargs.pop("leaper", None)
        kwargs.pop("removed", None)
    else:
        args = (m, n)
    fn = kg.find_tour if family == "find_tour" else kg.tour_exists
    return Call(
        family,
        fn,
        args,
        kwargs,
        b.bad,
        b.must_raise,
        b.odd,
        check_search(req, exact=family == "tour_exists"),
    )


@family
def board_calls(draw: Any, b: Build) -> Call:
    m, n = b.board_args(1, 8, max_area=64)
    given = b.chance(20)
    leaper = b.leaper() if given else KNIGHT
    removed = b.removed(m, n)
    what = draw(
        st.sampled_from(
            [
                "Board",
                "knight_graph",
                "parse_square",
                "neighbors",
                "name",
                "square",
                "color",
                "closed_tour_exists",
                "open_tour_exists",
                "color_obstruction",
            ]
        )
    )
    req = make_request(b, m, n, leaper, removed)
    kwargs: dict[str, Any] = {}
    if given:
        kwargs["leaper"] = leaper
    if removed != ():
        kwargs["removed"] = removed
    if what == "Board":
        return Call("Board", kg.Board, (m, n), kwargs, b.bad, b.must_raise, b.odd)
    if what == "knight_graph":
        if not b.odd and not b.bad and (not _int(m) or not _int(n)):
            pass
        if b.odd:  # huge: a graph layer that cannot build it must refuse
            b.bad += [m, n]
            b.odd = False

        def check_graph(g: Any, problems: list[str]) -> None:
            if req is None:
                return
            cells = req.cells()
            if g.number_of_nodes() != len(cells):
                problems.append(f"{g.number_of_nodes()} nodes, {len(cells)} squares")
            edges = {
                frozenset((s, t))
                for s in cells
                for t in knight_moves(req.m, req.n, *s, req.leaper)
                if t not in req.removed
            }
            if g.number_of_edges() != len(edges):
                problems.append(
                    f"{g.number_of_edges()} edges, the independent count is {len(edges)}"
                )

        return Call(
            "knight_graph", kg.knight_graph, (m, n), kwargs, b.bad, b.must_raise, b.odd, check_graph
        )
    if what in ("closed_tour_exists", "open_tour_exists"):
        fn = getattr(kg, what)

        def check_theorem(verdict: Any, problems: list[str]) -> None:
            if req is None or req.squares > BRUTE_FORCE_SQUARES:
                return
            truth = Request(req.m, req.n, closed=what == "closed_tour_exists").brute_exists()
            if bool(verdict) != truth:
                problems.append(
                    f"{what}({req.m}, {req.n}) is {bool(verdict)}, the enumeration says {truth}"
                )

        return Call(
            what,
            fn,
            (m, n),
            {},
            [v for v in b.bad if v is m or v is n],
            False,
            b.odd,
            check_theorem,
        )
    if req is None:  # the board itself is bad: the board call is the test
        return Call("Board", kg.Board, (m, n), kwargs, b.bad, b.must_raise, b.odd)
    board = kg.Board(req.m, req.n, leaper=req.leaper, removed=sorted(req.removed))
    if what == "color_obstruction":
        closed = b.closed()
        start = b.square(m, n) if b.chance(40) else None
        end = b.square(m, n) if b.chance(30) else None
        req2 = make_request(b, m, n, leaper, removed, closed, start, end)

        def check_colour(cert: Any, problems: list[str]) -> None:
            if cert is None or req2 is None:
                return
            ok, why = req2.certificate(cert)
            if not ok:
                problems.append(f"the colour certificate is rejected: {why}")
            if req2.brute() and req2.brute_exists():
                problems.append("a colour obstruction on a board with a tour")

        kw = {"closed": closed, "start": start, "end": end}
        return Call(
            "color_obstruction",
            kg.color_obstruction,
            (board,),
            kw,
            b.bad,
            b.must_raise,
            b.odd or (start is not None and as_pair(start) == as_pair(end) is not None),
            check_colour,
        )
    if what == "square":
        index = b.value(
            [b.integer(0, req.m * req.n - 1)], [-1, req.m * req.n, 1.5, "3", None, 10**20]
        )
        return Call(f"{board!r}.square", board.square, (index,), {}, b.bad, False, b.odd)
    sq = b.square(m, n, percent=30)
    pair = as_pair(sq)
    if what == "name" and _int(sq) and sq < req.m * req.n:  # a flat index: documented
        b.bad = [v for v in b.bad if v is not sq]
        pair = divmod(int(sq), req.n)
    if pair is not None and pair in req.removed and what in ("parse_square", "neighbors"):
        b.bad += [name(pair), pair]

    def check_square(value: Any, problems: list[str]) -> None:
        if pair is None:
            return
        if what == "parse_square" and value != pair:
            problems.append(f"parse_square({sq!r}) is {value!r}, not {pair!r}")
        if what == "name" and value != name(pair):
            problems.append(f"name({sq!r}) is {value!r}, not {name(pair)!r}")
        if what == "neighbors":
            truth = {
                t for t in knight_moves(req.m, req.n, *pair, req.leaper) if t not in req.removed
            }
            if set(map(tuple, value)) != truth:
                problems.append(f"neighbors({sq!r}) is {value!r}, independently {sorted(truth)}")
        if what == "color" and value != sum(pair) % 2:
            problems.append(f"color({sq!r}) is {value!r}")

    return Call(
        f"{board!r}.{what}",
        getattr(board, what),
        (sq,),
        {},
        b.bad,
        b.must_raise,
        b.odd,
        check_square,
    )


HOSTILE_TOURS: list[Any] = [
    None,
    5,
    "abc",
    [(0, 0, 0)],
    [[0.5, 1]],
    np.array([0.5, 1.5]),
    {"a": 1},
    [("a", 1)],
    [None],
    np.zeros((2, 3), dtype=int),
    [b"a1"],
    [[True, 0]],
    object(),
    [(0, 10**30)],
    "a1 zz",
]


@family
def tour_calls(draw: Any, b: Build) -> Call:
    known: KnownTour = draw(st.sampled_from(KNOWN_TOURS))
    board = kg.Board(known.m, known.n, removed=sorted(known.removed))
    squares = support.corrupt(
        b, list(known.squares), ["none", "swap", "drop", "reverse", "off", "repeat"], known.m + 1
    )
    closed = known.closed and b.chance(60)
    req = Request(known.m, known.n, KNIGHT, known.removed, closed)
    truth = req.defect(squares)
    encoding = b.pick(["pairs", "names", "flat", "array"]) if b.chance(50) else "pairs"
    if encoding == "names":
        tour_arg: Any = [name(s) for s in squares if min(s) >= 0]
    elif encoding == "flat":
        tour_arg = np.array([r * known.n + c for r, c in squares])
    elif encoding == "array":
        tour_arg = np.array(squares)
    else:
        tour_arg = squares
    what = draw(
        st.sampled_from(
            [
                "validate_tour",
                "is_knight_tour",
                "Tour.from_squares",
                "Tour",
                "rerooted",
                "transformed",
                "from_dict",
                "from_json",
                "mutate",
                "reversed",
            ]
        )
    )
    hostile = False
    if what in ("validate_tour", "is_knight_tour", "Tour.from_squares", "Tour"):
        hostile = b.chance(12)
        if hostile:
            tour_arg = b.pick(HOSTILE_TOURS)
            b.must_raise = what != "is_knight_tour"  # a predicate may answer False instead
            b.odd = True
        if what == "Tour":
            if encoding != "flat" and not hostile:
                tour_arg = np.array([r * known.n + c for r, c in squares])
            fn: Callable[..., Any] = kg.Tour
            args: tuple[Any, ...] = (board, tour_arg, closed)
            kwargs: dict[str, Any] = {}
        elif what == "Tour.from_squares":
            fn, args, kwargs = kg.Tour.from_squares, (tour_arg, board), {"closed": closed}
        else:
            fn = getattr(kg, what)
            m_arg: Any = board
            if b.chance(30):
                m_arg = b.value([board], [0, -1, "8", 1.5], [None])
                if (
                    m_arg is None
                    and not isinstance(tour_arg, kg.Tour)
                    and not (
                        hostile and what == "is_knight_tour"  # not a tour on any board: False
                    )
                ):
                    b.must_raise = True  # no board: MissingBoardError
            args, kwargs = (tour_arg, m_arg), {"closed": closed}
        rejects = truth is not None and not hostile
        raises = what != "is_knight_tour" and rejects

        def check(value: Any, problems: list[str]) -> None:
            if hostile:
                return
            if what == "is_knight_tour" and value != (truth is None):
                problems.append(f"is_knight_tour says {value}, independently: {truth or 'a tour'}")
            if raises:
                problems.append(f"accepted a non-tour ({truth})")
            if isinstance(value, kg.Tour) and req.defect(value.squares()):
                problems.append("a Tour object that is not a tour")

        call = Call(what, fn, args, kwargs, b.bad, b.must_raise, b.odd, check)
        if raises:
            call.odd = True  # raising InvalidTourError is the expected answer
        return call
    if truth is not None or hostile:
        squares, closed = list(known.squares), known.closed
        req = Request(known.m, known.n, KNIGHT, known.removed, closed)
    tour = kg.Tour.from_squares(squares, board, closed=closed)
    if what == "rerooted":
        sq = b.square(known.m, known.n, percent=25)
        pair = as_pair(sq)
        if pair is not None and pair in known.removed:
            b.bad += [name(pair), pair]
        if pair is not None and not closed and pair not in (squares[0], squares[-1]):
            b.odd = True  # an open tour can only be re-rooted at one of its ends

        def check_rerooted(value: Any, problems: list[str]) -> None:
            if req.defect(value.squares()):
                problems.append(f"rerooted gives a non-tour: {req.defect(value.squares())}")
            if pair is not None and value.squares()[0] != pair:
                problems.append(f"rerooted({sq!r}) starts at {value.squares()[0]}")

        return Call(
            f"Tour({known.m}x{known.n}).rerooted",
            tour.rerooted,
            (sq,),
            {},
            b.bad,
            b.must_raise,
            b.odd,
            check_rerooted,
        )
    if what == "transformed":
        valid = list(board.symmetries())
        sym = b.value(valid, ["nope", "", 5, None, "ROT90"])
        if known.m != known.n and b.chance(30):
            sym = b.pick(["rot90", "transpose"])
            b.bad.append(sym)

        def check_sym(value: Any, problems: list[str]) -> None:
            if req.defect(value.squares(), ends=False):
                problems.append(f"transformed({sym!r}) gives a non-tour")

        return Call(
            f"Tour({known.m}x{known.n}).transformed",
            tour.transformed,
            (sym,),
            {},
            b.bad,
            b.must_raise,
            b.odd,
            check_sym,
        )
    if what == "reversed":
        return Call(
            "Tour.reversed",
            tour.reversed,
            (),
            {},
            [],
            False,
            False,
            lambda v, p: p.append("reversed is not a tour") if req.defect(v.squares()) else None,
        )
    if what in ("from_dict", "from_json"):
        good = tour.to_dict()
        data: Any = dict(good)
        if b.chance(40):
            mutation = b.pick(["rows", "cols", "squares", "closed", "leaper", "removed", "drop"])
            value = b.pick([0, -1, "a", None, [], 1.5, 10**20, {"x": 1}, [[0, 0]]])
            if mutation == "drop":
                data.pop(b.pick(sorted(data)))
            else:
                data[mutation] = value
            b.odd = True
        if b.chance(8):
            data = b.pick([None, [], "x", 5, {"rows": 3}])
            b.must_raise = True
        if what == "from_json":
            text = (
                json.dumps(data)
                if not b.chance(10)
                else b.pick(["{", "", "null", "[1, 2]", "\x00"])
            )
            if text in ("{", "", "null", "[1, 2]", "\x00"):
                b.must_raise = True
            return Call(
                "Tour.from_json",
                kg.Tour.from_json,
                (text,),
                {},
                b.bad,
                b.must_raise,
                b.odd,
                _check_tour_object,
            )
        return Call(
            "Tour.from_dict",
            kg.Tour.from_dict,
            (data,),
            {},
            b.bad,
            b.must_raise,
            b.odd,
            _check_tour_object,
        )
    # mutate: a verified tour cannot be changed (through its public attributes)
    attack = b.pick(["order", "closed", "board", "item", "resize", "flags", "del", "squares"])

    def mutate() -> str | None:
        """None if the tour resisted ``attack``, else what changed."""
        snapshot = (tour.order.copy(), tour.closed, tour.board)
        with contextlib.suppress(AttributeError, TypeError, ValueError, KnightGraphError):
            if attack == "order":
                tour.order = tour.order[:3]  # type: ignore[misc]
            elif attack == "closed":
                tour.closed = not tour.closed  # type: ignore[misc]
            elif attack == "board":
                tour.board = kg.Board(2, 2)  # type: ignore[misc]
            elif attack == "item":
                tour.order[0] = tour.order[-1]
            elif attack == "resize":
                tour.order.resize(3, refcheck=False)
            elif attack == "flags":
                tour.order.flags.writeable = True
                tour.order[0] = tour.order[-1]
            elif attack == "del":
                del tour.order
            elif attack == "squares":
                tour.squares()[0] = (99, 99)
                tour.algebraic()[0] = "zz99"
        after = (
            getattr(tour, "order", None),
            getattr(tour, "closed", None),
            getattr(tour, "board", None),
        )
        if after[0] is None or not np.array_equal(after[0], snapshot[0]):
            return "order"
        if after[1] != snapshot[1] or after[2] != snapshot[2]:
            return "closed/board"
        if req.defect(tour.squares(), ends=False):
            return "no longer a tour"
        return None

    def check_mutation(changed: Any, problems: list[str]) -> None:
        if changed is not None:
            problems.append(f"a verified Tour was changed ({attack}): its {changed}")

    return Call(f"mutate Tour ({attack})", mutate, (), {}, [], False, False, check_mutation)


def _check_tour_object(value: Any, problems: list[str]) -> None:
    if not isinstance(value, kg.Tour):
        problems.append(f"not a Tour: {_show(value)}")
        return
    b = value.board
    req = Request(b.m, b.n, b.leaper, frozenset(b.removed), value.closed)
    why = req.defect(value.squares())
    if why:
        problems.append(f"a Tour that the independent checker rejects: {why}")


@family
def count_calls(draw: Any, b: Build) -> Call:
    what = draw(st.sampled_from(["count_tours", "enumerate_tours", "count_symmetric"]))
    m, n = b.board_args(1, 5, max_area=20, huge="bad")
    given = b.chance(10)
    leaper = b.leaper() if given else KNIGHT
    removed = b.removed(m, n)
    closed = b.closed()
    kwargs: dict[str, Any] = {"closed": closed}
    if given:
        kwargs["leaper"] = leaper
    if removed != ():
        kwargs["removed"] = removed
    start = end = None
    if what != "count_symmetric":
        start = b.square(m, n) if b.chance(30) else None
        end = b.square(m, n) if b.chance(20) else None
        if start is not None:
            kwargs["start"] = start
        if end is not None:
            kwargs["end"] = end
        if start is not None and end is not None and as_pair(start) == as_pair(end) is not None:
            b.odd = True
            b.odd_values += [start, end, name(as_pair(start))]  # type: ignore[arg-type]
    req = make_request(b, m, n, leaper, removed, closed, start, end)
    if what == "count_tours":
        if b.chance(15):
            kwargs["convention"] = b.value(["oeis", "knuth"], ["x", "", None])
            if kwargs["convention"] == "knuth" and closed:
                b.odd = True  # knuth's convention is about open tours
                b.odd_values += ["knuth", "closed"]
        if b.chance(10):
            kwargs["engine"] = b.value(["auto", "python"], ["nope", "", 5])
        kwargs["timeout"] = b.timeout([1.0, 2.0])

        def check_count(res: Any, problems: list[str]) -> None:
            if (
                req is None
                or not req.brute()
                or req.squares < 3
                or kwargs.get("convention") == "knuth"
            ):
                return
            if res.aborted:  # the budget ran out: an ABORTED result claims no number
                if res.directed is not None or not res.reason:
                    problems.append(f"an ABORTED count with a number or no reason: {res!r}")
                return
            truth = req.brute_directed()
            if truth is not None and res.directed != truth:
                problems.append(f"{res.directed} directed tours, the enumeration finds {truth}")

        return Call(
            "count_tours", kg.count_tours, (m, n), kwargs, b.bad, b.must_raise, b.odd, check_count
        )
    if what == "count_symmetric":
        kwargs["timeout"] = b.timeout([1.0, 2.0])
        return Call(
            "count_symmetric", kg.count_symmetric, (m, n), kwargs, b.bad, b.must_raise, b.odd
        )
    from knightgraph.counting import enumerate_tours

    kwargs["limit"] = b.value([1, 3, 10], [-1, 1.5, "3"], [0, None])

    def check_enum(tours: Any, problems: list[str]) -> None:
        seen = set()
        for t in tours:
            if req is not None and req.defect(t.squares()):
                problems.append(f"enumerate_tours yields a non-tour: {req.defect(t.squares())}")
            seen.add(tuple(t.squares()))
        if isinstance(kwargs["limit"], int) and len(tours) > kwargs["limit"]:
            problems.append(f"{len(tours)} tours, limit {kwargs['limit']}")
        if len(seen) != len(tours):
            problems.append("enumerate_tours yields the same tour twice")

    return Call(
        "enumerate_tours", enumerate_tours, (m, n), kwargs, b.bad, b.must_raise, b.odd, check_enum
    )


@family
def explore_calls(draw: Any, b: Build) -> Call:
    what = draw(st.sampled_from(["start_map", "end_map", "existence_table", "sweep"]))
    if what == "existence_table":
        rows = b.size(1, 4)
        cols = b.size(1, 4) if b.chance(60) else None
        if b.chance(3):
            rows, cols = b.pick([(10**12, None), (5, 10**20), (10**9, 10**9)])
            b.bad.append(rows if cols is None or rows > 10**6 else cols)
        kwargs: dict[str, Any] = {"timeout": b.timeout([0.5, 1.0])}

        def check_table(table: Any, problems: list[str]) -> None:
            flat = "".join("".join(r) for r in table.codes)
            if set(flat) - set("ceox?"):
                problems.append(f"unknown codes in {flat!r}")
            if table.disagreements:
                problems.append(f"disagreements: {table.disagreements}")

        return Call(
            "existence_table",
            explore.existence_table,
            (rows, cols),
            kwargs,
            b.bad,
            b.must_raise,
            b.odd,
            check_table,
        )
    m, n = b.board_args(1, 5, max_area=16 if what != "sweep" else 25, huge="bad")
    given = b.chance(10)
    leaper = b.leaper() if given else KNIGHT
    removed = b.removed(m, n)
    closed = b.closed()
    kwargs = {"closed": closed}
    if given:
        kwargs["leaper"] = leaper
    if removed != ():
        kwargs["removed"] = removed
    start = None
    if what == "end_map":
        start = b.square(m, n, percent=8)
        kwargs["start"] = start
    if what in ("start_map", "end_map") and b.chance(20):
        kwargs["counts"] = b.value([True, False, "auto"], ["yes", 5, None])
    method = "warnsdorff"
    if what == "sweep":
        if b.chance(50):
            method = b.value(["warnsdorff", "backtrack", "sat", "auto"], ["nope", ""])
            kwargs["method"] = method
            if method in ("backtrack", "sat", "auto") and _int(m) and _int(n):
                m, n = min(m, 4), min(n, 4)
                items = [removed] if isinstance(removed, str) else removed
                with contextlib.suppress(TypeError):  # squares drawn for the larger board
                    for sq in items:
                        pair = as_pair(sq)
                        if pair is not None and not (0 <= pair[0] < m and 0 <= pair[1] < n):
                            b.bad.append(sq)  # now off the board: refused, named
        if method == "warnsdorff" and b.chance(20):
            kwargs["rule"] = b.value(["roth", "border", "first"], ["nope"])
        if closed and method == "warnsdorff":
            b.odd = True
    kwargs["timeout"] = b.timeout([0.2, 0.3])
    req = make_request(b, m, n, leaper, removed, closed, start)
    fn = getattr(explore, what)

    def check_map(res: Any, problems: list[str]) -> None:
        if req is None:
            return
        ok = np.asarray(res.ok)
        if ok.shape != (req.m, req.n):
            problems.append(f"ok has shape {ok.shape}, not {(req.m, req.n)}")
            return
        if not req.brute() or req.squares < 2:
            return
        unknown = {as_pair(s) for s in getattr(res, "unknown", [])}
        for sq in req.cells():
            if sq in unknown or (what == "end_map" and sq == req.start):
                continue
            truth = (
                req.brute_count(req.start, sq) if what == "end_map" else req.brute_count(sq, None)
            )
            if what == "sweep":
                if ok[sq] and not truth:
                    problems.append(f"sweep marks {name(sq)} ok, but no tour starts there")
            elif bool(ok[sq]) != bool(truth):
                problems.append(
                    f"{what}: {name(sq)} is {bool(ok[sq])}, the enumeration finds {truth}"
                )

    return Call(what, fn, (m, n), kwargs, b.bad, b.must_raise, b.odd, check_map)


@family
def format_calls(draw: Any, b: Build) -> Call:
    folder = Path(tempfile.mkdtemp(prefix="kg-api-"))
    (folder / "afile").write_bytes(b"not a folder")
    (folder / "sub").mkdir()
    known: KnownTour = draw(st.sampled_from(KNOWN_TOURS))
    board = kg.Board(known.m, known.n, removed=sorted(known.removed))
    text = " ".join(name(s) for s in known.squares)
    what = draw(
        st.sampled_from(
            [
                "write_text",
                "write_npy",
                "read_npy",
                "read_tour_file",
                "parse_tour_text",
                "parse_tour_bytes",
                "save_npy",
            ]
        )
    )
    writer = what in ("write_text", "write_npy", "save_npy")
    good_path = ("sub/out.npy" if "npy" in what else "sub/out.txt") if writer else "in.dat"
    path: Any = good_path
    if what not in ("parse_tour_text", "parse_tour_bytes"):
        bad_paths: list[Any] = ["", "nofolder/x.txt", "afile/x.txt", "sub", 5]
        path = b.value([good_path], [*bad_paths, None] if writer else bad_paths, percent=20)
    full: Any = str(folder / path) if isinstance(path, str) and path else path
    allowed: tuple[type[BaseException], ...] = ()
    if what == "write_text":
        content = b.value([text], [None, 5, b"bytes"], percent=10)
        call = Call(
            "write_text", formats.write_text, (content, full), {}, b.bad, b.must_raise, b.odd
        )
        allowed = (OSError,)  # the file system's own errors, naming the path
    elif what in ("write_npy", "save_npy"):
        order = np.array([r * known.n + c for r, c in known.squares])
        if what == "save_npy":
            tour = kg.Tour(board, order, known.closed)
            call = Call("Tour.save_npy", tour.save_npy, (full,), {}, b.bad, b.must_raise, b.odd)
        else:
            call = Call(
                "write_npy", formats.write_npy, (order, full), {}, b.bad, b.must_raise, b.odd
            )
        allowed = (OSError,)
    else:
        raw = text.encode()
        kinds = ["text", "json", "npy", "garbage", "empty", "board", "coords"]
        kind = b.pick(kinds) if b.chance(60) else ("npy" if what == "read_npy" else "text")
        if kind == "json":
            raw = json.dumps(
                {
                    "rows": known.m,
                    "cols": known.n,
                    "closed": known.closed,
                    "squares": [list(s) for s in known.squares],
                }
            ).encode()
        elif kind == "npy":
            buffer = io.BytesIO()
            np.save(buffer, np.array([r * known.n + c for r, c in known.squares]))
            raw = buffer.getvalue()
        elif kind == "garbage":
            raw = b.pick(
                [b"\x00\xff junk", b"{", b"[1, 2", b"a1 zz99", b"\x93NUMPY bad", b"1 2 3\n4 5"]
            )
        elif kind == "empty":
            raw = b""
        elif kind == "coords":
            raw = "\n".join(f"{r},{c}" for r, c in known.squares).encode()
        elif kind == "board":
            raw = str(known.squares).encode()
        (folder / "in.dat").write_bytes(raw)
        odd = kind in ("garbage", "empty", "board") or (what == "read_npy" and kind != "npy")

        def check_read(value: Any, problems: list[str]) -> None:
            if kind not in ("text", "json", "coords", "npy"):
                return
            got = value[0] if isinstance(value, tuple) else value
            arr = np.asarray(got)
            if arr.ndim == 1 and arr.dtype.kind in "iu":
                pairs = [divmod(int(i), known.n) for i in arr.tolist()]
            else:
                pairs = [
                    tuple(map(int, p)) for p in (got.tolist() if hasattr(got, "tolist") else got)
                ]
            if [tuple(p) for p in pairs] != list(known.squares):
                problems.append(f"read back {pairs[:4]}..., not the tour written")

        if what == "read_npy":
            call = Call(
                "read_npy",
                formats.read_npy,
                (full,),
                {},
                b.bad,
                b.must_raise,
                b.odd or odd,
                check_read if kind == "npy" else None,
            )
        elif what == "read_tour_file":
            call = Call(
                "read_tour_file",
                formats.read_tour_file,
                (full, board),
                {},
                b.bad,
                b.must_raise,
                b.odd or odd,
                check_read,
            )
        elif what == "parse_tour_text":
            content: Any = raw.decode(errors="replace")
            if b.chance(10):
                content = b.pick([None, 5, b"a1"])
                b.bad.append(content)
            call = Call(
                "parse_tour_text",
                formats.parse_tour_text,
                (content, board),
                {},
                b.bad,
                b.must_raise,
                b.odd or odd or kind in ("json", "npy"),
                check_read if kind in ("text", "coords") else None,
            )
        else:
            call = Call(
                "parse_tour_bytes",
                formats.parse_tour_bytes,
                (raw, board, "in.dat"),
                {},
                [],
                False,
                odd,
                check_read,
            )
    call.allowed = allowed
    call.folder = folder
    if path == good_path and writer:
        call.outputs = {good_path}
        order = np.array([r * known.n + c for r, c in known.squares])

        def check_written(value: Any, problems: list[str]) -> None:
            target = folder / good_path
            if not target.is_file():
                problems.append(f"nothing written to {good_path}")
            elif what == "write_text" and call.args[0] == text:
                if target.read_text().rstrip("\n") != text:
                    problems.append(f"{good_path} does not hold the text written")
            elif what != "write_text" and not np.array_equal(np.load(target), order):
                problems.append(f"{good_path} does not hold the order written")

        call.check = check_written
    return call


@family
def misc_calls(draw: Any, b: Build) -> Call:
    what = draw(
        st.sampled_from(
            [
                "square_name",
                "file_name",
                "get_solver",
                "get_executor",
                "solve_classic",
                "estimate_memory",
                "check_certificate",
            ]
        )
    )
    if what == "square_name":
        r = b.value([0, 7, 30], [-1, 1.5, "a", None, True])
        c = b.value([0, 25, 26, 700], [-1, 2.5, "b", None])
        expected = name((r, c)) if not b.bad else None
        return Call(
            "square_name",
            kg.square_name,
            (r, c),
            {},
            b.bad,
            False,
            False,
            lambda v, p: p.append(f"{v!r} != {expected!r}") if v != expected else None,
        )
    if what == "file_name":
        c = b.value([0, 25, 26, 701, 702], [-1, 1.5, "a", None, False])
        expected = file_letters(c) if not b.bad else None
        return Call(
            "file_name",
            kg.file_name,
            (c,),
            {},
            b.bad,
            False,
            False,
            lambda v, p: p.append(f"{v!r} != {expected!r}") if v != expected else None,
        )
    if what == "get_solver":
        method = b.value(
            ["auto", "backtrack", "warnsdorff", "sat", "divide"], ["nope", "", None, 5]
        )
        return Call("get_solver", kg.get_solver, (method,), {}, b.bad, False, False)
    if what == "get_executor":
        workers = b.value([None, 1, 2, 0], [-1, 10**6, 10**20, 2.5, "2", True], percent=40)
        dask = None
        if workers is None and b.chance(20):
            dask = b.pick(["nope", "", "http://[::1", "::", 5])
            b.bad.append(dask)

        def executor(**kw: Any) -> Any:
            ex = get_executor(**kw)
            try:
                count = getattr(ex, "workers", 1)
                if isinstance(count, int) and count > support.MAX_PROCESSES:
                    raise AssertionError(f"an executor with {count} workers on {support.CPUS} CPUs")
                return ex.describe()
            finally:
                ex.close()

        kwargs = {"workers": workers} if dask is None else {"dask": dask}
        return Call("get_executor", executor, (), kwargs, b.bad, False, False)
    if what == "estimate_memory":
        m, n = b.board_args(1, 8, max_area=64)
        req = make_request(b, m, n)
        if req is None:
            return Call("Board", kg.Board, (m, n), {}, b.bad, b.must_raise, b.odd)
        method = b.value(["auto", "backtrack", "warnsdorff", "sat", "divide"], ["nope", ""])
        from knightgraph.solvers import estimate_memory

        board = kg.Board(req.m, req.n)
        return Call(
            "estimate_memory",
            estimate_memory,
            (board, method),
            {},
            b.bad,
            False,
            b.odd,
            lambda v, p: p.append(f"estimate {v!r}") if not isinstance(v, int) or v < 0 else None,
        )
    if what == "check_certificate":
        cert = b.pick(
            [
                {"kind": "colour-count", "clause": "closed-needs-balance", "counts": [13, 12]},
                {"kind": "exhaustive-search"},
                {},
                {"kind": None},
                {"kind": "sat-refutation"},
                {"kind": "sat-refutation", "cnf": [[1], [-1]], "proof": ["0"], "variables": {}},
                {"kind": "tour", "squares": [[0, 0]]},
                {"kind": "degree", "squares": "x"},
                {"kind": "schwenk-4xn", "outer": 5},
            ]
        )
        m, n = b.pick([(5, 5), (8, 8), (3, 4), (4, 4)])
        closed = b.pick([False, True])
        req = Request(m, n, closed=closed)

        def check(value: Any, problems: list[str]) -> None:
            if not (isinstance(value, tuple) and len(value) == 2):
                problems.append(f"not (accepted, why): {value!r}")
                return
            if value[0] and req is not None and req.brute() and req.brute_exists():
                problems.append(f"accepted a bogus certificate: {value[1]}")
            if value[0] and (m, n) == (8, 8):
                problems.append(f"accepted a certificate of absence on 8x8: {value[1]}")

        return Call(
            "check_certificate",
            check_certificate,
            (cert, m, n),
            {"closed": closed},
            b.bad,
            False,
            True,
            check,
        )
    m, n = b.integer(1, 5), b.integer(1, 5)
    size = f"{m} {n}"
    if b.chance(12):
        size = b.pick(["0 5", "a b", "5", "5 5 5", "-1 4"])
        b.bad += [size, size.split()[0]]

    def square_text() -> str:
        if b.chance(10):
            text = b.pick([name((m + 1, 0)), "", "x", "a0", "1,", f"{m},0", "a1b"])
            if text:
                b.bad.append(text)
            else:
                b.must_raise = True  # a blank line: "expected three lines"
            return str(text)
        sq = (b.integer(0, m - 1), b.integer(0, n - 1))
        return name(sq) if b.chance(75) else f"{sq[0]},{sq[1]}"

    lines = [size, square_text(), square_text()]
    text = "\n".join(lines)
    if b.chance(5):
        text = b.pick([None, 5, b"5 5\na1\na1"])
        b.bad.append(text)
    timeout = b.timeout([1.0])
    req = None
    if not b.bad and not b.odd:
        s, e = as_pair(lines[1]), as_pair(lines[2])
        if s is not None and e is not None:
            req = Request(m, n, start=s, end=e)

    def check_classic(answer: Any, problems: list[str]) -> None:
        if req is None:
            return
        if answer.text == "Not Found":
            if req.brute() and req.brute_exists():
                problems.append("Not Found, but the enumeration finds a tour")
        elif not answer.text.startswith("gave up"):
            squares = [as_pair(t) for t in answer.text.split()]
            why = req.defect(squares)
            if why:
                problems.append(f"the classic answer is not a tour: {why}")

    return Call(
        "solve_classic",
        solve_classic,
        (text,),
        {"timeout": timeout},
        b.bad,
        b.must_raise,
        b.odd,
        check_classic,
    )


# ---------------------------------------------------------------- the tests
STRATEGIES = {
    "search": search_calls(),
    "board": board_calls(),
    "tour": tour_calls(),
    "count": count_calls(),
    "explore": explore_calls(),
    "formats": format_calls(),
    "misc": misc_calls(),
}
WEIGHTS = {"search": 4, "board": 2, "tour": 3, "count": 2, "explore": 2, "formats": 2, "misc": 2}


_family_settings = support.family_settings(WEIGHTS, "KNIGHTGRAPH_FUZZ_API_CASES", DEFAULT_CASES)


def _make_test(family: str) -> Any:
    @_family_settings(family)
    @given(call=STRATEGIES[family])
    def test(call: Call, contract_counter: Counter[str]) -> None:
        try:
            run_call(call, contract_counter)
        finally:
            if call.folder is not None:
                shutil.rmtree(call.folder, ignore_errors=True)

    test.__name__ = f"test_api_contract_{family}"
    test.__doc__ = f"Random {family} calls keep the API contract."
    return test


test_api_contract_search = _make_test("search")
test_api_contract_board = _make_test("board")
test_api_contract_tour = _make_test("tour")
test_api_contract_count = _make_test("count")
test_api_contract_explore = _make_test("explore")
test_api_contract_formats = _make_test("formats")
test_api_contract_misc = _make_test("misc")


# ---------------------------------------------------------------- the issue's calls
def _issue_calls() -> list[Call]:
    t = kg.Tour.from_squares(list(KNOWN_TOURS[1].squares), kg.Board(3, 4))
    return [
        Call("validate_tour", kg.validate_tour, (None, 8, 8), {}, [None], True),
        Call("find_tour", kg.find_tour, (8, 8), {"closed": "yes"}, ["yes"], True),
        Call("knight_graph", kg.knight_graph, (10**12, 10**12), {}, [10**12], True),
        Call("Tour.transformed", t.transformed, ("rot90",), {}, ["rot90"], True),
        Call(
            "find_tour",
            kg.find_tour,
            (8, 8),
            {"closed": True, "end": "h8", "timeout": 5},
            [],
            False,
            False,
            check_search(Request(8, 8, closed=True, end=(7, 7)), exact=False),
        ),
        Call(
            "tour_exists",
            kg.tour_exists,
            (6, 6),
            {"closed": True, "end": "a1", "timeout": 5},
            [],
            False,
            False,
            check_search(Request(6, 6, closed=True, end=(0, 0)), exact=True),
        ),
        Call(
            "tour_exists",
            kg.tour_exists,
            (3, 24),
            {"closed": True, "removed": ["x1", "d2", "n2", "j3", "s3", "x3"], "timeout": 20},
            [],
            False,
            False,
            check_search(
                Request(
                    3,
                    24,
                    KNIGHT,
                    frozenset(as_pair(s) for s in ["x1", "d2", "n2", "j3", "s3", "x3"]),
                    True,
                ),
                exact=True,
            ),
        ),  # type: ignore[misc]
    ]


@pytest.mark.parametrize("call", _issue_calls(), ids=lambda c: c.describe()[:60])
def test_issue_12_calls(call: Call, contract_counter: Counter[str]) -> None:
    run_call(call, contract_counter)


def test_harness_catches_violations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness itself: a foreign exception, an unnamed value and a wrong tour are caught."""
    monkeypatch.delenv("KNIGHTGRAPH_CONTRACT_LOG", raising=False)
    counter: Counter[str] = Counter()

    def boom() -> None:
        raise TypeError("nope")

    with pytest.raises(pytest.fail.Exception, match="not a KnightGraphError"):
        run_call(Call("boom", boom), counter)

    def unnamed() -> None:
        raise kg.InvalidBoardError("something is wrong")

    with pytest.raises(pytest.fail.Exception, match="does not name"):
        run_call(Call("unnamed", unnamed, bad=[12345]), counter)
    wrong = kg.SearchResult(
        kg.Status.PROVEN_ABSENT, certificate=kg.Certificate("exhaustive-search", "trust me")
    )
    with pytest.raises(pytest.fail.Exception, match="rejects"):
        run_call(
            Call("wrong", lambda: wrong, check=check_search(Request(5, 5), exact=True)), counter
        )
    assert names_value("invalid board size 1,000,000,000,000", [10**12])
