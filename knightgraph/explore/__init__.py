"""Exploring many searches at once: sweeps over every start square, existence tables.

:func:`sweep` runs one search method from every square of a board and
records which starts gave a tour: the experiment of seed 003 (its border rule
failed from 16, 43 and 187 start squares on 50x50, 60x60 and 70x70).  Every
tour found is verified (a :class:`~knightgraph.Tour` is verified when built).

Examples
--------
>>> from knightgraph.explore import sweep
>>> result = sweep(5, 5, method="auto")
>>> result.failures, result.failed_squares()[:3]
(12, ['b1', 'd1', 'a2'])
>>> plain = sweep(8, 8, method="warnsdorff", rule="first")  # Warnsdorff, ties in move order
>>> plain.failures, plain.failed_squares()
(1, ['e3'])
"""

from __future__ import annotations

from ._chunks import BYTES_PER_RESULT, BYTES_PER_TOUR_SQUARE, MAP_CHUNK
from .maps import COUNT_AUTO_SQUARES, COUNT_AUTO_SQUARES_PYTHON, end_map, map_bytes, start_map
from .sweeps import BYTES_PER_START, SweepResult, sweep
from .table import CODES, Cell, ExistenceTable, existence_table, table_bytes
from .tourmap import TourMap

__all__ = [
    "BYTES_PER_RESULT",
    "BYTES_PER_START",
    "BYTES_PER_TOUR_SQUARE",
    "CODES",
    "COUNT_AUTO_SQUARES",
    "COUNT_AUTO_SQUARES_PYTHON",
    "MAP_CHUNK",
    "Cell",
    "ExistenceTable",
    "SweepResult",
    "TourMap",
    "end_map",
    "existence_table",
    "map_bytes",
    "start_map",
    "sweep",
    "table_bytes",
]
