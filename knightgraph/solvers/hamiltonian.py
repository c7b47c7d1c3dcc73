"""Hamiltonian cycles and paths of any graph, the way a networkx user asks for them.

networkx has no general Hamiltonian cycle or path function (only
``tournament.hamiltonian_path`` for tournaments).  :func:`hamiltonian_cycle` and
:func:`hamiltonian_path` take any networkx graph, undirected or directed (or a
knightgraph board), and return its vertices in order; when there is none they raise
:class:`~knightgraph.NoTourError` carrying a certificate of absence that the independent
checker (``python -m knightgraph.certcheck``) has accepted.  Both are thin: the search
is :func:`~knightgraph.find_tour`'s (for a directed graph, on its split graph:
:mod:`knightgraph.solvers.directed`), so every answer is verified before it is returned.

Examples
--------
>>> import networkx as nx
>>> import knightgraph as kg
>>> G = nx.dodecahedral_graph()
>>> cycle = kg.hamiltonian_cycle(G)
>>> len(cycle), all(G.has_edge(u, v) for u, v in nx.utils.pairwise(cycle, cyclic=True))
(20, True)
>>> kg.hamiltonian_path(nx.path_graph(4), source=3)
[3, 2, 1, 0]
>>> try:
...     kg.hamiltonian_cycle(nx.petersen_graph())
... except kg.NoTourError as err:
...     print(err.certificate.kind)
sat-refutation
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..exceptions import NoTourError, SearchAbortedError

__all__ = ["hamiltonian_cycle", "hamiltonian_path"]


def hamiltonian_cycle(
    G: Any,
    *,
    method: str = "auto",
    timeout: float | None = None,
    seed: int | None = None,
) -> list[Hashable]:
    """A Hamiltonian cycle of ``G``: every vertex once, each next to the one before it and
    the last next to the first.

    Parameters
    ----------
    G : networkx.Graph, networkx.DiGraph or board
        An undirected simple graph (repeated edges count once; loops are refused), a
        directed graph (the cycle follows the arcs; loops are ignored), a
        :class:`~knightgraph.boards.graphboard.GraphBoard` (a torus, a 3-D board) or a
        :class:`~knightgraph.Board` (a knight's tour: vertices are ``(r, c)`` squares).
    method : {"auto", "sat", "backtrack"}
        The strategy (:func:`~knightgraph.find_tour`); ``auto`` tries the cheap
        certificates of absence first, then searches.
    timeout : float, optional
        Seconds; :class:`~knightgraph.SearchAbortedError` when they run out undecided.
    seed : int, optional
        For randomised strategies (same seed, same cycle).

    Returns
    -------
    list
        The vertices in cycle order, each once (the closing edge joins the last to the
        first; the first vertex is not repeated at the end).

    Raises
    ------
    NoTourError
        ``G`` has no Hamiltonian cycle; ``err.certificate`` is the proof, accepted by the
        independent checker (a colour count, a degree or cut argument, or a SAT
        refutation with its DRUP proof), ``err.result`` the whole answer.  For a directed
        graph the certificate is about its split graph, and ``err.answer`` is the
        :class:`~knightgraph.solvers.directed.DirectedAnswer`, whose JSON
        (:func:`~knightgraph.solvers.directed.digraph_answer`) the checker re-checks alone.
    SearchAbortedError
        The timeout ran out before the question was decided.
    InvalidBoardError
        ``G`` is not a usable graph (an undirected loop, no vertices).

    See Also
    --------
    hamiltonian_path, knightgraph.find_tour

    Notes
    -----
    By the convention of :func:`~knightgraph.find_tour`, a cycle of an undirected graph
    needs three vertices; a directed cycle needs two (``u -> v -> u``).  The cycle is checked edge by edge before it
    is returned (:class:`~knightgraph.Tour`), so a returned list is always a Hamiltonian
    cycle of ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> cycle = hamiltonian_cycle(nx.hypercube_graph(3))
    >>> len(cycle), all(nx.hypercube_graph(3).has_edge(u, v)
    ...                 for u, v in nx.utils.pairwise(cycle, cyclic=True))
    (8, True)
    >>> hamiltonian_cycle(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("a", "c")]))
    ['a', 'b', 'c']
    >>> hamiltonian_cycle(nx.complete_bipartite_graph(2, 3))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.NoTourError: no closed tour of the graph with 5 vertices: ...
    """
    return _answer(G, closed=True, start=None, end=None, method=method, timeout=timeout, seed=seed)


def hamiltonian_path(
    G: Any,
    source: Hashable | None = None,
    target: Hashable | None = None,
    *,
    method: str = "auto",
    timeout: float | None = None,
    seed: int | None = None,
) -> list[Hashable]:
    """A Hamiltonian path of ``G``: every vertex once, each next to the one before it;
    from ``source`` and to ``target`` when given.

    Parameters
    ----------
    G : networkx.Graph, networkx.DiGraph or board
        As for :func:`hamiltonian_cycle`.  A tournament (a digraph with one arc between
        every two vertices) with no ends asked gets Rédei's path by binary insertion
        (:func:`~knightgraph.solvers.directed.tournament_path`, O(n log n)).
    source, target : vertex, optional
        The required first and last vertex (a vertex of ``G``, or its name as a string).
    method, timeout, seed
        As for :func:`hamiltonian_cycle`.

    Returns
    -------
    list
        The vertices in path order, starting at ``source`` and ending at ``target`` when
        they are given.

    Raises
    ------
    NoTourError
        No such path; ``err.certificate`` is the checked proof.
    SearchAbortedError
        The timeout ran out undecided.
    InvalidBoardError, InvalidSquareError
        A graph that cannot be used, or a ``source`` / ``target`` that is not a vertex.

    See Also
    --------
    hamiltonian_cycle, knightgraph.find_tour

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.grid_2d_graph(3, 3)
    >>> path = hamiltonian_path(G, source=(0, 0), target=(2, 2))
    >>> path[0], path[-1], len(path)
    ((0, 0), (2, 2), 9)
    >>> hamiltonian_path(G, source=(0, 1))  # (0, 1) has the minority colour
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.NoTourError: no open tour of the graph with 9 vertices from (0, 1): ...
    >>> hamiltonian_path(nx.DiGraph([(0, 1), (2, 1), (2, 0)]))  # a tournament
    [2, 0, 1]
    >>> hamiltonian_path(nx.star_graph(3))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.NoTourError: no open tour of the graph with 4 vertices: ...
    """
    return _answer(
        G, closed=False, start=source, end=target, method=method, timeout=timeout, seed=seed
    )


def _answer(G: Any, **request: Any) -> list[Hashable]:
    """The vertices in order, or the error: the one route of both entry points.  An
    undirected graph or a board goes to :func:`~knightgraph.find_tour`; a directed graph
    to :func:`~knightgraph.solvers.directed.directed_search`, a tournament's path with no
    ends asked to :func:`~knightgraph.solvers.directed.tournament_path` first."""
    from . import find_tour

    if not getattr(G, "is_directed", lambda: False)():
        return list(find_tour(G, **request).require_tour().nodes())
    from .directed import directed_search, tournament_path

    if not request["closed"] and request["start"] is None and request["end"] is None:
        path = tournament_path(G)
        if path is not None:
            return path
    answer = directed_search(
        G,
        closed=request["closed"],
        source=request["start"],
        target=request["end"],
        method=request["method"],
        timeout=request["timeout"],
        seed=request["seed"],
    )
    if answer.order is not None:
        return [answer.digraph.nodes[i] for i in answer.order]
    result = answer.result
    if result.certificate is None:
        raise SearchAbortedError(result.reason or "the search gave up", result=result)
    kind = "cycle" if request["closed"] else "path"
    raise NoTourError(
        f"no Hamiltonian {kind} of the directed graph with {len(answer.digraph.nodes)} "
        f"vertices (its split graph: {result.reason})",
        certificate=result.certificate,
        result=result,
        answer=answer,
    )
