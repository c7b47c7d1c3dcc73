"""Puzzle files (text and JSON) and puzzle answers (text and JSON).

The text form: lines starting with ``#`` and blank lines are skipped; the first other line
may be ``open`` (the default) or ``closed``; then one line per rank, **the top rank (rank
M) first**, as on a chess diagram and in ``knightgraph tour --format board``, each with
one token per file: ``.`` for a blank square, a whole number for a clue.  The ranks may
carry the labels of ``--format board`` (``8 | . 12 . ...``) and a last line of file
letters (``a b c ...``), so a numbered board reads back as it prints::

    closed
    . . . .  1 .
    . . . .  . .
    ...

The JSON form: an object with ``rows``, ``cols``, ``closed`` (default false) and ``clues``
(square name to number, ``{"a1": 1, "c2": 2}``), or ``grid`` in place of ``clues`` (a list
of ranks, the top rank first, each a list of numbers and ``null`` for blanks; ``rows`` and
``cols``, when given, must agree with it).  Other keys are ignored: the JSON answer of
``puzzle make`` or ``puzzle solve`` reads back as its puzzle.

Examples
--------
>>> p = parse_puzzle("closed\\n. . 1\\n. . .\\n")
>>> p
Puzzle(2, 3, clues={'c2': 1}, closed=True)
>>> print(puzzle_text(p))
closed
2 | . . 1
1 | . . .
    a b c
>>> parse_puzzle(puzzle_text(p)) == p == parse_puzzle('{"rows": 2, "cols": 3, "closed": true, '
...                                                     '"clues": {"c2": 1}}')
True
>>> parse_puzzle(". 1\\n. . .")
Traceback (most recent call last):
...
knightgraph.exceptions.InvalidPuzzleError: invalid puzzle file: line 2 has 3 squares, line 1 has 2 (ragged rows)
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..boards.squares import file_name
from ..puzzles.model import MAX_SQUARES, InvalidPuzzleError, Puzzle
from ..puzzles.solving import PuzzleAnswer, puzzle_fields
from .formats import numbered_board

__all__ = [
    "answer_dict",
    "answer_text",
    "parse_puzzle",
    "puzzle_text",
    "read_puzzle",
    "solution_text",
]

KINDS = {"open": False, "closed": True}


def _bad(why: str) -> InvalidPuzzleError:
    return InvalidPuzzleError(f"invalid puzzle file: {why}")


def read_puzzle(path: str | os.PathLike[str] | None) -> Puzzle:
    """The puzzle in a file (text or JSON; standard input for None or ``-``).

    Raises
    ------
    InvalidPuzzleError
        For a file that is no puzzle, naming the line and the token.
    InvalidOptionError
        For a file that cannot be read.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "p.txt")
    ...     with open(path, "w") as f:
    ...         _ = f.write("# a 3x4 puzzle\\n. . . 12\\n. . . .\\n1 . . .\\n")
    ...     read_puzzle(path)
    Puzzle(3, 4, clues={'a1': 1, 'd3': 12})
    """
    from ..running.disk import read_input

    raw = read_input(path, "puzzle")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad("not UTF-8 text") from None
    return parse_puzzle(text)


def parse_puzzle(text: str) -> Puzzle:
    """The puzzle of a text (the grid form, or JSON when it starts with ``{``).

    Examples
    --------
    >>> parse_puzzle('{"grid": [[null, null, 2], [1, null, null]], "closed": false}')
    Puzzle(2, 3, clues={'a1': 1, 'c2': 2})
    >>> parse_puzzle("1 . x")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidPuzzleError: invalid puzzle file: line 1, square 3: 'x' is neither '.' nor a number
    """
    if text.lstrip().startswith("{"):
        return _parse_json(text)
    return _parse_grid(text)


def _parse_grid(text: str) -> Puzzle:
    closed: bool | None = None
    ranks: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if not ranks and closed is None and len(words) == 1 and words[0].lower() in KINDS:
            closed = KINDS[words[0].lower()]
            continue
        if "|" in line:
            words = line.split("#", 1)[0].split("|", 1)[1].split()
        elif ranks and words == [file_name(c) for c in range(len(words))]:
            continue  # the file letters under a numbered board
        ranks.append((number, words))
    if not ranks:
        raise _bad("no squares in it")
    width = len(ranks[0][1])
    for at, words in ranks:
        if len(words) != width:
            raise _bad(
                f"line {at} has {len(words)} squares, line {ranks[0][0]} has {width} (ragged rows)"
            )
    m = len(ranks)
    if m * width > MAX_SQUARES:
        raise _bad(
            f"a {m}x{width} board has {m * width} squares; puzzles take at most {MAX_SQUARES}"
        )
    clues: dict[tuple[int, int], int] = {}
    for i, (at, words) in enumerate(ranks):
        for c, word in enumerate(words):
            if word == ".":
                continue
            if not (word.isascii() and word.isdigit()):
                raise _bad(f"line {at}, square {c + 1}: {word[:20]!r} is neither '.' nor a number")
            clues[(m - 1 - i, c)] = int(word)
    return Puzzle(m, width, clues, closed=bool(closed))


def _parse_json(text: str) -> Puzzle:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise _bad(f"not JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
    except RecursionError:
        raise _bad("the JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise _bad("the JSON is not an object")
    closed = data.get("closed", False)
    if closed is None:
        closed = False
    grid = data.get("grid")
    if grid is not None:
        return _json_grid(data, grid, closed)
    rows: Any = data.get("rows")
    cols: Any = data.get("cols")
    clues = data.get("clues", {})
    if clues is None:
        clues = {}
    if not isinstance(clues, dict):
        raise _bad("'clues' is not an object of square names and numbers")
    return Puzzle(rows, cols, clues, closed=closed)  # it checks the size and every clue


def _json_grid(data: dict[str, Any], grid: Any, closed: Any) -> Puzzle:
    if not isinstance(grid, list) or not grid or not all(isinstance(r, list) for r in grid):
        raise _bad("'grid' is not a list of ranks")
    width = len(grid[0])
    for i, rank in enumerate(grid, 1):
        if len(rank) != width:
            raise _bad(f"grid rank {i} has {len(rank)} squares, rank 1 has {width} (ragged rows)")
    m = len(grid)
    for key, value in (("rows", m), ("cols", width)):
        if data.get(key) is not None and data.get(key) != value:
            raise _bad(f"{key!r} is {data.get(key)!r}, but the grid has {value}")
    if m * width > MAX_SQUARES:
        raise _bad(
            f"a {m}x{width} board has {m * width} squares; puzzles take at most {MAX_SQUARES}"
        )
    clues = {
        (m - 1 - i, c): value
        for i, rank in enumerate(grid)
        for c, value in enumerate(rank)
        if value is not None
    }
    return Puzzle(m, width, clues, closed=closed)


def puzzle_text(puzzle: Puzzle, *, comments: tuple[str, ...] = ()) -> str:
    """The puzzle in the text form (``open`` or ``closed``, then the labelled grid).

    Examples
    --------
    >>> print(puzzle_text(Puzzle(2, 3, {"a1": 1}), comments=("made by hand",)))
    # made by hand
    open
    2 | . . .
    1 | 1 . .
        a b c
    """
    numbers = [puzzle.number_at(i) or 0 for i in range(puzzle.size)]
    head = [f"# {line}" for line in comments]
    kind = "closed" if puzzle.closed else "open"
    return "\n".join([*head, kind, numbered_board(numbers, puzzle.rows, puzzle.cols)])


def solution_text(order: Any, puzzle: Puzzle) -> str:
    """A solution as a numbered board (rank M first).

    Examples
    --------
    >>> print(solution_text([0, 2, 1], Puzzle(1, 3)))  # numbers, not a tour
    1 | 1 3 2
        a b c
    """
    numbers = [0] * puzzle.size
    for k, square in enumerate(order, 1):
        numbers[int(square)] = k
    return numbered_board(numbers, puzzle.rows, puzzle.cols)


def answer_dict(answer: PuzzleAnswer, *, command: str = "solve") -> dict[str, Any]:
    """The JSON answer: the puzzle, ``status``, ``squares`` (the first solution), ``tours``
    (every solution found), ``count`` (exact, or null), ``exact``, ``unique``, the
    certificate, ``reason``, ``seconds``, ``stats`` (``python -m knightgraph.certcheck``
    re-checks it).

    Examples
    --------
    >>> from knightgraph.puzzles import count_solutions
    >>> out = answer_dict(count_solutions(Puzzle(3, 4, {"a1": 1, "d3": 12})))
    >>> out["count"], out["unique"], out["certificate"]["kind"], out["squares"][:2]
    (1, True, 'puzzle-refutation', [[0, 0], [1, 2]])
    """
    tours = [[list(sq) for sq in tour.squares()] for tour in answer.solutions]
    stats = {k: v for k, v in answer.stats.items() if k != "seconds"}
    out: dict[str, Any] = {
        **puzzle_fields(answer.puzzle),
        "clue_count": answer.puzzle.clue_count,
        "command": command,
        "status": answer.status.value,
        "squares": tours[0] if tours else None,
        "tours": tours,
        "count": answer.count,
        "at_least": len(tours),
        "exact": answer.exact,
        "unique": answer.unique,
        "reason": answer.reason,
        "seconds": round(answer.seconds, 3),
        "stats": stats,
    }
    if answer.certificate is not None:
        out["certificate"] = answer.certificate.to_dict()
    return out


def answer_text(answer: PuzzleAnswer) -> str:
    """The answer in words and the first solution as a numbered board.

    Examples
    --------
    >>> from knightgraph.puzzles import solve_puzzle
    >>> print(answer_text(solve_puzzle(Puzzle(3, 4, {"a1": 1, "d3": 12}))))
    a solution of the 3x4 puzzle (open tour, 2 clues):
    3 |  3  6  9 12
    2 |  8 11  2  5
    1 |  1  4  7 10
         a  b  c  d
    """
    p = answer.puzzle
    kind = "closed" if p.closed else "open"
    clues = f"{p.clue_count} clue{'' if p.clue_count == 1 else 's'}"
    head = f"the {p.rows}x{p.cols} puzzle ({kind} tour, {clues})"
    if answer.tour is None:
        return f"{head}: {answer.verdict()}"
    verdict = (
        "a solution of"
        if answer.count is None and len(answer.solutions) == 1
        else (f"{answer.verdict()} of")
    )
    return f"{verdict} {head}:\n{solution_text(answer.tour.order.tolist(), p)}"
