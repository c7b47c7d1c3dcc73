"""One executor abstraction for independent pieces of work: serial, local processes, dask.

:func:`get_executor` returns an :class:`Executor` whose :meth:`~Executor.map`
runs a picklable function over a list of arguments and returns the results
*in the order of the arguments*, whatever order they finished in, so that a
table or a map built from them is identical to a serial run.

* ``get_executor()`` runs in this process, one piece after another;
* ``get_executor(workers=4)`` uses four local processes
  (:class:`concurrent.futures.ProcessPoolExecutor`);
* ``get_executor(dask="tcp://host:8786")`` sends the pieces to a
  dask.distributed scheduler (install the extra ``knightgraph[distributed]``);
  the function's module must be importable on the workers.

Both options are checked before anything starts: at most :func:`max_workers`
local processes (a small multiple of the cores), and a dask address of the
form ``tcp://HOST:PORT`` (see :func:`check_dask_address`).  Local workers die
with their parent: on Linux each asks the kernel for SIGKILL when its parent
dies (``prctl(PR_SET_PDEATHSIG)``), so even a ``kill -9`` of the parent leaves
no process behind, and leaving the ``with`` block on an exception (Ctrl-C, a
SIGTERM turned into an exception by the command line) terminates them at once
instead of waiting for the pieces under way.

Examples
--------
>>> from knightgraph.running.parallel import get_executor
>>> with get_executor() as ex:
...     ex.map(abs, [-2, 3, -5])
[2, 3, 5]
>>> get_executor(workers=2).describe()
'2 local processes'
>>> get_executor(workers=10**6)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
knightgraph.exceptions.InvalidOptionError: invalid --workers 1000000: at most ... local processes on this machine (4 per CPU, ... CPU...)
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..exceptions import InvalidOptionError
from .workers import (
    DASK_SCHEMES,
    WORKERS_PER_CPU,
    check_dask_address,
    check_workers,
    cpu_count,
    max_workers,
)

__all__ = [
    "DASK_SCHEMES",
    "WORKERS_PER_CPU",
    "DaskExecutor",
    "Executor",
    "ProcessExecutor",
    "SerialExecutor",
    "check_dask_address",
    "check_workers",
    "cpu_count",
    "die_with_parent",
    "get_executor",
    "max_workers",
]

DASK_CONNECT_TIMEOUT = 2.5
"""Seconds to wait for a dask scheduler before giving up with a clear error (exit 2, before
any work): a refused port or an unreachable host is told within 5 s.  A scheduler that
answers at all answers in milliseconds on a network; pass a ``Client`` of one's own to
wait longer."""

T = TypeVar("T")
R = TypeVar("R")
Progress = Callable[[dict[str, Any]], None]
"""knightgraph's one progress signature: a dict of counters (here ``{"done", "total"}``)."""


# ---------------------------------------------------------------- executors
class Executor:
    """Runs ``fn`` over arguments; results in argument order.  Use as a context manager.

    Examples
    --------
    An executor of one's own: anything that takes an ``executor`` runs its pieces there.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> class Threads(Executor):
    ...     def map(self, fn, items, *, progress=None):
    ...         with ThreadPoolExecutor(2) as pool:
    ...             return list(pool.map(fn, items))
    ...     def describe(self):
    ...         return "2 threads"
    >>> from knightgraph import count_symmetric
    >>> count_symmetric(3, 10, closed=True, executor=Threads()).classes  # 4 symmetries, 2 at a time
    6
    """

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], *, progress: Progress | None = None
    ) -> list[R]:
        """``[fn(x) for x in items]``; ``progress({"done": k, "total": n})`` after each piece."""
        raise NotImplementedError

    def describe(self) -> str:
        """A short description for messages."""
        raise NotImplementedError

    def close(self) -> None:
        """Release workers or connections (the executor cannot be used afterwards)."""

    def abort(self) -> None:
        """Stop at once: cancel what has not started and stop what has (then :meth:`close`)."""
        self.close()

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


