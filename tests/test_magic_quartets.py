"""The quartet forms of magic tours (runs of four across 4 x 4 blocks): their paths counted
by the tests' own search, Beverley's 1848 tour of those forms and a model of the CNF, every
tour the form gives checked by the tests' own code, the 12 x 12 semi-magic tour found and
checked (the magic one, which exists (Kumar, 2003), an expected failure until the search
finds it), and the refusals and the timeout of the boards past 100 squares."""

from __future__ import annotations

import json
import os
import time

import pytest
from independent import knight_moves, tour_defect
from test_magic import BEVERLEY, grid_squares, line_sums

from knightgraph.certcheck import check_answer
from knightgraph.cli import main
from knightgraph.magic import find_magic_tour
from knightgraph.magic.quartets import PATHS, QuartetCNF, partitions
from knightgraph.magic.solving import search_refusal


def transversal_paths() -> set[tuple[tuple[int, int], ...]]:
    """Every knight's path of four squares of the 4 x 4 board, one in each rank and file."""
    out = set()

    def grow(path: list[tuple[int, int]]) -> None:
        if len(path) == 4:
            if len({r for r, _ in path}) == len({c for _, c in path}) == 4:
                out.add(tuple(path))
            return
        for t in knight_moves(4, 4, *path[-1]):
            if t not in path:
                grow([*path, t])

    for r in range(4):
        for c in range(4):
            grow([(r, c)])
    return out


