"""Black-box tests of the command line: ``tour``, ``exists``, ``verify``, ``--help``, ``--version``.

The contract is the "Command line" section of the design: exit codes 0 found /
exists / valid, 1 proven absent / invalid, 2 bad input, 3 gave up; errors are
one line on standard error (never a traceback, never half-written files).

Commands run in-process through ``knightgraph.cli.main`` (fast) and, where the
real process matters (exit status, standard error, standard input, pipes), in
a subprocess ``python -m knightgraph``.  Every tour the command line prints is
checked twice: by ``knightgraph.validate_tour`` and by the independent checker
in ``tests/independent.py``.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_support import call, one_line, run_cli, subprocess_env
from independent import first_tour, tour_defect

import knightgraph
from knightgraph.cli import main

REPO = Path(__file__).resolve().parent.parent
MOVES = "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"
JSON_KEYS = {"rows", "cols", "closed", "start", "end", "squares", "method", "seconds", "stats"}
EXISTS_KEYS = {"rows", "cols", "closed", "start", "end", "exists", "reason", "certificate"}


# ------------------------------------------------------------------- helpers
def algebraic(name: str) -> tuple[int, int]:
    """Independent parser of algebraic names: files a..z, aa.. (bijective base 26), ranks 1..."""
    match = re.fullmatch(r"([a-z]+)([1-9][0-9]*)", name)
    assert match, f"{name!r} is not an algebraic square name"
    col = 0
    for ch in match.group(1):
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return int(match.group(2)) - 1, col - 1


def name_of(square: tuple[int, int]) -> str:
    """Independent algebraic name of (r, c)."""
    r, c = square
    letters, c = "", c + 1
    while c:
        c, rem = divmod(c - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return f"{letters}{r + 1}"


def check_tour(
    squares: Any,
    m: int,
    n: int,
    *,
    closed: bool = False,
    start: str | None = None,
    end: str | None = None,
) -> list[tuple[int, int]]:
    """Check ``squares`` with the package's verifier and with the independent checker."""
    pairs = [(int(r), int(c)) for r, c in squares]
    knightgraph.validate_tour(pairs, m, n, closed=closed)
    s = None if start is None else algebraic(start)
    e = None if end is None else algebraic(end)
    knightgraph.validate_tour(pairs, m, n, closed=closed, start=s, end=e)
    assert tour_defect(m, n, pairs, closed=closed, start=s, end=e) is None
    return pairs


def parse_squares_line(out: str) -> list[tuple[int, int]]:
    """``--format squares``: algebraic names separated by single spaces on one line."""
    assert out.endswith("\n") and out.count("\n") == 1, "expected exactly one line"
    line = out[:-1]
    assert line == line.strip() and "  " not in line, "expected single spaces"
    return [algebraic(tok) for tok in line.split(" ")]


def parse_board_text(out: str, m: int, n: int) -> list[tuple[int, int]]:
    """``--format board``: rank m first, ``R | k k k``, file labels underneath."""
    lines = out.rstrip("\n").split("\n")
    assert len(lines) == m + 1
    where: dict[int, tuple[int, int]] = {}
    for i, line in enumerate(lines[:m]):
        label, cells = line.split("|")
        r = m - 1 - i
        assert int(label) == r + 1
        numbers = cells.split()
        assert len(numbers) == n
        for c, cell in enumerate(numbers):
            assert int(cell) not in where
            where[int(cell)] = (r, c)
    assert lines[m].split() == [name_of((0, c))[:-1] for c in range(n)]
    assert sorted(where) == list(range(1, m * n + 1))
    return [where[k] for k in range(1, m * n + 1)]


def tour_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """Run ``tour ARGS --format json`` in-process, expect exit 0, return the object."""
    code, out, err = call(capsys, "tour", *args, "--format", "json")
    assert code == 0, (out, err)
    assert out.count("\n") == 1, "JSON is printed as one line"
    return json.loads(out)


# ------------------------------------------------------------------ tour: found
FOUND_CASES = [
    # (argv after "tour", m, n, closed, start)
    (["8", "8", "--closed", "--start", "d4"], 8, 8, True, "d4"),
    (["5", "5", "--start", "c3"], 5, 5, False, "c3"),
    (["3", "4"], 3, 4, False, None),
    (["7", "7", "--start", "a1"], 7, 7, False, "a1"),
    (["30", "30", "--closed"], 30, 30, True, None),
    (["100", "100", "--closed", "--start", "b7"], 100, 100, True, "b7"),
    (["31", "29", "--start", "a1"], 31, 29, False, "a1"),
    (["3", "10", "--closed"], 3, 10, True, None),
    (["6", "9", "--closed"], 6, 9, True, None),
]