class SerialExecutor(Executor):
    """Everything in this process, in order.

    Examples
    --------
    >>> seen = []
    >>> SerialExecutor().map(len, ["a1", "b", "c3d"], progress=lambda p: seen.append(p["done"])), seen
    ([2, 1, 3], [1, 2, 3])
    """

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], *, progress: Progress | None = None
    ) -> list[R]:
        out = []
        for done, item in enumerate(items, start=1):
            out.append(fn(item))
            if progress is not None:
                progress({"done": done, "total": len(items)})
        return out

    def describe(self) -> str:
        return "serial"


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent(parent: int, tied: bool) -> None:
    """Worker initializer: exit when the parent process ``parent`` goes away.

    On Linux, when the pool was started from the main thread (``tied``), the
    kernel sends SIGKILL to this worker the moment the parent dies, even by
    ``kill -9``; elsewhere a daemon thread checks the parent every half second.
    Ctrl-C is left to the parent (it reaches the whole process group; the
    parent then stops the workers), and SIGTERM gets its default action again
    (a forked worker inherits the parent's Python handlers).

    Examples
    --------
    >>> import multiprocessing, os
    >>> child = multiprocessing.Process(target=die_with_parent, args=(os.getpid(), True))
    >>> child.start(); child.join(); child.exitcode  # the parent lives: it returns
    0
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    armed = False
    if tied and sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl
            armed = False
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
    if not armed:
        import threading
        import time

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="knightgraph-parent-watch", daemon=True).start()


class ProcessExecutor(Executor):
    """A pool of local worker processes (at most :func:`max_workers`).

    The workers die with this process (see :func:`die_with_parent`); leaving
    a ``with`` block on an exception terminates them at once.  On Linux the
    kernel ties each worker to the *thread* that started the pool (the first
    :meth:`map`), so use one executor from one thread.

    Examples
    --------
    >>> from knightgraph import count_symmetric
    >>> with ProcessExecutor(2) as ex:  # the workers start at the first map
    ...     ex.map(abs, [-3, 1, -2])  # results in the order of the arguments
    ...     count_symmetric(3, 10, closed=True, executor=ex).fixed
    [3, 1, 2]
    {'identity': 16, 'rot180': 4, 'flip_ranks': 0, 'flip_files': 4}
    """

    def __init__(self, workers: int) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidOptionError(
                f"invalid number of worker processes {workers!r}: expected a whole number >= 1"
            )
        check_workers(workers)
        self.workers = workers
        self._pool: Any = None

    def _get_pool(self) -> Any:
        if self._pool is None:
            import multiprocessing
            import threading
            from concurrent.futures import ProcessPoolExecutor

            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
            context = multiprocessing.get_context(method)
            tied = threading.current_thread() is threading.main_thread()
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=die_with_parent,
                initargs=(os.getpid(), tied),
            )
        return self._pool

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], *, progress: Progress | None = None
    ) -> list[R]:
        from concurrent.futures import as_completed

        if not items:
            return []
        pool = self._get_pool()
        futures = {pool.submit(fn, item): i for i, item in enumerate(items)}
        out: list[Any] = [None] * len(items)
        try:
            for done, future in enumerate(as_completed(futures), start=1):
                out[futures[future]] = future.result()
                if progress is not None:
                    progress({"done": done, "total": len(items)})
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        return out

    def describe(self) -> str:
        return f"{self.workers} local processes"

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def abort(self) -> None:
        """Cancel the pieces not started, kill the workers and wait for them to go."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())  # private, stable
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join(timeout=5)
        # Let the pool's manager thread see its workers gone and close its wake-up pipe,
        # so that the interpreter's exit hook finds nothing left to wake (else it can
        # print a traceback about a closed pipe after the one-line message).
        manager = getattr(pool, "_executor_manager_thread", None)  # private, stable
        if manager is not None:
            manager.join(timeout=5)


