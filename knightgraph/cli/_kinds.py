"""The board a command's flags name, and what differs in its answers between board kinds.

Every command has one route for every board kind: it asks :func:`kind_of` once which
kind of board the flags name, builds it (:meth:`Rectangle.request`, :meth:`Shape.request`)
and then calls the library, which takes every board kind; what it prints comes from the
result objects, and where rectangles and graph boards are named differently (their
JSON heads, their numbered boards, the words of a verdict), from the methods here.

``--mask FILE`` makes an ordinary board with holes (every command takes it).  ``--wrap
rows|cols|both`` (a cylinder or a torus) and ``--levels K`` (an ``M x N x K`` board) make a
graph board, which ``tour``, ``exists``, ``count``, ``sample``, ``starts``, ``ends``,
``verify`` and ``draw tour`` answer with the same exit codes and formats (squares named
``a1``, or ``a1:2`` on level 2; JSON squares as ``[r, c]`` or ``[r, c, level]``, 0-based).
``--graph FILE`` (``tour`` and ``exists``, in place of ``M N``: :mod:`._graphs`) makes the
graph board of a file (HCP, DIMACS, networkx's formats), its vertices named as in the file.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidOptionError
from ._graphs import shape_board, shape_vertex
from ._replies import (
    exists_reason,
    exists_verdict,
    numbered,
    search_board,
    theorem_check,
)
from ._shared import (
    KNIGHT,
    UsageError,
    board_of,
    progress_bar,
    request_of,
    solver_options_of,
    tables_memory,
)

if TYPE_CHECKING:
    from ..tours.results import SearchResult


_VERDICT = {True: "exists", False: "does not exist", None: "unknown"}
"""How ``exists`` words its verdict (``exists_verdict``: True, False or None)."""


def kind_of(args: argparse.Namespace) -> Rectangle | Shape:
    """The kind of board the flags name: a :class:`GraphFile` for ``--graph``, a
    :class:`Shape` for ``--wrap`` or ``--levels``, else a :class:`Rectangle` (the one place
    in the command line that asks)."""
    if getattr(args, "graph", None) is not None:
        return GraphFile()
    if getattr(args, "wrap", None) is not None or getattr(args, "levels", None) is not None:
        return Shape()
    return Rectangle()


def check_kind(args: argparse.Namespace) -> None:
    """UsageError, before any work, for ``--wrap`` or ``--levels`` (:func:`kind_of`: a
    :class:`Shape`) on a command that takes rectangles only."""
    shapes = ("tour", "exists", "count", "verify", "sample", "starts", "ends")
    draw_tour = args.command == "draw" and getattr(args, "what", None) == "tour"
    if args.command not in shapes and not draw_tour and isinstance(kind_of(args), Shape):
        raise UsageError(
            "--wrap and --levels apply to tour, exists, count, sample, starts, ends, verify "
            "and draw tour only"
        )


class Rectangle:
    """A board of ``M N`` (``--leaper``, ``--remove``, ``--mask``): squares named ``a1``,
    JSON squares ``[r, c]``, the board described by ``leaper`` and ``removed``."""

    def request(self, args: argparse.Namespace) -> tuple[Any, Any, Any]:
        """The board and the (checked) ends named on the command line."""
        return request_of(args)

    def map_request(self, args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
        """The board of ``starts`` / ``ends`` and the fixed start (``ends``), as given."""
        board = board_of(args)
        return board, {} if args.command == "starts" else {"start": args.start}

    def unbuilt_head(self, args: argparse.Namespace) -> dict[str, Any] | None:
        """The JSON head of an answer before the board is built: none."""
        return None

    def check_tour(self, args: argparse.Namespace) -> None:
        """Refuse what ``tour`` cannot give on this kind of board, before it is built."""

    def search(self, args: argparse.Namespace, board: Any, start: Any, end: Any) -> SearchResult:
        """``find_tour`` with the flags of the search (``--method`` and its options)."""
        return search_board(args, board, start, end, solver_options_of(args))

    def tour_dict(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> dict[str, Any]:
        from ..io.formats import result_to_dict

        return result_to_dict(result, board, args.closed, *ends)

    def numbered(self, board: Any, tour: Any) -> str:
        from ..io.formats import format_board

        return format_board(tour)

    def squares(self, tour: Any) -> str:
        from ..io.formats import format_squares

        return format_squares(tour)

    def head(self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]) -> dict[str, Any]:
        """The JSON head of a count's answer: none (the count describes its board)."""
        return {}

    def tail(self, board: Any) -> dict[str, Any]:
        """What a map's JSON adds after its own fields: the board's ``leaper`` and
        ``removed`` when not the defaults."""
        from ..io.formats import board_fields

        return board_fields(board)

    def tour_head(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], tour: Any
    ) -> dict[str, Any]:
        """A sampled tour's JSON head (``tour`` None: the head of a sample with none)."""
        if tour is not None:
            return tour.to_dict()  # type: ignore[no-any-return]
        return board.answer_fields(args.closed, **_end_names(board, ends))  # type: ignore[no-any-return]

    def where(self, board: Any) -> str:
        """The board as a sample with no tour names it."""
        return f"on {board.m}x{board.n}"

    def check_sample(self, board: Any) -> None:
        board.require_memory("count")

    def check_draw(self, args: argparse.Namespace, board: Any) -> None:
        if args.animate:
            from ..draw.animation import check_animation_size

            check_animation_size(board.m, board.n)  # before the search

    def draw(
        self, args: argparse.Namespace, board: Any, tour: Any, draw: Callable[..., None]
    ) -> None:
        """``draw tour``'s picture, animation or page: ``draw(tour, args)``."""
        draw(tour, args)

    def sample_stats(self, result: Any) -> dict[str, Any]:
        """What a sample's JSON stats add to the count and the seed: nothing."""
        return {}

    def exists_dict(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> dict[str, Any]:
        """``exists``' JSON: the board's head, the verdict and its evidence, the board's tail."""
        reason = exists_reason(result)
        out = self.exists_head(args, board, ends)
        out.update(exists=exists_verdict(result), reason=reason, certificate=None)
        if result.tour is not None:
            out["certificate"] = {
                "kind": "tour",
                "reason": reason,
                **self.found(result.method, result.tour),
            }
        elif result.certificate is not None:
            out["certificate"] = result.certificate.to_dict()
        return {**out, **self.exists_tail(args, board, ends, result)}

    def exists_head(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]
    ) -> dict[str, Any]:
        """What ``exists``' JSON has before its verdict: the size, the kind, the ends."""
        return {"rows": board.m, "cols": board.n, "closed": args.closed, **_end_names(board, ends)}

    def found(self, method: str, tour: Any) -> dict[str, Any]:
        """What the evidence of a found tour adds to its kind and reason."""
        return {"method": method, "squares": tour.to_dict()["squares"]}

    def exists_tail(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> dict[str, Any]:
        """What ``exists``' JSON has after its evidence: the board's ``leaper`` and
        ``removed`` (as :meth:`tail`), and a theorem's check when one decides the case."""
        theorem = theorem_check(result, board, args.closed, ends)
        return {**self.tail(board), **({} if theorem is None else {"theorem": theorem})}

    def exists_text(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> str:
        from ..solvers import Problem

        what = Problem.make(board, args.closed, *ends).describe()
        return f"{what}: {_VERDICT[exists_verdict(result)]} ({exists_reason(result)})"

    def named(self, board: Any) -> str:
        """The board as ``verify`` names it."""
        return f"{board.m}x{board.n}"

    def verify_file(self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]) -> bool:
        """Read ``verify``'s tour (any format of :func:`~knightgraph.io.formats.read_tour_file`)
        and check it; whether it is closed, or :class:`~knightgraph.InvalidTourError`."""
        from ..io.formats import read_tour_file
        from ..tours.verify import validate_tour

        squares, says_closed = read_tour_file(args.file, board)
        closed: bool = args.closed or says_closed
        validate_tour(squares, board, closed=closed, start=ends[0], end=ends[1])
        return closed

    def check_count(self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]) -> None:
        board.require_memory("count")
        if args.list is not None and args.list < 0:
            raise UsageError(f"invalid --list {args.list}: expected a whole number >= 0")
        if args.symmetry and (ends[0] is not None or ends[1] is not None):
            raise UsageError("--symmetry counts whole boards: leave out --start and --end")

    def count(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], split: Callable[..., Any]
    ) -> Any:
        """The count of ``count``: ``split(args, board, start, end)`` (in one piece or in
        parts, as the flags ask)."""
        return split(args, board, *ends)

    def check_map(self, args: argparse.Namespace, board: Any, where: dict[str, Any]) -> int:
        """Check a map's request before any work; the squares it will decide."""
        if args.sample is not None and args.sample < 1:
            raise InvalidOptionError(
                f"invalid --sample {args.sample}: expected a whole number >= 1"
            )
        if args.sample is None:
            board.require_memory("map")
        if "start" in where:
            board.parse_square(where["start"])  # a bad --start is named before any work
        return int(
            board.num_squares if args.sample is None else min(args.sample, board.num_squares)
        )

    def count_text(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: Any
    ) -> str:
        kind = "closed" if args.closed else "open"
        pairs = (("from", ends[0]), ("to", ends[1]))
        where = "".join(f" {w} {board.name(sq)}" for w, sq in pairs if sq)
        text = f"{kind} tours on {board.m}x{board.n}{where}: {result.directed:,} directed"
        if result.undirected is not None:
            text += f", {result.undirected:,} undirected"
        text = f"{text} ({result.seconds:.2f} s)"
        if result.certificate is not None:
            text += f"\nno tour: {result.reason}"
        return text


