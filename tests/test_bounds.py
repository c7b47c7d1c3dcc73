"""Bounded input: every command refuses what it cannot do before doing any work.

Sizes (against the memory the work needs), worker counts, dask addresses and
output paths are checked first: bad input is exit 2 with one line on standard
error naming the value, never a traceback, never a file left behind.  Worker
processes die with their parent (SIGKILL, SIGTERM, SIGINT).  An internal error
is exit 70 ("please report this"), never exit 2.

The cases that would take the machine down if their check regressed (huge
boards, a million workers) run in a subprocess with a memory cap, or with the
process pool disabled.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cli_support import call, one_line, subprocess_env

import knightgraph
from knightgraph import Board, BoardTooLargeError, InvalidOptionError, KnightGraphError
from knightgraph.cli import EXIT_INTERNAL
from knightgraph.exceptions import InvalidBoardError
from knightgraph.running.parallel import (
    ProcessExecutor,
    SerialExecutor,
    check_dask_address,
    check_workers,
    cpu_count,
    get_executor,
    max_workers,
)
from knightgraph.running.resources import (
    FOOTPRINTS,
    format_bytes,
    require_board_memory,
    require_table_memory,
)

HUGE = "99999999999999999999"
ROOT = Path(__file__).resolve().parents[1]
MEMORY_CAP = 4 * 2**30  # a regressed size check fails (MemoryError) instead of filling the machine


def _capped() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_capped(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m knightgraph ARGS`` with at most 4 GiB of address space."""
    return subprocess.run(
        [sys.executable, "-m", "knightgraph", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=subprocess_env(),
        preexec_fn=_capped,
        timeout=120,  # a guard against a hang, not a measurement
        check=False,
    )


# ------------------------------------------------------------ sizes (subprocess)
HUGE_CASES = [
    (["sweep", HUGE, "8"], rf"sweep of {HUGE}x8 .*memory"),
    (["table", HUGE], rf"table up to {HUGE}x{HUGE} .*memory"),
    (["table", "5", HUGE], rf"table up to 5x{HUGE} .*memory"),
    (["count", HUGE, "8"], rf"count of {HUGE}x8 .*memory"),
    (["count", HUGE, "2"], rf"count of {HUGE}x2 .*memory"),
    (["count", "8", HUGE, "--start", "a1"], rf"count of 8x{HUGE} .*memory"),
    (["starts", HUGE, "8"], rf"map of {HUGE}x8 .*memory"),
    (["ends", HUGE, "8", "--start", "a1"], rf"map of {HUGE}x8 .*memory"),
    (["starts", "400", "400"], r"map of 400x400 .*memory"),
    (["draw", "table", HUGE, "-o", "t.png"], rf"table up to {HUGE}x{HUGE} .*memory"),
    (["tour", HUGE, "8", "-o", "t.txt"], rf"{HUGE}x8 .*memory"),
]


@pytest.fixture(scope="module")
def huge_runs(tmp_path_factory) -> list[tuple[subprocess.CompletedProcess[str], Path]]:
    homes = [tmp_path_factory.mktemp("huge") for _ in HUGE_CASES]

    def run(k: int) -> tuple[subprocess.CompletedProcess[str], Path]:
        return run_capped(*HUGE_CASES[k][0], cwd=homes[k]), homes[k]

    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(run, range(len(HUGE_CASES))))


@pytest.mark.parametrize("k", range(len(HUGE_CASES)), ids=[" ".join(c[0]) for c in HUGE_CASES])
def test_huge_boards_are_refused_up_front(huge_runs, k) -> None:
    proc, home = huge_runs[k]
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    message = one_line(proc.stderr)
    assert re.search(HUGE_CASES[k][1], message), message
    assert list(home.iterdir()) == [], "nothing may be written"


def test_answers_that_need_no_memory_still_work(capsys) -> None:
    """A theorem answers for any size: the size checks must not refuse it."""
    code, out, err = call(capsys, "exists", HUGE, "2")
    assert (code, err) == (1, "") and "does not exist" in out


