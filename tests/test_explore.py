"""Sweeps over every start square (seed 003's experiment) and the seed-002 exercise."""

from __future__ import annotations

import json
import random

import pytest
from independent import first_tour

from knightgraph import Board, square_name
from knightgraph.cli import main
from knightgraph.explore import sweep
from knightgraph.solvers.classic import SEED_002_MOVES, solve_classic


def test_sweep_records_every_start():
    result = sweep(6, 6, rule="first")
    assert result.ok.shape == (6, 6) and result.failures == int((~result.ok).sum())
    assert sum(result.statuses.values()) == 36
    data = result.to_dict()
    assert set(data) >= {"rows", "cols", "ok", "failures", "seconds"}
    assert data["ok"][0][0] == bool(result.ok[0, 0])


def test_sweep_on_an_odd_board_fails_exactly_on_the_minority_colour():
    result = sweep(7, 7)
    assert result.statuses == {"FOUND": 25, "PROVEN_ABSENT": 24, "ABORTED": 0}
    assert all((r + c) % 2 == 1 for r in range(7) for c in range(7) if not result.ok[r, c])


def test_sweep_with_removed_squares_and_exact_method():
    result = sweep(Board(4, 5, removed=["a1"]), method="auto")
    assert not result.ok[0, 0] and result.statuses["ABORTED"] == 0
    assert "a1" not in result.failed_squares()


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 20, 25, 31, 40])
def test_default_rule_succeeds_from_every_start_with_a_tour(n):
    result = sweep(n, n)
    assert result.statuses["ABORTED"] == 0, result.failed_squares()


@pytest.mark.slow
def test_default_rule_on_every_board_up_to_100():
    for n in range(5, 101):
        assert sweep(n, n).statuses["ABORTED"] == 0, n


@pytest.mark.slow
def test_border_rule_reproduces_seed_003_on_50x50():
    # Seed 003: its border rule (8 tie orders) failed from 16 start squares of 50x50.
    assert sweep(50, 50, rule="border").failures == 16


def test_sweep_cli(capsys):
    assert main(["sweep", "8", "8", "--rule", "first", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == data["cols"] == 8 and data["failures"] == 1
    assert data["ok"][2][4] is False  # e3
    assert main(["sweep", "5", "5", "--method", "auto"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "5 | .X.X."
    assert "12 of 25 start squares failed" in out


# ------------------------------------------------------------------- classic
def test_classic_examples():
    assert solve_classic("5 5\na1\ne5\n").text == (
        "a1 c2 e1 d3 c5 e4 d2 b1 a3 b5 d4 e2 c3 a4 b2 d1 e3 d5 b4 a2 c1 b3 a5 c4 e5"
    )
    assert solve_classic("5 5\na1\nb1\n").text == "Not Found"
    assert solve_classic("1 1\na1\na1\n").text == "a1"
    assert solve_classic("\n 5 5 \n\n a1\ne5\n\n").text.startswith("a1 c2")


def test_classic_agrees_with_plain_dfs_on_random_small_cases():
    rng = random.Random(2002)
    for _ in range(40):
        m, n = rng.choice([(3, 4), (4, 3), (3, 5), (4, 4), (5, 4), (4, 5), (3, 7), (5, 5)])
        s = (rng.randrange(m), rng.randrange(n))
        e = (rng.randrange(m), rng.randrange(n))
        if s == e:
            continue
        answer = solve_classic(f"{m} {n}\n{square_name(*s)}\n{square_name(*e)}\n").text
        expected = first_tour(m, n, s, SEED_002_MOVES, end=e)
        assert answer == (" ".join(square_name(*q) for q in expected) if expected else "Not Found")


def test_classic_cli(tmp_path, capsys, monkeypatch):
    path = tmp_path / "in.txt"
    path.write_text("5 5\na1\ne5\n")
    assert main(["classic", str(path)]) == 0
    assert capsys.readouterr().out.startswith("a1 c2 e1")
    path.write_text("5 5\na1\nb1\n")
    assert main(["classic", str(path)]) == 1
    assert capsys.readouterr().out == "Not Found\n"
    for text, word in [
        ("5 5\na1\n", "three lines"),
        ("5 x\na1\nb1\n", "'5 x'"),
        ("5 5\na1\nz9\n", "z9"),
        ("0 5\na1\nb1\n", "0"),
    ]:
        path.write_text(text)
        assert main(["classic", str(path)]) == 2
        err = capsys.readouterr().err
        assert word in err and len(err.strip().splitlines()) == 1
    assert main(["classic", str(tmp_path / "missing.txt")]) == 2


def test_json_spells_statuses_one_way():
    """Statuses in JSON are the values, as in `tour --format json`: found, proven_absent, aborted."""
    data = sweep(4, 4).to_dict()
    assert set(data["statuses"]) == {"found", "proven_absent", "aborted"}
    assert sum(data["statuses"].values()) == 16


def test_one_progress_signature_everywhere():
    """Searches, counts, sweeps, maps and tables all call ``progress`` with one dict."""
    import knightgraph as kg

    calls: dict[str, list] = {}

    def recorder(name):
        return lambda info: calls.setdefault(name, []).append(info)

    kg.find_tour(6, 6, method="backtrack", start="a1", progress=recorder("find_tour"))
    kg.count_tours(5, 5, progress=recorder("count_tours"))
    kg.sweep(3, 4, progress=recorder("sweep"))
    kg.start_map(3, 4, progress=recorder("start_map"))
    kg.existence_table(2, 3, progress=recorder("existence_table"))
    assert set(calls) == {"find_tour", "count_tours", "sweep", "start_map", "existence_table"}
    for name, infos in calls.items():
        assert infos and all(isinstance(info, dict) for info in infos), name
    assert "placed" in calls["find_tour"][-1]  # a search's counters: its own unit of work
    assert all(
        "done" in info
        for name in ("count_tours", "sweep", "start_map", "existence_table")
        for info in calls[name]
    )
    assert calls["sweep"][-1] == {"done": 12, "total": 12}
    assert calls["existence_table"][-1] == {"done": 6, "total": 6}
