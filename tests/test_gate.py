"""The one certificate gate and the requested ends, every combination, deterministically.

Every FOUND tour is checked by ``validate_tour`` and by the independent checker
in ``tests/independent.py``; every PROVEN_ABSENT certificate by the independent
certificate checker; existence itself against plain enumeration (also in
``tests/independent.py``), never against knightgraph's own answers.
"""

from __future__ import annotations

import itertools

import pytest
from independent import tour_defect, tour_exists_by_search

from knightgraph import Board, Certificate, Status, find_tour, validate_tour
from knightgraph.certcheck import check_certificate
from knightgraph.solvers.base import Problem, solver

# Boards small enough to decide every request by plain search (independent code) ...
ENUMERATED = [(3, 4), (4, 5), (3, 7)]
# ... and boards where each kind of request exists for some ends and not for others,
# judged by the evidence alone: a tour the independent checker accepts, or a
# certificate the independent certificate checker accepts.
EVIDENCED = [(4, 4), (5, 5), (6, 6), (5, 6)]


def _requests(m, n):
    """Closed/open x no end / start / end / both, on a few squares of each kind."""
    cells = [(r, c) for r in range(m) for c in range(n)]
    picks = [cells[0], cells[1], cells[n + 2] if m > 1 and n > 2 else cells[-1], cells[-1]]
    picks = list(dict.fromkeys(picks))
    for closed in (False, True):
        yield closed, None, None
        for s in picks:
            yield closed, s, None
            yield closed, None, s
        for s, t in itertools.permutations(picks, 2):
            yield closed, s, t


def _certificate_accepted(result, m, n, closed, start, end):
    board = Board(m, n)
    name = {None: None}
    for sq in (start, end):
        if sq is not None:
            name[sq] = board.name(sq)
    accepted, why = check_certificate(
        result.certificate.to_dict(), m, n, closed=closed, start=name[start], end=name[end]
    )
    return accepted, why


CASES = [(method, board) for method in ("auto", "sat") for board in ENUMERATED + EVIDENCED]
CASES += [("backtrack", board) for board in [*ENUMERATED, (5, 5)]]  # exhaustive: small ones


@pytest.mark.parametrize(("method", "board"), CASES)
def test_every_combination_of_ends(method, board):
    m, n = board
    options = {"prune": True, "order": "warnsdorff"} if method == "backtrack" else {}
    for closed, start, end in _requests(m, n):
        res = find_tour(
            m, n, closed=closed, start=start, end=end, method=method, timeout=60, **options
        )
        request = f"{method} {m}x{n} closed={closed} start={start} end={end}"
        assert res.status is not Status.ABORTED, request
        if res.found:
            squares = res.tour.squares()
            validate_tour(squares, m, n, closed=closed)
            assert tour_defect(m, n, squares, closed, start, end) is None, request
        else:
            accepted, why = _certificate_accepted(res, m, n, closed, start, end)
            assert accepted, (request, why)
        if (m, n) in ENUMERATED:
            assert res.found == tour_exists_by_search(m, n, closed, start, end), request


def test_the_boards_cover_both_answers_for_every_kind_of_request():
    """Each of the eight kinds of request is met both where a tour exists and where not."""
    seen = set()
    for m, n in EVIDENCED:
        for closed, start, end in _requests(m, n):
            found = find_tour(m, n, closed=closed, start=start, end=end).found
            seen.add((closed, start is not None, end is not None, found))
    for kind in itertools.product((False, True), repeat=3):
        assert {(*kind, True), (*kind, False)} <= seen, kind


@pytest.mark.parametrize(
    ("closed", "start", "end"),
    [
        (True, None, "h8"),
        (True, "a1", None),
        (True, "a1", "b3"),
        (True, None, "a1"),
        (False, None, "h8"),
        (False, "d4", "e4"),
        (False, None, None),
    ],
)
def test_closed_and_open_ends_on_8x8(closed, start, end):
    board = Board(8, 8)
    for method in ("auto", "sat"):
        res = find_tour(8, 8, closed=closed, start=start, end=end, method=method, timeout=60)
        assert res.found, (method, res.reason)
        names = res.tour.algebraic()
        assert start is None or names[0] == start
        assert end is None or names[-1] == end
        s = None if start is None else board.parse_square(start)
        t = None if end is None else board.parse_square(end)
        assert tour_defect(8, 8, res.tour.squares(), closed, s, t) is None


def test_closed_tour_with_ends_not_a_move_apart_is_refused_with_a_certificate():
    res = find_tour(8, 8, closed=True, start="a1", end="h8")
    assert res.status is Status.PROVEN_ABSENT
    accepted, _ = check_certificate(
        res.certificate.to_dict(), 8, 8, closed=True, start="a1", end="h8"
    )
    assert accepted


def test_oriented_turns_cycles_and_paths():
    board = Board(5, 6)
    cycle = [7, 0, 13, 2]
    assert Problem.make(board, True, end="a1").oriented(cycle) == [13, 2, 7, 0]
    assert Problem.make(board, True, start="a1").oriented(cycle) == [0, 13, 2, 7]
    assert Problem.make(board, True, start="a1", end="b3").oriented(cycle) == [0, 7, 2, 13]
    assert Problem.make(board, False, start="c1").oriented([0, 13, 2]) == [2, 13, 0]
    assert Problem.make(board, False).oriented([0, 13, 2]) == [0, 13, 2]


def test_exhaustive_search_is_recertified_by_a_checkable_refutation():
    """The case of the issue: an exhaustive search's "no" reaches the user only re-proved."""
    removed = ["x1", "d2", "n2", "j3", "s3", "x3"]
    res = find_tour(3, 24, closed=True, removed=removed, method="backtrack", prune=True)
    assert res.status is Status.PROVEN_ABSENT
    assert res.certificate.kind == "sat-refutation"
    accepted, why = check_certificate(
        res.certificate.to_dict(), 3, 24, closed=True, removed=removed
    )
    assert accepted, why
    res = find_tour(3, 5, start="a1", end="e1", method="backtrack")
    assert res.certificate.kind == "sat-refutation"
    assert res.stats["certified_by"] == "sat"


def test_a_certificate_that_does_not_check_never_leaves_the_solver_layer():
    """A strategy claiming absence with a bogus certificate on a board that has a tour."""

    @solver("test-liar", exact=True)
    def liar(problem, budget, *, seed=None):
        return problem.absent(Certificate("exhaustive-search", "I looked everywhere", {}))

    with pytest.raises(Exception, match="internal error"):
        liar(Board(5, 5), start="a1")

    @solver("test-bad-colours", exact=True)
    def bad_colours(problem, budget, *, seed=None):
        cert = Certificate(
            "colour-count", "wrong counts", {"clause": "closed-needs-balance", "counts": [1, 2]}
        )
        return problem.absent(cert)

    # On a board with no closed tour, the gate replaces the bogus certificate by a checked one.
    res = bad_colours(Board(4, 4), closed=True)
    assert res.status is Status.PROVEN_ABSENT
    assert check_certificate(res.certificate.to_dict(), 4, 4, closed=True)[0]
    # With no time left for a checkable one, the answer is ABORTED, never an unchecked "no".
    res = bad_colours(Board(4, 4), closed=True, timeout=0)
    assert res.status is Status.ABORTED
    assert "cannot be re-checked" in res.reason


def test_find_tour_rejects_a_non_bool_closed():
    from knightgraph import KnightGraphError

    with pytest.raises(KnightGraphError, match="'yes'"):
        find_tour(8, 8, closed="yes")
