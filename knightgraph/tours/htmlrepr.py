"""The compact HTML that answers show in Jupyter (``_repr_html_``): small tables, never a dump.

Every answer a notebook displays (:class:`~knightgraph.SearchResult`,
:class:`~knightgraph.Certificate`, :class:`~knightgraph.CountResult`,
:class:`~knightgraph.SampleResult`, the existence table, start and end maps) builds its
``_repr_html_`` from the pieces here: a table of named fields, and a grid of coloured cells
(a numbered board, a map, a table of codes).  Both are capped: a field's text at
:data:`TEXT_LIMIT` characters, a list at :data:`LIST_LIMIT` names, a grid at
:data:`GRID_LIMIT` cells (a larger one is left out and the table says where to look), so a
result of a million squares shows a few lines.  Every text is escaped.

Examples
--------
>>> html = fields_table("Count", [("directed", 1728), ("board", "<5x5>")])
>>> html.startswith("<div"), "1,728" in html, "&lt;5x5&gt;" in html, "<5x5>" in html
(True, True, True, False)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tour import Tour

__all__ = [
    "GRID_LIMIT",
    "LIST_LIMIT",
    "NUMBERED_LIMIT",
    "STATUS_COLOURS",
    "STYLE",
    "TEXT_LIMIT",
    "Html",
    "data_summary",
    "escape",
    "fields_table",
    "grid_table",
    "name_list",
    "numbered_grid",
    "side_by_side",
    "status_text",
    "tour_line",
]

GRID_LIMIT = 400
"""The most cells a grid shows (a 20 x 20 existence table); a larger grid is left out."""

NUMBERED_LIMIT = 144
"""The largest board (squares) whose numbered tour is shown, as for ``Tour._repr_png_``."""

TEXT_LIMIT = 300
"""The most characters of one field (a certificate's reason, the statistics)."""

LIST_LIMIT = 8
"""The most names a list shows: the first ones, then how many there are in all."""

STATUS_COLOURS = {"FOUND": "#1a9641", "PROVEN_ABSENT": "#d7191c", "ABORTED": "#777777"}
"""The colour of each :class:`~knightgraph.Status` name."""

STYLE = (
    "<style>.knightgraph-repr table{border-collapse:collapse;font-size:12px;margin:2px 0}"
    ".knightgraph-repr th{font-weight:normal;text-align:left}"
    ".knightgraph-repr td{text-align:left}"
    ".knightgraph-grid th,.knightgraph-grid td{padding:1px 4px;text-align:center}"
    ".knightgraph-grid td{color:#000}</style>"
)
"""The one style sheet of every repr, scoped to its class; a front end that drops it still
shows each cell's colour (set on the cell)."""


def escape(value: Any) -> str:
    """``value`` as text for HTML: numbers with thousands separators, everything escaped.

    Examples
    --------
    >>> escape(9862), escape(None), escape("a<b"), escape(True), escape(0.5)
    ('9,862', '-', 'a&lt;b', 'True', '0.5')
    """
    if value is None:
        return "-"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return html.escape(str(value), quote=True)


def shorten(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``...`` when it was cut.

    Examples
    --------
    >>> shorten("abcdef", 5), shorten("abc", 5)
    ('ab...', 'abc')
    """
    return text if len(text) <= limit else text[: max(0, limit - 3)].rstrip() + "..."


def name_list(names: Sequence[Any], limit: int = LIST_LIMIT) -> str:
    """The first ``limit`` names, then how many there are (plain text, not escaped).

    Examples
    --------
    >>> name_list(["a1", "b3"]), name_list([str(i) for i in range(20)], 3)
    ('a1 b3', '0 1 2 ... (20 in all)')
    """
    shown = " ".join(str(x) for x in names[:limit])
    return shown if len(names) <= limit else f"{shown} ... ({len(names):,} in all)"


def status_text(name: str) -> str:
    """A status name in its colour (HTML).

    Examples
    --------
    >>> status_text("FOUND")
    '<b style="color:#1a9641">FOUND</b>'
    """
    colour = STATUS_COLOURS.get(name, "#000000")
    return f'<b style="color:{colour}">{escape(name)}</b>'


class Html(str):
    """Text that is already HTML: :func:`fields_table` puts it in as it is.

    Examples
    --------
    >>> "<b>1</b>" in fields_table("x", [("a", Html("<b>1</b>")), ("b", "<b>2</b>")])
    True
    >>> "<b>2</b>" in fields_table("x", [("b", "<b>2</b>")])
    False
    """

    __slots__ = ()


def fields_table(caption: str, fields: Iterable[tuple[str, Any]], extra: str = "") -> str:
    """A table of named fields under a bold caption, then ``extra`` (HTML, e.g. a grid).

    A value is escaped and shortened to :data:`TEXT_LIMIT` characters, unless it is
    :class:`Html`; a field whose value is None is left out.

    Examples
    --------
    >>> fields_table("Tour", [("kind", "closed"), ("start", None)]).count("<tr>")
    1
    """
    rows = []
    for name, value in fields:
        if value is None:
            continue
        if isinstance(value, Html):
            text = str(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            text = escape(value)
        else:
            text = escape(shorten(str(value)))
        rows.append(f"<tr><th>{escape(name)}</th><td>{text}</td></tr>")
    return (
        f'<div class="knightgraph-repr">{STYLE}<b>{escape(caption)}</b>'
        f"<table>{''.join(rows)}</table>{extra}</div>"
    )


def grid_table(
    cells: Sequence[Sequence[tuple[str, str | None]]],
    row_labels: Sequence[Any],
    col_labels: Sequence[Any],
    caption: str = "",
) -> str | None:
    """A grid of cells, each ``(text, background colour or None)``, with labelled rows and
    columns; None when it has more than :data:`GRID_LIMIT` cells.

    Examples
    --------
    >>> grid = grid_table([[("c", "#1a9641"), ("x", None)]], [1], [1, 2])
    >>> grid.count("<td"), "#1a9641" in grid
    (2, True)
    >>> grid_table([[("", None)] * 21] * 20, range(20), range(21)) is None
    True
    """
    if sum(len(row) for row in cells) > GRID_LIMIT:
        return None
    head = "".join(f"<th>{escape(c)}</th>" for c in col_labels)
    lines = [f"<tr><th></th>{head}</tr>"]
    for name, row in zip(row_labels, cells, strict=True):
        tds = "".join(
            (f'<td style="background-color:{colour}">' if colour else "<td>")
            + f"{escape(text)}</td>"
            for text, colour in row
        )
        lines.append(f"<tr><th>{escape(name)}</th>{tds}</tr>")
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f'<table class="knightgraph-grid">{title}{"".join(lines)}</table>'


def side_by_side(parts: Iterable[str]) -> str:
    """HTML pieces next to each other (tables of a sample, levels of a 3-D board).

    Examples
    --------
    >>> side_by_side(["<i>1</i>", "<i>2</i>"]).count("display:inline-block")
    2
    """
    return "".join(
        f'<div style="display:inline-block;vertical-align:top;margin-right:12px">{p}</div>'
        for p in parts
    )


def tour_line(tour: Tour) -> str:
    """One line for a tour: its kind, board, length and ends (plain text).

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> tour_line(find_tour(5, 5, start="a1", seed=0).tour)
    'open tour of Board(5, 5), 25 squares: a1 ... a3'
    """
    kind = "closed" if tour.closed else "open"
    what = {"square": "squares", "vertex": "vertices"}.get(tour.board.wording()[1], "squares")
    first = tour.algebraic_slice(0, 1)[0]
    last = tour.algebraic_slice(len(tour) - 1, len(tour))[0]
    return f"{kind} tour of {tour.board!r}, {len(tour):,} {what}: {first} ... {last}"


_LIGHT, _DARK = "#f0d9b5", "#d4b08c"


def numbered_grid(tour: Tour, caption: str = "") -> str | None:
    """A tour as its numbered board (rank 1 at the bottom, a1 dark, removed squares dark
    grey), on a rectangle, a torus or a cylinder; None on other boards and on boards of
    more than :data:`NUMBERED_LIMIT` squares.

    Examples
    --------
    >>> from knightgraph import find_tour
    >>> grid = numbered_grid(find_tour(5, 5, start="a1", seed=0).tour)
    >>> grid.count("<td"), ">25</td>" in grid
    (25, True)
    >>> numbered_grid(find_tour(13, 12, seed=0).tour) is None
    True
    >>> from knightgraph.boards.topology import topology_board
    >>> numbered_grid(find_tour(topology_board(3, 4, wrap="both"), closed=True).tour).count("<td")
    12
    """
    board = tour.board
    shape = board.shape
    if shape is None or len(shape) != 2 or shape[0] * shape[1] > NUMBERED_LIMIT:
        return None
    m, n = shape
    if board.rectangle is not None:
        numbers = tour.numbered().tolist()
    else:
        visit = {int(v): i + 1 for i, v in enumerate(tour.order)}
        numbers = [[visit.get(board.index((r, c)), 0) for c in range(n)] for r in range(m)]
    rows = [
        [
            ("", "#555555") if k == 0 else (str(k), _DARK if (r + c) % 2 == 0 else _LIGHT)
            for c, k in enumerate(numbers[r])
        ]
        for r in range(m - 1, -1, -1)
    ]
    files = [board.name((0, c))[:-1] for c in range(n)]
    return grid_table(rows, range(m, 0, -1), files, caption)


def data_summary(data: Mapping[str, Any], limit: int = LIST_LIMIT) -> str:
    """A certificate's data in one line: short values as they are, long ones by their size
    (a SAT refutation's CNF and proof are thousands of lines).

    Examples
    --------
    >>> data_summary({"clause": "closed", "counts": [25, 24], "cnf": list(range(721))})
    "clause='closed', counts=[25, 24], cnf: 721 items"
    """
    parts = []
    for key, value in list(data.items())[:limit]:
        text = repr(value)
        if len(text) <= 40:
            parts.append(f"{key}={text}")
        elif isinstance(value, Sized):
            parts.append(f"{key}: {len(value):,} items")
        else:
            parts.append(f"{key}={text[:37]}...")
    if len(data) > limit:
        parts.append(f"... ({len(data)} fields)")
    return ", ".join(parts)
