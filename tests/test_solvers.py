"""Solvers: the registry, backtracking (faithful and pruned), Warnsdorff and auto.

Every tour is checked twice: by knightgraph's verifier and by the independent
checker in tests/independent.py.
"""

from __future__ import annotations

import itertools
import json

import pytest
from independent import first_tour, tour_defect

from knightgraph import (
    Board,
    BoardTooLargeError,
    InvalidOptionError,
    InvalidSquareError,
    SearchResult,
    Status,
    available_methods,
    find_tour,
    get_solver,
    tour_exists,
    validate_tour,
)
from knightgraph.solvers import estimate_memory, solver_info
from knightgraph.solvers.backtracking import backtrack
from knightgraph.solvers.moves import parse_moves
from knightgraph.solvers.warnsdorff import RULES, warnsdorff

SEED_000_ORDER = "-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"
SEED_002_ORDER = [(1, 2), (2, 1), (-1, 2), (2, -1), (-2, 1), (-2, -1), (1, -2), (-1, -2)]


def check(result: SearchResult, board: Board, closed=False, start=None, end=None) -> None:
    """The result is a tour answering the request, by both checkers."""
    assert result.status is Status.FOUND, result.reason
    tour = result.tour
    s = None if start is None else board.parse_square(start)
    e = None if end is None else board.parse_square(end)
    validate_tour(tour.squares(), board, closed=closed, start=s, end=e)
    assert (
        tour_defect(board.m, board.n, tour.squares(), closed, s, e, board.leaper, board.removed)
        is None
    )
    assert tour.closed == closed


# ------------------------------------------------------------------ registry
def test_registry():
    assert available_methods()[:3] == ["auto", "backtrack", "warnsdorff"]
    assert solver_info("backtrack").exact and not solver_info("warnsdorff").exact
    assert {"moves", "prune", "order", "memo", "restarts"} <= solver_info("backtrack").options
    with pytest.raises(InvalidOptionError, match="unknown method 'nope'"):
        get_solver("nope")
    with pytest.raises(InvalidOptionError, match="unknown option 'rule'"):
        find_tour(5, 5, method="backtrack", rule="roth")
    with pytest.raises(InvalidOptionError, match="invalid rule"):
        find_tour(5, 5, method="warnsdorff", rule="sideways")
    with pytest.raises(InvalidSquareError, match="same square"):
        find_tour(5, 5, start="a1", end="a1")


def test_memory_is_checked_before_allocating():
    assert estimate_memory(Board(100, 100), "warnsdorff") > 10**6
    with pytest.raises(BoardTooLargeError, match="100000x100000"):
        find_tour(100_000, 100_000)


# ------------------------------------------------------------- backtracking
def test_parse_moves():
    assert parse_moves(SEED_000_ORDER, Board(8, 8))[0] == (-2, 1)
    for bad in [
        "",
        "1,2",
        "1,2;2,1;-1,2;-2,1;-2,-1;-1,-2;1,-2;2,2",
        "a,b",
        SEED_000_ORDER + ";1,2",
    ]:
        with pytest.raises(InvalidOptionError):
            parse_moves(bad, Board(8, 8))


@pytest.mark.parametrize(
    ("m", "n", "placed", "tried"),
    [(6, 6, 5_421, 43_230), (7, 6, 760_580, 6_084_476)],
)
def test_seed_000_backtracking_counts(m, n, placed, tried):
    # Seed 000's table (Java, from a1): 6x6 "Moves" 5,422, "Trials" 43,232; "6x7" (7 ranks,
    # 6 files) 760,581 / 6,084,478.  It counts the start as a move and two more trials.
    res = backtrack(Board(m, n), start="a1", moves=SEED_000_ORDER)
    assert (res.stats["placed"], res.stats["tried"]) == (placed, tried)
    moves = parse_moves(SEED_000_ORDER, Board(m, n))
    assert res.tour.squares() == first_tour(m, n, (0, 0), moves)


def test_seed_002_examples():
    board = Board(5, 5)
    res = backtrack(board, start="a1", end="e5", moves=SEED_002_ORDER, prune=True)
    assert " ".join(res.tour.algebraic()) == (
        "a1 c2 e1 d3 c5 e4 d2 b1 a3 b5 d4 e2 c3 a4 b2 d1 e3 d5 b4 a2 c1 b3 a5 c4 e5"
    )
    assert res.tour.squares() == first_tour(5, 5, (0, 0), SEED_002_ORDER, end=(4, 4))
    none = backtrack(board, start="a1", end="b1", moves=SEED_002_ORDER, prune=True)
    assert none.status is Status.PROVEN_ABSENT


