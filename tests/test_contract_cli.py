"""Hostile-input contract tests of the command line (issue 12, build point 5).

Hypothesis builds random argument vectors for every command, mixing valid
values (small boards, so that valid requests finish fast, and a per-case
``--timeout`` where the command takes one) with hostile ones: sizes that are
zero, negative, huge or not numbers, squares off the board or malformed, bad
flags and combinations, huge worker counts, bad dask addresses, empty or
unwritable output paths, bad ``--moves``, ``--leaper``, ``--remove``,
``--timeout``, ``--limit`` ...  Each case runs in a fresh temporary folder, in
this process through ``knightgraph.cli.main`` (fast), or in a subprocess
``python -m knightgraph`` for a sample and for every case that may start
workers (watched: too many processes or too much memory kills it and fails the
case).  The contract asserted for every case:

* the exit code is 0, 1, 2 or 3, and never a traceback or an uncaught exception;
* exit 2 prints exactly one line on standard error; a case built with a value
  that is certainly bad exits 2 naming it; a well-formed request never exits 2;
* no file is left behind in the folder except the output asked for, complete;
* no process is left behind;
* every tour printed (``--format json``, squares, numbered board, ``.npy``,
  ``classic``, ``count --list``) passes the independent checker of
  ``tests/independent.py`` for the request as asked (board, piece, removed
  squares, ends, closedness);
* every ``PROVEN_ABSENT`` answer carries a certificate that
  :func:`knightgraph.certcheck.check_certificate` accepts for the request as
  asked (and ``python -m knightgraph.certcheck`` for the subprocess sample);
  DRUP proofs written with ``--proof`` pass :mod:`knightgraph.certcheck.drup`;
* on boards small enough for brute force, existence maps, counts and "Not
  Found" agree with the independent enumeration.

``make test`` runs this derandomized (see ``conftest.py``); ``make fuzz`` runs
it with many more random cases (``KNIGHTGRAPH_FUZZ_CLI_CASES``).  Set
``KNIGHTGRAPH_CONTRACT_LOG=FILE`` to append every violating case to FILE (JSON
lines) instead of failing: a survey of everything that breaks, for routing;
``KNIGHTGRAPH_CONTRACT_TRACE=FILE`` appends every case with its time and exit code.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import contract_support as support
import numpy as np
import pytest
from cli_support import subprocess_env
from contract_support import KNIGHT, KNOWN_TOURS, KnownTour, Request, name, parse_name
from hypothesis import given
from hypothesis import strategies as st

from knightgraph.certcheck import check_certificate
from knightgraph.certcheck.drup import check_drup, parse_dimacs
from knightgraph.cli import main

REPO = Path(__file__).resolve().parent.parent
MAX_SESSION_BYTES = 6 << 30
"""More resident memory than this over one case's processes is a violation (killed)."""
ADDRESS_SPACE = 8 << 30
"""Address-space limit of each subprocess (a safety net for the machine)."""


# ---------------------------------------------------------------- cases
@dataclass
class Case:
    argv: list[str]
    stdin: bytes = b""
    files: dict[str, bytes | None] = field(default_factory=dict)
    bad: list[str] = field(default_factory=list)
    must_fail: bool = False
    odd: bool = False
    odd_tokens: list[str] = field(default_factory=list)
    request: Request | None = None
    outputs: list[str] = field(default_factory=list)
    proof: str | None = None
    spawn: bool = False
    sample: bool = False
    expect: int | None = None
    verify_file: bool = False  # verify: the tour file's squares are in ``tour``
    tour: list[tuple[int, int]] | None = None

    @property
    def well_formed(self) -> bool:
        return not (self.bad or self.must_fail or self.odd)

    def describe(self) -> str:
        shown = " ".join(_quote(a) for a in self.argv)
        text = f"knightgraph {shown}"
        if self.stdin:
            text += f"  <<< {self.stdin[:200]!r}"
        for path, data in self.files.items():
            if data is not None and path not in ("afile",):
                text += f"\n    file {path}: {data[:200]!r}"
        return text


def _quote(arg: str) -> str:
    safe = arg and all(ch.isalnum() or ch in "-_.,/:=+" for ch in arg)
    return arg if safe else repr(arg)


