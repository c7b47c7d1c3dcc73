"""The Python engine of the frontier dynamic program: the reference implementation.

It runs a plan (``plan.make_plan``) state by state with exact integers, so it has no limit
on the width of the frontier or the size of a count, and it also runs the plans of
symmetric counts (whole orbits of a symmetry per step), which the compiled kernel does
not.  The tests compare the compiled kernel with it; it is used when the kernel is
missing, the frontier is wider than 18 squares, a count needs more than 128 bits, or
``KNIGHTGRAPH_KERNELS=python``.

A *state* is a tuple with one entry per frontier square: 0 (degree 0), 1 (degree 2, the
square is full) or a label >= 2 shared by the two ends of a path fragment.  Labels are
renumbered in order of appearance so that equal states merge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..running.budget import NO_BUDGET, Budget
from .limits import stopped_error

if TYPE_CHECKING:
    from .plan import PlanStep

CLOCK_EVERY = 256
"""States the Python engine handles between two looks at the clock (a few milliseconds)."""

PYTHON_STATE_BYTES = 300
"""About what one state costs the Python engine (a dict entry, a tuple, an int)."""


def run_python(
    steps: list[PlanStep],
    *,
    budget: Budget = NO_BUDGET,
    progress: Callable[[dict[str, Any]], None] | None = None,
    memory: int | None = None,
    first: int = 0,
    initial: dict[tuple[int, ...], int] | None = None,
    stop: int | None = None,
    stats: dict[str, Any] | None = None,
) -> Any:
    """Count the cycles with the plan: the reference implementation (exact integers).

    Stops (:class:`CountAbortedError`) at the deadline, also inside a step (the
    clock is read every :data:`CLOCK_EVERY` states), or when the states would
    need more than ``memory`` bytes (about 300 bytes a state).  A split count
    runs a range of the steps: from step ``first`` (``initial``: the layer there)
    up to ``stop``, where it returns the layer (a dict) instead of the count.
    """
    max_states = None if memory is None else memory // PYTHON_STATE_BYTES
    layer: dict[tuple[int, ...], int] = {(): 0} if not steps else {}
    if steps:
        layer = {tuple(0 for _ in steps[0].before): 1}
    if initial is not None:
        layer = dict(initial)
    for index in range(first, len(steps) if stop is None else stop):
        step = steps[index]
        out: dict[tuple[int, ...], int] = {}
        cache: dict[tuple[int, ...], list[int]] = {}
        for done, (state, count) in enumerate(layer.items()):
            if done % CLOCK_EVERY == 0 and budget.out_of_time():
                raise stopped_error(
                    "at the timeout",
                    {
                        "phase": "count",
                        "step": index + 1,
                        "steps": len(steps),
                        "states_done": done,
                        "states": len(layer),
                        "engine": "python",
                    },
                )
            for _, key in successors(step, state, cache):
                out[key] = out.get(key, 0) + count
            if max_states is not None and len(out) > max_states:
                raise stopped_error(
                    f"at the memory limit of {memory:,} bytes ({len(out):,} new states "
                    f"at about {PYTHON_STATE_BYTES} bytes each)",
                    {
                        "phase": "count",
                        "step": index + 1,
                        "steps": len(steps),
                        "states_done": done + 1,
                        "states": len(layer),
                        "engine": "python",
                    },
                )
        layer = out
        if stats is not None:
            stats["max_states"] = max(stats.get("max_states", 0), len(layer))
        if progress is not None:
            progress({"done": index + 1, "states": len(layer)})
    return layer if stop is not None else layer.get((), 0)


_DEGREE = (0, 2, *([1] * 1022))
"""The degree of a frontier square from its entry in a state (0, 1 for full, labels >= 2:
a frontier of ``w`` squares has labels up to ``w // 2 + 1``)."""


def successors(
    step: PlanStep, state: tuple[int, ...], cache: dict[tuple[int, ...], list[int]]
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """The states that ``step`` leads to from ``state``: ``(choice, state)`` for each edge set
    ``step.choices[choice]`` that keeps the partial tour alive (the sampler needs the choice).

    Whether a choice keeps every degree at most 2, fills the squares that leave and leaves
    none that needs an edge at degree 0 depends only on the degrees of the state (0, 1 or
    2: the entries 0, >= 2 and 1): ``cache`` (one per step) holds the choices that pass,
    per tuple of degrees, so that only the path labels are worked out per state."""
    if len(state) < 2000:
        degrees = tuple(map(_DEGREE.__getitem__, state))
    else:
        degrees = tuple(0 if v == 0 else 2 if v == 1 else 1 for v in state)
    passing = cache.get(degrees)
    if passing is None:
        passing = cache[degrees] = _passing(step, degrees)
    base = [*state, *([0] * len(step.orbit))]
    label = 1 << 30
    last = step.last
    for index in passing:
        work = base.copy()
        closures = 0
        for a, b in step.choices[index]:
            va, vb = work[a], work[b]
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
        if closures != last:
            continue  # a cycle closes exactly at the last step, once
        kept = [work[p] for p in step.keep]
        names: dict[int, int] = {}
        for i, v in enumerate(kept):
            if v >= 2:
                kept[i] = names.setdefault(v, len(names) + 2)
        yield index, tuple(kept)


def _passing(step: PlanStep, degrees: tuple[int, ...]) -> list[int]:
    """The choices of ``step`` that the degrees of a state allow (see :func:`successors`)."""
    out = []
    for index, edges in enumerate(step.choices):
        work = [*degrees, *([0] * len(step.orbit))]
        for a, b in edges:
            work[a] += 1
            work[b] += 1
        if max(work, default=0) > 2 or any(work[p] != 2 for p in step.leave):
            continue
        if any(work[p] == 0 for p in (step.keep[i] for i in step.need)):
            continue
        out.append(index)
    return out
