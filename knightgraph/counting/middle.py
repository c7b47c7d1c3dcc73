"""Counts that meet in the middle (issue 26): each half of a long rectangle counted up to a
separator of two lines, and the two halves joined there (McKay's idea for 8 x 8).

The board is read line by line along its longer side, as the frontier program reads it
(:mod:`.plan`); with ``N`` lines and ``k = N // 2``, the *separator* is the lines ``k - 1``
and ``k``.  A knight's move spans at most two lines, so every edge of a tour either
touches a square of the lines ``0 .. k - 2`` (the *left* edges) or does not (the *right*
edges: those touching the lines ``k + 1 ..``, those inside the separator, and the virtual
square's edges to the separator).

- The left program is the frontier program on the lines ``0 .. k`` with the right edges
  inside them *deferred* (:func:`~knightgraph.counting.plan.make_plan`: never chosen,
  still open): its layer after line ``k`` gives each separator square its left degree.
- The right program is the ordinary program of the board seen from its other end, run
  up to the same separator (the lines ``N - 1 .. k - 1``): it decides exactly the right
  edges.
- A tour is a left state and a right state whose degrees add up to 2 on every separator
  square and whose two pairings of fragment ends close into one cycle: the kernel's
  :func:`kgc_join` (``_count_join.h``) adds ``left count * right count`` over all such pairs.

Notes
-----
Why it is exact: the left and right edges partition the edges, so a Hamiltonian cycle is
one left edge set and one right edge set; the left one is a set of paths that covers the
left squares (every square that leaves the left program has degree 2, none closes a cycle)
and the program's state is its trace on the separator (degrees, and which ends are joined);
the same holds on the right.  The union is one cycle exactly when the degrees add up to 2
and the pairings, alternated, make one cycle through all the ends.  Both programs merge
mirror images at line ends (:func:`~knightgraph.counting.compiled.mirror_ids`); the left
layer is used as it is (a class's count, against the right states, counts both of its
states: the joins of a state and of its image with the mirrored right layer are equal) and
the right layer's classes are taken apart in the join (each state gets half of the class's
count, which is even: the two states are as many).

What it buys: neither program goes past the separator, where the ordinary program's layers
are largest (they grow until about two thirds of the board).  Measured on this machine with
the compiled kernel (largest layer of the ordinary count -> the right program's; states
summed over all steps): 7 x 8 closed 6,450,386 -> 2,854,520, 64.3 M -> 14.4 M; 6 x 8 open
3,512,909 -> 1,509,933, 35.6 M -> 12.2 M; 7 x 8 open 67.3 M -> 33.6 M, 713 M -> 247 M;
8 x 8 closed 221.4 M -> 94.8 M (12 min 22 s and 6.8 GiB -> 4 min 15 s and 3.8 GiB for
``knightgraph count 8 8 --closed``, the join 150 s of it).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..boards.board import KNIGHT, Board
from ..exceptions import KnightGraphError
from ..running.budget import Budget
from .checkpoint import Checkpoint
from .limits import stopped_error

MIN_LINES = 6
"""Boards of fewer lines along their longer side are counted in one program."""


@dataclass(frozen=True)
class Half:
    """One half's program in the compiled kernel's slots: its plan (up to the separator),
    its slot width, and the separator position of each slot (-1: no square)."""

    width: int
    plan: list[tuple[Any, ...]]
    positions: np.ndarray
    mirror: np.ndarray | None  # the slot permutation of the last step's mirror merge
    prefix: int  # the steps before the first square of the line k - 1
    adds: dict[int, int]  # the step that adds each square of the line k - 1 (local ids)
    places: dict[int, int]  # the separator position of each square (local ids, both halves)


def eligible(board: Board) -> bool:
    """True when a count of cycles on ``board`` can meet in the middle: a knight's rectangle
    without removed squares, at least :data:`MIN_LINES` lines long.

    Examples
    --------
    >>> eligible(Board(8, 8)), eligible(Board(5, 5))
    (True, False)
    """
    return board.leaper == KNIGHT and not board.removed and max(board.m, board.n) >= MIN_LINES


MIDDLE_FROM = 1 << 21
"""Counts whose largest layer in one program is estimated at this many states or more
(:func:`~knightgraph.counting.estimate.peak_states`) meet in the middle when the board
allows it (:func:`eligible`); smaller ones run in one program, as before."""


def meets_in_the_middle(board: Any, closed: bool, ends: bool = False) -> bool:
    """True when a count of ``board``'s tours meets in the middle: a large enough knight's
    rectangle (:func:`eligible`, :data:`MIDDLE_FROM`), no end fixed (``ends``), and the
    compiled kernel.  The one rule for ``count_tours`` and the ``count`` command's note.

    Examples
    --------
    >>> from knightgraph.counting.compiled import kernel_available
    >>> meets_in_the_middle(Board(8, 8), True) == kernel_available()
    True
    >>> meets_in_the_middle(Board(6, 8), True), meets_in_the_middle(Board(8, 8), True, ends=True)
    (False, False)
    """
    from .compiled import kernel_available
    from .estimate import OPEN_FACTOR, peak_states

    if ends or board.rectangle is not board or not eligible(board):
        return False
    size = peak_states(board.m, board.n) * (1 if closed else OPEN_FACTOR)
    return size >= MIDDLE_FROM and kernel_available()


def halves(board: Board, virtual: bool) -> tuple[Half, Half, int] | None:
    """The two programs of a count in the middle and the separator's size (squares, the
    virtual one included), or None when a frontier does not fit the kernel's slots."""
    from .compiled import mirror_ids, slot_plan
    from .plan import build_graph, make_plan

    graph = build_graph(board, virtual, snake=True)
    m, n = board.m, board.n
    lines, across = max(m, n), min(m, n)
    k = lines // 2

    def line(flat: int) -> int:
        return flat % n if m <= n else flat // n

    local = {flat: i for i, flat in enumerate(graph.squares)}
    virtual_id = graph.size if virtual else None
    where = {i: line(flat) for i, flat in enumerate(graph.squares)}
    separator = {i for i, ln in where.items() if ln in (k - 1, k)}
    deferred = set()
    for v in range(graph.size):
        for u in graph.adj[v]:
            inside = u != virtual_id and where[v] == k - 1 and where[u] == k
            if inside or (u == virtual_id and v in separator):  # a right edge on the left
                deferred.add(frozenset((u, v)))

    def mirrored(i: int) -> int:  # the square at the same place seen from the other end
        if i == virtual_id:
            return i
        r, c = divmod(graph.squares[i], n)
        return local[r * n + (n - 1 - c)] if m <= n else local[(m - 1 - r) * n + c]

    common: dict[int, int] = {}
    out = []
    mirror = mirror_ids(graph)
    none: frozenset[frozenset[int]] = frozenset()
    for stop, late, real in (
        ((k + 1) * across, frozenset(deferred), False),
        ((lines - k + 1) * across, none, True),
    ):
        steps = make_plan(graph, None, none, none, deferred=late)[:stop]
        adds = {}
        for index, step in enumerate(steps):
            (v,) = step.orbit
            square = mirrored(v) if real else v
            if where[square] == k - 1:
                adds[square] = index
        slots: dict[int, int] = {}
        made = slot_plan(graph, steps, mirror, slots)
        if made is None:
            return None
        width, plan = made
        positions = np.full(width, -1, dtype=np.int64)
        for v, slot in slots.items():
            square = mirrored(v) if real else v
            positions[slot] = common.setdefault(square, len(common))
        last = plan[-1]
        if mirror is not None and len(last) <= 9:
            return None  # the last layer must be whole or mirror classes, as the join reads it
        prefix = min(adds.values())
        if len(plan[prefix - 1]) <= 9 and mirror is not None:
            return None
        mirror_last = last[9] if len(last) > 9 else None
        out.append(Half(width, plan, positions, mirror_last, prefix, adds, common))
    return out[0], out[1], len(common)


