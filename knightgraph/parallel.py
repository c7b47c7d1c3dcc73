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

Examples
--------
>>> from knightgraph.parallel import get_executor
>>> with get_executor() as ex:
...     ex.map(abs, [-2, 3, -5])
[2, 3, 5]
>>> get_executor(workers=2).describe()
'2 local processes'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .exceptions import InvalidOptionError

__all__ = [
    "DaskExecutor",
    "Executor",
    "ProcessExecutor",
    "SerialExecutor",
    "get_executor",
]

DASK_CONNECT_TIMEOUT = 20.0
"""Seconds to wait for a dask scheduler before giving up with a clear error."""

T = TypeVar("T")
R = TypeVar("R")
Progress = Callable[[int, int], None]


class Executor:
    """Runs ``fn`` over arguments; results in argument order.  Use as a context manager."""

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], *, progress: Progress | None = None
    ) -> list[R]:
        """``[fn(x) for x in items]``; ``progress(done, total)`` after each piece finishes."""
        raise NotImplementedError

    def describe(self) -> str:
        """A short description for messages."""
        raise NotImplementedError

    def close(self) -> None:
        """Release workers or connections (the executor cannot be used afterwards)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SerialExecutor(Executor):
    """Everything in this process, in order."""

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], *, progress: Progress | None = None
    ) -> list[R]:
        out = []
        for done, item in enumerate(items, start=1):
            out.append(fn(item))
            if progress is not None:
                progress(done, len(items))
        return out

    def describe(self) -> str:
        return "serial"


class ProcessExecutor(Executor):
    """A pool of local worker processes."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None

    def _get_pool(self) -> Any:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
            context = multiprocessing.get_context(method)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
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
                    progress(done, len(items))
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


class DaskExecutor(Executor):
    """The workers of a dask.distributed scheduler (or an existing ``Client``)."""

    def __init__(self, address: Any, *, timeout: float | None = None) -> None:
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
                self.client = dd.Client(address, timeout=timeout or DASK_CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as err:
                raise InvalidOptionError(
                    f"cannot reach the dask scheduler {address!r}: {err}"
                ) from None
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
                    progress(done, len(items))
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

    ``workers=0`` means one process per CPU.

    Raises
    ------
    InvalidOptionError
        For both options at once, a negative worker count, or dask missing or unreachable.
    """
    if dask is not None and workers is not None:
        raise InvalidOptionError("give --workers or --dask, not both")
    if dask is not None:
        return DaskExecutor(dask)
    if workers is None or workers == 1:
        return SerialExecutor()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise InvalidOptionError(
            f"invalid number of workers {workers!r}: expected a whole number >= 0"
        )
    return ProcessExecutor(workers or os.cpu_count() or 1)
