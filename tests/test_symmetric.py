"""Symmetric tours (issue 27, item 1): facts from the literature and the theorems, every
tour checked by the tests' own few-line checker and symmetry check, every "no" by certcheck.

Sources: Jelliss, *Catalogue of 6x6 closed knight's tours, part 6b* (5 quaternary and 17
binary closed 6 x 6 tours); OEIS A328340 (geometrically distinct symmetric open tours of
4 x (2k - 1): 0, 2, 3, 17, 112, ...; none on 4 x even); Jelliss, *Birotary symmetry*
(quarter-turn closed tours on squares of side 4k + 2); Kraitchik, *Mathematical
Recreations* p. 258 (a tour symmetric about a median needs 4k + 2 cells); OEIS A169768
(geometrically distinct closed 3 x n tours with twofold symmetry) and A169765 (closed 3 x n
tour diagrams symmetric under the left-right reflection), from Knuth's *Long and skinny
knight's tours*.
"""

from __future__ import annotations

import itertools
import json

import pytest
from cli_support import call, one_line
from independent import tour_defect

import knightgraph as kg
from knightgraph import Board
from knightgraph.certcheck import check_answer
from knightgraph.counting.symclasses import count_fixed, symmetry_classes
from knightgraph.proofs.symmetric import symmetric_theorem

IMAGES = {
    "rot180": lambda m, n, r, c: (m - 1 - r, n - 1 - c),
    "rot90": lambda m, n, r, c: (c, n - 1 - r),
    "flip_ranks": lambda m, n, r, c: (m - 1 - r, c),
    "flip_files": lambda m, n, r, c: (r, n - 1 - c),
    "transpose": lambda m, n, r, c: (c, r),
    "antitranspose": lambda m, n, r, c: (n - 1 - c, m - 1 - r),
}


def fixed_by(m, n, squares, closed, element):
    """The tests' own symmetry check: the set of moves maps onto itself."""
    steps = list(itertools.pairwise(squares))
    if closed:
        steps.append((squares[-1], squares[0]))
    moves = {frozenset(map(tuple, s)) for s in steps}
    image = IMAGES[element]
    return {frozenset(image(m, n, *sq) for sq in move) for move in moves} == moves


def checked_tour(m, n, symmetric, closed):
    res = kg.find_tour(m, n, closed=closed, symmetric=symmetric)
    assert res.status is kg.Status.FOUND, res.reason
    squares = res.tour.squares()
    assert tour_defect(m, n, squares, closed=closed) is None
    assert fixed_by(m, n, squares, closed, res.stats["symmetry"])
    return res


def test_6x6_closed_classes_by_symmetry_match_jelliss():
    r = symmetry_classes(6, 6, closed=True)
    assert r.types == {"quaternary": 5, "binary": 17, "asymmetric": 1223}
    assert 5 * 2 + 17 * 4 + 1223 * 8 == r.total == 9862


@pytest.mark.parametrize(("k", "expected"), [(2, 2), (3, 3), (4, 17), (5, 112)])
def test_symmetric_open_4xn_match_oeis_a328340(k, expected):
    r = symmetry_classes(4, 2 * k - 1)
    assert r.types.get("binary", 0) == expected
    assert set(r.types) <= {"binary", "asymmetric"}  # only the half turn (A328340)


A169768 = {10: 4, 12: 0, 14: 24, 16: 24, 18: 276, 20: 176, 22: 2604}
A169765 = {10: 4, 12: 0, 14: 24, 16: 0, 18: 276, 20: 0, 22: 2604}


@pytest.mark.parametrize("n", sorted(A169768))
def test_closed_3xn_twofold_symmetric_classes_match_oeis(n):
    types = symmetry_classes(3, n, closed=True).types
    assert sum(k for name, k in types.items() if name != "asymmetric") == A169768[n]
    assert count_fixed(3, n, symmetric="mirror", closed=True).undirected == A169765[n]