def count_middle(
    kernel: Any,
    board: Board,
    virtual: bool,
    *,
    memory: int,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
    stats: dict[str, Any],
    depth: int = 0,
    checkpoint: Checkpoint | None = None,
    on_part: Callable[[dict[str, Any]], None] | None = None,
) -> int | None:
    """The number of Hamiltonian cycles of ``board`` (with ``virtual``, plus the virtual
    square), counted in the middle (see the module's notes); None when the halves do not
    fit the kernel or a count passes 64 bits (the caller counts in one program).

    With ``depth`` d > 0 the count runs in parts (:func:`part_boxes`;
    :func:`~knightgraph.counting.estimate.middle_parts` of them): the degrees that the right
    half gives the first d squares of the line ``k - 1`` and their mirror images are fixed,
    one vector of them and its image a part (the left half gives each square two minus
    that).  A part runs both halves from the start of that line, each square's degree held
    to the part's two values as it is added (``kgc_want``), and joins them keeping only the
    right states with one of the two vectors.  A part's states are closed under the mirror
    (its two vectors are each other's images), so mirror images are still merged.  A
    ``checkpoint`` keeps the finished parts (with one, at least depth 1: 6 parts on an even
    board).

    Notes
    -----
    Why the parts divide the memory where a split by hash does not (:mod:`.split`): a
    square's degree is part of every later state of its half up to the separator, so the
    states of different parts never meet; the layers of a part are those of the whole
    count with the other parts' vectors left out.  Each part runs both halves' programs
    from the start of the line again (the layers before it are computed once).

    Examples
    --------
    >>> from knightgraph.counting.compiled import compiled_kernel
    >>> from knightgraph.running.budget import NO_BUDGET
    >>> kernel = compiled_kernel()
    >>> kernel is None or count_middle(kernel, Board(6, 6), False, memory=2**30,
    ...     budget=NO_BUDGET, progress=None, stats={}, depth=1) == 9862   # A001230
    True
    """
    made = halves(board, virtual)
    if made is None:
        return None
    left, right, size = made
    name = "paths" if virtual else "cycles"
    if checkpoint is not None:  # in parts (at least 1 level), as the file has them if it does
        saved = checkpoint.split_of(name)
        resumed = saved is not None and saved["engine"] == "middle"
        depth = int(saved["cut"]) if resumed and saved is not None else max(depth, 1)
    if depth:
        return _in_parts(
            kernel,
            left,
            right,
            size,
            depth,
            memory,
            budget,
            stats,
            checkpoint,
            name,
            on_part if on_part is not None else _as_progress(progress),
        )
    total = len(left.plan) + len(right.plan) + 1
    offset = 0

    def report(info: dict[str, Any]) -> None:
        if progress is not None:
            progress({"done": offset + info["done"], "states": info["states"], "total": total})

    layers: list[Any] = []
    for half in (left, right):
        layer = _run(
            kernel, half, half.plan, memory, budget, stats, progress=report, held=_bytes(*layers)
        )
        if layer is None:
            return None
        layers.append(layer)
        offset += len(half.plan)
    count = _join(kernel, left, right, size, layers[0], layers[1], right.mirror, budget, stats)
    report({"done": total - offset, "states": stats["middle"]["pairs"]})
    return count


