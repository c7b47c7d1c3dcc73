"""Counting knight's tours exactly with a frontier-based dynamic program.

The squares are processed one at a time, column by column across the shorter
side (so the frontier is about ``2 * min(m, n) + 1`` squares wide).  A *state*
records, for every square on the frontier (processed squares that still have
unprocessed neighbours), its degree in the partial tour (0, 2 or 1) and, for
the squares of degree 1, which two of them are the ends of the same path
fragment.  Equal states are merged and their counts added; a state dies as soon
as a square would leave the frontier with degree below 2 or could no longer
reach degree 2, or a cycle would close before the last square.

Open tours are Hamiltonian paths; they are counted as Hamiltonian cycles of
the board plus one virtual square joined to every square (the two edges at
the virtual square mark the ends).  A fixed start forces the edge from the
start to the virtual square; fixed ends force both.

Conventions (as in the OEIS): closed tours are counted as undirected cycles,
``directed = 2 * undirected``; open tours as directed paths, ``directed = 2 *
undirected``.  With ``convention="knuth"`` open tours whose ends are a knight's
move apart (the "closable" ones) are left out.

Two implementations of the same program: compiled C (``knightgraph/_count.c``,
built as the optional extension ``knightgraph._count``: states packed in 64
bits, up to 16 frontier squares; 64-bit counts, started again with 128-bit
ones if a count overflows) and plain Python (exact integers), the reference
the tests compare with, used when the library is missing, the frontier is
wider than 16 squares, a count needs more than 128 bits, or
``KNIGHTGRAPH_KERNELS=python``.  The Python engine also counts the tours
*fixed by a symmetry* (it processes whole orbits of the symmetry at once and
only keeps symmetric edge sets), which gives counts up to symmetry by
Burnside's lemma.

Examples
--------
>>> from knightgraph import count_tours
>>> count_tours(3, 10, closed=True).undirected        # OEIS A070030
16
>>> count_tours(5, 5).directed, count_tours(5, 5, start="a1").directed   # A165134
(1728, 304)
>>> count_tours(6, 6, closed=True).undirected         # A001230
9862
>>> count_symmetric(6, 6, closed=True).classes
1245
"""

from __future__ import annotations

import ctypes
import functools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ._native import load_library, python_only
from .board import KNIGHT, Board, SquareLike, as_board
from .exceptions import (
    BoardTooLargeError,
    InvalidOptionError,
    InvalidSquareError,
    KnightGraphError,
    SearchAbortedError,
)
from .resources import available_memory, require_memory
from .tour import Tour
from .verify import check_closed

if TYPE_CHECKING:
    from .parallel import Executor

__all__ = [
    "CountAbortedError",
    "CountResult",
    "SymmetryCount",
    "count_symmetric",
    "count_tours",
    "enumerate_tours",
    "kernel_available",
]

CONVENTIONS = ("oeis", "knuth")

PLAN_BYTES_PER_SQUARE = 6000
"""What the graph and the plan of a count cost per square (measured: 3.2-4.9 KB), checked
against the free memory before anything is built."""

CLOCK_EVERY = 256
"""States the Python engine handles between two looks at the clock (a few milliseconds)."""


ENUMERATE_BYTES_PER_SQUARE = 1000
"""What :func:`enumerate_tours` holds per square (neighbour lists and bit sets, a tour)."""


class CountAbortedError(SearchAbortedError):
    """A count stopped on its budget (timeout or memory) before it was complete.

    Attributes
    ----------
    done : dict
        How far it got: ``step`` (the step under way, 1-based), ``steps`` (how
        many the program has), ``states_done`` (states of that step's layer
        handled) of ``states`` (states in the layer), ``phase`` (``"graph"``,
        ``"plan"`` or ``"count"``), and ``engine`` and ``seconds`` where known.

    Examples
    --------
    >>> try:
    ...     count_tours(6, 6, closed=True, timeout=0)
    ... except CountAbortedError as err:
    ...     print(err.done["phase"], err.done["step"])
    graph 0
    """

    def __init__(self, message: str, done: dict[str, Any]) -> None:
        super().__init__(message)
        self.done = done


_clock = time.monotonic
"""The clock that deadlines are read on (a module attribute, so that tests can move it)."""


def _timed_out(deadline: float | None) -> bool:
    return deadline is not None and _clock() >= deadline


def _stopped(why: str, done: dict[str, Any]) -> CountAbortedError:
    """The error of a count stopped at ``done`` (see :class:`CountAbortedError`)."""
    phase = done.get("phase", "count")
    if phase == "count":
        where = (f"in step {done['step']:,} of {done['steps']:,} ({done.get('states_done', 0):,} "
                 f"of {done.get('states', 0):,} states of the step done)")  # fmt: skip
    else:
        where = f"while building the {phase} ({done.get('step', 0):,} of {done['steps']:,} squares)"
    return CountAbortedError(f"counting stopped {why} {where}", done)


