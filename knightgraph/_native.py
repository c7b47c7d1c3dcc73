"""Loading knightgraph's optional compiled extensions through :mod:`ctypes`.

The C files, one per job (``_kernels.c``: the search and walk loops;
``_verify.c``: the verifier's fast path; ``_drup.c``: the DRUP checker;
``_count.c``: the counting kernel), are built as extension modules by ``pip
install``; their functions are plain C, called through ctypes, and every
loader finds its library here.  A
missing build (no compiler) is not an error: each caller then uses its
plain-Python reference.  ``KNIGHTGRAPH_KERNELS=python`` forces the references.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import os

__all__ = ["load_library", "python_only"]


@functools.cache
def load_library(module: str) -> ctypes.CDLL | None:
    """The shared library of the extension ``knightgraph.<module>``, or None if it was not built.

    Examples
    --------
    >>> load_library("_no_such_extension") is None
    True
    """
    try:
        spec = importlib.util.find_spec(f"knightgraph.{module}")
        return ctypes.CDLL(spec.origin) if spec is not None and spec.origin else None
    except (ImportError, OSError):
        return None


def python_only() -> bool:
    """True when ``KNIGHTGRAPH_KERNELS=python`` asks for the plain-Python references."""
    return os.environ.get("KNIGHTGRAPH_KERNELS", "").lower() == "python"