@pytest.mark.parametrize(
    ("m", "n", "start", "end", "closed"),
    [
        (5, 5, (0, 0), None, False),
        (5, 5, (2, 2), None, False),
        (3, 4, (0, 0), None, False),
        (3, 8, (0, 0), (2, 7), False),
        (3, 10, (0, 0), None, True),
        (4, 5, (0, 0), None, False),
        (3, 7, (0, 0), (2, 6), False),
        (5, 5, (0, 0), (4, 4), False),
    ],
)
def test_pruning_and_memo_keep_the_first_tour(m, n, start, end, closed):
    board = Board(m, n)
    moves = list(board.offsets)
    expected = first_tour(m, n, start, moves, end=end, closed=closed)
    plain = backtrack(board, start=start, end=end, closed=closed)
    for options in ({"prune": True}, {"prune": True, "memo": True}, {"memo": True}):
        res = backtrack(board, start=start, end=end, closed=closed, **options)
        assert res.status is plain.status
        if expected is None:
            assert res.status is Status.PROVEN_ABSENT
        else:
            assert res.tour.squares() == expected == plain.tour.squares()
            assert res.stats["placed"] <= plain.stats["placed"]
            check(res, board, closed, start, end)


@pytest.mark.parametrize(
    ("m", "n", "start", "end", "closed"),
    [
        (5, 5, (0, 0), None, False),
        (3, 4, (0, 0), None, False),
        (5, 5, (0, 0), (4, 4), False),
        (3, 10, (0, 0), None, True),
        (4, 5, (3, 4), (0, 0), False),
        (3, 7, (1, 3), None, False),
        (3, 8, (0, 0), (2, 7), False),
    ],
)
def test_oracle_finds_the_first_tour_of_plain_search(m, n, start, end, closed):
    board = Board(m, n)
    expected = first_tour(m, n, start, list(board.offsets), end=end, closed=closed)
    res = backtrack(board, start=start, end=end, closed=closed, oracle=True)
    if expected is None:
        assert res.status is Status.PROVEN_ABSENT
    else:
        assert res.tour.squares() == expected
        assert res.stats["queries"] >= 1


def test_oracle_agrees_with_pruned_search_on_larger_boards():
    for m, n, s, e in [
        (8, 8, "a1", "h7"),
        (7, 9, "c3", "a1"),
        (10, 10, "b2", "j9"),
        (6, 11, "a1", "k2"),
    ]:
        pruned = backtrack(Board(m, n), start=s, end=e, prune=True, memo=True, timeout=60)
        oracle = backtrack(Board(m, n), start=s, end=e, oracle=True)
        assert pruned.status is oracle.status is Status.FOUND
        assert pruned.tour == oracle.tour


def test_closed_tours_honour_a_required_end():
    for options in ({}, {"prune": True}, {"order": "warnsdorff", "prune": True, "memo": True}):
        res = backtrack(Board(3, 12), closed=True, start="a1", end="c2", **options)
        check(res, Board(3, 12), True, "a1", "c2")


def test_two_squares_make_no_closed_tour():
    board = Board(2, 3, removed=["b1", "c1", "a2", "b2"])
    assert backtrack(board, closed=True).status is Status.PROVEN_ABSENT
    assert find_tour(board, closed=True).status is Status.PROVEN_ABSENT
    assert find_tour(board).found


def test_exhaustive_search_and_its_certificate():
    colours = backtrack(Board(7, 7), closed=True, prune=True)  # rule 4, at the root
    assert colours.certificate.kind == "colour-count" and colours.stats["placed"] == 0
    res = backtrack(Board(4, 4), prune=True, order="warnsdorff")
    assert res.status is Status.PROVEN_ABSENT
    # The search's own certificate cannot be re-checked: the gate replaced it by a checked
    # SAT refutation and keeps it beside the answer.
    assert res.certificate.kind == "sat-refutation" and res.stats["certified_by"] == "sat"
    cert = res.stats["unchecked_certificate"]
    assert cert["kind"] == "exhaustive-search" and cert["prune"]
    assert cert["starts"] == ["a1", "b1", "b2"]  # one per symmetry class


