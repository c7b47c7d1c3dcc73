"""Checkpoints under hostile conditions (issue 24, point 2): a checkpoint carries its own
proof of integrity, its parsing is bounded, and a resumed count equals an uninterrupted one.

Each corruption of a count checkpoint that used to give a wrong total with exit 0 (a
part's count changed, a negative count, a count that is not whole, an extra or duplicated
part, a checkpoint of 6 x 6 read for 5 x 6) or an internal error (a deeply nested file) is
refused here with exit 2 and one line; so are a checkpoint of another knightgraph version,
format version, request or split.  ``test_fuzz_checkpoint_corruption`` applies random
corruptions to valid checkpoints of small counts: the count is refused in one line or
gives the right total, never a wrong one, never a traceback.  A count killed with
``kill -9`` resumes from its checkpoint to the literature's total, and leaves no process.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_support import call, one_line, run_cli, subprocess_env
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgraph import __version__
from knightgraph.cli import main
from knightgraph.counting import count_tours
from knightgraph.counting.checkpoint import LIMIT, MAX_DEPTH, MAX_KEPT_PARTS, digest
from knightgraph.counting.compiled import kernel_available
from knightgraph.exceptions import InvalidOptionError

FUZZ_CASES = int(os.environ.get("KNIGHTGRAPH_FUZZ_HOSTILE_CASES", "30"))

needs_kernel = pytest.mark.skipif(not kernel_available(), reason="compiled kernel not built")

# The small counts whose checkpoints are corrupted: command line, keyword arguments.
BASES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "5x6 closed": (["count", "5", "6", "--closed", "--parts", "4"], dict(closed=True, parts=4)),
    "3x4 knuth": (
        ["count", "3", "4", "--convention", "knuth", "--parts", "3"],
        dict(convention="knuth", parts=3),
    ),
}


class _Stop(Exception):
    pass


def _board(args: list[str]) -> tuple[int, int]:
    return int(args[1]), int(args[2])


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[list[str], bytes, int]]:
    """Valid checkpoints, made once: each base whole, and with only its first part done.

    Maps a name to (the command line without --parts, the file's bytes, the right directed
    total, computed by an uninterrupted count).
    """
    folder = tmp_path_factory.mktemp("bases")
    out = {}
    for name, (args, kw) in BASES.items():
        m, n = _board(args)
        total = count_tours(m, n, **{k: v for k, v in kw.items() if k != "parts"}).directed
        whole = folder / f"{len(out)}-whole.json"
        assert count_tours(m, n, checkpoint=str(whole), **kw).directed == total
        part = folder / f"{len(out)}-part.json"

        def stop(info: dict[str, Any]) -> None:
            if info["parts_done"] == 1:
                raise _Stop

        with pytest.raises(_Stop):
            count_tours(m, n, checkpoint=str(part), on_part=stop, **kw)
        command = args[:-2]  # the split is on file
        out[name] = (command, whole.read_bytes(), total)
        out[name + ", one part done"] = (command, part.read_bytes(), total)
    return out


def _run(args: list[str]) -> tuple[int, str, str]:
    """``knightgraph.cli.main(args)`` in-process (without pytest's capsys, which hypothesis
    cannot share between examples): exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def _refused_or_right(path: Path, command: list[str], total: int) -> str | None:
    """Run the count on ``path``: its one-line refusal (exit 2), or None after asserting the
    right total (exit 0).  Anything else fails."""
    code, out, err = _run([*command, "--checkpoint", str(path), "--format", "json"])
    if code == 2:
        assert out == ""
        return one_line(err)
    assert code == 0, (code, err)
    assert json.loads(out)["directed"] == total
    return None


def _sealed(data: dict[str, Any]) -> bytes:
    """A checkpoint edited on purpose and sealed again with its digest."""
    data = {**data, "digest": digest(data)}
    return json.dumps(data).encode()


@pytest.fixture()
def whole(bases, tmp_path) -> tuple[Path, list[str], dict[str, Any], int]:
    """The 5 x 6 closed checkpoint in a fresh file: (path, command, its JSON, total)."""
    command, raw, total = bases["5x6 closed"]
    path = tmp_path / "count.json"
    path.write_bytes(raw)
    return path, command, json.loads(raw), total


