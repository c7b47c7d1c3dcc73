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

from .board import CAMEL, GIRAFFE, KNIGHT, LEAPERS, ZEBRA, Board, file_name, square_name
from .counting import CountResult, count_symmetric, count_tours
from .exceptions import (
    BoardTooLargeError,
    ImmutableError,
    InternalError,
    InvalidBoardError,
    InvalidOptionError,
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
from .existence import Verdict, closed_tour_exists, colour_obstruction, open_tour_exists
from .graph import knight_graph
from .solvers import available_methods, find_tour, get_solver, solver, tour_exists
from .tour import Certificate, SearchResult, Status, Tour
from .verify import is_knight_tour, validate_tour

__version__ = "0.1.0"

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
    "ImmutableError",
    "InternalError",
    "InvalidBoardError",
    "InvalidOptionError",
    "InvalidResultError",
    "InvalidSquareError",
    "InvalidTourError",
    "KnightGraphError",
    "MissingBoardError",
    "NoTourError",
    "OutOfMemoryError",
    "ProofFormatError",
    "SearchAbortedError",
    "SearchResult",
    "Status",
    "Tour",
    "TourFormatError",
    "Verdict",
    "__version__",
    "available_methods",
    "closed_tour_exists",
    "colour_obstruction",
    "count_symmetric",
    "count_tours",
    "file_name",
    "find_tour",
    "get_solver",
    "is_knight_tour",
    "knight_graph",
    "open_tour_exists",
    "solver",
    "square_name",
    "tour_exists",
    "validate_tour",
]
