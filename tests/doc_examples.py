"""The examples of README.md and docs/: found, run, compared (for tests/test_examples.py and
scripts/regen_examples.py).

The convention (also in README.md, "Development"):

* A fenced block marked ``console`` is a shell transcript.  Each ``$ COMMAND`` line runs
  in bash, in one fresh folder per page, in page order (a file written by one command is
  there for the next), with the installed ``knightgraph`` and ``python`` first on the
  PATH.  The lines up to the next ``$`` are what it prints (standard output and standard
  error together).  A line ``...`` stands for any number of lines and ``...`` inside a
  line for any text; times (``0.13 s``, ``"seconds": 0.01``) are compared as ``<T>``.
* A fenced block marked ``pycon`` is a Python session (``>>>``), run as a doctest
  (ELLIPSIS, NORMALIZE_WHITESPACE) in one namespace per page, in the same folder.
* ``<!-- example: skip REASON -->`` on the line before a fence: not run (say why).
  ``<!-- example: slow -->``: run only by ``make test-all``.
* Blocks marked ``python``, ``sh`` or ``bash`` must carry one of these markers or become
  ``console``/``pycon``: every command and Python example is run.  ``text`` blocks are
  pictures of output, not examples.

A new page of docs/ is covered as soon as it uses these fences.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TESTED = {"console", "pycon"}
MUST_BE_MARKED = {"python", "sh", "bash", "shell", "py"}
FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!--\s*example:\s*(skip|slow)\b\s*(.*?)\s*-->\s*$")
TIMES = [
    (re.compile(r"\d+(\.\d+)?(e-?\d+)? ?s\b"), "<T> s"),
    (re.compile(r'"seconds": [0-9.e-]+'), '"seconds": <T>'),
]


def pages() -> list[Path]:
    """README.md and every page of docs/ (sub-folders too), in a stable order."""
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


@dataclass
class Block:
    page: Path
    lang: str
    first: int  # index of the first line inside the fence
    lines: list[str]
    marker: str = ""  # "", "skip" or "slow"
    why: str = ""

    @property
    def where(self) -> str:
        page = self.page.relative_to(REPO) if self.page.is_relative_to(REPO) else self.page
        return f"{page}:{self.first}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page``."""
    text = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(text):
        m = FENCE.match(text[i])
        if m is None:
            i += 1
            continue
        j = i + 1
        while j < len(text) and not text[j].startswith("```"):
            j += 1
        marker = MARKER.match(text[i - 1]) if i else None
        out.append(
            Block(
                page,
                m.group(1),
                i + 1,
                text[i + 1 : j],
                marker.group(1) if marker else "",
                marker.group(2) if marker else "",
            )
        )
        i = j + 1
    return out


def normal(text: str, folder: Path | None = None) -> str:
    """Times as ``<T>``, the run's folder as ``.``, trailing blanks gone."""
    if folder is not None:
        text = text.replace(str(folder) + os.sep, "").replace(str(folder), ".")
    for pattern, to in TIMES:
        text = pattern.sub(to, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def matches(want: str, got: str) -> bool:
    """``got`` fits ``want``, where ``want`` may hold ``...`` (lines or inside a line)."""
    want_lines, got_lines = want.splitlines(), got.splitlines()
    pattern = []
    for line in want_lines:
        if line.strip() == "...":
            pattern.append(r"(?:.*\n)*?")
        else:
            pattern.append(".*".join(re.escape(p) for p in line.split("...")) + r"\n")
    return re.fullmatch("".join(pattern), "".join(g + "\n" for g in got_lines)) is not None


# ------------------------------------------------------------------ console
@dataclass
class Command:
    line: int  # index in the block of the `$` line
    command: str
    want: list[str] = field(default_factory=list)


def commands(block: Block) -> list[Command]:
    out: list[Command] = []
    for k, line in enumerate(block.lines):
        if line.startswith("$ "):
            out.append(Command(k, line[2:]))
        elif out:
            out[-1].want.append(line)
    return out


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNIGHTGRAPH_")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(COLUMNS="100", PYTHONHASHSEED="0")
    return env


def run_command(command: str, folder: Path) -> tuple[int, str]:
    """Run one shell line; its exit code and what it printed (both streams)."""
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=folder,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout


def check_console(block: Block, folder: Path) -> list[str]:
    """Run a console block; the differences between what it shows and what runs."""
    problems = []
    for cmd in commands(block):
        code, out = run_command(cmd.command, folder)
        got, want = normal(out, folder), normal("\n".join(cmd.want))
        if code in (2, 70) and "error" not in want:
            problems.append(f"{block.where}+{cmd.line}: `{cmd.command}` exited {code}: {got}")
        elif not matches(want, got):
            problems.append(
                f"{block.where}+{cmd.line}: `{cmd.command}`\n--- shown\n{want}\n--- printed\n{got}"
            )
    return problems


# --------------------------------------------------------------------- pycon
class _Recorder(doctest.DocTestRunner):
    def __init__(self) -> None:
        super().__init__(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
        self.got: dict[int, str] = {}

    def report_failure(self, out, test, example, got):  # type: ignore[no-untyped-def]
        self.got[id(example)] = got

    def report_unexpected_exception(self, out, test, example, exc_info):  # type: ignore[no-untyped-def]
        self.got[id(example)] = "Traceback (most recent call last):\n    ...\n" + "".join(
            doctest.traceback.format_exception_only(*exc_info[:2])  # type: ignore[attr-defined]
        )


def run_pycon(
    block: Block, namespace: dict[str, object], folder: Path
) -> tuple[list[doctest.Example], dict[int, str]]:
    """Run a pycon block; its examples and, for each one that failed, what it printed."""
    test = doctest.DocTestParser().get_doctest(
        "\n".join(block.lines) + "\n", namespace, block.where, str(block.page), block.first
    )
    runner = _Recorder()
    here = Path.cwd()
    os.chdir(folder)
    try:
        runner.run(test, clear_globs=False, out=lambda s: None)
    finally:
        os.chdir(here)
    namespace.update(test.globs)  # doctest ran on a copy: the next block sees these names
    return test.examples, runner.got


def check_pycon(block: Block, namespace: dict[str, object], folder: Path) -> list[str]:
    examples, got = run_pycon(block, namespace, folder)
    return [
        f"{block.where}+{ex.lineno}: >>> {ex.source.strip()}\n--- shown\n{ex.want}--- printed\n"
        f"{got[id(ex)]}"
        for ex in examples
        if id(ex) in got
    ]
