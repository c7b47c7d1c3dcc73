"""The command line at the edges of the machine: files, devices, pipes and closed streams.

Writes (``-o``, ``--proof``, pictures, animations, pages) go to the file the user named,
through symbolic links; a device or a FIFO with a reader is written in place, never
renamed over; a FIFO without a reader, a socket or a folder is refused with one line.
A failed write of an output file or of standard output (closed, full) is exit 2 with one
line; ``| head`` stays quiet.  Reads (``verify``, ``classic``, ``--mask``, ``draw file``)
take regular files or standard input only, bounded, and never block: ``/dev/zero``, a FIFO
with no writer, a 2 GB sparse file, a loop of links, a folder, binary bytes, an image whose
header claims too many pixels and a closed standard input are each one line and exit 2.

Device nodes are made with ``os.mknod`` in a temporary folder (the tests run as root):
the real ``/dev/null`` and ``/dev/full`` are never written.
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

import pytest
from cli_support import call, one_line, subprocess_env
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgraph.cli import main

ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="device nodes need root (os.mknod)")


@functools.cache
def _tour_3x4() -> str:
    """A tour of 3x4 written by the command line itself (never typed here)."""
    from knightgraph import find_tour

    return " ".join(find_tour(3, 4, method="backtrack").tour.algebraic())


def _device(folder: Path, name: str, minor: int) -> Path:
    """A character device node of the kernel's memory devices (1, minor): 3 null, 5 zero,
    7 full, in ``folder``."""
    path = folder / name
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    return path


def _png_header(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` grey pixels (and holds almost
    none): what a decompression bomb looks like to a reader that trusts the header."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def _spawn(
    *args: str,
    stdout: object = subprocess.PIPE,
    close: tuple[int, ...] = (),
    timeout: float = 60,
) -> subprocess.CompletedProcess[bytes]:
    """``python -m knightgraph ARGS`` with standard output as given and the descriptors in
    ``close`` closed in the child (``>&-``, ``<&-``, ``2>&-``)."""

    def closing() -> None:
        for fd in close:
            os.close(fd)

    return subprocess.run(
        [sys.executable, "-m", "knightgraph", *args],
        stdin=subprocess.DEVNULL,
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        env=subprocess_env(),
        preexec_fn=closing if close else None,
        timeout=timeout,
        check=False,
    )


# ------------------------------------------------------------------ writes
def test_output_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path, capsys):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    code, _, err = call(capsys, "tour", "5", "5", "--method", "backtrack", "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert real.read_text().split()[0] == "a1" and len(real.read_text().split()) == 25
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


def test_a_dangling_symlink_creates_its_target(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.json"
    link.symlink_to("sub/tour.json")
    code, _, err = call(capsys, "tour", "5", "5", "--format", "json", "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and (tmp_path / "sub" / "tour.json").is_file()
    missing = tmp_path / "away.txt"
    missing.symlink_to("nowhere/tour.txt")
    code, _, err = call(capsys, "tour", "5", "5", "-o", str(missing))
    assert code == 2 and "no such folder" in one_line(err) and "nowhere" in err
    assert missing.is_symlink() and not (tmp_path / "nowhere").exists()


@needs_root
def test_a_character_device_is_written_in_place_never_replaced(tmp_path, capsys):
    null = _device(tmp_path, "null", 3)
    pic = tmp_path / "pic.png"
    pic.symlink_to("null")
    for argv in (
        ["tour", "5", "5", "-o", str(null)],
        ["tour", "5", "5", "--format", "npy", "-o", str(null)],
        ["draw", "tour", "5", "5", "-o", str(pic)],
        ["draw", "tour", "5", "5", "--animate", "--fps", "2", "-o", str(pic) + ".gif"],
    ):
        if argv[-1].endswith(".gif"):
            Path(argv[-1]).symlink_to("null")
        code, _, err = call(capsys, *argv)
        assert code == 0, (argv, err)
        assert stat.S_ISCHR(os.stat(null).st_mode), argv
    assert pic.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "pic.png", "pic.png.gif"]


@needs_root
@pytest.mark.parametrize(
    "argv",
    [
        ["tour", "5", "5", "-o", "{full}"],
        ["tour", "5", "5", "--format", "json", "--method", "backtrack", "-o", "{full}"],
        ["tour", "3", "8", "--closed", "--proof", "{full}"],
        ["draw", "tour", "5", "5", "-o", "{full}.png"],
        ["draw", "tour", "5", "5", "--animate", "--fps", "2", "-o", "{full}.gif"],
        ["draw", "tour", "5", "5", "-o", "{full}.html"],
    ],
)
def test_a_full_device_is_exit_2_in_one_line(tmp_path, capsys, argv):
    full = _device(tmp_path, "full", 7)
    for suffix in (".png", ".gif", ".html", ".cnf"):
        (tmp_path / f"full{suffix}").symlink_to("full")
    code, out, err = call(capsys, *[a.format(full=full) for a in argv])
    assert code == 2, (out, err)
    assert "no space left on device" in one_line(err).lower() and "full" in err
    assert stat.S_ISCHR(os.stat(full).st_mode)
    assert all(p.is_symlink() or p.name == "full" for p in tmp_path.iterdir())


def test_a_fifo_without_a_reader_is_refused_at_once(tmp_path, capsys, monkeypatch):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def no_work(*args, **kwargs):
        raise AssertionError("the search ran before the output was checked")

    monkeypatch.setattr("knightgraph.solvers.find_tour", no_work)
    began = time.monotonic()
    code, _, err = call(capsys, "tour", "6", "6", "--method", "backtrack", "-o", str(fifo))
    assert time.monotonic() - began < 10
    assert code == 2 and "no reader" in one_line(err) and "pipe" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_fifo_with_a_reader_gets_the_output(tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 10
    code, err = None, ""
    while time.monotonic() < deadline:  # the reader's open may come after ours is tried
        code, _, err = call(capsys, "tour", "5", "5", "--method", "backtrack", "-o", str(fifo))
        if code != 2 or "no reader" not in err:
            break
        time.sleep(0.05)
    reader.join(10)
    assert code == 0, err
    assert got and got[0].decode().split()[0] == "a1" and len(got[0].split()) == 25
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_socket_or_a_folder_is_refused(tmp_path, capsys):
    import socket

    sock = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock))
        code, _, err = call(capsys, "tour", "5", "5", "-o", str(sock))
        assert code == 2 and "socket" in one_line(err)
        assert stat.S_ISSOCK(os.stat(sock).st_mode)
    code, _, err = call(capsys, "tour", "5", "5", "-o", str(tmp_path))
    assert code == 2 and "folder" in one_line(err)
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    code, _, err = call(capsys, "tour", "5", "5", "-o", str(loop))
    assert code == 2 and "loop" in one_line(err)


# ---------------------------------------------------------- standard output
PRINTING = [
    ["tour", "8", "8"],
    ["tour", "5", "5", "--method", "backtrack", "--format", "json"],
    ["exists", "5", "5", "--format", "json"],
    ["verify", "3", "4", "{tour}"],
    ["table", "4", "4"],
    ["count", "3", "4"],
    ["starts", "3", "4"],
    ["ends", "3", "4", "--start", "a1"],
    ["sweep", "4", "5"],
    ["sample", "3", "4", "-k", "1", "--seed", "1"],
    ["classic", "{classic}"],
    ["draw", "tour", "5", "5", "-o", "{folder}/t.svg"],
]


@pytest.fixture
def inputs(tmp_path):
    """The files the printing commands read, by name."""
    tour = tmp_path / "tour.txt"
    tour.write_text(_tour_3x4() + "\n")
    classic = tmp_path / "classic.txt"
    classic.write_text("5 5\na1\ne5\n")
    return {"tour": str(tour), "classic": str(classic), "folder": str(tmp_path)}


@pytest.mark.parametrize("argv", PRINTING, ids=lambda a: " ".join(a[:2]))
def test_standard_output_closed_is_exit_2_in_one_line(argv, inputs):
    done = _spawn(*[a.format(**inputs) for a in argv], stdout=subprocess.DEVNULL, close=(1,))
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "standard output" in one_line(err) and "closed" in err


@needs_root
@pytest.mark.parametrize("argv", PRINTING, ids=lambda a: " ".join(a[:2]))
def test_standard_output_full_is_exit_2_in_one_line(argv, inputs, tmp_path):
    full = _device(tmp_path, "full", 7)
    with open(full, "wb") as sink:
        done = _spawn(*[a.format(**inputs) for a in argv], stdout=sink)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "standard output" in one_line(err) and "no space left" in err.lower()


def test_standard_output_and_error_closed_end_without_a_traceback(tmp_path):
    for argv in (["tour", "8", "8"], ["tour", "5", "5", "--start", "c3"], ["exists", "6", "6"]):
        done = _spawn(*argv, stdout=subprocess.DEVNULL, close=(1, 2))
        assert done.returncode == 2, argv  # not 70: no progress bar on a closed stderr
    done = _spawn("tour", "0", "8", stdout=subprocess.DEVNULL, close=(1,))
    assert done.returncode == 2 and "invalid board size 0" in one_line(done.stderr.decode())


def test_a_reader_that_goes_away_is_quiet():
    """``| head``: the reader closes the pipe; the command stops with 141 (128 + SIGPIPE),
    as it always did, and says nothing."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "knightgraph", "tour", "300", "300", "--format", "board"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(60) == 141 and err == b""


