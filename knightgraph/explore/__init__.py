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

import sys
import types
from typing import Any

from . import _run, maps, sweeps, table
from ._run import BYTES_PER_RESULT as BYTES_PER_RESULT
from ._run import BYTES_PER_TOUR_SQUARE as BYTES_PER_TOUR_SQUARE
from ._run import MAP_CHUNK as MAP_CHUNK
from ._run import Clock as Clock
from ._run import _allowed as _allowed
from ._run import _check_timeout as _check_timeout
from ._run import _map as _map
from ._run import _not_started as _not_started
from ._run import _wall_deadline as _wall_deadline
from .maps import COUNT_AUTO_SQUARES as COUNT_AUTO_SQUARES
from .maps import COUNT_AUTO_SQUARES_PYTHON as COUNT_AUTO_SQUARES_PYTHON
from .maps import TourMap, end_map, start_map
from .maps import _map_cell as _map_cell
from .maps import _tour_map as _tour_map
from .maps import map_bytes as map_bytes
from .sweeps import BYTES_PER_START as BYTES_PER_START
from .sweeps import SweepResult, sweep
from .sweeps import _sweep_one as _sweep_one
from .table import CODES, Cell, ExistenceTable, existence_table
from .table import _decide_cell as _decide_cell
from .table import _decide_cell_task as _decide_cell_task
from .table import _undecided_cell as _undecided_cell
from .table import table_bytes as table_bytes

__all__ = [
    "CODES",
    "Cell",
    "ExistenceTable",
    "SweepResult",
    "TourMap",
    "end_map",
    "existence_table",
    "start_map",
    "sweep",
]

_PARTS = (_run, sweeps, table, maps)


class _Package(types.ModuleType):
    """This package, patched like the one module it once was: a name set here
    (``monkeypatch.setattr("knightgraph.explore.MAP_CHUNK", 2)``) is set in every
    part that uses it too, so the patch reaches the code."""

    def __setattr__(self, name: str, value: Any) -> None:
        for part in _PARTS:
            if name in vars(part):
                setattr(part, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