class Shape(Rectangle):
    """A torus, a cylinder or an ``M x N x K`` board (a graph board): vertices named ``a1``
    or ``a1:2``, JSON squares ``[r, c]`` or ``[r, c, level]``, the board described by its
    ``rows``, ``cols``, ``levels`` and ``wrap``."""

    def request(self, args: argparse.Namespace) -> tuple[Any, Any, Any]:
        board = shape_board(args)
        return board, shape_vertex(board, args.start), shape_vertex(board, args.end)

    def map_request(self, args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
        board = shape_board(args)
        return board, {} if args.command == "starts" else {"start": shape_vertex(board, args.start)}

    def unbuilt_head(self, args: argparse.Namespace) -> dict[str, Any]:
        """The JSON head of an answer whose board is not built yet (the backstop stopped
        its building): the request as the command line gave it."""
        out: dict[str, Any] = {"rows": args.m, "cols": args.n}
        out.update({"levels": args.levels} if args.levels is not None else {})
        out.update({"wrap": args.wrap} if args.wrap is not None else {})
        out.update({"leaper": list(args.leaper)} if tuple(args.leaper) != KNIGHT else {})
        return {**out, "closed": args.closed, "start": args.start, "end": args.end}

    def check_tour(self, args: argparse.Namespace) -> None:
        if args.format == "npy":
            raise UsageError("--format npy is for rectangular boards: use json")

    def search(self, args: argparse.Namespace, board: Any, start: Any, end: Any) -> SearchResult:
        return _graph_search(args, board, start, end, "--wrap/--levels")

    def tour_dict(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> dict[str, Any]:
        from ..io.formats import outcome_fields

        out = self.head(args, board, ends)
        tour = result.tour
        out["squares"] = None if tour is None else [list(v) for v in tour.nodes()]
        out.update(outcome_fields(result.method, result.seconds, result.stats))
        out.update(status=result.status.value, reason=result.reason)
        if result.certificate is not None:
            out["certificate"] = result.certificate.to_dict()
        return out

    def numbered(self, board: Any, tour: Any) -> str:
        return numbered(board, list(tour.order))

    def squares(self, tour: Any) -> str:
        return " ".join(tour.algebraic())

    def head(self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]) -> dict[str, Any]:
        """The JSON head of an answer: the shape, wrap or levels, and the ends (without a
        board: the backstop stopped its building, :meth:`unbuilt_head`)."""
        if board is None:
            return self.unbuilt_head(args)
        shape = board.shape
        out: dict[str, Any] = {"rows": shape[0], "cols": shape[1]}
        if len(shape) == 3:
            out["levels"] = shape[2]
        if board.wrap is not None:
            out["wrap"] = board.wrap
        if tuple(args.leaper) != KNIGHT:
            out["leaper"] = list(args.leaper)
        return {**out, "closed": args.closed, **_end_names(board, ends)}

    def tail(self, board: Any) -> dict[str, Any]:
        return {}

    def tour_head(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], tour: Any
    ) -> dict[str, Any]:
        head = self.head(args, board, ends)
        return head if tour is None else {**head, "squares": [list(v) for v in tour.nodes()]}

    def where(self, board: Any) -> str:
        return f"of the {board.kind}"

    def check_sample(self, board: Any) -> None:
        pass

    def check_draw(self, args: argparse.Namespace, board: Any) -> None:
        if args.animate or str(args.output).lower().endswith((".html", ".htm")):
            raise UsageError("--animate and .html pages are for rectangular boards")

    def draw(
        self, args: argparse.Namespace, board: Any, tour: Any, draw: Callable[..., None]
    ) -> None:
        """Wrap moves as dashed stubs, 3-D levels side by side
        (:func:`~knightgraph.draw.shapeplot.draw_graph_tour`)."""
        from ..draw import save_figure
        from ..draw.shapeplot import draw_graph_tour

        save_figure(draw_graph_tour(tour, numbers=args.numbers), args.output, dpi=args.dpi)
        kind = "closed" if args.closed else "open"
        print(f"wrote {args.output}: {kind} tour of the {board.kind} ({board.num_squares} squares)")

    def sample_stats(self, result: Any) -> dict[str, Any]:
        return {"width": result.stats["width"]}

    def exists_head(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]
    ) -> dict[str, Any]:
        return self.head(args, board, ends)

    def found(self, method: str, tour: Any) -> dict[str, Any]:
        return {"squares": tour.algebraic()}

    def exists_tail(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> dict[str, Any]:
        return {}

    def exists_text(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> str:
        kind = "closed" if args.closed else "open"
        verdict = _VERDICT[exists_verdict(result)]
        return f"{kind} tour of the {board.kind}: {verdict} ({exists_reason(result)})"

    def named(self, board: Any) -> str:
        return f"the {board.kind}"

    def verify_file(self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]) -> bool:
        """A file of vertex names (``a1 c2 ...``), or the JSON of ``tour --format json``
        (squares as names or 0-based lists)."""
        from ..exceptions import InvalidTourError
        from ..io.formats import tour_file_limit
        from ..running.disk import read_input

        raw = read_input(args.file, "tour", limit=tour_file_limit(board))
        where = "standard input" if args.file in (None, "-") else repr(args.file)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"cannot read {where}: not UTF-8 text") from None
        try:
            return _checked_shape_tour(board, text, args.closed, ends)
        except RecursionError:
            raise UsageError(f"cannot read {where}: JSON nested too deeply") from None
        except (InvalidTourError, ValueError, KeyError, TypeError) as err:
            raise InvalidTourError(str(err)) from None

    def check_count(self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]) -> None:
        if args.symmetry or args.list is not None or args.convention != "oeis":
            raise UsageError("--symmetry, --list and --convention knuth are for rectangular boards")
        if args.parts is not None or args.checkpoint is not None:
            raise UsageError("--parts and --checkpoint are for rectangular boards")

    def count(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], split: Callable[..., Any]
    ) -> Any:
        """A graph board's count: in one piece, with a bar of its vertices."""
        from ..counting import count_tours

        with progress_bar("counting", unit=" squares", total=board.num_squares) as progress:
            return count_tours(
                board,
                closed=args.closed,
                start=ends[0],
                end=ends[1],
                timeout=args.timeout,
                memory=tables_memory(args.memory),
                progress=progress,
            )

    def check_map(self, args: argparse.Namespace, board: Any, where: dict[str, Any]) -> int:
        return int(board.num_squares)

    def count_text(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: Any
    ) -> str:
        kind = "closed" if args.closed else "open"
        undirected = "" if result.undirected is None else f", {result.undirected:,} undirected"
        return (
            f"{result.directed:,} {kind} tours of the {board.kind} (directed{undirected}; "
            f"frontier width {result.stats.get('width')})"
        )


