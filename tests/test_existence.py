"""Existence: the theorems against exhaustive search, and facts from the literature.

The predicates in existence.py state Schwenk's and Conrad et al.'s theorems;
these tests hold them (and our searches) against independent evidence:
exhaustive search on small boards and tour counts from the OEIS.
"""

from __future__ import annotations

import itertools

import pytest
from independent import tour_defect, tour_ends

from knightgraph import (
    Board,
    Status,
    closed_tour_exists,
    color_obstruction,
    find_tour,
    open_tour_exists,
)

EXACT = {"method": "backtrack", "order": "warnsdorff", "prune": True, "memo": True, "restarts": 50}
SMALL = [(m, n) for m in range(1, 7) for n in range(m, 13) if m * n <= 36]


def test_schwenk_clauses():
    no_closed = {(m, n) for m in range(1, 21) for n in range(m, 21) if not closed_tour_exists(m, n)}
    expected = {
        (m, n)
        for m in range(1, 21)
        for n in range(m, 21)
        if (m % 2 and n % 2) or m in (1, 2, 4) or (m == 3 and n in (4, 6, 8))
    }
    assert no_closed == expected
    assert closed_tour_exists(10, 3) and not closed_tour_exists(8, 3)
    assert closed_tour_exists(6, 6).certificate.data == {
        "theorem": "schwenk-1991",
        "clause": "otherwise",
    }


def test_open_tour_clauses():
    yes = {(m, n) for m in range(1, 9) for n in range(m, 9) if open_tour_exists(m, n)}
    assert (1, 1) in yes and (3, 4) in yes and (4, 5) in yes and (5, 5) in yes
    assert not {(1, 2), (2, 2), (2, 8), (3, 3), (3, 5), (3, 6), (4, 4)} & yes
    assert all(open_tour_exists(m, n) for m in range(5, 12) for n in range(m, 12))


@pytest.mark.parametrize(("m", "n"), SMALL)
def test_exhaustive_search_agrees_with_schwenk(m, n):
    res = find_tour(m, n, closed=True, timeout=60, **EXACT)
    assert res.status is not Status.ABORTED
    assert res.found == bool(closed_tour_exists(m, n)), res.reason
    if res.found:
        assert tour_defect(m, n, res.tour.squares(), closed=True) is None


@pytest.mark.parametrize(("m", "n"), SMALL)
def test_exhaustive_search_agrees_with_the_open_tour_theorem(m, n):
    res = find_tour(m, n, timeout=60, **EXACT)
    assert res.status is not Status.ABORTED
    assert res.found == bool(open_tour_exists(m, n)), res.reason
    if res.found:
        assert tour_defect(m, n, res.tour.squares()) is None


def test_one_by_one_convention():
    assert open_tour_exists(1, 1) and not closed_tour_exists(1, 1)
    assert find_tour(1, 1).tour.squares() == [(0, 0)]
    assert find_tour(1, 1, start="a1", end="a1").found
    assert find_tour(1, 1, closed=True).status is Status.PROVEN_ABSENT


def test_colour_conditions():
    assert color_obstruction(Board(6, 6)) is None
    assert color_obstruction(Board(5, 5), closed=True).data == {
        "clause": "closed-needs-balance",
        "counts": [13, 12],
    }
    assert color_obstruction(Board(5, 5), start="a1", end="e5") is None
    assert color_obstruction(Board(5, 5), end="c2").kind == "colour-count"
    assert color_obstruction(Board(6, 6), start="a1", end="f6").data["end_colours"] == [0, 0]
    three_gone = Board(4, 4, removed=["a1", "b1", "c1"])
    assert (
        color_obstruction(three_gone) is None and color_obstruction(three_gone, start="a2") is None
    )
    assert color_obstruction(three_gone, start="b2").data == {
        "clause": "ends-on-larger-class",
        "counts": [6, 7],
        "end_colours": [0],
    }
    assert color_obstruction(Board(4, 4, removed=["a1", "c1"])).reason.startswith("a tour")
    assert color_obstruction(Board(8, 8, leaper=(1, 3)), closed=True) is None  # camels keep colour


