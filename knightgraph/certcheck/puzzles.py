"""Puzzle answers for the independent checker: solutions, and refutations rebuilt from the puzzle.

A knight's-tour number puzzle (``rows``, ``cols``, ``closed``, ``clues``: square name to
number) is solved by a numbering ``1 .. N`` of the squares along a knight's tour (closed if
the puzzle says so) that keeps every clue.  An answer carries solutions (``squares``: one;
``tours``: several; each the squares in the order of their numbers) and a certificate:

``puzzle-refutation``
    ``solutions`` (a list of numberings, each checked to be a solution, all distinct) and a
    DRUP ``proof``.  The checker writes the puzzle's CNF itself, from the puzzle alone, with
    this module's own code: variables ``x(s, k) = s * N + k`` (``s = r * cols + c``) and
    the clauses "every square exactly one number", "every number exactly one square"
    (pairwise), "``k`` then ``k + 1`` a knight's move apart" in both directions (round the
    cycle for a closed puzzle), the clues as unit clauses, and one clause per listed
    solution ruling it out; the proof must refute them.  Then the listed solutions are
    all the solutions.
``colour-count``
    a closed puzzle on a board with an odd number of squares: a closed tour alternates
    colours, so it needs an even number of squares.

What the answer says is checked against what it carries: ``status`` ``proven_absent``
needs a refutation listing no solution; ``count`` (with ``exact`` true) must be the number
of solutions the refutation lists, ``unique`` true needs exactly one.  Standard library only.

Examples
--------
>>> check_puzzle_answer({"rows": 3, "cols": 4, "clues": {"a1": 1, "d3": 12},
...     "squares": ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "b2", "d3"]})
(True, 'puzzle: a solution of the 3x4 puzzle (a tour keeping its 2 clues)')
>>> check_puzzle_answer({"rows": 3, "cols": 4, "clues": {"a1": 2}, "squares": None})
(True, 'nothing to check: the answer carries no solution and no certificate')
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from .adjacency import Malformed, Rectangle, Rejected, parse_square, require, square_name

__all__ = ["MAX_PUZZLE_SQUARES", "check_puzzle_answer", "check_puzzle_certificate", "puzzle_cnf"]

MAX_PUZZLE_SQUARES = 144
"""Most squares of a puzzle the checker rebuilds (knightgraph's take at most 100)."""

Square = tuple[int, int]


class _Puzzle:
    """A puzzle as read from an answer: its size, kind and clues, checked."""

    def __init__(self, answer: Mapping[str, Any]) -> None:
        rows, cols, closed, clues = (answer.get(k) for k in ("rows", "cols", "closed", "clues"))
        for key, value in (("rows", rows), ("cols", cols)):
            if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
                raise Malformed(f"invalid {key!r}: {value!r}")
        assert isinstance(rows, int) and isinstance(cols, int)
        if rows * cols > MAX_PUZZLE_SQUARES:
            raise Malformed(f"a puzzle of {rows * cols} squares is too large to check here")
        if not isinstance(closed, bool | None):
            raise Malformed(f"invalid 'closed': {closed!r}")
        if not isinstance(clues, Mapping):
            raise Malformed(f"invalid 'clues': {type(clues).__name__}, not an object")
        self.m, self.n, self.closed, self.size = rows, cols, bool(closed), rows * cols
        self.clues: dict[Square, int] = {}
        for name, number in clues.items():
            square = read_square(name, rows, cols)
            ok = isinstance(number, int) and not isinstance(number, bool)
            if not ok or not 1 <= number <= self.size or square in self.clues:
                raise Malformed(f"invalid clue {name!r}: {number!r}")
            self.clues[square] = number
        if len(set(self.clues.values())) != len(self.clues):
            raise Malformed("a number is given twice in 'clues'")
        board = Rectangle(rows, cols, (1, 2), ())
        self.moves = {(r, c): board.moves((r, c)) for r in range(rows) for c in range(cols)}

    def words(self) -> str:
        return f"{self.m}x{self.n}{' closed' if self.closed else ''} puzzle"

    def solution(self, squares: Any) -> list[Square]:
        """The squares of a numbering, checked to solve the puzzle (else Rejected)."""
        path = knight_numbering(squares, self, ("solution", "numbered", "numbered"))
        for square, number in self.clues.items():
            got = path.index(square) + 1
            require(got == number, f"{square_name(square)} carries {got}, not its clue {number}")
        return path


def knight_numbering(squares: Any, board: Any, words: tuple[str, str, str]) -> list[Square]:
    """The squares of a numbering ``1 .. size`` read from an answer and checked to be a
    knight's tour of ``board`` (its ``m``, ``n``, ``size``, ``moves`` and ``closed``): else
    Malformed (not a list of squares of the board) or Rejected.  ``words`` name what is
    read in the messages: the thing, how its squares are counted, how one is repeated
    (("solution", "numbered", "numbered") for a puzzle, ("tour", "", "visited") for a magic
    tour)."""
    thing, counted, twice = words
    if not isinstance(squares, list):
        raise Malformed(f"a {thing} is a list of squares, not {type(squares).__name__}")
    path = [read_square(s, board.m, board.n) for s in squares]
    counted = f" {counted}" if counted else ""
    require(len(path) == board.size, f"{len(path)} squares{counted} for {board.size}")
    require(len(set(path)) == board.size, f"a square is {twice} twice")
    steps = list(itertools.pairwise(path))
    if board.closed:
        steps.append((path[-1], path[0]))
    for a, b in steps:
        require(b in board.moves[a], f"{square_name(a)} to {square_name(b)} is no knight move")
    return path


def read_square(value: Any, m: int, n: int) -> Square:
    """A square of an answer (a name like ``"b3"`` or ``[row, col]``) on the ``m x n``
    board, else Malformed."""
    if isinstance(value, str):
        try:
            square = parse_square(value)
        except ValueError:
            raise Malformed(f"invalid square {value[:20]!r}") from None
    elif (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        square = (value[0], value[1])
    else:
        raise Malformed(f"invalid square {value!r}"[:80])
    if not (0 <= square[0] < m and 0 <= square[1] < n):
        raise Malformed(f"square {value!r} is off the {m}x{n} board")
    return square


def puzzle_cnf(puzzle: Any, solutions: Sequence[Sequence[Square]] = ()) -> list[list[int]]:
    """The puzzle's clauses, written here from the puzzle alone, and one clause per solution
    ruling it out (see the module's text).

    Examples
    --------
    >>> cnf = puzzle_cnf(_Puzzle({"rows": 1, "cols": 1, "clues": {}}))
    >>> cnf
    [[1], [1]]
    """
    size: int = puzzle.size
    n: int = puzzle.n

    def x(square: Square, number: int) -> int:
        return (square[0] * n + square[1]) * size + number

    squares = [(r, c) for r in range(puzzle.m) for c in range(n)]
    numbers = range(1, size + 1)
    clauses: list[list[int]] = []
    for s in squares:
        clauses.append([x(s, k) for k in numbers])
        clauses += [[-x(s, k), -x(s, j)] for k in numbers for j in range(k + 1, size + 1)]
    for k in numbers:
        clauses.append([x(s, k) for s in squares])
        clauses += [[-x(s, k), -x(t, k)] for i, s in enumerate(squares) for t in squares[i + 1 :]]
    for s in squares:
        near = sorted(puzzle.moves[s], key=lambda t: (t[0], t[1]))
        for k in numbers:
            after = k % size + 1  # k + 1, or 1 after N round a closed cycle
            if k < size or puzzle.closed:
                clauses.append([-x(s, k)] + [x(t, after) for t in near])
            before = (k - 2) % size + 1  # k - 1, or N before 1
            if k > 1 or puzzle.closed:
                clauses.append([-x(s, k)] + [x(t, before) for t in near])
    clauses += [[x(s, k)] for s, k in puzzle.clues.items()]
    for path in solutions:
        clauses.append([-x(s, k) for k, s in enumerate(path, 1)])
    return clauses


def check_puzzle_certificate(
    puzzle: Mapping[str, Any], certificate: Mapping[str, Any]
) -> tuple[bool, str]:
    """Re-check a certificate about a puzzle (``rows``, ``cols``, ``closed``, ``clues``);
    ``(accepted, why)``.

    Examples
    --------
    >>> check_puzzle_certificate({"rows": 3, "cols": 3, "closed": True, "clues": {}},
    ...                          {"kind": "colour-count"})
    (True, 'colour-count: a closed tour of the 3x3 board would need an even number of squares, not 9')
    >>> check_puzzle_certificate({"rows": 3, "cols": 4, "clues": {}},
    ...                          {"kind": "puzzle-refutation", "solutions": [], "proof": ["0"]})
    (False, 'puzzle-refutation: the proof: lemma 1 (the empty clause) does not follow by unit propagation')
    """
    kind = certificate.get("kind")
    try:
        return True, f"{kind}: {_check(_Puzzle(puzzle), certificate)}"
    except Rejected as err:
        return False, f"{kind}: {err}"
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        return False, f"{kind}: malformed certificate ({err!r})"


def _check(puzzle: _Puzzle, certificate: Mapping[str, Any]) -> str:
    kind = certificate.get("kind")
    if kind == "colour-count":
        require(puzzle.closed, "only a closed tour needs the colours balanced")
        require(puzzle.size % 2 == 1, f"the board has {puzzle.size} squares, an even number")
        return (
            f"a closed tour of the {puzzle.m}x{puzzle.n} board would need an even number of "
            f"squares, not {puzzle.size}"
        )
    require(kind == "puzzle-refutation", f"certificates of kind {kind!r} prove nothing here")
    listed = certificate["solutions"]
    proof = certificate["proof"]
    require(isinstance(listed, list) and isinstance(proof, list), "solutions and proof: lists")
    require(all(isinstance(line, str) for line in proof), "the proof holds non-text lines")
    paths = [puzzle.solution(s) for s in listed]
    require(len({tuple(p) for p in paths}) == len(paths), "a solution is listed twice")
    from .drup import check_drup  # here, as the checker of tours does

    accepted, why = check_drup(puzzle_cnf(puzzle, paths), proof)
    require(accepted, f"the proof: {why}")
    k = len(paths)
    counted = "no solution" if not k else f"exactly {k} solution{'s' if k > 1 else ''}"
    return f"{counted} (the {puzzle.words()} with {k} blocked refuted; DRUP: {why})"


def check_puzzle_answer(answer: Mapping[str, Any]) -> tuple[bool, str]:
    """The verdict on a puzzle answer (``clues`` in it): every solution it carries, its
    certificate, and what it says (``status``, ``count``, ``unique``) against them.

    Examples
    --------
    >>> check_puzzle_answer({"rows": 3, "cols": 3, "closed": True, "clues": {},
    ...                      "status": "proven_absent", "certificate": {"kind": "colour-count"}})
    (True, 'colour-count: a closed tour of the 3x3 board would need an even number of squares, not 9')
    >>> check_puzzle_answer({"rows": 3, "cols": 3, "clues": {}, "squares": ["a1"]})
    (False, 'puzzle: 1 squares numbered for 9')
    """
    puzzle = _Puzzle(answer)
    solutions = []
    try:
        if answer.get("squares") is not None:
            solutions.append(puzzle.solution(answer["squares"]))
        tours = answer.get("tours")
        if tours is not None:
            if not isinstance(tours, list):
                raise Malformed("invalid 'tours': not a list")
            solutions += [puzzle.solution(t) for t in tours]
        # ``squares`` repeats the first of ``tours``: count each numbering once
        solutions = list({tuple(path): path for path in solutions}.values())
    except Rejected as err:
        return False, f"puzzle: {err}"
    certificate = answer.get("certificate")
    if certificate is not None and not isinstance(certificate, Mapping):
        raise Malformed("invalid 'certificate': not an object")
    says = _says(answer)
    if certificate is None:
        if says.get("none") or says.get("exact"):
            return False, "the answer claims a count of solutions, but carries no certificate"
        if not solutions:
            return True, "nothing to check: the answer carries no solution and no certificate"
        first = f"a solution of the {puzzle.words()} (a tour keeping its {len(puzzle.clues)} clues)"
        more = f" ({len(solutions)} solutions, each accepted)" if len(solutions) > 1 else ""
        return True, f"puzzle: {first}{more}"
    fields = {
        "rows": puzzle.m,
        "cols": puzzle.n,
        "closed": puzzle.closed,
        "clues": {square_name(s): k for s, k in puzzle.clues.items()},
    }
    accepted, why = check_puzzle_certificate(fields, certificate)
    if not accepted:
        return False, why
    listed = len(certificate.get("solutions", []))
    if says.get("none") and listed:
        return False, f"the answer says there is no solution, but its certificate lists {listed}"
    if says.get("count") is not None and says["count"] != listed:
        return False, f"the answer counts {says['count']} solutions, its certificate {listed}"
    if says.get("unique") is True and listed != 1:
        return False, f"the answer says the solution is unique, its certificate lists {listed}"
    if solutions and certificate.get("kind") == "puzzle-refutation":
        known = {tuple(puzzle.solution(s)) for s in certificate["solutions"]}
        if any(tuple(s) not in known for s in solutions):
            return False, "a solution the answer carries is not among those its certificate lists"
    return True, why


def _says(answer: Mapping[str, Any]) -> dict[str, Any]:
    """What the answer claims: no solution, an exact count, uniqueness."""
    exact = answer.get("exact") is True
    count = answer.get("count")
    if count is not None and not (isinstance(count, int) and not isinstance(count, bool)):
        raise Malformed(f"invalid 'count': {count!r}")
    return {
        "none": answer.get("status") == "proven_absent",
        "exact": exact,
        "count": count if exact else None,
        "unique": answer.get("unique"),
    }