class Build(support.Draws):
    """Accumulates one case: argv, which values are bad, and the request it stands for."""

    def __init__(self, draw: Any, *command: str) -> None:
        super().__init__(draw)
        self.head: list[str] = list(command)
        self.positional: list[str] = []
        self.groups: list[list[str]] = []
        self.case = Case(argv=[])
        self.m: int | None = None
        self.n: int | None = None
        self.leaper: tuple[int, int] | None = KNIGHT
        self.removed: set[tuple[int, int]] = set()
        self.removed_named: set[tuple[int, int]] = set()  # --remove tokens as squares, any board
        self.removed_ok = True
        self.closed = False
        self.start: tuple[int, int] | None = None
        self.end: tuple[int, int] | None = None
        self.ends_ok = True
        self.timeout: float | None = None
        self.huge = False  # a huge board: always with a valid --timeout

    # -- drawing helpers (each shrinks towards the plain, valid choice)
    def mark_bad(self, *tokens: str) -> None:
        self.case.bad.extend(tokens)

    def value(
        self,
        good: list[str],
        bad: list[str],
        odd: list[str] = (),
        percent: int = 12,  # type: ignore[assignment]
    ) -> str:
        """A token: usually one of ``good``; ``percent`` % of the time a hostile one."""
        if self.chance(percent):
            token = self.pick(list(bad) + list(odd))
            if token in bad:
                self.mark_bad(token)
            else:
                self.case.odd = True
                self.case.odd_tokens.append(str(token))
            return str(token)
        return str(self.pick(good))

    def opt(self, *tokens: str) -> None:
        self.groups.append(list(tokens))

    # -- board
    def size(self, lo: int = 1, hi: int = 6, *, huge: bool = True, percent: int = 10) -> int | None:
        if self.chance(percent):
            bad = ["0", "-1", "-8", "abc", "", "1.5", "1e3", "0x8", "8x", "+-3", "٣x"]
            odd = ["99999999999999999999", "1000000000000", "1000000"] if huge else []
            token = self.pick(bad + odd)
            self.positional.append(token)
            if token in bad:
                self.mark_bad(token)
            else:
                self.case.odd = True
                self.case.odd_tokens.append(token)
                self.case.sample = True  # a huge size runs in a watched subprocess
                self.huge = True
            return None
        value = self.integer(lo, hi)
        self.positional.append(str(value))
        return value

    def board(
        self,
        lo: int = 1,
        hi: int = 6,
        *,
        max_area: int | None = None,
        huge: bool = True,
        percent: int = 10,
    ) -> None:
        self.m = self.size(lo, hi, huge=huge, percent=percent)
        self.n = self.size(lo, hi, huge=huge, percent=percent)
        if max_area is not None and self.m is not None and self.n is not None:
            while self.m * self.n > max_area:  # keep the work small: shrink the longer side
                if self.m >= self.n:
                    self.m -= 1
                else:
                    self.n -= 1
            self.positional[-2:] = [str(self.m), str(self.n)]

    def piece(self, percent: int = 15) -> None:
        """``--leaper`` (sometimes) and ``--remove`` (sometimes)."""
        if self.chance(percent):
            token = self.value(
                ["1,2", "2,1", "1,3", "2,3", "0,1", "1,1", "1,4"],
                ["abc", "1", "1,2,3", "0,0", "-1,2", "", "1;2", "a,b"],
                ["1,1000000000000"],
            )
            self.opt("--leaper", token)
            parsed = parse_name(token) if "," in token else None
            if token in self.case.bad or parsed is None or token == "1,1000000000000":
                self.leaper = None
            else:
                self.leaper = (min(parsed), max(parsed))
        if self.chance(percent):
            for _ in range(self.integer(1, 3)):
                token, square = self.square()
                self.opt("--remove", token)
                named = parse_name(token)
                if named is not None and min(named) >= 0:
                    self.removed_named.add(named)
                if square is None:
                    self.removed_ok = False
                else:
                    self.removed.add(square)
            if self.m is not None and self.n is not None and len(self.removed) >= self.m * self.n:
                self.case.must_fail = True  # every square removed

    def square(self, percent: int = 10) -> tuple[str, tuple[int, int] | None]:
        """A square token and its (r, c) when it is on the board."""
        if self.m is None or self.n is None:
            token = self.pick(["a1", "b2", "1,1", "c3"])
            return token, None
        if self.chance(percent):
            if self.chance(50):
                token = self.pick(
                    [
                        "",
                        "x",
                        "a0",
                        "1,",
                        ",",
                        "11",
                        "a1b",
                        "0,0,0",
                        "1.5,2",
                        "♞",
                        "a-1",
                        "1,,2",
                        "r,c",
                    ]
                )
                self.mark_bad(token)
                return token, None
            r, c = self.integer(0, self.m + 2), self.integer(0, self.n + 2)
            if r < self.m:
                r = self.m + self.integer(0, 2)
            sq = (r, c)
            token = name(sq) if self.chance(50) else f"{r},{c}"
            if self.chance(20):
                token, sq = f"-1,{c}", (-1, c)
            self.mark_bad(token, name(sq) if min(sq) >= 0 else str(sq))
            return token, None
        sq = (self.integer(0, self.m - 1), self.integer(0, self.n - 1))
        token = f"{sq[0]},{sq[1]}" if self.chance(25) else name(sq)
        return token, sq

    def kind(self, percent: int = 40) -> None:
        if self.chance(percent):
            self.closed = True
            self.opt("--closed")
        elif self.chance(15):
            self.opt("--open")
        if self.chance(3):
            self.opt("--closed")
            self.opt("--open")
            self.mark_bad("--open", "--closed")

    def ends(self, start: int = 40, end: int = 25) -> None:
        given: list[tuple[int, int]] = []
        for flag, percent in (("--start", start), ("--end", end)):
            if self.chance(percent):
                token, sq = self.square()
                self.opt(flag, token)
                parsed = parse_name(token)
                given += [parsed] if parsed is not None and min(parsed) >= 0 else []
                if sq is None:
                    self.ends_ok = False
                elif flag == "--start":
                    self.start = sq
                else:
                    self.end = sq
        for sq in (self.start, self.end):
            if sq is not None and sq in self.removed:
                self.mark_bad(name(sq), f"{sq[0]},{sq[1]}")
        for sq in given:  # a start or end on a removed square, also on a board too large to list
            if sq in self.removed_named:
                self.case.odd = True  # refused; the refusal may name it rather than another
                self.case.odd_tokens += [name(sq), f"{sq[0]},{sq[1]}"]
        if len(given) == 2 and given[0] == given[1]:  # also on a board too large to list
            self.case.odd = True  # refused (2) or proven absent (1): both are fine
            # a refusal may name the square instead of another bad value of the case
            self.case.odd_tokens += [name(given[0]), f"{given[0][0]},{given[0][1]}"]

    def timeout_option(
        self, good: list[str], *, percent: int = 92, flag: str = "--timeout"
    ) -> None:
        if self.huge:
            token = self.pick(good[:2])
            self.opt(flag, token)
            self.timeout = float(token)
        elif not self.chance(100 - percent):  # shrinks towards keeping the timeout
            token = self.value(good, ["-1", "nan", "abc", "", "-0.5", "1s"], ["inf", "1e400"])
            self.opt(flag, token)
            try:
                self.timeout = float(token)
            except ValueError:
                self.timeout = None

    def total_timeout_option(self, good: list[str], *, percent: int = 30) -> None:
        """``--total-timeout`` of the commands that run a search per square or board: always
        (valid) on a huge board, where ``--timeout`` alone bounds each search, not the run."""
        if self.huge:
            self.opt("--total-timeout", self.pick(good[:1]))
        elif self.chance(percent):
            token = self.value(good, ["-1", "nan", "abc", "", "-0.5", "1s"], ["inf", "1e400"])
            self.opt("--total-timeout", token)

    def executor(self, percent: int = 8) -> None:
        if self.chance(percent):
            token = self.value(
                ["1", "2", "0"],
                ["-1", "1000000", "99999999999999999999", "abc", "2.5", ""],
                percent=40,
            )
            self.opt("--workers", token)
            if token != "1":
                self.case.spawn = True
        elif self.chance(2):
            token = self.pick(["nope", "", "http://[::1", "::", "tcp://", "tcp://[::1"])
            self.opt("--dask", token)
            self.mark_bad(token)
            self.case.spawn = True

    def output(self, flag: str, good: list[str], percent: int = 12) -> str:
        token = self.value(
            good, ["", "nofolder/out.txt", "afile/out.txt", "sub", "."], percent=percent
        )
        self.opt(flag, token)
        return token

    def garbage_flag(self, percent: int = 3) -> None:
        if self.chance(percent):
            token = self.pick(["--bogus", "--tiemout", "-x", "--format=xml"])
            if token == "--format=xml":
                self.opt(token)
                self.mark_bad("xml")
            else:
                self.opt(token)
                self.mark_bad(token)

    def run_options(
        self,
        timeouts: list[str],
        *,
        timeout_percent: int,
        total: bool = True,
        format_percent: int = 60,
        workers_percent: int = 10,
    ) -> None:
        """The options the commands that answer for many boards or squares end with:
        ``--timeout`` (from ``timeouts``), ``--total-timeout`` (where the command has one),
        ``--format`` json or text, an executor, and sometimes a garbage flag."""
        self.timeout_option(timeouts, percent=timeout_percent)
        if total:
            self.total_timeout_option(["1", "0.5", "0"])
        if self.chance(format_percent):
            self.opt("--format", self.value(["json", "text"], ["xml"], percent=5))
        self.executor(percent=workers_percent)
        self.garbage_flag()

    # -- finishing
    def request(self) -> Request | None:
        if (
            self.m is None
            or self.n is None
            or self.leaper is None
            or not self.removed_ok
            or not self.ends_ok
            or self.case.must_fail
        ):
            return None
        if self.m * self.n <= len(self.removed):
            return None
        if any(sq in self.removed for sq in (self.start, self.end) if sq is not None):
            return None
        return Request(
            self.m, self.n, self.leaper, frozenset(self.removed), self.closed, self.start, self.end
        )

    def done(self) -> Case:
        order = self.draw(st.permutations(self.groups)) if len(self.groups) > 1 else self.groups
        self.case.argv = self.head + self.positional + [t for g in order for t in g]
        self.case.request = self.request()
        if self.chance(6):
            self.case.sample = True
        for token in self.positional:
            try:
                if abs(int(token)) > 10:
                    self.case.sample = True
            except ValueError:
                pass
        return self.case


# ---------------------------------------------------------------- per command
METHOD_OPTIONS = {
    "backtrack": ["moves", "prune", "oracle", "order"],
    "warnsdorff": ["moves", "rule", "repair", "attempts"],
    "sat": [],
    "divide": [],
    "auto": [],
}