# --------------------------------------------------------------------------- graph
@dataclass(frozen=True)
class _Graph:
    """The board as a graph on local ids ``0 .. V-1`` in processing order.

    ``squares[i]`` is the flat index of local id ``i``; with ``virtual``, id
    ``V`` is the virtual square joined to every square.
    """

    board: Board
    squares: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]
    virtual: bool

    @property
    def size(self) -> int:
        return len(self.squares)


def _processing_order(board: Board) -> list[int]:
    """Flat indices column by column across the shorter side."""
    m, n = board.m, board.n
    removed = board._removed_index
    if m <= n:
        cells = [r * n + c for c in range(n) for r in range(m)]
    else:
        cells = [r * n + c for r in range(m) for c in range(n)]
    return [i for i in cells if i not in removed]


def _build_graph(board: Board, virtual: bool, deadline: float | None = None) -> _Graph:
    if _timed_out(deadline):
        raise _stopped("at the timeout", {"phase": "graph", "step": 0, "steps": board.num_squares})
    order = _processing_order(board)
    local = {flat: i for i, flat in enumerate(order)}
    table = board.move_table()
    adj: list[tuple[int, ...]] = []
    for done, flat in enumerate(order):
        if done % 4096 == 0 and _timed_out(deadline):
            raise _stopped("at the timeout", {"phase": "graph", "step": done, "steps": len(order)})
        nbrs = sorted(local[int(t)] for t in table[flat] if t >= 0)
        adj.append(tuple(nbrs + ([len(order)] if virtual else [])))
    if virtual:
        adj.append(tuple(range(len(order))))
    return _Graph(board, tuple(order), tuple(adj), virtual)


# ---------------------------------------------------------------- the plan of steps
@dataclass
class _Step:
    """One step of the program: add the squares of ``orbit`` and the chosen edges."""

    before: list[int]  # frontier before the step (sorted local ids)
    orbit: list[int]  # squares added
    choices: list[list[tuple[int, int]]]  # edge sets to try, as pairs of positions in `work`
    keep: list[int]  # positions in `work` that stay on the frontier, in order
    leave: list[int]  # positions that leave (must be full)
    need: list[int]  # positions (in keep order) that must not have degree 0 afterwards
    last: bool


def _plan(
    graph: _Graph,
    perm: Sequence[int] | None,
    forced: frozenset[frozenset[int]],
    excluded: frozenset[frozenset[int]],
    deadline: float | None = None,
) -> list[_Step]:
    """The steps for counting cycles of ``graph`` that are fixed by ``perm`` (None: all).

    About a millisecond a square: the clock is read every 64 orbits.
    """
    total = graph.size + int(graph.virtual)
    g = list(range(total)) if perm is None else list(perm)
    virtual = graph.size if graph.virtual else None
    # Orbits of <g>, ordered by their first square in processing order.
    seen: set[int] = set()
    orbits: list[list[int]] = []
    for v in range(graph.size):
        if v in seen:
            continue
        orbit = [v]
        w = g[v]
        while w != v:
            orbit.append(w)
            w = g[w]
        seen.update(orbit)
        orbits.append(sorted(orbit))
    adj = [
        set(a) - {u for u in a if frozenset((u, v)) in excluded} for v, a in enumerate(graph.adj)
    ]
    processed: set[int] = set() if virtual is None else {virtual}
    frontier: list[int] = [] if virtual is None else [virtual]
    remaining = [len(a) for a in adj]  # edges not yet decided, per square
    steps: list[_Step] = []
    for k, orbit in enumerate(orbits):
        if k % 64 == 0 and _timed_out(deadline):
            raise _stopped("at the timeout", {"phase": "plan", "step": k, "steps": len(orbits)})
        work = frontier + orbit
        where = {v: i for i, v in enumerate(work)}
        members = set(orbit)
        candidates: list[tuple[int, int]] = []
        for v in orbit:
            for u in sorted(adj[v]):
                if (u in processed or (u in members and u > v)) and (
                    frozenset((u, v)) not in [frozenset(e) for e in candidates]
                ):
                    candidates.append((v, u))
        # Group the candidate edges into orbits of <g>.
        edge_orbits: list[list[tuple[int, int]]] = []
        placed: set[frozenset[int]] = set()
        for v, u in candidates:
            e = frozenset((v, u))
            if e in placed:
                continue
            group = []
            a, b = v, u
            while True:
                f = frozenset((a, b))
                if f in placed:
                    break
                placed.add(f)
                group.append((a, b))
                a, b = g[a], g[b]
            edge_orbits.append(group)
        must = [i for i, grp in enumerate(edge_orbits) if any(frozenset(e) in forced for e in grp)]
        choices = []
        for mask in range(1 << len(edge_orbits)):
            if any(not (mask >> i) & 1 for i in must):
                continue
            chosen = [e for i, grp in enumerate(edge_orbits) if (mask >> i) & 1 for e in grp]
            degree: dict[int, int] = {}
            for a, b in chosen:
                degree[a] = degree.get(a, 0) + 1
                degree[b] = degree.get(b, 0) + 1
            if any(d > 2 for d in degree.values()):
                continue
            choices.append([(where[a], where[b]) for a, b in chosen])
        for v, u in candidates:
            remaining[v] -= 1
            remaining[u] -= 1
        processed |= members
        new_frontier = [v for v in work if remaining[v] > 0]
        keep = [where[v] for v in new_frontier]
        leave = [where[v] for v in work if remaining[v] == 0]
        need = [i for i, v in enumerate(new_frontier) if remaining[v] == 1]
        steps.append(
            _Step(list(frontier), list(orbit), choices, keep, leave, need, k == len(orbits) - 1)
        )
        frontier = new_frontier
    return steps


