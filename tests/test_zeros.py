"""Quick zeros (issue 15, part 4): counts and maps that are 0 because a cheap certificate
rules every tour out, settled at once and backed by the independent checker."""

from __future__ import annotations

import itertools
import json

import pytest
from independent import tour_ends

from knightgraph import Board, count_tours
from knightgraph.certcheck import check_certificate
from knightgraph.cli import main
from knightgraph.counting.zeros import quick_zero
from knightgraph.explore import end_map, start_map
from knightgraph.tours.results import Status


def _accepted(cert, m, n, *, closed=False, start=None, end=None, leaper=(1, 2)):
    ok, _why = check_certificate(
        cert.to_dict(), m, n, closed=closed, start=start, end=end, leaper=leaper, removed=[]
    )
    return ok


def test_camel_6x6_open_count_is_zero_with_a_checked_certificate():
    # The camel (1,3) leaps keep the colour of a square: its graph is disconnected.
    result = count_tours(6, 6, leaper=(1, 3))
    assert (result.directed, result.undirected, result.status) == (0, 0, Status.PROVEN_ABSENT)
    assert result.certificate is not None
    assert result.certificate.data["clause"] == "disconnected"
    assert _accepted(result.certificate, 6, 6, leaper=(1, 3))
    assert result.stats["quick_zero"] == "degree"
    assert result.to_dict()["certificate"]["kind"] == "degree"


def test_count_cli_answers_zero_with_the_certificate(capsys):
    assert main(["count", "6", "6", "--open", "--leaper", "1,3", "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["directed"] == 0 and out["status"] == "proven_absent"
    assert out["certificate"]["clause"] == "disconnected"
    assert main(["count", "6", "6", "--open", "--leaper", "1,3"]) == 1
    assert "disconnected" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("m", "n", "closed", "kind", "clause"),
    [
        (7, 7, True, "colour-count", None),  # an odd board has no closed tour
        (3, 3, False, "degree", "low-degree"),  # b2 has no move
        (2, 4, True, "degree", "low-degree"),  # a square of degree 1 in a closed tour
        (4, 5, True, "schwenk-4xn", None),  # Schwenk (1991): no closed tour on 4 x n
        (8, 8, False, "degree", "disconnected"),  # with the camel below
    ],
)
def test_literature_zeros_are_quick(m, n, closed, kind, clause):
    leaper = (1, 3) if (m, n) == (8, 8) else (1, 2)
    cert = quick_zero(Board(m, n, leaper=leaper), closed=closed)
    assert cert is not None and cert.kind == kind
    assert clause is None or cert.data.get("clause") == clause
    assert _accepted(cert, m, n, closed=closed, leaper=leaper)
    result = count_tours(m, n, closed=closed, leaper=leaper)
    assert result.directed == 0 and result.certificate == cert


def test_boards_without_a_cheap_argument_are_counted():
    # 3x5 and 4x4 have no open tour (Conrad et al. 1994) but no cheap certificate says so
    for m, n in [(3, 5), (4, 4)]:
        assert quick_zero(Board(m, n)) is None
        result = count_tours(m, n)
        assert result.directed == 0 and result.certificate is None


def test_quick_zero_never_claims_a_zero_that_has_tours():
    """Against an independent exhaustive count (tests/independent.py), on every board up to
    4x5 with the knight and the giraffe-free small leapers, and every fixed start."""
    for m, n in itertools.product(range(1, 5), range(1, 6)):
        if m > n:
            continue
        for leaper, closed in itertools.product([(1, 2), (1, 3), (0, 1)], [False, True]):
            if closed and m * n < 3:
                continue  # convention: a closed tour needs three squares (no 2-cycles)
            board = Board(m, n, leaper=leaper)
            totals = {}
            for r, c in itertools.product(range(m), range(n)):
                totals[(r, c)] = tour_ends(m, n, (r, c), closed=closed, leaper=leaper)
            whole = sum(sum(v.values()) for v in totals.values())
            if quick_zero(board, closed=closed) is not None:
                assert whole == 0, (m, n, leaper, closed)
            for (r, c), ends in totals.items():
                s = r * n + c
                if quick_zero(board, closed=closed, start=s) is not None:
                    assert not ends, (m, n, leaper, closed, (r, c))
                for er, ec in ends:
                    e = er * n + ec
                    if e != s:
                        assert quick_zero(board, closed=closed, start=s, end=e) is None


def test_start_map_of_a_board_without_tours_is_settled_once():
    result = start_map(6, 6, leaper=(1, 3), counts=True)
    assert result.failures == 36 and not result.ok.any()
    certs = {id(r.certificate) for r in result.evidence.values()}
    assert len(certs) == 1  # one certificate for every cell
    for (r, c), res in result.evidence.items():
        assert res.status is Status.PROVEN_ABSENT
        assert _accepted(res.certificate, 6, 6, start=Board(6, 6).name((r, c)), leaper=(1, 3))
        assert result.counts[r, c] == 0


def test_end_map_of_a_board_without_tours_is_settled_once():
    result = end_map(6, 6, start="a1", leaper=(1, 3))
    assert result.failures == 35
    assert {r.certificate.kind for r in result.evidence.values()} == {"degree"}


def test_maps_with_tours_are_not_settled():
    result = start_map(3, 4, counts=True)
    assert result.squares() == ["a1", "d1", "a2", "d2", "a3", "d3"]


def test_starts_cli_is_quick_and_exit_0(capsys):
    argv = ["starts", "6", "6", "--open", "--leaper", "1,3", "--counts", "--format", "json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["failures"] == 36 and out["evidence"] == {"degree": 36}
    assert out["counts"] == [[0] * 6 for _ in range(6)]


def test_symmetric_count_of_a_board_without_tours_is_quick():
    from knightgraph import count_symmetric

    result = count_symmetric(6, 6, leaper=(1, 3))
    assert (result.total, result.classes) == (0, 0) and set(result.fixed.values()) == {0}
    assert "disconnected" in result.reason
    assert main(["count", "6", "6", "--open", "--leaper", "1,3", "--symmetry"]) == 1
