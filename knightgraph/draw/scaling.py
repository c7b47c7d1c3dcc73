"""Scaling: run time against board size, with the fitted power law (:func:`plot_scaling`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import InvalidOptionError
from ._style import new_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _scaling_points(
    results: Mapping[Any, float] | Iterable[tuple[Any, float]],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    items = results.items() if isinstance(results, Mapping) else results
    sizes, times = [], []
    for size, seconds in items:
        squares = math.prod(size) if isinstance(size, tuple | list) else size
        sizes.append(float(squares))
        times.append(float(seconds))
    return np.asarray(sizes), np.asarray(times)


def fit_power_law(sizes: Sequence[float], seconds: Sequence[float]) -> tuple[float, float]:
    """Least-squares fit of ``seconds = a * sizes ** b`` on log-log axes; returns ``(a, b)``.

    Raises
    ------
    InvalidOptionError
        With fewer than two distinct positive sizes, or a time that is not positive.

    Examples
    --------
    >>> a, b = fit_power_law([100, 1000, 10000], [0.002, 0.02, 0.2])
    >>> round(a, 6), round(b, 6)
    (2e-05, 1.0)
    """
    x, y = np.asarray(sizes, dtype=float), np.asarray(seconds, dtype=float)
    if len(x) != len(y) or np.any(x <= 0) or np.any(y <= 0) or len(set(x.tolist())) < 2:
        raise InvalidOptionError(
            "a power law needs at least two distinct positive sizes, each with a positive time"
        )
    slope, intercept = np.polyfit(np.log(x), np.log(y), 1)
    return float(math.exp(intercept)), float(slope)


def plot_scaling(
    results: Mapping[Any, float] | Iterable[tuple[Any, float]],
    *,
    ax: Axes | None = None,
    label: str = "measured",
    title: str | None = None,
) -> Axes:
    """Run time against board size on log-log axes, with the fitted power law and its exponent.

    The honest version of seed 000's regression (its section 4.1.6): on
    log-log axes a power law ``t = a N^b`` is a straight line whose slope is
    the exponent, so the fit states the growth rate instead of a curve
    through the points.

    Parameters
    ----------
    results : mapping or iterable of pairs
        ``{size: seconds}`` or ``[(size, seconds), ...]``; a size is the
        number of squares ``N`` or an ``(m, n)`` pair.
    ax : matplotlib Axes, optional
    label : str, default "measured"
        Legend entry of the points.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        The legend's second entry states the fit, e.g. ``fit: 2.1e-08 $N^{1.02}$``
        (matplotlib mathtext).

    Examples
    --------
    >>> ax = plot_scaling({(10, 10): 0.001, (100, 100): 0.1, (1000, 1000): 10.0})
    >>> ax.get_xscale(), ax.get_legend().get_texts()[1].get_text()
    ('log', 'fit: 1e-05 $N^{1.00}$')
    """
    x, y = _scaling_points(results)
    a, b = fit_power_law(x.tolist(), y.tolist())
    ax = new_axes(6.5, 4.5) if ax is None else ax
    ax.loglog(x, y, "o", color="#1d3557", label=label, zorder=3)
    xs = np.geomspace(x.min(), x.max(), 50)
    ax.loglog(xs, a * xs**b, "--", color="#e63946", label=f"fit: {a:.3g} $N^{{{b:.2f}}}$")
    ax.set_xlabel("board size N (squares)")
    ax.set_ylabel("time (s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=9)
    ax.set_title(title or f"run time grows like $N^{{{b:.2f}}}$", fontsize=11)
    return ax