PYTHON_STATE_BYTES = 300
"""About what one state costs the Python engine (a dict entry, a tuple, an int)."""


def _run_python(
    steps: list[_Step],
    *,
    deadline: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    memory: int | None = None,
) -> int:
    """Count the cycles with the plan: the reference implementation (exact integers).

    Stops (:class:`CountAbortedError`) at the deadline, also inside a step (the
    clock is read every :data:`CLOCK_EVERY` states), or when the states would
    need more than ``memory`` bytes (about 300 bytes a state).
    """
    max_states = None if memory is None else memory // PYTHON_STATE_BYTES
    layer: dict[tuple[int, ...], int] = {(): 0} if not steps else {}
    if steps:
        layer = {tuple(0 for _ in steps[0].before): 1}
    fresh = 1 << 30
    for index, step in enumerate(steps):
        out: dict[tuple[int, ...], int] = {}
        grow = len(step.orbit)
        for done, (state, count) in enumerate(layer.items()):
            if done % CLOCK_EVERY == 0 and _timed_out(deadline):
                raise _stopped("at the timeout", {"phase": "count", "step": index + 1,
                                                  "steps": len(steps), "states_done": done,
                                                  "states": len(layer), "engine": "python"})  # fmt: skip
            base = [*state, *([0] * grow)]
            for edges in step.choices:
                work = base.copy()
                closures = 0
                label = fresh
                ok = True
                for a, b in edges:
                    va, vb = work[a], work[b]
                    if va == 1 or vb == 1:
                        ok = False
                        break
                    if va == 0 and vb == 0:
                        label += 1
                        work[a] = work[b] = label
                    elif va == 0:
                        work[a], work[b] = vb, 1
                    elif vb == 0:
                        work[b], work[a] = va, 1
                    elif va == vb:
                        closures += 1
                        work[a] = work[b] = 1
                    else:
                        work[a] = work[b] = 1
                        work[work.index(vb)] = va
                if not ok:
                    continue
                if closures and (not step.last or closures > 1):
                    continue
                if step.last and not closures:
                    continue
                if any(work[p] != 1 for p in step.leave):
                    continue
                kept = [work[p] for p in step.keep]
                if any(kept[i] == 0 for i in step.need):
                    continue
                names: dict[int, int] = {}
                for i, v in enumerate(kept):
                    if v >= 2:
                        kept[i] = names.setdefault(v, len(names) + 2)
                key = tuple(kept)
                out[key] = out.get(key, 0) + count
            if max_states is not None and len(out) > max_states:
                raise _stopped(f"at the memory limit of {memory:,} bytes ({len(out):,} new states "
                               f"at about {PYTHON_STATE_BYTES} bytes each)",
                               {"phase": "count", "step": index + 1, "steps": len(steps),
                                "states_done": done + 1, "states": len(layer),
                                "engine": "python"})  # fmt: skip
        layer = out
        if progress is not None:
            progress({"done": index + 1, "states": len(layer)})
    return layer.get((), 0)


# --------------------------------------------------------------- the compiled kernel
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
        lib.kgc_step.argtypes = [ctypes.c_void_p, i64, i64, i64, array(np.int64),
                                 array(np.int64), i64, array(np.int64), i64, array(np.int64),
                                 i64, i64]  # fmt: skip
        lib.kgc_result.restype = None
        lib.kgc_result.argtypes = [ctypes.c_void_p, array(np.uint64)]
        lib.kgc_peak.restype = i64
        lib.kgc_peak.argtypes = [ctypes.c_void_p]
        lib.kgc_set_deadline.restype = None
        lib.kgc_set_deadline.argtypes = [ctypes.c_void_p, ctypes.c_double]
        lib.kgc_done.restype = i64
        lib.kgc_done.argtypes = [ctypes.c_void_p]
        self.lib = lib


