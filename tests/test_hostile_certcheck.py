"""Every answer is checkable (issue 24, point 6): ``python -m knightgraph.certcheck``.

The independent checker reads the JSON of any answer (``tour``, ``exists``, ``count
--list``, ``sample``, ``starts``, ``ends``, ``table``; the API's graph results through
:func:`knightgraph.io.formats.result_to_dict`), the board it describes (rectangle, removed
squares, leaper, mask, cylinder, torus, 3-D board, graph board) and re-checks every tour
and certificate in it.  One test per class of the issue (each failed before the fix), the
acceptance test (the JSON of over 500 random answers through one checker process, every
one accepted) and the fuzz test (malformed JSON never crashes it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cli_support import call, one_line, subprocess_env
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgraph.certcheck import main as certcheck_main

HOSTILE_CASES = int(os.environ.get("KNIGHTGRAPH_FUZZ_HOSTILE_CASES", "30"))


def certcheck(text: str | bytes) -> tuple[int, str, str]:
    """``python -m knightgraph.certcheck FILE`` in-process on ``text``: (code, out, err)."""
    data = text.encode() if isinstance(text, str) else text
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "answer.json")
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = certcheck_main([str(path)])
    return code, out.getvalue(), err.getvalue()


def answer(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """The exit code and the JSON printed by ``knightgraph ARGS --format json``."""
    code, out, err = call(capsys, *args, "--format", "json")
    assert code in (0, 1), (args, code, err)
    return code, out


def accepted(text: str) -> str:
    code, out, err = certcheck(text)
    assert code == 0 and out.startswith("accepted: ") and not err, (text[:300], out, err)
    return out


# ------------------------------------------------- the classes of the issue, one by one
@pytest.mark.parametrize(
    "args",
    [
        ("tour", "3", "3", "--leaper", "1,3"),  # degree: a1 has no move of this leaper
        ("tour", "4", "4", "--remove", "a1", "--closed"),  # colour counts without a1
        ("tour", "5", "5", "--remove", "c3", "--leaper", "1,3"),
    ],
)
def test_a_tour_answer_without_a_tour_describes_its_board(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """``tour --format json`` kept ``removed`` and ``leaper`` only when it found a tour,
    so certcheck checked the certificate on the plain knight board and rejected it."""
    code, out = answer(capsys, *args)
    data = json.loads(out)
    assert code == 1 and data["squares"] is None and data["certificate"]
    assert ("--leaper" not in args) or data["leaper"] == [int(x) for x in args[-1].split(",")]
    assert ("--remove" not in args) or data["removed"]
    accepted(out)


@pytest.mark.parametrize(
    "args",
    [
        ("tour", "3", "4"),
        ("exists", "3", "4", "--closed"),
        ("count", "3", "4"),
        ("starts", "3", "4"),
        ("ends", "3", "4", "--start", "d3"),
        ("sweep", "3", "4", "--method", "backtrack"),
        ("sample", "3", "4", "-k", "1"),
    ],
)
def test_every_json_answer_describes_its_board(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """``starts``, ``ends`` and ``sweep`` left out ``leaper`` and ``removed``."""
    code, out, err = call(capsys, *args, "--remove", "a1", "--leaper", "1,3", "--format", "json")
    assert code in (0, 1), err
    data = json.loads(out)
    for item in data if isinstance(data, list) else [data]:
        assert (item["rows"], item["cols"], item["leaper"], item["removed"]) == (
            3,
            4,
            [1, 3],
            ["a1"],
        )


@pytest.mark.parametrize(
    "args",
    [
        ("tour", "3", "4", "--wrap", "cols"),
        ("tour", "3", "4", "--wrap", "rows", "--closed"),
        ("tour", "4", "4", "--wrap", "both", "--closed"),
        ("tour", "2", "3", "--levels", "2"),  # no tour: b1:1 has no move
        ("tour", "2", "2", "--levels", "2", "--wrap", "both"),
        ("exists", "3", "4", "--wrap", "rows", "--closed"),  # a tour named a1, b2, ...
        ("exists", "2", "2", "--levels", "2", "--start", "a1:2"),  # 3-D square names
        ("sample", "3", "4", "--wrap", "cols", "-k", "2", "--seed", "1"),
    ],
)
def test_wrap_and_levels_answers_are_checked(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """certcheck rejected every cylinder, torus and 3-D answer, valid tours included."""
    accepted(answer(capsys, *args)[1])


def test_a_connectivity_certificate_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    """certcheck refused the ``connectivity`` kind; a forged component is rejected."""
    code, out = answer(capsys, "exists", "2", "2", "--levels", "2", "--wrap", "rows")
    data = json.loads(out)
    assert code == 1 and data["certificate"]["kind"] == "connectivity"
    assert "connectivity" in accepted(out)
    data["certificate"]["component"] = data["certificate"]["component"][:-1]
    code, verdict, _ = certcheck(json.dumps(data))
    assert code == 1 and verdict.startswith("rejected: an edge leaves the component")


def test_a_verified_tour_is_accepted_and_a_forged_one_rejected(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """certcheck read only certificates: ``tour 4 4 --remove a1`` was 'cannot read'."""
    code, out = answer(capsys, "tour", "4", "4", "--remove", "a1")
    assert code == 0 and "a verified tour of 15 squares" in accepted(out)
    data = json.loads(out)
    data["squares"][3], data["squares"][4] = data["squares"][4], data["squares"][3]
    code, verdict, _ = certcheck(json.dumps(data))
    assert code == 1 and verdict == "rejected: tour: has a step that is not a move\n"
    data = json.loads(out)
    data["removed"] = []  # the same squares on the whole board: one square is missing
    assert certcheck(json.dumps(data))[:2] == (1, "rejected: tour: 15 squares for 16\n")


def test_what_an_answer_says_must_agree_with_what_it_carries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A "yes" with a proof of absence, a "no" with a tour, or a "no" stripped of its
    certificate is rejected (a count's exhaustive 0 carries none: nothing to check)."""
    no = json.loads(answer(capsys, "exists", "4", "4")[1])
    yes = json.loads(answer(capsys, "exists", "5", "5")[1])
    bare = json.loads(answer(capsys, "tour", "4", "4", "--closed")[1])
    del bare["certificate"]
    for forged, why in (
        ({**no, "exists": True}, "says a tour exists, but carries a 'sat-refutation' proof"),
        ({**yes, "exists": False}, "says there is no tour, but carries a 'tour' proof"),
        (bare, "says there is no tour, but carries no certificate"),
    ):
        code, out, _ = certcheck(json.dumps(forged))
        assert (code, out) == (1, f"rejected: the answer {why}\n")
    assert "nothing to check" in accepted(answer(capsys, "count", "4", "4")[1])


