"""Exact counts of tours (:func:`count_tours`): the open and closed counts, fixed ends and
the conventions, on top of the frontier dynamic program.

Every count is one or two counts of Hamiltonian cycles (``count_cycles``): of the board
for closed tours, of the board plus a virtual square joined to every square for open
ones.  ``count_cycles`` builds the plan and runs it on the compiled kernel when it can,
else on the Python engine.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..boards.board import KNIGHT, Board, SquareLike
from ..boards.coercion import as_any_board
from ..exceptions import BoardTooLargeError, InvalidOptionError
from ..running.budget import NO_BUDGET, Budget
from ..running.resources import available_memory
from ..tours.results import Certificate
from ..tours.verify import check_closed
from .compiled import (
    MAX_SLOTS,
    CountOverflow,
    compiled_kernel,
    kernel_available,
    mirror_ids,
    run_compiled,
    slot_plan,
)
from .limits import (
    CountAbortedError,
    CountAnswer,
    answer_frame,
    check_budget,
    end_indices,
    memory_budget,
    require_plan_memory,
)
from .python_engine import run_python
from .split import SplitOptions
from .zeros import quick_zero

if TYPE_CHECKING:
    from ..boards.graphboard import GraphBoard

CONVENTIONS = ("oeis", "knuth")


@dataclass(frozen=True)
class CountResult(CountAnswer["Board | GraphBoard"]):
    """The number of tours of one kind, on any board kind (a graph board's in
    ``stats["width"]`` the frontier width of its vertex order).

    Attributes
    ----------
    directed : int or None
        Tours as sequences of squares (each closed or open tour in both directions);
        None when the count stopped on its budget.
    undirected : int or None
        Tours as sets of moves (cycles, or paths up to reversal); None when a
        start square is fixed, or the count stopped.
    status : Status
        As for searches: FOUND (tours exist), PROVEN_ABSENT (the count, which
        is exhaustive, is 0) or ABORTED (the budget ran out; ``reason`` says
        why and ``stats["done"]`` how far it got).
    certificate : Certificate or None
        For a 0 settled at once by a cheap argument (see
        :mod:`knightgraph.counting.zeros`): the certificate, accepted by the
        independent checker; ``reason`` is its reason.

    Examples
    --------
    >>> r = count_tours(5, 6, closed=True)
    >>> r.directed, r.undirected, r.status.name
    (16, 8, 'FOUND')
    >>> r = count_tours(5, 5, start="a1")  # 304 open tours from a corner of 5x5
    >>> r.directed, r.undirected, r.to_dict()["start"]
    (304, None, 'a1')
    >>> count_tours(4, 5, closed=True).status.name  # Schwenk: no closed tour on 4 x n
    'PROVEN_ABSENT'
    >>> count_tours(5, 6, closed=True, timeout=0).aborted
    True
    >>> count_tours(6, 6, leaper=(1, 3)).certificate.data["clause"]  # 0 at once
    'disconnected'
    >>> import networkx as nx
    >>> r = count_tours(nx.hypercube_graph(3), closed=True)
    >>> r.to_dict()["undirected"], r.to_dict()["vertices"], r.status.name
    (6, 8, 'FOUND')
    """

    certificate: Certificate | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightgraph count --format json`` (:func:`answer_frame`: a
        rectangle's ``rows`` and ``cols``, a graph's ``graph``, ``vertices`` and ``width``)."""
        out = self._answer(*answer_frame(self.board, self.stats))
        if self.convention != "oeis":
            out["convention"] = self.convention
        rect = self.board.rectangle  # a graph board has no leaper, no removed squares
        if rect is not None:
            out.update(rect.checker_fields())
        return out