def test_budgets_abort():
    res = backtrack(Board(8, 8), start="a1", limit=1000)
    assert res.status is Status.ABORTED and "work limit of 1,000" in res.reason
    res = backtrack(Board(10, 10), start="a1", timeout=0.2)
    assert res.status is Status.ABORTED and "timeout" in res.reason
    res = backtrack(
        Board(20, 20), closed=True, prune=True, order="warnsdorff", restarts=10, limit=50
    )
    assert res.status is Status.ABORTED


def test_restarts_find_tours_where_one_run_struggles():
    board = Board(4, 16)
    res = backtrack(
        board, start="a1", order="warnsdorff", prune=True, memo=True, restarts=64, seed=1
    )
    check(res, board, start="a1")
    assert res.stats["runs"] >= 1
    with pytest.raises(InvalidOptionError):
        backtrack(board, restarts=10)


def test_progress_callback_is_called():
    seen = []
    backtrack(Board(6, 6), start="a1", moves=SEED_000_ORDER, progress=seen.append)
    assert seen and seen[-1]["placed"] > 0


# ---------------------------------------------------------------- Warnsdorff
@pytest.mark.parametrize("rule", RULES)
def test_warnsdorff_rules_with_rotations(rule):
    cases = [(8, 8, False, "a1"), (8, 8, True, "d4"), (20, 20, True, None), (31, 31, False, "a1")]
    if rule != "squirrel":  # defined on square boards only
        cases += [(12, 9, False, None), (31, 29, False, "a1")]
    for m, n, closed, start in cases:
        res = warnsdorff(Board(m, n), closed=closed, start=start, rule=rule, seed=5, repair=True)
        check(res, Board(m, n), closed, start)


@pytest.mark.parametrize("rule", RULES)
def test_plain_rules_find_open_tours(rule):
    for n in (8, 21, 50):
        start = f"a{n}" if rule == "squirrel" else "a1"
        check(warnsdorff(Board(n, n), start=start, rule=rule), Board(n, n), False, start)


def test_squirrel_rule_is_for_square_boards():
    with pytest.raises(InvalidOptionError, match="square knight boards"):
        warnsdorff(Board(8, 9), rule="squirrel")
    # Squirrel and Cull's orders give a tour from the corner for every side 5..73 (74 fails).
    assert all(
        warnsdorff(Board(n, n), start=(n - 1, 0), rule="squirrel").found for n in range(5, 74)
    )
    assert not warnsdorff(Board(74, 74), start=(73, 0), rule="squirrel").found


def test_warnsdorff_is_reproducible_and_never_claims_absence():
    a = warnsdorff(Board(40, 40), closed=True, seed=11)
    b = warnsdorff(Board(40, 40), closed=True, seed=11)
    assert a.tour == b.tour
    res = warnsdorff(Board(4, 4), attempts=3)
    assert res.status is Status.ABORTED and "does not mean none exists" in res.reason
    res = warnsdorff(Board(8, 8), closed=True, start="a1", end="h7")  # a cheap certificate
    assert res.status is Status.PROVEN_ABSENT and res.certificate.kind == "degree"
    with pytest.raises(InvalidOptionError):
        warnsdorff(Board(8, 8), attempts=0)


def test_plain_warnsdorff_follows_the_first_rule():
    res = warnsdorff(Board(8, 8), start="a1", rule="first", repair=False)
    assert res.tour.algebraic()[:4] == ["a1", "b3", "c1", "a2"]


@pytest.mark.parametrize(
    ("m", "n", "start", "end"),
    [
        (30, 30, "a1", "b1"),
        (25, 40, "c3", None),
        (17, 17, "a1", "q17"),
        (6, 40, None, "a1"),
        (60, 7, "c4", "f50"),
    ],
)
def test_warnsdorff_with_prescribed_ends(m, n, start, end):
    board = Board(m, n)
    res = warnsdorff(board, start=start, end=end, seed=2, attempts=40)
    check(res, board, False, start, end)


# ---------------------------------------------------------------------- auto
ACCEPTANCE = [
    (8, 8, True, "d4"),
    (5, 5, False, "c3"),
    (3, 4, False, None),
    (7, 7, False, "a1"),
    (30, 30, True, None),
    (100, 100, True, "b7"),
    (31, 29, False, "a1"),
    (3, 10, True, None),
    (6, 9, True, None),
]


