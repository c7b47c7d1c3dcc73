"""Knight's-tour number puzzles: solutions checked here by code of the tests' own, counts
against the literature and against brute force, certificates through the independent
checker (and tampered ones rejected), bad files refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from independent import tour_defect, tour_ends

import knightgraph as kg
from knightgraph.certcheck import check_answer
from knightgraph.certcheck.puzzles import puzzle_cnf
from knightgraph.io.puzzlefiles import answer_dict, parse_puzzle, puzzle_text
from knightgraph.puzzles import (
    InvalidPuzzleError,
    Puzzle,
    count_solutions,
    make_puzzle,
    solve_puzzle,
)
from knightgraph.puzzles.encoding import PuzzleCNF

KG = [sys.executable, "-m", "knightgraph"]
CHECK = [sys.executable, "-m", "knightgraph.certcheck"]


def clue_defect(clues: dict[tuple[int, int], int], squares: list[tuple[int, int]]) -> str | None:
    """None if the numbering (number k on squares[k - 1]) keeps every clue."""
    number = {tuple(s): k for k, s in enumerate(squares, 1)}
    for square, k in clues.items():
        if number.get(square) != k:
            return f"{square} carries {number.get(square)}, not {k}"
    return None


def assert_solution(puzzle: Puzzle, squares: list[tuple[int, int]]) -> None:
    """The tests' own check, and the library's verifier, on a solution."""
    squares = [tuple(s) for s in squares]
    assert tour_defect(puzzle.rows, puzzle.cols, squares, closed=puzzle.closed) is None
    kg.validate_tour(squares, puzzle.rows, puzzle.cols, closed=puzzle.closed)
    assert clue_defect(dict(puzzle.clues), squares) is None


def brute_count(m: int, n: int, clues: dict[tuple[int, int], int], closed: bool = False) -> int:
    """Numberings along knight's tours keeping the clues, by plain depth-first search."""
    where = {k: s for s, k in clues.items()}
    size = m * n

    def near(r: int, c: int) -> list[tuple[int, int]]:
        steps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
        return [(r + a, c + b) for a, b in steps if 0 <= r + a < m and 0 <= c + b < n]

    def go(path: list[tuple[int, int]], seen: set[tuple[int, int]]) -> int:
        if len(path) == size:
            return int(not closed or path[0] in near(*path[-1]))
        k = len(path) + 1
        total = 0
        for t in near(*path[-1]):
            if t in seen or (k in where and where[k] != t) or (t in clues and clues[t] != k):
                continue
            seen.add(t)
            path.append(t)
            total += go(path, seen)
            path.pop()
            seen.discard(t)
        return total

    starts = [where[1]] if 1 in where else [(r, c) for r in range(m) for c in range(n)]
    return sum(go([s], {s}) for s in starts if s not in clues or clues[s] == 1)


# ------------------------------------------------------------------ counts


def test_counts_agree_with_the_literature() -> None:
    """5x5: 1728 directed open tours (OEIS A165134), 304 of them from a corner; 3x4: 16."""
    assert count_solutions(Puzzle(5, 5)).count == 1728
    assert count_solutions(Puzzle(5, 5, {"a1": 1})).count == 304
    assert sum(tour_ends(5, 5, (0, 0)).values()) == 304  # the tests' own enumeration agrees
    assert count_solutions(Puzzle(3, 4)).count == 16


def test_counts_agree_with_brute_force() -> None:
    import random

    rng = random.Random(7)
    cases = [(m, n, False, k) for m, n in [(3, 4), (4, 5), (5, 5)] for k in (1, 2, 3)]
    cases.append((5, 6, True, 3))  # the 1 and two more: the plain search stays short
    for m, n, closed, k in cases:
        squares = kg.find_tour(m, n, closed=closed, seed=1).tour.squares()
        picked = [0, *rng.sample(range(1, m * n), k - 1)] if closed else rng.sample(range(m * n), k)
        clues = {squares[i]: i + 1 for i in picked}
        answer = count_solutions(Puzzle(m, n, clues, closed=closed))
        assert answer.exact and answer.count == brute_count(m, n, clues, closed) >= 1
        for t in answer.solutions:
            assert_solution(answer.puzzle, t.squares())
        assert len({tuple(t.order.tolist()) for t in answer.solutions}) == answer.count
        assert check_answer(answer_dict(answer))[0]


