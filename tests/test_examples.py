"""The scripts in examples/ run cleanly (they double as smoke tests)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.engine_free  # the example scripts and the pages' examples (the twins agree by the rest of the suite)

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))

# Scripts that write pictures take where to write them, so that a test run never
# rewrites the pictures of docs/images/ (the gallery's default folder).
PICTURE_ARGS = {"gallery.py": ["{tmp}"], "scaling.py": ["{tmp}/scaling.png"]}


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script, tmp_path):
    args = [a.format(tmp=tmp_path) for a in PICTURE_ARGS.get(script.name, [])]
    proc = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    if args:
        assert any(tmp_path.iterdir()), "no picture written"


# ------------------------------------------------- README.md and docs/ examples
# The convention (console and pycon fences, skip and slow markers) is described in
# tests/doc_examples.py and README.md; scripts/regen_examples.py rewrites the shown
# output from real runs.
import doc_examples as dx  # noqa: E402

PAGES = dx.pages()


def _run_page(page: Path, folder: Path, *, slow: bool) -> list[str]:
    problems: list[str] = []
    namespace: dict[str, object] = {}
    for block in dx.blocks(page):
        if block.lang not in dx.TESTED or block.marker == "skip":
            continue
        if block.marker == "slow" and not slow:
            continue
        if block.lang == "console":
            problems += dx.check_console(block, folder)
        else:
            problems += dx.check_pycon(block, namespace, folder)
    return problems


def _ids(pages: list[Path]) -> list[str]:
    return [str(p.relative_to(dx.REPO)) for p in pages]


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_page_examples_print_what_they_show(page: Path, tmp_path: Path) -> None:
    problems = _run_page(page, tmp_path, slow=False)
    assert not problems, "\n\n".join(problems) + "\n(scripts/regen_examples.py rewrites them)"


SLOW_PAGES = [p for p in PAGES if any(b.marker == "slow" for b in dx.blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", SLOW_PAGES, ids=_ids(SLOW_PAGES))
def test_page_examples_with_the_slow_ones(page: Path, tmp_path: Path) -> None:
    problems = _run_page(page, tmp_path, slow=True)
    assert not problems, "\n\n".join(problems)


def test_every_example_is_run_or_says_why_not() -> None:
    unmarked = [
        f"{b.where}: a {b.lang} block (write it as console/pycon, or mark it skip with a reason)"
        for page in PAGES
        for b in dx.blocks(page)
        if (b.lang in dx.MUST_BE_MARKED and not b.marker) or (b.marker == "skip" and not b.why)
    ]
    assert not unmarked, "\n".join(unmarked)
    shown = [b for page in PAGES for b in dx.blocks(page) if b.lang in dx.TESTED]
    assert len(shown) >= 10


def test_the_comparison_can_fail(tmp_path: Path) -> None:
    """Wrong output, a wrong line and a bad command are reported; times are not."""
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ echo took 0.25 s\ntook 1.5 s\n$ echo a; echo b; echo c\na\n...\nc\n"
        "$ echo right\nwrong\n$ knightgraph tour 0 5\n```\n```pycon\n>>> 1 + 1\n3\n```\n"
    )
    console, pycon = dx.blocks(page)
    problems = dx.check_console(console, tmp_path)
    assert len(problems) == 2 and "right" in problems[0] and "exited 2" in problems[1]
    assert len(dx.check_pycon(pycon, {}, tmp_path)) == 1


# ------------------------------------------------------------- startup, bars
def test_cli_knight_is_the_board_knight() -> None:
    from knightgraph.boards.board import KNIGHT
    from knightgraph.cli._shared import KNIGHT as CLI_KNIGHT

    assert CLI_KNIGHT == KNIGHT == (1, 2)


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["tour", "--help"]])
def test_help_and_version_import_nothing_heavy(args: list[str]) -> None:
    code = (
        "import sys, contextlib, io\n"
        "from knightgraph.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    main({args!r})\n"
        "heavy = ('numpy', 'networkx', 'pysat', 'matplotlib', 'tqdm', 'dask')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_lazy_package_names() -> None:
    import knightgraph as kg

    assert set(kg.__all__) <= set(dir(kg))
    assert kg.find_tour(5, 5).found and kg.Tour.__name__ == "Tour"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        kg.nope  # noqa: B018
    assert kg.solvers.find_tour is kg.find_tour  # submodules too, as when all were imported


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from knightgraph.cli._shared import progress_bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a pipe or a file
    with progress_bar("work", total=10) as update:
        assert update is None
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with progress_bar("work", total=10) as update:  # done at once: no bar, no tqdm
        assert update is not None
        update({"done": 10, "total": 10})
    assert terminal.getvalue() == ""
    monkeypatch.setattr("knightgraph.cli._shared.PROGRESS_DELAY", 0.0)
    with progress_bar("work", total=10) as update:
        assert update is not None
        deadline = time.monotonic() + 10
        while "work" not in terminal.getvalue():  # the bar comes up at once
            assert time.monotonic() < deadline
            time.sleep(0.01)
        update({"done": 7, "total": 10})
        while "7/10" not in terminal.getvalue():  # the quiet thread redraws it
            assert time.monotonic() < deadline
            time.sleep(0.01)
