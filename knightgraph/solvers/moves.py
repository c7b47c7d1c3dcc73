"""Move orders: the order in which a search tries a leaper's moves.

Shared by the strategies that take a ``moves`` option (``backtrack``,
``warnsdorff``); the text form ``"dr,dc;dr,dc;..."`` is the command line's
``--moves``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..boards.board import Board
from ..exceptions import InvalidOptionError, describe_value

__all__ = ["parse_moves"]


def parse_moves(moves: str | Sequence[Sequence[int]], board: Board) -> list[tuple[int, int]]:
    """Parse a move order ``"dr,dc;dr,dc;..."`` (or pairs) and check it lists every leap once.

    Examples
    --------
    >>> parse_moves("-2,1;-1,2;1,2;2,1;2,-1;1,-2;-1,-2;-2,-1", Board(8, 8))[:2]
    [(-2, 1), (-1, 2)]
    >>> parse_moves("1,2;2,1", Board(8, 8))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid move order '1,2;2,1': it must list each of the 8 moves (d_rank, d_file) of the (1, 2) leaper exactly once
    """
    shown = repr(moves) if isinstance(moves, str) else describe_value(moves)
    pairs = []
    try:
        text = moves if isinstance(moves, str) else ";".join(f"{a},{b}" for a, b in moves)
        for part in text.replace(" ", "").strip(";").split(";"):
            a, b = part.split(",")
            pairs.append((int(a), int(b)))
    except (TypeError, ValueError):
        pairs = []
    if len(pairs) != len(board.offsets) or set(pairs) != set(board.offsets):
        raise InvalidOptionError(
            f"invalid move order {shown}: it must list each of the {len(board.offsets)} moves "
            f"(d_rank, d_file) of the {board.leaper} leaper exactly once"
        )
    return pairs
