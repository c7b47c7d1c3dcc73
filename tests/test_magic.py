"""Magic tours (issue 27, item 2): facts from the literature and brute force, every tour and
sum checked by the tests' own code, certificates through the independent checker (tampered
ones rejected), bad input refused in one line before any work."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from independent import knight_moves, tour_defect

from knightgraph.certcheck import check_answer
from knightgraph.certcheck.magic import _Board, check_magic_certificate, magic_cnf
from knightgraph.cli import main
from knightgraph.magic import count_magic_tours, find_magic_tour, magic_obstruction
from knightgraph.magic.encoding import MagicCNF

# A test fixture, not a search result: William Beverley's semi-magic tour (Philosophical
# Magazine, 1848), the first known, as printed in the literature (ranks 8 down to 1; the
# census of 2003 lists it among the 140).  Checked below by the tests' own code.
BEVERLEY = """
 1 30 47 52  5 28 43 54
48 51  2 29 44 53  6 27
31 46 49  4 25  8 55 42
50  3 32 45 56 41 26  7
33 62 15 20  9 24 39 58
16 19 34 61 40 57 10 23
63 14 17 36 21 12 59 38
18 35 64 13 60 37 22 11
"""


def grid_squares(text: str) -> list[tuple[int, int]]:
    """The squares in the order of their numbers, from a grid printed top rank first."""
    rows = [[int(x) for x in line.split()] for line in text.strip().splitlines()]
    m = len(rows)
    where = {k: (m - 1 - i, c) for i, row in enumerate(rows) for c, k in enumerate(row)}
    return [where[k] for k in sorted(where)]


def line_sums(m: int, n: int, squares: list[tuple[int, int]]) -> dict[str, set[int]]:
    """The sums of the ranks, the files and the two long diagonals, computed here."""
    number = {tuple(s): k for k, s in enumerate(squares, 1)}
    out = {
        "ranks": {sum(number[(r, c)] for c in range(n)) for r in range(m)},
        "files": {sum(number[(r, c)] for r in range(m)) for c in range(n)},
    }
    if m == n:
        out["diagonals"] = {
            sum(number[(i, i)] for i in range(n)),
            sum(number[(i, n - 1 - i)] for i in range(n)),
        }
    return out


def all_paths(m: int, n: int, closed: bool = False) -> list[list[int]]:
    """Every directed knight's path through all squares (closed: ending a move from its
    start), by plain search written here; flat squares r * n + c."""
    size, out, path = m * n, [], []

    def go(square: tuple[int, int]) -> None:
        path.append(square)
        if len(path) == size and (not closed or path[0] in knight_moves(m, n, *square)):
            out.append([r * n + c for r, c in path])
        for t in knight_moves(m, n, *square):
            if t not in path:
                go(t)
        path.pop()

    for r in range(m):
        for c in range(n):
            go((r, c))
    return out


def brute_force_counts(m: int, n: int) -> dict[str, int]:
    """Every directed open tour by plain search, and how many are magic of each kind."""
    size = m * n
    counts = {"ranks": 0, "files": 0, "semi": 0}
    for order in all_paths(m, n):
        sums = line_sums(m, n, [divmod(s, n) for s in order])
        ranks = sums["ranks"] == {Fraction(n * (size + 1), 2)}
        files = sums["files"] == {Fraction(m * (size + 1), 2)}
        counts["ranks"] += ranks
        counts["files"] += files
        counts["semi"] += ranks and files
    return counts


def test_beverley_is_semi_magic_and_not_magic() -> None:
    squares = grid_squares(BEVERLEY)
    assert tour_defect(8, 8, squares) is None
    sums = line_sums(8, 8, squares)
    assert sums["ranks"] == sums["files"] == {260}
    assert sums["diagonals"] != {260}  # the census: no 8 x 8 tour is diagonally magic
    answer = {"rows": 8, "cols": 8, "closed": False, "squares": [list(s) for s in squares]}
    assert check_answer({**answer, "magic": "semi"})[0]
    accepted, why = check_answer({**answer, "magic": "full"})
    assert not accepted and "diagonal" in why


def test_beverley_has_the_form_the_8x8_search_asks_for_first() -> None:
    """Every run of four numbers in one 4 x 4 quarter (and, read backwards, 1 on a1's
    colour): the restriction of find_magic_tour's first search holds a known tour."""
    squares = grid_squares(BEVERLEY)
    for j in range(0, 64, 4):
        assert len({(r // 4, c // 4) for r, c in squares[j : j + 4]}) == 1, j + 1
    last = squares[-1]
    assert (last[0] + last[1]) % 2 == 0  # number 64, which is 1 read backwards


def test_a_changed_tour_is_rejected() -> None:
    squares = [list(s) for s in grid_squares(BEVERLEY)]
    squares[0], squares[2] = squares[2], squares[0]  # 1 and 3 swapped: still sums? no moves
    accepted, why = check_answer({"rows": 8, "cols": 8, "magic": "semi", "squares": squares})
    assert not accepted and "no knight move" in why


@pytest.mark.parametrize("m", range(1, 10))
def test_the_obstructions_are_the_parity_theorems_and_jelliss(m: int) -> None:
    for n in range(1, 10):
        cert = magic_obstruction(m, n, "semi")
        if m * n % 2 == 0 and (m % 2 or n % 2):  # a line's share is not whole
            assert cert is not None and cert.kind == "magic-sums"
        elif m % 2 and n % 2 and m * n > 1:  # alternate lines: odd and even sums
            assert cert is not None and cert.kind == "magic-parity"
        elif m % 4 == 2 and n % 4 == 2:  # Jelliss: both sides 2 more than a multiple of 4
            assert cert is not None and cert.kind == "magic-halves"
        else:
            assert cert is None
            continue
        request = {"rows": m, "cols": n, "magic": "semi"}
        accepted, why = check_magic_certificate(request, cert.to_dict())
        assert accepted, why


def test_forged_arguments_are_rejected() -> None:
    parity = {"kind": "magic-parity", "lines": ["rank 1", "rank 2"]}
    assert not check_magic_certificate({"rows": 8, "cols": 8, "magic": "semi"}, parity)[0]
    assert not check_magic_certificate({"rows": 5, "cols": 5, "magic": "semi"},
                                       {**parity, "lines": ["rank 1", "rank 3"]})[0]  # fmt: skip
    sums = {"kind": "magic-sums", "lines": "files"}
    assert not check_magic_certificate({"rows": 8, "cols": 8, "magic": "semi"}, sums)[0]
    assert not check_magic_certificate({"rows": 3, "cols": 4, "magic": "ranks"}, sums)[0]


@pytest.mark.parametrize(("m", "n", "kind"), [(3, 4, "ranks"), (2, 4, "semi"), (1, 1, "full")])
def test_counts_agree_with_brute_force(m: int, n: int, kind: str) -> None:
    answer = count_magic_tours(m, n, kind=kind)
    expected = 1 if m * n == 1 else brute_force_counts(m, n)[kind]
    assert answer.exact and answer.count == expected
    for tour in answer.tours:
        assert tour_defect(m, n, tour.squares()) is None


def test_no_tour_at_all_is_a_checked_refutation() -> None:
    result = find_magic_tour(4, 4)  # 4 x 4 has no tour (Schwenk; the OEIS: A328816(2) = 0)
    assert result.status.name == "PROVEN_ABSENT"
    cert = result.certificate.to_dict()
    assert cert["kind"] == "magic-refutation" and cert["solutions"] == []
    request = {"rows": 4, "cols": 4, "magic": "semi", "closed": False}
    assert not check_magic_certificate(request, {**cert, "proof": cert["proof"][-1:]})[0]


def test_the_checker_writes_the_same_clauses() -> None:
    for m, n, kind, closed in [(3, 4, "ranks", False), (3, 3, "full", True), (2, 3, "files", 0)]:
        mine = sorted(sorted(c) for c in MagicCNF(m, n, kind, bool(closed)).clauses())
        board = _Board({"rows": m, "cols": n, "magic": kind, "closed": bool(closed)})
        theirs = sorted(sorted(c) for c in magic_cnf(board))
        assert mine == theirs


def test_a_count_with_a_forged_solution_list_is_rejected() -> None:
    answer = count_magic_tours(2, 4, kind="semi")
    cert = answer.certificate.to_dict()
    request = {"rows": 2, "cols": 4, "magic": "semi"}
    assert check_magic_certificate(request, cert)[0]
    assert not check_magic_certificate(request, {**cert, "proof": ["0"]})[0]
    fake = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]]
    accepted, why = check_magic_certificate(request, {**cert, "solutions": [fake]})
    assert not accepted and "no knight move" in why


# ------------------------------------------------------------------ command line
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["tour", "6", "8", "--magic", "full"], "--magic full"),
        (["tour", "8", "8", "--magic", "semi", "--start", "a1"], "--start"),
        (["tour", "8", "8", "--magic", "semi", "--method", "warnsdorff"], "'warnsdorff'"),
        (["tour", "14", "16", "--magic", "semi"], "14x16"),
        (["exists", "8", "8", "--magic", "most"], "'most'"),
        (["tour", "8", "8", "--magic", "semi", "--format", "npy", "-o", "x.npy"], "npy"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], words: str, capsys) -> None:
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    assert code == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1 and words in out.err


