"""Open tours between prescribed ends on boards with both sides >= 6 (issue 14, part A).

The facts checked come from the literature, not from knightgraph: Conrad,
Hindrichs, Morsy and Wegener (1994) prove that on n x n, n >= 6, an open tour
from s to t exists exactly when the colour condition holds (s and t of
different colours when n is even; both of the corner colour when n is odd).
Every tour is checked by ``validate_tour`` and by a checker written here
without knightgraph (numpy only, for the large boards) or by
``tests/independent.py``; every "no" by the independent certificate checker.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest

import knightgraph as kg
from knightgraph.certcheck import check_certificate
from knightgraph.solvers.corridor import st_path
from tests.independent import tour_defect

SIZES = range(6, 13)


def colour_valid(m: int, n: int, s: tuple[int, int], t: tuple[int, int]) -> bool:
    """The colour condition (Conrad et al. 1994), written out here."""
    if s == t:
        return False
    if m % 2 and n % 2:
        return (s[0] + s[1]) % 2 == 0 and (t[0] + t[1]) % 2 == 0
    return (s[0] + s[1]) % 2 != (t[0] + t[1]) % 2


def order_defect(
    m: int, n: int, order: object, s: tuple[int, int], t: tuple[int, int]
) -> str | None:
    """None if the flat indices in ``order`` are an open tour of m x n from s to t
    (numpy only, no knightgraph)."""
    seq = np.asarray(order, dtype=np.int64)
    if seq.shape != (m * n,):
        return f"{seq.shape} squares"
    if not np.array_equal(np.sort(seq), np.arange(m * n)):
        return "not every square exactly once"
    r, c = np.divmod(seq, n)
    dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
    if not np.all(((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))):
        return "a step is not a knight's move"
    if (int(r[0]), int(c[0])) != s or (int(r[-1]), int(c[-1])) != t:
        return "wrong ends"
    return None


def check_found(res: kg.SearchResult, m: int, n: int, s: tuple[int, int], t: tuple[int, int]):
    assert res.status is kg.Status.FOUND, res.reason
    squares = res.tour.squares()
    kg.validate_tour(squares, m, n)
    if m * n <= 400:
        assert tour_defect(m, n, squares, start=s, end=t) is None
    assert order_defect(m, n, res.tour.order, s, t) is None


def all_pairs(m: int, n: int):
    cells = [(r, c) for r in range(m) for c in range(n)]
    return [(s, t) for s in cells for t in cells if colour_valid(m, n, s, t)]


# ------------------------------------------------------------------ default suite
@pytest.mark.parametrize("size", SIZES)
def test_a_subsample_of_all_pairs_on_small_square_boards(size):
    pairs = all_pairs(size, size)
    half = (size * size + 1) // 2  # squares of the corner colour
    assert len(pairs) == (half * (half - 1) if size % 2 else 2 * half * half)
    for s, t in pairs[:: max(1, len(pairs) // 40)]:
        check_found(kg.find_tour(size, size, start=s, end=t), size, size, s, t)


@pytest.mark.parametrize(
    ("m", "n", "s", "t"),
    [
        (40, 40, (0, 0), (0, 1)),  # s and t in one corner block
        (40, 40, (0, 0), (39, 38)),  # opposite corners
        (41, 43, (0, 0), (40, 42)),  # odd x odd: corner colour
        (41, 43, (20, 20), (21, 21)),
        (6, 300, (0, 0), (5, 298)),  # six ranks, long
        (301, 6, (150, 2), (149, 4)),
        (35, 50, (17, 9), (3, 44)),  # the corridor turns
        (50, 35, (44, 33), (2, 2)),
        (23, 8, (19, 5), (12, 1)),
        (41, 58, (4, 49), (32, 56)),
        (101, 99, (100, 98), (0, 0)),
        (12, 13, (11, 12), (0, 0)),
    ],
)
def test_divide_between_two_squares(m, n, s, t):
    assert colour_valid(m, n, s, t)
    for method in ("divide", "auto"):
        res = kg.find_tour(m, n, start=s, end=t, method=method)
        check_found(res, m, n, s, t)
        assert res.method in ("divide", "auto")


def test_the_construction_directly_on_odd_and_even_boards():
    rng = random.Random(14)
    for _ in range(60):
        m, n = rng.randint(6, 45), rng.randint(6, 45)
        while True:
            s = (rng.randrange(m), rng.randrange(n))
            t = (rng.randrange(m), rng.randrange(n))
            if colour_valid(m, n, s, t):
                break
        order = st_path(m, n, s, t)
        assert order is not None, (m, n, s, t)
        assert order_defect(m, n, order, s, t) is None


@pytest.mark.parametrize(
    ("m", "n", "s", "t"),
    [(8, 8, "a1", "h8"), (9, 9, "b1", "a3"), (1000, 1000, "a1", "c3"), (7, 12, "a1", "a3")],
)
def test_colour_invalid_pairs_are_proven_absent(m, n, s, t):
    for method in ("auto", "divide"):
        res = kg.find_tour(m, n, start=s, end=t, method=method)
        assert res.status is kg.Status.PROVEN_ABSENT
        assert res.certificate.kind == "colour-count"
        ok, why = check_certificate(res.certificate.to_dict(), m, n, start=s, end=t)
        assert ok, why
    assert kg.tour_exists(m, n, start=s, end=t).status is kg.Status.PROVEN_ABSENT


def test_an_end_alone_is_honoured_by_divide():
    res = kg.find_tour(30, 31, end="c7", method="divide")
    assert res.status is kg.Status.FOUND
    assert res.tour.algebraic()[-1] == "c7"
    kg.validate_tour(res.tour.squares(), 30, 31)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "knightgraph", *args], capture_output=True, text=True, timeout=300
    )


def test_cli_tour_and_exists_between_two_squares(tmp_path):
    for method in ("auto", "divide"):
        out = run_cli(
            "tour",
            "20",
            "25",
            "--start",
            "c3",
            "--end",
            "y20",
            "--method",
            method,
            "--format",
            "json",
        )
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        squares = [tuple(x) for x in data["squares"]]
        assert tour_defect(20, 25, squares, start=(2, 2), end=(19, 24)) is None
    out = run_cli("exists", "20", "25", "--start", "c3", "--end", "y20", "--format", "json")
    assert out.returncode == 0 and json.loads(out.stdout)["exists"] is True
    out = run_cli("exists", "20", "25", "--start", "c3", "--end", "y19", "--format", "json")
    assert out.returncode == 1
    cert = json.loads(out.stdout)["certificate"]
    assert check_certificate(cert, 20, 25, start="c3", end="y19")[0]
    out = run_cli("tour", "20", "25", "--start", "c3", "--end", "y19", "-o", str(tmp_path / "x"))
    assert out.returncode == 1 and not (tmp_path / "x").exists()
    out = run_cli("tour", "20", "25", "--start", "c3", "--end", "zz99")
    assert out.returncode == 2 and "zz99" in out.stderr and len(out.stderr.splitlines()) == 1
    out = run_cli("tour", "20", "25", "--start", "c3", "--end", "c3", "--method", "divide")
    assert out.returncode == 2 and "c3" in out.stderr


def test_the_timeout_is_honoured(tmp_path):
    res = kg.find_tour(3000, 3000, start="a1", end="b1", timeout=0)
    assert res.status is kg.Status.ABORTED
    out = run_cli(
        "tour",
        "3000",
        "3000",
        "--start",
        "a1",
        "--end",
        "b1",
        "--timeout",
        "0",
        "-o",
        str(tmp_path / "t.txt"),
    )
    assert out.returncode == 3 and not (tmp_path / "t.txt").exists()


def test_the_walk_in_chunks_reads_the_same_tour(monkeypatch):
    from knightgraph.running.budget import Budget
    from knightgraph.solvers import corridor

    monkeypatch.setattr(corridor, "WALK_CHUNK", 5)
    for m, n, s, t in [(30, 40, (3, 5), (25, 30)), (41, 43, (0, 0), (40, 42))]:
        whole = st_path(m, n, s, t)
        chunked = st_path(m, n, s, t, Budget.make(timeout=600))
        assert np.array_equal(whole, chunked)
        assert order_defect(m, n, chunked, s, t) is None


# ------------------------------------------------------------------ slow
@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_every_pair_on_small_square_boards(size):
    """Conrad et al. (1994): every colour-valid (s, t) on n x n, n >= 6, has a tour."""
    for s, t in all_pairs(size, size):
        check_found(kg.find_tour(size, size, start=s, end=t), size, size, s, t)


@pytest.mark.slow
def test_a_random_sample_on_boards_up_to_2000():
    rng = random.Random(20260514)
    done = 0
    while done < 2000:
        m = round(float(np.exp(rng.uniform(np.log(6), np.log(2000)))))
        n = round(float(np.exp(rng.uniform(np.log(6), np.log(2000)))))
        for _ in range(10):
            s = (rng.randrange(m), rng.randrange(n))
            t = (rng.randrange(m), rng.randrange(n))
            if s == t:
                continue
            res = kg.find_tour(m, n, start=s, end=t)
            if colour_valid(m, n, s, t):
                assert res.status is kg.Status.FOUND, (m, n, s, t, res.reason)
                kg.validate_tour(res.tour, m, n)
                assert order_defect(m, n, res.tour.order, s, t) is None, (m, n, s, t)
                done += 1
            else:
                assert res.status is kg.Status.PROVEN_ABSENT, (m, n, s, t)
                names = kg.Board(m, n)
                ok, why = check_certificate(
                    res.certificate.to_dict(), m, n, start=names.name(s), end=names.name(t)
                )
                assert ok, why
