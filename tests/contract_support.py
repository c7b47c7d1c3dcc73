"""What the two hostile-input contract suites (``test_contract_cli``, ``test_contract_api``) share.

Written without knightgraph's own parsing, so that a bug in the package cannot hide
itself: squares and their names, the request a case or call stands for and its
independent checks (``tests/independent.py``), the brute-force truth on small boards,
known tours, the hypothesis drawing and settings both suites build on, and the
watchdog, memory cap, process and file checks around each case.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from independent import first_tour, tour_defect, tour_ends

from knightgraph.certcheck import check_certificate

KNIGHT = (1, 2)
KNIGHT_MOVES = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
CPUS = os.cpu_count() or 1
MAX_PROCESSES = 4 * CPUS + 8
"""More processes than this in one case (a command's session, an executor's workers) is a
violation."""
HANG_SECONDS = 60.0
"""A case still running after this long is a violation (every valid case here takes ~1 s)."""
HEADROOM = 4 << 30
"""Extra address space an in-process case may take beyond what the test process has."""
BRUTE_FORCE_SQUARES = 16
"""Boards up to this many squares are also decided by the independent enumeration."""


# ---------------------------------------------------------------- squares
def file_letters(c: int) -> str:
    """Bijective base 26: 0 -> a, 25 -> z, 26 -> aa."""
    out = ""
    c += 1
    while c > 0:
        c, rem = divmod(c - 1, 26)
        out = chr(97 + rem) + out
    return out


def name(square: tuple[int, int]) -> str:
    r, c = square
    return f"{file_letters(c)}{r + 1}"


def parse_name(token: str) -> tuple[int, int] | None:
    """``(r, c)`` from ``d4`` or ``r,c`` (0-based), written independently of knightgraph."""
    text = token.strip().lower()
    if "," in text:
        parts = text.split(",")
        if len(parts) != 2:
            return None
        try:
            return int(parts[0]), int(parts[1])
        except ValueError:
            return None
    letters = ""
    while text and "a" <= text[0] <= "z":
        letters, text = letters + text[0], text[1:]
    if not letters or not text.isdigit() or not text.isascii():
        return None
    column = 0
    for ch in letters:
        column = column * 26 + ord(ch) - 96
    return int(text) - 1, column - 1


# ---------------------------------------------------------------- requests
@cache
def brute_ends(
    m: int,
    n: int,
    leaper: tuple[int, int],
    removed: frozenset[tuple[int, int]],
    start: tuple[int, int],
    closed: bool,
) -> dict[tuple[int, int], int]:
    return tour_ends(m, n, start, closed=closed, leaper=leaper, removed=tuple(removed))


@dataclass
class Request:
    """A well-formed request as a case or call asked for it (the reference for every check)."""

    m: int
    n: int
    leaper: tuple[int, int] = KNIGHT
    removed: frozenset[tuple[int, int]] = frozenset()
    closed: bool = False
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None

    @property
    def squares(self) -> int:
        return self.m * self.n - len(self.removed)

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.m) for c in range(self.n) if (r, c) not in self.removed]

    def defect(self, squares: Any, *, closed: bool | None = None, ends: bool = True) -> str | None:
        """Why ``squares`` is not a tour of the request (None: it is one); ``closed`` overrides
        the request's kind, ``ends=False`` leaves its start and end out."""
        try:
            pairs = [(int(r), int(c)) for r, c in squares]
        except (TypeError, ValueError):
            return f"not a list of (r, c) pairs: {squares!r:.80}"
        return tour_defect(
            self.m,
            self.n,
            pairs,
            closed=self.closed if closed is None else closed,
            start=self.start if ends else None,
            end=self.end if ends else None,
            leaper=self.leaper,
            removed=self.removed,
        )

    def certificate(self, cert: Any) -> tuple[bool, str]:
        """Does :func:`check_certificate` accept ``cert`` (a dict or a certificate object)?"""
        data = cert.to_dict() if hasattr(cert, "to_dict") else cert
        if not isinstance(data, dict):
            return False, f"no certificate object: {cert!r:.80}"
        return check_certificate(
            data,
            self.m,
            self.n,
            closed=self.closed,
            start=None if self.start is None else name(self.start),
            end=None if self.end is None else name(self.end),
            leaper=self.leaper,
            removed=[name(s) for s in sorted(self.removed)],
        )

    # -- the independent enumeration (for boards where ``brute()`` holds)
    def brute(self) -> bool:
        """Small enough for the independent enumeration."""
        return 1 <= self.squares <= BRUTE_FORCE_SQUARES

    def brute_count(self, start: tuple[int, int], end: tuple[int, int] | None) -> int:
        """Directed tours from ``start`` (to ``end``), whatever the request's own ends."""
        ends = brute_ends(self.m, self.n, self.leaper, self.removed, start, self.closed)
        return sum(ends.values()) if end is None else ends.get(end, 0)

    def brute_exists(self) -> bool:
        starts = [self.start] if self.start is not None else self.cells()
        if self.squares == 1:  # one square: an open tour; never closed (no leap back to itself)
            return not self.closed and self.end in (None, starts[0])
        return any(self.brute_count(s, self.end) > 0 for s in starts)

    def brute_directed(self) -> int | None:
        """The directed tours a count of the request reports (None: not compared, for closed
        tours given an end but no start)."""
        if self.closed and self.start is None:
            if self.end is not None:
                return None
            return sum(self.brute_count(s, None) for s in self.cells()) // self.squares
        if self.start is None:
            return sum(self.brute_count(s, self.end) for s in self.cells())
        return self.brute_count(self.start, self.end)


