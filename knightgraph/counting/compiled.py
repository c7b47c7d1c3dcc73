"""The compiled engine: the ctypes binding of ``knightgraph/_count.c`` and how a plan is
handed to it.

The C file is built as the optional extension ``knightgraph._count`` (found by
:func:`knightgraph.running.native.load_library`).  It packs a state in 64 bits, up to 18
frontier squares (:data:`MAX_SLOTS`) two at a time in 7 bits, and counts with 64-bit integers,
started again with 128-bit ones if a count overflows; past that the Python engine
takes over.  A plan runs here only when it adds one square a step (no symmetry) and
its frontier fits the slots (``slot_plan``).
"""

from __future__ import annotations

import ctypes
import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import BoardTooLargeError, KnightGraphError
from ..running.budget import Budget
from ..running.native import load_library, python_only
from ..running.workers import cpu_count
from .estimate import LARGE_ENTRIES
from .limits import stopped_error
from .residues import count_bound_bits, moduli

if TYPE_CHECKING:
    from .plan import PlanGraph, PlanStep


class _Kernel:
    """ctypes binding of ``knightgraph/_count.c``."""

    def __init__(self, library: ctypes.CDLL) -> None:
        def array(dtype: Any) -> Any:
            return np.ctypeslib.ndpointer(dtype=dtype, flags="C_CONTIGUOUS")

        i64 = ctypes.c_int64
        lib = library
        lib.kgc_new.restype = ctypes.c_void_p
        lib.kgc_new.argtypes = [i64, i64, i64]
        lib.kgc_free.restype = None
        lib.kgc_free.argtypes = [ctypes.c_void_p]
        lib.kgc_step.restype = i64
        ptr, ints = ctypes.c_void_p, array(np.int64)
        # kgc_step(ctx, dest, vleaves, vneed, cands, forced, nc, leave, nl, need, nn, last)
        lib.kgc_step.argtypes = [ptr, i64, i64, i64, ints, ints, i64, ints, i64, ints, i64, i64]
        lib.kgc_result.restype = None
        lib.kgc_result.argtypes = [ctypes.c_void_p, array(np.uint64)]
        lib.kgc_peak.restype = i64
        lib.kgc_peak.argtypes = [ctypes.c_void_p]
        lib.kgc_set_deadline.restype = None
        lib.kgc_set_deadline.argtypes = [ctypes.c_void_p, ctypes.c_double]
        lib.kgc_done.restype = i64
        lib.kgc_done.argtypes = [ctypes.c_void_p]
        lib.kgc_size.restype = i64
        lib.kgc_size.argtypes = [ctypes.c_void_p]
        words = array(np.uint64)
        lib.kgc_export.restype = None
        high = ctypes.c_void_p  # a layer's high words: None when every count fits 64 bits
        lib.kgc_export.argtypes = [ctypes.c_void_p, words, words, high]
        lib.kgc_load.restype = i64
        lib.kgc_load.argtypes = [ctypes.c_void_p, i64, words, words, high]
        lib.kgc_mirror.restype = None
        lib.kgc_mirror.argtypes = [ctypes.c_void_p, ints]
        lib.kgc_threads.restype = None
        lib.kgc_threads.argtypes = [ctypes.c_void_p, i64]
        lib.kgc_large.restype = None
        lib.kgc_large.argtypes = [ctypes.c_void_p, i64]
        lib.kgc_modulus.restype = None
        lib.kgc_modulus.argtypes = [ctypes.c_void_p, i64]
        lib.kgc_want.restype = None
        lib.kgc_want.argtypes = [ctypes.c_void_p, i64, ints]
        lib.kgc_images.restype = None
        lib.kgc_images.argtypes = [i64, ints, i64, words, words]
        lib.kgc_join.restype = i64
        # kgc_join(w, nl, lkeys, lcounts, lslots, lpos, nr, rkeys, rcounts, rslots, rpos,
        #          rperm, nq, qpos, qwant, threads, seconds, out)
        lib.kgc_join.argtypes = [i64, i64, words, words, i64, ints, i64, words, words, i64]
        lib.kgc_join.argtypes += [ints, ctypes.c_void_p, i64, ints, ints, i64, ctypes.c_double]
        lib.kgc_join.argtypes += [words]
        self.lib = lib