@pytest.mark.parametrize(("argv", "m", "n", "closed", "start"), FOUND_CASES)
def test_tour_found_json(capsys, argv, m, n, closed, start) -> None:
    data = tour_json(capsys, *argv)
    assert set(data) >= JSON_KEYS, JSON_KEYS - set(data)
    assert (data["rows"], data["cols"], data["closed"]) == (m, n, closed)
    squares = data["squares"]
    assert all(
        isinstance(sq, list) and len(sq) == 2 and all(type(x) is int for x in sq) for sq in squares
    ), "squares must be [r, c] pairs of ints"
    pairs = check_tour(squares, m, n, closed=closed, start=start)
    assert isinstance(data["start"], str) and isinstance(data["end"], str)
    assert algebraic(data["start"]) == pairs[0] and algebraic(data["end"]) == pairs[-1]
    if start is not None:
        assert data["start"] == start
    assert isinstance(data["method"], str) and data["method"]
    assert isinstance(data["seconds"], int | float) and data["seconds"] >= 0
    assert isinstance(data["stats"], dict)


@pytest.mark.parametrize(("argv", "m", "n", "closed", "start"), FOUND_CASES)
def test_tour_found_squares_text(capsys, argv, m, n, closed, start) -> None:
    code, out, err = call(capsys, "tour", *argv)
    assert code == 0, err
    assert err == ""
    check_tour(parse_squares_line(out), m, n, closed=closed, start=start)


@pytest.mark.parametrize(("argv", "m", "n", "closed", "start"), FOUND_CASES[:3] + FOUND_CASES[4:5])
def test_tour_found_board_text(capsys, argv, m, n, closed, start) -> None:
    code, out, _ = call(capsys, "tour", *argv, "--format", "board")
    assert code == 0
    check_tour(parse_board_text(out, m, n), m, n, closed=closed, start=start)