@pytest.mark.parametrize("n", [6, 8, 10])
def test_no_symmetric_open_tour_on_4_by_even(n):
    assert count_fixed(4, n, symmetric="rot180").undirected == 0  # A328340: odd lengths only
    res = kg.tour_exists(4, n, symmetric="rot180")
    assert res.status is kg.Status.PROVEN_ABSENT


SMALL = [(3, 4, False), (3, 10, False), (4, 5, False), (5, 5, False), (5, 6, False)]
SMALL += [(m, n, True) for m, n in [(3, 10), (5, 6), (6, 6), (3, 8), (5, 8)]]


def _theorems_agree(m, n, closed):
    """Wherever a theorem rules a symmetry out, the exact count of tours it fixes is 0."""
    fixed = kg.count_symmetric(m, n, closed=closed).fixed
    for element, k in fixed.items():
        if element != "identity" and symmetric_theorem(Board(m, n), element, closed):
            assert k == 0, (m, n, closed, element)


@pytest.mark.parametrize(("m", "n", "closed"), SMALL)
def test_theorems_agree_with_exhaustive_counts_on_small_boards(m, n, closed):
    _theorems_agree(m, n, closed)


@pytest.mark.slow
@pytest.mark.parametrize(("m", "n", "closed"), [(6, 6, False), (5, 7, False), (6, 7, True)])
def test_theorems_agree_with_exhaustive_counts_slow(m, n, closed):
    _theorems_agree(m, n, closed)


@pytest.mark.parametrize("n", [6, 10, 14])
def test_quarter_turn_closed_tours_on_4k_plus_2(n):
    checked_tour(n, n, "rot90", True)


@pytest.mark.parametrize("n", [4, 8, 12, 16, 100])
def test_no_quarter_turn_closed_tour_on_4k(n):
    res = kg.tour_exists(n, n, closed=True, symmetric="rot90")
    assert res.status is kg.Status.PROVEN_ABSENT
    answer = {"rows": n, "cols": n, "closed": True, "symmetric": "rot90", "exists": False}
    assert check_answer({**answer, "certificate": res.certificate.to_dict()})[0]


@pytest.mark.parametrize(("m", "n"), [(3, 10), (5, 6), (6, 7)])
def test_median_symmetric_closed_tours_need_4k_plus_2_cells(m, n):
    res = checked_tour(m, n, "mirror", True)
    even = m if m % 2 == 0 else n  # Kraitchik: the median across the 4k + 2 side
    assert res.stats["symmetry"] == ("flip_ranks" if even == m else "flip_files")


@pytest.mark.parametrize(("m", "n"), [(6, 6), (8, 8), (6, 8), (5, 8)])
def test_no_mirror_symmetric_closed_tour_when_mn_is_4k(m, n):
    res = kg.tour_exists(m, n, closed=True, symmetric="mirror")
    assert res.status is kg.Status.PROVEN_ABSENT


@pytest.mark.parametrize("n", list(range(6, 60, 2)))
def test_half_turn_closed_tours_on_every_even_square(n):
    checked_tour(n, n, "rot180", True)


@pytest.mark.parametrize("n", list(range(18, 60, 4)))
def test_quarter_turn_construction(n):
    assert checked_tour(n, n, "rot90", True).method == "construction"


@pytest.mark.slow
def test_constructions_up_to_1000():
    for n in [*range(60, 200, 2), 998, 1000]:
        for kind in ("rot180", "rot90") if n % 4 == 2 else ("rot180",):
            checked_tour(n, n, kind, True)


def test_open_half_turn_tour_has_the_centre_in_the_middle():
    squares = checked_tour(5, 5, "rot180", False).tour.squares()
    assert squares[12] == (2, 2)  # the reversal fixes the middle square: the centre


