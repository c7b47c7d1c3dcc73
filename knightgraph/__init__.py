"""knightgraph: knight's tours as graph problems.

Every answer is either a verified tour or a certificate that no tour exists.

Examples
--------
>>> import knightgraph as kg
>>> kg.knight_graph(8, 8).number_of_edges()
168
>>> res = kg.find_tour(8, 8, closed=True, start="d4", seed=0)
>>> res.status, res.tour.closed, res.tour.squares()[0]
(<Status.FOUND: 'found'>, True, (3, 3))
>>> kg.validate_tour(res.tour.squares(), 8, 8, closed=True)
>>> kg.tour_exists(7, 7, closed=True).certificate.kind
'colour-count'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .tours.presenters import register_presenters

if TYPE_CHECKING:  # what the lazy names below are, for type checkers and editors
    from .boards.board import CAMEL, GIRAFFE, KNIGHT, LEAPERS, ZEBRA, Board, file_name, square_name
    from .boards.nxgraph import knight_graph
    from .counting import (
        CountResult,
        SampleResult,
        count_symmetric,
        count_tours,
        enumerate_tours,
        sample_tours,
    )
    from .counting.symclasses import FixedCount, SymmetryClasses, count_fixed, symmetry_classes
    from .exceptions import (
        BoardTooLargeError,
        ImmutableError,
        InternalError,
        InvalidBoardError,
        InvalidOptionError,
        InvalidPuzzleError,
        InvalidResultError,
        InvalidSquareError,
        InvalidTourError,
        KnightGraphError,
        MissingBoardError,
        NoTourError,
        OutOfMemoryError,
        ProofFormatError,
        SearchAbortedError,
        TourFormatError,
    )
    from .explore import end_map, existence_table, start_map, sweep
    from .magic import MagicCount, count_magic_tours, find_magic_tour
    from .proofs.theorems import (
        Verdict,
        closed_tour_exists,
        color_obstruction,
        colour_obstruction,
        open_tour_exists,
    )
    from .puzzles import Puzzle, count_solutions, make_puzzle, solve_puzzle
    from .solvers import available_methods, find_tour, get_solver, solver, tour_exists
    from .solvers.hamiltonian import hamiltonian_cycle, hamiltonian_path
    from .solvers.symmetric import find_symmetric
    from .tours.results import Certificate, SearchResult, Status
    from .tours.tour import Tour
    from .tours.verify import is_knight_tour, validate_tour

_HOMES = {
    "boards.board": "CAMEL GIRAFFE KNIGHT LEAPERS ZEBRA Board file_name square_name",
    "counting": "CountResult SampleResult count_symmetric count_tours enumerate_tours sample_tours",
    "exceptions": "BoardTooLargeError ImmutableError InternalError InvalidBoardError "
    "InvalidOptionError InvalidPuzzleError InvalidResultError InvalidSquareError InvalidTourError "
    "KnightGraphError MissingBoardError NoTourError OutOfMemoryError ProofFormatError "
    "SearchAbortedError TourFormatError",
    "proofs.theorems": "Verdict closed_tour_exists color_obstruction colour_obstruction open_tour_exists",
    "counting.symclasses": "FixedCount SymmetryClasses count_fixed symmetry_classes",
    "explore": "end_map existence_table start_map sweep",
    "puzzles": "Puzzle count_solutions make_puzzle solve_puzzle",
    "magic": "MagicCount count_magic_tours find_magic_tour",
    "boards.nxgraph": "knight_graph",
    "tours.results": "Certificate SearchResult Status",
    "solvers": "available_methods find_tour get_solver solver tour_exists",
    "solvers.hamiltonian": "hamiltonian_cycle hamiltonian_path",
    "solvers.symmetric": "find_symmetric",
    "tours.tour": "Tour",
    "tours.verify": "is_knight_tour validate_tour",
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names.split()}
"""Where each public name lives.  The names are imported on first use (PEP 562), so that
``import knightgraph`` and ``knightgraph --version`` do not pay for numpy, networkx or
the solvers; ``kg.find_tour`` then imports what it needs once."""


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use, and keep it."""
    module = _HOME_OF.get(name)
    if module is None:  # a submodule (``knightgraph.solvers``), as when all were imported
        if not name.startswith("__"):
            try:
                return importlib.import_module(f".{name}", __name__)
            except ModuleNotFoundError as err:
                if err.name != f"{__name__}.{name}":
                    raise
        raise AttributeError(f"module 'knightgraph' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME_OF})


def _draw(tour: Tour, **style: Any) -> Any:
    from .draw import draw_tour

    return draw_tour(tour, **style)


def _png(tour: Tour, *, numbers: bool, dpi: float) -> bytes:
    from .draw import draw_tour, to_png

    return to_png(draw_tour(tour, numbers=numbers), dpi=dpi)


def _html(tour: Tour) -> str | None:
    from .draw.page import notebook_html

    return notebook_html(tour)


def _write_npy(order: Any, path: str) -> None:
    from .io.formats import write_npy

    write_npy(order, path)


def _read_npy(path: str) -> Any:
    from .io.formats import read_npy

    return read_npy(path)


# The package is the top layer: it hands Tour (a lower layer) its presentation functions
# (kept in the bottom layer, so that registering them imports nothing).
register_presenters(draw=_draw, png=_png, html=_html, write_npy=_write_npy, read_npy=_read_npy)

__all__ = [
    "CAMEL",
    "GIRAFFE",
    "KNIGHT",
    "LEAPERS",
    "ZEBRA",
    "Board",
    "BoardTooLargeError",
    "Certificate",
    "CountResult",
    "FixedCount",
    "ImmutableError",
    "InternalError",
    "InvalidBoardError",
    "InvalidOptionError",
    "InvalidPuzzleError",
    "InvalidResultError",
    "InvalidSquareError",
    "InvalidTourError",
    "KnightGraphError",
    "MagicCount",
    "MissingBoardError",
    "NoTourError",
    "OutOfMemoryError",
    "ProofFormatError",
    "Puzzle",
    "SampleResult",
    "SearchAbortedError",
    "SearchResult",
    "Status",
    "SymmetryClasses",
    "Tour",
    "TourFormatError",
    "Verdict",
    "__version__",
    "available_methods",
    "closed_tour_exists",
    "color_obstruction",
    "colour_obstruction",
    "count_fixed",
    "count_magic_tours",
    "count_solutions",
    "count_symmetric",
    "count_tours",
    "end_map",
    "enumerate_tours",
    "existence_table",
    "file_name",
    "find_magic_tour",
    "find_symmetric",
    "find_tour",
    "get_solver",
    "hamiltonian_cycle",
    "hamiltonian_path",
    "is_knight_tour",
    "knight_graph",
    "make_puzzle",
    "open_tour_exists",
    "sample_tours",
    "solve_puzzle",
    "solver",
    "square_name",
    "start_map",
    "sweep",
    "symmetry_classes",
    "tour_exists",
    "validate_tour",
]