def test_tour_subprocess_acceptance_command() -> None:
    proc = run_cli("tour", "8", "8", "--closed", "--start", "d4", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    data = json.loads(proc.stdout)
    assert data["start"] == "d4" and data["closed"] is True
    check_tour(data["squares"], 8, 8, closed=True, start="d4")


def test_tour_with_start_and_end(capsys) -> None:
    code, out, _ = call(capsys, "tour", "5", "5", "--start", "a1", "--end", "e5")
    assert code == 0
    check_tour(parse_squares_line(out), 5, 5, start="a1", end="e5")
    data = tour_json(capsys, "8", "8", "--closed", "--start", "a1", "--end", "b3")
    assert (data["start"], data["end"]) == ("a1", "b3")
    check_tour(data["squares"], 8, 8, closed=True, start="a1", end="b3")


def test_tour_accepts_rc_start(capsys) -> None:
    data = tour_json(capsys, "8", "8", "--start", "3,3")
    assert data["start"] == "d4"
    check_tour(data["squares"], 8, 8, start="d4")


def test_tour_one_square_board(capsys) -> None:
    code, out, _ = call(capsys, "tour", "1", "1")
    assert (code, out) == (0, "a1\n")
    check_tour(parse_squares_line(out), 1, 1)


# ---------------------------------------------------------------- tour: absent
ABSENT_CASES = [
    (["4", "4"], False),
    (["5", "5", "--start", "b1"], False),
    (["3", "8", "--closed"], True),
    (["7", "7", "--closed"], True),
    (["31", "29", "--closed"], True),
    (["2", "5"], False),
]
COLOUR_CASES = {("5", "5", "--start", "b1"), ("7", "7", "--closed"), ("31", "29", "--closed")}


@pytest.mark.parametrize(("argv", "closed"), ABSENT_CASES)
def test_tour_absent(capsys, argv, closed) -> None:
    code, text, err = call(capsys, "tour", *argv)
    assert code == 1, (text, err)
    assert err == ""
    assert text.strip() and text.count("\n") == 1
    assert "no " in text and ("closed" if closed else "open") in text

    code, out, _ = call(capsys, "tour", *argv, "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["status"] == "proven_absent"
    assert isinstance(data["reason"], str) and data["reason"].strip()
    assert data["reason"] == text.strip()
    cert = data["certificate"]
    assert isinstance(cert, dict) and isinstance(cert.get("kind"), str) and cert["kind"]
    assert cert["kind"] != "tour"
    assert not data.get("squares")
    assert (data["rows"], data["cols"], data["closed"]) == (int(argv[0]), int(argv[1]), closed)
    if "--start" in argv:
        assert data["start"] == argv[argv.index("--start") + 1]
    if tuple(argv) in COLOUR_CASES:
        assert "colour" in data["reason"] or "color" in data["reason"]


def test_tour_absent_subprocess_exit_status() -> None:
    proc = run_cli("tour", "4", "4")
    assert proc.returncode == 1
    assert proc.stdout.strip() and proc.stderr == ""


# ------------------------------------------------------------------ bad input
CORRUPT_JSON = '{"rows": 8, "cols": 8, "squares": [[0, 0], [1, 2],'

BAD_INPUT = [
    # (argv, regex the one-line message must match, give -o DIR/tour.txt, also as subprocess)
    (["tour", "0", "8"], r"\b0\b", True, True),
    (["tour", "-3", "8"], r"-3\b", True, False),
    (["tour", "8", "x"], r"\bx\b", True, True),
    (["tour", "8", "8", "--start", "z9"], r"\bz9\b", True, True),
    (["tour", "8", "8", "--start", "a1", "--end", "a1"], r"\ba1\b", True, False),
    (["tour", "8", "8", "--format", "nope"], r"\bnope\b", True, True),
    (["tour", "100000", "100000"], r"memory", True, True),
    (["tour", "8", "8", "--method", "nope"], r"\bnope\b", True, False),
    (["tour", "8", "8", "--method", "backtrack", "--moves", "1,2;x"], r"1,2;x", True, False),
    (["tour", "8", "8", "--method", "backtrack", "--moves", "1,2;2,1"], r"1,2;2,1", True, True),
    (["tour", "8", "8", "--moves", MOVES.replace("-", "+")], r"--moves", True, False),
    (["tour", "8", "8", "--method", "warnsdorff", "--prune"], r"--prune", True, False),
    (["tour", "8", "8", "--seed", "x"], r"\bx\b", True, False),
    (["tour", "8", "8", "--format", "npy"], r"npy.*-o|-o.*npy", False, True),
    (["tour", "5", "5", "-o", "missing/tour.txt"], r"missing/tour\.txt", False, True),
    (["exists", "0", "3"], r"\b0\b", False, False),
    (["exists", "8", "8", "--start", "z9"], r"\bz9\b", False, False),
    (["exists", "8", "8", "--format", "npy"], r"\bnpy\b", False, False),
    (["verify", "8", "8", "missing.txt"], r"missing\.txt", False, True),
    (["verify", "8", "8", "corrupt.json"], r"corrupt\.json.*JSON", False, True),
    (["verify", "8", "8", "x.txt", "--start", "z9"], r"\bz9\b", False, False),
    (["frobnicate", "8", "8"], r"frobnicate", False, False),
    ([], r"COMMAND|command", False, True),
]
SUBPROCESS_BAD = [k for k, case in enumerate(BAD_INPUT) if case[3]]


def _ids(case: tuple[list[str], str, bool, bool]) -> str:
    return " ".join(case[0]) or "(no arguments)"


def _bad_home(home: Path, case: tuple[list[str], str, bool, bool]) -> list[str]:
    """Prepare a working folder for a bad-input case; return the full argv."""
    (home / "out").mkdir()
    (home / "corrupt.json").write_text(CORRUPT_JSON)
    (home / "x.txt").write_text("a1 c2\n")
    return case[0] + (["-o", str(home / "out" / "tour.txt")] if case[2] else [])


def _check_bad(code: int, out: str, err: str, home: Path, pattern: str) -> None:
    assert code == 2, (code, out, err)
    assert out == ""
    message = one_line(err)
    assert re.search(pattern, message), message
    assert list((home / "out").iterdir()) == [], "nothing may be left in the output folder"
    assert sorted(p.name for p in home.iterdir()) == ["corrupt.json", "out", "x.txt"]


@pytest.fixture(scope="module")
def bad_runs(tmp_path_factory) -> dict[int, tuple[subprocess.CompletedProcess[str], Path]]:
    """The SUBPROCESS_BAD commands, each in a folder of its own, run concurrently."""

    homes = {k: tmp_path_factory.mktemp("bad") for k in SUBPROCESS_BAD}  # mktemp is not thread-safe

    def run(k: int) -> tuple[subprocess.CompletedProcess[str], Path]:
        return run_cli(*_bad_home(homes[k], BAD_INPUT[k]), cwd=homes[k]), homes[k]

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(SUBPROCESS_BAD, pool.map(run, SUBPROCESS_BAD), strict=True))


@pytest.mark.parametrize("k", SUBPROCESS_BAD, ids=[_ids(BAD_INPUT[k]) for k in SUBPROCESS_BAD])
def test_bad_input_subprocess(bad_runs, k) -> None:
    proc, home = bad_runs[k]
    _check_bad(proc.returncode, proc.stdout, proc.stderr, home, BAD_INPUT[k][1])


@pytest.mark.parametrize("case", BAD_INPUT, ids=map(_ids, BAD_INPUT))
def test_bad_input_in_process(capsys, tmp_path, monkeypatch, case) -> None:
    monkeypatch.chdir(tmp_path)
    argv = _bad_home(tmp_path, case)
    code, out, err = call(capsys, *argv)
    _check_bad(code, out, err, tmp_path, case[1])


def test_output_onto_a_folder_names_the_folder(capsys, tmp_path) -> None:
    """``-o DIR`` fails with the user's path in the message, not a temporary name."""
    folder = tmp_path / "outdir"
    folder.mkdir()
    code, out, err = call(capsys, "tour", "5", "5", "-o", str(folder))
    assert (code, out) == (2, "")
    message = one_line(err)
    assert list(folder.iterdir()) == [] and list(tmp_path.iterdir()) == [folder]
    assert ".part" not in message, message
    assert str(folder) in message


@pytest.mark.parametrize(
    ("content", "pattern"),
    [
        (b"hello world", r"hello"),
        (b"\xff\xfe\x00\x01garbage", r"bad\.bin"),
        (b'{"rows": 8}', r"squares"),
        (b'{"rows": 8, "cols": 8, "squares": [[0, 0], "zz"]}', r"zz"),
        (b'{"rows": 8, "cols": 8, "squares": [[0, 0], [1, 2, 3]]}', r"\[1, 2, 3\]"),
    ],
)
def test_verify_unreadable_files(capsys, tmp_path, content, pattern) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(content)
    code, out, err = call(capsys, "verify", "8", "8", str(bad))
    assert code == 2 and out == ""
    assert re.search(pattern, one_line(err)), err


def test_bad_coordinate_square_is_named_as_typed(capsys) -> None:
    """The message should name the value the user typed ("9,9"), not a derived name."""
    code, out, err = call(capsys, "tour", "8", "8", "--start", "9,9")
    assert code == 2 and out == ""
    assert "9,9" in one_line(err), err


@pytest.mark.parametrize("flag", [["--timeout", "-1"], ["--limit", "-5"]])
def test_negative_budget_is_bad_input(capsys, flag) -> None:
    """A negative timeout or work limit is bad input (exit 2), not an aborted search."""
    code, out, err = call(capsys, "tour", "8", "8", *flag)
    assert code == 2, (code, out, err)
    assert out == "" and flag[1] in one_line(err)


def test_exists_negative_timeout_is_bad_input(capsys) -> None:
    code, out, err = call(capsys, "exists", "8", "8", "--timeout", "-1")
    assert code == 2, (code, out, err)
    assert out == "" and "-1" in one_line(err)


# --------------------------------------------------------------------- verify
@pytest.fixture(scope="module")
def tours8(tmp_path_factory) -> dict[str, Any]:
    """One closed 8x8 tour written by the CLI in every format, plus its squares."""
    folder = tmp_path_factory.mktemp("tours8")
    base = ["tour", "8", "8", "--closed", "--seed", "3"]
    files = {}
    for fmt, name in [
        ("squares", "t.txt"),
        ("board", "t.board"),
        ("json", "t.json"),
        ("npy", "t.npy"),
    ]:
        files[fmt] = folder / name
        assert main([*base, "--format", fmt, "-o", str(files[fmt])]) == 0
    squares = [algebraic(tok) for tok in files["squares"].read_text().split()]
    check_tour(squares, 8, 8, closed=True)
    return {"files": files, "squares": squares, "folder": folder}


@pytest.mark.parametrize("fmt", ["squares", "board", "json", "npy"])
def test_verify_accepts_every_format(capsys, tours8, fmt) -> None:
    path = tours8["files"][fmt]
    code, out, err = call(capsys, "verify", "8", "8", str(path))
    assert code == 0, (out, err)
    assert out.startswith("ok") and out.count("\n") == 1 and err == ""
    code, out, _ = call(capsys, "verify", "8", "8", str(path), "--closed")
    assert code == 0 and "closed" in out


def test_written_files_hold_the_same_tour(tours8) -> None:
    files, squares = tours8["files"], tours8["squares"]
    board = parse_board_text(files["board"].read_text(), 8, 8)
    data = json.loads(files["json"].read_text())
    order = np.load(files["npy"], allow_pickle=False)
    assert order.ndim == 1 and np.issubdtype(order.dtype, np.integer)
    from_npy = [divmod(int(i), 8) for i in order]
    from_json = [tuple(sq) for sq in data["squares"]]
    assert board == squares == from_json == from_npy
    check_tour(from_npy, 8, 8, closed=True)


@pytest.mark.parametrize("fmt", ["squares", "board", "json", "npy"])
@pytest.mark.parametrize("file_arg", [[], ["-"]], ids=["no FILE", "FILE -"])
def test_verify_reads_standard_input(capsys, monkeypatch, tours8, fmt, file_arg) -> None:
    data = tours8["files"][fmt].read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = call(capsys, "verify", "8", "8", *file_arg, "--closed")
    assert code == 0, (out, err)
    assert out.startswith("ok") and err == ""


def test_verify_reads_binary_standard_input_subprocess(tours8) -> None:
    proc = run_cli("verify", "8", "8", "--closed", stdin=tours8["files"]["npy"].read_bytes())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("ok") and proc.stderr == ""


def test_verify_pipeline_from_tour() -> None:
    """``knightgraph tour ... | knightgraph verify ...``"""
    made = run_cli("tour", "6", "6", "--closed", "--format", "board")
    assert made.returncode == 0
    check_tour(parse_board_text(made.stdout, 6, 6), 6, 6, closed=True)
    proc = run_cli("verify", "6", "6", "--closed", stdin=made.stdout)
    assert proc.returncode == 0 and "closed" in proc.stdout


def test_verify_other_spellings(capsys, tmp_path, tours8) -> None:
    squares = tours8["squares"]
    rc_text = tmp_path / "rc.txt"
    rc_text.write_text("\n".join(f"{r},{c}" for r, c in squares) + "\n")
    pairs = tmp_path / "pairs.npy"
    np.save(pairs, np.array(squares, dtype=np.int64))
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps([list(s) for s in squares]))
    names = tmp_path / "names.json"
    names.write_text(json.dumps({"rows": 8, "cols": 8, "squares": [name_of(s) for s in squares]}))
    for path in (rc_text, pairs, bare, names):
        code, out, err = call(capsys, "verify", "8", "8", str(path), "--closed")
        assert code == 0, (path.name, out, err)