class GraphFile(Rectangle):
    """The graph in a file (``--graph FILE``, :mod:`._graphs`; ``tour`` and ``exists``):
    vertices named as in the file, the JSON head the graph board's (``vertices`` and
    ``edges``, which the checker reads) with ``graph`` naming the file."""

    def request(self, args: argparse.Namespace) -> tuple[Any, Any, Any]:
        from ._graphs import graph_request

        return graph_request(args)

    def check_tour(self, args: argparse.Namespace) -> None:
        if args.format in ("board", "npy"):
            raise UsageError(
                f"--format {args.format} is for boards of squares: use squares or json"
            )

    def search(self, args: argparse.Namespace, board: Any, start: Any, end: Any) -> SearchResult:
        return _graph_search(args, board, start, end, "--graph")

    def tour_dict(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any], result: SearchResult
    ) -> dict[str, Any]:
        return {**super().tour_dict(args, board, ends, result), "graph": args.graph}

    squares = Shape.squares

    def exists_head(
        self, args: argparse.Namespace, board: Any, ends: tuple[Any, Any]
    ) -> dict[str, Any]:
        fields = board.answer_fields(args.closed, **_end_names(board, ends))
        return {**fields, "graph": args.graph}

    exists_tail = Shape.exists_tail


def _graph_search(
    args: argparse.Namespace, board: Any, start: Any, end: Any, flags: str
) -> SearchResult:
    """A graph board's search: the graph methods only (``--method auto|sat|backtrack``)."""
    from ..solvers.base import GRAPH_METHODS

    if args.method not in GRAPH_METHODS:
        raise UsageError(f"--method {args.method} does not apply to {flags} boards")
    return search_board(args, board, start, end)


def _end_names(board: Any, ends: tuple[Any, Any]) -> dict[str, Any]:
    """The ``start`` and ``end`` of a JSON answer: the ends' names, or None."""
    start, end = (None if sq is None else board.name(sq) for sq in ends)
    return {"start": start, "end": end}


def _checked_shape_tour(board: Any, text: str, closed: bool, ends: tuple[Any, Any]) -> bool:
    """Check the tour ``text`` names on a graph board; whether it is closed."""
    import json

    from ..exceptions import InvalidTourError
    from ..tours.tour import Tour

    if text.lstrip().startswith("{"):
        data = json.loads(text)
        closed = closed or bool(data.get("closed"))
        squares: list[Any] = [s if isinstance(s, str) else tuple(s) for s in data["squares"] or []]
    else:
        squares = text.split()
    tour = Tour(board, [board.index(s) for s in squares], closed)
    if ends[0] is not None and tour.start != ends[0]:
        raise InvalidTourError(f"invalid tour: it starts at {tour.algebraic()[0]}")
    if ends[1] is not None and tour.end != ends[1]:
        raise InvalidTourError(f"invalid tour: it ends at {tour.algebraic()[-1]}")
    return closed