def _moves_token(b: Build) -> str:
    a, c = b.leaper if b.leaper is not None else KNIGHT
    moves = sorted({(x, y) for p, q in ((a, c), (c, a)) for x in (p, -p) for y in (q, -q)})
    perm = b.draw(st.permutations(moves))
    good = ";".join(f"{x},{y}" for x, y in perm)
    return b.value(
        [good],
        ["abc", "1,2;", "1;2", "1,2,3", ";", "", "x,y;1,2"],
        ["0,0", "3,3;1,2", "1,2;1,2", "1,2"],
    )


def search_options(b: Build, method: str) -> None:
    """Method-specific flags: the method's own (valid) and, sometimes, another's (bad)."""
    own = METHOD_OPTIONS.get(method, [])
    others = sorted({o for opts in METHOD_OPTIONS.values() for o in opts} - set(own))
    chosen = [o for o in own if b.chance(25)]
    if others and b.chance(6):
        wrong = b.pick(others)
        chosen.append(wrong)
        b.mark_bad(f"--{wrong}")
    if "oracle" in chosen and "order" in chosen:
        b.case.odd = True  # the oracle follows the fixed order: refusing warnsdorff order is fine
    for option in chosen:
        if option == "moves":
            b.opt("--moves", _moves_token(b))
        elif option in ("prune", "oracle"):
            b.opt(f"--{option}")
        elif option == "order":
            b.opt("--order", b.value(["fixed", "warnsdorff"], ["x", ""]))
        elif option == "rule":
            rule = b.value(["roth", "random", "first", "pohl", "squirrel", "border"], ["nope", ""])
            b.opt("--rule", rule)
            if rule == "squirrel":
                b.case.odd = True  # defined for square boards of side >= 5 only: refusing is fine
        elif option == "repair":
            b.opt(b.pick(["--repair", "--no-repair"]))
        elif option == "attempts":
            b.opt("--attempts", b.value(["1", "3", "10"], ["-1", "abc", "1.5"], ["0"]))
    if b.chance(20):
        b.opt(
            "--seed",
            b.value(["0", "1", "12345"], ["abc", "1.5", ""], ["-1", "99999999999999999999"]),
        )
    if b.chance(12):
        b.opt("--limit", b.value(["1000", "100000", "50"], ["-1", "abc", "1e9", ""], ["0"]))


def method_choice(b: Build, default: str) -> str:
    if not b.chance(60):
        return default
    token = b.value(["auto", "backtrack", "warnsdorff", "sat", "divide"], ["nope", "", "AUTO "])
    b.opt("--method", token)
    return token


@st.composite
def tour_cases(draw: Any) -> Case:
    b = Build(draw, "tour")
    b.board(1, 8)
    b.piece()
    b.kind()
    b.ends()
    method = method_choice(b, "auto")
    search_options(b, method)
    if method in ("warnsdorff", "divide") and (
        b.start or b.end or b.closed or b.removed or b.leaper != KNIGHT
    ):
        b.case.odd = True  # a heuristic/constructive method may refuse such a request (exit 2)
    if method == "backtrack" and b.m and b.n and b.m * b.n > 25 and not b.case.bad:
        b.timeout_option(["0.3", "0.5"], percent=100)
    else:
        b.timeout_option(["0.3", "0.5", "1", "0"], percent=85)
    fmt = (
        b.value(["squares", "json", "board", "npy"], ["xml", ""], percent=5)
        if b.chance(60)
        else "squares"
    )
    if fmt != "squares" or b.chance(10):
        b.opt("--format", fmt)
    out = None
    if b.chance(30) or (fmt == "npy" and not b.chance(5)):
        out = b.output("-o", ["out.npy" if fmt == "npy" else "out.txt", "sub/out.json"])
        if out in ("out.txt", "out.npy", "sub/out.json"):
            b.case.outputs.append(out)
    if fmt == "npy" and out is None:
        b.mark_bad("npy")
    if b.chance(10):
        proof = b.value(["proof.drup", "sub/p.drup"], ["", "nofolder/p.drup", "afile/p.drup"])
        b.opt("--proof", proof)
        if proof in ("proof.drup", "sub/p.drup"):
            b.case.proof = proof
    b.garbage_flag()
    return b.done()


@st.composite
def exists_cases(draw: Any) -> Case:
    b = Build(draw, "exists")
    b.board(1, 8)
    b.piece()
    b.kind()
    b.ends()
    b.timeout_option(["0.5", "1", "0"], percent=80)
    if b.chance(60):
        b.opt("--format", b.value(["json", "text"], ["xml", "JSON"], percent=5))
    if b.chance(10):
        proof = b.value(["proof.drup"], ["", "nofolder/p.drup", "sub"])
        b.opt("--proof", proof)
        if proof == "proof.drup":
            b.case.proof = proof
    b.garbage_flag()
    return b.done()


@st.composite
def table_cases(draw: Any) -> Case:
    b = Build(draw, "table")
    b.m = b.size(1, 5)
    if b.chance(60):
        b.n = b.size(1, 5)
    b.run_options(["0.5", "1"], timeout_percent=70, format_percent=50)
    case = b.done()
    case.request = None
    return case


@st.composite
def count_cases(draw: Any) -> Case:
    b = Build(draw, "count")
    b.board(1, 6, max_area=20)
    b.piece()
    b.kind()
    b.ends(start=30, end=15)
    if b.chance(15):
        convention = b.value(["oeis", "knuth"], ["x", ""])
        b.opt("--convention", convention)
        if convention == "knuth" and b.closed:
            b.case.odd = True  # knuth's convention is about open tours: refusing is fine
    if b.chance(10):
        b.opt("--symmetry")
        if (
            b.start is not None
            or b.end is not None
            or any(g[0] in ("--start", "--end") for g in b.groups)
        ):
            b.mark_bad("--symmetry")
    if b.chance(15):
        b.opt("--list", b.value(["0", "1", "3"], ["-1", "abc", ""]))
    b.run_options(["0.5", "1"], timeout_percent=70, total=False, workers_percent=6)
    return b.done()


@st.composite
def map_cases(draw: Any) -> Case:
    command = draw(st.sampled_from(["starts", "ends"]))
    b = Build(draw, command)
    b.board(1, 5, max_area=20)
    b.piece()
    b.kind(percent=30)
    if command == "ends":
        if b.chance(95):
            token, sq = b.square()
            b.opt("--start", token)
            b.start = sq
            b.ends_ok = sq is not None
            if sq is not None and sq in b.removed:
                b.mark_bad(name(sq), f"{sq[0]},{sq[1]}")
        else:
            b.mark_bad("--start")
    if b.chance(20):
        b.opt(b.pick(["--counts", "--no-counts"]))
    b.run_options(["0.2", "0.5"], timeout_percent=75)
    return b.done()


@st.composite
def sweep_cases(draw: Any) -> Case:
    b = Build(draw, "sweep")
    b.board(1, 6)
    method = method_choice(b, "warnsdorff")
    if method not in ("warnsdorff",) and b.m and b.n:
        b.m, b.n = min(b.m, 4), min(b.n, 4)  # exact methods from every square: keep it small
        b.positional[-2:] = [str(b.m), str(b.n)]
    b.piece()
    b.kind(percent=25)
    search_options(b, method)
    if method in ("divide",) or (method == "warnsdorff" and b.closed):
        b.case.odd = True
    b.run_options(["0.1", "0.2"], timeout_percent=85)
    return b.done()


