"""The verifier: every defect named, in order, and agreement with an independent checker."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from independent import tour_defect

from knightgraph import Board, InvalidTourError, Tour, find_tour, is_knight_tour, validate_tour

TOUR_5X5 = find_tour(5, 5, start="a1").require_tour().squares()
CLOSED_6X6 = find_tour(6, 6, closed=True).require_tour().squares()


def defect(squares, m=5, n=5, **kwargs):
    with pytest.raises(InvalidTourError) as info:
        validate_tour(squares, m, n, **kwargs)
    return info.value


def test_valid_tours_pass_in_every_form():
    board = Board(5, 5)
    order = np.array([r * 5 + c for r, c in TOUR_5X5])
    for form in (
        TOUR_5X5,
        [board.name(s) for s in TOUR_5X5],
        np.array(TOUR_5X5),
        order,
        Tour(board, order),
        [f"{r},{c}" for r, c in TOUR_5X5],
    ):
        validate_tour(form, 5, 5)
        validate_tour(form, board, start="a1", end=TOUR_5X5[-1])
    validate_tour(Tour(board, order))
    validate_tour(CLOSED_6X6, 6, 6, closed=True)
    assert is_knight_tour(CLOSED_6X6, 6, closed=True)


def test_off_board_square():
    bad = [*TOUR_5X5[:3], (5, 0), *TOUR_5X5[4:]]
    err = defect(bad)
    assert (err.defect, err.step) == ("off-board", 3)
    assert "#4 a6 is off the 5x5 board" in str(err)
    assert defect([(0, 0), (-1, 2)]).defect == "off-board"
    err = defect(np.array([0, 7, 30]))
    assert (err.defect, err.step) == ("off-board", 2) and "index 30" in str(err)


def test_repeated_square_names_both_visits():
    bad = [*TOUR_5X5[:6], TOUR_5X5[4], *TOUR_5X5[7:]]
    err = defect(bad)
    # step 6 is also not a knight's move from step 5 (they are two leaps apart):
    # the earlier kind in the checking order wins, and the step is the same.
    assert err.step == 6
    err = defect([(0, 0), (1, 2), (0, 0), (1, 2)])
    assert (err.defect, err.step) == ("repeated", 2)
    assert str(err) == "square #3 a1 is visited again (first as #1)"


def test_bad_move_is_located():
    bad = list(TOUR_5X5)
    bad[10], bad[11] = bad[11], bad[10]
    err = defect(bad)
    assert err.defect == "bad-move" and err.step == 10
    assert f"#{11} {Board(5, 5).name(bad[10])} is not a knight's move from #10" in str(err)


def test_length_not_closed_and_ends():
    err = defect(TOUR_5X5[:-1])
    assert err.defect == "length" and "never visited" in str(err)
    assert defect([]).defect == "length"
    assert defect(TOUR_5X5, closed=True).defect == "not-closed"
    assert defect(TOUR_5X5, start="c3").defect == "wrong-start"
    assert defect(TOUR_5X5, end="a1").defect == "wrong-end"
    err = defect([*CLOSED_6X6, CLOSED_6X6[0]], 6, 6)  # a knight's move, but back to the start
    assert (err.defect, err.step) == ("repeated", 36)


def test_malformed_items():
    assert defect(["a1", "zz"]).defect == "malformed"
    assert defect([(0, 0), (1, 2, 3)]).defect == "malformed"
    with pytest.raises(InvalidTourError):
        validate_tour(np.zeros((3, 3), dtype=int), 5, 5)


def test_removed_squares_and_leapers():
    ring = ["a1", "c2", "a3", "b1", "c3", "a2", "c1", "b3"]
    validate_tour(ring, 3, 3, closed=True, removed=["b2"])
    assert defect(ring, 3, 3).defect == "length"
    assert defect(["a1", "b2"], 3, 3, removed=["b2"]).defect == "removed"
    assert is_knight_tour(["a1", "e2"], 1, 5, removed=["b1", "c1", "d1"]) is False
    assert is_knight_tour(
        ["a1", "e2"], 2, 5, leaper=(1, 4), removed=["b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2"]
    )


def test_one_square_board():
    validate_tour(["a1"], 1, 1)
    assert not is_knight_tour(["a1"], 1, 1, closed=True)


def test_validate_tour_needs_a_size_unless_given_a_tour():
    with pytest.raises(TypeError):
        validate_tour(TOUR_5X5)


@st.composite
def perturbed_tours(draw):
    m, n = draw(st.sampled_from([(5, 5), (6, 6), (3, 4)]))
    closed = (m, n) == (6, 6) and draw(st.booleans())
    base = {(5, 5): TOUR_5X5, (6, 6): CLOSED_6X6, (3, 4): find_tour(3, 4).require_tour().squares()}
    squares = [tuple(s) for s in base[(m, n)]]
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["swap", "drop", "dup", "off", "reverse", "rotate"]))
        k = draw(st.integers(0, len(squares) - 1)) if squares else 0
        if kind == "swap" and len(squares) > 1:
            j = draw(st.integers(0, len(squares) - 1))
            squares[k], squares[j] = squares[j], squares[k]
        elif kind == "drop" and squares:
            squares.pop(k)
        elif kind == "dup" and squares:
            squares.insert(k, squares[draw(st.integers(0, len(squares) - 1))])
        elif kind == "off" and squares:
            squares[k] = (draw(st.integers(-2, m + 2)), draw(st.integers(-2, n + 2)))
        elif kind == "reverse":
            squares.reverse()
        elif kind == "rotate" and squares:
            squares = squares[k:] + squares[:k]
    return m, n, closed, squares


@given(perturbed_tours())
def test_verifier_agrees_with_independent_checker(case):
    m, n, closed, squares = case
    assert is_knight_tour(squares, m, n, closed=closed) == (
        tour_defect(m, n, squares, closed) is None
    )


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=18))
def test_verifier_agrees_on_random_sequences(squares):
    assert is_knight_tour(squares, 4, 4) == (tour_defect(4, 4, squares) is None)
    assert is_knight_tour(squares, 1, 1) == (tour_defect(1, 1, squares) is None)


def test_large_tour_is_checked_in_linear_time():
    tour = find_tour(300, 300, closed=True, seed=1).require_tour()
    validate_tour(tour.order, 300, 300, closed=True)
    broken = tour.order.copy()
    broken[[1000, 1001]] = broken[[1001, 1000]]
    err = defect(broken, 300, 300)
    assert err.step == 1000 and err.defect == "bad-move"