def count_cycles(
    board: Board,
    *,
    virtual: bool,
    forced: Iterable[tuple[int, int]] = (),
    excluded: Iterable[tuple[int, int]] = (),
    perm: Sequence[int] | None = None,
    engine: str = "auto",
    memory: int | None = None,
    budget: Budget = NO_BUDGET,
    progress: Callable[[dict[str, Any]], None] | None = None,
    stats: dict[str, Any] | None = None,
    split: SplitOptions | None = None,
    middle: int | None = None,
) -> int:
    """Hamiltonian cycles of the board (plus the virtual square), with forced and
    excluded edges given as pairs of flat indices (-1 is the virtual square); in parts
    with ``split`` (:mod:`knightgraph.counting.split`); with ``middle``, meeting in the
    middle at that depth of parts (:mod:`knightgraph.counting.middle`; the checkpoint of
    ``split``, if any, keeps them) when the count allows it."""
    # imported here: `import knightgraph` skips the plan's dataclasses
    from .plan import build_graph, local_edges, local_ids, make_plan

    stats = {} if stats is None else stats
    forced, excluded = tuple(forced), tuple(excluded)
    if engine not in ("auto", "python", "c"):
        raise InvalidOptionError(f"unknown engine {engine!r}: choose auto, python or c")
    plan = build_graph(board, virtual, budget, snake=True)
    if plan.vertices < 3:
        return 0
    local = local_ids(plan.squares)
    local_perm = None
    if perm is not None:
        local_perm = [local[int(perm[flat])] for flat in plan.squares] + plan.virtual_ids
    edges = local_edges(local, forced), local_edges(local, excluded)
    steps = make_plan(plan, local_perm, *edges, budget)
    parts: dict[str, Any] = dict(  # the count in parts: split_count's keywords
        virtual=virtual,
        forced=forced,
        excluded=excluded,
        options=split,
        memory=memory,
        budget=budget,
        progress=progress,
        stats=stats,
    )
    kernel = (
        compiled_kernel() if engine == "c" or (engine == "auto" and kernel_available()) else None
    )
    if engine == "c" and kernel is None:
        raise InvalidOptionError("the compiled counting kernel is not built")
    if kernel is not None and perm is None:
        slots = slot_plan(plan, steps, None if forced or excluded else mirror_ids(plan))
        if slots is not None:
            stats["engine"] = "c"
            stats["width"] = slots[0]
            room = memory_budget(memory, compiled=True)
            run = functools.partial(
                run_compiled, kernel, slots[0], slots[1], memory=room, budget=budget
            )
            try:
                if middle is not None and not forced and not excluded:
                    from .middle import count_middle

                    counted = count_middle(
                        kernel,
                        board,
                        virtual,
                        memory=room,
                        budget=budget,
                        progress=progress,
                        stats=stats,
                        depth=middle,
                        checkpoint=None if split is None else split.checkpoint,
                        on_part=None if split is None else split.on_part,
                    )
                    if counted is not None:
                        return counted
                if split is not None:
                    return _split(board, run, "c", len(steps), parts)
                return int(run(progress=progress, stats=stats))
            except CountOverflow:
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
    room = memory_budget(memory, compiled=False)
    if split is not None and perm is None:
        run = functools.partial(run_python, steps, budget=budget, memory=room)
        return _split(board, run, "python", len(steps), parts)
    return int(run_python(steps, budget=budget, progress=progress, memory=room))