def test_a_tour_with_all_its_numbers_is_the_only_solution() -> None:
    tour = kg.find_tour(6, 6, seed=0).tour
    clues = {s: k for k, s in enumerate(tour.squares(), 1)}
    answer = count_solutions(Puzzle(6, 6, clues))
    assert answer.count == 1 and answer.tour.squares() == tour.squares()
    del clues[tour.squares()[17]]  # one blank: its number is forced
    assert count_solutions(Puzzle(6, 6, clues)).count == 1


def test_limit_two_answers_uniqueness_quickly() -> None:
    answer = count_solutions(Puzzle(5, 5, {"a1": 1}), limit=2)
    assert answer.verdict() == "at least 2 solutions" and answer.unique is False
    assert not answer.exact and answer.count is None and answer.certificate is None


def test_solve_finds_a_solution_that_keeps_the_clues() -> None:
    puzzle = Puzzle(6, 6, {"a1": 1, "e6": 36, "c3": 21}, closed=False)
    answer = solve_puzzle(puzzle)
    assert answer.status is kg.Status.FOUND
    assert_solution(puzzle, answer.tour.squares())


def test_the_encoding_and_the_checkers_clauses_are_the_same() -> None:
    """Written twice, independently: the same clauses (as a multiset)."""
    from knightgraph.certcheck.puzzles import _Puzzle

    for puzzle in (Puzzle(3, 4, {"a1": 1, "d3": 12}), Puzzle(5, 6, {"a1": 1}, closed=True)):
        mine = sorted(sorted(c) for c in PuzzleCNF(puzzle).clauses())
        fields = {
            "rows": puzzle.rows,
            "cols": puzzle.cols,
            "closed": puzzle.closed,
            "clues": puzzle.named_clues(),
        }
        theirs = sorted(sorted(c) for c in puzzle_cnf(_Puzzle(fields)))
        assert mine == theirs


# ------------------------------------------------------------------ "no"


def test_impossible_puzzles_get_a_checked_no() -> None:
    for puzzle in (
        Puzzle(4, 4, {"a1": 1}),  # 4x4 has no open tour
        Puzzle(5, 5, {}, closed=True),  # odd: no closed tour (colour count; no brute force)
        Puzzle(5, 5, {"a1": 1, "b3": 2, "c5": 3, "e4": 4, "d2": 5, "b1": 6, "a3": 25}),
        Puzzle(6, 6, {"b3": 5, "a1": 10, "c2": 21}),  # a1's two neighbours cannot hold 9 and 11
    ):
        answer = solve_puzzle(puzzle)
        assert answer.status is kg.Status.PROVEN_ABSENT and answer.count == 0
        if puzzle.size <= 25 and not puzzle.closed:
            assert brute_count(puzzle.rows, puzzle.cols, dict(puzzle.clues), puzzle.closed) == 0
        out = answer_dict(answer)
        assert check_answer(out)[0]
        assert check_answer({**out, "status": "found", "count": 1, "exact": True})[0] is False


def test_tampered_certificates_are_rejected() -> None:
    answer = count_solutions(Puzzle(5, 5, {"a1": 1, "b3": 2, "c5": 3}))
    assert answer.count >= 2
    out = answer_dict(answer)
    assert check_answer(out)[0], check_answer(out)
    cert = out["certificate"]
    lemmas = [i for i, line in enumerate(cert["proof"]) if not line.startswith("d")]
    cut = {**cert, "proof": [cert["proof"][i] for i in lemmas[-1:]]}  # the empty clause alone
    assert not check_answer({**out, "certificate": cut})[0]
    fewer = {**cert, "solutions": cert["solutions"][1:]}  # one solution not blocked
    assert not check_answer({**out, "certificate": fewer, "count": len(fewer["solutions"])})[0]
    other = {**out, "clues": {"a1": 1}}  # the proof is about another puzzle
    assert not check_answer(other)[0]
    assert not check_answer({**out, "count": out["count"] + 1})[0]
    bad = [list(s) for s in out["squares"]]
    bad[3], bad[4] = bad[4], bad[3]
    assert not check_answer({**out, "squares": bad})[0]