def runs_of_quartet_form(squares: list[tuple[int, int]]) -> bool:
    """Each run 4j+1 .. 4j+4 inside one 4 x 4 block, in distinct ranks and files of it."""
    for j in range(0, len(squares), 4):
        run = squares[j : j + 4]
        if len({(r // 4, c // 4) for r, c in run}) != 1:
            return False
        if len({r for r, _ in run}) != 4 or len({c for _, c in run}) != 4:
            return False
    return True


def blocks_semi_magic(squares: list[tuple[int, int]], n: int) -> bool:
    """Every rank and file of every 4 x 4 block sums alike (the nested form)."""
    number = {tuple(s): k for k, s in enumerate(squares, 1)}
    m = len(squares) // n
    sums = set()
    for br in range(0, m, 4):
        for bc in range(0, n, 4):
            for i in range(4):
                sums.add(sum(number[(br + i, bc + c)] for c in range(4)))
                sums.add(sum(number[(br + r, bc + i)] for r in range(4)))
    return len(sums) == 1


def solve(cnf: QuartetCNF, assumptions: list[int] = ()) -> list[int] | None:
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=cnf.clauses()) as sat:
        return list(sat.get_model()) if sat.solve(assumptions=list(assumptions)) else None


def test_the_paths_are_the_transversal_knight_paths() -> None:
    assert set(PATHS) == transversal_paths() and len(PATHS) == 48
    for split in partitions():  # four disjoint sets covering the block, each of a path
        assert len(set().union(*split)) == 16 and all(len(q) == 4 for q in split)
        assert all(any(frozenset(p) == q for p in PATHS) for q in split)


def test_beverley_is_of_quartet_form_and_a_model() -> None:
    """Beverley's semi-magic tour (1848) has the form: the CNF takes it (every run, its
    reading and each square's run given as assumptions) and decodes it back."""
    squares = grid_squares(BEVERLEY)
    assert runs_of_quartet_form(squares) and blocks_semi_magic(squares, 8)
    flat = [r * 8 + c for r, c in squares]
    for nested in (False, True):
        cnf = QuartetCNF(8, 8, "semi", nested=nested)
        assumptions = [cnf.of[s][k // 4] for k, s in enumerate(flat)]
        assumptions += [cnf.at[s][k % 4] for k, s in enumerate(flat)]
        model = solve(cnf, assumptions)
        assert model is not None and cnf.decode(model) == flat
        full = QuartetCNF(8, 8, "full", nested=nested)  # the same variables, first made
        assert solve(full, assumptions) is None  # its diagonals are not 260


def test_every_tour_of_the_form_is_checked_by_our_own_code() -> None:
    """All numberings of 4 x 8 of quartet form whose files sum to 66, by blocking each:
    every one a tour of the form with those sums, none twice."""
    from pysat.solvers import Solver

    cnf = QuartetCNF(4, 8, "files")
    seen = set()
    with Solver(name="cadical195", bootstrap_with=cnf.clauses()) as sat:
        while sat.solve():
            order = cnf.decode(sat.get_model())
            squares = [divmod(s, 8) for s in order]
            assert tour_defect(4, 8, squares) is None and runs_of_quartet_form(squares)
            assert line_sums(4, 8, squares)["files"] == {66}
            assert tuple(order) not in seen
            seen.add(tuple(order))
            sat.add_clause([-cnf.of[s][k // 4] for k, s in enumerate(order)]
                           + [-cnf.at[s][k % 4] for k, s in enumerate(order)])  # fmt: skip
    # A328816(4) = 16 file-magic 4 x 8 tours up to the board's four symmetries, none
    # symmetric: 64 numberings, some of them of the form
    assert 0 < len(seen) <= 64


def test_an_eight_by_eight_semi_magic_tour_of_the_form() -> None:
    result = find_magic_tour(8, 8)
    squares = result.tour.squares()
    assert result.status.name == "FOUND" and tour_defect(8, 8, squares) is None
    assert runs_of_quartet_form(squares) and result.stats["form"].startswith("runs of 4")
    sums = line_sums(8, 8, squares)
    assert sums["ranks"] == sums["files"] == {260}


def test_the_boards_past_100_squares() -> None:
    assert search_refusal(12, 12, "full") is None and search_refusal(16, 12, "semi") is None
    assert "224 squares" in search_refusal(14, 16, "semi")
    assert search_refusal(14, 14, "semi") is None  # magic-halves settles it
    assert "784 squares" in search_refusal(28, 28, "semi")
    assert search_refusal(13, 13, "semi") is None  # the parity argument settles it


@pytest.mark.parametrize(
    "argv",
    [["tour", "14", "16", "--magic", "semi"], ["exists", "10", "12", "--magic", "semi"]],
)
def test_boards_past_the_search_are_refused_in_one_line(argv: list[str], capsys) -> None:
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1 and "squares" in out.err


def test_the_timeout_of_the_12x12_search_is_kept(capsys) -> None:
    began = time.monotonic()
    assert main(["tour", "12", "12", "--magic", "full", "--timeout", "0.5"]) == 3
    assert time.monotonic() - began < 1.5
    assert "stopped at the timeout" in capsys.readouterr().out
    children = [p for p in os.listdir("/proc") if p.isdigit()] if os.path.isdir("/proc") else []
    mine = [p for p in children if _parent(p) == os.getpid()]
    assert not mine  # the search's process is gone


def _parent(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


@pytest.mark.slow
def test_a_semi_magic_12x12_tour(capsys) -> None:
    """Every rank and file of 12 x 12 at 870 (the nested form: each block semi-magic)."""
    assert main(["tour", "12", "12", "--magic", "semi", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    squares = [tuple(s) for s in answer["squares"]]
    assert tour_defect(12, 12, squares) is None and runs_of_quartet_form(squares)
    assert blocks_semi_magic(squares, 12)
    sums = line_sums(12, 12, squares)
    assert sums["ranks"] == sums["files"] == {870}
    assert check_answer(answer)[0]


@pytest.mark.slow
def test_a_magic_12x12_search_answers_unknown_or_a_checked_tour(capsys) -> None:
    """Kumar (2003; Jelliss, Knight's Tour Notes) found the first diagonally magic 12 x 12
    tours: every rank, file and long diagonal at 870.  The search of the quartet forms has
    not found one in the time measured (docs/magic.md, up to 15 minutes): within a short
    timeout it must say "unknown" (exit 3), never "no"; a tour, if one comes, is checked."""
    code = main(["tour", "12", "12", "--magic", "full", "--format", "json", "--timeout", "30"])
    answer = json.loads(capsys.readouterr().out)
    if code == 3:
        assert answer["status"] == "aborted" and answer["squares"] is None
        return
    assert code == 0
    squares = [tuple(s) for s in answer["squares"]]
    assert tour_defect(12, 12, squares) is None and runs_of_quartet_form(squares)
    assert line_sums(12, 12, squares) == {"ranks": {870}, "files": {870}, "diagonals": {870}}
    assert check_answer(answer)[0]
