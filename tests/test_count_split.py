"""Counts split into independent parts (issue 15): exact sums, executors, checkpoints,
the wide compiled kernel.  Expected counts are from the OEIS, never from our own output."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys

import numpy as np
import pytest

from knightgraph import Board
from knightgraph.counting import count_tours
from knightgraph.counting.compiled import compiled_kernel, kernel_available, run_compiled, slot_plan
from knightgraph.counting.plan import build_graph, make_plan
from knightgraph.counting.python_engine import run_python
from knightgraph.counting.split import _groups
from knightgraph.exceptions import InvalidOptionError
from knightgraph.running.budget import NO_BUDGET
from knightgraph.running.parallel import DaskExecutor, ProcessExecutor, SerialExecutor

needs_kernel = pytest.mark.skipif(not kernel_available(), reason="compiled kernel not built")

# Closed tours as undirected cycles: A001230 (6x6), A175855 (5 x 2n: 5x6 = 8, 5x8 = 44,202),
# A070030 (3 x 2n: 3x10 = 16, 3x12 = 176); open tours as directed paths: A165134 (5x5 = 1728).
KNOWN_CLOSED = [(3, 10, 16), (3, 12, 176), (5, 6, 8), (6, 6, 9862), (5, 8, 44202)]


@pytest.mark.parametrize(("m", "n", "cycles"), KNOWN_CLOSED)
@pytest.mark.parametrize("parts", [1, 2, 3, 7])
def test_split_closed_counts_sum_to_the_known_count(m, n, cycles, parts):
    result = count_tours(m, n, closed=True, parts=parts)
    assert result.undirected == cycles
    assert result.stats["split"]["parts"] == parts


@pytest.mark.parametrize("parts", [2, 5])
def test_split_open_counts(parts):
    assert count_tours(5, 5, parts=parts).directed == 1728  # A165134
    assert count_tours(5, 5, start="a1", parts=parts).directed == 304


def test_split_knuth_convention_and_ends():
    whole = count_tours(5, 6, convention="knuth")
    split = count_tours(5, 6, convention="knuth", parts=3)
    assert split.directed == whole.directed
    assert (
        count_tours(5, 6, closed=True, start="a1", end="b3", parts=2).directed
        == count_tours(5, 6, closed=True, start="a1", end="b3").directed
    )


def test_parts_partition_the_cut_layer_exactly():
    """Every state of the cut layer is in exactly one group, with its count."""
    keys = np.arange(1000, dtype=np.uint64) * np.uint64(7919)
    lo = np.arange(1000, dtype=np.uint64)
    hi = np.zeros(1000, dtype=np.uint64)
    groups = _groups((keys, lo, hi), "c", 6)
    assert sum(len(g[0]) for g in groups) == 1000
    assert sorted(np.concatenate([g[0] for g in groups]).tolist()) == sorted(keys.tolist())
    assert int(sum(g[1].sum() for g in groups)) == int(lo.sum())
    layer = {(i, i % 3): i for i in range(500)}
    py = _groups(layer, "python", 4)
    assert sum(len(g) for g in py) == 500 and {k: v for g in py for k, v in g.items()} == layer


def test_python_engine_splits_too(monkeypatch):
    monkeypatch.setenv("KNIGHTGRAPH_KERNELS", "python")
    result = count_tours(5, 6, closed=True, parts=3)
    assert result.stats["engine"] == "python" and result.undirected == 8


def test_on_local_processes():
    with ProcessExecutor(2) as ex:
        result = count_tours(6, 6, closed=True, executor=ex)
    assert result.undirected == 9862 and result.stats["split"]["parts"] == 2


@contextlib.contextmanager
def _dask_executor():
    """A DaskExecutor on a local cluster of two workers in this process (the test is
    skipped without distributed)."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        DaskExecutor(client) as ex,
    ):
        yield ex


def test_on_a_dask_cluster():
    with _dask_executor() as ex:
        result = count_tours(6, 6, closed=True, executor=ex, parts=3)
    assert result.undirected == 9862


def test_cli_dask_address(capsys):
    """``count --dask ADDRESS``: an in-process cluster's scheduler, reached by its address."""
    distributed = pytest.importorskip("distributed")
    from knightgraph.cli import main

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        args = ["count", "6", "6", "--closed", "--dask", cluster.scheduler_address]
        assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["undirected"] == 9862


class _Interrupt(Exception):
    pass