def test_the_tours_of_count_list_and_sample_are_each_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``count --list`` and ``sample`` (a JSON list) carry several tours: each is checked."""
    out = answer(
        capsys, "count", "5", "6", "--closed", "--start", "a1", "--end", "b3", "--list", "3"
    )[1]
    assert accepted(out).endswith("(the first of 3, each accepted)\n")
    data = json.loads(out)
    data["tours"][1] = data["tours"][1][::-1]  # from b3 to a1: not the ends asked for
    code, verdict, _ = certcheck(json.dumps(data))
    assert code == 1 and "the start is not the one asked for" in verdict
    code, out, _ = certcheck(answer(capsys, "sample", "3", "4", "-k", "3", "--seed", "2")[1])
    assert code == 0 and out.count("accepted: tour: a verified tour of 12 squares") == 3


def test_graph_boards_carry_their_edges() -> None:
    """The API's graph results had no command-line path to a checker: their JSON now
    names the vertices and edges, and certcheck checks tours and certificates on them."""
    import networkx as nx

    from knightgraph import find_tour, tour_exists
    from knightgraph.boards.graphboard import GraphBoard
    from knightgraph.io.formats import result_to_dict

    board = GraphBoard.from_networkx(nx.petersen_graph())
    lines = []
    for closed in (False, True):  # Petersen: a Hamiltonian path, no Hamiltonian cycle
        result = find_tour(board, closed=closed)
        lines.append(json.dumps(result_to_dict(result, board, closed, None, None)))
    star = GraphBoard.from_networkx(nx.star_graph(3))
    lines.append(json.dumps(result_to_dict(tour_exists(star), star, False, None, None)))
    code, out, err = certcheck("\n".join(lines))
    assert code == 0 and not err, out
    assert [line.split(":")[1].strip() for line in out.splitlines()] == [
        "tour",
        "sat-refutation",
        "degree",
    ]
    forged = json.loads(lines[0])
    first, second = forged["squares"][:2]
    forged["edges"] = [e for e in forged["edges"] if sorted(e) != sorted([first, second])]
    code, out, _ = certcheck(json.dumps(forged))  # without the edge its first step takes
    assert code == 1 and out == f"rejected: step 1 {first}-{second} is not an edge\n"


def test_json_lines_are_checked_in_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    """A batch: one answer a line, one verdict a line, exit 1 when one is rejected."""
    good = answer(capsys, "exists", "4", "6", "--closed")[1].strip()
    bad = json.loads(good)
    bad["rows"] = 5  # Schwenk's argument proves nothing about 5 x 6
    code, out, err = certcheck("\n".join([good, good, json.dumps(bad)]) + "\n")
    assert code == 1 and not err
    assert out.splitlines()[:2] == [out.splitlines()[0]] * 2 and out.startswith("accepted")
    assert out.splitlines()[2].startswith("rejected: schwenk-4xn")


@pytest.mark.parametrize(
    "text",
    [
        '{"rows": 8, "cols": 8, "certificate": 5}',  # was AttributeError
        '{"rows": 8, "cols": 8, "start": 5, "certificate": {"kind": "degree"}}',
        "[" * 100_000 + "]" * 100_000,  # was RecursionError
        '{"rows": 8, "cols": 8, "certificate": {"kind": "degree", "clause": "low-degree", '
        '"square": 7}}',
        '{"rows": 100000, "cols": 100000, "certificate": {"kind": "sat-refutation", '
        '"edges": [], "cnf": [], "proof": [], "cuts": []}}',  # too large to check here
        '{"rows": 3, "cols": 4, "wrap": "sideways", "squares": []}',
        '{"rows": 3, "cols": 4, "levels": 1e400, "squares": []}',
        '{"rows": 3, "cols": 4, "removed": "a1", "squares": []}',
        '{"rows": 3, "cols": 4, "squares": [["a", 1]]}',
        "not json",
        "",
        "[]",
        '"a string"',
        '{"rows": 3, "cols": 4, "leaper": [1, 2, 3], "squares": []}',
        '{"vertices": ["a", "b"], "edges": [["a"]], "squares": ["a", "b"]}',
        "\xff\xfe",
    ],
)
def test_malformed_input_is_one_line_and_exit_2(text: str) -> None:
    """Three inputs crashed certcheck with a traceback and exit 1."""
    code, out, err = certcheck(text.encode("latin-1"))
    assert code == 2 and not out, (text[:80], out)
    assert one_line(err).startswith("cannot read an answer: ")


def test_certcheck_refuses_special_files_without_blocking(tmp_path: Path) -> None:
    """The input is read bounded: a FIFO, a device or a folder is refused in one line."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            assert certcheck_main([path]) == 2
        assert one_line(err.getvalue()).startswith("cannot read an answer: ")