def _write(tmp_path: Path, name: str, squares: list[tuple[int, int]]) -> Path:
    path = tmp_path / name
    path.write_text(" ".join(name_of(s) for s in squares) + "\n")
    return path


def test_verify_rejects_swapped_squares(capsys, tmp_path, tours8) -> None:
    squares = list(tours8["squares"])
    squares[5], squares[6] = squares[6], squares[5]
    assert tour_defect(8, 8, squares) is not None
    code, out, err = call(capsys, "verify", "8", "8", str(_write(tmp_path, "s.txt", squares)))
    assert code == 1 and err == ""
    assert out.startswith("invalid") and "not a knight's move" in out
    assert f"#6 {name_of(squares[5])}" in out, "the first defect is at square #6"


def test_verify_rejects_repeated_square(capsys, tmp_path, tours8) -> None:
    squares = list(tours8["squares"])
    squares[10] = squares[8]  # a legal move back to a visited square
    assert tour_defect(8, 8, squares) is not None
    code, out, _ = call(capsys, "verify", "8", "8", str(_write(tmp_path, "r.txt", squares)))
    assert code == 1
    assert out.startswith("invalid") and "not a knight's move" not in out
    assert name_of(squares[8]) in out and "#11" in out
    assert re.search(r"again|twice|repeat", out), out