# ------------------------------------------------- corruptions that gave wrong totals
def _edit_done(data: dict[str, Any], index: str, value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    data["counts"]["cycles"]["done"][index] = value
    return data


@pytest.mark.parametrize(
    ("index", "value", "sealed", "words"),
    [
        ("0", "40", False, "digest does not match"),  # one part's count changed
        ("2", "-3", False, "digest does not match"),  # a negative count
        ("2", "-3", True, "whole number"),
        ("2", 1.5, True, "whole number"),  # a count that is not a whole number
        ("2", "1.5", True, "whole number"),
        ("2", True, True, "whole number"),
        ("2", "04", True, "whole number"),
        ("7", "100", False, "digest does not match"),  # an extra part
        ("7", "100", True, "the parts are 0 to 3"),
        ("01", "100", True, "the parts are 0 to 3"),
    ],
)
def test_an_edited_count_is_refused(whole, index, value, sealed, words):
    path, command, data, total = whole
    edited = _edit_done(data, index, value)
    path.write_bytes(_sealed(edited) if sealed else json.dumps(edited).encode())
    assert words in _refused_or_right(path, command, total)


def test_a_part_given_twice_is_refused(whole):
    path, command, _, total = whole
    text = path.read_text()
    twice = text.replace('"done":{', '"done":{"0":"400",')  # part 0 is done: twice
    assert twice != text
    path.write_text(twice)
    assert "'0' is given twice" in _refused_or_right(path, command, total)


def test_a_6x6_checkpoint_is_refused_for_5x6(bases, tmp_path):
    """Edited to name 5 x 6, a 6 x 6 checkpoint is refused: by its digest, and when sealed
    again, by its parts (the 5 x 6 program's parts are not those on file)."""
    path = tmp_path / "count.json"
    assert count_tours(6, 6, closed=True, parts=4, checkpoint=str(path)).undirected == 9862
    data = json.loads(path.read_text())
    data["request"]["rows"] = 5
    command = ["count", "5", "6", "--closed"]
    path.write_text(json.dumps(data))
    assert "digest does not match" in _refused_or_right(path, command, 16)
    path.write_bytes(_sealed(data))
    assert "not the parts it holds" in _refused_or_right(path, command, 16)
    count_tours(6, 6, closed=True, parts=4, checkpoint=str(tmp_path / "six.json"))
    line = _refused_or_right(tmp_path / "six.json", command, 16)
    assert "written for another count: rows 6, not 5" in line


# ------------------------------------------------------------ bounded, whole, intact
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100000, f"nests deeper than {MAX_DEPTH} levels"),
        ('{"a":' * 50000, f"nests deeper than {MAX_DEPTH} levels"),
        ("", "empty"),
        ("\n \n", "empty"),
        ("[1, 2]", "not a knightgraph checkpoint"),
        ('{"format": "knightgraph count checkpoint", "version": NaN}', "NaN is not a number"),
        ("\udcff", "not UTF-8"),
    ],
)
def test_unreadable_checkpoints_are_refused_in_one_line(whole, text, words):
    path, command, _, total = whole
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert words in _refused_or_right(path, command, total)


