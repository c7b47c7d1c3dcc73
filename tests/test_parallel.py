"""The executor abstraction: local processes and dask give exactly the serial results."""

from __future__ import annotations

import json

import pytest

from knightgraph.cli import main
from knightgraph.counting import count_symmetric
from knightgraph.exceptions import InvalidOptionError
from knightgraph.explore import end_map, existence_table, start_map, sweep
from knightgraph.running.parallel import (
    ProcessExecutor,
    SerialExecutor,
    get_executor,
)


def _square(x):
    return x * x


def _kinds(table):
    return {size: sorted(cell.evidence) for size, cell in table.cells.items()}


def test_executors_keep_the_order_and_report_progress():
    seen = []
    with get_executor() as ex:
        assert isinstance(ex, SerialExecutor)
        assert ex.map(
            _square, [3, 1, 2], progress=lambda p: seen.append((p["done"], p["total"]))
        ) == [9, 1, 4]
    assert seen == [(1, 3), (2, 3), (3, 3)]
    with get_executor(workers=2) as ex:
        assert isinstance(ex, ProcessExecutor)
        assert ex.map(_square, list(range(50))) == [x * x for x in range(50)]
        assert ex.map(_square, []) == []
    assert isinstance(get_executor(workers=1), SerialExecutor)


def test_bad_executor_options():
    with pytest.raises(InvalidOptionError):
        get_executor(workers=2, dask="tcp://127.0.0.1:1")
    with pytest.raises(InvalidOptionError):
        get_executor(workers=-1)


@pytest.fixture(scope="module")
def serial_table():
    return existence_table(20)


def test_table_with_workers_equals_serial(serial_table):
    serial = serial_table
    with get_executor(workers=2) as ex:
        parallel = existence_table(20, executor=ex)
    assert parallel.codes == serial.codes
    assert _kinds(parallel) == _kinds(serial)
    assert parallel.disagreements == serial.disagreements == []


def test_sweep_and_maps_with_workers_equal_serial():
    with get_executor(workers=2) as ex:
        a = sweep(8, 8, rule="first", executor=ex)
        b = start_map(5, 5, executor=ex)
        c = end_map(5, 5, start="a1", executor=ex)
        d = count_symmetric(6, 6, closed=True, executor=ex)
    assert (d.classes, d.fixed["rot180"], d.fixed["rot90"]) == (1245, 78, 10)
    assert (a.ok == sweep(8, 8, rule="first").ok).all()
    serial_b, serial_c = start_map(5, 5), end_map(5, 5, start="a1")
    assert (b.ok == serial_b.ok).all() and (b.counts == serial_b.counts).all()
    assert (c.ok == serial_c.ok).all() and (c.counts == serial_c.counts).all()


def test_table_cli_with_workers_equals_serial(capsys, serial_table):
    assert main(["table", "20", "--format", "json", "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["codes"] == serial_table.codes


# ------------------------------------------------------------------------- dask
@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local


def test_table_and_maps_on_a_dask_cluster_equal_serial(cluster, capsys, serial_table):
    assert main(["table", "20", "--format", "json", "--dask", cluster.scheduler_address]) == 0
    assert json.loads(capsys.readouterr().out)["codes"] == serial_table.codes

    assert main(["starts", "5", "5", "--format", "json"]) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main(["starts", "5", "5", "--format", "json", "--dask", cluster.scheduler_address]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert (remote["ok"], remote["counts"]) == (serial["ok"], serial["counts"])

    with get_executor(dask=cluster.scheduler_address) as ex:
        assert ex.map(_square, [4, 5]) == [16, 25]
        assert (sweep(6, 6, executor=ex).ok == sweep(6, 6).ok).all()
        assert (end_map(5, 5, start="c3", executor=ex).ok == end_map(5, 5, start="c3").ok).all()


def test_unreachable_scheduler_is_a_clean_error(capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("knightgraph.running.parallel.DASK_CONNECT_TIMEOUT", 1.0)
    assert main(["table", "3", "--dask", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach the dask scheduler" in capsys.readouterr().err
