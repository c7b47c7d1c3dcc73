"""Open tours between prescribed ends on thin boards: 3, 4 and 5 ranks (issue 14, part B).

Facts checked come from outside knightgraph's answers: every tour by
``validate_tour`` and the checker of ``tests/independent.py`` (or the numpy
one of ``tests/test_stpath.py``); every "no" by the independent certificate
checker; and the verdicts against an exhaustive search (SAT on the whole
board, a tour or a DRUP-checked refutation) on the boards where it finishes.
The forced-move argument itself is re-derived here by hand for 5 x n (b3 as an
end needs both corners a1 and a5) and 3 x n (c2, by a1 and a3).
"""

from __future__ import annotations

import pytest

import knightgraph as kg
from knightgraph.certcheck import check_certificate
from knightgraph.solvers.strips import strip_path
from tests.independent import tour_defect
from tests.test_stpath import colour_valid, order_defect


def decide(m: int, n: int, s: tuple[int, int], t: tuple[int, int]) -> bool:
    """Answer through the API and check the answer independently; True if a tour exists."""
    board = kg.Board(m, n)
    res = kg.find_tour(m, n, start=s, end=t)
    if res.status is kg.Status.FOUND:
        kg.validate_tour(res.tour.squares(), m, n)
        assert tour_defect(m, n, res.tour.squares(), start=s, end=t) is None
        return True
    assert res.status is kg.Status.PROVEN_ABSENT, (m, n, s, t, res.reason)
    ok, why = check_certificate(
        res.certificate.to_dict(), m, n, start=board.name(s), end=board.name(t)
    )
    assert ok, (m, n, s, t, why)
    return False


def exhaustive(m: int, n: int, s: tuple[int, int], t: tuple[int, int]) -> bool:
    """Whole-board SAT, no construction and no certificate shortcut."""
    res = kg.find_tour(m, n, start=s, end=t, method="sat", shortcuts=False)
    assert res.status is not kg.Status.ABORTED
    return res.status is kg.Status.FOUND