# ------------------------------------------------------------------- the conventions
def test_a_3d_board_with_a_wrap_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Text (the board's kind) and JSON (``wrap``) both name the wrap of a 3-D board."""
    code, out, _ = call(capsys, "exists", "2", "2", "--levels", "2", "--wrap", "rows")
    assert code == 1 and "board 2x2x2 (ranks wrap)" in out
    code, out, _ = call(capsys, "count", "2", "3", "--levels", "2", "--wrap", "both")
    assert "board 2x3x2 (ranks and files wrap)" in out
    data = json.loads(answer(capsys, "tour", "2", "2", "--levels", "2", "--wrap", "cols")[1])
    assert (data["levels"], data["wrap"]) == (2, "cols")


def test_one_square_counts_as_documented(capsys: pytest.CaptureFixture[str]) -> None:
    """1 x 1 and a one-vertex graph: one open tour (directed = undirected = 1), no closed."""
    import networkx as nx

    from knightgraph import count_tours

    single = nx.Graph()
    single.add_node(0)
    for board in ((1, 1), (single,)):
        open_, closed = count_tours(*board), count_tours(*board, closed=True)
        assert (open_.directed, open_.undirected) == (1, 1)
        assert (closed.directed, closed.undirected) == (0, 0)
    docs = (Path(__file__).resolve().parent.parent / "docs" / "exploring.md").read_text()
    assert "directed = undirected = 1" in docs


# --------------------------------------------------------------- the acceptance test
def _random_requests(rng: random.Random, folder: Path) -> list[tuple[str, str, list[str]]]:
    """(command, board kind, argv) of small random requests of every command and kind."""
    out: list[tuple[str, str, list[str]]] = []

    def square(m: int, n: int, level: int | None = None) -> str:
        name = f"{'abcdef'[rng.randrange(n)]}{rng.randrange(m) + 1}"
        return name if level is None else f"{name}:{rng.randrange(level) + 1}"

    def ends(m: int, n: int, level: int | None = None) -> list[str]:
        args = []
        for flag in ("--start", "--end"):
            if rng.random() < 0.3:
                args += [flag, square(m, n, level)]
        return args

    masks = 0
    while len(out) < 700:
        kind = rng.choice(
            ["rectangle", "remove", "leaper", "mask", "rows", "cols", "both", "levels"]
        )
        command = rng.choice(["tour"] * 3 + ["exists"] * 3 + ["count", "sample", "starts", "ends"])
        closed = ["--closed"] if rng.random() < 0.4 else []
        level = None
        if kind == "levels":
            m, n, level = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 2)
            board = [str(m), str(n), "--levels", str(level)]
            board += ["--wrap", rng.choice(["rows", "cols", "both"])] if rng.random() < 0.4 else []
        else:
            m, n = rng.randint(1, 4), rng.randint(1, 5)
            if kind in ("rows", "cols", "both") and command in ("sample", "starts", "ends"):
                m, n = rng.randint(1, 3), rng.randint(1, 4)  # counts on a torus grow fast
            board = [str(m), str(n)]
        if kind == "remove":
            board += ["--remove", square(m, n)]
        elif kind == "leaper":
            board += ["--leaper", rng.choice(["1,3", "2,3", "1,1", "0,1"])]
        elif kind == "mask":
            masks += 1
            holes = {(rng.randrange(m), rng.randrange(n)) for _ in range(rng.randint(0, 2))}
            rows = ["".join("#" if (r, c) in holes else "." for c in range(n)) for r in range(m)]
            path = folder / f"mask{masks}.txt"
            path.write_text("\n".join(rows[::-1]) + "\n")
            board += ["--mask", str(path)]
        elif kind in ("rows", "cols", "both"):
            board += ["--wrap", kind]
        if command == "tour":
            args = ["tour", *board, *closed, *ends(m, n, level)]
        elif command == "exists":
            args = ["exists", *board, *closed, *ends(m, n, level)]
        elif command == "count":
            graph = kind in ("rows", "cols", "both", "levels")
            listing = [] if graph else ["--list", str(rng.randint(0, 3))]
            args = ["count", *board, *closed, *ends(m, n, level), *listing]
        elif command == "sample":
            args = ["sample", *board, *closed, "-k", str(rng.randint(1, 3)), "--seed", "7"]
        elif command == "starts":
            args = ["starts", *board, *closed]
        else:
            args = ["ends", *board, "--start", square(m, n, level)]
        out.append((command, kind, args))
    for size in range(1, 7):
        out.append(("table", "rectangle", ["table", str(size), str(rng.randint(1, 6))]))
    fixed = [  # the rarer kinds of certificate, for certain
        ("tour", "rectangle", ["tour", "5", "8", "--start", "b3", "--end", "d4"]),  # forced-moves
        ("exists", "rectangle", ["exists", "5", "8", "--start", "b3", "--end", "e5"]),
        (
            "exists",
            "levels",
            ["exists", "2", "2", "--levels", "2", "--wrap", "rows"],
        ),  # connectivity
        ("tour", "rectangle", ["tour", "4", "6", "--closed"]),  # schwenk-4xn
        ("tour", "rectangle", ["tour", "4", "4"]),  # sat-refutation
        ("tour", "rectangle", ["tour", "5", "5", "--closed", "--start", "c3"]),  # a tour
    ]
    return out + fixed


