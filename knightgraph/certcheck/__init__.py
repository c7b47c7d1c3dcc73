"""The independent certificate checker (standard library only; it never imports the
solvers, the board or numpy).

* :mod:`knightgraph.certcheck.checker`: certificates and tours of every board kind
  (rectangles with removed squares and other leapers: :func:`check_certificate`; any
  graph: :func:`~knightgraph.certcheck.checker.check_graph_certificate`);
* :mod:`knightgraph.certcheck.answers`: the command line, ``python -m
  knightgraph.certcheck [FILE]``, which reads any answer's JSON (one, a list, or JSON
  lines), the board it describes (rectangle, cylinder, torus, 3-D board, graph board)
  and re-checks every tour and certificate in it;
* :mod:`knightgraph.certcheck.summaries`: the ``proofs`` of ``starts``, ``ends`` and
  ``table`` answers, each against the request of its cell, and the answer's ``ok`` /
  ``codes`` against them.

Examples
--------
>>> check_certificate({"kind": "colour-count", "clause": "closed-needs-balance",
...                    "counts": [25, 24]}, 7, 7, closed=True)
(True, 'colour-count: 7x7 has 25 squares of one colour and 24 of the other')
>>> main(["/dev/null"])  # the reason (not a regular file) goes to standard error
2
"""

from __future__ import annotations

from .adjacency import Malformed
from .answers import check_answer, check_text, main
from .checker import check_certificate, check_request

__all__ = ["Malformed", "check_answer", "check_certificate", "check_request", "check_text", "main"]