@functools.cache
def _compiled() -> _Kernel | None:
    library = load_library("_count")
    try:
        return None if library is None else _Kernel(library)
    except AttributeError:  # a stale build without some function
        return None


def kernel_available() -> bool:
    """True when the compiled counting kernel is built and not disabled.

    Set ``KNIGHTGRAPH_KERNELS=python`` to force the Python reference.
    """
    return not python_only() and _compiled() is not None


MAX_SLOTS = 16
"""The compiled kernel packs a state into 64 bits: 16 frontier squares of 4 bits."""

_NOMEM, _LIMIT, _INTERNAL = -1, -2, -3
_OVERFLOW = -4  # a count overflowed: start again with 128-bit counts, then in Python
_STOPPED = -5  # the deadline passed inside a step


class _CountOverflow(Exception):
    """A count does not fit in 128 bits: the Python engine takes over."""


def _slot_plan(graph: _Graph, steps: list[_Step]) -> tuple[int, list[tuple[Any, ...]]] | None:
    """Translate a plain plan (one square per step) into fixed slots for the C kernel.

    The new square of a step is held apart during the step and then moves into
    the lowest free slot (freed by the squares that leave at that step, if need
    be), so ``2 * min(m, n) + 1`` frontier squares (plus the virtual one) fit.
    """
    slot_of: dict[int, int] = {}
    free = list(range(MAX_SLOTS))
    if graph.virtual:
        slot_of[graph.size] = free.pop(0)
    width = len(slot_of)
    out = []
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
        out.append((dest, int(v in leave), int(v in needy), *arrays, step.last,
                    bool(step.choices)))  # fmt: skip
    return width, out


def _run_compiled(
    kernel: _Kernel,
    width: int,
    plan: list[tuple[Any, ...]],
    *,
    memory: int,
    deadline: float | None,
    progress: Callable[[dict[str, Any]], None] | None,
    stats: dict[str, Any],
    wide: bool = False,
) -> int:
    """Run the plan in C: 64-bit counts first, 128-bit ones if a count overflows.

    The deadline is handed to the kernel before each step, which reads the
    clock inside the step too (``kgc_set_deadline``).
    """
    lib = kernel.lib
    stats["counts"] = "128-bit" if wide else "64-bit"
    ctx = lib.kgc_new(width, int(memory), int(wide))
    if not ctx:
        raise BoardTooLargeError("counting: cannot allocate the first counting table")
    try:
        states = 1
        for index, step in enumerate(plan):
            dest, vleaves, vneed, cands, forced, leave, need, last, any_choice = step
            if not any_choice:
                return 0
            if deadline is not None:
                lib.kgc_set_deadline(ctx, max(0.0, deadline - time.monotonic()))
            before = states
            states = lib.kgc_step(ctx, dest, vleaves, vneed, cands, forced, len(cands), leave,
                                  len(leave), need, len(need), int(last))  # fmt: skip
            if states == _OVERFLOW and wide:
                raise _CountOverflow
            if states == _OVERFLOW:
                lib.kgc_free(ctx)
                ctx = None
                return _run_compiled(kernel, width, plan, memory=memory, deadline=deadline,
                                     progress=progress, stats=stats, wide=True)  # fmt: skip
            if states < 0:
                stats["peak_bytes"] = int(lib.kgc_peak(ctx))
                done = {"phase": "count", "step": index + 1, "steps": len(plan),
                        "states_done": int(lib.kgc_done(ctx)), "states": int(before),
                        "engine": "c", "peak_bytes": stats["peak_bytes"]}  # fmt: skip
                if states == _STOPPED:
                    raise _stopped("at the timeout", done)
                if states == _LIMIT:
                    raise _stopped(f"at the memory limit of {int(memory):,} bytes", done)
                if states == _NOMEM:
                    raise BoardTooLargeError(
                        f"counting ran out of memory in step {index + 1} of {len(plan)} "
                        f"({stats['peak_bytes']:,} bytes of tables)"
                    )
                raise KnightGraphError(
                    f"internal error: the counting kernel returned {states} in step {index + 1}"
                )
            stats["max_states"] = max(stats.get("max_states", 0), int(states))
            if progress is not None:
                progress({"done": index + 1, "states": int(states)})
        result = np.zeros(2, dtype=np.uint64)
        lib.kgc_result(ctx, result)
        stats["peak_bytes"] = int(lib.kgc_peak(ctx))
        return int(result[0]) | (int(result[1]) << 64)
    finally:
        if ctx is not None:
            lib.kgc_free(ctx)