def _graph_answers(rng: random.Random) -> list[str]:
    """The JSON of the API's answers on random small networkx graphs (one vertex too)."""
    import networkx as nx

    from knightgraph import find_tour, tour_exists
    from knightgraph.boards.graphboard import GraphBoard
    from knightgraph.io.formats import result_to_dict

    lines = []
    for k in range(40):
        graph = nx.gnp_random_graph(rng.randint(1, 8), rng.choice([0.3, 0.5, 0.8]), seed=k)
        board = GraphBoard.from_networkx(graph)
        closed = rng.random() < 0.5
        names = list(board.names)
        start = rng.choice(names) if rng.random() < 0.3 else None
        find = find_tour if rng.random() < 0.5 else tour_exists
        result = find(board, closed=closed, start=start)
        assert result.status.value != "aborted"
        lines.append(json.dumps(result_to_dict(result, board, closed, start, None)))
    return lines


def test_every_answer_of_every_command_and_board_is_accepted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """THE acceptance test: over 500 random answers (every command that prints JSON, every
    board kind, exit 0 and exit 1) through ONE ``python -m knightgraph.certcheck``."""
    rng = random.Random(24)
    lines: list[str] = []
    made_by: list[str] = []  # the command of each line
    tally: Counter[tuple[str, str, int]] = Counter()
    for command, kind, args in _random_requests(rng, tmp_path):
        code, out, err = call(capsys, *args, "--timeout", "20", "--format", "json")
        if code == 2:  # a request this board refuses (sample on a graph too wide, ...)
            assert one_line(err)
            continue
        assert code in (0, 1), (args, code, err)
        data = json.loads(out)
        for item in data if isinstance(data, list) else [data]:
            lines.append(json.dumps(item))
            made_by.append(command)
            tally[command, kind, code] += 1
    for line in _graph_answers(rng):
        lines.append(line)
        tally["tour", "graph", 0 if json.loads(line).get("squares") else 1] += 1
    assert len(lines) >= 500
    done = subprocess.run(
        [sys.executable, "-m", "knightgraph.certcheck"],
        input="\n".join(lines).encode(),
        capture_output=True,
        env=subprocess_env(),
        timeout=300,
        check=False,
    )
    verdicts = done.stdout.decode().splitlines()
    rejected = [
        (v, line[:300])
        for v, line in zip(verdicts, lines, strict=False)
        if not v.startswith("accepted")
    ]
    assert done.returncode == 0 and not rejected, (done.stderr.decode(), rejected[:5])
    assert len(verdicts) == len(lines)
    checked = Counter(v.split(":")[1].strip() for v in verdicts)
    print(f"\n{len(lines)} answers checked: {dict(checked)}; by request: {dict(tally)}")
    commands = {c for c, _, _ in tally}
    kinds = {k for _, k, _ in tally}
    assert commands >= {"tour", "exists", "count", "sample", "starts", "ends", "table"}, tally
    assert kinds >= {
        "rectangle",
        "remove",
        "leaper",
        "mask",
        "rows",
        "cols",
        "both",
        "levels",
        "graph",
    }
    assert {code for _, _, code in tally} == {0, 1}
    for kind in kinds:  # every board kind answered both ways
        assert {code for _, k, code in tally if k == kind} == {0, 1}, (kind, tally)
    for verdict, command in zip(verdicts, made_by, strict=False):  # maps, tables: their proofs
        if command in ("starts", "ends", "table"):
            assert verdict.startswith(f"accepted: {command}: "), verdict
    summaries = checked.pop("nothing to check")  # counts without --list
    assert sum(checked.values()) >= 500, (summaries, checked)
    assert checked["tour"] >= 100, checked
    kinds_checked = {"colour-count", "degree", "schwenk-4xn", "forced-moves", "sat-refutation"}
    assert kinds_checked | {"connectivity"} <= set(checked), checked