def _split(
    board: Board, run: Callable[..., Any], engine: str, steps: int, parts: dict[str, Any]
) -> int:
    """The count in parts (:func:`knightgraph.counting.split.split_count`, given ``parts``
    for its keywords); the processes of one machine share its memory when none is given."""
    from ..running.parallel import ProcessExecutor
    from .split import split_count

    executor = parts["options"].executor
    if parts["memory"] is None and isinstance(executor, ProcessExecutor):  # one machine
        parts = {**parts, "memory": available_memory() * 9 // 10 // executor.workers}
    name = "paths" if parts["virtual"] else "cycles"
    return split_count(board, functools.partial(run, stats={}), engine, steps, name=name, **parts)


def _fit(
    board: Board | GraphBoard,
    closed: bool,
    engine: str,
    memory: int | None,
    split: bool,
    middle: bool = False,
) -> Any:
    """The :class:`~knightgraph.counting.estimate.MemoryFit` of an unsplit count of a
    rectangle on the compiled kernel, or of one that meets in the ``middle`` (None for a
    split one, one in Python, or a graph's)."""
    from .estimate import fit_memory

    rect = board.rectangle
    if rect is None or split or engine == "python" or not kernel_available():
        return None
    room = memory_budget(memory, compiled=True)
    return fit_memory(rect, closed=closed, budget=room, middle=middle)


def _middle_applies(
    board: Board | GraphBoard,
    closed: bool,
    s: int | None,
    t: int | None,
    engine: str,
    parts: int | None,
    executor: Any,
    kept: bool = False,
) -> bool:
    """True when the count meets in the middle (:func:`.middle.meets_in_the_middle`, or
    ``kept``: its checkpoint holds a count begun so) and no engine, parts or executor of
    several workers asked for says otherwise (those split the count by its states,
    :mod:`.split`); a serial executor, which the command line passes when no workers are
    asked for, runs the count here like none."""
    from ..running.parallel import SerialExecutor
    from .middle import meets_in_the_middle

    here = executor is None or isinstance(executor, SerialExecutor)
    if parts is not None or not here or engine == "python":
        return False
    return kept or meets_in_the_middle(board, closed, ends=s is not None or t is not None)


def _kept_middle(split: SplitOptions | None) -> bool:
    """True when the checkpoint holds a count begun in the middle: it goes on as it began
    (:meth:`~knightgraph.counting.checkpoint.Checkpoint.begun_in_the_middle`)."""
    kept = None if split is None else split.checkpoint
    return kept is not None and kept.begun_in_the_middle()


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
    parts: int | None = None,
    executor: Any = None,
    checkpoint: str | None = None,
    on_part: Callable[[dict[str, Any]], None] | None = None,
) -> CountResult:
    """Count the knight's tours of a board exactly.

    Parameters
    ----------
    m, n : int or Board
        The board (``n`` defaults to ``m``); or a :class:`~knightgraph.Board`; or a
        networkx graph or graph board (:mod:`knightgraph.counting.vertexorder`: the
        vertex order is chosen for the graph, its frontier width in ``stats``; a graph
        takes only the oeis convention and is counted in one piece).
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
        The compiled kernel (when built and the frontier fits 18 squares) or
        the Python reference.
    memory : int, optional
        Bytes the count may use (default: 90 % of the free memory for the
        compiled kernel, 80 % for the Python engine); beyond that the count
        stops: an ABORTED result, like a search's.
    timeout : float, optional
        Seconds; past them the result is ABORTED, its ``stats["done"]`` telling
        how far the count got.  The clock is also read inside the steps of the
        program (every millisecond or so), so a count stops within a few
        milliseconds of its timeout.

    Raises
    ------
    BoardTooLargeError
        Before any work when the plan of the board cannot fit in memory (about
        6 KB a square), or when an allocation fails.
    progress : callable, optional
        Called after each step with ``{"done": step, "states": count}``.
    parts, executor, checkpoint, on_part : optional
        Count in ``parts`` independent parts (:mod:`knightgraph.counting.split`; the
        sum is exact), run on ``executor`` (:func:`knightgraph.running.parallel.get_executor`:
        local processes or dask; default: here, one after another).  ``checkpoint``,
        a file name, keeps the finished parts: a rerun of the same count skips them
        (:mod:`knightgraph.counting.checkpoint`: what the file holds, what is refused).
        ``on_part`` is told ``{"parts_done", "parts"}`` as parts finish.  Any of
        them splits the count (``parts`` defaults to the executor's workers, at
        least 2); ``stats["split"]`` tells the cut, the parts and their cost.

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
    >>> import networkx as nx  # a graph: its Hamiltonian cycles (OEIS A066037 for Q4)
    >>> count_tours(nx.hypercube_graph(4), closed=True).undirected
    1344
    >>> r = count_tours(6, 6, closed=True, parts=4)  # four independent parts, summed
    >>> r.undirected, r.stats["split"]["parts"]
    (9862, 4)
    """
    board = as_any_board(m, n, leaper=leaper, removed=removed)
    _check_request(board, closed, convention, parts, checkpoint)
    closed = check_closed(closed)
    check_budget(engine, memory, timeout)
    s, t = end_indices(board, start, end)
    require_plan_memory(board, "counting the tours of")
    split = _split_options(board, closed, s, t, convention, parts, executor, checkpoint, on_part)
    began = time.perf_counter()
    zero = quick_zero(board, closed=closed, start=s, end=t)  # issue 15 (4): 0 at once
    if zero is not None:
        none, seconds = None if (s is not None or t is not None) else 0, time.perf_counter() - began
        stats: dict[str, Any] = {"quick_zero": zero.kind}
        return CountResult(
            board, closed, s, t, 0, none, convention, seconds, stats, zero.reason, zero
        )
    budget, stats = Budget(timeout), {}
    middle = _middle_applies(board, closed, s, t, engine, parts, executor, _kept_middle(split))
    fit = _fit(board, closed, engine, memory, split is not None and not middle, middle)
    if fit is not None and fit.estimate is not None:
        stats["memory_estimate"] = fit.estimate
    if fit is not None and fit.parts is None:  # refused before any work, with the estimate
        stats["done"] = {"phase": "estimate", "step": 0, "steps": board.num_squares}
        stats["done"].update(engine="c", estimate=fit.estimate, budget=fit.budget)
        seconds = time.perf_counter() - began
        return CountResult(board, closed, s, t, None, None, convention, seconds, stats, fit.reason)
    if fit is not None and fit.parts is not None and fit.parts > 1:
        split = SplitOptions(parts=fit.parts)  # parts small enough to fit, one after another
        stats["memory_parts"] = fit.parts
    kw: dict[str, Any] = dict(
        engine=engine, memory=memory, budget=budget, progress=progress, stats=stats
    )
    if fit is not None and fit.depth is not None:
        kw["middle"] = fit.depth
    if split is not None:
        kw["split"] = split
    return _counted(board, closed, s, t, convention, kw, began)


