"""Puzzle pictures: the grid with its clues, the answer, and a printable page of both.

:func:`draw_puzzle` draws a puzzle on a plain grid (clues in bold; with a solution, every
number, the clues bold and the others lighter, and the path faintly behind them).
:func:`save_puzzle_page` writes the printable page: a PDF of two pages (the puzzle, then
the answer), or an SVG or PNG with the two side by side; atomically, whole or not at all.

Examples
--------
>>> from knightgraph.puzzles import Puzzle, solve_puzzle
>>> puzzle = Puzzle(3, 4, {"a1": 1, "d3": 12})
>>> ax = draw_puzzle(puzzle)
>>> sorted(t.get_text() for t in ax.texts)
['1', '12']
>>> ax = draw_puzzle(puzzle, solve_puzzle(puzzle).tour.order)
>>> len(ax.texts)
12
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidOptionError
from ._style import board_axes, frame_board, new_axes, new_figure, square_points

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..puzzles.model import Puzzle

__all__ = ["PAGE_FORMATS", "draw_puzzle", "save_puzzle_page"]

PAGE_FORMATS = ("pdf", "svg", "png")
"""The printable page's formats, by the file's suffix: PDF has two pages, the others one."""

CLUE, ANSWER, GRID, PATH = "#111111", "#4a6fa5", "#555555", "#c9d6ea"


def draw_puzzle(
    puzzle: Puzzle,
    solution: Sequence[int] | Any = None,
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """The puzzle's grid with its clues; with ``solution`` (flat squares in the order of
    their numbers), the answer.

    Parameters
    ----------
    puzzle : Puzzle
    solution : sequence of int, optional
        ``solution[k - 1]`` is the flat square (``r * cols + c``) of number ``k``.
    ax : matplotlib Axes, optional
    title : str, optional
        Default: what the puzzle asks (or "answer").

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from knightgraph.puzzles import Puzzle
    >>> draw_puzzle(Puzzle(2, 3, {"a1": 1})).get_title()
    'open tour puzzle, 2 x 3: number the squares 1..6, a knight move apart'
    """
    m, n = puzzle.rows, puzzle.cols
    ax = board_axes(ax, m, n, long_side=min(9.0, max(4.0, 0.8 * max(m, n))))
    square = square_points(ax, m, n)
    for r in range(m + 1):
        ax.plot([-0.5, n - 0.5], [r - 0.5, r - 0.5], color=GRID, linewidth=0.8, zorder=1)
    for c in range(n + 1):
        ax.plot([c - 0.5, c - 0.5], [-0.5, m - 0.5], color=GRID, linewidth=0.8, zorder=1)
    size = min(20.0, 0.45 * square, 1.5 * square / len(str(puzzle.size)))
    numbers = {(r, c): k for (r, c), k in puzzle.clues.items()}
    if solution is not None:
        order = [int(s) for s in solution]
        xs = [s % n for s in order]
        ys = [s // n for s in order]
        if puzzle.closed and order:
            xs.append(xs[0])
            ys.append(ys[0])
        ax.plot(xs, ys, color=PATH, linewidth=max(0.8, square / 20), zorder=2)
        numbers = {divmod(s, n): k for k, s in enumerate(order, 1)}
    for (r, c), k in numbers.items():
        clue = puzzle.clues.get((r, c)) == k
        ax.text(
            c,
            r,
            str(k),
            ha="center",
            va="center",
            fontsize=size,
            color=CLUE if clue else ANSWER,
            fontweight="bold" if clue else "normal",
            zorder=3,
        )
    kind = "closed" if puzzle.closed else "open"
    if title is None:
        title = (
            f"{kind} tour puzzle, {m} x {n}: number the squares 1..{puzzle.size}, a knight "
            "move apart"
            if solution is None
            else f"answer ({kind} tour, {m} x {n}; clues in bold)"
        )
    ax.set_title(title, fontsize=10)
    frame_board(ax, m, n, labels=True, square=square)
    return ax


def save_puzzle_page(
    puzzle: Puzzle, solution: Sequence[int] | Any, path: str | os.PathLike[str]
) -> None:
    """Write the printable page: ``.pdf`` two pages (the puzzle, then the answer), ``.svg``
    or ``.png`` one picture with the two side by side; atomically.

    Raises
    ------
    InvalidOptionError
        For another suffix (nothing is written).
    OSError
        If the file cannot be written (nothing is left behind).

    Examples
    --------
    >>> import os, tempfile
    >>> from knightgraph.puzzles import Puzzle, solve_puzzle
    >>> puzzle = Puzzle(3, 4, {"a1": 1, "d3": 12})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "puzzle.pdf")
    ...     save_puzzle_page(puzzle, solve_puzzle(puzzle).tour.order, path)
    ...     with open(path, "rb") as f:
    ...         f.read().count(b"/Type /Page ")
    2
    """
    from ..running.disk import atomic_output

    suffix = os.fspath(path).rsplit(".", 1)[-1].lower() if "." in os.fspath(path) else ""
    if suffix not in PAGE_FORMATS:
        raise InvalidOptionError(
            f"cannot write {os.fspath(path)!r}: a puzzle page is .pdf, .svg or .png"
        )
    if suffix == "pdf":
        from matplotlib.backends.backend_pdf import PdfPages

        first, second = _page(puzzle, None), _page(puzzle, solution)
        with atomic_output(path, "wb") as handle, PdfPages(handle) as pdf:
            pdf.savefig(new_figure(first))
            pdf.savefig(new_figure(second))
        return
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(16.5 / 2.54 * 2, 16.5 / 2.54 + 1.2))
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    draw_puzzle(puzzle, ax=left)
    draw_puzzle(puzzle, solution, ax=right)
    with atomic_output(path, "wb") as handle:
        fig.savefig(handle, format=suffix, dpi=150)


def _page(puzzle: Puzzle, solution: Any) -> Axes:
    """One A4 page: the grid in its upper part."""
    ax = new_axes(8.27, 11.69)
    ax.set_position((0.12, 0.35, 0.76, 0.55))
    draw_puzzle(puzzle, solution, ax=ax)
    return ax
