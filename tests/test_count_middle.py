"""Counts that meet in the middle (issue 26): both halves of a board counted up to a
separator and joined there, in one piece or in parts, against the literature."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knightgraph import Board, count_tours
from knightgraph.counting.checkpoint import Checkpoint, request_of
from knightgraph.counting.compiled import compiled_kernel, kernel_available
from knightgraph.counting.count import count_cycles
from knightgraph.counting.middle import count_middle, eligible, meets_in_the_middle
from knightgraph.running.budget import NO_BUDGET, Budget

needs_kernel = pytest.mark.skipif(not kernel_available(), reason="compiled kernel not built")

# Hamiltonian cycles of the board (closed: undirected closed tours) or of the board plus a
# square joined to all (open: undirected open tours), from the literature:
LITERATURE = [
    (5, 6, False, 8),  # A175855: 5 x 6 closed
    (5, 8, False, 44_202),  # A175855: 5 x 8 closed
    (5, 10, False, 13_311_268),  # A175855: 5 x 10 closed
    (6, 6, False, 9_862),  # A001230: 6 x 6 closed
    (6, 6, True, 6_637_920 // 2),  # A165134: 6 x 6 open, directed / 2
    (6, 7, False, 1_067_638),  # A175881: 6 x 7 closed
    (6, 8, False, 55_488_142),  # A175881: 6 x 8 closed
    (7, 6, False, 1_067_638),  # the same board turned: the lines run the other way
]


def _middle(
    m: int, n: int, virtual: bool, depth: int = 0, stats: dict | None = None, **kw: object
) -> int | None:
    return count_middle(
        compiled_kernel(), Board(m, n), virtual, memory=2**34, budget=NO_BUDGET,
        progress=None, stats={} if stats is None else stats, depth=depth, **kw,
    )  # fmt: skip


@needs_kernel
@pytest.mark.parametrize(("m", "n", "virtual", "expected"), LITERATURE)
def test_the_middle_counts_the_literature(m, n, virtual, expected):
    assert _middle(m, n, virtual) == expected


@needs_kernel
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_parts_add_up_to_the_literature(depth):
    """6, 45 and 378 parts (the degrees of the first squares of the separator's line and
    of their mirror images fixed)."""
    assert _middle(6, 6, False, depth) == 9_862
    if depth < 3:
        assert _middle(5, 8, False, depth) == 44_202
        assert _middle(7, 6, False, depth) == 1_067_638  # 7 rows: a square its own image


@needs_kernel
def test_a_count_too_small_or_with_fixed_ends_runs_in_one_program():
    assert meets_in_the_middle(Board(8, 8), True)
    assert not meets_in_the_middle(Board(6, 8), True)  # small: as before
    assert not eligible(Board(8, 8, removed=["a1"]))
    assert not eligible(Board(8, 8, leaper=(1, 3)))
    result = count_tours(5, 5, start="a1")
    assert "middle" not in result.stats


@needs_kernel
def test_count_tours_meets_in_the_middle_on_7x8_closed():
    """A193054: 7 x 8 closed, 34,524,432,316 undirected."""
    result = count_tours(7, 8, closed=True)
    assert result.undirected == 34_524_432_316
    assert result.stats["middle"]["pairs"] > 0


@needs_kernel
def test_count_cycles_chooses_the_middle_only_when_asked():
    stats: dict[str, object] = {}
    assert count_cycles(Board(6, 6), virtual=False, stats=stats) == 9_862
    assert "middle" not in stats
    assert count_cycles(Board(6, 6), virtual=False, stats=stats, middle=2) == 9_862
    assert "middle" in stats


@needs_kernel
def test_a_checkpoint_keeps_the_parts_and_a_rerun_adds_only_the_rest(tmp_path):
    path = str(tmp_path / "c.json")
    request = request_of(Board(6, 6), False, None, None, "oeis")
    stats: dict[str, object] = {}
    first = _middle(6, 6, False, 1, stats, checkpoint=Checkpoint(path, request))
    assert first == 9_862
    data = json.loads(Path(path).read_text())
    done = data["counts"]["cycles"]["done"]
    assert data["counts"]["cycles"]["split"]["engine"] == "middle" and len(done) == 6
    # a count killed after four parts: keep four of them, with a digest that matches
    from knightgraph.counting.checkpoint import digest

    data["counts"]["cycles"]["done"] = {k: done[k] for k in sorted(done)[:4]}
    data["digest"] = digest(data)
    Path(path).write_text(json.dumps(data))
    again: dict[str, object] = {}
    total = _middle(6, 6, False, 1, again, checkpoint=Checkpoint(path, request))
    assert total == 9_862 and again["middle_parts"]["resumed"] == 4


@needs_kernel
def test_a_damaged_checkpoint_of_the_middle_is_refused(tmp_path):
    from knightgraph.exceptions import InvalidOptionError

    path = str(tmp_path / "c.json")
    request = request_of(Board(6, 6), False, None, None, "oeis")
    _middle(6, 6, False, 1, checkpoint=Checkpoint(path, request))
    text = Path(path).read_text()
    Path(path).write_text(text.replace('"done":{"0":', '"done":{"0":"1"', 1)[:-10])
    with pytest.raises(InvalidOptionError):
        Checkpoint(path, request)


@needs_kernel
def test_the_join_stops_at_the_timeout():
    from knightgraph.counting.limits import CountAbortedError

    with pytest.raises(CountAbortedError):
        count_middle(
            compiled_kernel(),
            Board(7, 8),
            True,
            memory=2**34,
            budget=Budget(0.05),
            progress=None,
            stats={},
        )


@pytest.mark.slow
@needs_kernel
def test_8x8_closed_in_the_middle():
    """A001230: 13,267,364,410,532 closed tours of 8 x 8 (undirected)."""
    assert count_tours(8, 8, closed=True).undirected == 13_267_364_410_532


@needs_kernel
@pytest.mark.parametrize(("m", "n"), [(6, 8), (7, 8), (8, 6)])
def test_the_parts_are_as_many_as_the_estimate_says(m, n):
    from knightgraph.counting.estimate import middle_parts
    from knightgraph.counting.middle import halves, part_boxes

    made = halves(Board(m, n), True)
    assert made is not None
    for depth in range(4):
        fixed, boxes = part_boxes(made[1], depth)
        assert len(fixed) >= depth
        assert len(boxes) == middle_parts(Board(m, n), depth)
        assert len(set(boxes)) == len(boxes)


@needs_kernel
def test_count_tours_with_a_checkpoint_meets_in_the_middle_in_parts(tmp_path):
    """A165134: 6 x 6 open, 6,637,920 directed; the file's depth is kept on a rerun."""
    path = str(tmp_path / "open.json")
    first = count_tours(6, 6, checkpoint=path)
    assert first.directed == 6_637_920
    split = json.loads(Path(path).read_text())["counts"]["paths"]["split"]
    assert split["engine"] == "middle" and split["cut"] == 1 and split["parts"] == 6
    again = count_tours(6, 6, checkpoint=path)
    assert again.directed == 6_637_920 and again.stats["middle_parts"]["resumed"] == 6
    request = request_of(Board(6, 6), False, None, None, "oeis")
    stats: dict[str, object] = {}
    total = count_middle(
        compiled_kernel(), Board(6, 6), True, memory=2**34, budget=NO_BUDGET,
        progress=None, stats=stats, depth=3, checkpoint=Checkpoint(path, request),
    )  # fmt: skip
    assert total == 6_637_920 // 2 and stats["middle_parts"]["parts"] == 6


@needs_kernel
@pytest.mark.parametrize("depth", [0, 1])
def test_a_count_in_the_middle_stops_at_its_memory_limit(depth):
    """The layers a count holds between its programs come out of the tables' budget: a
    small budget stops it, ABORTED, never past it."""
    from knightgraph.counting.limits import CountAbortedError

    with pytest.raises(CountAbortedError, match="memory limit"):
        count_middle(
            compiled_kernel(), Board(7, 8), True, memory=3 * 2**20, budget=NO_BUDGET,
            progress=None, stats={}, depth=depth,
        )  # fmt: skip