@pytest.mark.parametrize(
    ("m", "n", "closed", "directed"), [(6, 6, True, 19724), (5, 5, False, 1728)]
)
def test_an_interrupted_checkpoint_run_resumes(tmp_path, m, n, closed, directed):
    path = str(tmp_path / "count.json")
    seen = []

    def stop_after_two(info):
        seen.append(info["parts_done"])
        if info["parts_done"] == 2:
            raise _Interrupt

    with pytest.raises(_Interrupt):
        count_tours(m, n, closed=closed, parts=5, checkpoint=path, on_part=stop_after_two)
    saved = json.loads((tmp_path / "count.json").read_text())
    (entry,) = saved["counts"].values()
    assert len(entry["done"]) == 2 and entry["split"]["parts"] == 5
    resumed = count_tours(m, n, closed=closed, checkpoint=path)  # the saved split is reused
    assert resumed.directed == directed
    assert resumed.stats["split"]["resumed"] == 2
    again = count_tours(m, n, closed=closed, checkpoint=path)  # everything on file: no part runs
    assert again.directed == directed and again.stats["split"]["resumed"] == 5


def test_the_checkpoint_really_is_read(tmp_path):
    """Parts on file are not recomputed: a count on file (changed, and sealed again with
    its digest, as only a deliberate edit can) is what is added."""
    from knightgraph.counting.checkpoint import digest

    path = tmp_path / "count.json"
    assert count_tours(5, 6, closed=True, parts=2, checkpoint=str(path)).undirected == 8
    data = json.loads(path.read_text())
    data["counts"]["cycles"]["done"]["0"] = str(int(data["counts"]["cycles"]["done"]["0"]) + 100)
    data["digest"] = digest(data)
    path.write_text(json.dumps(data))
    assert count_tours(5, 6, closed=True, checkpoint=str(path)).undirected == 108


def test_bad_checkpoints_are_refused_before_work(tmp_path):
    with pytest.raises(InvalidOptionError, match="no such folder"):
        count_tours(5, 6, closed=True, checkpoint=str(tmp_path / "nope" / "x.json"))
    with pytest.raises(InvalidOptionError, match="folder"):
        count_tours(5, 6, closed=True, checkpoint=str(tmp_path))
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(InvalidOptionError, match="not a knightgraph checkpoint"):
        count_tours(5, 6, closed=True, checkpoint=str(bad))
    good = tmp_path / "good.json"
    count_tours(5, 6, closed=True, parts=2, checkpoint=str(good))
    with pytest.raises(InvalidOptionError, match="another count"):
        count_tours(6, 6, closed=True, checkpoint=str(good))
    with pytest.raises(InvalidOptionError, match="split as"):
        count_tours(5, 6, closed=True, parts=3, checkpoint=str(good))
    with pytest.raises(InvalidOptionError, match="--parts"):
        count_tours(5, 6, closed=True, parts=0)


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "knightgraph", *args], capture_output=True, text=True, timeout=600
    )


def test_cli_checkpoint_and_bad_paths(tmp_path):
    path = str(tmp_path / "c.json")
    out = _cli("count", "6", "6", "--closed", "--parts", "3", "--checkpoint", path)
    assert out.returncode == 0 and "9,862 undirected" in out.stdout
    again = _cli("count", "6", "6", "--closed", "--checkpoint", path, "--format", "json")
    assert again.returncode == 0 and json.loads(again.stdout)["undirected"] == 9862
    for bad in (str(tmp_path / "no" / "c.json"), str(tmp_path)):
        refused = _cli("count", "6", "6", "--closed", "--checkpoint", bad)
        assert refused.returncode == 2 and refused.stdout == ""
        assert len(refused.stderr.strip().splitlines()) == 1
    assert _cli("count", "5", "6", "--closed", "--checkpoint", path).returncode == 2
    assert _cli("count", "5", "6", "--closed", "--parts", "-1").returncode == 2


def test_cli_workers():
    out = _cli("count", "6", "6", "--closed", "--workers", "2", "--format", "json")
    assert out.returncode == 0 and json.loads(out.stdout)["undirected"] == 9862


@pytest.mark.slow
@needs_kernel
def test_7x8_closed_split_on_workers_and_dask():
    """The acceptance count of issue 15 (A175881: 7 x 8 closed = 34,524,432,316)."""
    out = _cli("count", "7", "8", "--closed", "--workers", "2", "--format", "json")
    assert out.returncode == 0 and json.loads(out.stdout)["undirected"] == 34_524_432_316
    with _dask_executor() as ex:
        assert count_tours(7, 8, closed=True, executor=ex).undirected == 34_524_432_316


