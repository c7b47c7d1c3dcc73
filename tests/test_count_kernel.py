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


# ------------------------------------------------------------------ count --memory
def _cli(capsys, *argv):
    from knightgraph.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_memory_sizes_are_read_in_powers_of_1024():
    from knightgraph.running.resources import parse_bytes

    assert parse_bytes("4G") == 4 * 2**30 == parse_bytes("4GiB") == parse_bytes("4 gb")
    assert parse_bytes("1.5M") == 3 * 2**19 and parse_bytes("123") == 123
    for bad in ("", "G", "4X", "-1G", "0", "1e9", "4 G B"):
        with pytest.raises(ValueError, match="invalid size"):
            parse_bytes(bad)


def test_count_memory_flag_counts_within_it(capsys):
    code, out, _ = _cli(capsys, "count", "6", "8", "--closed", "--memory", "1G")
    assert code == 0 and "55,488,142 undirected" in out


@pytest.mark.parametrize("size", ["lots", "0", "-3G"])
def test_count_memory_flag_refuses_a_bad_size_in_one_line(capsys, size):
    with pytest.raises(SystemExit) as stop:
        _cli(capsys, "count", "6", "8", "--closed", "--memory", size)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "--memory" in err and len(err.strip().splitlines()) == 1


def test_count_memory_below_what_the_program_holds_is_refused(capsys):
    code, out, err = _cli(capsys, "count", "6", "8", "--closed", "--memory", "10M")
    assert code == 2 and out == ""
    assert "--memory 10.0 MiB is less than" in err and len(err.strip().splitlines()) == 1


def test_count_memory_too_small_for_any_split_is_refused_with_the_estimate(capsys):
    code, out, err = _cli(capsys, "count", "8", "8", "--closed", "--memory", "1G")
    assert code == 3 and out == ""
    assert "memory: about 7.4 GiB of tables estimated" in err
    assert "before any work" in err and "7.4 GiB of tables (estimated)" in err


def test_count_memory_splits_into_parts_to_fit(capsys, monkeypatch):
    """6x8 closed is estimated at 44 MiB of tables: a budget leaving about 30 MiB for them
    splits it (the estimate's parts) and still gives A175881's count."""
    from knightgraph.counting.compiled import kernel_overhead
    from knightgraph.running.resources import resident_bytes

    size = resident_bytes() + kernel_overhead() + 30 * 2**20
    code, out, _ = _cli(capsys, "count", "6", "8", "--closed", "--memory", str(size))
    assert code == 0 and "55,488,142 undirected" in out
