#!/usr/bin/env python3
"""Rewrite the output shown by the examples of README.md and docs/ from real runs.

Usage: ``.venv/bin/python scripts/regen_examples.py [PAGE ...]`` (default: every page).

Each ``console`` and ``pycon`` block (the convention is in ``tests/doc_examples.py``
and README.md) is run as ``tests/test_examples.py`` runs it, slow blocks included,
skipped blocks not.  Where the shown output still fits what runs (times aside,
``...`` standing for what was left out) it is kept, so hand-made abridgements
survive; otherwise the real output replaces it: at most :data:`MAX_LINES` lines of
at most :data:`MAX_WIDTH` characters, the rest abridged with ``...``.  Review the
diff (``git diff``) before committing: a changed output may be a bug.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import doc_examples as dx

SECONDS = re.compile(r"seconds=[0-9.e-]+")
"""Times in reprs vary: a session shows them as ``seconds=...`` (doctest's ELLIPSIS)."""

MAX_LINES = 32
MAX_WIDTH = 120


def _abridged(text: str) -> list[str]:
    lines = [
        line if len(line) <= MAX_WIDTH else line[: MAX_WIDTH - 3] + "..."
        for line in text.splitlines()
    ]
    if len(lines) > MAX_LINES:
        lines = [*lines[: MAX_LINES - 3], "...", *lines[-2:]]
    return lines


def _console(block: dx.Block, folder: Path) -> list[str]:
    out: list[str] = []
    k = 0
    while k < len(block.lines) and not block.lines[k].startswith("$ "):
        out.append(block.lines[k])
        k += 1
    for cmd in dx.commands(block):
        _, printed = dx.run_command(cmd.command, folder)
        got = dx.normal(printed, folder)
        shown = "\n".join(cmd.want)
        out.append(block.lines[cmd.line])
        if dx.matches(dx.normal(shown), got):
            out.extend(cmd.want)
        else:
            real = printed.replace(str(folder) + "/", "").replace(str(folder), ".")
            out.extend(line.rstrip() for line in _abridged(real.strip("\n")))
    return out


def _pycon(block: dx.Block, namespace: dict[str, object], folder: Path) -> list[str]:
    examples, got = dx.run_pycon(block, namespace, folder)
    out: list[str] = []
    for ex in examples:
        source = ex.source.rstrip("\n").splitlines()
        out.append(" " * ex.indent + ">>> " + source[0])
        out.extend(" " * ex.indent + "... " + line for line in source[1:])
        want = SECONDS.sub("seconds=...", got.get(id(ex), ex.want))
        if want.startswith("Traceback (most recent call last):"):  # its last line is the point
            want = (
                f"Traceback (most recent call last):\n    ...\n{want.rstrip().splitlines()[-1]}\n"
            )
        out.extend(_abridged(want.rstrip("\n")) if want.strip() else [])
    return out


def regenerate(page: Path) -> bool:
    """Rewrite ``page``'s examples; True if anything changed."""
    text = page.read_text(encoding="utf-8").splitlines()
    new = list(text)
    namespace: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        replaced: list[tuple[dx.Block, list[str]]] = []
        for block in dx.blocks(page):
            if block.lang not in dx.TESTED or block.marker == "skip":
                continue
            lines = (
                _console(block, folder)
                if block.lang == "console"
                else _pycon(block, namespace, folder)
            )
            replaced.append((block, lines))
    for block, lines in reversed(replaced):  # from the bottom: earlier line numbers hold
        new[block.first : block.first + len(block.lines)] = lines
    if new == text:
        return False
    page.write_text("\n".join(new) + "\n", encoding="utf-8")
    return True


def main(argv: list[str]) -> int:
    chosen = [Path(a).resolve() for a in argv] or dx.pages()
    for page in chosen:
        changed = regenerate(page)
        print(f"{page.relative_to(dx.REPO)}: {'rewritten' if changed else 'unchanged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