def test_verify_rejects_short_tour(capsys, tmp_path, tours8) -> None:
    squares = tours8["squares"][:-1]
    code, out, _ = call(capsys, "verify", "8", "8", str(_write(tmp_path, "short.txt", squares)))
    assert code == 1
    assert "63" in out and "64" in out and name_of(tours8["squares"][-1]) in out


def test_verify_rejects_off_board_and_wrong_size(capsys, tours8) -> None:
    code, out, _ = call(capsys, "verify", "7", "8", str(tours8["files"]["squares"]))
    assert code == 1 and "off" in out
    code, out, _ = call(capsys, "verify", "9", "8", str(tours8["files"]["json"]))
    assert code == 1 and "8x8" in out


def test_verify_rejects_repeated_number_on_board(capsys, tmp_path, tours8) -> None:
    text = tours8["files"]["board"].read_text()
    first, rest = text.split("|", 1)
    cells = rest.split("\n", 1)
    numbers = cells[0].split()
    numbers[1] = numbers[0]
    broken = tmp_path / "b.txt"
    broken.write_text(first + "| " + " ".join(numbers) + "\n" + cells[1])
    code, out, _ = call(capsys, "verify", "8", "8", str(broken))
    assert code == 1 and numbers[0] in out


def test_verify_closed_on_open_tour(capsys, tmp_path) -> None:
    path = tmp_path / "open.json"
    assert main(["tour", "5", "5", "--start", "a1", "--format", "json", "-o", str(path)]) == 0
    capsys.readouterr()
    check_tour(json.loads(path.read_text())["squares"], 5, 5, start="a1")
    code, out, _ = call(capsys, "verify", "5", "5", str(path))
    assert code == 0 and "open" in out
    code, out, _ = call(capsys, "verify", "5", "5", str(path), "--closed")
    assert code == 1 and out.startswith("invalid") and "closed" in out
    # the file itself says "closed": true -> verify checks closedness without --closed
    data = json.loads(path.read_text())
    data["closed"] = True
    path.write_text(json.dumps(data))
    code, out, _ = call(capsys, "verify", "5", "5", str(path))
    assert code == 1 and "closed" in out


def test_verify_honours_closed_in_json(capsys, tours8) -> None:
    data = json.loads(tours8["files"]["json"].read_text())
    assert data["closed"] is True
    code, out, _ = call(capsys, "verify", "8", "8", str(tours8["files"]["json"]))
    assert code == 0 and "closed" in out


def test_verify_start_and_end(capsys, tours8) -> None:
    path = str(tours8["files"]["squares"])
    first, last = (name_of(s) for s in (tours8["squares"][0], tours8["squares"][-1]))
    code, _, _ = call(capsys, "verify", "8", "8", path, "--start", first, "--end", last)
    assert code == 0
    other = "h8" if first != "h8" else "g8"
    code, out, _ = call(capsys, "verify", "8", "8", path, "--start", other)
    assert code == 1 and other in out and first in out