def test_a_truncated_checkpoint_is_refused(whole):
    path, command, _, total = whole
    raw = path.read_bytes()
    for end in (1, len(raw) // 2, len(raw) - 3):
        path.write_bytes(raw[:end])
        assert "truncated or damaged" in _refused_or_right(path, command, total)


def test_a_huge_checkpoint_is_refused_by_its_size(whole):
    path, command, _, total = whole
    with open(path, "r+b") as f:  # sparse: no disk used
        f.truncate(LIMIT + 1)
    assert "32.0 MiB a checkpoint may hold" in _refused_or_right(path, command, total)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_special_files_are_refused_without_blocking(tmp_path):
    """A FIFO with no writer, a loop of links, a device: one line, at once (a subprocess,
    so that a read that blocks fails the test by its timeout instead of hanging it)."""
    fifo, loop = tmp_path / "fifo", tmp_path / "loop"
    os.mkfifo(fifo)
    loop.symlink_to(loop)
    for path, words in ((fifo, "FIFO"), (loop, "loop"), ("/dev/zero", "device")):
        done = run_cli("count", "5", "6", "--closed", "--checkpoint", str(path), timeout=30)
        assert (done.returncode, done.stdout) == (2, ""), done
        assert words in one_line(done.stderr)


# ------------------------------------------------------ another version, request, split
def test_another_format_version_is_refused(whole):
    """A checkpoint of the first layout (no digest, no knightgraph version)."""
    path, command, data, total = whole
    old = {k: v for k, v in data.items() if k not in ("digest", "knightgraph")}
    old["version"] = 1
    path.write_text(json.dumps(old))
    line = _refused_or_right(path, command, total)
    assert "format version 1 (this knightgraph reads version 2" in line


def test_another_knightgraph_version_is_refused(whole):
    path, command, data, total = whole
    path.write_bytes(_sealed({**data, "knightgraph": "0.0.1"}))
    line = _refused_or_right(path, command, total)
    assert f"written by knightgraph '0.0.1', this is {__version__!r}" in line


@pytest.mark.parametrize(
    ("other", "words"),
    [
        (dict(leaper=(1, 3)), "leaper [1, 2], not [1, 3]"),
        (dict(removed=["a1"]), 'removed [], not ["a1"]'),
        (dict(start="a1"), 'start null, not "a1"'),
        (dict(end="e4"), 'end null, not "e4"'),
        (dict(convention="knuth"), 'convention "oeis", not "knuth"'),
        (dict(closed=True), "closed false, not true"),
    ],
)
def test_a_checkpoint_of_other_options_is_refused_naming_them(tmp_path, other, words):
    path = str(tmp_path / "count.json")
    assert count_tours(4, 5, parts=2, checkpoint=path).directed > 0
    with pytest.raises(InvalidOptionError, match="written for another count") as refused:
        count_tours(4, 5, checkpoint=path, **other)
    assert words in str(refused.value)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("groups", "0" * 64, "not the parts it holds"),
        ("cut", 3, "not the parts it holds"),
        ("engine", "the other", "split as"),
        ("engine", "fortran", "damaged"),
        ("parts", MAX_KEPT_PARTS + 1, "damaged"),
        ("parts", "4", "damaged"),
        ("extra", 1, "damaged"),
    ],
)
def test_another_split_is_refused(whole, field, value, words):
    path, command, data, total = whole
    split = data["counts"]["cycles"]["split"]
    if value == "the other":
        value = {"c": "python", "python": "c"}[split["engine"]]
    split[field] = value
    path.write_bytes(_sealed(data))
    assert words in _refused_or_right(path, command, total)


@pytest.mark.parametrize("key", ["note", "digest2"])
def test_unknown_keys_are_refused(whole, key):
    path, command, data, total = whole
    path.write_bytes(_sealed({**data, key: 1}))
    assert "unexpected or missing keys" in _refused_or_right(path, command, total)


def test_too_many_parts_for_a_checkpoint_are_refused_before_work(tmp_path, capsys):
    path = tmp_path / "count.json"
    args = ["count", "3", "4", "--parts", str(MAX_KEPT_PARTS + 1), "--checkpoint", str(path)]
    code, out, err = call(capsys, *args)
    assert (code, out) == (2, "") and f"at most {MAX_KEPT_PARTS} parts" in one_line(err)
    assert not path.exists()


def test_a_graph_count_refuses_a_checkpoint_rather_than_ignore_it(tmp_path):
    import networkx as nx

    path = tmp_path / "count.json"
    with pytest.raises(InvalidOptionError, match="rectangular boards"):
        count_tours(nx.cycle_graph(5), closed=True, checkpoint=str(path))
    with pytest.raises(InvalidOptionError, match="rectangular boards"):
        count_tours(nx.cycle_graph(5), closed=True, parts=2)