# ------------------------------------------------------------------------ public API
@dataclass
class CountResult:
    """The number of tours of one kind.

    Attributes
    ----------
    directed : int
        Tours as sequences of squares (each closed or open tour in both directions).
    undirected : int or None
        Tours as sets of moves (cycles, or paths up to reversal); None when a
        start square is fixed.
    """

    board: Board
    closed: bool
    start: int | None
    end: int | None
    directed: int
    undirected: int | None
    convention: str = "oeis"
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph count --format json``."""
        name = self.board.name
        out: dict[str, Any] = {
            "rows": self.board.m,
            "cols": self.board.n,
            "closed": self.closed,
            "start": None if self.start is None else name(self.start),
            "end": None if self.end is None else name(self.end),
            "directed": self.directed,
            "undirected": self.undirected,
            "seconds": round(self.seconds, 6),
        }
        if self.convention != "oeis":
            out["convention"] = self.convention
        if self.board.leaper != KNIGHT:
            out["leaper"] = list(self.board.leaper)
        if self.board.removed:
            out["removed"] = [name(s) for s in sorted(self.board.removed)]
        return out


def _ends(
    board: Board, start: SquareLike | None, end: SquareLike | None
) -> tuple[int | None, int | None]:
    s = None if start is None else board.index(start)
    t = None if end is None else board.index(end)
    if s is not None and s == t and board.num_squares > 1:
        raise InvalidSquareError(
            f"invalid end {board.name(t)}: the start and the end are the same square"
        )
    return s, t


def _count_cycles(
    board: Board,
    *,
    virtual: bool,
    forced: Iterable[tuple[int, int]] = (),
    excluded: Iterable[tuple[int, int]] = (),
    perm: Sequence[int] | None = None,
    engine: str = "auto",
    memory: int | None = None,
    deadline: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    stats: dict[str, Any] | None = None,
) -> int:
    """Hamiltonian cycles of the board (plus the virtual square), with forced and
    excluded edges given as pairs of flat indices (-1 is the virtual square)."""
    stats = {} if stats is None else stats
    if engine not in ("auto", "python", "c"):
        raise InvalidOptionError(f"unknown engine {engine!r}: choose auto, python or c")
    graph = _build_graph(board, virtual, deadline)
    if graph.size + int(virtual) < 3:
        return 0
    local = {flat: i for i, flat in enumerate(graph.squares)}
    local[-1] = graph.size

    def edges(pairs: Iterable[tuple[int, int]]) -> frozenset[frozenset[int]]:
        return frozenset(frozenset((local[a], local[b])) for a, b in pairs)

    local_perm = None
    if perm is not None:
        local_perm = [local[int(perm[flat])] for flat in graph.squares]
        if virtual:
            local_perm.append(graph.size)
    steps = _plan(graph, local_perm, edges(forced), edges(excluded), deadline)
    kernel = _compiled() if engine == "c" or (engine == "auto" and kernel_available()) else None
    if engine == "c" and kernel is None:
        raise InvalidOptionError("the compiled counting kernel is not built")
    if kernel is not None and perm is None:
        slots = _slot_plan(graph, steps)
        if slots is not None:
            stats["engine"] = "c"
            stats["width"] = slots[0]
            budget = memory if memory is not None else available_memory() * 9 // 10
            try:
                return _run_compiled(kernel, slots[0], slots[1], memory=budget,
                                     deadline=deadline, progress=progress, stats=stats)  # fmt: skip
            except _CountOverflow:
                stats["counts"] = "unbounded (python)"
                if engine == "c":
                    raise InvalidOptionError(
                        "the count does not fit in 128 bits: use engine='python'"
                    ) from None
        if engine == "c":
            raise InvalidOptionError(
                f"the frontier of {board!r} is wider than the compiled kernel's {MAX_SLOTS} slots"
            )
    stats["engine"] = "python"
    budget = memory if memory is not None else available_memory() * 8 // 10
    return _run_python(steps, deadline=deadline, progress=progress, memory=budget)


def count_tours(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    convention: str = "oeis",
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    engine: str = "auto",
    memory: int | None = None,
    timeout: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> CountResult:
    """Count the knight's tours of a board exactly.

    Parameters
    ----------
    m, n : int or Board
        The board (``n`` defaults to ``m``); or a :class:`~knightgraph.Board`.
    closed : bool
        Count closed tours (Hamiltonian cycles) instead of open ones (paths).
    start, end : square, optional
        Fix the first and/or the last square.  A closed tour from ``start`` to
        ``end`` ends next to its start: it uses the move ``end``-``start``.
    convention : {"oeis", "knuth"}
        ``"knuth"`` leaves out open tours whose ends are a knight's move apart.
    leaper, removed
        As for :class:`~knightgraph.Board`.
    engine : {"auto", "c", "python"}
        The compiled kernel (when built and the frontier fits 16 squares) or
        the Python reference.
    memory : int, optional
        Bytes the count may use (default: 90 % of the free memory for the
        compiled kernel, 80 % for the Python engine); beyond that it stops
        with :class:`CountAbortedError` (a :class:`~knightgraph.SearchAbortedError`).
    timeout : float, optional
        Seconds; :class:`CountAbortedError` after that, whose ``done`` tells how
        far the count got.  The clock is also read inside the steps of the
        program (every millisecond or so), so a count stops within a few
        milliseconds of its timeout.

    Raises
    ------
    CountAbortedError
        On the timeout or the memory budget.
    BoardTooLargeError
        Before any work when the plan of the board cannot fit in memory (about
        6 KB a square), or when an allocation fails.
    progress : callable, optional
        Called after each step with ``{"done": step, "states": count}``.

    Returns
    -------
    CountResult
        ``directed`` (sequences of squares) and ``undirected`` (None with a fixed
        start or end).

    Examples
    --------
    >>> count_tours(3, 4).directed, count_tours(3, 4).undirected
    (16, 8)
    >>> count_tours(5, 5, start="c3").directed
    64
    >>> count_tours(5, 6, closed=True).undirected     # OEIS A175855
    8
    >>> count_tours(3, 4, convention="knuth").directed
    16
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    if convention not in CONVENTIONS:
        raise InvalidOptionError(f"unknown convention {convention!r}: choose oeis or knuth")
    if convention == "knuth" and closed:
        raise InvalidOptionError("the knuth convention applies to open tours only")
    closed = check_closed(closed)
    _check_budget(engine, memory, timeout)
    s, t = _ends(board, start, end)
    _require_plan_memory(board, "counting the tours of")
    began = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    stats: dict[str, Any] = {}
    kw: dict[str, Any] = dict(engine=engine, memory=memory, deadline=deadline, progress=progress,
                              stats=stats)  # fmt: skip
    try:
        directed, undirected = _count(board, closed, s, t, convention, kw)
    except MemoryError:
        raise BoardTooLargeError(
            f"counting the tours of {board.m}x{board.n} ran out of memory "
            f"(engine {stats.get('engine', '?')}); give a smaller memory= budget to stop cleanly"
        ) from None
    return CountResult(board, closed, s, t, directed, undirected, convention,
                       time.perf_counter() - began, stats)  # fmt: skip


