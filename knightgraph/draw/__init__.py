"""Pictures: tours, numbered boards, knight graphs, existence tables, animations, scaling.

Every function draws onto a matplotlib ``Axes`` and returns it.  Pass ``ax=`` to
draw into a figure of your own (``fig, ax = plt.subplots()``); without one, a
new figure is made on matplotlib's Agg canvas, which needs no display and never
touches pyplot's global state.  Nothing here calls ``plt.show()``.  Save with
:func:`save_figure`, which picks the format from the file suffix and writes the
file atomically (whole or not at all).  matplotlib is imported inside the
functions, so ``import knightgraph.draw`` stays light.

Scale
-----
Up to 10,000 squares (100 x 100) a tour is drawn on a checkered board with
algebraic labels; beyond that the board is a plain background and the path,
one line per move, is rasterised (so an SVG or PDF stays small).  Beyond
1,000,000 squares a move is far below a pixel, so :func:`draw_tour` draws the
*step map* instead: each square coloured by when the tour visits it.

Examples
--------
>>> from knightgraph import find_tour
>>> from knightgraph.draw import draw_tour, path_collection
>>> tour = find_tour(6, 6, closed=True, seed=0).tour
>>> ax = draw_tour(tour, numbers=True)
>>> len(path_collection(ax).get_segments())  # one segment per move, the closing one too
36
>>> path_collection(ax).get_linestyles()[-1] != path_collection(ax).get_linestyles()[0]
True
"""

from __future__ import annotations

from ._style import DARK as DARK
from ._style import LIGHT as LIGHT
from ._style import MAX_DPI
from ._style import PATH_CMAP as PATH_CMAP
from ._style import REMOVED as REMOVED
from .animation import ANIMATION_FORMATS, animate_tour
from .graphplot import LAYOUT_LIMIT as LAYOUT_LIMIT
from .graphplot import LAYOUTS, draw_knight_graph
from .output import FORMATS, save_figure, to_png
from .scaling import fit_power_law, plot_scaling
from .shapeplot import draw_graph_tour
from .tableplot import TABLE_COLOURS as TABLE_COLOURS
from .tableplot import draw_existence_table
from .tourplot import CHECKERED_LIMIT as CHECKERED_LIMIT
from .tourplot import NUMBERS_LIMIT as NUMBERS_LIMIT
from .tourplot import STEP_MAP_LIMIT as STEP_MAP_LIMIT
from .tourplot import draw_numbered_board, draw_tour, path_collection

__all__ = [
    "ANIMATION_FORMATS",
    "FORMATS",
    "LAYOUTS",
    "MAX_DPI",
    "animate_tour",
    "draw_existence_table",
    "draw_graph_tour",
    "draw_knight_graph",
    "draw_numbered_board",
    "draw_tour",
    "fit_power_law",
    "path_collection",
    "plot_scaling",
    "save_figure",
    "to_png",
]
