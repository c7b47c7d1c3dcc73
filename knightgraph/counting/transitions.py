"""The sampler's machinery: the frontier program's transitions, layer by layer, their
completions, and a uniform walk through them (shared by :func:`~knightgraph.sample_tours`
on boards and on graphs).

A forward pass keeps, for every step of the program, which state each state leads to and
by which choice of edges; a backward pass gives every state its number of completions
(the tours that extend it); :func:`_walk` then draws a cycle from the first state, each
step taking a transition with probability proportional to the completions it leads to,
which telescopes to ``1 / total`` for every tour.  :func:`_orient` turns the cycle into
the tour asked for.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InternalError, InvalidOptionError
from ..running.budget import Budget
from .limits import check_budget, stopped_error
from .python_engine import CLOCK_EVERY, PYTHON_STATE_BYTES, successors

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from .plan import PlanGraph, PlanStep

TRANSITION_BYTES = 24
"""What the sampler keeps per transition (its target, its choice, and the share of the
source state's offsets and completion count)."""


def check_sample(k: int, seed: int | None, memory: int | None, timeout: float | None) -> None:
    """Check a sample's ``k``, ``seed`` and budget before any work (InvalidOptionError)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidOptionError(f"invalid k {k!r}: expected a whole number >= 1")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidOptionError(f"invalid seed {seed!r}: expected a whole number")
    check_budget("python", memory, timeout)


@dataclass
class Drawing:
    """A sample as it is drawn, before its answer is built: the request (``closed``, the
    flat ``start`` and ``end``, ``k``, ``seed``), then the count once it is known
    (``directed``), the tours drawn so far and the statistics.  What it holds when the
    budget stops the drawing is kept: the sampler builds its frozen answer from it."""

    closed: bool
    start: int | None
    end: int | None
    k: int
    seed: int | None
    directed: int | None = None
    tours: list[Any] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)


def draw_tours(
    drawing: Drawing,
    graph: PlanGraph,
    steps: list[PlanStep],
    memory: int,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
    tour_of: Callable[[list[int]], Any],
) -> None:
    """Count the cycles of the plan into ``drawing.directed``, then draw ``drawing.k`` of
    them uniformly, each made a tour by ``tour_of`` (of its squares in order) and checked
    against the ends asked for (CountAbortedError at the budget)."""
    closed, s, t = drawing.closed, drawing.start, drawing.end
    rng = random.Random(drawing.seed)
    work = len(steps) + drawing.k  # one unit per step of the program, then per tour
    report = None if progress is None else (lambda done: progress({"done": done, "total": work}))
    layers, completions = _passes(steps, memory, budget, report, drawing.stats)
    cycles = int(completions[0][0]) if len(completions[0]) else 0
    both_ways = (s is None or t is None) if closed else (s is None and t is None)
    drawing.directed = 2 * cycles if both_ways else cycles
    for drawn in range(drawing.k if cycles else 0):
        if budget.out_of_time():
            raise stopped_error("at the timeout", {"phase": "sample", "step": drawn, "steps": 0})
        edges = _walk(steps, layers, completions, rng)
        order = _orient(graph, edges, closed, s, t, rng.random() < 0.5)
        tour = tour_of(order)
        if (s is not None and order[0] != s) or (t is not None and order[-1] != t):
            raise InternalError(f"a sampled tour does not answer the request: {tour!r}")
        drawing.tours.append(tour)
        if report is not None:
            report(len(steps) + drawn + 1)


# One layer of transitions: offsets (per source state), targets, choices.
_Layer = tuple["NDArray[np.int64]", "NDArray[np.int32]", "NDArray[np.int32]"]


def _passes(
    steps: list[PlanStep],
    memory: int,
    budget: Budget,
    report: Callable[[int], None] | None,
    stats: dict[str, Any],
) -> tuple[list[_Layer], list[Any]]:
    """The forward pass (the transitions of every step) and the backward one (the
    completions of every state: ``completions[i][state]``, states of layer ``i``)."""
    layers: list[_Layer] = []
    current: dict[tuple[int, ...], int] = {tuple(0 for _ in steps[0].before): 0}
    held = 0  # bytes kept in transitions
    total_states = 1
    for index, step in enumerate(steps):
        out: dict[tuple[int, ...], int] = {}
        offsets = array("q", [0])
        targets = array("i")
        choices = array("i")
        cache: dict[tuple[int, ...], list[int]] = {}
        for done, state in enumerate(current):  # ids are in insertion order
            if done % CLOCK_EVERY == 0:
                where = {"phase": "count", "step": index + 1, "steps": len(steps)}
                where |= {"states_done": done, "states": len(current), "engine": "sample"}
                if budget.out_of_time():
                    raise stopped_error("at the timeout", where)
                need = held + TRANSITION_BYTES * len(targets)
                need += PYTHON_STATE_BYTES * (len(current) + len(out))
                if need > memory:
                    raise stopped_error(f"at the memory limit of {memory:,} bytes", where)
            for choice, key in successors(step, state, cache):
                targets.append(out.setdefault(key, len(out)))
                choices.append(choice)
            offsets.append(len(targets))
        layers.append(
            (
                np.frombuffer(offsets, dtype=np.int64),
                np.frombuffer(targets, dtype=np.int32),
                np.frombuffer(choices, dtype=np.int32),
            )
        )
        held += TRANSITION_BYTES * len(targets)
        total_states += len(out)
        current = out
        if report is not None:
            report(index + 1)
    stats.update(states=total_states, transitions=sum(len(x[1]) for x in layers))
    final = np.array([1.0 if key == () else 0.0 for key in current])
    completions = _backward(layers, final)
    if completions is None:  # a count of 2**53 or more: exact integers
        stats["counts"] = "python integers"
        completions = _backward_exact(layers, [1 if key == () else 0 for key in current])
    return layers, completions


def _backward(layers: list[_Layer], final: NDArray[np.float64]) -> list[Any] | None:
    """Completions in float64 (exact while below 2**53), as int64; None past that."""
    out: list[Any] = [final]
    after = final
    for offsets, targets, _ in reversed(layers):
        sources = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
        here = np.zeros(len(offsets) - 1)
        np.add.at(here, sources, after[targets])
        out.append(here)
        after = here
    if max(float(x.max(initial=0.0)) for x in out) >= 2.0**53:
        return None
    return [x.astype(np.int64) for x in reversed(out)]


def _backward_exact(layers: list[_Layer], final: list[int]) -> list[Any]:
    out: list[Any] = [final]
    after = final
    for offsets, targets, _ in reversed(layers):
        bounds = offsets.tolist()
        goes = targets.tolist()
        here = [sum(after[j] for j in goes[a:b]) for a, b in pairwise(bounds)]
        out.append(here)
        after = here
    return list(reversed(out))


def _walk(
    steps: list[PlanStep], layers: list[_Layer], completions: list[Any], rng: random.Random
) -> list[tuple[int, int]]:
    """One cycle drawn uniformly: its edges as pairs of local ids."""
    state = 0
    edges: list[tuple[int, int]] = []
    for step, (offsets, targets, choices), here, after in zip(
        steps, layers, completions[:-1], completions[1:], strict=True
    ):
        pick = rng.randrange(int(here[state]))
        for j in range(int(offsets[state]), int(offsets[state + 1])):
            pick -= int(after[targets[j]])
            if pick < 0:
                break
        else:
            raise InternalError("the completions of a state do not add up")
        work = [*step.before, *step.orbit]
        edges.extend((work[a], work[b]) for a, b in step.choices[int(choices[j])])
        state = int(targets[j])
    return edges


def _orient(
    graph: PlanGraph,
    edges: list[tuple[int, int]],
    closed: bool,
    s: int | None,
    t: int | None,
    flip: bool,
) -> list[int]:
    """The tour (flat indices) of a cycle: rooted and directed as the request says, the
    free choice of direction taken from ``flip``."""
    links: dict[int, list[int]] = {}
    for a, b in edges:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    if not closed:
        first = graph.size  # the virtual square
    else:
        fixed = s if s is not None else t
        first = graph.squares.index(min(graph.squares) if fixed is None else fixed)
    cycle = [first, links[first][0]]
    while len(cycle) < len(links):
        a, b = links[cycle[-1]]
        cycle.append(a if a != cycle[-2] else b)
    if not closed:
        cycle = cycle[1:]  # the path between the two neighbours of the virtual square
    order = [graph.squares[v] for v in cycle]
    if closed:
        if s is None and t is not None:  # finishing at t: rooted at t, t moved to the end
            order = [*order[1:], order[0]]
            return [*reversed(order[:-1]), order[-1]] if flip else order
        if t is not None:  # from s to t: the direction is fixed
            return order if order[-1] == t else [order[0], *reversed(order[1:])]
        return [order[0], *reversed(order[1:])] if flip else order
    if s is not None:
        return order if order[0] == s else order[::-1]
    if t is not None:
        return order if order[-1] == t else order[::-1]
    return order[::-1] if flip else order
