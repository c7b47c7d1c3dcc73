"""Play mode: build a knight's tour by hand in the browser (``knightgraph play``).

:func:`play_html` returns a page that opens in play mode on an empty board (or
with the first square given) and :func:`write_play_html` writes it atomically.
It is the tour page of :mod:`knightgraph.draw.page`, the same template and script,
embedding no tour; every tour page reaches the same mode through its *Try it
yourself* button.  One self-contained file (about 60 kB whatever the board: nothing
is fetched), usable with the keyboard, in light and dark themes.

What the page does
------------------
* Clicking a square plays it: the first click chooses the start (unless the page
  was made with one), every later one must be a move of the piece from the
  current square to an unvisited square.  The legal next squares are shaded and
  carry their *Warnsdorff degree*, the number of unvisited squares a move away
  from them; before the first move every square shows its degree.
* *Undo* and *Redo* (``u``, ``r``; also Ctrl+Z, Ctrl+Y) take moves back and play
  them again; *Start again* clears the board.
* *Hint* (``h``) rings Warnsdorff's choice and puts the cursor on it: the legal
  square of fewest onward moves, ties going to the square farthest from the
  board's centre (Roth's rule), then to the first in board order (a1, b1, ...,
  a2, ...).  Before the first move the hint is the board's best start by the
  same rule.
* *Can it still be finished?* (``f``) answers *yes*, *no* or *unknown within
  1 s* (see Notes), never a guess; after a yes, *Show it* (``s``) draws the
  completion found, dashed and numbered.
* The *closed tour* box sets the goal that question decides (the page made with
  ``closed=True`` starts with it ticked).
* Visiting the last square celebrates, says whether the tour is closed (its
  last square a move away from its first: the closing move is drawn dashed) or
  open, and offers the tour as a JSON download in the form of
  :meth:`knightgraph.Tour.to_dict`, which ``knightgraph verify M N FILE`` reads.
* Keys: the arrows move a cursor (shift: 5 squares), Enter or space plays its
  square, ``Escape`` clears the hint.  The status line is an ARIA live region.

The position can be set from the address: ``play.html#moves=a1,c2,e1`` plays
those squares from an empty board (stopping before the first that is not
legal), ``#closed=1`` ticks the goal, ``#budget=MS`` gives the question another
time budget in milliseconds (up to 60,000).

For tests and scripts the state is in the DOM: ``<body>`` carries ``data-mode``
(``play``), ``data-path`` (the squares played, by name), ``data-legal`` (the
legal squares as ``name:degree``), ``data-hint``, ``data-cursor``,
``data-goal``, ``data-finished`` (``open``, ``closed`` or empty),
``data-answer`` (``yes``, ``no``, ``unknown``, ``pending`` or empty),
``data-reason`` (which rule or search decided) and ``data-completion``; the
download link is ``#download`` (a ``data:`` URL).

Boards up to 30 x 30 stay smooth: one canvas per layer (board, path, markers),
a move paints one square and draws one stroke, only undo redraws the path, and
the rules below take time linear in the board.

Notes
-----
*Can it still be finished?* decides whether the squares played so far, ``s``
(the first) to ``c`` (the current one), extend to a tour of the goal: a path
``c, u1, ..., uR`` through all ``R`` unvisited squares ``U`` (open), whose last
square ``uR`` is also a move away from ``s`` (closed).  It first applies rules,
each a proof that no completion exists; any that applies makes the answer *no*,
with the rule's reason.  ``deg(u)`` counts the unvisited squares a move away
from ``u``.

1. *Dead end*: ``R > 0`` and no move from ``c`` reaches an unvisited square
   (``u1`` must be one).
2. *Start* (closed): ``uR`` must be next to ``s``, so ``s`` needs an unvisited
   neighbour; while the knight is still on ``s`` it needs two (it leaves by one
   and comes back by another, which differ once ``R >= 2``).
3. *Cut off* and *ends*: every ``u_i`` but the last has two neighbours in the
   path and the last has one, all among ``U``, ``c`` (for ``u1``) and, when
   closed, ``s`` (for ``uR``), which counts as a second neighbour of ``uR``.
   So with ``R >= 2``: a square with no way in (``deg(u) = 0`` and not next to
   ``c``) is cut off; a square next to ``c`` only (``deg(u) = 0``) can only be
   ``u1``, and then the path stops there; when closed, every square needs two
   ways in or out; when open, a square with one way must be ``uR``, so two such
   squares rule a completion out.  Before the first move (no ``c``): isolated
   squares, and more than two squares with one neighbour (open) or any (closed).
4. *Colours*, for leapers that change the square's colour with every move
   (``a + b`` odd, the knight among them): the path alternates, so the squares
   of ``U`` of the colour ``c`` is not must equal those of ``c``'s colour or
   exceed them by one; when closed, ``uR`` (whose colour follows from ``R``)
   must differ in colour from ``s``; when open and rule 3 forced the last
   square, it must have that colour.  Before the first move: the colour counts
   of the board may differ by one at most (open), not at all (closed).
5. *Pieces*: ``u1, ..., uR`` is a path through ``U`` alone, so ``U`` must hang
   together by moves.
6. *Bottleneck*: a path through a square ``v`` joins at most two pieces of
   what is left without ``v``, so no ``v`` of ``U`` may split ``U`` into three
   (open).  When closed, shrink the visited squares to one square ``X`` next to
   the neighbours of ``c`` and ``s``: a completion is then a cycle through
   ``U`` and ``X``, and a cycle without one square still hangs together, so no
   ``v`` may split it at all.  Tarjan's low points find these in linear time.

When no rule applies, a depth-first search looks for a completion: moves in
Warnsdorff's order, a branch cut where rules 1-3 apply to its position (they are
proofs there too), in slices of about 12 ms so the page stays responsive, for
at most **1 s** of wall time from the question.  A completion it finds is
checked move by move on its own terms (every square once, each step a move of
the piece computed from the coordinates, the closing move when closed) before
the answer is *yes*; a completion that fails the check would be *unknown*.  A
search that tries every branch within the budget without finding one answers
*no* (every way on was tried).  Otherwise the answer is *unknown within 1 s*:
no completion found, none ruled out.  Before the first move the question is
whether any tour exists: the search tries every start in Warnsdorff's order (a
closed tour passes through every square, so for one it starts on the hint).

Examples
--------
>>> page = play_html(8, 8, start="a1")
>>> page.startswith("<!DOCTYPE html>"), 'data-mode="play"' in page, "http" in page
(True, True, False)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from ..boards.board import KNIGHT, LEAPERS, Board, SquareLike
from ..boards.coercion import as_board
from ..exceptions import InvalidBoardError, InvalidOptionError
from .page import render_page

__all__ = ["PLAY_LIMIT", "play_html", "write_play_html"]

PLAY_LIMIT = 10_000
"""The most squares of a play page (100 x 100): the page is smooth up to 30 x 30 and
usable well beyond, but building a tour of more squares by hand is no game."""


def play_html(
    m: int | Board,
    n: int | None = None,
    *,
    leaper: tuple[int, int] = KNIGHT,
    removed: Iterable[SquareLike] = (),
    start: SquareLike | None = None,
    closed: bool = False,
    title: str | None = None,
) -> str:
    """The page to build a tour of the board by hand: one self-contained HTML document.

    Parameters
    ----------
    m, n : int, or a Board as ``m``
        The board (``n`` defaults to ``m``), as every entry point takes it.
    leaper : (int, int), default (1, 2)
        The piece.
    removed : iterable of squares, optional
        Squares taken off the board.
    start : square, optional
        The first square, played when the page opens (it cannot be taken back);
        default: the first click chooses it.
    closed : bool, default False
        Aim for a closed tour: what *Can it still be finished?* decides first
        (the page's *closed tour* box changes it).
    title : str, optional
        The heading and window title (default ``"Build a knight's tour of 8x8"``
        and the like).

    Returns
    -------
    str
        The HTML page (UTF-8 text; no external scripts, styles, fonts or images).

    Raises
    ------
    InvalidBoardError
        For a bad board, or one of more than :data:`PLAY_LIMIT` squares.
    InvalidSquareError
        For a start off the board or on a removed square.
    InvalidOptionError
        For a title that is not text or a ``closed`` that is not a bool.

    Notes
    -----
    How the page decides *Can it still be finished?* and its budget of 1 s: see the
    module's Notes (:mod:`knightgraph.draw.play`).

    Examples
    --------
    >>> import json, re
    >>> page = play_html(5, 5, start="c3", closed=True)
    >>> re.search(r"<body [^>]*>", page).group()
    '<body data-rows="5" data-cols="5" data-mode="play" data-closed="true">'
    >>> data = json.loads(re.search(r'id="kg-data">(.*?)</script>', page).group(1))
    >>> data["start"], data["order"], data["leaper"], data["title"]
    (12, [], [1, 2], "Build a closed knight's tour of 5x5 from c3")
    >>> re.search("<h1 id=.title.>(.*)</h1>", play_html(3, 4, removed=["b2"], leaper=(1, 3)))[1]
    'Build a camel&#x27;s tour of 3x4, 1 square removed'
    >>> play_html(200, 200)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidBoardError: a play page is for boards of at most 10,000 squares; 200x200 has 40,000
    """
    board = as_board(m, n, leaper=leaper, removed=removed)
    if board.area > PLAY_LIMIT:
        raise InvalidBoardError(
            f"a play page is for boards of at most {PLAY_LIMIT:,} squares; "
            f"{board.m}x{board.n} has {board.area:,}"
        )
    if not isinstance(closed, bool):
        raise InvalidOptionError(f"invalid closed {closed!r}: expected True or False")
    first = None if start is None else board.index(board.parse_square(start))
    if title is None:
        title = _play_title(board, closed, None if first is None else board.name(first))
    elif not isinstance(title, str):
        raise InvalidOptionError(f"invalid title {title!r}: expected text")
    head = {
        "rows": board.m,
        "cols": board.n,
        "closed": closed,
        "title": title,
        "speed": 2.0,
        "step": 0,
        "autoplay": False,
        "numbers": None,
        "removed": sorted(r * board.n + c for r, c in board.removed),
        "leaper": list(board.leaper),
        "mode": "play",
        "start": first,
        "order": [],
    }
    data = json.dumps(head, separators=(",", ":"))
    attributes = (
        f'data-rows="{board.m}" data-cols="{board.n}" data-mode="play" '
        f'data-closed="{"true" if closed else "false"}"'
    )
    return render_page(title, attributes, 0, 0, data)


def write_play_html(board: int | Board, path: str | os.PathLike[str], **options: Any) -> None:
    """Write the page of :func:`play_html` to ``path`` (UTF-8), atomically.

    The page is built first (a bad option writes nothing), then written to a
    temporary file in the same folder and renamed onto ``path``; a symbolic link
    is followed, a device or a FIFO with a reader is written in place
    (:func:`knightgraph.running.disk.atomic_output`).

    Parameters
    ----------
    board : int or Board
        The board: a Board, or the side of a square one.
    path : str or path-like
        The ``.html`` file to write.
    **options
        Passed on to :func:`play_html` (``start``, ``closed``, ``title``; with an
        int ``board``, also ``leaper`` and ``removed``).

    Raises
    ------
    InvalidOptionError
        If ``path`` is empty or not a path, or for a bad option.
    OSError
        If the folder does not exist or cannot be written (the message names ``path``).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "play.html")
    ...     write_play_html(Board(6, 6), path, closed=True)
    ...     os.listdir(folder), 'data-closed="true"' in open(path, encoding="utf-8").read()
    (['play.html'], True)
    """
    from ..running.disk import atomic_output

    page = play_html(board, **options).encode("utf-8")
    with atomic_output(path, "wb") as handle:
        handle.write(page)


def _play_title(board: Board, closed: bool, start: str | None) -> str:
    """``"Build a closed knight's tour of 8x8 from a1"`` and the like.

    Examples
    --------
    >>> _play_title(Board(4, 5, removed=["a1"], leaper=(2, 3)), False, None)
    "Build a zebra's tour of 4x5, 1 square removed"
    """
    names = {v: k for k, v in LEAPERS.items()}
    a, b = board.leaper
    piece = names.get((a, b)) or names.get((b, a)) or f"({a},{b})-leaper"
    title = f"Build a {'closed ' if closed else ''}{piece}'s tour of {board.m}x{board.n}"
    k = len(board.removed)
    if k:
        title += f", {k} square{'' if k == 1 else 's'} removed"
    if start is not None:
        title += f" from {start}"
    return title