def _check_budget(engine: str, memory: int | None, timeout: float | None) -> None:
    """Check the engine and the budget of a count before any work (InvalidOptionError)."""
    if engine not in ("auto", "python", "c"):
        raise InvalidOptionError(f"unknown engine {engine!r}: choose auto, python or c")
    if memory is not None and (isinstance(memory, bool) or not isinstance(memory, int)
                               or memory < 1):  # fmt: skip
        raise InvalidOptionError(f"invalid memory {memory!r}: expected a whole number >= 1")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                or not 0 <= timeout < float("inf")):  # fmt: skip
        raise InvalidOptionError(f"invalid timeout {timeout!r}: expected seconds >= 0")


def _require_plan_memory(board: Board, what: str) -> None:
    """BoardTooLargeError when the graph and plan of ``board`` cannot fit (before building them)."""
    require_memory(board.num_squares * PLAN_BYTES_PER_SQUARE,
                   f"{what} {board.m}x{board.n} ({board.num_squares:,} squares)")  # fmt: skip


def _count(
    board: Board, closed: bool, s: int | None, t: int | None, convention: str, kw: dict[str, Any]
) -> tuple[int, int | None]:
    """The directed and undirected counts of :func:`count_tours`."""
    size = board.num_squares
    undirected: int | None
    if size == 1:
        directed = 0 if closed else 1
        undirected = None if (s is not None or t is not None) else directed
    elif closed:
        if s is not None and t is not None:
            if t not in _neighbours(board, s):
                directed = 0
            else:
                directed = _count_cycles(board, virtual=False, forced=[(s, t)], **kw)
            undirected = None
        else:
            cycles = _count_cycles(board, virtual=False, **kw)
            directed = 2 * cycles
            undirected = None if (s is not None or t is not None) else cycles
    else:
        ends = [x for x in (s, t) if x is not None]
        forced = [(x, -1) for x in ends]
        excluded = []
        if len(ends) == 2:
            excluded = [(x, -1) for x in range(board.area) if x not in ends and
                        x not in board._removed_index]  # fmt: skip
        if len(ends) == 2 and convention == "knuth" and ends[1] in _neighbours(board, ends[0]):
            directed = 0
        else:
            paths = _count_cycles(board, virtual=True, forced=forced, excluded=excluded, **kw)
            if convention == "knuth" and len(ends) < 2:
                cycles = _count_cycles(board, virtual=False, **kw)
                paths -= (2 if ends else size) * cycles
            directed = paths if ends else 2 * paths
        undirected = None if (s is not None or t is not None) else directed // 2
    return directed, undirected