def _connect(dd: Any, address: str, timeout: float) -> Any:
    """``distributed.Client(address)``, given up after ``timeout`` seconds (TimeoutError).

    dask's own ``timeout`` covers opening the connection, not a peer that accepts it and
    then answers nothing dask can read (it waits on the handshake for ever): the client
    is made in a helper thread, waited for at most ``timeout`` and half a second.  A client
    made too late is closed by the helper.
    """
    import threading

    made: dict[str, Any] = {}
    given_up = threading.Event()

    def make() -> None:
        try:
            client = dd.Client(address, timeout=timeout)
        except BaseException as err:  # handed to the caller below
            made["error"] = err
            return
        if given_up.is_set():
            client.close()
        else:
            made["client"] = client

    helper = threading.Thread(target=make, name="knightgraph-dask-connect", daemon=True)
    helper.start()
    helper.join(timeout + 0.5)
    if helper.is_alive() or not made:
        given_up.set()
        raise TimeoutError(f"no dask handshake from {address} within {timeout:g} s")
    if "error" in made:
        raise made["error"]
    return made["client"]


class DaskExecutor(Executor):
    """The workers of a dask.distributed scheduler (or an existing ``Client``).

    Examples
    --------
    >>> DaskExecutor("localhost")  # checked before anything connects
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --dask address 'localhost': no port (expected tcp://HOST:PORT)

    >>> from distributed import Client  # a Client works too: here an in-process cluster
    >>> with Client(processes=False, n_workers=1, threads_per_worker=1,
    ...             dashboard_address=None) as client, DaskExecutor(client) as ex:
    ...     ex.map(abs, [-3, 1, -2]), ex.describe()
    ([3, 1, 2], 'dask scheduler inproc://...')
    """

    def __init__(self, address: Any, *, timeout: float | None = None) -> None:
        if isinstance(address, str):
            check_dask_address(address)
        try:
            import distributed
        except ImportError:
            raise InvalidOptionError(
                "--dask needs dask.distributed: pip install 'knightgraph[distributed]'"
            ) from None
        dd: Any = distributed  # untyped
        self.client: Any
        self._own = not isinstance(address, dd.Client)
        if not self._own:
            self.client = address
        else:
            try:
                self.client = _connect(dd, address, timeout or DASK_CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as err:
                raise InvalidOptionError(
                    f"cannot reach the dask scheduler {address!r}: {err}"
                ) from None
            except MemoryError:  # something answered, not in dask's protocol (a huge length)
                raise InvalidOptionError(
                    f"cannot reach the dask scheduler {address!r}: what answered there "
                    "does not speak dask's protocol"
                ) from None
            except (ValueError, TypeError) as err:
                raise InvalidOptionError(f"invalid --dask address {address!r}: {err}") from None
        self.address = getattr(self.client.scheduler, "address", str(address))

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], *, progress: Progress | None = None
    ) -> list[R]:
        import distributed

        dd: Any = distributed  # untyped
        if not items:
            return []
        futures = self.client.map(fn, list(items), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[Any] = [None] * len(items)
        try:
            for done, future in enumerate(dd.as_completed(futures), start=1):
                out[index[future.key]] = future.result()
                if progress is not None:
                    progress({"done": done, "total": len(items)})
        except BaseException:
            self.client.cancel(futures)
            raise
        return out

    def describe(self) -> str:
        return f"dask scheduler {self.address}"

    def close(self) -> None:
        if self._own:
            self.client.close()


def get_executor(workers: int | None = None, dask: Any = None) -> Executor:
    """The executor for ``--workers N`` or ``--dask ADDRESS`` (serial when neither is given).

    ``workers=0`` means one process per CPU; at most :func:`max_workers`.  A
    dask address is checked (:func:`check_dask_address`) before connecting.

    Raises
    ------
    InvalidOptionError
        For both options at once, a negative or too large worker count, a
        malformed dask address, or dask missing or unreachable.

    Examples
    --------
    >>> get_executor().describe(), get_executor(workers=1).describe()  # one worker: no pool
    ('serial', 'serial')
    >>> get_executor(workers=2, dask="tcp://127.0.0.1:8786")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: give --workers or --dask, not both
    """
    if dask is not None and workers is not None:
        raise InvalidOptionError("give --workers or --dask, not both")
    if dask is not None:
        return DaskExecutor(dask)
    count = check_workers(workers)
    if count is None or count == 1:
        return SerialExecutor()
    return ProcessExecutor(count)