# ---------------------------------------------------------------- known tours
CLOSED_6X6 = (
    "a1 b3 a5 c6 e5 d3 c1 e2 f4 e6 c5 a6 b4 a2 c3 b1 d2 f1 e3 d1 f2 e4 f6 d5 b6 a4 b2 c4 a3 b5 "
    "d6 f5 d4 f3 e1 c2"
)


@dataclass(frozen=True)
class KnownTour:
    m: int
    n: int
    squares: tuple[tuple[int, int], ...]
    closed: bool = False
    removed: frozenset[tuple[int, int]] = frozenset()


def _known_tours() -> list[KnownTour]:
    tours = [
        KnownTour(5, 5, tuple(first_tour(5, 5, (0, 0), KNIGHT_MOVES) or ())),
        KnownTour(3, 4, tuple(first_tour(3, 4, (0, 0), KNIGHT_MOVES) or ())),
        KnownTour(1, 1, ((0, 0),)),
        KnownTour(6, 6, tuple(parse_name(t) for t in CLOSED_6X6.split()), closed=True),  # type: ignore[misc]
        KnownTour(
            3,
            3,
            ((0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)),
            closed=True,
            removed=frozenset({(1, 1)}),
        ),
    ]
    for t in tours:
        assert t.squares, t
        why = tour_defect(t.m, t.n, list(t.squares), closed=t.closed, removed=t.removed)
        assert why is None, (t, why)
    return tours


KNOWN_TOURS = _known_tours()


# ---------------------------------------------------------------- drawing
class Draws:
    """Hypothesis draws of a case or call, each shrinking towards the plain choice."""

    def __init__(self, draw: Any) -> None:
        self.draw = draw

    def chance(self, percent: int) -> bool:
        return bool(self.draw(st.integers(0, 99)) >= 100 - percent)

    def pick(self, options: list[Any]) -> Any:
        return self.draw(st.sampled_from(options))

    def integer(self, lo: int, hi: int) -> int:
        return int(self.draw(st.integers(lo, hi)))