@functools.cache
def compiled_kernel() -> _Kernel | None:
    library = load_library("_count")
    try:
        return None if library is None else _Kernel(library)
    except AttributeError:  # a stale build without some function
        return None


def kernel_available() -> bool:
    """True when the compiled counting kernel is built and not disabled.

    Set ``KNIGHTGRAPH_KERNELS=python`` to force the Python reference.

    Examples
    --------
    Either engine gives the same counts; the result names the one that ran:

    >>> from knightgraph import count_tours
    >>> r = count_tours(5, 6, closed=True)
    >>> r.undirected, r.stats["engine"] == ("c" if kernel_available() else "python")
    (8, True)
    """
    return not python_only() and compiled_kernel() is not None


MAX_SLOTS = 18
"""The compiled kernel packs a state into 64 bits: up to 18 frontier squares, two at a time
in 7 bits (11 values a square: 0, full, and 9 fragment labels)."""

MAX_CANDIDATES = 16
"""The most frontier neighbours a new square may have in the compiled kernel (its table of
edge subsets holds 1 + 16 + 120); a plan with more runs in Python."""

_NOMEM, _LIMIT, _INTERNAL = -1, -2, -3
_OVERFLOW = -4  # a count overflowed: start again with 128-bit counts, then in Python
_STOPPED = -5  # the deadline passed inside a step


class CountOverflow(Exception):
    """A count does not fit in 128 bits (kept for callers that stop there)."""


def mirror_ids(graph: PlanGraph) -> list[int] | None:
    """The mirror image of each square (local ids; the virtual square is its own) across the
    axis the columns of the processing order run along, or None when the board is not
    symmetric (removed squares)."""
    board = graph.board.rectangle
    if board is None:  # a graph board: no columns to mirror
        return None
    m, n = board.m, board.n
    local = {flat: i for i, flat in enumerate(graph.squares)}
    out = []
    for flat in graph.squares:
        r, c = divmod(flat, n)
        image = (m - 1 - r) * n + c if m <= n else r * n + (n - 1 - c)
        if image not in local:
            return None
        out.append(local[image])
    return out + graph.virtual_ids


def slot_plan(
    graph: PlanGraph,
    steps: list[PlanStep],
    mirror: list[int] | None = None,
    slots: dict[int, int] | None = None,
) -> tuple[int, list[tuple[Any, ...]]] | None:
    """Translate a plain plan (one square per step) into fixed slots for the C kernel.

    The new square of a step is held apart during the step and then moves into
    the lowest free slot (freed by the squares that leave at that step, if need
    be), so ``2 * min(m, n) + 1`` frontier squares (plus the virtual one) fit.
    With ``mirror`` (:func:`mirror_ids`; only for counts without forced or excluded
    edges), each step after which the squares done are symmetric (the end of a
    column) also carries the permutation of the slots that the mirror makes: the
    kernel then merges each state with its image (``kgc_mirror``).  ``slots``, if given,
    receives the slot of each square on the frontier after the last step (local ids).
    """
    free = list(range(MAX_SLOTS))
    slot_of = {v: free.pop(0) for v in graph.virtual_ids}
    width = len(slot_of)
    out = []
    images: list[dict[int, int] | None] = []
    reach = -1  # the largest mirror image of the squares done so far
    for step in steps:
        if len(step.orbit) != 1:
            return None
        (v,) = step.orbit
        work = [*step.before, v]
        pos = len(work) - 1
        # The kernel enumerates the edge sets itself: pass the candidate neighbours
        # and which of them are forced (in every choice).
        cands: list[int] = []
        for edges in step.choices:
            for a, b in edges:
                other = work[b if a == pos else a]
                if other not in cands:
                    cands.append(other)
        if len(cands) > MAX_CANDIDATES:  # a vertex of higher degree (a torus, a 3-D board)
            return None
        chosen = [{work[b if a == pos else a] for a, b in edges} for edges in step.choices]
        forced = [int(all(u in c for c in chosen)) for u in cands]
        leave = [work[p] for p in step.leave]
        kept = [work[p] for p in step.keep]
        needy = [kept[i] for i in step.need]
        leave_slots = [slot_of[u] for u in leave if u != v]
        need_slots = [slot_of[u] for u in needy if u != v]
        cand_slots = [slot_of[u] for u in cands]
        for u in leave:
            if u != v:
                free.append(slot_of.pop(u))
        free.sort()
        dest = -1
        if v not in leave:
            if not free:
                return None
            dest = free.pop(0)
            slot_of[v] = dest
        width = max([width, *(x + 1 for x in slot_of.values())])
        arrays = [
            np.array(x, dtype=np.int64) for x in (cand_slots, forced, leave_slots, need_slots)
        ]
        out.append((dest, int(v in leave), int(v in needy), *arrays, step.last, bool(step.choices)))
        image = None
        if mirror is not None:
            reach = max(reach, mirror[v])
            if reach <= v and not step.last and all(mirror[u] in slot_of for u in slot_of):
                image = {slot_of[u]: slot_of[mirror[u]] for u in slot_of}
        images.append(image)
    for index, image in enumerate(images):
        if image is not None:
            perm = list(range(width))
            for a, b in image.items():
                perm[a] = b
            out[index] = (*out[index], np.array(perm, dtype=np.int64))
    if slots is not None:
        slots.update(slot_of)
    return width, out