def _neighbours(board: Board, flat: int) -> set[int]:
    return {int(x) for x in board.move_table()[flat] if x >= 0}


# ------------------------------------------------------------------------- symmetry
@dataclass
class SymmetryCount:
    """Tours up to the board's symmetry group (Burnside's lemma).

    Attributes
    ----------
    total : int
        Undirected tours (cycles, or paths up to reversal).
    fixed : dict
        For each symmetry (named as in :meth:`Board.symmetries`), the number of
        undirected tours it maps onto themselves.
    classes : int
        The number of tours up to symmetry: the mean of ``fixed``.
    """

    board: Board
    closed: bool
    total: int
    fixed: dict[str, int]
    classes: int
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"rows": self.board.m, "cols": self.board.n, "closed": self.closed,
                "undirected": self.total, "fixed": self.fixed, "classes": self.classes,
                "seconds": round(self.seconds, 6)}  # fmt: skip


def count_symmetric(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    timeout: float | None = None,
    executor: Executor | None = None,
) -> SymmetryCount:
    """Count undirected tours up to the board's symmetries, and those each symmetry fixes.

    A tour (a cycle, or a path up to reversal) is fixed by a symmetry when the
    symmetry maps its set of moves onto itself.  By Burnside's lemma the number
    of classes is the mean of the fixed counts over the group.  The count for
    each symmetry is an independent program (the identity's is the plain count;
    the others only keep edge sets the symmetry maps onto themselves, which
    prunes hard), so an ``executor`` (see :mod:`knightgraph.parallel`) can run
    them side by side.  ``timeout`` bounds them all together (one deadline,
    read on the wall clock by every worker): past it, :class:`CountAbortedError`.

    Examples
    --------
    >>> r = count_symmetric(5, 6, closed=True)
    >>> r.total, r.classes, r.fixed["identity"]
    (8, 3, 8)
    >>> count_symmetric(3, 4).fixed
    {'identity': 8, 'rot180': 4, 'flip_ranks': 0, 'flip_files': 0}
    """
    from .parallel import SerialExecutor

    board = as_board(m, n, leaper=leaper, removed=removed)
    closed = check_closed(closed)
    _check_budget("auto", None, timeout)
    _require_plan_memory(board, "counting the tours up to symmetry of")
    began = time.perf_counter()
    wall_deadline = None if timeout is None else time.time() + timeout
    symmetries = board.symmetries()
    tasks = [(board, closed, name, perm.tolist(), wall_deadline)
             for name, perm in symmetries.items()]  # fmt: skip
    try:
        numbers = (executor or SerialExecutor()).map(_fixed_count, tasks)
    except MemoryError:
        raise BoardTooLargeError(
            f"counting the tours up to symmetry of {board.m}x{board.n} ran out of memory"
        ) from None
    fixed = dict(zip(symmetries, numbers, strict=True))
    total = fixed["identity"]
    classes, rest = divmod(sum(fixed.values()), len(fixed))
    if rest:  # pragma: no cover - Burnside guarantees a whole number
        raise AssertionError(f"Burnside sum {sum(fixed.values())} not divisible by {len(fixed)}")
    return SymmetryCount(board, closed, total, fixed, classes, time.perf_counter() - began)


def _fixed_count(task: tuple[Board, bool, str, list[int], float | None]) -> int:
    """Undirected tours fixed by one symmetry (a picklable piece of :func:`count_symmetric`);
    the deadline is a time of day (:func:`time.time`), the same for every worker."""
    board, closed, name, perm, wall_deadline = task
    if board.num_squares == 1:
        return 0 if closed else 1
    deadline = None if wall_deadline is None else time.monotonic() + (wall_deadline - time.time())
    if name == "identity":
        return _count_cycles(board, virtual=not closed, deadline=deadline)
    return _count_cycles(board, virtual=not closed, perm=perm, engine="python", deadline=deadline)


