"""Quick zeros: counts that are 0 because a cheap certificate of absence applies.

Before any plan is built, :func:`quick_zero` asks :func:`knightgraph.proofs.certificates.quick_obstruction`
for the argument that rules every tour out (colour counts, a square of degree below 2 in a
closed tour or too many squares of degree 1 in an open one, the closing move, Schwenk's
partition of ``4 x n`` boards, a disconnected leaper graph) and hands it to the independent
checker (:mod:`knightgraph.certcheck`).  Only a certificate the checker accepts makes a
zero: a count of 0 given this way is a proof, not a guess, and the certificate travels with
the answer (``CountResult.certificate``, the ``certificate`` key of ``count --format json``).

Examples
--------
>>> from knightgraph import Board
>>> quick_zero(Board(6, 6, leaper=(1, 3))).kind  # the camel keeps its colour
'degree'
>>> quick_zero(Board(5, 6), closed=True) is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..boards.board import Board
from ..tours.results import Certificate, SearchResult, Status

if TYPE_CHECKING:
    from ..boards.graphboard import GraphBoard


def quick_zero(
    board: Board | GraphBoard,
    *,
    closed: bool = False,
    start: int | None = None,
    end: int | None = None,
) -> Certificate | None:
    """A checked certificate that the board has no tour of the kind asked for, or None.

    Parameters
    ----------
    board : Board or GraphBoard
        The board (a graph board's answer is None: no cheap argument is tried on it).
    closed : bool
        Closed tours (a closed tour from ``start`` to ``end`` uses the move
        between them, as in :func:`~knightgraph.count_tours`) or open ones.
    start, end : int, optional
        Flat indices of the fixed first and last squares.

    Returns
    -------
    Certificate or None
        A certificate that the independent checker accepts for exactly this
        request; None when no cheap argument applies (the count must be run).

    Notes
    -----
    Each argument is O(mn) (breadth-first search for connectivity, a degree
    per square, colour counts), against the exponential frontier of the
    dynamic program; the checker repeats the argument in plain Python, also
    O(mn).  Soundness is that of the certificates (see
    :mod:`knightgraph.proofs.certificates`): a tour of the request would contradict each of
    them, so the count of such tours is 0, directed or not, under either
    convention (the ``knuth`` tours are a subset of the open ones).  A
    certificate the checker refuses is dropped (None), never trusted.

    Examples
    --------
    >>> from knightgraph import Board
    >>> quick_zero(Board(7, 7), closed=True).reason
    'a closed tour alternates colours, so it needs as many squares of each colour; 7x7 has 25 of colour 0 and 24 of colour 1'
    >>> quick_zero(Board(5, 5), start=1).kind  # b1: open tours of 5x5 start on a1's colour
    'colour-count'
    >>> quick_zero(Board(5, 5), start=0) is None
    True
    """
    from ..proofs.certificates import check, quick_obstruction

    rect = board.rectangle
    if rect is None:
        return None
    ends = {
        "start": None if start is None else rect.square(start),
        "end": None if end is None else rect.square(end),
    }
    certificate = quick_obstruction(rect, closed=closed, **ends)
    if certificate is None:
        return None
    accepted, _ = check(certificate, rect, closed=closed, **ends)
    return certificate if accepted else None


def settled_map(
    board: Board,
    *,
    closed: bool,
    kind: str,
    start: tuple[int, int] | None,
    candidates: list[tuple[int, int]],
) -> dict[tuple[int, int], SearchResult] | None:
    """Every cell of a ``starts``/``ends`` map at once, when the board has no tour at all.

    Parameters
    ----------
    board : Board
    closed : bool
    kind : {"starts", "ends"}
        A map of start squares, or of the end squares of tours from ``start``.
    start : (int, int) or None
        The fixed start of an ``ends`` map.
    candidates : list of (int, int)
        The cells of the map.

    Returns
    -------
    dict or None
        For each candidate, a PROVEN_ABSENT :class:`~knightgraph.SearchResult`
        carrying the one certificate that rules out every tour of the board
        (from ``start`` for ``ends``), which the independent checker has
        accepted for that cell's own request; None when no cheap argument
        rules out the whole map (each cell must then be decided alone).

    Notes
    -----
    The certificate is found once (:func:`quick_zero`, O(mn)), and checked
    once per cell (O(mn) each): a request with a further fixed end asks for a
    subset of the tours the certificate already excludes, so it holds for the
    cell; the check per cell makes sure the checker agrees rather than
    trusting that argument.

    Examples
    --------
    >>> from knightgraph import Board
    >>> board = Board(6, 6, leaper=(1, 3))
    >>> cells = settled_map(board, closed=False, kind="starts", start=None,
    ...                     candidates=board.squares())
    >>> len(cells), {r.certificate.data["clause"] for r in cells.values()}
    (36, {'disconnected'})
    >>> settled_map(Board(5, 5), closed=False, kind="starts", start=None,
    ...             candidates=[(0, 0)]) is None
    True
    """
    import time

    from ..proofs.certificates import check

    began = time.perf_counter()
    fixed = None if start is None else start[0] * board.n + start[1]
    whole = quick_zero(board, closed=closed, start=fixed)
    if whole is None:
        return None
    cells: dict[tuple[int, int], SearchResult] = {}
    for square in candidates:
        ends = {"start": square} if kind == "starts" else {"start": start, "end": square}
        if not check(whole, board, closed=closed, **ends)[0]:
            return None
        cells[square] = SearchResult(
            Status.PROVEN_ABSENT,
            certificate=whole,
            method="certificate",
            seconds=time.perf_counter() - began,
        )
    return cells