@st.composite
def classic_cases(draw: Any) -> Case:
    b = Build(draw, "classic")
    m, n = b.integer(1, 6), b.integer(1, 6)
    b.m, b.n = m, n
    size_line = f"{m} {n}"
    if b.chance(12):
        size_line = b.pick(["0 5", "a b", "5", "5 5 5", "-1 4", "5.0 5", "5,5"])
        b.mark_bad(size_line)
        if size_line in ("0 5", "-1 4", "5.0 5"):
            b.mark_bad(size_line.split()[0])  # the message may name the one bad number
        b.m = b.n = None
    elif b.chance(3):
        size_line = b.pick(["99999999999999999999 8", "1000000 1000000"])
        b.case.odd = True
        b.case.sample = True
        b.m = b.n = None
    start_token, start = b.square()
    end_token, end = b.square()
    lines = [size_line, start_token, end_token]
    if b.chance(5):
        lines.pop(b.integer(0, 2))
        b.case.must_fail = True
    if b.chance(4):
        lines.append("extra")
        b.mark_bad("extra")
    newline = "\r\n" if b.chance(10) else "\n"
    data = newline.join(lines).encode() + (newline.encode() if b.chance(80) else b"")
    if b.chance(3):
        data = b"\xff\xfe" + data
        b.case.must_fail = True
        b.case.bad.clear()
    if start is not None and start == end and m * n > 1:
        b.case.expect = 1  # "Not Found"
    if start is not None and end is not None and b.m is not None:
        b.start, b.end = start, end
    else:
        b.ends_ok = False
    where = b.pick(["stdin", "file", "dash"]) if b.chance(50) else "stdin"
    if where == "file":
        b.case.files["in.txt"] = data
        path = b.value(["in.txt"], ["nofile.txt", "sub"], percent=8)
        b.positional.append(path)
    else:
        b.case.stdin = data
        if where == "dash":
            b.positional.append("-")
    b.timeout_option(["1", "0.5"], percent=90)
    b.garbage_flag()
    return b.done()


@st.composite
def verify_cases(draw: Any) -> Case:
    b = Build(draw, "verify")
    known: KnownTour = draw(st.sampled_from(KNOWN_TOURS))
    squares = list(known.squares)
    m, n = known.m, known.n
    if not known.removed and b.chance(10):
        m, n = b.integer(1, 6), b.integer(1, 6)
    b.m, b.n = m, n
    b.positional += [str(m), str(n)]
    for sq in sorted(known.removed):
        b.opt("--remove", name(sq))
        b.removed.add(sq)
    squares = support.corrupt(
        b, squares, ["none", "swap", "drop", "repeat", "reverse", "off"], m + 1
    )
    if b.chance(30):
        b.closed = True
        b.opt("--closed")
    b.ends(start=15, end=15)
    fmt = b.pick(["text", "coords", "json", "npy", "garbage", "empty"]) if b.chance(60) else "text"
    says_closed = False
    if fmt == "text":
        data = " ".join(name(s) for s in squares).encode() + b"\n"
    elif fmt == "coords":
        data = "\n".join(f"{r},{c}" for r, c in squares).encode()
    elif fmt == "json":
        says_closed = known.closed and b.chance(50)
        data = json.dumps(
            {
                "rows": known.m,
                "cols": known.n,
                "closed": says_closed,
                "squares": [list(s) for s in squares],
            }
        ).encode()
        if (m, n) != (known.m, known.n):
            b.case.odd = True
    elif fmt == "npy":
        buffer = io.BytesIO()
        np.save(buffer, np.array([r * n + c for r, c in squares], dtype=np.int64))
        data = buffer.getvalue()
    elif fmt == "garbage":
        data = b.pick(
            [b"\x00\x01\x02garbage", b"{not json", b"[1, 2, 3]", b"a1 zz 3,x", b"\x93NUMPY junk"]
        )
    else:
        data = b""
    where = b.pick(["file", "stdin", "dash", "missing", "folder"]) if b.chance(50) else "file"
    if where == "file":
        b.case.files["tour.in"] = data
        b.positional.append("tour.in")
    elif where == "missing":
        b.positional.append("nofile.txt")
        b.mark_bad("nofile.txt")
    elif where == "folder":
        b.positional.append("sub")
        b.mark_bad("sub")
    else:
        b.case.stdin = data
        if where == "dash":
            b.positional.append("-")
    b.garbage_flag()
    case = b.done()
    inside = all(0 <= r < m and 0 <= c < n for r, c in squares)
    readable = fmt in ("text", "coords", "npy") or (fmt == "json" and (m, n) == (known.m, known.n))
    if readable and inside and case.request is not None and not case.bad and not case.must_fail:
        why = case.request.defect(squares, closed=b.closed or says_closed)
        case.expect = 0 if why is None else 1
    if fmt in ("garbage", "empty") or not inside:
        case.odd = True
    return case


DRAW_SUFFIXES = ["png", "svg", "pdf", "gif"]


def draw_output(b: Build, *, animate: bool = False) -> None:
    if b.chance(3):
        b.mark_bad("-o", "--output")
        return
    good = ["pic.gif"] if animate else [f"pic.{s}" for s in DRAW_SUFFIXES] + ["sub/pic.svg"]
    token = b.value(good, ["", "pic.txt", "pic", "nofolder/pic.png", "afile/pic.png", "sub"])
    b.opt("-o", token)
    if token in good:
        b.case.outputs.append(token)
    if b.chance(70):
        b.opt("--dpi", b.value(["10", "20", "30"], ["0", "-5", "5000", "nan", "abc"]))
    else:
        b.opt("--dpi", "20")


def draw_style(b: Build) -> bool:
    for flag in ("--numbers", "--arrows", "--no-labels", "--no-markers"):
        if b.chance(15):
            b.opt(flag)
    if b.chance(15):
        b.opt("--color-by", b.value(["step", "direction", "none"], ["x"]))
    animate = b.chance(4)
    if animate:
        b.opt("--animate")
        if b.chance(50):
            b.opt("--fps", b.value(["5", "12"], ["0", "-1", "abc"]))
    return animate


@st.composite
def draw_cases(draw: Any) -> Case:
    what = draw(st.sampled_from(["graph", "tour", "table", "file"]))
    b = Build(draw, "draw", what)
    if what == "graph":
        b.board(1, 6)
        b.piece()
        if b.chance(30):
            b.opt(
                "--layout",
                b.value(
                    ["board", "spring", "circular", "spectral", "shell", "bipartite"], ["nope", ""]
                ),
            )
        if b.chance(15):
            b.opt("--color-by", b.value(["color", "degree"], ["x"]))
        if b.chance(15):
            b.opt(b.pick(["--labels", "--no-labels"]))
        draw_output(b)
    elif what == "tour":
        b.board(1, 5)
        b.piece(percent=8)
        b.kind()
        b.ends(start=30, end=15)
        method = method_choice(b, "auto")
        search_options(b, method)
        if method in ("warnsdorff", "divide") and (
            b.start or b.end or b.closed or b.removed or b.leaper != KNIGHT
        ):
            b.case.odd = True
        b.timeout_option(["0.5", "1"], percent=90)
        animate = draw_style(b)
        draw_output(b, animate=animate)
    elif what == "table":
        b.m = b.size(1, 4)
        if b.chance(50):
            b.n = b.size(1, 4)
        b.timeout_option(["0.5", "1"], percent=80)
        draw_output(b)
    else:
        known: KnownTour = draw(st.sampled_from(KNOWN_TOURS))
        data = json.dumps(
            {
                "rows": known.m,
                "cols": known.n,
                "closed": known.closed,
                "removed": [name(s) for s in sorted(known.removed)],
                "squares": [list(s) for s in known.squares],
            }
        ).encode()
        kind = b.pick(["json", "text", "garbage", "missing"]) if b.chance(40) else "json"
        if kind == "text":
            data = " ".join(name(s) for s in known.squares).encode()
        elif kind == "garbage":
            data = b"\x00garbage{"
            b.case.odd = True
        b.case.files["tour.in"] = data
        if kind == "missing":
            b.positional.append("nofile.json")
            b.mark_bad("nofile.json")
        else:
            b.positional.append("tour.in")
        if kind == "text" or b.chance(10):
            b.positional += [str(known.m), str(known.n)]
            for sq in sorted(known.removed):
                b.opt("--remove", name(sq))
        if b.chance(10):
            b.positional.append(str(known.m))  # M without N
            b.case.must_fail = True
        if known.closed and b.chance(30):
            b.opt("--closed")
        animate = draw_style(b)
        draw_output(b, animate=animate)
    b.garbage_flag()
    case = b.done()
    if what in ("table", "file"):
        case.request = None
    return case