# --------------------------------------------------------- other bad input (in process)
BAD = [
    (["starts", "5", "5", "--workers", "1000000"], r"--workers 1000000: at most \d+"),
    (["table", "5", "--workers", "1000000"], r"--workers 1000000"),
    (["sweep", "5", "5", "--workers", "1000000"], r"--workers 1000000"),
    (["count", "5", "5", "--workers", "1000000"], r"--workers 1000000"),
    (["ends", "5", "5", "--start", "a1", "--workers", "1000000"], r"--workers 1000000"),
    (["table", "5", "--workers", "-1"], r"--workers -1"),
    (["table", "5", "--dask", "nope"], r"'nope'"),
    (["table", "5", "--dask", ""], r"--dask address ''"),
    (["table", "5", "--dask", "http://[::1"], r"'http://\[::1'.*scheme 'http'"),
    (["sweep", "5", "5", "--dask", "tcp://host:0"], r"'tcp://host:0'.*port"),
    (["starts", "5", "5", "--dask", "tcp://::1:8786"], r"'tcp://::1:8786'.*brackets"),
    (["table", "5", "0"], r"invalid board size 0"),
    (["table", "0"], r"invalid board size 0"),
    (["tour", "8", "8", "-o", ""], r"-o ''"),
    (["tour", "8", "8", "-o", "missing/tour.txt"], r"missing/tour\.txt.*no such folder"),
    (["tour", "8", "8", "--proof", "missing/p"], r"missing/p.*no such folder"),
    (["exists", "8", "8", "--proof", ""], r"--proof ''"),
    (["table", "5", "--timeout", "nan"], r"--timeout nan"),
    (["sweep", "5", "5", "--limit", "-1"], r"--limit -1"),
    (["ends", "5", "5", "--start", "z9"], r"\bz9\b"),
]


@pytest.fixture
def no_pool(monkeypatch):
    """Fail loudly instead of starting processes, should a worker check regress."""

    def refuse(self):
        raise AssertionError(f"a pool of {self.workers} processes was started")

    monkeypatch.setattr(ProcessExecutor, "_get_pool", refuse)


@pytest.mark.parametrize("case", BAD, ids=[" ".join(c[0]) or "-" for c in BAD])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch, no_pool, case) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = call(capsys, *case[0])
    assert (code, out) == (2, ""), (code, out, err)
    message = one_line(err)
    assert re.search(case[1], message), message
    assert list(tmp_path.iterdir()) == []


def test_workers_zero_still_means_one_per_cpu(capsys) -> None:
    ex = get_executor(workers=0)
    expected = ProcessExecutor if cpu_count() > 1 else SerialExecutor
    assert isinstance(ex, expected)
    if isinstance(ex, ProcessExecutor):
        assert ex.workers == cpu_count()
    code, out, _ = call(capsys, "table", "3", "--workers", "0", "--format", "json")
    assert code == 0 and '"codes"' in out


# ------------------------------------------------------------------- the API
def test_worker_count_is_capped() -> None:
    assert max_workers() == 4 * cpu_count() >= 4
    assert check_workers(max_workers()) == max_workers()
    for bad in (max_workers() + 1, 10**6, -1, 2.0, True, "3"):
        with pytest.raises(InvalidOptionError, match=re.escape(repr(bad))):
            check_workers(bad)
    with pytest.raises(InvalidOptionError, match="1000000"):
        get_executor(workers=10**6)
    with pytest.raises(InvalidOptionError, match="1000000"):
        ProcessExecutor(10**6)
    with pytest.raises(InvalidOptionError):
        ProcessExecutor(0)


@pytest.mark.parametrize(
    "address",
    [
        "tcp://127.0.0.1:8786",
        "127.0.0.1:8786",
        "tls://sched.example.org:1",
        "tcp://[::1]:65535",
        "ws://localhost:8786",
        "inproc://10.0.0.1/1234/1",
        "TCP://host-1:80",
    ],
)
def test_well_formed_dask_addresses(address) -> None:
    assert check_dask_address(address) == address


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("", "expected"),
        ("   ", "expected"),
        ("nope", "no port"),
        ("http://[::1", "scheme"),
        ("http://host:80", "scheme"),
        ("tcp://host", "no port"),
        ("tcp://host:x", "port"),
        ("tcp://host:0", "port"),
        ("tcp://host:65536", "port"),
        ("tcp://:8786", "host"),
        ("tcp://[::1:8786", "']'"),
        ("tcp://[nothex]:1", "IPv6"),
        ("tcp://::1:8786", "brackets"),
        ("tcp://a b:1", "spaces"),
        ("tcp://host:8786/path", "port"),
        ("inproc://", "location"),
        (None, "string"),
        (8786, "string"),
    ],
)
def test_malformed_dask_addresses(address, why) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(why)) as info:
        check_dask_address(address)  # type: ignore[arg-type]
    assert repr(address) in str(info.value)


def test_dask_executor_checks_the_address_before_importing_or_connecting() -> None:
    with pytest.raises(InvalidOptionError, match="'nope'"):
        get_executor(dask="nope")


def test_knight_graph_refuses_what_it_cannot_build() -> None:
    """``knight_graph(10**12, 10**12)`` used to hang; it is refused at once now.  (The
    check runs before any square is added, so this cannot hang unless it regresses.)"""
    with pytest.raises(BoardTooLargeError, match=r"knight graph of 1000000000000x1000000000000"):
        knightgraph.knight_graph(10**12, 10**12)
    with pytest.raises(BoardTooLargeError, match=rf"{HUGE}x8"):
        knightgraph.knight_graph(Board(int(HUGE), 8))
    with pytest.raises(InvalidOptionError):  # a Board and sizes: in the tree (and a TypeError)
        knightgraph.knight_graph(Board(5, 6), 6)
    assert knightgraph.knight_graph(8).number_of_edges() == 168


