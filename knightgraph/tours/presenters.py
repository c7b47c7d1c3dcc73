"""What :class:`~knightgraph.Tour`'s conveniences call in the layers above it.

``Tour.draw``, ``_repr_png_``, ``_repr_html_``, ``save_npy`` and ``load_npy`` need
drawing, page and file code, which live above the data layers.  The package fills
this registry when it is imported (``knightgraph/__init__.py``), so that
:mod:`knightgraph.tours.tour` never imports them, and the registry sits at the bottom of
the layers so that filling it imports nothing (``import knightgraph`` stays instant).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..exceptions import InternalError

__all__ = ["presenter", "register_presenters"]

_PRESENTERS: dict[str, Callable[..., Any]] = {}


def register_presenters(**functions: Callable[..., Any]) -> None:
    """Give :class:`~knightgraph.Tour` the functions behind ``draw``, ``_repr_png_``,
    ``_repr_html_``, ``save_npy`` and ``load_npy`` (keys ``draw``, ``png``, ``html``,
    ``write_npy``, ``read_npy``); the package does this when it is imported.

    Examples
    --------
    >>> import knightgraph
    >>> sorted(_PRESENTERS)
    ['draw', 'html', 'png', 'read_npy', 'write_npy']
    """
    _PRESENTERS.update(functions)


def presenter(name: str) -> Callable[..., Any]:
    """The function registered as ``name`` by :func:`register_presenters`.

    Examples
    --------
    >>> import knightgraph
    >>> presenter("png").__name__
    '_png'
    >>> presenter("sound")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InternalError: internal error: no 'sound' presenter (import knightgraph)
    """
    try:
        return _PRESENTERS[name]
    except KeyError:
        raise InternalError(f"internal error: no {name!r} presenter (import knightgraph)") from None