@st.composite
def play_cases(draw: Any) -> Case:
    """``play M N``: the page to build a tour by hand (no search: nothing to check but the
    page itself, and the contract)."""
    b = Build(draw, "play")
    b.board(1, 8)
    b.piece()
    b.kind()
    b.ends(start=40, end=0)
    if b.chance(75):
        token = b.output("-o", ["play.html", "sub/play.html", "page"])
        if token in ("play.html", "sub/play.html", "page"):
            b.case.outputs.append(token)
    b.garbage_flag()
    case = b.done()
    case.request = None  # no tour is printed
    return case


GARBAGE_TOKENS = [
    "tour",
    "exists",
    "table",
    "8",
    "0",
    "-1",
    "--closed",
    "--format",
    "json",
    "--bogus",
    "",
    "a1",
    "--timeout",
    "nope",
    "-o",
    "draw",
    "--workers",
    "-h",
    "--help",
    "--version",
    "verify",
    "x" * 300,
    "--",
    "-",
]
"""Tokens of the garbage command lines (no ``count``: ``count 8 8`` is hours of valid work)."""


@st.composite
def garbage_cases(draw: Any) -> Case:
    """Anything at all on the command line (help and version included)."""
    argv = draw(st.lists(st.sampled_from(GARBAGE_TOKENS), max_size=5))
    case = Case(argv=argv)
    case.odd = True
    informative = {"-h", "--help", "--version"} & set(argv)  # argparse answers these first
    if not informative and (
        not argv or argv[0] not in ("tour", "exists", "table", "verify", "draw")
    ):
        case.must_fail = True
    if any(t in ("--workers",) for t in argv):
        case.spawn = True
    case.sample = draw(st.integers(0, 99)) >= 90
    # Anything that could start real work gets a timeout and a small board, or runs watched.
    case.argv = [*argv]
    if "tour" in argv or "exists" in argv or "table" in argv or "count" in argv:
        case.spawn = True  # unbounded work is possible: watch it in a subprocess
    return case


# ---------------------------------------------------------------- running
@dataclass
class Outcome:
    code: int | None
    stdout: str
    stderr: str
    crash: str | None = None
    leaked: list[str] = field(default_factory=list)
    seconds: float = 0.0
    subprocess: bool = False


def _session(sid: int) -> list[int]:
    """Live (not zombie) processes of session ``sid``."""
    return [
        pid for pid, (state, _, _, s) in support.processes().items() if s == sid and state != "Z"
    ]


def _rss(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm", encoding="ascii") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            pass
    return total


def _limit_child() -> None:  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def run_subprocess(
    argv: list[str], stdin: bytes, folder: Path, module: str = "knightgraph"
) -> Outcome:
    env = subprocess_env()
    env.pop("PYTHONSTARTUP", None)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")  # no per-core buffers under the address-space cap
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", module, *argv],
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_limit_child,
    )
    crash = None
    first = True
    while True:
        try:
            out, err = proc.communicate(stdin if first else None, timeout=0.05)
            break
        except subprocess.TimeoutExpired:
            first = False
        members = _session(proc.pid)
        if len(members) > support.MAX_PROCESSES:
            crash = f"started {len(members)} processes (at most {support.MAX_PROCESSES} allowed)"
        elif _rss(members) > MAX_SESSION_BYTES:
            crash = f"used more than {MAX_SESSION_BYTES >> 30} GiB of memory"
        elif time.monotonic() - began > support.HANG_SECONDS:
            crash = f"still running after {support.HANG_SECONDS:.0f} s"
        if crash:
            for _ in range(5):  # kill the whole session, new members included
                _kill(_session(proc.pid))
            out, err = proc.communicate()
            break
    seconds = time.monotonic() - began
    leaked: list[str] = []
    deadline = time.monotonic() + 3.0
    left = _session(proc.pid)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = _session(proc.pid)
    if left:
        leaked = [f"pid {pid}" for pid in left]
        _kill(left)
    return Outcome(
        proc.returncode,
        out.decode(errors="replace"),
        err.decode(errors="replace"),
        crash,
        leaked,
        seconds,
        subprocess=True,
    )