def corrupt(
    b: Draws, squares: list[tuple[int, int]], kinds: list[str], off_row: int
) -> list[tuple[int, int]]:
    """``squares``, 40 % of the time spoilt one of the ways ``kinds`` lists (drawn in that
    order): "swap" two squares, "drop" the last, "repeat" the first, "reverse", or end "off"
    the board (on row ``off_row``); "none" leaves them as they are."""
    corruption = b.pick(kinds) if b.chance(40) else "none"
    if corruption == "swap" and len(squares) > 2:
        i, j = b.integer(0, len(squares) - 1), b.integer(0, len(squares) - 1)
        squares[i], squares[j] = squares[j], squares[i]
    elif corruption == "drop":
        squares = squares[:-1]
    elif corruption == "repeat":
        squares = [*squares, squares[0]]
    elif corruption == "reverse":
        squares = squares[::-1]
    elif corruption == "off":
        squares = [*squares[:-1], (off_row, 0)]
    return squares


def family_settings(weights: dict[str, int], env: str, default: int) -> Callable[[str], settings]:
    """The settings of each family of a suite: the loaded hypothesis profile (derandomized in
    ``make test``) without deadlines or the health checks that slow cases trip, and the
    family's share (by ``weights``) of the suite's cases (``env`` if set, else ``default``)."""

    def for_family(family: str) -> settings:
        total = int(os.environ.get(env) or default)
        count = max(1, math.ceil(total * weights[family] / sum(weights.values())))
        return settings(
            max_examples=count,
            deadline=None,
            suppress_health_check=[
                HealthCheck.too_slow,
                HealthCheck.data_too_large,
                HealthCheck.filter_too_much,
            ],
        )

    return for_family


# ---------------------------------------------------------------- running
class Hang(BaseException):
    """Raised by the watchdog alarm inside an in-process case or call."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang


def _proc_stat(pid: str) -> tuple[str, int, int, int] | None:
    """State, parent, process group and session of a process (None if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2]), int(fields[3])


def processes() -> dict[int, tuple[str, int, int, int]]:
    """Every process (Linux /proc; elsewhere none, and the process checks are off)."""
    out: dict[int, tuple[str, int, int, int]] = {}
    if not os.path.isdir("/proc"):
        return out
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _proc_stat(entry)
            if stat is not None:
                out[int(entry)] = stat
    return out


def children(pid: int) -> set[int]:
    """Live (not zombie) child processes of ``pid``."""
    return {p for p, (state, ppid, _, _) in processes().items() if ppid == pid and state != "Z"}


def new_children(before: set[int]) -> set[int]:
    """Children of this process not in ``before``, once they had 3 s to end."""
    extra = children(os.getpid()) - before
    deadline = time.monotonic() + 3.0
    while extra and time.monotonic() < deadline:
        time.sleep(0.05)
        extra = children(os.getpid()) - before
    return extra


def _vm_size() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


@contextlib.contextmanager
def watchdog() -> Iterator[None]:
    """Runs the block under an address-space cap (``HEADROOM`` beyond what the process has)
    and an alarm that raises :class:`Hang` after ``HANG_SECONDS``; both undone after."""
    old_handler = signal.signal(signal.SIGALRM, _on_alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _vm_size() + HEADROOM
    try:
        if hard == resource.RLIM_INFINITY or cap < hard:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def snapshot(folder: Path) -> set[str]:
    """Every file and folder below ``folder``, relative to it."""
    found = set()
    for root, dirs, files in os.walk(folder):
        for entry in dirs + files:
            found.add(os.path.relpath(os.path.join(root, entry), folder))
    return found


def trace(line: str) -> None:
    """Appends ``line`` to the file ``KNIGHTGRAPH_CONTRACT_TRACE`` names, if it names one."""
    path = os.environ.get("KNIGHTGRAPH_CONTRACT_TRACE")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def log_or_fail(record: dict[str, Any], report: str) -> None:
    """A violation: appended (``record`` and ``report``, as a JSON line) to the file
    ``KNIGHTGRAPH_CONTRACT_LOG`` names, if it names one; else the test fails with ``report``."""
    path = os.environ.get("KNIGHTGRAPH_CONTRACT_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({**record, "report": report}) + "\n")
        return
    pytest.fail(report, pytrace=False)