def count_threads() -> int:
    """How many threads a step of the compiled kernel may use: ``KNIGHTGRAPH_COUNT_THREADS``,
    or the cores this process may run on (the kernel runs layers of 65,536 states or more
    on them; the counts are the same for any number).

    Examples
    --------
    >>> count_threads() >= 1
    True
    """
    import os

    value = os.environ.get("KNIGHTGRAPH_COUNT_THREADS", "").strip()
    threads = int(value) if value.isdigit() and int(value) >= 1 else cpu_count()
    return min(threads, 8)


def kernel_overhead() -> int:
    """Bytes the kernel holds beside its tables: each thread's buffer of successors, 2^21
    entries of 24 bytes, and as much again sorted (:func:`count_threads` threads).

    Examples
    --------
    >>> kernel_overhead() % (96 * 2**20)
    0
    """
    return count_threads() * 2 * 2**21 * 24


Layer = tuple[Any, Any, Any]
"""A layer of states exported from the kernel: ``(keys, lo, hi)``, three uint64 arrays (the
count of ``keys[i]`` is ``hi[i] * 2**64 + lo[i]``)."""


def run_compiled(
    kernel: _Kernel,
    width: int,
    plan: list[tuple[Any, ...]],
    *,
    memory: int,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
    stats: dict[str, Any],
    wide: bool = False,
    first: int = 0,
    initial: Layer | None = None,
    stop: int | None = None,
    threads: int | None = None,
    modulus: int = 0,
    wants: dict[int, list[tuple[int, int, int]]] | None = None,
) -> Any:
    """Run the plan in C: 64-bit counts first, 128-bit ones if a count overflows.

    The deadline is handed to the kernel before each step, which reads the
    clock inside the step too (``kgc_set_deadline``).  A split count runs a
    range of the steps: from step ``first`` (``initial``: the layer there,
    exported by an earlier run) up to ``stop``, where it returns the layer
    (:data:`Layer`) instead of the count.  A step may run on ``threads`` threads (None:
    :func:`count_threads`).  With a ``modulus`` (a prime below 2^62) the counts are taken
    modulo it; a count that overflows 128 bits is found modulo enough primes
    (:func:`moduli`, :func:`count_bound_bits`) and put together by the Chinese remainder
    theorem (:func:`_by_residues`), on the kernel, where it once fell to the Python engine.
    ``wants`` maps a step to the squares of a part fixed so far, the new one last, as
    ``(slot, degree, degree)``: the degrees of the part's two vectors (``kgc_want``; the
    parts of a count in the middle, :mod:`.middle`).
    """
    lib = kernel.lib
    stats["counts"] = "128-bit" if wide else "64-bit"
    ctx = lib.kgc_new(width, int(memory), int(wide))
    if not ctx:
        raise BoardTooLargeError("counting: cannot allocate the first counting table")
    threads = count_threads() if threads is None else threads
    lib.kgc_threads(ctx, threads)
    lib.kgc_large(ctx, LARGE_ENTRIES)
    stats["threads"] = threads
    if modulus:
        lib.kgc_modulus(ctx, modulus)
    again: dict[str, Any] = dict(memory=memory, budget=budget, progress=progress)
    again.update(stats=stats, wide=True)
    again.update(first=first, initial=initial, stop=stop, threads=threads, wants=wants)
    try:
        states = 1
        if initial is not None:
            keys, lo, hi = initial if not modulus else _reduced(initial, modulus)
            hi = None if hi.strides == (0,) else np.ascontiguousarray(hi, dtype=np.uint64)
            states = lib.kgc_load(ctx, len(keys), keys, lo, None if hi is None else hi.ctypes.data)
            if states == _OVERFLOW and not wide:
                lib.kgc_free(ctx)
                ctx = None
                return run_compiled(kernel, width, plan, **again)
            if states < 0:
                raise BoardTooLargeError(
                    f"counting: cannot load the {len(keys):,} states of a part ({states})"
                )
        end = len(plan) if stop is None else stop
        for index in range(first, end):
            step = plan[index]
            dest, vleaves, vneed, cands, forced, leave, need, last, any_choice = step[:9]
            if not any_choice:
                return 0 if stop is None else _layer(lib, None)
            left = budget.remaining()
            if left is not None:
                lib.kgc_set_deadline(ctx, left)
            before = states
            arrays = (cands, forced, len(cands), leave, len(leave), need, len(need), int(last))
            if len(step) > 9:  # the end of a column: merge mirror images
                lib.kgc_mirror(ctx, step[9])
            if wants and index in wants:
                fix = np.array(wants[index], dtype=np.int64).ravel()
                lib.kgc_want(ctx, len(wants[index]), fix)
            states = lib.kgc_step(ctx, dest, vleaves, vneed, *arrays)
            if states == _OVERFLOW and wide:
                lib.kgc_free(ctx)
                ctx = None
                del again["wide"]
                return _by_residues(kernel, width, plan, again)
            if states == _OVERFLOW:
                lib.kgc_free(ctx)
                ctx = None
                return run_compiled(kernel, width, plan, **again)
            if states < 0:
                _failed(lib, ctx, states, index, len(plan), before, memory, stats)
            stats["max_states"] = max(stats.get("max_states", 0), int(states))
            if progress is not None:
                progress({"done": index + 1, "states": int(states)})
        stats["peak_bytes"] = int(lib.kgc_peak(ctx))
        if stop is not None:
            return _layer(lib, ctx, wide)
        result = np.zeros(2, dtype=np.uint64)
        lib.kgc_result(ctx, result)
        return int(result[0]) | (int(result[1]) << 64)
    finally:
        if ctx is not None:
            lib.kgc_free(ctx)


