"""Counts split into independent parts (issue 15): run serially, on local processes or on
dask, with a checkpoint file so that an interrupted count resumes.

How a count splits: the dynamic program runs (here, once) up to a *cut* step; the states of
that layer are divided into ``parts`` groups by a hash of each state; each group is then
carried to the end of the program on its own (:func:`_run_part`, anywhere an executor
runs it) and the counts of the groups are added.

Notes
-----
Why the sum is exact: a step of the program is linear in its layer (the count of a
state of the next layer is the sum of the counts of the states that lead to it), so the
program from the cut to the end is a linear map, and running it on each group and adding
the results is running it on the whole layer.  Every state of the cut layer is in exactly
one group (the hash is a function of the state alone), so nothing is counted twice or
left out.  The groups, hence the parts, depend only on the plan and the cut layer, which
the program computes the same way every time: a rerun makes the same parts, which is
what lets a checkpoint skip the finished ones.

What a split costs: parts share no work after the cut.  Two states of different groups
often lead to the same state a few columns later; the unsplit program merges them once,
the parts each carry their own copy.  So ``k`` parts take more than the unsplit time in
total (measured on 6x6 closed: 4 parts, 2.2 times the states), and each part's largest
layer is smaller than the unsplit one by less than ``k`` (the same 4 parts: 53-71 % of
it); the split buys independence (workers, machines, resumable pieces), not less total
work.  Costs are in ``docs/counting.md``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..boards.board import Board
from ..exceptions import InvalidOptionError
from ..running.budget import Budget
from .checkpoint import Checkpoint, groups_digest
from .limits import CountAbortedError, memory_budget

CUT_STATES = 1 << 16
"""The automatic cut: the first step whose layer holds at least this many states (or
``CUT_STATES_PER_PART`` a part, if more), so that the hash spreads the states evenly."""

CUT_STATES_PER_PART = 1024

USEFUL_STATES_PER_PART = 16
"""A part should carry at least this many states of the cut layer: a part costs about a
millisecond of its own (measured on 6x6 closed, 5,000 parts: 0.6-1.1 ms each, against
about a microsecond a state), so more parts than the largest layer's states / 16 only
add set-up (6x6 closed in 100,000 parts: 28 s instead of 0.06 s).  Such a ``--parts``
(beyond :data:`ALWAYS_USEFUL_PARTS`) is refused, with the largest useful number, as soon
as the program has shown that no layer is large enough, before any part runs."""

ALWAYS_USEFUL_PARTS = 256
"""Up to this many parts are taken whatever the layers (a fraction of a second of set-up;
the parts of a small count may be empty, and count 0 at once)."""

MAX_PARTS = 1 << 20
"""At most this many parts (each part is a task and a line of the checkpoint)."""


@dataclass(frozen=True)
class SplitOptions:
    """How to split a count: ``parts`` (None: one per worker of the executor, at least 2),
    the ``executor`` that runs them, a :class:`Checkpoint`, the ``cut`` step (None:
    automatic) and a callback told ``{"parts_done", "parts"}`` after each part.

    :func:`~knightgraph.counting.count_tours` builds one from its ``parts``,
    ``executor``, ``checkpoint`` and ``on_part`` arguments.

    Examples
    --------
    >>> SplitOptions(parts=4).parts
    4
    """

    parts: int | None = None
    executor: Any = None
    checkpoint: Checkpoint | None = None
    cut: int | None = None
    on_part: Callable[[dict[str, Any]], None] | None = None


def check_parts(parts: Any) -> int | None:
    """``parts`` checked: None or a whole number from 1 to :data:`MAX_PARTS`.

    Examples
    --------
    >>> check_parts(8), check_parts(None)
    (8, None)
    >>> check_parts(0)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --parts 0: expected a whole number from 1 to 1048576
    """
    if parts is None:
        return None
    if isinstance(parts, bool) or not isinstance(parts, int) or not 1 <= parts <= MAX_PARTS:
        raise InvalidOptionError(
            f"invalid --parts {parts!r}: expected a whole number from 1 to {MAX_PARTS}"
        )
    return parts


@dataclass(frozen=True)
class _Part:
    """One part of a split count: everything a worker needs to finish it."""

    board: Board
    virtual: bool
    forced: tuple[tuple[int, int], ...]
    excluded: tuple[tuple[int, int], ...]
    engine: str  # "c" or "python": the encoding of the states
    cut: int
    index: int
    states: Any  # the group's states: (keys, lo, hi) arrays for "c", a dict for "python"
    memory: int | None
    until: float | None  # the count's one deadline, on the wall clock (time.time())
    threads: int | None  # the kernel's threads a part (None: the worker's cores)


def _run_part(part: _Part) -> dict[str, Any]:
    """Finish one part: the program from the cut to the end on the part's states.

    Returns ``{"index", "count", "seconds", "peak_bytes", "max_states"}``, or with
    ``"aborted"`` (the reason) instead of a count when the part stopped on its budget.
    Runs in a worker: it builds the plan again (milliseconds) rather than receive it.
    """
    from .compiled import compiled_kernel, run_compiled
    from .python_engine import run_python

    began = time.perf_counter()
    budget = Budget.from_wall_deadline(part.until)  # every part stops when the count does
    if _part_size(part) == 0:  # an empty group carries nothing to the end: 0 (no plan needed)
        return {"index": part.index, "count": 0, "seconds": 0.0}
    _, steps = _plan_of(part.board, part.virtual, part.forced, part.excluded)
    stats: dict[str, Any] = {}
    try:
        if part.engine == "c":
            kernel = compiled_kernel()
            slots = None if kernel is None else _slots_of(_part_key(part))
            if kernel is None or slots is None:
                raise InvalidOptionError(
                    "a part of a split count needs the compiled counting kernel on the worker"
                )
            room = memory_budget(part.memory, compiled=True)
            count = run_compiled(
                kernel,
                slots[0],
                slots[1],
                memory=room,
                budget=budget,
                progress=None,
                stats=stats,
                first=part.cut,
                initial=part.states,
                threads=part.threads,
            )
        else:
            room = memory_budget(part.memory, compiled=False)
            count = run_python(
                steps, budget=budget, memory=room, first=part.cut, initial=part.states
            )
    except CountAbortedError as stop:
        return {"index": part.index, "aborted": str(stop), "done": stop.done}
    out: dict[str, Any] = {"index": part.index, "count": int(count)}
    out["seconds"] = time.perf_counter() - began
    out["peak_bytes"] = stats.get("peak_bytes")
    out["max_states"] = stats.get("max_states")
    return out


@functools.lru_cache(maxsize=2)
def _slots_of(part_key: Any) -> Any:
    """The compiled kernel's slot plan of a part's count (:func:`_plan_of`), kept like it."""
    from .compiled import mirror_ids, slot_plan

    board, virtual, forced, excluded = part_key
    graph, steps = _plan_of(board, virtual, forced, excluded)
    return slot_plan(graph, steps, None if forced or excluded else mirror_ids(graph))


def _part_key(part: _Part) -> tuple[Any, ...]:
    return part.board, part.virtual, part.forced, part.excluded


def _part_size(part: _Part) -> int:
    return _layer_size(part.states, part.engine)


@functools.lru_cache(maxsize=2)
def _plan_of(
    board: Board,
    virtual: bool,
    forced: tuple[tuple[int, int], ...],
    excluded: tuple[tuple[int, int], ...],
) -> tuple[Any, Any]:
    """The graph and the plan of a count (as ``count_cycles`` makes them), kept for the
    next part that a process runs (the parts of one count share it; it is only read)."""
    from .plan import build_graph, local_edges, local_ids, make_plan

    graph = build_graph(board, virtual, snake=True)
    local = local_ids(graph.squares)
    return graph, make_plan(graph, None, local_edges(local, forced), local_edges(local, excluded))


def _groups(layer: Any, engine: str, parts: int) -> list[Any]:
    """The cut layer divided into ``parts`` groups by a hash of each state (one sort of the
    layer, whatever the number of parts: groups beyond the layer's states are empty)."""
    if engine == "c":
        keys, lo, hi = layer
        mixed = (keys ^ (keys >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
        which = (mixed >> np.uint64(32)) % np.uint64(parts)
        order = np.argsort(which, kind="stable")
        bounds = np.searchsorted(which[order], np.arange(parts + 1, dtype=np.uint64))
        return [
            (keys[sel].copy(), lo[sel].copy(), hi[sel].copy())
            for sel in (order[bounds[p] : bounds[p + 1]] for p in range(parts))
        ]
    out: list[dict[tuple[int, ...], int]] = [{} for _ in range(parts)]
    for state, count in layer.items():  # hash() of a tuple of ints is the same in every run
        out[hash(state) % parts][state] = count
    return out


def _layer_size(layer: Any, engine: str) -> int:
    return len(layer[0]) if engine == "c" else len(layer)


def split_count(
    board: Board,
    run: Callable[..., Any],
    engine: str,
    steps: int,
    *,
    name: str,
    virtual: bool,
    forced: tuple[tuple[int, int], ...],
    excluded: tuple[tuple[int, int], ...],
    options: SplitOptions,
    memory: int | None,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
    stats: dict[str, Any],
) -> int:
    """Count in parts (see the module's notes): ``run(first=, initial=, stop=, progress=)``
    runs the program's steps in this process (the prefix); the parts go to the executor.

    ``name`` names the count in the checkpoint (a request may make two counts).
    """
    from ..running.parallel import SerialExecutor

    executor = options.executor if options.executor is not None else SerialExecutor()
    checkpoint = options.checkpoint
    saved = None if checkpoint is None else checkpoint.split_of(name)
    parts = options.parts
    if parts is None:
        parts = saved["parts"] if saved else max(2, _workers(executor))
    cut = options.cut if options.cut is not None else (saved["cut"] if saved else None)
    if cut is not None and not 0 <= cut < steps:
        raise InvalidOptionError(f"invalid cut {cut!r}: expected a step from 0 to {steps - 1}")
    if checkpoint is not None and saved is not None:  # another split is refused before any work
        checkpoint.start(name, {"cut": cut, "parts": parts, "engine": engine})
    began = time.perf_counter()
    chosen = cut is None
    layer, cut = _prefix(run, engine, steps, parts, cut, progress)
    if chosen:
        _check_useful(parts, _layer_size(layer, engine))
    stats["split"] = {"parts": parts, "cut": cut, "cut_states": _layer_size(layer, engine)}
    stats["split"]["prefix_seconds"] = round(time.perf_counter() - began, 3)
    done: dict[int, int] = {}
    groups = _groups(layer, engine, parts)
    del layer
    if checkpoint is not None:  # the parts must be those on file (checkpoint.groups_digest)
        split = {"cut": cut, "parts": parts, "engine": engine}
        done = checkpoint.start(name, split, groups_digest(groups, engine))
        checkpoint.save()  # the split is on file before the first part ends
    resumed = len(done)
    empty = [i for i, group in enumerate(groups) if _layer_size(group, engine) == 0]
    for i in empty:  # an empty group counts 0 here, not as a task
        done.setdefault(i, 0)
    stats["split"]["empty_parts"] = len(empty)
    todo = [i for i in range(parts) if i not in done]
    until = budget.wall_deadline()
    threads = _threads_a_part(executor)
    tasks = [
        _Part(board, virtual, forced, excluded, engine, cut, i, groups[i], memory, until, threads)
        for i in todo
    ]
    del groups
    stats["split"]["resumed"] = resumed
    if options.on_part is not None:
        options.on_part({"parts_done": len(done), "parts": parts})
    peaks: list[int] = []
    layers: list[int] = []
    for _, result in _each(executor, _run_part, tasks):
        if "aborted" in result:
            stats["split"]["done"] = len(done)
            info = dict(result["done"])
            info.update(parts_done=len(done), parts=parts, part=result["index"])
            raise CountAbortedError(
                f"part {result['index'] + 1} of {parts}: {result['aborted']}", info
            )
        done[result["index"]] = result["count"]
        if result.get("peak_bytes") is not None:
            peaks.append(int(result["peak_bytes"]))
            layers.append(int(result.get("max_states") or 0))
        if checkpoint is not None:
            checkpoint.record(name, result["index"], result["count"])
        if options.on_part is not None:
            options.on_part({"parts_done": len(done), "parts": parts})
    if peaks:
        stats["split"]["max_part_peak_bytes"] = max(peaks)
        stats["split"]["max_part_states"] = max(layers)
    return int(sum(done.values()))


def _check_useful(parts: int, states: int) -> None:
    """InvalidOptionError for more ``parts`` than a cut layer of ``states`` states (the
    largest layer of the count, when the automatic cut found none larger) can use
    (:data:`USEFUL_STATES_PER_PART`, :data:`ALWAYS_USEFUL_PARTS`).

    Examples
    --------
    >>> _check_useful(7, 41), _check_useful(3639, 58_224)
    (None, None)
    >>> _check_useful(100_000, 58_224)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --parts 100000: no layer of this count holds more than 58,224 states, 16 a part at least: give --parts 3639 or fewer
    """
    useful = max(ALWAYS_USEFUL_PARTS, states // USEFUL_STATES_PER_PART)
    if parts > useful:
        raise InvalidOptionError(
            f"invalid --parts {parts}: no layer of this count holds more than {states:,} "
            f"states, {USEFUL_STATES_PER_PART} a part at least: give --parts {useful} or fewer"
        )


def _prefix(
    run: Callable[..., Any],
    engine: str,
    steps: int,
    parts: int,
    cut: int | None,
    progress: Callable[[dict[str, Any]], None] | None,
) -> tuple[Any, int]:
    """The layer at the cut step, and the cut (chosen here when None)."""
    if cut is not None:
        return run(first=0, initial=None, stop=cut, progress=progress), cut
    want = max(CUT_STATES, CUT_STATES_PER_PART * parts)
    sizes: list[int] = []

    def watch(info: dict[str, Any]) -> None:
        sizes.append(int(info["states"]))
        if progress is not None:
            progress(info)
        if sizes[-1] >= want and len(sizes) < steps:
            raise _Reached

    try:
        run(first=0, initial=None, stop=steps - 1, progress=watch)
    except _Reached:
        cut = len(sizes)
    else:  # never that large: cut at the largest layer (a small count)
        cut = 1 + max(range(len(sizes)), key=sizes.__getitem__) if sizes else 0
    return run(first=0, initial=None, stop=cut, progress=None), cut


class _Reached(Exception):
    """The prefix reached a layer large enough to cut at."""


def _threads_a_part(executor: Any) -> int | None:
    """The kernel's threads for each part: the cores shared by the parts that run at once on
    this machine (local processes), all of them for parts run one after another, and None
    (each worker's own cores) on a dask cluster."""
    from ..running.parallel import ProcessExecutor, SerialExecutor
    from .compiled import count_threads

    if isinstance(executor, SerialExecutor):
        return count_threads()
    if isinstance(executor, ProcessExecutor):
        return max(1, count_threads() // max(1, _workers(executor)))
    return None


def _workers(executor: Any) -> int:
    """How many parts an executor runs at once (1 when it does not say)."""
    workers = getattr(executor, "workers", None)
    if isinstance(workers, int):
        return workers
    client = getattr(executor, "client", None)
    if client is not None:
        try:
            workers = client.scheduler_info()["workers"].values()
            return max(1, sum(int(w.get("nthreads", 1)) for w in workers))
        except Exception:  # an unusual client: one at a time is always right
            return 1
    return 1


def _each(executor: Any, fn: Callable[[Any], Any], items: list[Any]) -> Iterator[tuple[int, Any]]:
    """``(index, result)`` pairs as the executor finishes them, so that each finished part
    reaches the checkpoint at once.  The executors of :mod:`knightgraph.running.parallel` are
    driven here (their ``map`` returns only at the end); any other executor through its
    ``map``."""
    from ..running.parallel import DaskExecutor, ProcessExecutor, SerialExecutor

    if not items:
        return
    if isinstance(executor, SerialExecutor):
        for i, item in enumerate(items):
            yield i, fn(item)
    elif isinstance(executor, ProcessExecutor):
        from concurrent.futures import as_completed

        pool = executor._get_pool()
        futures = {pool.submit(fn, item): i for i, item in enumerate(items)}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()
    elif isinstance(executor, DaskExecutor):
        import distributed

        dd: Any = distributed  # untyped
        futures = executor.client.map(fn, items, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for future in dd.as_completed(futures):
                yield index[future.key], future.result()
        finally:
            executor.client.cancel([f for f in futures if not f.done()])
    else:
        yield from enumerate(executor.map(fn, items))