# ------------------------------------------------------------------ reads
def _bad_input(folder: Path, kind: str) -> Path:
    """An input no reader may take: made in ``folder``."""
    path = folder / f"bad-{kind}"
    if kind == "zero":
        if not ROOT:
            pytest.skip("device nodes need root (os.mknod)")
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "sparse":
        with open(path, "wb") as f:
            f.truncate(2 << 30)
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "folder":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(bytes(range(256)) * 4)
    return path


KINDS = ["zero", "fifo", "sparse", "loop", "folder", "binary"]
READERS = {
    "verify": ["verify", "3", "4", "{file}"],
    "verify-graph": ["verify", "3", "4", "--wrap", "both", "{file}"],
    "classic": ["classic", "{file}"],
    "mask": ["verify", "3", "4", "--mask", "{file}", "{tour}"],
    "mask-image": ["verify", "3", "4", "--mask", "{file}.png", "{tour}"],
    "draw-file": ["draw", "file", "{file}", "-o", "{folder}/t.png"],
    "draw-file-board": ["draw", "file", "{file}", "3", "4", "-o", "{folder}/t.png"],
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_bad_input_is_one_line_exit_2_quickly(tmp_path, capsys, kind, reader):
    bad = _bad_input(tmp_path, kind)
    image = tmp_path / f"{bad.name}.png"
    image.symlink_to(bad.name)  # the image reader chooses by the suffix
    tour = tmp_path / "tour.txt"
    tour.write_text(_tour_3x4() + "\n")
    before = sorted(os.listdir(tmp_path))
    argv = [a.format(file=bad, tour=tour, folder=tmp_path) for a in READERS[reader]]
    began = time.monotonic()
    code, out, err = call(capsys, *argv)
    assert time.monotonic() - began < 10
    assert code == 2, (out, err)
    line = one_line(err)
    assert bad.name in line, line
    if kind == "sparse":
        assert "MiB is more than the" in line  # the size and the limit, named
    assert sorted(os.listdir(tmp_path)) == before


def test_an_image_mask_is_checked_before_decoding(tmp_path, capsys, monkeypatch):
    """A PNG whose header claims 30000 x 30000 pixels is refused from its header (the
    decoder is never reached); an image Pillow cannot read is one line too."""
    from PIL import ImageFile

    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_header(30000, 30000))
    tour = tmp_path / "tour.txt"
    tour.write_text(_tour_3x4() + "\n")
    decoded = []
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda self: decoded.append(self))
    code, _, err = call(capsys, "verify", "3", "4", "--mask", str(bomb), str(tour))
    assert code == 2
    line = one_line(err)
    assert "30000x30000" in line and "10000x10000" in line
    assert decoded == []
    monkeypatch.undo()
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    cut = tmp_path / "cut.png"
    cut.write_bytes(_png_header(5, 5)[:40])
    for path in (junk, cut):
        code, _, err = call(capsys, "tour", "5", "5", "--mask", str(path))
        assert code == 2 and path.name in one_line(err)


