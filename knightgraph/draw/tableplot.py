"""Existence tables: which m x n boards have which tours, as a coloured grid."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InvalidOptionError
from ._style import new_axes, square_points

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..explore import ExistenceTable

TABLE_COLOURS = {"c": "#1a9641", "e": "#a6d96a", "o": "#fdae61", "x": "#d7191c", "?": "#ffffff"}
"""Colours of the existence-table codes."""


def _table_codes(table: ExistenceTable | Mapping[str, Any] | Sequence[Any]) -> list[list[str]]:
    if hasattr(table, "codes"):
        codes = table.codes
    elif isinstance(table, Mapping):
        codes = table["codes"]
    else:
        codes = table
    rows = [list(row) for row in codes]
    bad = {x for row in rows for x in row} - set(TABLE_COLOURS)
    if not rows or any(len(row) != len(rows[0]) for row in rows) or bad:
        raise InvalidOptionError(
            "an existence table is a rectangle of codes c, e, o, x (or ?)"
            + (f"; found {sorted(bad)!r}" if bad else "")
        )
    return rows


def draw_existence_table(
    table: ExistenceTable | Mapping[str, Any] | Sequence[Any],
    *,
    ax: Axes | None = None,
    letters: bool | None = None,
    title: str | None = None,
) -> Axes:
    """Seed 000's Figure 3.1 as a coloured grid: which m x n boards have which tours.

    Parameters
    ----------
    table : ExistenceTable, dict or list of rows
        From :func:`knightgraph.explore.existence_table`, its ``to_dict()``
        (``codes[m - 1][n - 1]``), or rows of codes ``c``/``e``/``o``/``x``/``?``.
    ax : matplotlib Axes, optional
    letters : bool, optional
        Write the code in each cell (default: up to 40 x 40).
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        Row ``m`` (ranks) runs down, column ``n`` (files) across, as in the seed.

    Examples
    --------
    >>> from knightgraph.explore import existence_table
    >>> ax = draw_existence_table(existence_table(4, 6))
    >>> "".join(t.get_text() for t in ax.texts)
    'oxxxxxxxxxxxxxxoxxxxoxoo'
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    from ..explore import CODES

    codes = _table_codes(table)
    m, n = len(codes), len(codes[0])
    order = list(TABLE_COLOURS)
    grid = np.array([[order.index(x) for x in row] for row in codes])
    if ax is None:
        big = max(m, n)
        width, height = 7.0 * n / big + 1.2, 7.0 * m / big + 1.9
        ax = new_axes(width, height)
        ax.figure.subplots_adjust(
            left=0.8 / width, right=1 - 0.4 / width, bottom=0.9 / height, top=1 - 1.0 / height
        )
    ax.imshow(
        grid,
        cmap=ListedColormap(list(TABLE_COLOURS.values())),
        vmin=0,
        vmax=len(order) - 1,
        extent=(0.5, n + 0.5, m + 0.5, 0.5),
        interpolation="nearest",
    )
    ax.set_xticks(range(1, n + 1, max(1, math.ceil(n / 25))))
    ax.set_yticks(range(1, m + 1, max(1, math.ceil(m / 25))))
    ax.tick_params(labelsize=8, length=0, labeltop=True, labelbottom=False)
    ax.set_xlabel("n (files)")
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("m (ranks)")
    ax.set_xticks(np.arange(0.5, n + 1), minor=True)
    ax.set_yticks(np.arange(0.5, m + 1), minor=True)
    ax.grid(which="minor", color="white", linewidth=0.8)
    ax.tick_params(which="minor", length=0)
    if letters or (letters is None and max(m, n) <= 40):
        size = min(10.0, max(4.0, square_points(ax, m, n) * 0.45))
        for (r, c), code in np.ndenumerate(np.array(codes)):
            ink = "white" if code in ("c", "x") else "black"
            ax.text(c + 1, r + 1, code, ha="center", va="center", fontsize=size, color=ink)
    used = [code for code in order if any(code in row for row in codes) or code != "?"]
    handles = [
        Patch(facecolor=TABLE_COLOURS[code], edgecolor="#666666", label=f"{code}: {CODES[code]}")
        for code in used
    ]
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.01),
        fontsize=8,
        frameon=False,
        ncols=2,
    )
    ax.set_title(title or f"Knight's tours on m x n boards, 1..{m} x 1..{n}", fontsize=11)
    return ax