# ------------------------------------------------------------------- kill -9, resume
def _done_parts(path: Path) -> int:
    """The finished parts on file (0 while there is no file yet)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return 0
    return sum(len(entry["done"]) for entry in data["counts"].values())


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry))
    return out


def _gone(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return text[text.rindex(")") + 2 :].split()[0] == "Z"


def _kill_once_a_part_is_on_file(proc: subprocess.Popen[bytes], path: Path) -> list[int]:
    """Send ``kill -9`` to a counting process once its checkpoint holds a finished part;
    the worker processes seen meanwhile."""
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120  # a guard, not a measurement
        while _done_parts(path) == 0 and proc.poll() is None and time.monotonic() < deadline:
            workers = sorted(set(workers) | set(_children(proc.pid)))
            time.sleep(0.01)
        assert proc.poll() is None, "the count ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return workers


API = (
    "import sys; from knightgraph.counting import count_tours; "
    "count_tours(6, 7, closed=True, parts=16, checkpoint=sys.argv[1])"
)


@needs_kernel
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["cli", "api"])
def test_a_count_killed_with_sigkill_resumes_to_the_same_total(tmp_path, how):
    """6 x 7 closed in 16 parts (on two workers from the command line), killed with
    ``kill -9`` once a part is on file: the file is an intact checkpoint, no process is
    left, and the rerun gives A175881's 1,067,638 closed tours, from the parts on file."""
    path = tmp_path / "count.json"
    cli = ["count", "6", "7", "--closed", "--checkpoint", str(path), "--format", "json"]
    if how == "cli":
        argv = [sys.executable, "-m", "knightgraph", *cli, "--parts", "16", "--workers", "2"]
    else:
        argv = [sys.executable, "-c", API, str(path)]
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=subprocess_env()
    )
    workers = _kill_once_a_part_is_on_file(proc, path)
    deadline = time.monotonic() + 10
    while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in workers), "a worker outlived its killed parent"
    assert len(workers) == (2 if how == "cli" else 0)
    data = json.loads(path.read_text())
    assert data["digest"] == digest(data) and data["knightgraph"] == __version__
    kept = _done_parts(path)
    assert 1 <= kept < 16
    if how == "cli":
        again = run_cli(*cli, timeout=300)
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["undirected"] == 1_067_638
    else:
        resumed = count_tours(6, 7, closed=True, checkpoint=str(path))
        assert resumed.undirected == 1_067_638 and resumed.stats["split"]["resumed"] == kept
    assert _done_parts(path) == 16


MIDDLE = (
    "import sys; from knightgraph.counting import count_tours; "
    "count_tours(7, 8, closed=True, checkpoint=sys.argv[1])"
)


@needs_kernel
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_count_in_the_middle_killed_with_sigkill_resumes_to_the_same_total(tmp_path):
    """7 x 8 closed meets in the middle, in 6 parts with a checkpoint; killed with
    ``kill -9`` once a part is on file, the rerun gives A193054's 34,524,432,316 closed
    tours from the parts on file."""
    path = tmp_path / "count.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", MIDDLE, str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=subprocess_env(),
    )
    _kill_once_a_part_is_on_file(proc, path)
    data = json.loads(path.read_text())
    assert data["digest"] == digest(data)
    assert data["counts"]["cycles"]["split"]["engine"] == "middle"
    kept = _done_parts(path)
    assert 1 <= kept < 6
    resumed = count_tours(7, 8, closed=True, checkpoint=str(path))
    assert resumed.undirected == 34_524_432_316
    assert resumed.stats["middle_parts"]["resumed"] == kept
    assert _done_parts(path) == 6


# ------------------------------------------------------------------------- fuzz
_NUMBER = re.compile(rb"-?[0-9]+")


def _flip(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(0, len(raw) - 1))
    return raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255))]) + raw[at + 1 :]


def _delete(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(0, len(raw) - 1))
    return raw[:at] + raw[at + data.draw(st.integers(1, 40)) :]


def _insert(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(0, len(raw)))
    return raw[:at] + data.draw(st.binary(min_size=1, max_size=20)) + raw[at:]


def _truncate(raw: bytes, data: st.DataObject) -> bytes:
    return raw[: data.draw(st.integers(0, len(raw) - 1))]


def _number(raw: bytes, data: st.DataObject) -> bytes:
    spans = [m.span() for m in _NUMBER.finditer(raw)]
    a, b = data.draw(st.sampled_from(spans))
    new = data.draw(
        st.one_of(
            st.integers(-(10**6), 10**40).map(str),
            st.sampled_from(["-1", "1.5", "1e3", "", "0x10", "007", "NaN", "true", "null"]),
        )
    )
    return raw[:a] + new.encode() + raw[b:]


