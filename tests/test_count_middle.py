"""Counts that meet in the middle (issue 26): both halves of a board counted up to a
separator and joined there, in one piece or in parts, against the literature."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from knightgraph import Board, count_tours
from knightgraph.counting.checkpoint import Checkpoint, request_of
from knightgraph.counting.compiled import compiled_kernel, kernel_available
from knightgraph.counting.count import count_cycles
from knightgraph.counting.middle import count_middle, eligible, meets_in_the_middle
from knightgraph.exceptions import InvalidOptionError
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
    m: int, n: int, virtual: bool, depth: int = 0, stats: dict | None = None, **kw: Any
) -> int | None:
    return count_middle(
        compiled_kernel(), Board(m, n), virtual, memory=kw.pop("memory", 2**34),
        budget=NO_BUDGET, progress=None, stats={} if stats is None else stats, depth=depth,
        **kw,
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


def _degrees(keys, slots):
    """The degrees of the squares in ``slots`` in each of the kernel's state ``keys`` (a slot
    pair's 7-bit code is 11 * first + second value; value 0 is degree 0, 1 degree 2, any
    other a path end, degree 1), decoded here without the kernel."""
    out = []
    for key in keys.tolist():
        codes = [(s, (key >> (7 * (s // 2))) & 127) for s in slots]
        values = [code // 11 if s % 2 == 0 else code % 11 for s, code in codes]
        out.append(tuple(0 if x == 0 else 2 if x == 1 else 1 for x in values))
    return out


@needs_kernel
@pytest.mark.parametrize(("m", "n", "virtual", "depth"), [(6, 6, True, 2), (7, 6, False, 2)])
def test_a_part_holds_its_two_vectors_and_all_their_states(m, n, virtual, depth):
    """A part's right layer is the whole right layer cut to the states whose fixed squares
    have the part's vector or its image: not every vector whose squares take either value
    square by square (what made 8 x 8 open's parts too large), and nothing of them lost."""
    from knightgraph.counting.halves import halves, run_half
    from knightgraph.counting.middleparts import _wants, part_boxes

    kernel, stats = compiled_kernel(), {}
    _, right, _ = halves(Board(m, n), virtual)
    fixed, boxes = part_boxes(right, depth)
    slots = [int((right.positions == right.places[sq]).nonzero()[0][0]) for sq in fixed]
    whole = run_half(kernel, right, right.plan, 2**34, NO_BUDGET, stats)
    whole_states = dict(zip(whole[0].tolist(), whole[1].tolist(), strict=True))
    vectors = dict(zip(whole[0].tolist(), _degrees(whole[0], slots), strict=True))
    start = run_half(kernel, right, right.plan, 2**34, NO_BUDGET, stats, stop=right.prefix)
    loose = 0
    for box, image in boxes:
        wants = _wants(right, fixed, (box, image), True)
        part = run_half(kernel, right, right.plan, 2**34, NO_BUDGET, stats,
                           first=right.prefix, initial=start, wants=wants)  # fmt: skip
        assert set(_degrees(part[0], slots)) <= {box, image}
        expected = {k: c for k, c in whole_states.items() if vectors[k] in (box, image)}
        assert dict(zip(part[0].tolist(), part[1].tolist(), strict=True)) == expected
        loose += box != image and len(set(box) | set(image)) > 1
    assert loose  # some parts would be looser square by square


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
@pytest.mark.parametrize(
    ("key", "good"),
    [("0/0101", True), ("5/22/2200", True), ("6/0101", False), ("0/0131", False),
     ("0/", False), ("00/01", False), ("0/01/", False), ("x/01", False)],
)  # fmt: skip
def test_a_sub_part_on_file_is_named_by_its_part_and_vector(tmp_path, key, good):
    """A sub-part's key (a part's index, then ``/`` and digits 0-2 a level) is read back;
    any other key, even under a matching digest, is refused with one line."""
    from knightgraph.counting.checkpoint import digest
    from knightgraph.exceptions import InvalidOptionError

    path = str(tmp_path / "c.json")
    request = request_of(Board(6, 6), False, None, None, "oeis")
    _middle(6, 6, False, 1, checkpoint=Checkpoint(path, request))
    data = json.loads(Path(path).read_text())
    data["counts"]["cycles"]["done"][key] = "12"
    data["digest"] = digest(data)
    Path(path).write_text(json.dumps(data))
    if good:
        assert Checkpoint(path, request).sub_parts("cycles") == {key: 12}
    else:
        with pytest.raises(InvalidOptionError, match="holds a part"):
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
    from knightgraph.counting.halves import halves
    from knightgraph.counting.middleparts import part_boxes

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


@needs_kernel
def test_a_part_too_large_for_its_memory_is_counted_in_sub_parts(tmp_path, monkeypatch):
    """A165134: 6 x 6 open, 6,637,920 directed.  In 5 MiB some of the 6 parts stop at
    their memory limit and are counted again one level deeper; a count killed once two
    sub-parts are on file resumes without counting them again, and the file ends with the
    6 parts whole."""
    from knightgraph.counting import middleparts

    path, request = str(tmp_path / "open.json"), request_of(Board(6, 6), False, None, None, "oeis")
    kept: list[str] = []
    record_sub = Checkpoint.record_sub

    def record_then_die(self, name, key, count):
        record_sub(self, name, key, count)
        kept.append(key)
        if len(kept) == 2:
            raise KeyboardInterrupt  # as a kill: the two are on file, nothing else is

    monkeypatch.setattr(Checkpoint, "record_sub", record_then_die)
    with pytest.raises(KeyboardInterrupt):
        _middle(6, 6, True, 1, memory=5 * 2**20, checkpoint=Checkpoint(path, request))
    on_file = json.loads(Path(path).read_text())["counts"]["paths"]["done"]
    assert len(kept) == 2 and set(kept) <= set(on_file) and all("/" in k for k in kept)
    monkeypatch.setattr(Checkpoint, "record_sub", record_sub)
    ran: list[str] = []
    part = middleparts._part

    def counted(*args):
        ran.append("".join(map(str, args[-1][0])))
        return part(*args)

    monkeypatch.setattr(middleparts, "_part", counted)
    stats: dict[str, Any] = {}
    total = _middle(6, 6, True, 1, stats, memory=5 * 2**20, checkpoint=Checkpoint(path, request))
    assert total == 6_637_920 // 2 and stats["middle_parts"]["split_again"] >= 1
    assert not {key.rsplit("/", 1)[1] for key in kept} & set(ran)
    done = json.loads(Path(path).read_text())["counts"]["paths"]["done"]
    assert sorted(done, key=int) == [str(i) for i in range(6)]  # sub-parts folded in


@needs_kernel
def test_the_command_line_with_a_checkpoint_meets_in_the_middle(tmp_path):
    """``count --checkpoint`` (no workers: a serial executor) counts in the middle, as the
    API does; with workers the count is split by its states.  A165134: 6 x 6 open."""
    import subprocess
    import sys

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "knightgraph", "count", "6", "6", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=600)

    for extra, engine in (((), "middle"), (("--workers", "2"), "c")):
        path = str(tmp_path / f"{engine}.json")
        out = cli("--checkpoint", path, *extra)
        assert out.returncode == 0 and "6,637,920 directed" in out.stdout, out.stderr
        split = json.loads(Path(path).read_text())["counts"]["paths"]["split"]
        assert split["engine"] == engine