def run_in_process(argv: list[str], stdin: bytes, folder: Path) -> Outcome:
    out, err = io.StringIO(), io.StringIO()
    before = support.children(os.getpid())
    old_cwd, old_stdin = os.getcwd(), sys.stdin
    code: int | None = None
    crash = None
    began = time.monotonic()
    try:
        os.chdir(folder)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        with support.watchdog(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit_:
                code = (
                    exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
                )
    except support.Hang:
        crash = f"still running after {support.HANG_SECONDS:.0f} s"
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        lines = traceback.format_exception(error)
        crash = f"uncaught {type(error).__name__}: {error}\n" + "".join(lines[-6:])
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
    seconds = time.monotonic() - began
    extra = support.new_children(before)
    leaked = [f"pid {pid}" for pid in sorted(extra)]
    _kill(sorted(extra))
    return Outcome(code, out.getvalue(), err.getvalue(), crash, leaked, seconds)


# ---------------------------------------------------------------- checking
def _setup(folder: Path, case: Case) -> set[str]:
    (folder / "afile").write_bytes(b"not a folder\n")
    (folder / "sub").mkdir()
    for path, data in case.files.items():
        if data is None:
            (folder / path).mkdir(exist_ok=True)
        else:
            (folder / path).write_bytes(data)
    return support.snapshot(folder)


def _spellings(token: str) -> list[str]:
    """The token and the ways a message may normalise it: ``0,0`` as ``(0, 0)``, ``1e400`` as ``inf``."""
    out = [token]
    parts = token.split(",")
    if len(parts) == 2 and all(p.strip().lstrip("-").isdigit() for p in parts):
        out.append(f"({int(parts[0])}, {int(parts[1])})")
    with contextlib.suppress(ValueError):
        number = float(token)
        out += [repr(number), f"{number:g}"]
    return out


def _named(tokens: list[str], message: str) -> bool:
    """Does the message name one of the bad tokens?"""
    for token in (t for raw in tokens for t in _spellings(raw)):
        stripped = token.strip()
        if stripped and (stripped in message or repr(token) in message):
            return True
        if not stripped and ("''" in message or '""' in message or "empty" in message.lower()):
            return True
    return False


def _parse_squares_line(text: str) -> list[tuple[int, int]] | None:
    squares = [parse_name(t) for t in text.split()]
    return None if any(s is None for s in squares) else squares  # type: ignore[return-value]


def _parse_board(text: str, req: Request) -> list[tuple[int, int]] | None:
    """The order of a numbered board (rank m first, file labels last)."""
    rows = [line for line in text.splitlines() if "|" in line]
    if len(rows) != req.m:
        return None
    placed: dict[int, tuple[int, int]] = {}
    for line in rows:
        label, cells = line.split("|", 1)
        r = int(label) - 1
        for c, cell in enumerate(cells.split()):
            if cell != ".":
                placed[int(cell)] = (r, c)
    return [placed[k] for k in sorted(placed)]


def check_tour_squares(
    problems: list[str], req: Request | None, squares: Any, what: str, *, closed: bool | None = None
) -> None:
    if req is None:
        return
    why = req.defect(squares, closed=closed)
    if why is not None:
        problems.append(f"{what}: the independent checker rejects the tour: {why}")


def _certificate_check(req: Request | None, data: dict[str, Any]) -> tuple[bool, str]:
    """The certificate of a JSON answer, checked for the request as asked (or, when the
    request was not one this suite could model, for the request the answer describes)."""
    cert = data.get("certificate")
    if req is not None:
        return req.certificate(cert)
    if not isinstance(cert, dict):
        return False, f"no certificate object: {cert!r:.80}"
    try:
        return check_certificate(
            cert,
            int(data["rows"]),
            int(data["cols"]),
            closed=bool(data.get("closed")),
            start=data.get("start"),
            end=data.get("end"),
            leaper=data.get("leaper", KNIGHT),
            removed=data.get("removed", ()),
        )
    except (KeyError, TypeError, ValueError) as err:
        return False, f"the answer does not describe its board: {err!r}"


def check_json_tour(
    problems: list[str], case: Case, data: Any, code: int | None, what: str
) -> None:
    if not isinstance(data, dict):
        problems.append(f"{what}: not a JSON object")
        return
    status = data.get("status")
    want = {"found": 0, "proven_absent": 1, "aborted": 3}.get(str(status))
    if want is not None and code is not None and want != code:
        problems.append(f"{what}: status {status} but exit code {code}")
    req = case.request
    if data.get("squares"):
        check_tour_squares(problems, req, data["squares"], what)
        if code not in (0, None):
            problems.append(f"{what}: a tour was printed but the exit code is {code}")
    elif code == 0:
        problems.append(f"{what}: exit 0 without a tour")
    if status == "proven_absent" or code == 1:
        ok, why = _certificate_check(req, data)
        if not ok:
            problems.append(f"{what}: PROVEN_ABSENT with a certificate the checker rejects: {why}")
        if req is not None and req.brute() and req.brute_exists():
            problems.append(f"{what}: PROVEN_ABSENT but the enumeration finds a tour")
    if status == "found" and req is not None and req.brute() and not req.brute_exists():
        problems.append(f"{what}: FOUND but the enumeration finds no tour")


def check_exists_json(problems: list[str], case: Case, data: Any, code: int | None) -> None:
    if not isinstance(data, dict) or "exists" not in data:
        problems.append("exists --format json: not the documented object")
        return
    want = {True: 0, False: 1, None: 3}.get(data["exists"])
    if code != want:
        problems.append(f"exists: 'exists' is {data['exists']} but the exit code is {code}")
    req = case.request
    cert = data.get("certificate")
    if data["exists"] is True:
        squares = cert.get("squares") if isinstance(cert, dict) else None
        if not squares:
            problems.append("exists: true without the tour in the certificate")
        else:
            check_tour_squares(problems, req, squares, "exists certificate")
    if data["exists"] is False:
        ok, why = _certificate_check(req, data)
        if not ok:
            problems.append(f"exists: PROVEN_ABSENT with a certificate the checker rejects: {why}")
        if req is not None and req.brute() and req.brute_exists():
            problems.append("exists: PROVEN_ABSENT but the enumeration finds a tour")
    if data["exists"] is True and req is not None and req.brute() and not req.brute_exists():
        problems.append("exists: true but the enumeration finds no tour")


def check_map_json(problems: list[str], case: Case, data: Any, code: int | None) -> None:
    req = case.request
    if not isinstance(data, dict) or not isinstance(data.get("ok"), list):
        problems.append("map --format json: not the documented object")
        return
    ok = data["ok"]
    if req is None:
        return
    if len(ok) != req.m or any(len(row) != req.n for row in ok):
        problems.append(f"map: 'ok' is not {req.m} x {req.n}")
        return
    if not req.brute() or req.squares < 1:
        return
    unknown = {parse_name(s) for s in data.get("unknown") or []}
    command = case.argv[0]
    counts = data.get("counts")
    for r in range(req.m):
        for c in range(req.n):
            sq = (r, c)
            if sq in req.removed or sq in unknown:
                continue
            if command == "ends":
                if req.start is None or sq == req.start:
                    continue
                truth = req.brute_count(req.start, sq)
            elif req.squares == 1:  # one square: an open tour, never a closed one
                truth = int(not req.closed)
            else:
                truth = req.brute_count(sq, None)  # tours from sq, to anywhere
            if command == "sweep":  # a heuristic may fail, never succeed falsely
                if ok[r][c] and not truth:
                    problems.append(f"sweep: {name(sq)} marked ok but no tour starts there")
                continue
            if bool(ok[r][c]) != bool(truth):
                problems.append(
                    f"{command}: {name(sq)} is {ok[r][c]} but the enumeration finds {truth} tours"
                )
            if (
                isinstance(counts, list)
                and req.squares > 2
                and len(counts) == req.m
                and counts[r][c] is not None
                and counts[r][c] != truth
            ):
                problems.append(
                    f"{command}: {counts[r][c]} tours at {name(sq)}, the enumeration finds {truth}"
                )


def check_count(problems: list[str], case: Case, out: str, code: int | None) -> None:
    req = case.request
    if "--format" not in case.argv or case.argv[case.argv.index("--format") + 1] != "json":
        return
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        problems.append(f"count --format json printed no JSON: {out[:200]!r}")
        return
    directed = data.get("directed")
    if code in (0, 1) and isinstance(directed, int) and (directed > 0) != (code == 0):
        problems.append(f"count: {directed} tours but exit code {code}")
    for squares in data.get("tours") or []:
        check_tour_squares(problems, req, squares, "count --list")
    if req is None or not req.brute() or "--convention" in case.argv or req.squares < 3:
        return
    truth = req.brute_directed()
    if truth is not None and isinstance(directed, int) and directed != truth:
        problems.append(f"count: {directed} directed tours, the enumeration finds {truth}")


MAGIC = {"png": b"\x89PNG", "pdf": b"%PDF", "gif": b"GIF8", "svg": b"<svg"}


def check_output_file(problems: list[str], case: Case, path: Path, rel: str) -> None:
    data = path.read_bytes()
    command = case.argv[0]
    suffix = rel.rsplit(".", 1)[-1]
    if command == "play":
        if not (data.startswith(b"<!DOCTYPE html>") and data.rstrip().endswith(b"</html>")):
            problems.append(f"{rel}: not a complete HTML page")
        return
    if command == "draw":
        magic = MAGIC.get(suffix, b"")
        if magic not in data[:4096]:
            problems.append(f"{rel}: not a complete .{suffix} file")
        return
    if command != "tour":
        return
    fmt = case.argv[case.argv.index("--format") + 1] if "--format" in case.argv else "squares"
    req = case.request
    if fmt == "json":
        try:
            check_json_tour(problems, case, json.loads(data), None, rel)
        except (json.JSONDecodeError, UnicodeDecodeError):
            problems.append(f"{rel}: incomplete JSON")
    elif fmt == "npy":
        try:
            order = np.load(io.BytesIO(data), allow_pickle=False)
        except (ValueError, OSError, EOFError):
            problems.append(f"{rel}: incomplete .npy")
            return
        if req is not None:
            check_tour_squares(problems, req, [divmod(int(i), req.n) for i in order.tolist()], rel)
    elif fmt == "squares":
        squares = _parse_squares_line(data.decode(errors="replace"))
        if squares is None:
            problems.append(f"{rel}: not a line of squares")
        else:
            check_tour_squares(problems, req, squares, rel)
    elif fmt == "board" and req is not None:
        squares = _parse_board(data.decode(errors="replace"), req)
        if squares is None:
            problems.append(f"{rel}: not a numbered board")
        else:
            check_tour_squares(problems, req, squares, rel)


def contract_problems(case: Case, res: Outcome, folder: Path, before: set[str]) -> list[str]:
    """Everything this outcome breaks (empty: the contract holds)."""
    problems: list[str] = []
    code = res.code
    if res.crash:
        problems.append(res.crash)
    if code not in (0, 1, 2, 3) and not res.crash:
        problems.append(f"exit code {code}")
    for stream, text in (("stdout", res.stdout), ("stderr", res.stderr)):
        if "Traceback (most recent call last)" in text:
            problems.append(f"a traceback on {stream}: ...{text[-600:]}")
    err_lines = [line for line in res.stderr.splitlines() if line.strip()]
    if code == 2 and len(err_lines) != 1:
        problems.append(
            f"exit 2 with {len(err_lines)} lines on stderr (one expected): {res.stderr[:400]!r}"
        )
    if res.leaked:
        problems.append(f"processes left behind: {', '.join(res.leaked)}")
    if res.crash:
        return problems
    if case.bad and code != 2:
        problems.append(
            f"bad input ({', '.join(map(repr, case.bad[:3]))}) but exit {code}"
            f" (2 expected); stdout {res.stdout[:200]!r}"
        )
    elif case.bad and not case.must_fail and not _named(case.bad + case.odd_tokens, res.stderr):
        problems.append(
            f"the error does not name the bad value ({', '.join(map(repr, case.bad[:3]))}): "
            f"{res.stderr.strip()[:300]!r}"
        )
    if case.must_fail and code != 2:
        problems.append(f"bad input but exit {code} (2 expected)")
    if case.well_formed and code == 2:
        problems.append(f"a well-formed request was refused: {res.stderr.strip()[:300]!r}")
    if (
        case.expect is not None
        and case.well_formed
        and code != case.expect
        and not (case.expect == 0 and code == 3)
    ):
        problems.append(f"exit {code}, {case.expect} expected")
    if code == 3 and "support" in (res.stdout + res.stderr).lower():
        problems.append(
            f"an unsupported option reported as 'gave up' (exit 3): {res.stdout[:200]!r}"
        )
    # files
    after = support.snapshot(folder)
    allowed = set() if code == 2 else set(case.outputs)
    if case.proof and code != 2:
        allowed |= {case.proof, case.proof + ".cnf"}
    for rel in sorted(after - before - allowed):
        problems.append(f"file left behind: {rel}")
    for rel in sorted(before - after):
        problems.append(f"file removed: {rel}")
    for rel in sorted((after - before) & set(case.outputs)):
        check_output_file(problems, case, folder / rel, rel)
    if case.proof and code != 2:
        made = [p for p in (case.proof, case.proof + ".cnf") if p in after - before]
        if len(made) == 1:
            problems.append(f"half a proof written: only {made[0]}")
        elif made:
            formula = parse_dimacs(
                (folder / case.proof).with_name(Path(case.proof).name + ".cnf").read_text()
            )
            accepted, why = check_drup(formula, (folder / case.proof).read_text().splitlines())
            if not accepted:
                problems.append(f"--proof: the DRUP proof is rejected: {why}")
    if code in (0, 1, 3):
        check_stdout(problems, case, res, code)
    return problems


def check_stdout(problems: list[str], case: Case, res: Outcome, code: int) -> None:
    argv = case.argv
    if {"-h", "--help", "--version"} & set(argv):
        return  # help or version text, whatever else the line holds
    command = argv[0] if argv else ""
    fmt = argv[argv.index("--format") + 1] if "--format" in argv[:-1] else None
    out = res.stdout.strip()
    req = case.request
    if command == "tour" and "-o" not in argv:
        if fmt == "json":
            try:
                check_json_tour(problems, case, json.loads(out), code, "tour --format json")
            except json.JSONDecodeError:
                problems.append(f"tour --format json printed no JSON: {out[:200]!r}")
        elif code == 0 and fmt in (None, "squares"):
            squares = _parse_squares_line(out)
            if squares is None:
                problems.append(f"tour: exit 0 but not a line of squares: {out[:200]!r}")
            else:
                check_tour_squares(problems, req, squares, "tour")
        elif code == 0 and fmt == "board" and req is not None:
            squares = _parse_board(out, req)
            if squares is None:
                problems.append(f"tour --format board: exit 0 but no numbered board: {out[:200]!r}")
            else:
                check_tour_squares(problems, req, squares, "tour --format board")
        if code == 1 and fmt != "json" and req is not None and req.brute() and req.brute_exists():
            problems.append("tour: exit 1 (proven absent) but the enumeration finds a tour")
    elif command == "exists" and fmt == "json":
        try:
            check_exists_json(problems, case, json.loads(out), code)
        except json.JSONDecodeError:
            problems.append(f"exists --format json printed no JSON: {out[:200]!r}")
        if res.subprocess and code == 1:
            folder = Path(tempfile.mkdtemp(prefix="kg-certcheck-"))
            try:
                checked = run_subprocess([], res.stdout.encode(), folder, "knightgraph.certcheck")
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            if checked.code != 0:
                problems.append(
                    f"python -m knightgraph.certcheck rejects the certificate: "
                    f"{(checked.stdout + checked.stderr).strip()[:300]}"
                )
    elif command == "exists" and req is not None and req.brute() and code in (0, 1):
        if (code == 0) != req.brute_exists():
            problems.append(
                f"exists: exit {code} but the enumeration says "
                f"{'a tour exists' if req.brute_exists() else 'none exists'}"
            )
    elif command in ("starts", "ends", "sweep") and fmt == "json":
        try:
            check_map_json(problems, case, json.loads(out), code)
        except json.JSONDecodeError:
            problems.append(f"{command} --format json printed no JSON: {out[:200]!r}")
    elif command == "count":
        check_count(problems, case, out, code)
    elif command == "play" and code == 0 and "-o" not in argv:
        if not (out.startswith("<!DOCTYPE html>") and out.endswith("</html>")):
            problems.append(f"play: exit 0 without -o but no page: {out[:200]!r}")
    elif command == "table" and fmt == "json":
        try:
            data = json.loads(out)
            codes = data["codes"]
            flat = "".join("".join(row) for row in codes)
        except (json.JSONDecodeError, KeyError, TypeError):
            problems.append(f"table --format json: not the documented object: {out[:200]!r}")
            return
        if set(flat) - set("ceox?"):
            problems.append(f"table: unknown codes {sorted(set(flat) - set('ceox?'))}")
        if ("?" in flat) != (code == 3) and code != 1:
            problems.append(f"table: exit {code} with codes {flat!r}")
    elif command == "classic" and req is not None:
        if code == 0:
            squares = _parse_squares_line(out)
            if squares is None:
                problems.append(f"classic: exit 0 but not a line of squares: {out[:200]!r}")
            else:
                check_tour_squares(problems, req, squares, "classic")
        elif code == 1:
            if out != "Not Found":
                problems.append(f"classic: exit 1 but the output is {out[:100]!r}, not 'Not Found'")
            if req.brute() and req.brute_exists():
                problems.append("classic: 'Not Found' but the enumeration finds a tour")


# ---------------------------------------------------------------- the tests
def run_case(case: Case, counter: Counter[str]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="kg-contract-"))
    try:
        before = _setup(folder, case)
        use_subprocess = case.spawn or case.sample
        if use_subprocess:
            res = run_subprocess(case.argv, case.stdin, folder)
        else:
            res = run_in_process(case.argv, case.stdin, folder)
        problems = contract_problems(case, res, folder, before)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    counter["cli"] += 1
    counter["cli (subprocess)"] += int(use_subprocess)
    support.trace(
        f"{res.seconds:7.2f} s  {'sub' if use_subprocess else 'in '}  exit {res.code}  "
        f"{case.describe().splitlines()[0]}"
    )
    if not problems:
        return
    counter["cli violations"] += 1
    report = (
        f"{case.describe()}\n  -> exit {res.code} in {res.seconds:.2f} s "
        f"({'subprocess' if use_subprocess else 'in-process'})\n"
        f"  stdout: {res.stdout[:300]!r}\n  stderr: {res.stderr[:300]!r}\n"
        + "".join(f"  VIOLATION: {p}\n" for p in problems)
    )
    record = {
        "suite": "cli",
        "argv": case.argv,
        "stdin": case.stdin.decode(errors="replace"),
        "code": res.code,
        "problems": problems,
    }
    support.log_or_fail(record, report)