def test_exists_prints_a_certificate_the_checker_accepts(capsys) -> None:
    assert main(["exists", "5", "5", "--magic", "full", "--format", "json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["exists"] is False and answer["certificate"]["kind"] == "magic-parity"
    assert check_answer(answer) == (True, check_answer(answer)[1])
    assert check_answer({**answer, "exists": True})[0] is False


def test_tour_prints_the_magic_tour(capsys) -> None:
    assert main(["tour", "1", "1", "--magic", "full", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["squares"] == [[0, 0]] and answer["magic"] == "full"
    assert check_answer(answer)[0]


def test_timeout_gives_up_with_exit_3(capsys) -> None:
    assert main(["tour", "8", "8", "--magic", "semi", "--timeout", "0"]) == 3
    assert main(["exists", "6", "8", "--magic", "semi", "--timeout", "0.2"]) == 3
    assert "unknown" in capsys.readouterr().out
    assert main(["exists", "6", "6", "--magic", "semi", "--timeout", "0.2"]) == 1  # proven


@pytest.mark.parametrize(
    ("m", "n", "kind"), [(6, 6, "semi"), (6, 10, "semi"), (10, 10, "full"), (14, 14, "full")]
)
def test_no_semi_magic_tour_when_both_sides_are_2_mod_4(m, n, kind, capsys) -> None:
    """Jelliss (2003): no semi-magic tour on (4h + 2) x (4k + 2) boards.  The argument
    (magic-halves) re-checked by the independent checker from the JSON alone, and refused
    on boards and kinds it does not cover."""
    command = "tour" if m > 10 else "exists"
    assert main([command, str(m), str(n), "--magic", kind, "--format", "json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["certificate"]["kind"] == "magic-halves"
    accepted, why = check_answer({**answer, "exists": False})
    assert accepted and "odd" in why
    cert = answer["certificate"]
    for bad in ({"rows": 4, "cols": 6, "magic": "semi"}, {"rows": 6, "cols": 6, "magic": "files"},
                {"rows": 8, "cols": 8, "magic": "full"}):  # fmt: skip
        assert not check_magic_certificate(bad, cert)[0]


def test_the_exhaustive_search_agrees_on_6x6() -> None:
    """The search of magic.enumeration, run without the argument, finds no semi-magic
    numbering of 6 x 6 either (43 million paths placed, compiled)."""
    from knightgraph.magic import enumeration

    run = enumeration._compiled()
    if run is None:
        pytest.skip("minutes in Python")
    search = enumeration.MagicSearch(6, 6, "semi")
    for first in range(36):
        search.start(first)
        status = enumeration.DFS_RUNNING if search.open_after(first, 1) else None
        while status == enumeration.DFS_RUNNING:
            status = run(search, False, 1 << 22)
        assert status in (None, enumeration.DFS_EXHAUSTED), f"a numbering from square {first}"
        search.place(first, 1, -1)


# ------------------------------------------------------------------ slow: the literature
@pytest.mark.slow
def test_three_by_eight_rank_magic_tours_agree_with_brute_force() -> None:
    answer = count_magic_tours(3, 8, kind="ranks")
    assert answer.exact and answer.count == brute_force_counts(3, 8)["ranks"] == 32


@pytest.mark.slow
def test_a328816_four_by_six() -> None:
    """OEIS A328816 (tours of 4 x 2n whose short lines, the files, are magic): a(3) = 0."""
    answer = count_magic_tours(4, 6, kind="files")
    assert answer.exact and answer.count == 0 == brute_force_counts(4, 6)["files"]
