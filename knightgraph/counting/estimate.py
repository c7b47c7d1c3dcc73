"""The memory a count will need, estimated before any work (issue 15, build 2), and the
number of parts that a split count needs for each part to fit.

The compiled kernel's memory is its two hash tables (the layer of states and the next
one), so its peak is the largest layer times the bytes a state costs there.  The largest
layer is not known before the count; :func:`estimate_count_memory` takes it from a
calibrated model: the largest layers measured on closed knight's tours in the snake order
(:data:`PEAK_STATES`, by the shorter side; :func:`peak_states`), extrapolated
geometrically past the last row measured, times :data:`OPEN_FACTOR` for open tours, times
:data:`BYTES_PER_STATE`.

Notes
-----
How good the model is: on boards of up to 7 rows it is an upper estimate made from
measured layers (shorter boards have smaller layers: 6x6 has an eighth of 6x10's, so
their estimates are generous; a small board needs little anyway).  8 rows are a
projection from an 8x8 count stopped part of the way (:data:`PEAK_STATES`); past 8 rows
an extrapolation, far beyond any memory.

What a split does to memory: the parts of a split count (:mod:`.split`) divide the
states of one layer by a hash, but the states of different parts lead to the same states
a few columns later, so each part's largest layer is barely smaller than the whole
count's (measured on 6x8 closed: 2 parts 0.95 of it, 4: 0.87, 8: 0.76, 16: 0.64, 64:
0.49; :func:`part_fraction`), at ``k`` times the work.  A split by hash can therefore make a
count fit only when it is at most about twice too large.  A count that meets in the middle
(:mod:`.middle`) holds only the layers up to the board's middle, and its parts, which fix
the degrees of the squares there, do divide the memory (:data:`MIDDLE_SHARE`); past what
those reach a count is refused before any work, naming the estimate and the memory
available.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..boards.board import KNIGHT, Board
from ..running.resources import format_bytes

PEAK_STATES = {
    5: (12, 13_865),
    6: (10, 484_710),
    7: (10, 8_485_156),
    8: (8, 221_407_817),
}
"""The largest layer of the compiled kernel's closed count of an m x n knight's board
(m <= n) in the snake order: by the shorter side m, ``(n0, states)`` measured on m x n0.
The layers grow with n until the board is about twice as long as it is wide (measured:
5x6 1,799, 5x8 9,567, 5x10 12,762, 5x12 to 5x20 13,865; 6x6 58,224, 6x7 198,889, 6x8
360,175, 6x9 371,482, 6x10 and 6x12 484,710; 7x8 6,450,386, 7x10 8,485,156), so ``states`` is an upper
estimate for n <= n0, and past n0 it is multiplied by :data:`LONGER` unless n0 >= 2 m - 2.
8 rows: the whole 8x8 count (step 46 of 64)."""

LONGER = 1.5
"""Growth of the largest layer past the board measured, up to twice as long as wide."""

OPEN_FACTOR = 12
"""Open counts (a virtual square joined to every square) have larger layers: measured
5x8 113,343 open / 9,567 closed, 6x7 2,103,765 / 198,889."""

BYTES_PER_STATE = 96
"""Bytes of kernel tables per state of the largest layer when it is small (below
:data:`LARGE_STATES`): 16-byte entries in tables kept at most half full, the layer read
packed beside the one written (measured 60 B on 6x8, 78 B of the whole process on 7x8)."""

LARGE_ENTRIES = 1 << 26
"""Tables of this many entries (1 GiB of 16-byte entries) or more are *large*: the compiled
kernel fills them to 0.78 rather than 0.5, grows them by a quarter rather than doubling, and
gives back the pages of the layer a step reads as it reads them (``_count_table.h``; the
kernel is handed this value, :mod:`.compiled`).  The tests set it small to run that code on
small boards."""

LARGE_STATES = LARGE_ENTRIES // 2
"""From this many states a layer's tables are large (a step's table starts with an entry a
state read, or twice that)."""

LARGE_BYTES_PER_STATE = 36
"""Bytes per state of the largest layer for large tables (measured: 8x8 closed, 221,407,817
states, 7.1 GB peak resident for the whole process: 32 B)."""


def peak_states(m: int, n: int) -> float:
    """The largest layer estimated for a closed count of an m x n knight's board (see
    :data:`PEAK_STATES`; past 8 rows, the ratio of 8 to 7 rows once per row).

    Examples
    --------
    >>> int(peak_states(6, 8)), int(peak_states(8, 6))
    (484710, 484710)
    """
    m, n = min(m, n), max(m, n)
    if m < min(PEAK_STATES):
        return 1000.0
    last = max(PEAK_STATES)
    if m > last:
        ratio = PEAK_STATES[last][1] / PEAK_STATES[last - 1][1]
        return peak_states(last, n) * ratio ** (m - last)
    n0, states = PEAK_STATES[m]
    return float(states) * (LONGER if n > n0 and n0 < 2 * m - 2 else 1.0)


def estimate_count_memory(board: Board, *, closed: bool) -> int | None:
    """Bytes the compiled kernel's tables are estimated to need at their peak for an unsplit
    count of ``board`` (see the module's notes), or None for a board the model does not
    cover (another leaper, removed squares).

    Examples
    --------
    >>> from knightgraph import Board
    >>> from knightgraph.running.resources import format_bytes
    >>> format_bytes(estimate_count_memory(Board(7, 8), closed=True))
    '776.8 MiB'
    >>> format_bytes(estimate_count_memory(Board(8, 8), closed=True))
    '7.4 GiB'
    >>> estimate_count_memory(Board(6, 6, leaper=(1, 3)), closed=True) is None
    True
    """
    if board.leaper != KNIGHT or board.removed:
        return None
    states = peak_states(board.m, board.n) * (1 if closed else OPEN_FACTOR)
    return int(states * (LARGE_BYTES_PER_STATE if states >= LARGE_STATES else BYTES_PER_STATE))


def part_fraction(parts: int) -> float:
    """The largest layer of one of ``parts`` hash parts over the whole count's (measured on
    6x8 closed, see the module's notes): ``1 - 0.09 log2(parts)``, at least 0.45.

    Examples
    --------
    >>> round(part_fraction(1), 2), round(part_fraction(16), 2), part_fraction(2**20)
    (1.0, 0.64, 0.45)
    """
    return max(0.45, 1.0 - 0.09 * math.log2(max(1, parts)))


MAX_MEMORY_PARTS = 64
"""The most parts chosen to make a count fit (64 parts: about 30 times the work)."""


def parts_to_fit(estimate: int, budget: int) -> int | None:
    """The fewest parts (1: no split) whose largest part is estimated to fit ``budget``
    bytes, or None when not even :data:`MAX_MEMORY_PARTS` do.

    Examples
    --------
    >>> parts_to_fit(10, 100), parts_to_fit(150, 100), parts_to_fit(1000, 100)
    (1, 16, None)
    """
    parts = 1
    while parts <= MAX_MEMORY_PARTS:
        if estimate * part_fraction(parts) <= budget:
            return parts
        parts *= 2
    return None


MIDDLE_SHARE = {True: (0.55, 0.47, 0.40, 0.34), False: (0.72, 0.36, 0.24, 0.20)}
"""The peak resident memory of a count in the middle (:mod:`.middle`) over the estimate of
the same count in one program (:func:`estimate_count_memory`), by depth (:func:`middle_parts`
parts), closed (True) and open (False): the largest measured, whole processes
(``docs/counting.md``).  Closed: 8 x 8 in one piece 3.81 GiB of 7.4 GiB estimated (0.52),
in 6 parts 0.45, in 45 parts 0.38 (parts checked square by square then; depth 3 from
6 x 8 open's tables then).  Open: 7 x 8 in one piece 2.42 GiB of 3.41 GiB (0.71), in 6
parts 0.36, 45 parts 0.24, 378 parts 0.20 (6 x 8: 0.29, 0.16, 0.13, 0.13; 8 x 8 in 45
parts about 0.13).  The parts do not divide evenly: the largest holds much of a count."""

MIDDLE_AGAIN = 2
"""The deepest depth a count in the middle starts at: where only deeper parts are estimated
to fit, it starts here and splits again, one level deeper, the parts that stop at their
memory limit (:mod:`.middleparts`), only where they must (378 parts from the start took
6.5 times the time of 45 on 7 x 8 open: each part loads the layers before the line)."""


def fixed_places(across: int, depth: int) -> list[list[int]]:
    """The places (across a line of ``across`` squares) whose degrees a count in the middle
    at ``depth`` fixes: the first ``depth`` places in the order the program adds them (the
    snake), each with its mirror image, a group each (one place alone when it is its own).

    Examples
    --------
    >>> fixed_places(8, 2), fixed_places(7, 2)
    ([[1, 6], [3, 4]], [[1, 5], [3]])
    """
    from .plan import across_order

    groups: list[list[int]] = []
    for place in across_order(across, True):
        if len(groups) == depth:
            break
        if not any(place in group for group in groups):
            image = across - 1 - place
            groups.append([place] if image == place else [place, image])
    return groups


def middle_parts(board: Board, depth: int) -> int:
    """How many parts a count of ``board`` in the middle takes at ``depth``: a part for each
    vector of degrees of the :func:`fixed_places` and its mirror image.

    Examples
    --------
    >>> [middle_parts(Board(8, 8), d) for d in range(4)]
    [1, 6, 45, 378]
    >>> middle_parts(Board(7, 8), 2)  # 7 rows: the middle row is its own image
    18
    """
    groups = fixed_places(min(board.m, board.n), depth)
    squares = sum(len(group) for group in groups)
    return int(3**squares + 3 ** len(groups)) // 2


@dataclass(frozen=True)
class MemoryFit:
    """How a count fits its memory budget: the ``estimate`` of its tables (None: no model
    for the board), the ``budget``, the ``parts`` it needs (1: none; None: it cannot fit)
    and, when it cannot, the ``reason`` (naming the estimate and the budget).

    Examples
    --------
    >>> from knightgraph import Board
    >>> fit_memory(Board(8, 8), closed=True, budget=2**30).parts is None
    True
    >>> fit_memory(Board(6, 8), closed=True, budget=2**30).parts
    1
    """

    estimate: int | None
    budget: int
    parts: int | None
    reason: str = ""
    depth: int | None = None  # in the middle, at this depth of parts (None: in one program)
    again: bool = False  # in the middle from MIDDLE_AGAIN, parts split again where they must


def fit_memory(board: Board, *, closed: bool, budget: int, middle: bool = False) -> MemoryFit:
    """The :class:`MemoryFit` of a count of ``board`` on the compiled kernel within
    ``budget`` bytes: the fewest parts whose largest is estimated to fit
    (:func:`parts_to_fit`), or a refusal; with ``middle`` (a count that can meet in the
    middle), the fewest parts of that count (:data:`MIDDLE_SHARE`), or a refusal."""
    estimate = estimate_count_memory(board, closed=closed)
    if estimate is None:
        return MemoryFit(None, budget, 1)
    kind = "closed" if closed else "open"
    if middle:
        shares = MIDDLE_SHARE[closed]
        for depth, share in enumerate(shares):
            if estimate * share <= budget:
                again = depth > MIDDLE_AGAIN
                depth = min(depth, MIDDLE_AGAIN)
                return MemoryFit(int(estimate * share), budget, 1, depth=depth, again=again)
        least = int(estimate * shares[-1])
        reason = (
            f"counting stopped at the memory limit of {budget:,} bytes before any work: the "
            f"{kind} count of {board.m}x{board.n} needs about {format_bytes(estimate)} of "
            f"tables (estimated) in one program, and about {format_bytes(least)} meeting in "
            f"the middle in {middle_parts(board, len(shares) - 1)} parts; the budget "
            f"is {format_bytes(budget)}"
        )
        return MemoryFit(estimate, budget, None, reason)
    parts = parts_to_fit(estimate, budget)
    if parts is not None:
        return MemoryFit(estimate, budget, parts)
    each = format_bytes(estimate * part_fraction(MAX_MEMORY_PARTS))
    reason = (
        f"counting stopped at the memory limit of {budget:,} bytes before any work: the "
        f"{kind} count of {board.m}x{board.n} needs about {format_bytes(estimate)} of tables "
        f"(estimated), and each of {MAX_MEMORY_PARTS} parts about {each}; the budget is "
        f"{format_bytes(budget)}"
    )
    return MemoryFit(estimate, budget, None, reason)


NOTE_BYTES = 2**30
"""Estimates from this size up are printed by the ``count`` command before it starts."""


def memory_note(
    board: Board, *, closed: bool, memory: int | None = None, middle: bool = False
) -> str | None:
    """The line ``knightgraph count`` prints before a count whose tables are estimated at
    :data:`NOTE_BYTES` or more: the estimate, the budget and the parts it will take (None
    for a smaller count or a board without a model).

    Examples
    --------
    >>> from knightgraph import Board
    >>> memory_note(Board(6, 8), closed=True) is None
    True
    >>> print(memory_note(Board(8, 8), closed=True, memory=2**40))
    memory: about 7.4 GiB of tables estimated, budget 1.0 TiB: in one piece
    """
    from .limits import memory_budget

    budget = memory_budget(memory, compiled=True)
    fit = fit_memory(board, closed=closed, budget=budget, middle=middle)
    if fit.estimate is None or fit.estimate < NOTE_BYTES:
        return None
    head = f"memory: about {format_bytes(fit.estimate)} of tables estimated, "
    head += f"budget {format_bytes(budget)}: "
    if fit.parts is None:
        return head + "too large, refused"
    if fit.depth is not None:
        parts = middle_parts(board, fit.depth)
        if fit.again:
            return head + f"in the middle, in {parts} parts, split again where one does not fit"
        return head + "in the middle" + (f", in {parts} parts to fit" if fit.depth else "")
    return head + ("in one piece" if fit.parts == 1 else f"in {fit.parts} parts to fit")