@needs_kernel
def test_a_count_too_large_in_one_piece_goes_on_in_parts():
    """A165134: 6 x 6 open.  In 6 MiB the count in one piece stops at its memory limit and
    is counted in parts instead (some split again), to the same total."""
    stats: dict[str, Any] = {}
    assert _middle(6, 6, True, 0, stats, memory=6 * 2**20) == 6_637_920 // 2
    assert stats["middle_split_again"] and stats["middle_parts"]["parts"] == 6


@needs_kernel
def test_long_closed_boards_run_in_one_program_and_open_ones_still_meet():
    """Measured on one thread: 7 x 10 closed took 57 s in the middle (41 s of it the
    join's 3.5 billion pairs) against 32 s in one program; 7 x 8 closed 4.6 s against
    14.1 s; 6 x 10 open 17.2 s against 19.3 s (A175881's and A165134's neighbours)."""
    assert not meets_in_the_middle(Board(7, 10), True)
    assert not meets_in_the_middle(Board(10, 7), True)
    assert not meets_in_the_middle(Board(8, 10), True)
    assert meets_in_the_middle(Board(7, 8), True) and meets_in_the_middle(Board(8, 9), True)
    assert meets_in_the_middle(Board(6, 10), False)


@needs_kernel
def test_a_count_begun_in_the_middle_goes_on_in_the_middle(tmp_path, monkeypatch):
    """A checkpoint of parts counted in the middle is resumed in the middle even where the
    rule would now choose one program (8 x 10 closed's three parts on file were refused
    with one line when the rule changed under them)."""
    import knightgraph.counting.middle as middle
    from knightgraph.counting.checkpoint import begun_in_the_middle

    path = str(tmp_path / "open.json")
    assert count_tours(6, 6, checkpoint=path).directed == 6_637_920
    assert begun_in_the_middle(path)
    monkeypatch.setattr(middle, "meets_in_the_middle", lambda *args, **kw: False)
    again = count_tours(6, 6, checkpoint=path)
    assert again.directed == 6_637_920 and again.stats["middle_parts"]["resumed"] == 6
    with pytest.raises(InvalidOptionError, match="split as"):  # parts asked: not ignored
        count_tours(6, 6, checkpoint=path, parts=5)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert not begun_in_the_middle(str(deep))  # the count's own reading refuses it
    swept = str(tmp_path / "swept.json")
    assert count_tours(5, 6, closed=True, parts=2, checkpoint=swept).undirected == 8
    assert not begun_in_the_middle(swept)
    Path(swept).write_text("{not json")
    assert not begun_in_the_middle(swept) and not begun_in_the_middle(str(tmp_path))
