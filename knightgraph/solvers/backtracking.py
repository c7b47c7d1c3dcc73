"""Depth-first search: the textbook backtracking, and an exact pruned search.

``backtrack`` is the search taught in the seeds: from the start square try the
moves in a fixed order, go deeper while an unvisited square is reached, and
step back when none is left.  It is iterative (no recursion limit) and counts
its work the textbook way: ``placed`` squares put on the path after the start,
``tried`` candidate moves examined (on the board or not).

Options turn it into an exact search that is fast on small boards while still
complete: ``order="warnsdorff"`` tries the move with the fewest onward moves
first, ``prune=True`` cuts subtrees that provably hold no tour, and
``memo=True`` remembers positions ``(square, unvisited set)`` whose subtree
failed.  With ``order="fixed"`` none of these changes which tour is found
first; they only skip subtrees that contain none.

Examples
--------
>>> from knightgraph import Board
>>> from knightgraph.solvers.backtracking import backtrack
>>> res = backtrack(Board(5, 5), start="a1")
>>> res.status.name, res.stats["placed"], res.stats["tried"]
('FOUND', 8839, 70624)
>>> pruned = backtrack(Board(5, 5), start="a1", prune=True)
>>> pruned.tour == res.tour, pruned.stats["placed"] < res.stats["placed"]
(True, True)
>>> res = backtrack(Board(4, 4), prune=True, order="warnsdorff")
>>> res.reason
'no open tour on 4x4: a complete depth-first search (..., pruned) found no tour from any start; re-proved for the independent checker: a SAT solver refuted ...'
>>> res.certificate.kind, res.stats["unchecked_certificate"]["kind"]
('sat-refutation', 'exhaustive-search')
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import InvalidOptionError
from ..proofs import partition_mask, quick_obstruction, schwenk_partition
from ..results import Certificate, SearchResult
from .base import Budget, Problem, solver
from .moves import parse_moves

__all__ = ["backtrack"]

_CHECK_EVERY = 1024  # placements between budget checks
_MEMO_CAP = 4_000_000  # failed positions remembered at most
_MEMO_BYTES = 512 * 2**20  # ... and the memory they may take (each is a board-wide bit set)


def _bits(mask: np.ndarray[Any, Any]) -> int:
    """A boolean array over flat indices as a Python int bit set."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


class _Abort(Exception):
    pass


