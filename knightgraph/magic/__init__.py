"""Magic knight's tours: the numbers ``1 .. mn`` along the tour sum alike on every line.

A tour is *semi-magic* (``kind="semi"``) when every rank and every file sums to its share
of the total, and *magic* (``kind="full"``) when both long diagonals of a square board do
too; ``"files"`` and ``"ranks"`` ask for one direction only.  :func:`find_magic_tour` finds
one or proves there is none; :func:`count_magic_tours` counts them with a checked proof
that there are no more; :func:`magic_obstruction` gives the arguments that settle a board
without a search (:mod:`knightgraph.magic.rules`).  Every tour is verified as a tour and
for its sums, every "no" and every exact count carries a certificate the independent
checker (:mod:`knightgraph.certcheck.magic`) accepted.  The command line:
``knightgraph tour M N --magic semi|full``, ``knightgraph exists M N --magic ...``.

Examples
--------
>>> from knightgraph.magic import count_magic_tours, find_magic_tour
>>> find_magic_tour(6, 5).certificate.reason  # 6 ranks of 5 squares
'the 6 ranks must share the total 465 equally, 155/2 each, not a whole number'
>>> count_magic_tours(1, 1, kind="full").count
1
"""

from __future__ import annotations

from .rules import KINDS, magic_defect, magic_lines, magic_obstruction, magic_sums
from .solving import MAX_SQUARES, MagicCount, count_magic_tours, find_magic_tour

__all__ = [
    "KINDS",
    "MAX_SQUARES",
    "MagicCount",
    "count_magic_tours",
    "find_magic_tour",
    "magic_defect",
    "magic_lines",
    "magic_obstruction",
    "magic_sums",
]
