"""The compiled counting kernel's tables (issue 26): large tables (filled to 0.78, grown by a
quarter in place, the layer read given back page by page), and steps on two threads.

On the boards counted here no table reaches the real threshold (2^26 entries), so the tests
lower it (``LARGE_ENTRIES``) to run that code; every count is checked against the literature:
OEIS A001230 / A175881 (6 x n closed: 6x6 9,862, 6x7 1,067,638, 6x8 55,488,142), A175855
(5 x 2n closed: 5x8 44,202, 5x10 13,311,268), A070030 (3 x 2n closed: 3x20 1,448,416),
A165134 (open, directed: 5x5 1,728, 6x6 6,637,920).
"""

from __future__ import annotations

import pytest

from knightgraph import count_tours
from knightgraph.counting import compiled
from knightgraph.counting.compiled import kernel_available

pytestmark = pytest.mark.skipif(not kernel_available(), reason="compiled kernel not built")

LITERATURE = [
    (6, 6, True, 9_862),
    (6, 7, True, 1_067_638),
    (6, 8, True, 55_488_142),
    (5, 8, True, 44_202),
    (5, 10, True, 13_311_268),
    (3, 20, True, 1_448_416),
    (5, 5, False, 1_728 // 2),
    (6, 6, False, 6_637_920 // 2),
]
"""(m, n, closed, undirected tours) from the OEIS (open counts there are directed: halved)."""


@pytest.mark.parametrize(("m", "n", "closed", "tours"), LITERATURE)
@pytest.mark.parametrize("large", [1 << 10, 1 << 14])
def test_large_tables_count_the_literature(monkeypatch, m, n, closed, tours, large):
    """Tables past ``large`` entries grow by a quarter in place, filled to 0.78, and each
    step gives back the pages of the layer it has read: the counts are unchanged."""
    monkeypatch.setattr(compiled, "LARGE_ENTRIES", large)
    result = count_tours(m, n, closed=closed)
    assert result.stats["engine"] == "c"
    assert result.undirected == tours


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize(("m", "n", "closed", "tours"), [LITERATURE[2], LITERATURE[7]])
def test_steps_on_several_threads_count_the_literature(monkeypatch, threads, m, n, closed, tours):
    """6x8 closed and 6x6 open have layers of more than 65,536 states: their steps run on
    the threads asked for, filling one table together."""
    monkeypatch.setenv("KNIGHTGRAPH_COUNT_THREADS", str(threads))
    result = count_tours(m, n, closed=closed)
    assert result.stats["threads"] == threads
    assert result.undirected == tours


def test_threads_and_large_tables_together(monkeypatch):
    monkeypatch.setenv("KNIGHTGRAPH_COUNT_THREADS", "2")
    monkeypatch.setattr(compiled, "LARGE_ENTRIES", 1 << 12)
    assert count_tours(6, 8, closed=True).undirected == 55_488_142


def test_large_tables_take_less_memory(monkeypatch):
    """The same count with large tables from 1,024 entries on peaks lower: the layer read is
    packed and given back as it is read, and the tables are fuller."""
    small = count_tours(6, 8, closed=True).stats["peak_bytes"]
    monkeypatch.setattr(compiled, "LARGE_ENTRIES", 1 << 10)
    large = count_tours(6, 8, closed=True).stats["peak_bytes"]
    assert large < small


def test_the_thread_setting_is_read_with_care(monkeypatch):
    for value, expected in [("2", 2), ("1", 1), ("64", 8), ("0", None), ("x", None), ("", None)]:
        monkeypatch.setenv("KNIGHTGRAPH_COUNT_THREADS", value)
        got = compiled.count_threads()
        assert got == expected if expected is not None else 1 <= got <= 8


def test_a_timeout_inside_a_step_of_two_threads_aborts_cleanly(monkeypatch):
    monkeypatch.setenv("KNIGHTGRAPH_COUNT_THREADS", "2")
    result = count_tours(7, 8, closed=True, timeout=0.5)
    assert result.aborted and result.directed is None
    assert "timeout" in result.reason
