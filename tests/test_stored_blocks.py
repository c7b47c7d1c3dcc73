"""``tour M N`` on one stored block (``tour 8 8``): the command line's one route.

On every board of one stored block (both sides 5 to 10, not both odd), for every start
and both kinds, the command line prints exactly what ``find_tour`` and
:mod:`knightgraph.io.formats` give, and that is the stored block's tour
(:mod:`knightgraph.tours.blocktour`) read from the start; every tour is checked by the
independent checker too; and ``tour 8 8`` imports nothing heavy but numpy.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

from knightgraph import find_tour
from knightgraph.cli import main
from knightgraph.io.formats import format_board, format_squares, result_to_dict
from knightgraph.tours.blocktour import _LIBRARY, library_text, stored_meta, stored_order
from tests.independent import tour_defect

BLOCK_SIDES = range(5, 11)
BOARDS = [(m, n) for m in BLOCK_SIDES for n in BLOCK_SIDES if not (m % 2 and n % 2)]


def _cli(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(args)
    return code, out.getvalue()


def _squares(text: str, m: int) -> list[tuple[int, int]]:
    return [(int(name[1:]) - 1, ord(name[0]) - ord("a")) for name in text.split()]


def _full(m: int, n: int, closed: bool, start: tuple[int, int] | None, fmt: str) -> str:
    """What the full route prints (the solver and the formats of the package)."""
    res = find_tour(m, n, closed=closed, start=start)
    assert res.found and res.method == "divide"
    if fmt == "json":
        return json.dumps(result_to_dict(res, res.tour.board, closed, start, None))
    return (format_board if fmt == "board" else format_squares)(res.tour) + "\n"


def _quick(m: int, n: int, closed: bool, start: tuple[int, int] | None, fmt: str) -> str:
    args = ["tour", str(m), str(n), "--format", fmt, *(["--closed"] if closed else [])]
    if start is not None:
        args += ["--start", f"{start[0]},{start[1]}"]
    code, text = _cli(args)
    assert code == 0
    return text


def _same(m: int, n: int, closed: bool, start: tuple[int, int] | None) -> None:
    for fmt in ("squares", "board"):
        assert _quick(m, n, closed, start, fmt) == _full(m, n, closed, start, fmt), (m, n, fmt)
    quick, full = (
        json.loads(_quick(m, n, closed, start, "json")),
        json.loads(_full(m, n, closed, start, "json")),
    )
    quick.pop("seconds"), full.pop("seconds")
    assert quick == full
    assert tour_defect(m, n, quick["squares"], closed=closed, start=start) is None


@pytest.mark.parametrize(("m", "n"), BOARDS)
@pytest.mark.parametrize("closed", [False, True])
def test_same_answer_as_the_full_route(m: int, n: int, closed: bool) -> None:
    starts = [None, (0, 0), (m - 1, n - 1), (m // 2, n // 2), (1, n - 2)]
    for start in starts:
        _same(m, n, closed, start)


def _from_stored(m: int, n: int, start: tuple[int, int] | None) -> list[int]:
    """The stored closed tour of the block, read from ``start`` (a1 when None)."""
    order = stored_order(f"grid_{m}x{n}")
    k = order.index(0 if start is None else start[0] * n + start[1])
    return order[k:] + order[:k]


@pytest.mark.parametrize(("m", "n"), BOARDS)
def test_the_answer_is_the_stored_block_read_from_the_start(m: int, n: int) -> None:
    """What ``divide`` promises on these boards: the stored closed tour, no joins, read from
    the start, whether the request is open or closed (the library's own data, not the route's)."""
    for closed in (False, True):
        for start in (None, (m - 1, n - 1), (m // 2, 1)):
            text = _quick(m, n, closed, start, "squares")
            assert _squares(text, m) == [divmod(i, n) for i in _from_stored(m, n, start)]


@pytest.mark.slow
@pytest.mark.parametrize(("m", "n"), BOARDS)
def test_same_answer_from_every_start(m: int, n: int) -> None:
    for r in range(m):
        for c in range(n):
            for closed in (False, True):
                _same(m, n, closed, (r, c))


def test_the_library_reads_back_what_it_writes_and_holds_tours() -> None:
    """Every stored tour is a tour of its block (independent checker), and the text
    of the library is exactly what :func:`library_text` writes from what is read."""
    meta = stored_meta()
    assert len(meta) == 95 and all(f"grid_{m}x{n}" in meta for m, n in BOARDS)
    entries = {name: (info, stored_order(name)) for name, info in meta.items()}
    with open(_LIBRARY, encoding="utf-8") as f:
        assert library_text(entries) == f.read()
    for name, (info, order) in entries.items():
        m, n = info["rows"], info["cols"]
        removed = [(0, 0)] if info["kind"] == "corner" else []
        squares = [divmod(i, n) for i in order]
        defect = tour_defect(m, n, squares, closed=info["closed"], removed=removed)
        assert defect is None, name


@pytest.mark.parametrize(
    "args",
    [
        ["tour", "8", "8", "--start", "i1"],  # off the board
        ["tour", "8", "8", "--start", "a0"],
        ["tour", "8", "8", "--method", "nope"],
        ["tour", "8", "8", "--end", "a1", "--start", "a1"],
    ],
)
def test_bad_input_still_exits_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert "error" in capsys.readouterr().err


def test_other_requests_on_these_boards() -> None:
    code, text = _cli(["tour", "8", "8", "--method", "warnsdorff", "--seed", "1"])
    assert code == 0 and tour_defect(8, 8, _squares(text, 8)) is None
    code, text = _cli(["tour", "5", "5", "--start", "c3"])  # odd board: SAT places the start
    assert code == 0 and text.split()[0] == "c3"
    code, text = _cli(["tour", "3", "3"])
    assert code == 1 and text.startswith("no open tour on 3x3")


@pytest.mark.parametrize(
    "args",
    [
        ["tour", "8", "8"],
        ["tour", "8", "8", "--closed", "--format", "board"],
        ["tour", "10", "7", "--start", "d4", "--format", "json"],
    ],
)
def test_tour_of_one_block_imports_nothing_heavy_but_numpy(args: list[str]) -> None:
    code = (
        "import sys, contextlib, io\n"
        "from knightgraph.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({args!r}) == 0\n"
        "heavy = ('networkx', 'pysat', 'matplotlib', 'dask', 'tqdm', 'scipy')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in heavy}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_import_check_can_fail() -> None:
    """The same check sees python-sat when a command needs it (an odd board: SAT)."""
    code = (
        "import sys, contextlib, io\n"
        "from knightgraph.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['tour', '5', '5', '--start', 'c3']) == 0\n"
        "print('pysat' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