# ------------------------------------------------------------------------ the fuzz
_JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
_SMALL = st.integers(min_value=-2, max_value=6) | st.sampled_from([10**9, 10**40, 2**63])
_FIELDS = {
    "rows": _SMALL | _JUNK,
    "cols": _SMALL | _JUNK,
    "levels": _SMALL | st.none() | _JUNK,
    "wrap": st.sampled_from(["rows", "cols", "both", None, "x"]) | _JUNK,
    "leaper": st.lists(_SMALL, max_size=4) | _JUNK,
    "removed": st.lists(st.sampled_from(["a1", "b2", "c3", "z9", "a", "1,1", ""]), max_size=3)
    | _JUNK,
    "closed": st.booleans() | _JUNK,
    "start": st.sampled_from(["a1", "b3", "a1:2", "1,2", None]) | _JUNK,
    "end": st.sampled_from(["c2", "b1:1", None]) | _JUNK,
    "squares": st.lists(st.lists(_SMALL, max_size=4) | st.sampled_from(["a1", "b3:1"]), max_size=12)
    | _JUNK,
    "tours": st.lists(st.lists(st.lists(_SMALL, max_size=3), max_size=6), max_size=2) | _JUNK,
    "vertices": st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=5) | _JUNK,
    "edges": st.lists(st.lists(st.sampled_from(["a", "b", "c", "x"]), max_size=3), max_size=6)
    | _JUNK,
    "certificate": st.fixed_dictionaries(
        {
            "kind": st.sampled_from(
                [
                    "tour",
                    "colour-count",
                    "degree",
                    "schwenk-4xn",
                    "forced-moves",
                    "sat-refutation",
                    "connectivity",
                    "theorem",
                    7,
                ]
            )
        },
        optional={
            "clause": st.sampled_from(
                [
                    "low-degree",
                    "degree-one",
                    "closing-move",
                    "disconnected",
                    "closed-needs-balance",
                    "open-needs-near-balance",
                    "ends-differ",
                    "ends-on-larger-class",
                ]
            )
            | _JUNK,
            "counts": st.lists(_SMALL, max_size=3) | _JUNK,
            "square": st.sampled_from(["a1", "b2", "z9"]) | _JUNK,
            "squares": st.lists(st.sampled_from(["a1", "b3", "c2", "a1:1"]), max_size=4) | _JUNK,
            "degree": _SMALL | _JUNK,
            "partition": st.sampled_from(["ranks 1 and 4", "files a and d"]) | _JUNK,
            "side": st.lists(st.sampled_from(["a", "b", "a1", "b1:1"]), max_size=3) | _JUNK,
            "component": st.lists(st.sampled_from(["a", "b", "a1"]), max_size=3) | _JUNK,
            "vertices": st.lists(st.sampled_from(["a", "b", "a1"]), max_size=3) | _JUNK,
            "edges": _JUNK,
            "cnf": st.lists(st.lists(_SMALL, max_size=3), max_size=3) | _JUNK,
            "proof": st.lists(st.sampled_from(["0", "1 0", "d 1 0", "x"]), max_size=3) | _JUNK,
            "cuts": _JUNK,
        },
    )
    | _JUNK,
}
_ANSWER = st.fixed_dictionaries({}, optional=_FIELDS)


