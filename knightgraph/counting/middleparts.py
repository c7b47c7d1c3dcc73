"""The parts of a count that meets in the middle (:mod:`.middle`): the degrees of the
separator's first squares fixed (:func:`part_boxes`), each part run through both halves
and joined (:func:`in_parts`), and a part too large for its memory counted again in
sub-parts, one level deeper, kept in the checkpoint as they finish."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from ..exceptions import KnightGraphError
from ..running.budget import Budget
from .checkpoint import Checkpoint, groups_digest
from .halves import Half, join, run_halves
from .limits import CountAbortedError

Box = tuple[tuple[int, ...], tuple[int, ...]]
"""A part: a vector of degrees of the fixed squares, and its mirror image."""


def in_parts(
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
    """The count of :func:`~knightgraph.counting.middle.count_middle` in the parts of
    ``depth`` levels (:func:`part_boxes`): the layers before the separator's line once,
    then each part not on the ``checkpoint`` (:func:`_part_in_pieces`), kept there."""
    fixed, boxes = part_boxes(right, depth)

    def sorted_layer(layer: Any) -> Any:  # in key order: the same layer digests the same
        order = np.argsort(layer[0])  # held: the sorted copy alone (the rest for the parts)
        return tuple(a if a.strides == (0,) else a[order] for a in layer)

    def until_line(side: int, half: Half) -> dict[str, Any]:
        return {"stop": half.prefix}

    starts = run_halves(
        kernel, (left, right), memory, budget, stats, options=until_line, keep=sorted_layer
    )
    if starts is None:
        return None
    parts = len(boxes)
    split = {"cut": depth, "parts": parts, "engine": "middle"}
    done: dict[int, int] = {}
    subs: dict[str, int] = {}
    if checkpoint is not None:
        checkpoint.start(name, split)
        # the digest binds the parts on file to these start layers and these parts
        which = (np.array(fixed, dtype=np.int64), np.array(boxes, dtype=np.int64).ravel())
        done = checkpoint.start(name, split, groups_digest([*starts, which], "c"))
        subs = checkpoint.sub_parts(name)
        checkpoint.save()
    stats["middle_parts"] = {"parts": parts, "resumed": len(done), "split_again": 0}

    def run(fixed: list[int], box: Box) -> int:
        return _part(kernel, left, right, size, memory, budget, stats, starts, fixed, box)

    def keep(key: str, count: int) -> None:
        subs[key] = count
        if checkpoint is not None:
            checkpoint.record_sub(name, key, count)

    for index, box in enumerate(boxes):
        if on_part is not None:
            on_part({"parts_done": len(done), "parts": parts})
        if index in done:
            continue
        done[index] = _part_in_pieces(run, right, depth, box, str(index), subs, keep, stats)
        if checkpoint is not None:
            checkpoint.record_whole(name, index, done[index])
    if on_part is not None:
        on_part({"parts_done": parts, "parts": parts})
    return sum(done.values())


def _part(
    kernel: Any,
    left: Half,
    right: Half,
    size: int,
    memory: int,
    budget: Budget,
    stats: dict[str, Any],
    starts: list[Any],
    fixed: list[int],
    box: Box,
) -> int:
    """One part: the squares ``fixed`` hold the degrees of ``box`` (a vector and its
    image); both halves from the start of the separator's line, then the join."""

    def from_line(side: int, half: Half) -> dict[str, Any]:
        return {
            "first": half.prefix,
            "initial": starts[side],
            "wants": _wants(half, fixed, box, side == 1),
        }

    layers = run_halves(
        kernel, (left, right), memory, budget, stats, held=tuple(starts), options=from_line
    )
    if layers is None:
        raise KnightGraphError("a part of a count in the middle passed 64 bits")
    query = ([left.places[sq] for sq in fixed], [*box[0], *box[1]])
    lay, ray = layers
    return join(kernel, left, right, size, lay, ray, right.mirror, budget, stats, query)


def _part_in_pieces(
    run: Callable[[list[int], Box], int],
    right: Half,
    depth: int,
    box: Box,
    key: str,
    subs: dict[str, int],
    keep: Callable[[str, int], None],
    stats: dict[str, Any],
) -> int:
    """The part ``box`` of ``depth`` levels; when it stops at its memory limit, the sum of
    its sub-parts, the parts one level deeper that it is made of (its vector and its image,
    each extended by the degrees of the next squares): smaller, since a square's degree is
    part of every later state.  A sub-part found in ``subs`` (the checkpoint's, by ``key``)
    is not counted again; one counted is kept with ``keep``.

    Notes
    -----
    The parts one level deeper whose vectors, cut to the first squares, are ``box``'s two
    vectors are exactly the states of the part, each once: a pair (vector, image) at depth
    d + 1 cut to depth d is a pair (vector, image) at depth d, so every deeper part lies in
    one part of depth d.
    """
    if key in subs:
        return subs[key]
    fixed, _ = part_boxes(right, depth)
    try:
        return run(fixed, box)
    except CountAbortedError as error:
        if error.done.get("limit") != "memory" or len(part_boxes(right, depth + 1)[0]) == len(
            fixed
        ):
            raise  # a timeout, or no square left to fix: the count stops, ABORTED
    stats["middle_parts"]["split_again"] += 1
    n, total = len(fixed), 0
    for deeper in part_boxes(right, depth + 1)[1]:
        if {deeper[0][:n], deeper[1][:n]} != set(box):
            continue
        sub_key = f"{key}/{''.join(map(str, deeper[0]))}"
        found = sub_key in subs
        count = _part_in_pieces(run, right, depth + 1, deeper, sub_key, subs, keep, stats)
        if not found:
            keep(sub_key, count)
        total += count
    return total


def _wants(
    half: Half, fixed: list[int], box: Box, right: bool
) -> dict[int, list[tuple[int, int, int]]]:
    """What ``half``'s program keeps, step by step, in the part ``box`` (``kgc_want``): at
    the step that adds each square of ``fixed``, the squares of ``fixed`` added so far and
    it, each as ``(slot, degree, degree)`` with the degrees that the part's two vectors give
    it in this half (the right degree, or two minus it on the left)."""
    order = sorted(fixed, key=half.adds.__getitem__)
    slot = {sq: int(np.flatnonzero(half.positions == half.places[sq])[0]) for sq in fixed}
    degrees = {
        sq: (a, b) if right else (2 - a, 2 - b) for sq, a, b in zip(fixed, *box, strict=True)
    }
    return {
        half.adds[sq]: [(slot[x], *degrees[x]) for x in order[: j + 1]]
        for j, sq in enumerate(order)
    }


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
