"""Start and end maps: exact, every cell backed by a verified tour or a certificate."""

from __future__ import annotations

import json

import pytest
from independent import tour_defect, tour_ends

from knightgraph import Board, Status
from knightgraph.cli import main
from knightgraph.explore import end_map, start_map


def _check_evidence(result, m, n, kind, start=None):
    for sq in result.candidates:
        evidence = result.evidence[sq]
        assert evidence.status is not Status.ABORTED
        if result.ok[sq]:
            squares = evidence.tour.squares()
            ends = {"start": sq} if kind == "starts" else {"start": start, "end": sq}
            assert tour_defect(m, n, squares, closed=result.closed, **ends) is None
        else:
            assert evidence.tour is None and evidence.certificate is not None


def test_starts_5x5_is_exactly_the_corner_colour():
    result = start_map(5, 5)
    corner_colour = {(r, c) for r in range(5) for c in range(5) if (r + c) % 2 == 0}
    assert {tuple(int(x) for x in sq) for sq in zip(*result.ok.nonzero(), strict=True)} == (
        corner_colour
    )
    assert len(result.squares()) == 13 and result.failures == 12
    _check_evidence(result, 5, 5, "starts")
    # The counts (A165134's 5x5 table): 304 from a corner, 64 from the centre.
    assert result.counts[0, 0] == result.counts[4, 4] == 304 and result.counts[2, 2] == 64
    assert sum(int(x) for x in result.counts.flat) == 1728


def test_ends_5x5_from_a1_matches_exhaustive_search():
    result = end_map(5, 5, start="a1")
    truth = tour_ends(5, 5, (0, 0))  # plain enumeration of every tour from a1
    marked = {(r, c) for r in range(5) for c in range(5) if result.ok[r, c]}
    assert marked == set(truth)
    assert not result.ok[0, 0] and len(result.candidates) == 24
    for (r, c), k in truth.items():
        assert result.counts[r, c] == k
    _check_evidence(result, 5, 5, "ends", start=(0, 0))


@pytest.mark.parametrize(("m", "n", "start"), [(3, 4, (0, 0)), (4, 5, (1, 2)), (3, 7, (1, 3))])
def test_ends_match_exhaustive_search_on_small_boards(m, n, start):
    for closed in (False, True):
        result = end_map(m, n, start=start, closed=closed)
        truth = tour_ends(m, n, start, closed=closed)
        marked = {(r, c) for r in range(m) for c in range(n) if result.ok[r, c]}
        assert marked == set(truth)
        _check_evidence(result, m, n, "ends", start=start)


def test_starts_closed_and_removed_squares():
    assert start_map(5, 6, closed=True).ok.all()
    none = start_map(5, 5, closed=True)
    assert not none.ok.any() and none.failures == 25
    _check_evidence(none, 5, 5, "starts")
    board = Board(4, 5, removed=["a1"])
    result = start_map(board)
    assert not result.ok[0, 0] and len(result.candidates) == 19
    for sq in result.candidates:
        assert bool(result.ok[sq]) == bool(tour_ends(4, 5, sq, removed=[(0, 0)]))


def test_maps_without_counts():
    result = start_map(6, 6, counts=False)
    assert result.counts is None and result.ok.all()


def test_starts_and_ends_cli_json(capsys):
    assert main(["starts", "5", "5", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"rows", "cols", "ok", "failures", "seconds"}
    assert (data["rows"], data["cols"], data["failures"]) == (5, 5, 12)
    assert data["ok"][0][0] is True and data["ok"][0][1] is False  # a1, b1
    assert main(["ends", "5", "5", "--start", "a1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    truth = tour_ends(5, 5, (0, 0))
    assert {(r, c) for r in range(5) for c in range(5) if data["ok"][r][c]} == set(truth)
    assert data["failures"] == 12 and data["start"] == "a1"
    with pytest.raises(SystemExit) as exc:
        main(["ends", "5", "5"])  # --start is required
    assert exc.value.code == 2
    capsys.readouterr()
    assert main(["ends", "5", "5", "--start", "q1"]) == 2
    assert main(["starts", "4", "4"]) == 0
    assert "0 of 16 start squares" in capsys.readouterr().out


@pytest.mark.slow
def test_6x6_start_counts_add_up_to_a165134():
    result = start_map(6, 6, counts=True)
    assert result.ok.all()
    assert sum(int(x) for x in result.counts.flat) == 6_637_920


def test_one_evidence_tally_for_every_board_kind():
    """Issue 25: the maps of boards and of graphs once tallied a result carrying both a
    tour and a certificate differently (the graph map by the certificate's kind, the board
    map as a tour); one tally now counts it as a tour on every board kind."""
    import dataclasses

    from knightgraph import find_tour
    from knightgraph.boards.topology import topology_board

    certificate = find_tour(3, 3).certificate
    for board in (Board(3, 4), topology_board(3, 3, wrap="cols")):
        plain = start_map(board, counts=False)
        cell = next(c for c in plain.candidates if plain.ok[c])
        both = dataclasses.replace(plain.evidence[cell], certificate=certificate)
        mixed = dataclasses.replace(plain, evidence={**plain.evidence, cell: both})
        kinds = mixed.to_dict()["evidence"]
        assert kinds == plain.to_dict()["evidence"] and kinds["tour"] >= 1, board
        assert certificate.kind not in kinds, board