# --------------------------------------------------------------------- exists
EXISTS_YES = [
    (["3", "10", "--closed"], 3, 10, True, None, None),
    (["8", "8", "--start", "a1", "--end", "h1"], 8, 8, False, "a1", "h1"),
    (["5", "6", "--closed"], 5, 6, True, None, None),
]
EXISTS_NO = [
    (["4", "4"], False),
    (["3", "8", "--closed"], True),
    (["7", "7", "--closed"], True),
    (["5", "5", "--start", "b1"], False),
    (["3", "6"], False),
]


@pytest.mark.parametrize(("argv", "m", "n", "closed", "start", "end"), EXISTS_YES)
def test_exists_yes(capsys, argv, m, n, closed, start, end) -> None:
    code, text, err = call(capsys, "exists", *argv)
    assert code == 0, (text, err)
    assert text.count("\n") == 1 and "exists" in text and "not" not in text

    code, out, _ = call(capsys, "exists", *argv, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= EXISTS_KEYS, EXISTS_KEYS - set(data)
    assert (data["rows"], data["cols"], data["closed"]) == (m, n, closed)
    assert (data["start"], data["end"]) == (start, end)
    assert data["exists"] is True
    assert isinstance(data["reason"], str) and data["reason"]
    cert = data["certificate"]
    assert cert["kind"] == "tour"
    check_tour(cert["squares"], m, n, closed=closed, start=start, end=end)


@pytest.mark.parametrize(("argv", "closed"), EXISTS_NO)
def test_exists_no(capsys, argv, closed) -> None:
    code, text, err = call(capsys, "exists", *argv)
    assert code == 1, (text, err)
    assert text.count("\n") == 1 and "does not exist" in text

    code, out, _ = call(capsys, "exists", *argv, "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert set(data) >= EXISTS_KEYS
    assert data["exists"] is False and data["closed"] is closed
    assert isinstance(data["reason"], str) and data["reason"].strip()
    assert data["reason"] in text
    cert = data["certificate"]
    assert isinstance(cert, dict) and cert.get("kind") and cert["kind"] != "tour"
    if "--start" in argv:
        assert data["start"] == "b1"


def test_exists_subprocess_exit_status() -> None:
    proc = run_cli("exists", "7", "7", "--closed", "--format", "json")
    assert proc.returncode == 1 and json.loads(proc.stdout)["exists"] is False


def test_exists_undecided(capsys) -> None:
    code, out, _ = call(capsys, "exists", "8", "8", "--timeout", "0", "--format", "json")
    assert code == 3
    data = json.loads(out)
    assert data["exists"] is None and data["reason"]


# -------------------------------------------------------------------- -o FILE
@pytest.mark.parametrize("fmt", ["squares", "board", "json"])
def test_output_file_matches_stdout(capsys, tmp_path, fmt) -> None:
    args = ["tour", "12", "12", "--closed", "--start", "c5", "--seed", "7", "--format", fmt]
    code, printed, _ = call(capsys, *args)
    assert code == 0
    target = tmp_path / "tour.out"
    code, out, err = call(capsys, *args, "-o", str(target))
    assert (code, out, err) == (0, "", "")
    assert [p.name for p in tmp_path.iterdir()] == ["tour.out"], "no temporary file is left"
    written = target.read_text()
    if fmt == "json":
        a, b = json.loads(printed), json.loads(written)
        a.pop("seconds"), b.pop("seconds")
        assert a == b
        check_tour(b["squares"], 12, 12, closed=True, start="c5")
    else:
        assert written == printed
        squares = (
            parse_squares_line(written) if fmt == "squares" else parse_board_text(written, 12, 12)
        )
        check_tour(squares, 12, 12, closed=True, start="c5")


def test_output_npy(capsys, tmp_path) -> None:
    target = tmp_path / "t.npy"
    code, out, _ = call(
        capsys, "tour", "7", "9", "--start", "a1", "--format", "npy", "-o", str(target)
    )
    assert (code, out) == (0, "")
    assert [p.name for p in tmp_path.iterdir()] == ["t.npy"]
    order = np.load(target, allow_pickle=False)
    assert order.shape == (63,) and np.issubdtype(order.dtype, np.integer)
    check_tour([divmod(int(i), 9) for i in order], 7, 9, start="a1")
    knightgraph.validate_tour(order, 7, 9)
    code, out, _ = call(capsys, "verify", "7", "9", str(target), "--start", "a1")
    assert code == 0


def test_output_replaces_existing_file(capsys, tmp_path) -> None:
    target = tmp_path / "tour.txt"
    target.write_text("old content\n" * 1000)
    assert call(capsys, "tour", "5", "5", "--start", "a1", "-o", str(target))[0] == 0
    check_tour(parse_squares_line(target.read_text()), 5, 5, start="a1")
    assert [p.name for p in tmp_path.iterdir()] == ["tour.txt"]


def test_failed_command_leaves_existing_output_alone(capsys, tmp_path) -> None:
    target = tmp_path / "tour.txt"
    target.write_text("keep me\n")
    assert call(capsys, "tour", "8", "8", "--start", "z9", "-o", str(target))[0] == 2
    assert call(capsys, "tour", "100000", "100000", "-o", str(target))[0] == 2
    assert target.read_text() == "keep me\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tour.txt"]


def test_json_output_of_absent_and_aborted(capsys, tmp_path) -> None:
    absent = tmp_path / "absent.json"
    code, out, _ = call(capsys, "tour", "4", "4", "--format", "json", "-o", str(absent))
    assert (code, out) == (1, "")
    assert json.loads(absent.read_text())["status"] == "proven_absent"
    aborted = tmp_path / "aborted.json"
    args = ["tour", "60", "60", "--method", "backtrack", "--limit", "10"]
    code, out, _ = call(capsys, *args, "--format", "json", "-o", str(aborted))
    assert (code, out) == (3, "")
    assert json.loads(aborted.read_text())["status"] == "aborted"


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_output_file_permissions_follow_umask(capsys, tmp_path) -> None:
    """``-o FILE`` should create the file like ``open(FILE, "w")`` would (0o666 & ~umask),
    not with the private 0o600 of a temporary file."""
    mask = os.umask(0o022)
    try:
        target = tmp_path / "tour.txt"
        assert call(capsys, "tour", "5", "5", "-o", str(target))[0] == 0
        mode = stat.S_IMODE(target.stat().st_mode)
    finally:
        os.umask(mask)
    assert mode == 0o644, oct(mode)


# ------------------------------------------------------------ budgets: exit 3
def test_work_limit_aborts(capsys) -> None:
    args = ["tour", "60", "60", "--method", "backtrack", "--limit", "10"]
    code, out, err = call(capsys, *args)
    assert code == 3 and err == ""
    assert out.strip()
    code, out, _ = call(capsys, *args, "--format", "json")
    assert code == 3
    data = json.loads(out)
    assert data["status"] == "aborted" and data["reason"] and not data["squares"]
    assert data["stats"]["placed"] <= 10


def test_timeout_zero_aborts_subprocess() -> None:
    proc = run_cli("tour", "8", "8", "--timeout", "0", "--format", "json")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == "aborted" and "timeout" in data["reason"]


def test_timeout_is_honoured_on_a_large_board() -> None:
    """``--timeout 0.2`` must stop the search (the guard only catches a hang; the overshoot
    is measured in benchmarks/bench_timeouts.py, not asserted here)."""
    began = time.monotonic()
    try:
        proc = run_cli("tour", "1000", "1000", "--closed", "--timeout", "0.2", timeout=60.0)
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"tour 1000 1000 --closed --timeout 0.2 still running after "
            f"{time.monotonic() - began:.1f} s"
        )
    assert proc.returncode in (0, 3), proc.stderr
    if proc.returncode == 0:
        check_tour(parse_squares_line(proc.stdout), 1000, 1000, closed=True)