def _check_request(
    board: Board | GraphBoard,
    closed: bool,
    convention: str,
    parts: int | None,
    checkpoint: str | None,
) -> None:
    """InvalidOptionError for a convention, or a split, the board does not take."""
    if board.rectangle is None:  # a graph: counted in one piece, the oeis way
        if parts is not None or checkpoint is not None:  # never silently unsplit, unkept
            raise InvalidOptionError(
                "parts= and checkpoint= are for rectangular boards: a graph is counted in one piece"
            )
        if convention != "oeis":
            raise InvalidOptionError("a graph takes no n and only the oeis convention")
        return
    if convention not in CONVENTIONS:
        raise InvalidOptionError(f"unknown convention {convention!r}: choose oeis or knuth")
    if convention == "knuth" and closed:
        raise InvalidOptionError("the knuth convention applies to open tours only")


def _counted(
    board: Board | GraphBoard,
    closed: bool,
    s: int | None,
    t: int | None,
    convention: str,
    kw: dict[str, Any],
    began: float,
) -> CountResult:
    """Run the count of :func:`count_tours` and build its result: the counts (a rectangle's
    cycles column by column, :func:`count_cycles`; a graph's over its vertex order), or
    ABORTED with the reason and how far it got (one budget behaviour, as searches);
    running out of memory is :class:`BoardTooLargeError`."""
    from .plan import tally
    from .vertexorder import count_graph_cycles, vertex_order

    stats, rect = kw["stats"], board.rectangle

    def cycles(virtual: bool, **edges: Any) -> int:
        if rect is not None:
            return count_cycles(rect, virtual=virtual, **edges, **kw)
        return count_graph_cycles(board, order, virtual=virtual, **edges, **kw)

    def adjacent(u: int, v: int) -> bool:
        return v in neighbours(board, u)

    def others(ends: list[int]) -> list[int]:
        import numpy as np

        return [int(x) for x in np.flatnonzero(board.available()) if x not in ends]

    try:
        if rect is None:
            stats["order"] = "greedy path decomposition"
            order, stats["width"] = vertex_order(board, kw["budget"])
        knuth = convention == "knuth"
        counts = tally(board.num_squares, closed, s, t, cycles, adjacent, others, knuth)
    except CountAbortedError as stop:
        stats["done"] = stop.done
        seconds = time.perf_counter() - began
        return CountResult(board, closed, s, t, None, None, convention, seconds, stats, str(stop))
    except MemoryError:
        raise BoardTooLargeError(
            f"counting the tours {board.wording()[0]} ran out of memory"
            if rect is None
            else f"counting the tours of {rect.m}x{rect.n} ran out of memory (engine "
            f"{stats.get('engine', '?')}); give a smaller memory= budget to stop cleanly"
        ) from None
    seconds = time.perf_counter() - began
    return CountResult(board, closed, s, t, *counts, convention, seconds, stats)


def _split_options(
    board: Board | GraphBoard,
    closed: bool,
    s: int | None,
    t: int | None,
    convention: str,
    parts: int | None,
    executor: Any,
    checkpoint: str | None,
    on_part: Callable[[dict[str, Any]], None] | None,
) -> SplitOptions | None:
    """The split of a count, checked before any work (None: count in one piece, as every
    graph board is)."""
    from .checkpoint import Checkpoint, check_kept_parts, request_of
    from .split import check_parts

    parts = check_parts(parts)
    workers = getattr(executor, "workers", None) or (2 if hasattr(executor, "client") else 1)
    rect = board.rectangle
    if rect is None or (parts is None and checkpoint is None and workers < 2):
        return None
    saved = None
    if checkpoint is not None:
        check_kept_parts(parts)
        saved = Checkpoint(checkpoint, request_of(rect, closed, s, t, convention))
    return SplitOptions(parts=parts, executor=executor, checkpoint=saved, on_part=on_part)


def neighbours(board: Board | GraphBoard, flat: int) -> set[int]:
    return {int(x) for x in board.move_table()[flat] if x >= 0}