# ------------------------------------------------------------------ the wide kernel
def _both_engines(m, n, *, virtual, pad):
    """The count of cycles by the C kernel with ``pad`` unused slots before the frontier
    (so that the frontier sits in slots past 16: the wide, compact encoding) and by the
    Python engine."""
    graph = build_graph(Board(m, n), virtual)
    steps = make_plan(graph, None, frozenset(), frozenset())
    width, plan = slot_plan(graph, steps)
    shifted = []
    for dest, vleaves, vneed, cands, forced, leave, need, last, any_choice in plan:
        moved = (cands + pad, forced, leave + pad, need + pad, last, any_choice)
        shifted.append((-1 if dest < 0 else dest + pad, vleaves, vneed, *moved))
    c = run_compiled(
        compiled_kernel(),
        width + pad,
        shifted,
        memory=1 << 30,
        budget=NO_BUDGET,
        progress=None,
        stats={},
    )
    return c, run_python(steps)


@needs_kernel
@pytest.mark.parametrize(
    ("m", "n", "virtual"), [(5, 6, False), (6, 6, False), (4, 5, True), (5, 5, True)]
)
@pytest.mark.parametrize("pad", [0, 5, 18])
def test_wide_slots_agree_with_the_python_engine(m, n, virtual, pad):
    graph = build_graph(Board(m, n), virtual)
    width = slot_plan(graph, make_plan(graph, None, frozenset(), frozenset()))[0]
    if width + pad > 18:
        pad = 18 - width
    c, py = _both_engines(m, n, virtual=virtual, pad=pad)
    assert c == py


@needs_kernel
def test_8x8_uses_the_compiled_kernel():
    """8 x 8 needs 16 slots in the snake order (17 top to bottom): the compiled kernel
    takes it."""
    result = count_tours(8, 8, closed=True, timeout=0.5, memory=2**40)  # whole, whatever is free
    assert result.stats.get("engine") == "c" and result.stats.get("width") == 16


def test_serial_executor_is_a_split_too():
    assert count_tours(3, 10, closed=True, executor=SerialExecutor(), parts=2).undirected == 16


# ------------------------------------------------------------ mirror images merged
@needs_kernel
@pytest.mark.parametrize(
    ("m", "n", "kw"),
    [
        (5, 6, {"closed": True}),
        (6, 6, {"closed": True}),
        (4, 7, {}),
        (5, 5, {}),
        (5, 5, {"start": "a1"}),
        (5, 6, {"closed": True, "start": "a1", "end": "b3"}),
        (6, 5, {"closed": True}),
        (5, 5, {"removed": ["c3"]}),
        (5, 5, {"removed": ["a1"]}),
        (6, 6, {"closed": True, "removed": ["a1", "a6"]}),
        (5, 5, {"removed": ["a1", "a5"]}),
        (5, 6, {"convention": "knuth"}),
    ],
)
def test_mirror_merging_agrees_with_the_python_engine(monkeypatch, m, n, kw):
    compiled = count_tours(m, n, **kw)
    assert compiled.stats["engine"] == "c"
    monkeypatch.setenv("KNIGHTGRAPH_KERNELS", "python")
    reference = count_tours(m, n, **kw)
    assert reference.stats["engine"] == "python"
    assert (compiled.directed, compiled.undirected) == (reference.directed, reference.undirected)


@needs_kernel
def test_mirror_merging_halves_the_states():
    """At the end of each column a state and its mirror image are merged: fewer states
    than the same program without the merges (the slot plan without mirror)."""
    from knightgraph.counting.compiled import mirror_ids

    graph = build_graph(Board(6, 6), False)
    steps = make_plan(graph, None, frozenset(), frozenset())
    sizes = {}
    for name, mirror in (("plain", None), ("mirror", mirror_ids(graph))):
        width, plan = slot_plan(graph, steps, mirror)
        stats: dict = {}
        count = run_compiled(
            compiled_kernel(),
            width,
            plan,
            memory=1 << 30,
            budget=NO_BUDGET,
            progress=None,
            stats=stats,
        )
        assert count == 9862
        sizes[name] = stats["max_states"]
    assert sizes["mirror"] < 0.75 * sizes["plain"]