STRATEGIES = {
    "tour": tour_cases(),
    "exists": exists_cases(),
    "table": table_cases(),
    "count": count_cases(),
    "maps": map_cases(),
    "sweep": sweep_cases(),
    "classic": classic_cases(),
    "verify": verify_cases(),
    "draw": draw_cases(),
    "play": play_cases(),
    "garbage": garbage_cases(),
}
WEIGHTS = {
    "tour": 3,
    "exists": 2,
    "table": 1,
    "count": 1,
    "maps": 1,
    "sweep": 1,
    "classic": 1,
    "verify": 1,
    "draw": 1,
    "play": 1,
    "garbage": 1,
}
"""Relative number of cases per command family (``make fuzz`` spreads its total by these)."""


DEFAULT_CASES = 646
"""CLI cases in ``make test`` (``KNIGHTGRAPH_FUZZ_CLI_CASES`` overrides: ``make fuzz``): 600
before ``play`` joined, so that every other family keeps its number of cases."""


_family_settings = support.family_settings(WEIGHTS, "KNIGHTGRAPH_FUZZ_CLI_CASES", DEFAULT_CASES)


def _make_test(family: str) -> Any:
    @_family_settings(family)
    @given(case=STRATEGIES[family])
    def test(case: Case, contract_counter: Counter[str]) -> None:
        run_case(case, contract_counter)

    test.__name__ = f"test_cli_contract_{family}"
    test.__doc__ = f"Random {family} command lines keep the command-line contract."
    return test