@settings(max_examples=HOSTILE_CASES)
@given(
    st.one_of(_ANSWER, st.lists(_ANSWER, max_size=3), _JUNK),
    st.sampled_from(["one", "lines", "cut"]),
)
def test_fuzz_certcheck_never_crashes(value: Any, form: str) -> None:
    """Malformed answers (wrong types, missing keys, huge numbers, nested junk, cut short):
    exit 0, 1 or 2, one verdict line per answer or one error line, never an exception."""
    text = json.dumps(value)
    if form == "lines" and isinstance(value, list):
        text = "\n".join(json.dumps(v) for v in value)
    elif form == "cut":
        text = text[: len(text) // 2]
    code, out, err = certcheck(text)
    assert code in (0, 1, 2)
    if code == 2:
        assert not out and one_line(err).startswith("cannot read an answer: ")
    else:
        assert not err and out.endswith("\n")
        assert all(line.startswith(("accepted: ", "rejected: ")) for line in out.splitlines())
        assert (code == 1) == any(line.startswith("rejected") for line in out.splitlines())


def test_the_checker_reads_answers_without_the_solvers(tmp_path: Path) -> None:
    """Independent: reading and checking answers of every board kind imports no solver,
    no board and no numpy (only the standard library, drup, the checker and files)."""
    lines = [
        '{"rows": 1, "cols": 1, "squares": [[0, 0]]}',
        '{"rows": 2, "cols": 2, "levels": 2, "wrap": "rows", "exists": false, "certificate": '
        '{"kind": "connectivity", "component": ["a1:1", "a1:2", "b1:1", "b1:2"]}}',
        '{"vertices": ["x", "y"], "edges": [["x", "y"]], "squares": ["x", "y"]}',
    ]
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code = (
        "import sys\nfrom knightgraph.certcheck.answers import main\n"
        f"assert main([{str(path)!r}]) == 0\n"
        "bad = [m for m in sys.modules if m in ('numpy', 'networkx') or m.startswith("
        "('knightgraph.boards.board', 'knightgraph.solvers', 'knightgraph.counting', 'knightgraph.tours.tour'))]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, env=subprocess_env(), check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().count("accepted: ") == 3