def test_sat_refutation_of_a_symmetric_request_checks():
    res = kg.tour_exists(5, 6, closed=True, symmetric="rot180")  # 0 by the exact count too
    assert kg.count_symmetric(5, 6, closed=True).fixed["rot180"] == 0
    cert = res.certificate.to_dict()
    answer = {"rows": 5, "cols": 6, "closed": True, "symmetric": "rot180", "exists": False}
    assert check_answer({**answer, "certificate": cert}) == (True, res.stats["checked"])
    case = cert["cases"][0]["certificate"]
    forged = {
        **cert,
        "cases": [{"symmetry": "rot180", "certificate": {**case, "symmetry": "flip_files"}}],
    }
    assert not check_answer({**answer, "certificate": forged})[0]
    assert not check_answer({**answer, "rows": 6, "cols": 5, "certificate": cert})[0]


def test_certcheck_rejects_false_claims():
    tour = kg.find_tour(6, 6, closed=True).tour.to_dict()["squares"]
    claim = {"rows": 6, "cols": 6, "closed": True, "symmetric": "rot180", "squares": tour}
    if not fixed_by(6, 6, tour, True, "rot180"):
        assert check_answer(claim)[0] is False
    wrong = {
        "kind": "symmetric",
        "symmetric": "rot90",
        "cases": [{"symmetry": "rot90", "clause": "cycle-quarter-turn"}],
    }  # 6 = 4k + 2: the rule fails
    no = {"rows": 6, "cols": 6, "closed": True, "symmetric": "rot90", "exists": False}
    assert check_answer({**no, "certificate": wrong})[0] is False
    missing = {
        "kind": "symmetric",
        "symmetric": "mirror",
        "cases": [{"symmetry": "flip_ranks", "clause": "cycle-mirror"}],
    }  # three reflections left out
    assert check_answer({**no, "symmetric": "mirror", "certificate": missing})[0] is False


def test_cli_counts_and_answers(capsys):
    code, out, _ = call(capsys, "count", "6", "6", "--closed", "--by-symmetry")
    assert code == 0 and "5 quaternary, 17 binary, 1,223 asymmetric" in out
    code, out, _ = call(capsys, "exists", "8", "8", "--closed", "--symmetric", "rot90",
                        "--format", "json")  # fmt: skip
    assert code == 1 and check_answer(json.loads(out))[0]
    code, out, _ = call(capsys, "tour", "6", "6", "--closed", "--symmetric", "rot90",
                        "--format", "json")  # fmt: skip
    answer = json.loads(out)
    assert code == 0 and answer["symmetric"] == "rot90" and check_answer(answer)[0]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["tour", "6", "6", "--symmetric", "spin"], "spin"),
        (["tour", "6", "8", "--symmetric", "rot90"], "rot90"),
        (["tour", "6", "6", "--symmetric", "rot180", "--start", "a1"], "--start"),
        (["tour", "6", "6", "--symmetric", "rot180", "--method", "warnsdorff"], "warnsdorff"),
        (["count", "6", "6", "--symmetric", "rot180", "--list", "3"], "--list"),
        (["exists", "6", "6", "--symmetric", "rot180", "--wrap", "rows"], "--wrap"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(capsys, args, named):
    code, out, err = call(capsys, *args)
    assert code == 2 and out == "" and named in one_line(err)


def test_the_ring_of_3x3_is_octonary():
    """3 x 3 without its centre has one closed tour, the ring of eight moves, which every
    symmetry of the square maps onto itself."""
    assert symmetry_classes(3, 3, removed=["b2"], closed=True).types == {"octonary": 1}
    res = kg.find_tour(3, 3, removed=["b2"], closed=True, symmetric="rot90")
    squares = res.tour.squares()
    assert tour_defect(3, 3, squares, closed=True, removed=[(1, 1)]) is None
    assert all(fixed_by(3, 3, squares, True, g) for g in IMAGES)


def test_a_closed_symmetric_tour_from_a_given_square():
    for n, kind in ((6, "rot90"), (40, "rot180")):
        res = kg.find_tour(n, n, closed=True, symmetric=kind, start="c4")
        squares = res.tour.squares()
        assert squares[0] == (3, 2) and tour_defect(n, n, squares, closed=True) is None
        assert fixed_by(n, n, squares, True, kind)