@pytest.mark.parametrize(("m", "n", "closed", "start"), ACCEPTANCE)
def test_auto_acceptance_boards(m, n, closed, start):
    check(find_tour(m, n, closed=closed, start=start), Board(m, n), closed, start)


@pytest.mark.parametrize(
    ("m", "n", "closed", "start", "kind"),
    [
        (4, 4, False, None, "sat-refutation"),
        (5, 5, False, "b1", "colour-count"),
        (3, 8, True, None, "sat-refutation"),
        (7, 7, True, None, "colour-count"),
        (31, 29, True, None, "colour-count"),
        (2, 5, False, None, "degree"),
        (4, 26, False, "f2", "schwenk-4xn"),
        (4, 12, True, None, "schwenk-4xn"),
        (3, 7, False, "d2", "sat-refutation"),
    ],
)
def test_auto_proves_absence(m, n, closed, start, kind):
    res = find_tour(m, n, closed=closed, start=start)
    assert res.status is Status.PROVEN_ABSENT
    assert res.certificate.kind == kind and res.reason.startswith("no ")


def test_auto_on_modified_boards_and_leapers():
    cases = [
        (Board(8, 8, removed=["a1", "h8"]), False),  # equal colours removed: open tours only
        (Board(6, 6, removed=["a1", "b1"]), True),
        (Board(8, 8, leaper=(2, 3)), False),
        (Board(10, 10, leaper=(1, 4)), True),
        (Board(9, 9, removed=["e5"]), True),
    ]
    for board, closed in cases:
        res = find_tour(board, closed=closed)
        if res.found:
            check(res, board, closed)
        else:
            assert res.status is Status.PROVEN_ABSENT, (board, res.reason)
    camel = find_tour(Board(8, 8, leaper=(1, 3)))
    assert camel.status is Status.PROVEN_ABSENT and "disconnected" in camel.reason


def test_auto_random_ends_on_mid_size_boards():
    for m, n in [(9, 11), (12, 12), (16, 7), (40, 33)]:
        board = Board(m, n)
        squares = [(0, 0), (m - 1, n - 1), (m // 2, n // 3), (1, 2), (m - 2, 0)]
        for s, e in itertools.permutations(squares, 2):
            res = find_tour(board, start=s, end=e, timeout=30)
            if res.found:
                check(res, board, False, s, e)
            else:
                assert res.status is Status.PROVEN_ABSENT and res.certificate.kind == "colour-count"


def test_tour_exists_is_a_proof():
    yes = tour_exists(6, 6, closed=True)
    assert yes.found and yes.tour.closed
    no = tour_exists(5, 5, start="b2", end="d4")
    assert no.status is Status.PROVEN_ABSENT
    assert tour_exists(3, 3).status is Status.PROVEN_ABSENT


def test_seeds_make_auto_reproducible():
    assert (
        find_tour(50, 50, closed=True, seed=4).tour == find_tour(50, 50, closed=True, seed=4).tour
    )


@pytest.mark.parametrize(
    ("m", "n", "placed", "tried"),
    [(6, 6, 5_421, 43_230), (7, 6, 760_580, 6_084_476), (8, 8, 3_242_064, 25_936_253)],
)
def test_seed_000_counts_through_the_command_line(capsys, m, n, placed, tried):
    from knightgraph.cli import main

    argv = [
        "tour",
        str(m),
        str(n),
        "--start",
        "a1",
        "--method",
        "backtrack",
        "--moves",
        SEED_000_ORDER,
        "--format",
        "json",
    ]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["stats"]["placed"], data["stats"]["tried"]) == (placed, tried)
    assert tour_defect(m, n, data["squares"], start=(0, 0)) is None


def test_help_shows_the_public_signature_of_every_strategy():
    """help() and the docs show (board, *, closed, start, end, seed, limit, timeout, options)."""
    import inspect

    from knightgraph.solvers import available_methods, get_solver

    for name in available_methods():
        params = inspect.signature(get_solver(name)).parameters
        assert list(params)[:7] == ["board", "closed", "start", "end", "seed", "limit", "timeout"]
        assert "problem" not in params and "budget" not in params
