"""Forced moves: a certificate that no open tour joins two given squares, of any board length.

In an open tour from ``s`` to ``t`` (a Hamiltonian path of the leaper graph)
every square uses exactly ``need(v)`` of its moves: one at ``s`` and ``t``,
two elsewhere.  Moves become *forced* or *ruled out* by a few local rules,
and when they contradict each other no such tour exists.  The rules look
only at the squares they are applied to and their moves, so a certificate
names a handful of squares near the corners and the ends, and the
independent checker (:mod:`knightgraph.certcheck`) replays it in time
independent of the board's length.

This decides, for instance, the exceptions of long thin boards: on ``5 x n``
(``n`` even) no tour ends on b3, since the corners a1 and a5 have only two
moves each, both forced, and one of each goes to b3, which as an end may use
only one; on ``3 x n`` the same holds for c2 (forced by a1 and a3).

Examples
--------
>>> from knightgraph import Board
>>> cert = forced_obstruction(Board(5, 40), "b3", "h4")
>>> cert.kind, cert.data["squares"]
('forced-moves', ['a1', 'an1', 'a5'])
"""

from __future__ import annotations

from collections.abc import Iterable

from ..boards.board import Board, SquareLike
from ..tours.results import Certificate

__all__ = ["REACH", "WHOLE", "forced_obstruction", "propagate"]

REACH = 4
"""Squares within this many ranks and files of an end or a corner are examined."""

WHOLE = 400
"""Boards up to this many squares are examined whole."""

Edge = frozenset[int]


def forced_obstruction(
    board: Board, start: SquareLike | None, end: SquareLike | None, *, closed: bool = False
) -> Certificate | None:
    """A contradiction among the forced moves of an open tour from ``start`` to ``end``.

    Parameters
    ----------
    board : Board
    start, end : square or None
        Both are needed (the rules use the ends' degree one); otherwise None.
    closed : bool
        Closed tours are not treated here (None).

    Returns
    -------
    Certificate or None
        Kind ``forced-moves``: the squares at which the rules are applied (those
        that forced a move, then the one where the contradiction shows); None
        when the rules reach no contradiction (which proves nothing).

    Notes
    -----
    Sound rules, for a Hamiltonian path from ``s`` to ``t`` (``s != t``): a
    square ``v`` uses exactly ``need(v)`` moves (1 at the ends, 2 elsewhere).
    A move ``v-u`` is *open* when it is not forced, ``u`` still has room
    (fewer forced moves than ``need(u)``) and adding it makes no cycle of forced
    moves and no forced path from ``s`` to ``t`` short of every square (each
    would contradict a Hamiltonian path).  At ``v``: more forced moves than
    ``need(v)``, or fewer forced plus open ones, is a contradiction; exactly
    ``need(v)`` forces every open move.  Applied to a fixed point over the
    squares within :data:`REACH` of an end or a corner (every square on
    boards up to :data:`WHOLE`): O(k^2) for k squares examined, independent of
    the board's length.

    Examples
    --------
    >>> forced_obstruction(Board(3, 21), "c1", "d2").reason
    'forced moves contradict each other at ...: no open tour from c1 to d2'
    >>> forced_obstruction(Board(8, 8), "a1", "b1") is None
    True
    """
    if closed or start is None or end is None:
        return None
    s, t = board.index(start), board.index(end)
    if s == t or board.num_squares < 3:
        return None
    squares = _region(board, s, t)
    fired, where = propagate(board, squares, s, t)
    if where is None:
        return None
    order = [*dict.fromkeys([*fired, where])]
    names = [board.name(v) for v in order]
    return Certificate(
        "forced-moves",
        f"forced moves contradict each other at {board.name(where)}: no open tour from "
        f"{board.name(s)} to {board.name(t)}",
        {"squares": names},
    )


def _region(board: Board, s: int, t: int) -> list[int]:
    """The squares examined: all on small boards, else those near an end or a corner."""
    m, n = board.m, board.n
    if board.area <= WHOLE:
        return [board.index(sq) for sq in board.squares()]
    centres = [board.square(s), board.square(t), (0, 0), (0, n - 1), (m - 1, 0), (m - 1, n - 1)]
    near: set[tuple[int, int]] = set()
    for r0, c0 in centres:
        for r in range(max(0, r0 - REACH), min(m, r0 + REACH + 1)):
            for c in range(max(0, c0 - REACH), min(n, c0 + REACH + 1)):
                near.add((r, c))
    near -= set(board.removed)
    return sorted(board.index(sq) for sq in near)


def propagate(board: Board, squares: Iterable[int], s: int, t: int) -> tuple[list[int], int | None]:
    """Apply the rules at ``squares`` to a fixed point: (the squares that forced a
    move, in order; the square where a contradiction shows, or None).

    Examples
    --------
    >>> b = Board(5, 10)
    >>> fired, where = propagate(b, range(50), b.index("b3"), b.index("c5"))
    >>> b.name(where) in ("b3", "a1", "a5")
    True
    """
    total = board.num_squares
    todo = list(dict.fromkeys(squares))
    moves = {v: [board.index(u) for u in board.neighbors(board.square(v))] for v in todo}
    forced: dict[int, set[int]] = {}
    fired: list[int] = []

    def need(v: int) -> int:
        return 1 if v in (s, t) else 2

    def far_end(v: int) -> tuple[int, int]:
        """The other end of v's fragment of forced moves and its number of squares."""
        prev, cur, size = -1, v, 1
        while True:
            nxt = [u for u in forced.get(cur, ()) if u != prev]
            if not nxt:
                return cur, size
            prev, cur, size = cur, nxt[0], size + 1
            if cur == v:  # pragma: no cover - forced moves never close a cycle here
                return cur, size

    def is_open(v: int, u: int) -> bool:
        if u in forced.get(v, ()) or len(forced.get(u, ())) >= need(u):
            return False
        a, size_a = far_end(v)
        b, size_b = far_end(u)
        if a == u:  # v and u end one fragment: a cycle
            return False
        return not ({a, b} == {s, t} and size_a + size_b < total)

    changed = True
    while changed:
        changed = False
        for v in todo:
            have = len(forced.get(v, ()))
            if have > need(v):
                return fired, v
            if have == need(v):
                continue
            free = [u for u in moves[v] if is_open(v, u)]
            if have + len(free) < need(v):
                return fired, v
            if have + len(free) == need(v) and free:
                for u in free:
                    if not is_open(v, u):  # forcing the first closed the second
                        return fired, v
                    forced.setdefault(v, set()).add(u)
                    forced.setdefault(u, set()).add(v)
                fired.append(v)
                changed = True
    return fired, None
