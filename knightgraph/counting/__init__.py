"""Counting knight's tours exactly with a frontier-based dynamic program.

The squares are processed one at a time, column by column across the shorter
side (so the frontier is about ``2 * min(m, n) + 1`` squares wide).  A *state*
records, for every square on the frontier (processed squares that still have
unprocessed neighbours), its degree in the partial tour (0, 2 or 1) and, for
the squares of degree 1, which two of them are the ends of the same path
fragment.  Equal states are merged and their counts added; a state dies as soon
as a square would leave the frontier with degree below 2 or could no longer
reach degree 2, or a cycle would close before the last square.

Open tours are Hamiltonian paths; they are counted as Hamiltonian cycles of
the board plus one virtual square joined to every square (the two edges at
the virtual square mark the ends).  A fixed start forces the edge from the
start to the virtual square; fixed ends force both.

Conventions (as in the OEIS): closed tours are counted as undirected cycles,
``directed = 2 * undirected``; open tours as directed paths, ``directed = 2 *
undirected``.  With ``convention="knuth"`` open tours whose ends are a knight's
move apart (the "closable" ones) are left out.

Two implementations of the same program: compiled C (``knightgraph/_count.c``,
built as the optional extension ``knightgraph._count``: states packed in 64
bits, up to 18 frontier squares two at a time in 7 bits; 64-bit counts, started
again with 128-bit ones if a count overflows) and plain Python (exact integers),
the reference the tests compare with, used when the library is missing, the
frontier is wider than 18 squares, a count needs more than 128 bits, or
``KNIGHTGRAPH_KERNELS=python``.  The Python engine also counts the tours
*fixed by a symmetry* (it processes whole orbits of the symmetry at once and
only keeps symmetric edge sets), which gives counts up to symmetry by
Burnside's lemma.

The package, one job a module:

``limits``
    :class:`CountAbortedError`, the checks of the engine, the budget and the plan's
    memory before any work (every count reads the one
    :class:`~knightgraph.running.budget.Budget` of searches and counts).
``plan``
    The board as a graph in processing order and the steps of the program.
``python_engine``
    The reference engine (exact integers, symmetric plans too).
``compiled``
    The ctypes binding of ``knightgraph/_count.c``, :func:`kernel_available`.
``count``
    :class:`CountResult`, :func:`count_tours`: which cycles to count, on which engine.
``vertexorder``
    The vertex order of a graph board (a greedy path decomposition) and its cycles:
    how ``count`` and ``sample`` process any graph.
``split``, ``checkpoint``
    A count in independent parts (``count_tours(parts=, executor=, checkpoint=)``)
    whose sum is exact, on any executor, resumable from a checkpoint file.
``symmetry``
    :class:`SymmetryCount`, :func:`count_symmetric` (Burnside's lemma).
``enumeration``
    :func:`enumerate_tours`, a depth-first search that lists the tours.
``zeros``
    :func:`~knightgraph.counting.zeros.quick_zero`: a 0 settled at once by a checked
    certificate (colours, degrees, connectivity, Schwenk's partition).
``sample``
    :class:`SampleResult`, :func:`sample_tours`: tours drawn uniformly at random, of
    every board kind (a graph board in the vertex order of ``vertexorder``).

Examples
--------
>>> from knightgraph import count_tours
>>> count_tours(3, 10, closed=True).undirected        # OEIS A070030
16
>>> count_tours(5, 5).directed, count_tours(5, 5, start="a1").directed   # A165134
(1728, 304)
>>> count_tours(6, 6, closed=True).undirected         # A001230
9862
>>> count_symmetric(6, 6, closed=True).classes
1245
"""

from __future__ import annotations

from .compiled import MAX_SLOTS as MAX_SLOTS
from .compiled import kernel_available
from .count import CONVENTIONS as CONVENTIONS
from .count import CountResult, count_tours
from .enumeration import ENUMERATE_BYTES_PER_SQUARE as ENUMERATE_BYTES_PER_SQUARE
from .enumeration import enumerate_tours
from .limits import PLAN_BYTES_PER_SQUARE as PLAN_BYTES_PER_SQUARE
from .limits import CountAbortedError
from .python_engine import CLOCK_EVERY as CLOCK_EVERY
from .python_engine import PYTHON_STATE_BYTES as PYTHON_STATE_BYTES
from .sample import SAMPLE_MAX_SPAN as SAMPLE_MAX_SPAN
from .sample import SampleResult, sample_tours
from .symmetry import SymmetryCount, count_symmetric

__all__ = [
    "CountAbortedError",
    "CountResult",
    "SampleResult",
    "SymmetryCount",
    "count_symmetric",
    "count_tours",
    "enumerate_tours",
    "kernel_available",
    "sample_tours",
]