# ------------------------------------------------------------------ bad puzzles


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1 . 1\n. . .\n. . .\n", "given twice"),
        ("1 . .\n. 10 .\n. . .\n", "out of range"),
        (". . .\n. . .\n1 2 .\n", "not a knight's move apart"),
        (". . . . . . . .\n" * 7 + "1 . . . . . . 4\n", "more than 3"),
        (". . . .\n. . . .\n. . . .\n1 5 . .\n", "changes the colour"),
        ("1 . .\n. 2 .\n. . .\n", "no knight's path"),
        (". . 1\n. . .\n. .\n", "ragged rows"),
        ("1 . .\n. x .\n. . .\n", "neither '.' nor a number"),
        ("1 . .\n. -3 .\n. . .\n", "neither '.' nor a number"),
        ("# nothing\n", "no squares"),
        (". " * 11 + "\n" + (". " * 11 + "\n") * 10, "at most 100"),
        ('{"rows": 3, "cols": 4, "clues": {"e1": 1}}', "off the 3x4 board"),
        ('{"rows": 2, "grid": [[1, null], [null, null], [null, null]]}', "but the grid has 3"),
        ('{"rows": 3, "cols": 4, "clues": {"a1": 1.5}}', "not a whole number"),
        ('{"rows": 3, "cols": 4, "clues": [1]}', "not an object"),
        ('{"rows": 3, "cols": 4', "not JSON"),
    ],
)
def test_bad_puzzle_files_give_one_line_and_exit_2(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=words):
        parse_puzzle(text)
    path = tmp_path / "bad.txt"
    path.write_text(text)
    done = subprocess.run([*KG, "puzzle", "solve", str(path)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr


def test_text_and_json_forms_read_back() -> None:
    squares = kg.find_tour(5, 6, closed=True, seed=1).tour.squares()
    clues = {squares[k - 1]: k for k in (1, 12, 30)}
    puzzle = Puzzle(5, 6, clues, closed=True)
    assert parse_puzzle(puzzle_text(puzzle)) == puzzle
    assert parse_puzzle(json.dumps(answer_dict(solve_puzzle(puzzle)))) == puzzle
    rows = [" ".join(str(clues.get((r, c), ".")) for c in range(6)) for r in range(4, -1, -1)]
    assert parse_puzzle("# by hand\nclosed\n" + "\n".join(rows)) == puzzle
    assert parse_puzzle("\n".join(rows)) == Puzzle(5, 6, clues)  # open unless it says closed
    with pytest.raises(InvalidPuzzleError):
        Puzzle(5, 6, {"a1": 1, "a2": 1})


# ------------------------------------------------------------------ make


def test_make_gives_a_unique_checked_puzzle() -> None:
    for m, n, closed in [(6, 6, False), (6, 6, True), (5, 5, False)]:
        answer = make_puzzle(m, n, closed=closed, seed=11)
        assert answer.exact and answer.count == 1 and answer.certificate is not None
        assert_solution(answer.puzzle, answer.tour.squares())
        assert check_answer(answer_dict(answer, command="make"))[0]
        again = count_solutions(answer.puzzle)  # re-solved from scratch
        assert again.count == 1 and again.tour.squares() == answer.tour.squares()
    assert make_puzzle(6, 6, clues=20, seed=2).puzzle.clue_count == 20
    assert (
        make_puzzle(6, 6, seed=2, tries=3).puzzle.clue_count
        <= make_puzzle(6, 6, seed=2).puzzle.clue_count
    )


def test_make_honours_its_timeout() -> None:
    answer = make_puzzle(8, 8, timeout=0)
    assert answer.status is kg.Status.ABORTED and answer.certificate is None
    assert "timeout" in answer.reason


def test_make_is_reproducible_and_refuses_bad_counts() -> None:
    assert make_puzzle(5, 6, seed=4).puzzle == make_puzzle(5, 6, seed=4).puzzle
    with pytest.raises(InvalidPuzzleError):
        make_puzzle(3, 4, clues=13)
    with pytest.raises(InvalidPuzzleError):
        make_puzzle(11, 10)


def test_an_8x8_puzzle_made_and_counted_on_the_command_line(tmp_path: Path) -> None:
    """The acceptance: a generated 8x8 puzzle re-solved by ``puzzle solve --count``: 1."""
    made = tmp_path / "p.txt"
    page = tmp_path / "p.pdf"
    done = subprocess.run(
        [
            *KG,
            "puzzle",
            "make",
            "8",
            "8",
            "--clues",
            "30",  # fewer takes minutes (the fewest reached: benchmarks/bench_puzzles.py)
            "--seed",
            "5",
            "-o",
            str(made),
            "--page",
            str(page),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert page.read_bytes().count(b"/Type /Page ") == 2
    counted = subprocess.run(
        [*KG, "puzzle", "solve", str(made), "--count", "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert counted.returncode == 0, counted.stderr
    out = json.loads(counted.stdout)
    assert out["count"] == 1 and out["exact"] and out["unique"]
    puzzle = parse_puzzle(made.read_text())
    assert_solution(puzzle, [tuple(s) for s in out["squares"]])
    checked = subprocess.run(CHECK, input=counted.stdout, capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.startswith("accepted: puzzle-refutation")


# ------------------------------------------------------------------ command line


def test_command_line_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(". . . .\n. . . .\n. . . .\n1 . . .\n")
    no = subprocess.run(
        [*KG, "puzzle", "solve", str(path), "--format", "json"], capture_output=True, text=True
    )
    assert no.returncode == 1
    checked = subprocess.run(CHECK, input=no.stdout, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout
    path.write_text(". . . . .\n" * 4 + "1 . . . .\n")
    one = subprocess.run(
        [*KG, "puzzle", "solve", str(path), "--format", "json"], capture_output=True, text=True
    )
    assert one.returncode == 0 and json.loads(one.stdout)["reason"] == "stopped at 1 solution"
    checked = subprocess.run(CHECK, input=one.stdout, capture_output=True, text=True)
    # the first solution is both "squares" and "tours"[0]: one solution, not two
    assert checked.returncode == 0 and "solutions" not in checked.stdout, checked.stdout
    many = subprocess.run(
        [*KG, "puzzle", "solve", str(path), "--count", "--limit", "2"],
        capture_output=True,
        text=True,
    )
    assert many.returncode == 0 and many.stdout.startswith("at least 2 solutions")
    gave_up = subprocess.run(
        [*KG, "puzzle", "solve", str(path), "--count", "--timeout", "0"],
        capture_output=True,
        text=True,
    )
    # exit 3 and one line: the search's own answer ("gave up"), or, on a machine so busy
    # that the imports outlast the half second of grace, the command's backstop
    assert gave_up.returncode == 3 and len(gave_up.stderr.splitlines()) == 1
    assert "gave up" in gave_up.stderr or "timeout of 0 s" in gave_up.stderr
    page = tmp_path / "p.jpg"
    wrong = subprocess.run(
        [*KG, "puzzle", "solve", str(path), "--page", str(page)], capture_output=True, text=True
    )
    assert wrong.returncode == 2 and not page.exists()
    svg = tmp_path / "p.svg"
    fine = subprocess.run(
        [*KG, "puzzle", "solve", str(path), "--page", str(svg)], capture_output=True, text=True
    )
    assert fine.returncode == 0 and svg.read_text().count("<svg") == 1
    odd = subprocess.run(
        [*KG, "puzzle", "make", "5", "5", "--clues", "3", "--closed"],
        capture_output=True,
        text=True,
    )
    assert odd.returncode == 1 and odd.stdout.startswith("no puzzle")
    limit = subprocess.run(
        [*KG, "puzzle", "solve", str(path), "--limit", "2"], capture_output=True, text=True
    )
    assert limit.returncode == 2