def test_timeout_message_names_the_timeout_given(capsys) -> None:
    """The command's one budget reaches the search: a search stopped by ``--timeout 0.2``
    says 0.2 s, the timeout the user gave, not the time left after the board was built.
    In-process, so that the search, not the command's backstop, is what stops first: a
    new process on a busy machine can spend the half second of grace on its imports
    (``tests/test_hostile_budgets.py`` covers that path)."""
    from knightgraph.solvers import find_tour  # imported before the command's clock starts

    assert find_tour(5, 5).found
    argv = ["tour", "30", "30", "--closed", "--method", "backtrack", "--timeout", "0.2"]
    code, out, err = call(capsys, *argv)
    assert code == 3, out + err
    assert out == "stopped at the timeout of 0.2 s\n"
    code, out, err = call(capsys, *argv, "--format", "json")
    assert code == 3, out + err
    assert json.loads(out)["reason"] == "stopped at the timeout of 0.2 s"


def test_a_graph_search_names_the_timeout_given(capsys, tmp_path) -> None:
    """A graph board's search runs on the command's one budget too (it was given the time
    left, and said "the timeout of 0.944254 s" for ``--timeout 2``).  G(2495, 2) has no
    Hamiltonian cycle (Alspach 1983: 2495 = 5 mod 6), so its search runs until stopped."""
    from knightgraph.solvers import find_tour

    assert find_tour(5, 5).found
    n = 2495
    lines = [f"u{i} u{(i + 1) % n}\nu{i} v{i}\nv{i} v{(i + 2) % n}" for i in range(n)]
    graph = tmp_path / "gp.edges"
    graph.write_text("\n".join(lines) + "\n")
    code, out, err = call(capsys, "tour", "--graph", str(graph), "--closed", "--timeout", "2")
    assert code == 3, out + err
    assert re.fullmatch(r"the (SAT solver|search) stopped at the timeout of 2 s.*\n", out), out


