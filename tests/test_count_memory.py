"""Memory estimated before a count (issue 15, build 2): the estimate, the split chosen so
that each part fits, and the refusal (exit 3) when nothing fits.

Counts are checked against the literature (OEIS A175881: 55,488,142 closed tours of 6x8).
"""

from __future__ import annotations

import pytest

from knightgraph import Board, count_tours
from knightgraph.cli import main
from knightgraph.counting import limits as kc_budget
from knightgraph.counting.compiled import kernel_available
from knightgraph.counting.estimate import (
    MAX_MEMORY_PARTS,
    estimate_count_memory,
    fit_memory,
    part_fraction,
    parts_to_fit,
)

needs_kernel = pytest.mark.skipif(not kernel_available(), reason="compiled kernel not built")


@needs_kernel
@pytest.mark.parametrize(
    ("m", "n", "closed"), [(5, 8, True), (6, 6, True), (6, 8, True), (5, 6, False)]
)
def test_the_estimate_covers_the_tables_measured(m, n, closed):
    """On boards of up to 7 rows the model is an upper estimate of the kernel's tables."""
    result = count_tours(m, n, closed=closed)
    assert result.stats["memory_estimate"] == estimate_count_memory(Board(m, n), closed=closed)
    assert result.stats["peak_bytes"] <= result.stats["memory_estimate"]


def test_no_model_for_other_leapers_or_removed_squares():
    assert estimate_count_memory(Board(6, 6, leaper=(1, 3)), closed=True) is None
    assert estimate_count_memory(Board(6, 6, removed=["a1"]), closed=False) is None
    assert fit_memory(Board(6, 6, leaper=(1, 3)), closed=True, budget=1).parts == 1


def test_parts_grow_as_the_budget_shrinks():
    assert part_fraction(1) == 1.0 and part_fraction(2) < 1.0
    assert parts_to_fit(100, 100) == 1
    assert parts_to_fit(101, 100) == 2
    assert parts_to_fit(int(100 / part_fraction(MAX_MEMORY_PARTS)) + 1, 100) is None


@needs_kernel
def test_8x8_is_refused_before_any_work_when_it_cannot_fit():
    result = count_tours(8, 8, closed=True, memory=2**30)
    assert result.aborted and result.directed is None
    assert "memory limit of 1,073,741,824 bytes before any work" in result.reason
    assert "GiB of tables (estimated)" in result.reason
    done = result.stats["done"]
    assert done["phase"] == "estimate" and done["step"] == 0 and done["engine"] == "c"
    assert done["estimate"] == estimate_count_memory(Board(8, 8), closed=True) > 2**30


@needs_kernel
def test_a_count_too_large_for_its_budget_is_split_to_fit():
    """6x8 closed estimated just over the budget: two parts, the exact count (A175881)."""
    estimate = estimate_count_memory(Board(6, 8), closed=True)
    assert estimate is not None
    budget = int(estimate * 0.95)
    result = count_tours(6, 8, closed=True, memory=budget)
    assert result.undirected == 55_488_142
    assert result.stats["memory_parts"] == 2 and result.stats["split"]["parts"] == 2


@needs_kernel
def test_cli_prints_the_estimate_and_exits_3_when_refused(monkeypatch, capsys):
    monkeypatch.setattr(kc_budget, "available_memory", lambda: 2**30)
    assert main(["count", "8", "8", "--closed"]) == 3
    err = capsys.readouterr().err
    assert "memory: about" in err and "too large, refused" in err
    assert "before any work" in err


@needs_kernel
def test_cli_says_nothing_for_a_small_count(capsys):
    assert main(["count", "6", "6", "--closed"]) == 0
    assert "memory:" not in capsys.readouterr().err


def test_a_count_in_the_middle_starts_at_45_parts_and_splits_again_where_it_must():
    """8 x 8 open in 20 GiB: only 378 parts are estimated to fit, so it starts at 45 and
    splits again the parts that stop at their limit; in 15 GiB nothing is, refused."""
    from knightgraph.counting.estimate import MIDDLE_AGAIN, memory_note

    fit = fit_memory(Board(8, 8), closed=False, budget=20 * 2**30, middle=True)
    assert (fit.parts, fit.depth, fit.again) == (1, MIDDLE_AGAIN, True)
    note = memory_note(Board(8, 8), closed=False, memory=20 * 2**30, middle=True)
    assert note is not None and note.endswith("in 45 parts, split again where one does not fit")
    refused = fit_memory(Board(8, 8), closed=False, budget=15 * 2**30, middle=True)
    assert refused.parts is None and "in the middle in 378 parts" in refused.reason
    closed = fit_memory(Board(8, 8), closed=True, budget=4 * 2**30, middle=True)
    assert (closed.depth, closed.again) == (1, False)