# -------------------------------------------------- 5x5 against the OEIS
@pytest.fixture(scope="module")
def ends_5x5():
    """End squares of every directed open tour of 5x5, by start square (independent search).

    Four symmetry classes of starts carry tours (a1, c1, b2, c3); the squares of
    the other colour carry none (b1 and c2 classes), checked directly.
    """
    board = Board(5, 5)
    reps = {(0, 0): None, (0, 2): None, (1, 1): None, (2, 2): None, (0, 1): None, (1, 2): None}
    for rep in reps:
        reps[rep] = tour_ends(5, 5, rep)
    table = {}
    for name, perm in board.symmetries().items():
        del name
        for (r, c), ends in reps.items():
            image = divmod(int(perm[r * 5 + c]), 5)
            table[image] = {divmod(int(perm[er * 5 + ec]), 5): k for (er, ec), k in ends.items()}
    assert len(table) == 25
    return table


def test_5x5_counts_match_oeis(ends_5x5):
    # OEIS A165134: 1,728 directed open tours on 5x5; 304 from each corner, 64 from the centre.
    assert sum(sum(e.values()) for e in ends_5x5.values()) == 1728
    assert sum(ends_5x5[(0, 0)].values()) == 304 and sum(ends_5x5[(2, 2)].values()) == 64


def test_5x5_every_open_tour_has_an_end_in_a_corner(ends_5x5):
    corners = {(0, 0), (0, 4), (4, 0), (4, 4)}
    for start, ends in ends_5x5.items():
        if start not in corners:
            assert set(ends) <= corners


def test_5x5_starts_and_pairs_match_exhaustive_enumeration(ends_5x5):
    board = Board(5, 5)
    for start, ends in ends_5x5.items():
        assert find_tour(board, start=start).found == bool(ends)
    for s, e in itertools.permutations(board.squares(), 2):
        res = find_tour(board, start=s, end=e)
        assert res.found == (e in ends_5x5[s]), (s, e, res.reason)
        if res.found:
            assert tour_defect(5, 5, res.tour.squares(), start=s, end=e) is None


def test_3x4_has_16_directed_open_tours():
    assert sum(sum(tour_ends(3, 4, (r, c)).values()) for r in range(3) for c in range(4)) == 16


@pytest.mark.parametrize(("m", "n", "start"), [(3, 7, (1, 3)), (3, 8, (1, 2)), (3, 8, (1, 5))])
def test_exhaustive_absence_agrees_with_enumeration(m, n, start):
    assert tour_ends(m, n, start) == {}
    res = find_tour(m, n, start=start)
    assert res.status is Status.PROVEN_ABSENT and res.certificate.kind == "sat-refutation"


def test_5x6_some_colour_valid_pairs_have_no_tour():
    board = Board(5, 6)
    absent = []
    for s, e in itertools.combinations(board.squares(), 2):
        if color_obstruction(board, start=s, end=e) is None:
            res = find_tour(board, start=s, end=e)
            assert res.status is not Status.ABORTED
            if not res.found:
                absent.append((s, e))
    assert absent  # exact: e.g. the first one is cross-checked in the slow test below
    kinds = {"sat-refutation", "forced-moves"}  # forced moves: issue 14
    assert all(find_tour(board, start=s, end=e).certificate.kind in kinds for s, e in absent[:3])


@pytest.mark.slow
def test_5x6_pairs_match_exhaustive_enumeration():
    board = Board(5, 6)
    for start in [(0, 0), (1, 1), (2, 2)]:
        ends = tour_ends(5, 6, start)
        for end in board.squares():
            if end != start:
                assert find_tour(board, start=start, end=end).found == (end in ends), (start, end)


def test_n_by_n_colour_rule_decides_prescribed_ends():
    # Conrad et al. (1994): on n x n, n >= 6, a tour joins s and t whenever the colours allow.
    for n in (6, 7):
        board = Board(n, n)
        for s, e in itertools.combinations(board.squares()[::3], 2):
            res = find_tour(board, start=s, end=e)
            assert res.found == (color_obstruction(board, start=s, end=e) is None), (n, s, e)


def test_the_old_colour_spellings_still_work_and_warn():
    """``color`` is the one public spelling; the ``colour`` names stay one release, warning."""
    import knightgraph as kg

    with pytest.warns(DeprecationWarning, match="color_obstruction"):
        old = kg.colour_obstruction(Board(7, 7), closed=True)
    assert old == kg.color_obstruction(Board(7, 7), closed=True)
    assert old.kind == "colour-count"  # the certificate kind is the JSON contract: unchanged
    with pytest.warns(DeprecationWarning, match="alternates_color"):
        assert Board(8, 8).alternates_colour is Board(8, 8).alternates_color is True