@pytest.mark.parametrize("method", ["move_table", "available", "degrees", "symmetries", "squares"])
def test_board_arrays_refuse_what_they_cannot_build(method) -> None:
    board = Board(10**12, 10**12)  # the board itself is cheap
    assert board.num_squares == 10**24
    with pytest.raises(BoardTooLargeError, match=r"1000000000000x1000000000000") as info:
        getattr(board, method)()
    assert isinstance(info.value, KnightGraphError) and isinstance(info.value, ValueError)


def test_reusable_checks() -> None:
    board = Board(8, 8)
    for kind in FOOTPRINTS:
        board.require_memory(kind)
        require_board_memory(kind, 8, 8)
    with pytest.raises(BoardTooLargeError, match=r"a map of 300x300 \(90,000 squares\)"):
        require_board_memory("map", 300, 300, available=2**30)
    with pytest.raises(BoardTooLargeError, match=r"a count of 8x8 .* 10 B is available"):
        require_board_memory("count", 8, 8, available=10)
    require_table_memory(20, 20)
    with pytest.raises(BoardTooLargeError, match=r"table up to 1000x1000"):
        require_table_memory(1000, 1000)
    for rows, cols in ((0, 5), (5, 0), (-1, 3), (True, 3)):
        with pytest.raises(InvalidBoardError, match="invalid board size"):
            require_table_memory(rows, cols)
    assert format_bytes(2**60) == "1.0 EiB" and format_bytes(10**400).endswith("e400 B")


# ------------------------------------------------------------ internal errors
def test_internal_errors_are_exit_70_not_bad_input(capsys, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise ValueError("boom\nsecond line")

    monkeypatch.setattr("knightgraph.explore.existence_table", broken)
    code, out, err = call(capsys, "table", "3")
    assert (code, out) == (EXIT_INTERNAL, "")
    assert (
        one_line(err)
        == "knightgraph: internal error: ValueError: boom second line (please report this)"
    )

    def unchecked(*args, **kwargs):
        raise KnightGraphError("internal error: sat returned a wrong tour")

    monkeypatch.setattr("knightgraph.explore.existence_table", unchecked)
    code, out, err = call(capsys, "table", "3")
    assert (code, out) == (EXIT_INTERNAL, "")
    assert one_line(err) == (
        "knightgraph: internal error: sat returned a wrong tour (please report this)"
    )

    def bad_input(*args, **kwargs):
        raise InvalidOptionError("invalid thing 'x'")

    monkeypatch.setattr("knightgraph.explore.existence_table", bad_input)
    code, out, err = call(capsys, "table", "3")
    assert (code, out) == (2, "") and "'x'" in one_line(err)


# ------------------------------------------------------------ no orphans
def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], fields[19]


def _children(pid: int) -> dict[int, str]:
    """The live children of ``pid``, with their start times (to tell a reused pid)."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _stat(int(entry))
            if info is not None and info[0] == pid and info[1] != "Z":
                out[int(entry)] = info[2]
    return out


def _alive(children: dict[int, str]) -> list[int]:
    alive = []
    for pid, started in children.items():
        info = _stat(pid)
        if info is not None and info[1] != "Z" and info[2] == started:
            alive.append(pid)
    return alive


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("sig", "code", "message"),
    [
        (signal.SIGKILL, -signal.SIGKILL, None),
        (signal.SIGTERM, 143, "terminated"),
        (signal.SIGINT, 130, "interrupted"),
    ],
    ids=["SIGKILL", "SIGTERM", "SIGINT"],
)
def test_workers_die_with_their_parent(tmp_path, sig, code, message) -> None:
    """A long sweep on two workers; kill the parent; no worker may survive it.

    Standard error goes to a file: a surviving worker would hold a pipe open.
    """
    work = tmp_path / "work"
    work.mkdir()
    with open(tmp_path / "stderr.txt", "w") as stderr:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "knightgraph",
                "sweep",
                "8",
                "8",
                "--method",
                "backtrack",
                "--workers",
                "2",
            ],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            cwd=work,
            env=subprocess_env(),
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    children: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60  # guards, not measurements
        while len(children) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            children = _children(proc.pid)
        assert len(children) == 2 and proc.poll() is None, "the workers never started"
        time.sleep(0.2)  # let them take up work
        proc.send_signal(sig)
        assert proc.wait(timeout=30) == code
        deadline = time.monotonic() + 10
        while _alive(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _alive(children) == [], "worker processes outlived their parent"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _alive(children):  # clean up after a failure
            os.kill(pid, signal.SIGKILL)
    err = (tmp_path / "stderr.txt").read_text()
    if message is None:
        assert err == ""
    else:
        assert message in one_line(err)
    assert list(work.iterdir()) == []