def test_deeply_nested_json_is_one_line(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text('{"squares": ' + "[" * 50_000 + "]" * 50_000 + "}")
    for argv in (
        ["verify", "5", "5", str(deep)],
        ["verify", "5", "5", "--wrap", "both", str(deep)],
        ["draw", "file", str(deep), "5", "5", "-o", str(tmp_path / "t.png")],
    ):
        code, out, err = call(capsys, *argv)
        assert code == 2, (argv, out, err)
        one_line(err)


def test_a_npy_tour_larger_than_its_board_allows_is_refused(tmp_path, capsys):
    import numpy as np

    big = tmp_path / "big.npy"
    np.save(big, np.zeros(3000, dtype=np.int64))
    code, _, err = call(capsys, "verify", "3", "4", str(big))
    assert code == 2 and "a .npy tour of 3x4 may hold" in one_line(err)


@pytest.mark.parametrize(
    "argv",
    [
        ["classic"],
        ["verify", "3", "4"],
        ["verify", "3", "4", "--wrap", "rows"],
        ["draw", "file", "-", "3", "4", "-o", "t.png"],
    ],
)
def test_closed_standard_input_is_one_line_exit_2(argv, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", None)
    code, _, err = call(capsys, *argv)
    assert code == 2 and "standard input" in one_line(err) and "closed" in err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("argv", [["classic"], ["verify", "5", "5"]])
def test_closed_standard_input_in_a_process(argv):
    done = _spawn(*argv, close=(0,))
    assert done.returncode == 2
    assert "standard input" in one_line(done.stderr.decode())


# ------------------------------------------------------------- generated
SPECIAL = ["fifo", "zero", "loop", "folder", "sparse"]
FUZZ_READERS = ["verify", "verify-graph", "classic", "mask", "mask-image", "draw-file"]


@settings(max_examples=int(os.environ.get("KNIGHTGRAPH_FUZZ_HOSTILE_CASES", "30")))
@given(
    content=st.one_of(
        st.sampled_from(SPECIAL if ROOT else [k for k in SPECIAL if k != "zero"]),
        st.binary(max_size=300),
        st.text(alphabet='abc123.#, []{}\n"', max_size=80).map(str.encode),
    ),
    reader=st.sampled_from(FUZZ_READERS),
)
def test_fuzz_inputs(content, reader):
    """Random bytes or a special file, given to every reader: exit 0, 1 or 2, one line on
    2, never an exception, never a file left behind."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        tour = folder / "tour.txt"
        tour.write_text(_tour_3x4() + "\n")
        if isinstance(content, bytes):
            bad = folder / "input"
            bad.write_bytes(content)
        else:
            bad = _bad_input(folder, content)
        image = folder / f"{bad.name}.png"
        image.symlink_to(bad.name)
        before = sorted(os.listdir(folder))
        argv = [a.format(file=bad, tour=tour, folder=folder) for a in READERS[reader]]
        out_buf, err_buf = _Capture(), _Capture()
        with contextlib.redirect_stdout(out_buf), contextlib.redirect_stderr(err_buf):
            try:
                code = main(argv)
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 2
        assert code in (0, 1, 2), (argv, content, err_buf.getvalue())
        if code == 2:
            one_line(err_buf.getvalue())
        made = set(os.listdir(folder)) - set(before)
        assert made == ({"t.png"} if code == 0 and reader == "draw-file" else set()), made
        assert set(before) <= set(os.listdir(folder))


class _Capture:
    """A text stream that keeps what is written (``io.StringIO`` without ``fileno``)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def getvalue(self) -> str:
        return "".join(self.parts)


# ------------------------------------------------------------------ README
def test_the_readme_states_how_io_failures_and_signals_end():
    """The contract section's table names every exit code the command line gives, I/O
    failures and signals included (the tests above and tests/test_bounds.py hold them)."""
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("### Exit codes, files, streams and signals", 1)[1].split("\n## ", 1)[0]
    codes = {int(c) for c in re.findall(r"^\| \*\*(\d+)\*\* \|", section, flags=re.M)}
    assert codes == {0, 1, 2, 3, 70, 130, 141, 143}
    row = {int(c): text for c, text in re.findall(r"^\| \*\*(\d+)\*\* \| (.*)$", section, re.M)}
    assert "could not be written" in row[2] and "SIGINT" in row[130] and "SIGTERM" in row[143]
    assert "head" in row[141]
    for words in ("symbolic link", "written whole or not at all", "/dev/null", "FIFO", "<&-"):
        assert words in section, words


def test_a_standard_output_whose_write_returns_nothing_still_works():
    """``main`` in a program whose ``sys.stdout`` is a plain object (``write`` returns None)."""

    class Plain(_Capture):
        def write(self, text: str) -> None:  # type: ignore[override]
            self.parts.append(text)

    plain = Plain()
    with contextlib.redirect_stdout(plain):
        code = main(["tour", "5", "5", "--method", "backtrack"])
    assert code == 0 and plain.getvalue().split()[0] == "a1"