def _as_progress(
    progress: Callable[[dict[str, Any]], None] | None,
) -> Callable[[dict[str, Any]], None] | None:
    """A count's progress callback told of parts (``done`` of ``total`` parts)."""
    if progress is None:
        return None
    return lambda info: progress({"done": info["parts_done"], "total": info["parts"]})


def _run(
    kernel: Any,
    half: Half,
    plan: list[tuple[Any, ...]],
    memory: int,
    budget: Budget,
    stats: dict[str, Any],
    *,
    progress: Callable[[dict[str, Any]], None] | None = None,
    first: int = 0,
    initial: Any = None,
    stop: int | None = None,
    wants: dict[int, int] | None = None,
    held: int = 0,
) -> Any:
    """One half's program from ``first`` to ``stop`` (default: the separator): its layer,
    or None when a count passes 64 bits.  Its tables get ``memory`` less the ``held`` bytes
    of the layers kept meanwhile (the other half's, the parts' starts): past that the count
    stops, ABORTED, rather than outgrow its budget."""
    from .compiled import run_compiled

    if held >= memory:
        info = {"phase": "count", "step": first, "steps": len(plan), "engine": "c"}
        raise stopped_error(f"at the memory limit of {memory:,} bytes", info)
    own: dict[str, Any] = {}
    layer = run_compiled(
        kernel,
        half.width,
        plan,
        memory=memory - held,
        budget=budget,
        progress=progress,
        stats=own,
        first=first,
        initial=initial,
        stop=len(plan) if stop is None else stop,
        wants=wants,
    )
    if own.get("counts") != "64-bit" or np.any(layer[2]):
        return None
    stats["threads"], stats["counts"] = own.get("threads"), own["counts"]
    stats["max_states"] = max(stats.get("max_states", 0), own.get("max_states", 0))
    stats["peak_bytes"] = max(stats.get("peak_bytes", 0), own.get("peak_bytes", 0))
    return layer


def _bytes(*layers: Any) -> int:
    """The bytes the arrays of ``layers`` hold (a view of zeros holds none)."""
    return sum(a.nbytes for layer in layers for a in layer if a.strides != (0,))


