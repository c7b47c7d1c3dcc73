"""Knight's-tour number puzzles: solve them, count their solutions, make them.

A puzzle (:class:`Puzzle`) numbers some squares of a board; a solution numbers all of them
``1 .. mn`` along a knight's tour (closed if the puzzle says so) that keeps the clues.
:func:`solve_puzzle` finds one, :func:`count_solutions` counts them (exactly, or up to a
limit), :func:`make_puzzle` makes a puzzle whose solution is unique, with as few clues as it
reaches.  Every solution is verified as a tour and for its clues; every "no" (no solution,
no other solution) carries a certificate the independent checker re-checks from the puzzle
alone (:mod:`knightgraph.certcheck.puzzles`).  Files, pictures and the command line:
:mod:`knightgraph.io.puzzlefiles`, :mod:`knightgraph.draw.puzzleplot`, ``knightgraph puzzle``.

Examples
--------
>>> from knightgraph.puzzles import Puzzle, count_solutions
>>> count_solutions(Puzzle(3, 4, {"a1": 1})).verdict()
'exactly 2 solutions'
>>> count_solutions(Puzzle(3, 4)).verdict()  # the 8 open tours of 3x4, either way round
'exactly 16 solutions'
"""

from __future__ import annotations

from .making import make_puzzle
from .model import MAX_SQUARES, InvalidPuzzleError, Puzzle
from .solving import PuzzleAnswer, count_solutions, puzzle_fields, solve_puzzle

__all__ = [
    "MAX_SQUARES",
    "InvalidPuzzleError",
    "Puzzle",
    "PuzzleAnswer",
    "count_solutions",
    "make_puzzle",
    "puzzle_fields",
    "solve_puzzle",
]