@dataclass
class _Search:
    """One exact search: tables, the request, and the counters.

    Memory is linear in the board: per-square move lists, a few board-wide
    bit sets, and the memo (capped at :data:`_MEMO_BYTES`).
    """

    problem: Problem
    budget: Budget
    moves: list[tuple[int, int]]
    warnsdorff: bool
    prune: bool
    memo: set[int] | None
    targets: list[list[int]] = field(init=False, default_factory=list)
    shifts: list[tuple[int, int]] = field(init=False, default_factory=list)
    full: int = field(init=False, default=0)
    sparse: list[int] = field(init=False, default_factory=list)
    visited: bytearray = field(init=False, default_factory=bytearray)
    stats: dict[str, Any] = field(default_factory=lambda: {"placed": 0, "tried": 0})
    noise: list[float] = field(default_factory=list)
    next_check: int = 0
    memo_cap: int = 0
    kernel_arrays: tuple[np.ndarray[Any, Any], ...] | None = None

    def __post_init__(self) -> None:
        self.memo_cap = min(_MEMO_CAP, _MEMO_BYTES // (self.problem.board.area // 8 + 64))

    def tables(self) -> None:
        """Build the per-square lists and bit sets of the pure-Python search (once), checking
        the budget between the steps: on a board of millions of squares each takes a while,
        and the compiled plain search never needs them."""
        if self.targets:
            return
        board = self.problem.board
        self._check_budget(self.stats["placed"], self.stats["tried"])
        position = {move: j for j, move in enumerate(board.offsets)}
        table = board.move_table()[:, [position[m] for m in self.moves]]
        self._check_budget(self.stats["placed"], self.stats["tried"])
        self.full = _bits(board.available())
        where = schwenk_partition(board) if self.prune else None
        self.sparse = [] if where is None else [_bits(partition_mask(board, where))]
        n = board.n
        shifts = []
        for j, (dr, dc) in enumerate(self.moves):
            self._check_budget(self.stats["placed"], self.stats["tried"])
            shifts.append((_bits(table[:, j] >= 0), dr * n + dc))
        self.shifts = shifts
        self._check_budget(self.stats["placed"], self.stats["tried"])
        self.visited = bytearray(board.area)
        self.targets = table.tolist()

    # ------------------------------------------------------ bit-parallel sets
    def _neighbours(self, square: int) -> int:
        """The squares one leap from ``square``, as a bit set."""
        out = 0
        for t in self.targets[square]:
            if t >= 0:
                out |= 1 << t
        return out

    def _expand(self, squares: int) -> int:
        """All squares one leap from ``squares``."""
        out = 0
        for mask, shift in self.shifts:
            x = squares & mask
            out |= x << shift if shift > 0 else x >> -shift
        return out

    def _two_or_more(self, squares: int) -> int:
        """Squares with at least two neighbours in ``squares`` (a bit-sliced counter)."""
        one = two = 0
        for mask, shift in self.shifts:
            x = squares & mask
            x = x << shift if shift > 0 else x >> -shift
            two |= one & x
            one |= x
        return two

    def _connected(self, here: int, free: int) -> bool:
        """Can every square of ``free`` be reached from ``here`` through ``free``?"""
        reach = self._neighbours(here) & free
        frontier = reach
        while frontier and reach != free:
            frontier = self._expand(frontier) & free & ~reach
            reach |= frontier
        return reach == free

    def viable(self, here: int, free: int, start: int) -> bool:
        """False when no completion of the path ending at ``here`` can be a tour.

        See the Notes of :func:`backtrack` for why each rule is sound.
        """
        if not free:
            return True
        closed, end = self.problem.closed, self.problem.end
        if closed and not self._neighbours(start) & free:
            return False
        room = free | (1 << here) | ((1 << start) if closed else 0)
        short = free & ~self._two_or_more(room)
        if closed:
            if short:
                return False
        elif end is not None:
            if short & ~(1 << end):
                return False
        elif short & (short - 1):
            return False
        if self.sparse and not self._room_for_sparse(here, free, start):
            return False
        return self._connected(here, free)

    def _room_for_sparse(self, here: int, free: int, start: int) -> bool:
        """Can the rest of the tour place every unvisited square of each independent set?

        The rest of the tour fills places ``1 .. k`` after ``here``; squares of an
        independent set never take two neighbouring places, nor place 1 if
        ``here`` is in the set, nor place ``k`` of a closed tour if the start is.
        """
        k = free.bit_count()
        for sparse in self.sparse:
            first = 2 if sparse >> here & 1 else 1
            last = k - 1 if self.problem.closed and sparse >> start & 1 else k
            if (free & sparse).bit_count() > max(0, (last - first + 2) // 2):
                return False
        return True

    def candidates(self, here: int) -> list[int]:
        """Moves to try from ``here``: the fixed order, or fewest onward moves first
        (ties in the fixed order, or by :attr:`noise` when it is set)."""
        row = self.targets[here]
        if not self.warnsdorff:
            return row
        targets, visited, noise = self.targets, self.visited, self.noise
        valid = [t for t in row if t >= 0 and not visited[t]]

        def onward(t: int) -> int:
            return sum(1 for u in targets[t] if u >= 0 and not visited[u])

        if noise:
            return sorted(valid, key=lambda t: (onward(t), noise[t]))
        return sorted(valid, key=onward)

    # ------------------------------------------------------------- the search
    def complete(self, last: int, start: int) -> bool:
        """Does a path through every square ending at ``last`` answer the request?"""
        closed, end = self.problem.closed, self.problem.end
        if end is not None and last != end:
            return False
        return not closed or (start in self.targets[last] and self.problem.board.num_squares > 2)

    def run(self, start: int) -> list[int] | None:
        """Depth-first search from ``start``; the tour's order, or None if none exists."""
        self.tables()
        total = self.problem.board.num_squares
        end = self.problem.end
        memo, prune, stats, visited = self.memo, self.prune, self.stats, self.visited
        area = self.problem.board.area
        if total == 1:
            return [start] if self.complete(start, start) else None
        free = self.full & ~(1 << start)
        if prune and not self.viable(start, free, start):
            return None
        visited[start] = 1
        path = [start]
        frames = [self.candidates(start)]
        cursor = [0]
        placed, tried = stats["placed"], stats["tried"]
        self._check_budget(placed, tried)
        try:
            while frames:
                if placed >= self.next_check:
                    self._check_budget(placed, tried)
                options, k = frames[-1], cursor[-1]
                if k == len(options):
                    here = path.pop()
                    if memo is not None and len(memo) < self.memo_cap:
                        memo.add(free * area + here)
                    visited[here] = 0
                    free |= 1 << here
                    frames.pop()
                    cursor.pop()
                    continue
                cursor[-1] = k + 1
                tried += 1
                nxt = options[k]
                if nxt < 0 or visited[nxt] or (prune and nxt == end and len(path) < total - 1):
                    continue
                placed += 1
                visited[nxt] = 1
                free ^= 1 << nxt
                path.append(nxt)
                if len(path) == total:
                    if self.complete(nxt, start):
                        return path
                elif not (
                    (memo is not None and free * area + nxt in memo)
                    or (prune and not self.viable(nxt, free, start))
                ):
                    frames.append(self.candidates(nxt))
                    cursor.append(0)
                    continue
                path.pop()
                visited[nxt] = 0
                free |= 1 << nxt
            return None
        finally:
            stats["placed"], stats["tried"] = placed, tried
            for square in path:
                visited[square] = 0

    def _check_budget(self, placed: int, tried: int) -> None:
        """Stop (raise ``_Abort``) when the budget is spent; else set the next check."""
        self.stats["placed"], self.stats["tried"] = placed, tried
        self.budget.report(self.stats)
        why = self.budget.exceeded(placed)
        if why:
            raise _Abort(why)
        limit = self.budget.limit
        self.next_check = (
            placed + _CHECK_EVERY if limit is None else min(placed + _CHECK_EVERY, limit)
        )


class _Starts:
    """The starts a complete search must try, one per symmetry class when the start is free.

    Iterable any number of times; the first start comes at once and the others (one
    per orbit of the board's symmetries, which takes a while on millions of squares)
    only when the search gets past it.
    """

    def __init__(self, problem: Problem, warnsdorff: bool) -> None:
        self.problem, self.warnsdorff = problem, warnsdorff
        self._all: list[int] | None = None
        board = problem.board
        if problem.start is not None:
            self._all = [problem.start]
            return
        available = np.flatnonzero(board.available())
        if problem.closed:
            self._all = [int(available[0])]  # a closed tour passes through every square
            return
        order = available
        if warnsdorff:
            order = order[np.argsort(board.degrees()[order], kind="stable")]
        self._order = order

    def __iter__(self) -> Iterator[int]:
        if self._all is not None:
            yield from self._all
            return
        yield int(self._order[0])  # the first square of ``order`` is always its orbit's first
        yield from self.all()[1:]

    def all(self) -> list[int]:
        """Every start, in order.  One per orbit: its first square in ``order``; a symmetry
        keeps degrees, so the stable sort keeps each orbit's squares in index order and
        the first is the smallest."""
        if self._all is None:
            order = self._order
            perms = np.array(list(self.problem.board.symmetries().values()))
            smallest = np.minimum(perms[:, order].min(axis=0), order)
            self._all = [int(s) for s in order[smallest == order]]
        return self._all


@solver(
    "backtrack",
    exact=True,
    bytes_per_square=320,
    fixed_bytes=_MEMO_BYTES,
    summary="depth-first search in a fixed move order, optionally pruned",
)
def backtrack(
    problem: Problem,
    budget: Budget,
    *,
    seed: int | None = None,
    moves: str | Sequence[Sequence[int]] | None = None,
    order: str = "fixed",
    prune: bool = False,
    memo: bool = False,
    restarts: int = 0,
    oracle: bool = False,
) -> SearchResult:
    """Exact depth-first search for a tour; complete unless stopped by the budget.

    Parameters
    ----------
    board, closed, start, end, seed, limit, timeout
        The common solver signature (``seed`` seeds the random tie-breaks of
        ``restarts``; ``limit`` counts placed squares).
    moves : str or sequence of (int, int), optional
        The trial order as ``(d_rank, d_file)`` pairs, e.g.
        ``"-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1"``; default the board's
        order (for the knight the seed-004 order ``(2,1) (1,2) (-1,2) (-2,1)
        (-2,-1) (-1,-2) (1,-2) (2,-1)``).
    order : {"fixed", "warnsdorff"}
        ``"warnsdorff"`` tries the move with the fewest unvisited onward
        squares first (ties in the fixed order).
    prune : bool
        Cut subtrees that contain no tour (see Notes).
    memo : bool
        Remember failed positions (up to four million, and 512 MiB) and skip
        them when met again.
    oracle : bool
        With ``order="fixed"``: find the same first tour without searching,
        by asking a SAT solver, child by child in the move order, whether the
        subtree below holds a tour (see Notes).
    restarts : int
        With ``order="warnsdorff"``: break ties at random (seeded) and restart
        the search with fresh ties after ``restarts * luby(k)`` placements in
        run ``k`` (Luby's sequence), keeping the memo.  Runs grow without
        bound, so the search stays complete; 0 (default) means one run.

    Returns
    -------
    SearchResult
        FOUND with the first tour in the search order; PROVEN_ABSENT with an
        ``"exhaustive-search"`` certificate when every branch failed; ABORTED
        on the budget.  ``stats`` has ``placed`` and ``tried``.

    Notes
    -----
    The search is depth-first over paths from the start: each node extends
    the path by one leap to an unvisited square.  Without pruning it visits
    up to the number of such paths, exponential in the number of squares
    (the seeds' 8x8 run examines 25.9 million moves; 10x10 does not finish).

    Pruning rules, checked on the set ``U`` of unvisited squares after each
    move to square ``x`` (sets are Python integers used as bit sets, so each
    rule costs a few dozen whole-board operations):

    1. *Connectivity*: every square of ``U`` must be reachable from ``x``
       through ``U``.  The rest of the tour is a path from ``x`` through all of
       ``U`` inside ``U``, so a square it cannot reach can never be visited.
    2. *Enough neighbours*: in the rest of the tour every square of ``U``
       except the last is entered and left, so it needs two neighbours in
       ``U + {x}``; at most one square (the last, which must be the required
       end if there is one) may have fewer.  For a closed tour the last square
       also moves back to the start ``s``, so counting ``s`` as a neighbour,
       every square needs two, and some square of ``U`` must neighbour ``s``.
    3. *The end is entered last*: a required end square is never stepped on
       while other squares remain, since the tour would then not end there.
    4. *Colours*: a tour alternates colours, so the colour counts of the
       board and the ends must balance; this is checked once, before the
       search, as every move keeps the balance of what is left (with the
       other cheap certificates of :func:`knightgraph.proofs.quick_obstruction`).
    5. *Independent half* (boards with four ranks or files): the outer lines
       ``O`` hold half the squares and no move joins two of them
       (:func:`knightgraph.proofs.schwenk_partition` checks this on the
       board), so squares of ``O`` never take neighbouring places in the tour.
       If ``k`` squares remain, those of ``O`` fit in places ``1 .. k`` (not
       place 1 when the current square is in ``O``, not place ``k`` of a
       closed tour when the start is) only if there are at most half as many
       as places, rounded up.

    Each rule only removes paths that cannot be completed, and the surviving
    children keep their order, so with ``order="fixed"`` the first tour found
    is the one plain search finds.  Depth-first search is heavy-tailed: one
    early bad choice can cost an exponential subtree, which randomised
    restarts avoid (``restarts``: 4x16 from a corner takes minutes in one
    run, milliseconds with restarts).  ``memo`` is sound for the same reason: the
    completions of a path depend only on its last square and ``U``.  When the
    start is free, an open-tour search tries one start per orbit of the
    board's symmetry group: a symmetry maps tours to tours.
    """
    if order not in ("fixed", "warnsdorff"):
        raise InvalidOptionError(f"invalid order {order!r}: choose 'fixed' or 'warnsdorff'")
    if oracle and order != "fixed":
        raise InvalidOptionError("the oracle follows the fixed move order: use order='fixed'")
    if restarts and order != "warnsdorff":
        raise InvalidOptionError("restarts need order='warnsdorff' (they re-break its ties)")
    board = problem.board
    pairs = parse_moves(moves, board) if moves is not None else list(board.offsets)
    if prune or oracle:  # rule 4 and the other certificates, checked once at the root
        certificate = quick_obstruction(
            board,
            closed=problem.closed,
            start=None if problem.start is None else board.square(problem.start),
            end=None if problem.end is None else board.square(problem.end),
        )
        if certificate is not None:
            return problem.absent(certificate, {"placed": 0, "tried": 0})
    why = budget.exceeded(0)  # before the start squares and tables, which take a while on
    if why:  # millions of squares
        return problem.aborted(why, {"placed": 0, "tried": 0})
    search_problem = problem.searched_from_end()
    search = _Search(
        search_problem, budget, pairs, order == "warnsdorff", prune, set() if memo else None
    )
    starts = _Starts(search_problem, search.warnsdorff)
    if oracle and board.num_squares > 2:
        return _oracle_search(problem, search, starts)
    plain = not (prune or memo or restarts or search.warnsdorff) and board.num_squares > 1
    rng = random.Random(0 if seed is None else seed)
    for run in itertools.count(1):
        if restarts:  # a fresh tie-break, and a node allowance that grows as Luby's sequence
            search.noise = [rng.random() for _ in range(board.area)]
            search.budget = budget.phase(search.stats["placed"] + restarts * _luby(run))
        try:
            for start in starts:
                path = _compiled_run(search, start) if plain else search.run(start)
                if path is not None:
                    return problem.found(path, _stats(search, restarts, run))
            return _exhausted(problem, search, starts)
        except _Abort as stop:
            why = budget.exceeded(search.stats["placed"])
            if not restarts or why:
                return problem.aborted(why or str(stop), _stats(search, restarts, run))
    raise AssertionError("unreachable")


_COMPILED_CHUNK = 1 << 22  # placements per kernel call between budget checks


def _compiled_run(search: _Search, start: int) -> list[int] | None:
    """:meth:`_Search.run` for plain search (fixed order, no pruning), by the kernel.

    Same tours and the same ``placed`` and ``tried`` counts, about a hundred
    times faster (:func:`knightgraph.solvers.kernels.dfs_python` is the
    plain-Python version of the loop).
    """
    problem = search.problem
    board = problem.board
    if search.kernel_arrays is None:  # built once per search, reset per start in O(1)
        search._check_budget(search.stats["placed"], search.stats["tried"])
        targets = board.move_table(search.moves, missing=board.area, sentinel=True)
        visited = np.zeros(board.area + 1, dtype=np.uint8)
        visited[board.area] = 1
        search.kernel_arrays = (
            targets,
            np.zeros(board.area + 1, dtype=np.uint8),  # closers
            np.zeros(problem.board.num_squares, dtype=np.int32),  # path
            np.zeros(problem.board.num_squares, dtype=np.int8),  # cursor
            visited,
        )
    targets, closers, path, cursor, visited = search.kernel_arrays
    if board.num_squares > 1 and not (targets[start] != board.area).any():
        search.stats["tried"] += targets.shape[1]  # what the kernel would count: no move leads on
        return None
    # An exhausted run leaves every square unvisited again; only the start's entries change.
    visited[start] = 1
    cursor[0] = 0
    closers[targets[start]] = 1
    closers[board.area] = 0
    path[0] = start
    try:
        return _compiled_loop(search, targets, closers, path, cursor, visited, start)
    finally:
        closers[targets[start]] = 0
        if visited[start]:  # found, or stopped by the budget: start afresh next time
            visited[:] = 0
            visited[board.area] = 1


def _compiled_loop(
    search: _Search,
    targets: np.ndarray[Any, Any],
    closers: np.ndarray[Any, Any],
    path: np.ndarray[Any, Any],
    cursor: np.ndarray[Any, Any],
    visited: np.ndarray[Any, Any],
    start: int,
) -> list[int] | None:
    from .kernels import DFS_FOUND, DFS_RUNNING, kernels

    problem = search.problem
    stats = search.stats
    counters = np.array([0, stats["placed"], stats["tried"]], dtype=np.int64)
    dfs = kernels().dfs
    end = -1 if problem.end is None else problem.end
    while True:
        placed = int(counters[1])
        search._check_budget(placed, int(counters[2]))
        limit = search.budget.limit
        stop = placed + _COMPILED_CHUNK if limit is None else min(placed + _COMPILED_CHUNK, limit)
        status = dfs(targets, closers, path, cursor, visited, counters, end, problem.closed, stop)
        stats["placed"], stats["tried"] = int(counters[1]), int(counters[2])
        if status == DFS_FOUND:
            found: list[int] = path.tolist()
            return found
        if status != DFS_RUNNING:
            return None


def _oracle_search(problem: Problem, search: _Search, starts: _Starts) -> SearchResult:
    """The first tour of plain search in the fixed order, found by a SAT oracle.

    Plain depth-first search meets the first tour in the first child (in move
    order) whose subtree holds a tour.  So, from the start, ask for each child
    in order whether a tour completes the path through it, and go down into
    the first child that says yes: the path grows by one square per level and
    never backtracks.  The solver's answers come with a whole tour, which
    answers later questions for free (a child on that tour needs no query).
    """
    from .cnf import HamiltonCNF

    board = search.problem.board
    stats: dict[str, Any] = {"queries": 0, "rounds": 0}
    for start in starts:
        cnf = HamiltonCNF(board, search.problem.closed, start, search.problem.end)
        try:
            search.tables()
            path = _descend(cnf, search, start, stats)
        except _Abort as stop:
            return problem.aborted(str(stop), stats)
        finally:
            stats["rounds"] += cnf.rounds
            cnf.delete()
        if path is not None:
            return problem.found(path, stats)
    return problem.absent(
        Certificate(
            "exhaustive-search",
            f"a SAT solver found no tour ({stats['queries']} queries)",
            {"queries": stats["queries"], "starts": [board.name(s) for s in starts]},
        ),
        stats,
    )


def _descend(cnf: Any, search: _Search, start: int, stats: dict[str, Any]) -> list[int] | None:
    """Grow the path from ``start`` child by child (see :func:`_oracle_search`)."""
    problem, budget = search.problem, search.budget
    total, end = problem.board.num_squares, problem.end

    def ask(assumptions: list[int]) -> dict[int, int] | None:
        stats["queries"] += 1
        outcome = cnf.solve(assumptions, budget)
        if outcome.status == "aborted":
            raise _Abort(budget.exceeded(0) or "the SAT solver stopped")
        if outcome.status == "unsat":
            return None
        order = outcome.order if outcome.order[0] == start else outcome.order[::-1]
        return dict(itertools.pairwise(order))

    successor = ask([])
    if successor is None:
        return None
    path, seen, assumed = [start], {start}, list[int]()
    while len(path) < total:
        here = path[-1]
        for nxt in search.targets[here]:
            if nxt < 0 or nxt in seen or (nxt == end and len(path) < total - 1):
                continue
            literal = cnf.var(here, nxt)
            if successor.get(here) == nxt:
                break
            answer = ask([*assumed, literal])
            if answer is not None:
                successor = answer
                break
        else:  # pragma: no cover - the last answer's tour always offers a child
            raise AssertionError("the oracle lost its tour")
        assumed.append(literal)
        path.append(nxt)
        seen.add(nxt)
    return path


def _stats(search: _Search, restarts: int, run: int) -> dict[str, Any]:
    return {**search.stats, "runs": run} if restarts else dict(search.stats)


def _luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    Restarting a randomised search after ``base * luby(i)`` steps is within a
    log factor of the best fixed cut-off (Luby, Sinclair and Zuckerman 1993).

    Examples
    --------
    >>> [_luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while True:
        block = (1 << k) - 1  # the sequence is built of blocks of length 2^k - 1
        if i == block:
            return 1 << (k - 1)
        if i < block:  # inside a block: it repeats the previous block twice
            i -= (1 << (k - 1)) - 1
            k = 1
        else:
            k += 1


def _exhausted(problem: Problem, search: _Search, starts: _Starts) -> SearchResult:
    where = " from any start" if problem.start is None and not problem.closed else ""
    stats = search.stats
    return problem.absent(
        Certificate(
            "exhaustive-search",
            f"a complete depth-first search ({stats['placed']:,} squares placed"
            f"{', pruned' if search.prune else ''}) found no tour{where}",
            {
                "placed": stats["placed"],
                "tried": stats["tried"],
                "starts": [problem.board.name(s) for s in starts],
                "moves": [list(m) for m in search.moves],
                "order": "warnsdorff" if search.warnsdorff else "fixed",
                "prune": search.prune,
                "memo": search.memo is not None,
            },
        ),
        stats,
    )