test_cli_contract_tour = _make_test("tour")
test_cli_contract_exists = _make_test("exists")
test_cli_contract_table = _make_test("table")
test_cli_contract_count = _make_test("count")
test_cli_contract_maps = _make_test("maps")
test_cli_contract_sweep = _make_test("sweep")
test_cli_contract_classic = _make_test("classic")
test_cli_contract_verify = _make_test("verify")
test_cli_contract_draw = _make_test("draw")
test_cli_contract_play = _make_test("play")
test_cli_contract_garbage = _make_test("garbage")


# ---------------------------------------------------------------- the issue's cases
ISSUE_CASES = [
    ["tour", "8", "8", "--closed", "--end", "h8", "--format", "json", "--timeout", "5"],
    ["exists", "8", "8", "--closed", "--end", "h8", "--format", "json"],
    ["tour", "6", "6", "--closed", "--end", "a1", "--format", "json", "--timeout", "5"],
    ["tour", "6", "6", "--closed", "--end", "a1", "--method", "sat", "--format", "json"],
    [
        "exists",
        "3",
        "24",
        "--closed",
        "--remove",
        "x1",
        "--remove",
        "d2",
        "--remove",
        "n2",
        "--remove",
        "j3",
        "--remove",
        "s3",
        "--remove",
        "x3",
        "--format",
        "json",
        "--timeout",
        "20",
    ],
    ["starts", "5", "5", "--workers", "1000000"],
    ["table", "5", "--workers", "1000000"],
    ["sweep", "5", "5", "--workers", "1000000"],
    ["sweep", "99999999999999999999", "8"],
    ["table", "99999999999999999999"],
    ["table", "5", "99999999999999999999"],
    ["count", "99999999999999999999", "8"],
    ["starts", "99999999999999999999", "8"],
    ["ends", "99999999999999999999", "8", "--start", "a1"],
    ["table", "5", "--dask", "nope"],
    ["table", "5", "--dask", ""],
    ["table", "5", "--dask", "http://[::1"],
    ["table", "5", "0"],
    ["tour", "8", "8", "-o", ""],
    ["tour", "8", "8", "--method", "divide", "--closed", "--start", "a1", "--end", "c2"],
]
"""The command lines of issue 12's "What was seen", each held to the contract."""


def _issue_case(argv: list[str]) -> Case:
    case = Case(argv=list(argv), spawn=True)
    bad_values = {
        "1000000": "1000000",
        "99999999999999999999": None,
        "nope": "nope",
        "": "",
        "http://[::1": "http://[::1",
        "0": "0",
    }
    for token in argv[1:]:
        if token in bad_values:
            if bad_values[token] is not None:
                case.bad.append(token)
            else:
                case.must_fail = True
    if argv[:3] == ["tour", "8", "8"] and "divide" in argv:
        case.must_fail = True
        case.bad = ["--end"]
    if argv[0] == "exists" and "--remove" in argv:
        case.request = Request(
            3,
            24,
            KNIGHT,
            frozenset(
                parse_name(t)
                for t in ["x1", "d2", "n2", "j3", "s3", "x3"]  # type: ignore[misc]
            ),
            closed=True,
        )
    elif not case.bad and not case.must_fail:
        m, n = int(argv[1]), int(argv[2])
        closed = "--closed" in argv
        end = parse_name(argv[argv.index("--end") + 1]) if "--end" in argv else None
        case.request = Request(m, n, KNIGHT, frozenset(), closed, None, end)
    return case


@pytest.mark.parametrize("argv", ISSUE_CASES, ids=[" ".join(a)[:60] for a in ISSUE_CASES])
def test_issue_12_cases(argv: list[str], contract_counter: Counter[str]) -> None:
    run_case(_issue_case(argv), contract_counter)


def test_checker_self_test() -> None:  # contract_problems only: independent of the log
    """The harness itself: a good run passes, and each kind of violation is caught."""
    case = Case(argv=["tour", "5", "5", "--format", "json"], request=Request(5, 5))
    good = {
        "rows": 5,
        "cols": 5,
        "closed": False,
        "status": "found",
        "squares": [list(s) for s in KNOWN_TOURS[0].squares],
    }
    folder = Path(tempfile.mkdtemp(prefix="kg-self-"))
    try:
        before = _setup(folder, case)
        assert contract_problems(case, Outcome(0, json.dumps(good), ""), folder, before) == []
        broken = dict(good, squares=good["squares"][::2])
        assert contract_problems(case, Outcome(0, json.dumps(broken), ""), folder, before)
        assert contract_problems(case, Outcome(2, "", "a\nb\n"), folder, before)
        assert contract_problems(
            case, Outcome(0, json.dumps(good), "Traceback (most recent call last)"), folder, before
        )
        (folder / ".out.part").write_text("x")
        assert contract_problems(case, Outcome(0, json.dumps(good), ""), folder, before)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    absent = Case(argv=["exists", "4", "4", "--format", "json"], request=Request(4, 4))
    lie = {"rows": 4, "cols": 4, "exists": False, "certificate": {"kind": "exhaustive-search"}}
    folder = Path(tempfile.mkdtemp(prefix="kg-self-"))
    try:
        before = _setup(folder, absent)
        assert contract_problems(absent, Outcome(1, json.dumps(lie), ""), folder, before)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert _named(["z9"], "invalid square 'z9': off the board")
    assert not _named(["z9"], "invalid square")