def _join(
    kernel: Any,
    left: Half,
    right: Half,
    size: int,
    lay: Any,
    ray: Any,
    mirror: np.ndarray | None,
    budget: Budget,
    stats: dict[str, Any],
    query: tuple[list[int], list[int]] = ([], []),
) -> int:
    """The join of a left and a right layer (``mirror``: the right one holds mirror classes);
    with a ``query`` (separator positions, and two vectors of right degrees there, one
    after the other), only of the right states that have one of the two."""
    from .compiled import run_join

    began = time.perf_counter()
    sides = (
        (lay[0], lay[1], left.width, left.positions),
        (ray[0], ray[1], right.width, right.positions),
    )
    count, pairs = run_join(kernel, size, *sides, mirror=mirror, query=query, budget=budget)
    middle = stats.setdefault("middle", {"left_states": 0, "right_states": 0, "pairs": 0})
    middle["left_states"] = max(middle["left_states"], len(lay[0]))
    middle["right_states"] = max(middle["right_states"], len(ray[0]))
    middle["pairs"] += int(pairs)
    middle["join_seconds"] = round(middle.get("join_seconds", 0.0) + time.perf_counter() - began, 3)
    return count


def _in_parts(
    kernel: Any,
    left: Half,
    right: Half,
    size: int,
    depth: int,
    memory: int,
    budget: Budget,
    stats: dict[str, Any],
    checkpoint: Checkpoint | None,
    name: str,
    on_part: Callable[[dict[str, Any]], None] | None,
) -> int | None:
    """The count in parts (see :func:`count_middle`)."""
    from .checkpoint import groups_digest

    fixed, boxes = part_boxes(right, depth)
    starts: list[Any] = []
    for half in (left, right):
        layer = _run(
            kernel, half, half.plan, memory, budget, stats, stop=half.prefix, held=_bytes(*starts)
        )
        if layer is None:
            return None
        order = np.argsort(layer[0])  # in key order: the same layer digests the same on any run
        starts.append(tuple(array[order] for array in layer))
    parts = len(boxes)
    split = {"cut": depth, "parts": parts, "engine": "middle"}
    done: dict[int, int] = {}
    if checkpoint is not None:
        checkpoint.start(name, split)
        # the digest binds the parts on file to these start layers and these parts
        which = (np.array(fixed, dtype=np.int64), np.array(boxes, dtype=np.int64).ravel())
        done = checkpoint.start(name, split, groups_digest([*starts, which], "c"))
        checkpoint.save()
    stats["middle_parts"] = {"parts": parts, "resumed": len(done)}
    for index, (box, image) in enumerate(boxes):
        if on_part is not None:
            on_part({"parts_done": len(done), "parts": parts})
        if index in done:
            continue
        layers: list[Any] = []
        for side, (half, start) in enumerate(zip((left, right), starts, strict=True)):
            wants = {
                half.adds[sq]: (1 << a | 1 << b) if side else (1 << (2 - a) | 1 << (2 - b))
                for sq, a, b in zip(fixed, box, image, strict=True)
            }
            layer = _run(
                kernel,
                half,
                half.plan,
                memory,
                budget,
                stats,
                first=half.prefix,
                initial=start,
                wants=wants,
                held=_bytes(*starts, *layers),
            )
            if layer is None:
                raise KnightGraphError("a part of a count in the middle passed 64 bits")
            layers.append(layer)
        query = ([left.places[sq] for sq in fixed], [*box, *image])
        done[index] = _join(
            kernel, left, right, size, layers[0], layers[1], right.mirror, budget, stats, query
        )
        del layers
        if checkpoint is not None:
            checkpoint.record(name, index, done[index])
    if on_part is not None:
        on_part({"parts_done": parts, "parts": parts})
    return sum(done.values())


Box = tuple[tuple[int, ...], tuple[int, ...]]


def part_boxes(half: Half, depth: int) -> tuple[list[int], list[Box]]:
    """The squares whose right degrees a count in ``depth`` levels of parts fixes (the first
    ``depth`` squares of the line ``k - 1`` that ``half`` adds, each with its mirror image),
    and its parts: a vector of degrees for them and its mirror image (the same vector read
    on the mirrored squares), one part for each such pair (a vector equal to its image
    once), in the order of the vectors."""
    from .estimate import fixed_places
    from .plan import across_order

    line = sorted(half.adds, key=half.adds.__getitem__)  # the squares as the program adds them
    across = len(line)
    square_at = dict(zip(across_order(across, True), line, strict=True))
    fixed = [square_at[place] for group in fixed_places(across, depth) for place in group]
    place_of = {sq: place for place, sq in square_at.items()}
    where = {sq: i for i, sq in enumerate(fixed)}
    boxes = []
    for box in itertools.product(range(3), repeat=len(fixed)):
        image = tuple(box[where[square_at[across - 1 - place_of[sq]]]] for sq in fixed)
        if box <= image:
            boxes.append((box, image))
    return fixed, boxes