# ---------------------------------------------------------------------- enumeration
def enumerate_tours(
    m: int | Board,
    n: int | None = None,
    *,
    closed: bool = False,
    start: SquareLike | None = None,
    end: SquareLike | None = None,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    limit: int | None = None,
) -> Iterator[Tour]:
    """Yield tours one by one (verified :class:`~knightgraph.Tour` objects), up to ``limit``.

    Closed tours are yielded once per undirected cycle, starting at ``start``
    (or the first square in flat-index order); open tours once per directed
    path, as counted by :func:`count_tours`.  Depth-first search (fewest
    onward moves first) with two cuts (an unvisited square with too few free
    neighbours, and squares the path can no longer reach): quick for the first
    tours of boards up to about 10 x 10, and for all the tours of boards that
    have up to some 10^5 of them.

    Examples
    --------
    >>> for tour in enumerate_tours(3, 4, start="a1"):
    ...     print(" ".join(tour.algebraic()))
    a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2
    a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3
    >>> sum(1 for _ in enumerate_tours(5, 6, closed=True))
    8
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    closed = check_closed(closed)
    s, t = _ends(board, start, end)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InvalidOptionError(f"invalid limit {limit!r}: expected a whole number >= 0")
    require_memory(board.num_squares * ENUMERATE_BYTES_PER_SQUARE,
                   f"listing the tours of {board.m}x{board.n} ({board.num_squares:,} squares)")  # fmt: skip
    return _enumerate(board, closed, s, t, limit)


def _enumerate(
    board: Board, closed: bool, s: int | None, t: int | None, limit: int | None
) -> Iterator[Tour]:
    """The generator of :func:`enumerate_tours` (its checks run at the call, not at the first
    tour)."""
    size = board.num_squares
    if limit is not None and limit <= 0:
        return
    table = board.move_table()
    nbrs = {i: [int(x) for x in table[i] if x >= 0] for i in range(board.area)
            if i not in board._removed_index}  # fmt: skip
    squares = sorted(nbrs)
    if closed and s is None and t is not None:
        s, t = t, None  # rotate: a closed tour ending at t, listed from t's successor
        flip_end = True
    else:
        flip_end = False
    produced = 0
    runs: list[tuple[int, int | None]] = []  # (first square, last square) of the searches
    if not closed:
        runs = [(first, t) for first in ([s] if s is not None else squares)]
    elif size >= 3:
        # A closed tour is an open one from `first` to a neighbour of `first`.
        first = s if s is not None else squares[0]
        runs = [(first, q) for q in nbrs[first] if t is None or q == t]
    for first, last in runs:
        for order in _dfs_tours(nbrs, size, first, last, False):
            if closed and t is None and order[1] > order[-1]:
                continue  # each cycle once: the orientation with the smaller second square
            if flip_end:
                order = order[1:] + order[:1]
            yield Tour(board, np.array(order, dtype=np.int64), closed)
            produced += 1
            if limit is not None and produced >= limit:
                return


def _dfs_tours(
    nbrs: dict[int, list[int]], size: int, first: int, last: int | None, closed: bool
) -> Iterator[list[int]]:
    """Depth-first search over bit sets, fewest onward moves first, with two cuts: every unvisited
    square keeps enough free neighbours (two, or one for the square that may end the
    tour), and the unvisited squares stay connected to the head."""
    if size == 1:
        if not closed and last in (None, first):
            yield [first]
        return
    nb = {v: sum(1 << u for u in us) for v, us in nbrs.items()}
    start_bit = 1 << first
    path = [first]

    def alive(head: int, unvisited: int) -> bool:
        if closed and not nb[first] & unvisited:
            return False  # no square is left to close the tour on
        reach = nb[head] & unvisited
        ends = 0
        rest = unvisited
        while rest:
            low = rest & -rest
            rest ^= low
            u = low.bit_length() - 1
            links = (nb[u] & unvisited).bit_count() + ((nb[u] >> head) & 1)
            if closed:
                links += (nb[u] >> first) & 1
            if links >= 2:
                continue
            if links == 0 or closed or (last is not None and u != last):
                return False
            ends += 1
            if ends > 1:
                return False
        # connectivity: flood from the head's unvisited neighbours
        seen = reach
        while reach:
            grow = 0
            while reach:
                low = reach & -reach
                reach ^= low
                grow |= nb[low.bit_length() - 1]
            reach = grow & unvisited & ~seen
            seen |= reach
        return seen == unvisited

    def children(v: int, unvisited: int) -> Iterator[tuple[int, int]]:
        """The next squares from ``v`` worth trying, with what stays unvisited after each."""
        # Fewest onward moves first (Warnsdorff's rule): the first tours come quickly.
        options = sorted((nb[u] & unvisited).bit_count() * 64 + i
                         for i, u in enumerate(nbrs[v]) if unvisited >> u & 1)  # fmt: skip
        for key in options:
            u = nbrs[v][key % 64]
            bit = 1 << u
            if u == last and unvisited != bit:
                continue
            rest = unvisited ^ bit
            if rest and not alive(u, rest):
                continue
            yield u, rest

    # Depth-first with an explicit stack (a path of thousands of squares is deeper than
    # Python's recursion limit): stack[i] holds the untried children of path[i].
    everything = sum(1 << v for v in nbrs)
    stack = [children(first, everything ^ start_bit)]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            path.pop()
            continue
        u, rest = step
        path.append(u)
        if rest:
            stack.append(children(u, rest))
            continue
        if (last is None or u == last) and (not closed or nb[u] & start_bit):
            yield list(path)
        path.pop()