Side = tuple[Any, Any, int, Any]
"""One half of a count in the middle for :func:`run_join`: its layer's keys and 64-bit
counts, its slot width, and the separator position of each slot (-1: none)."""


def run_join(
    kernel: _Kernel,
    size: int,
    left: Side,
    right: Side,
    *,
    mirror: Any,
    query: tuple[list[int], list[int]],
    budget: Budget,
) -> tuple[int, int]:
    """The tours made of a left and a right layer that meet on a separator of ``size``
    squares (``kgc_join``; :mod:`.middle`), and the pairs of states walked.  ``mirror``
    (None: none): the right layer holds mirror classes, and this permutes its slots;
    ``query``: separator positions and two vectors of right degrees there, one after the
    other (only the right states with one of them count).  Stops at the budget's deadline
    (:class:`~knightgraph.counting.limits.CountAbortedError`, phase ``"join"``)."""
    out = np.zeros(3, dtype=np.uint64)
    seconds = budget.remaining()
    positions, wanted = (np.array(x or [0], dtype=np.int64) for x in query)
    pairs = kernel.lib.kgc_join(
        size, len(left[0]), *left, len(right[0]), *right,
        None if mirror is None else mirror.ctypes.data, len(query[0]), positions, wanted,
        count_threads(), 0.0 if seconds is None else max(seconds, 1e-3), out,
    )  # fmt: skip
    if pairs == _STOPPED:
        raise stopped_error("at the timeout", {"phase": "join", "engine": "c"})
    if pairs == _NOMEM:
        raise BoardTooLargeError("counting: cannot allocate the join of the two halves")
    if pairs < 0:
        raise KnightGraphError(f"internal error: the join of the two halves returned {pairs}")
    return int(out[0]) | int(out[1]) << 64 | int(out[2]) << 128, int(pairs)


