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

import functools
import importlib.util
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ctypes

__all__ = ["EXTENSIONS", "engine", "load_library", "python_only"]

EXTENSIONS = ("_kernels", "_verify", "_drup", "_count")
"""The compiled extensions, one per job (``pyproject.toml`` builds them)."""


@functools.cache
def load_library(module: str) -> ctypes.CDLL | None:
    """The shared library of the extension ``knightgraph.<module>``, or None if it was not built.

    Examples
    --------
    >>> load_library("_no_such_extension") is None
    True
    """
    import ctypes

    try:
        spec = importlib.util.find_spec(f"knightgraph.{module}")
        return ctypes.CDLL(spec.origin) if spec is not None and spec.origin else None
    except (ImportError, OSError):
        return None


def python_only() -> bool:
    """True when ``KNIGHTGRAPH_KERNELS=python`` asks for the plain-Python references."""
    return os.environ.get("KNIGHTGRAPH_KERNELS", "").lower() == "python"


def engine() -> tuple[str, str | None]:
    """Which engine runs the inner loops, and a warning when it is not the compiled one.

    ``("compiled C", None)`` when every extension of :data:`EXTENSIONS` was built;
    otherwise ``("plain Python", warning)``, the warning naming why (missing builds,
    or ``KNIGHTGRAPH_KERNELS=python``).  The answers are the same either way; the
    plain-Python loops are slower.  Nothing is loaded: this only looks for the files.

    Examples
    --------
    >>> engine()[0] in ("compiled C", "plain Python")
    True
    """
    if python_only():
        return "plain Python", "KNIGHTGRAPH_KERNELS=python asks for the plain-Python loops"
    missing = [m for m in EXTENSIONS if importlib.util.find_spec(f"knightgraph.{m}") is None]
    if not missing:
        return "compiled C", None
    some = "" if len(missing) == len(EXTENSIONS) else f" for {', '.join(missing)}"
    return f"plain Python{some}", (
        f"compiled extensions missing ({', '.join(missing)}; no C compiler when knightgraph "
        "was installed?): the plain-Python loops give the same answers, more slowly; "
        "reinstall with a C compiler for speed"
    )