def _nest(raw: bytes, data: st.DataObject) -> bytes:
    depth = data.draw(st.integers(1, 100000))
    at = data.draw(st.integers(0, len(raw)))
    return raw[:at] + b"[" * depth + raw[at:] + b"]" * data.draw(st.sampled_from([0, depth]))


def _paths(tree: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON tree (keys of objects, indices of lists)."""
    out = [at]
    if isinstance(tree, dict):
        for k, v in tree.items():
            out += _paths(v, (*at, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out += _paths(v, (*at, i))
    return out


def _get(tree: Any, at: tuple[Any, ...]) -> Any:
    for k in at:
        tree = tree[k]
    return tree


def _swap(tree: dict[str, Any], data: st.DataObject, sealed: bool) -> None:
    """Two values of the tree swapped (neither inside the other; when the file is sealed
    again, no finished part moved: parts swapped between counts are a deliberate edit)."""
    places = [p for p in _paths(tree) if p and not (sealed and "done" in p)]
    a = data.draw(st.sampled_from(places))
    b = data.draw(st.sampled_from([p for p in places if p[: len(a)] != a and a[: len(p)] != p]))
    va, vb = _get(tree, a), _get(tree, b)
    _get(tree, a[:-1])[a[-1]], _get(tree, b[:-1])[b[-1]] = vb, va


def _add_key(tree: dict[str, Any], data: st.DataObject, sealed: bool) -> None:
    """A key (never a part's index: a part added and sealed again is a deliberate edit)
    with any value, added to one of the objects of the tree."""
    objects = [p for p in _paths(tree) if isinstance(_get(tree, p), dict)]
    where = _get(tree, data.draw(st.sampled_from(objects)))
    key = data.draw(st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8))
    where[key] = data.draw(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=5),
            lambda inner: st.lists(inner, max_size=3),
            max_leaves=4,
        )
    )


def _drop_key(tree: dict[str, Any], data: st.DataObject, sealed: bool) -> None:
    """A key removed from one of the objects of the tree (a finished part dropped is a
    part to count again)."""
    places = [p for p in _paths(tree) if p and isinstance(_get(tree, p[:-1]), dict)]
    at = data.draw(st.sampled_from(places))
    del _get(tree, at[:-1])[at[-1]]


def _retype(tree: dict[str, Any], data: st.DataObject, sealed: bool) -> None:
    """A value that is not a count replaced by a value of another type or another value."""
    places = [p for p in _paths(tree) if p and "done" not in p]
    at = data.draw(st.sampled_from(places))
    new = data.draw(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-5, 10**6),
            st.floats(allow_nan=False),
            st.text(max_size=6),
            st.just([]),
            st.just({}),
        )
    )
    _get(tree, at[:-1])[at[-1]] = new


BYTES = [_flip, _delete, _insert, _truncate, _number, _nest]
TREES = [_swap, _add_key, _drop_key, _retype]


@settings(max_examples=FUZZ_CASES)
@given(data=st.data())
def test_fuzz_checkpoint_corruption(bases, tmp_path_factory, data):
    """A random corruption of a valid checkpoint: refused in one line, or the right total.

    The bytes are damaged (flipped, deleted, inserted, truncated, a number changed, the
    text nested), or the JSON is edited (values swapped, keys added, dropped or given
    other values) and, half the time, sealed again with its digest, as a deliberate edit
    would be; only a deliberate edit of a part's count is left out, which no digest can
    tell from a real count.
    """
    name = data.draw(st.sampled_from(sorted(bases)))
    command, raw, total = bases[name]
    if data.draw(st.booleans()):
        raw = data.draw(st.sampled_from(BYTES))(raw, data)
    else:
        tree = json.loads(raw)
        sealed = data.draw(st.booleans())
        data.draw(st.sampled_from(TREES))(tree, data, sealed)
        if sealed:
            tree["digest"] = digest(tree)
        raw = json.dumps(tree).encode()
    path = tmp_path_factory.mktemp("fuzz") / "count.json"
    path.write_bytes(raw)
    _refused_or_right(path, command, total)
