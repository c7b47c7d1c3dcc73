"""A count on a dask.distributed cluster started as a user starts one (issue 26): a
``dask scheduler`` process and two ``dask worker`` processes on this machine, then
``knightgraph count ... --dask ADDRESS``; and a worker lost in the middle of a count, whose
parts the scheduler runs again on the other (the total is A175881's all the same).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from knightgraph.counting.compiled import kernel_available  # noqa: E402

pytestmark = pytest.mark.skipif(not kernel_available(), reason="compiled kernel not built")

DASK = str(Path(sys.executable).with_name("dask"))


def _start(*argv: str) -> subprocess.Popen:
    return subprocess.Popen(
        [DASK, *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the worker and its nanny go together
    )


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@pytest.fixture
def cluster(tmp_path):
    """The scheduler's address and the two worker processes."""
    if not Path(DASK).exists():
        pytest.skip("the dask command is not installed")
    file = tmp_path / "scheduler.json"
    where = ["--host", "127.0.0.1", "--port", "0", "--scheduler-file", str(file)]
    scheduler = _start("scheduler", *where, "--no-dashboard")
    workers: list[subprocess.Popen] = []
    try:
        for _ in range(200):
            if file.exists() and file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        for _ in range(2):
            one = ["--nthreads", "1", "--nworkers", "1", "--death-timeout", "60"]
            workers.append(_start("worker", address, *one, "--no-dashboard"))
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for process in [*workers, scheduler]:
            _stop(process)


def _count(*argv: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "knightgraph", "count", *argv, "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "KNIGHTGRAPH_COUNT_THREADS": "1"},
    )


def test_count_on_scheduler_and_worker_processes(cluster):
    address, _ = cluster
    run = _count("6", "8", "--closed", "--dask", address)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert json.loads(out)["undirected"] == 55_488_142  # A175881


def test_a_lost_worker_s_parts_run_again(cluster):
    """One worker is killed (with its nanny) while the parts run: the scheduler gives its
    parts to the other worker, and the total is exact."""
    address, workers = cluster
    began = time.monotonic()
    run = _count("6", "10", "--closed", "--dask", address, "--parts", "32")
    time.sleep(2.0)
    assert run.poll() is None, "the count ended before the worker could be lost"
    _stop(workers[0])
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert json.loads(out)["undirected"] == 239_187_240_144  # A175881
    assert time.monotonic() - began > 2.0
