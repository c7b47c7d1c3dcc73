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

from collections.abc import Callable
from typing import Any

from ..boards.board import KNIGHT, Board
from ..running.budget import Budget
from .checkpoint import Checkpoint
from .halves import Half, halves, join, run_halves
from .limits import CountAbortedError
from .middleparts import in_parts

MIN_LINES = 6
"""Boards of fewer lines along their longer side are counted in one program."""


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


CLOSED_MIDDLE_EXTRA = 1
"""A closed count meets in the middle only on boards at most this many lines longer than
they are wide.  Past that the separator sits where the ordinary program's layers are
already as large as they get, and the join's pairs outgrow the whole sweep (measured, one
thread: 7 x 8 closed 4.6 s in the middle against 14.1 s in one program, 8 x 8 4 min 15 s
against 12 min 22 s; but 7 x 10 closed 57 s against 32 s, 41 s of the 57 in the join's
3.5 billion pairs, and 8 x 10 closed more than an hour a part in 6 parts).  Open counts
(the virtual square's program) still gained at 6 x 10 (17.2 s against 19.3 s)."""


def meets_in_the_middle(board: Any, closed: bool, ends: bool = False) -> bool:
    """True when a count of ``board``'s tours meets in the middle: a large enough knight's
    rectangle (:func:`eligible`, :data:`MIDDLE_FROM`), not much longer than wide when the
    tours are closed (:data:`CLOSED_MIDDLE_EXTRA`), no end fixed (``ends``), and the
    compiled kernel.  The one rule for ``count_tours`` and the ``count`` command's note.

    Examples
    --------
    >>> from knightgraph.counting.compiled import kernel_available
    >>> meets_in_the_middle(Board(8, 8), True) == kernel_available()
    True
    >>> meets_in_the_middle(Board(6, 8), True), meets_in_the_middle(Board(8, 8), True, ends=True)
    (False, False)
    >>> meets_in_the_middle(Board(7, 10), True)  # long: the join would cost more
    False
    """
    from .compiled import kernel_available
    from .estimate import OPEN_FACTOR, peak_states

    if ends or board.rectangle is not board or not eligible(board):
        return False
    if closed and max(board.m, board.n) - min(board.m, board.n) > CLOSED_MIDDLE_EXTRA:
        return False
    size = peak_states(board.m, board.n) * (1 if closed else OPEN_FACTOR)
    return size >= MIDDLE_FROM and kernel_available()


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

    With ``depth`` d > 0 the count runs in parts
    (:func:`~knightgraph.counting.middleparts.part_boxes`;
    :func:`~knightgraph.counting.estimate.middle_parts` of them): the degrees that the right
    half gives the first d squares of the line ``k - 1`` and their mirror images are fixed,
    one vector of them and its image a part (the left half gives each square two minus
    that).  A part runs both halves from the start of that line, keeping, as each fixed
    square is added, only the states whose fixed squares so far agree with one of the two
    vectors (``kgc_want``: the two vectors whole, not square by square), and joins them.  A
    part's states are closed under the mirror (its two vectors are each other's images),
    so mirror images are still merged.  A part that stops at its memory limit is counted
    again in sub-parts, one level deeper, and so is a count in one piece (in 6 parts on
    an even board).  A ``checkpoint`` keeps the finished parts and sub-parts (with one, at
    least depth 1).

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
    if not depth:
        try:
            return _in_one_piece(kernel, left, right, size, memory, budget, progress, stats)
        except CountAbortedError as error:
            if error.done.get("limit") != "memory":
                raise
        stats["middle_split_again"] = True  # too large in one piece: in parts
        depth = 1
    return in_parts(
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


def _in_one_piece(
    kernel: Any,
    left: Half,
    right: Half,
    size: int,
    memory: int,
    budget: Budget,
    progress: Callable[[dict[str, Any]], None] | None,
    stats: dict[str, Any],
) -> int | None:
    """The count of :func:`count_middle` in one piece: each half to the separator, then
    the join."""
    total = len(left.plan) + len(right.plan) + 1

    def report(info: dict[str, Any], offset: int = 0) -> None:
        if progress is not None:
            progress({"done": offset + info["done"], "states": info["states"], "total": total})

    def options(side: int, half: Half) -> dict[str, Any]:
        offset = len(left.plan) if side else 0
        return {"progress": lambda info: report(info, offset)}

    layers = run_halves(kernel, (left, right), memory, budget, stats, options=options)
    if layers is None:
        return None
    count = join(kernel, left, right, size, layers[0], layers[1], right.mirror, budget, stats)
    report({"done": total, "states": stats["middle"]["pairs"]})
    return count


def _as_progress(
    progress: Callable[[dict[str, Any]], None] | None,
) -> Callable[[dict[str, Any]], None] | None:
    """A count's progress callback told of parts (``done`` of ``total`` parts)."""
    if progress is None:
        return None
    return lambda info: progress({"done": info["parts_done"], "total": info["parts"]})