def _counts(layer: Layer) -> list[int]:
    """A layer's counts as Python integers (``hi * 2**64 + lo``)."""
    _, lo, hi = layer
    return [int(a) | (int(b) << 64) for a, b in zip(lo.tolist(), hi.tolist(), strict=True)]


def _reduced(layer: Layer, modulus: int) -> Layer:
    """A layer's counts modulo ``modulus`` (each below it, in ``lo``)."""
    counts = [count % modulus for count in _counts(layer)]
    return layer[0], np.array(counts, dtype=np.uint64), np.zeros(len(counts), dtype=np.uint64)


def _by_residues(
    kernel: _Kernel, width: int, plan: list[tuple[Any, ...]], kw: dict[str, Any]
) -> Any:
    """A count too large for 128 bits: the program run again modulo primes below 2^62 until
    their product passes twice the bound of :func:`count_bound_bits`; the count is the one
    number below the product with those residues (Chinese remainder theorem).  A part's
    layer (``stop``) cannot be put together this way: it stays with 128-bit counts, and a
    count that passes them there is refused (:class:`CountOverflow`)."""
    if kw.get("stop") is not None:
        raise CountOverflow
    stats = kw["stats"]
    initial, first = kw.get("initial"), kw.get("first", 0)
    start = 1 if initial is None else sum(_counts(initial))
    bits = count_bound_bits(plan, first, start) + 1
    value, product, primes = 0, 1, 0
    for prime in moduli():
        residue = run_compiled(kernel, width, plan, **{**kw, "modulus": prime})
        # x = value (mod product) and x = residue (mod prime): x = value + product * t
        t = (residue - value) * pow(product, -1, prime) % prime
        value, product, primes = value + product * t, product * prime, primes + 1
        if math.log2(product) > bits:
            break
    stats["counts"] = f"modulo {primes} primes (Chinese remainder theorem)"
    return value


def _layer(lib: Any, ctx: Any, wide: bool = True) -> Layer:
    """The current layer of the kernel ``ctx`` (None: an empty layer); without ``wide``
    counts its high words are a read-only view of zeros that takes no memory."""
    size = 0 if ctx is None else int(lib.kgc_size(ctx))
    keys, lo = (np.zeros(size, dtype=np.uint64) for _ in range(2))
    hi = np.zeros(size, dtype=np.uint64) if wide else np.broadcast_to(np.uint64(0), (size,))
    if size:
        lib.kgc_export(ctx, keys, lo, hi.ctypes.data if wide else None)
    return keys, lo, hi


def _failed(
    lib: Any,
    ctx: Any,
    code: int,
    index: int,
    steps: int,
    before: int,
    memory: int,
    stats: dict[str, Any],
) -> None:
    """Raise the error of a step that failed with ``code``."""
    stats["peak_bytes"] = int(lib.kgc_peak(ctx))
    done = {
        "phase": "count",
        "step": index + 1,
        "steps": steps,
        "states_done": int(lib.kgc_done(ctx)),
        "states": int(before),
        "engine": "c",
        "peak_bytes": stats["peak_bytes"],
    }
    if code == _STOPPED:
        raise stopped_error("at the timeout", done)
    if code == _LIMIT:
        done["limit"] = "memory"
        raise stopped_error(f"at the memory limit of {int(memory):,} bytes", done)
    if code == _NOMEM:
        raise BoardTooLargeError(
            f"counting ran out of memory in step {index + 1} of {steps} "
            f"({stats['peak_bytes']:,} bytes of tables)"
        )
    raise KnightGraphError(
        f"internal error: the counting kernel returned {code} in step {index + 1}"
    )