def test_backtrack_setup_memory_is_linear(capsys) -> None:
    """Memory of a 10-node backtracking run must grow linearly with the board's area.

    The memory check that refuses boards that do not fit (exit 2) estimates a
    fixed number of bytes per square; a setup quadratic in the area makes
    ``tour 1000 1000 --method backtrack --limit 10`` pass that check and then
    exhaust the machine.  Compare the peak per square on 50x50 and 140x140.
    """
    call(capsys, "tour", "8", "8", "--method", "backtrack", "--limit", "10")  # warm up imports
    per_square = {}
    for k in (50, 140):
        tracemalloc.start()
        try:
            code, _, _ = call(
                capsys, "tour", str(k), str(k), "--method", "backtrack", "--limit", "10"
            )
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert code == 3
        per_square[k] = peak / (k * k)
    assert per_square[140] < 1.5 * per_square[50], per_square


# ------------------------------------------------------- seeds, moves, prune
def test_seed_makes_warnsdorff_reproducible(capsys) -> None:
    runs = [
        tour_json(capsys, "12", "12", "--method", "warnsdorff", "--seed", seed)["squares"]
        for seed in ("1", "1", "2")
    ]
    for squares in runs:
        check_tour(squares, 12, 12)
    assert runs[0] == runs[1]
    closed = [
        tour_json(capsys, "10", "10", "--closed", "--method", "warnsdorff", "--seed", "5")
        for _ in range(2)
    ]
    assert closed[0]["squares"] == closed[1]["squares"]
    check_tour(closed[0]["squares"], 10, 10, closed=True)


def first_dfs_tour(m: int, n: int, start: tuple[int, int], order: list[tuple[int, int]]):
    """Plain depth-first search in a fixed (d_rank, d_file) order: first tour and counters."""
    stats: dict[str, int] = {}
    path = first_tour(m, n, start, order, stats=stats)
    assert path is not None
    return path, stats


@pytest.mark.parametrize(
    "moves_args", [["--moves", MOVES], [f"--moves={MOVES}"]], ids=["--moves VALUE", "--moves=VALUE"]
)
def test_backtrack_move_order(capsys, moves_args) -> None:
    """The documented ``--moves "-2,1;..."`` (a value starting with '-') must work."""
    base = ["5", "5", "--method", "backtrack", *moves_args, "--start", "a1"]
    code, out, err = call(capsys, "tour", *base, "--format", "json")
    assert code == 0, (out, err)
    data = json.loads(out)
    assert data["start"] == "a1"
    squares = check_tour(data["squares"], 5, 5, start="a1")
    order = [(int(a), int(b)) for a, b in (p.split(",") for p in MOVES.split(";"))]
    expected, stats = first_dfs_tour(5, 5, (0, 0), order)
    assert squares == expected, "backtrack must return the first tour in the given move order"
    assert data["stats"]["placed"] == stats["placed"]
    assert data["stats"]["tried"] == stats["tried"]

    pruned = tour_json(capsys, *base, "--prune")
    assert pruned["squares"] == data["squares"], "--prune gives the same tour"
    assert pruned["stats"]["placed"] <= data["stats"]["placed"]


def test_backtrack_help_example_subprocess() -> None:
    """The example printed by ``--help`` runs as written."""
    proc = run_cli("tour", "6", "6", "--method", "backtrack", "--moves", MOVES)
    assert proc.returncode == 0, proc.stderr
    check_tour(parse_squares_line(proc.stdout), 6, 6)


def test_backtrack_default_order_counts(capsys) -> None:
    data = tour_json(capsys, "5", "5", "--method", "backtrack", "--start", "a1")
    seed_order = [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]
    expected, stats = first_dfs_tour(5, 5, (0, 0), seed_order)
    assert check_tour(data["squares"], 5, 5, start="a1") == expected
    assert (data["stats"]["placed"], data["stats"]["tried"]) == (stats["placed"], stats["tried"])


# ------------------------------------------------------------- help, version
def test_help_mentions_examples() -> None:
    proc = run_cli("--help")
    assert proc.returncode == 0 and proc.stderr == ""
    text = proc.stdout
    assert "example" in text.lower()
    for word in ("tour", "exists", "verify", "exit"):
        assert word in text


def test_subcommand_help(capsys) -> None:
    code, out, _ = call(capsys, "tour", "--help")
    assert code == 0 and "example" in out.lower()
    for flag in (
        "--start",
        "--end",
        "--closed",
        "--method",
        "--moves",
        "--prune",
        "--seed",
        "--timeout",
        "--format",
        "-o",
    ):
        assert flag in out
    for command in ("exists", "verify"):
        code, out, _ = call(capsys, command, "--help")
        assert code == 0 and "--closed" in out


def test_version() -> None:
    proc = run_cli("--version")
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == f"knightgraph {knightgraph.__version__}"
    assert proc.stdout.splitlines()[1] in ("engine: compiled C", "engine: plain Python")
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", knightgraph.__version__)


# --------------------------------------------------------------------- pipes
def test_closed_pipe_is_quiet() -> None:
    """``knightgraph tour 200 200 --closed | head -c 10``: no traceback when the reader leaves."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "knightgraph", "tour", "200", "200", "--closed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    head = proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = proc.wait(timeout=60)
    assert re.match(rb"[a-z]+[1-9][0-9]* ", head), head
    assert "Traceback" not in err and "Exception" not in err, err
    assert code != 2, err