def representatives(m: int, n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Colour-valid unordered pairs, one per class under the board's reflections."""
    seen, out = set(), []
    cells = [(r, c) for r in range(m) for c in range(n)]
    for i, s in enumerate(cells):
        for t in cells[i + 1 :]:
            if not colour_valid(m, n, s, t):
                continue
            images = []
            for fr in (False, True):
                for fc in (False, True):
                    a = (m - 1 - s[0] if fr else s[0], n - 1 - s[1] if fc else s[1])
                    b = (m - 1 - t[0] if fr else t[0], n - 1 - t[1] if fc else t[1])
                    images.append(min((a, b), (b, a)))
            key = min(images)
            if key not in seen:
                seen.add(key)
                out.append((s, t))
    return out


# ------------------------------------------------------------------ default suite
@pytest.mark.parametrize("n", [10, 40, 1001])
def test_b3_is_no_end_on_five_ranks_of_even_length(n):
    """a1 and a5 have two moves each, one of them to b3; b3 as an end may use one."""
    if n % 2:
        n += 1
    board = kg.Board(5, n)
    assert {board.name(x) for x in board.neighbors("a1")} == {"b3", "c2"}
    assert {board.name(x) for x in board.neighbors("a5")} == {"b3", "c4"}
    res = kg.tour_exists(5, n, start="b3", end="h4")
    assert res.status is kg.Status.PROVEN_ABSENT
    assert res.certificate.kind == "forced-moves"
    cert = res.certificate.to_dict()
    assert check_certificate(cert, 5, n, start="b3", end="h4")[0]
    assert not check_certificate(cert, 5, n, start="b3", end="a1")[0]  # a1 may be an end
    assert not check_certificate(cert, 6, n, start="b3", end="h4")[0]
    assert not check_certificate({**cert, "squares": ["h4"]}, 5, n, start="b3", end="h4")[0]


def test_c2_is_no_end_on_three_ranks():
    board = kg.Board(3, 40)
    assert {board.name(x) for x in board.neighbors("a1")} == {"b3", "c2"}
    assert {board.name(x) for x in board.neighbors("a3")} == {"b1", "c2"}
    res = kg.tour_exists(3, 40, start="c2", end="y3")
    assert res.certificate.kind == "forced-moves"
    assert check_certificate(res.certificate.to_dict(), 3, 40, start="c2", end="y3")[0]


@pytest.mark.parametrize(
    ("m", "n", "s", "t"),
    [
        (5, 40, (0, 0), (0, 1)),
        (5, 41, (0, 0), (4, 40)),
        (5, 300, (2, 150), (3, 150)),  # close together in the middle: out and back twice
        (3, 60, (0, 0), (2, 59)),
        (3, 61, (1, 31), (0, 32)),
        (4, 50, (0, 0), (3, 48)),
        (4, 51, (3, 5), (0, 25)),
        (40, 5, (0, 0), (39, 4)),  # the long side along the ranks
        (99, 3, (50, 2), (0, 0)),
    ],
)
def test_thin_boards_between_two_squares(m, n, s, t):
    assert colour_valid(m, n, s, t)
    order = strip_path(m, n, s, t)
    assert order is not None and order_defect(m, n, order, s, t) is None
    for method in ("auto", "divide"):
        res = kg.find_tour(m, n, start=s, end=t, method=method)
        assert res.status is kg.Status.FOUND, res.reason
        kg.validate_tour(res.tour.squares(), m, n)
        assert tour_defect(m, n, res.tour.squares(), start=s, end=t) is None


def test_schwenk_decides_inner_ends_on_four_ranks():
    res = kg.tour_exists(4, 200, start="b2", end="d1")
    assert res.status is kg.Status.PROVEN_ABSENT and res.certificate.kind == "schwenk-4xn"
    assert check_certificate(res.certificate.to_dict(), 4, 200, start="b2", end="d1")[0]


@pytest.mark.parametrize("n", [7, 8, 11])
def test_every_pair_on_five_ranks_agrees_with_sat(n):
    for s, t in representatives(5, n)[::3]:
        assert decide(5, n, s, t) == exhaustive(5, n, s, t), (n, s, t)


# ------------------------------------------------------------------ slow
@pytest.mark.slow
@pytest.mark.parametrize("n", range(5, 41))
def test_every_pair_on_five_ranks_is_decided(n):
    """5 x n, 5 <= n <= 40: every colour-valid pair (one per symmetry class) decided and
    checked; against whole-board SAT up to n = 16."""
    for s, t in representatives(5, n):
        verdict = decide(5, n, s, t)
        if n <= 16:
            assert verdict == exhaustive(5, n, s, t), (n, s, t)


@pytest.mark.slow
def test_a_random_sample_with_sides_from_five_to_2000():
    """2,000 colour-valid pairs on boards with sides from 5 to 2,000 (log-uniform, seeded):
    each a verified tour; the colour-invalid pairs met on the way: checked certificates."""
    import random

    import numpy as np

    rng = random.Random(20261126)
    done = 0
    while done < 2000:
        m = round(float(np.exp(rng.uniform(np.log(5), np.log(2000)))))
        n = round(float(np.exp(rng.uniform(np.log(5), np.log(2000)))))
        s = (rng.randrange(m), rng.randrange(n))
        t = (rng.randrange(m), rng.randrange(n))
        if s == t:
            continue
        board = kg.Board(m, n)
        res = kg.find_tour(m, n, start=s, end=t)
        if res.status is kg.Status.FOUND:
            kg.validate_tour(res.tour, m, n)
            assert order_defect(m, n, res.tour.order, s, t) is None, (m, n, s, t)
            done += 1
            continue
        assert res.status is kg.Status.PROVEN_ABSENT, (m, n, s, t, res.reason)
        assert not colour_valid(m, n, s, t) or min(m, n) == 5, (m, n, s, t)
        ok, why = check_certificate(
            res.certificate.to_dict(), m, n, start=board.name(s), end=board.name(t)
        )
        assert ok, why


def test_maps_sample_cells_on_a_board_too_large_to_fill():
    import json
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "knightgraph", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)

    out = run(
        "ends", "5", "400", "--start", "b3", "--sample", "4", "--seed", "7", "--format", "json"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("rows", "cols", "ok", "failures", "seconds", "closed", "start", "counts"):
        assert key in data
    assert data["seed"] == 7 and len(data["sampled"]) == 4
    board = kg.Board(5, 400)
    cells = [board.parse_square(name) for name in data["sampled"]]
    decided = [(r, c) for r in range(5) for c in range(400) if data["ok"][r][c] is not None]
    assert sorted(decided) == sorted(cells)
    assert not any(data["ok"][r][c] for r, c in cells)  # b3 is never an end on 5 x even
    again = json.loads(
        run(
            "ends", "5", "400", "--start", "b3", "--sample", "4", "--seed", "7", "--format", "json"
        ).stdout
    )
    assert again["sampled"] == data["sampled"]
    text = run("starts", "5", "400", "--sample", "3").stdout
    assert "3 sampled start squares of 5x400 (seed 0):" in text
    bad = run("ends", "5", "400", "--start", "b3", "--sample", "0")
    assert bad.returncode == 2 and "--sample 0" in bad.stderr and len(bad.stderr.splitlines()) == 1
