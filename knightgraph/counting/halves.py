"""The two programs of a count that meets in the middle (:mod:`.middle`) and their join:
each half's frontier program up to the separator in the compiled kernel's slots
(:func:`halves`), run (:func:`run_half`), and the two separator layers joined
(:func:`join`, the kernel's ``kgc_join``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..boards.board import Board
from ..running.budget import Budget
from .limits import stopped_error


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


def run_half(
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
    wants: dict[int, list[tuple[int, int, int]]] | None = None,
    held: int = 0,
) -> Any:
    """One half's program from ``first`` to ``stop`` (default: the separator): its layer,
    or None when a count passes 64 bits.  Its tables get ``memory`` less the ``held`` bytes
    of the layers kept meanwhile (the other half's, the parts' starts): past that the count
    stops, ABORTED, rather than outgrow its budget."""
    from .compiled import run_compiled

    if held >= memory:
        info = {"phase": "count", "step": first, "steps": len(plan), "engine": "c"}
        info["limit"] = "memory"
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


def run_halves(
    kernel: Any,
    pair: tuple[Half, Half],
    memory: int,
    budget: Budget,
    stats: dict[str, Any],
    *,
    held: tuple[Any, ...] = (),
    options: Callable[[int, Half], dict[str, Any]] = lambda side, half: {},
    keep: Callable[[Any], Any] = lambda layer: layer,
) -> list[Any] | None:
    """Both halves' programs in turn (:func:`run_half`, with ``options(side, half)``), the
    layers ``held`` and those kept so far (``keep(layer)``) counted against the memory;
    None when a count passes 64 bits."""
    kept: list[Any] = []
    for side, half in enumerate(pair):
        layer = run_half(
            kernel,
            half,
            half.plan,
            memory,
            budget,
            stats,
            held=held_bytes(*held, *kept),
            **options(side, half),
        )
        if layer is None:
            return None
        kept.append(keep(layer))
    return kept


def held_bytes(*layers: Any) -> int:
    """The bytes the arrays of ``layers`` hold (a view of zeros holds none)."""
    return sum(a.nbytes for layer in layers for a in layer if a.strides != (0,))


def join(
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
