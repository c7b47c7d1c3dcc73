"""Loading knightgraph's optional compiled libraries through :mod:`ctypes`.

The C files, one per job (``_kernels.c``: the search and walk loops;
``_verify.c``: the verifier's fast path; ``_drup.c``: the DRUP checker;
``_count.c``: the counting kernel), are plain C with no Python in them.  ``pip
install`` builds each as a plain shared library inside the package,
``libknightgraph_<job>.so.1`` (``setup.py`` names them; no import machinery
takes them for modules), and every loader finds its library here.  A missing build (no
compiler) is not an error: each caller then uses its plain-Python reference.
``KNIGHTGRAPH_KERNELS=python`` forces the references.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ctypes

__all__ = ["EXTENSIONS", "engine", "library_path", "load_library", "python_only"]

EXTENSIONS = ("_kernels", "_verify", "_drup", "_count")
"""The compiled extensions, one per job (``pyproject.toml`` builds them)."""


def library_path(module: str) -> Path:
    """Where the shared library built from ``knightgraph/<module>.c`` lies (it may be missing).

    Examples
    --------
    >>> library_path("_count").name
    'libknightgraph_count.so.1'
    """
    return Path(__file__).resolve().parent.parent / f"libknightgraph{module}.so.1"


@functools.cache
def load_library(module: str) -> ctypes.CDLL | None:
    """The shared library built from ``knightgraph/<module>.c``, or None if it was not built.

    Examples
    --------
    >>> load_library("_no_such_extension") is None
    True
    """
    import ctypes

    path = library_path(module)
    try:
        return ctypes.CDLL(str(path)) if path.is_file() else None
    except OSError:
        return None


def python_only() -> bool:
    """True when ``KNIGHTGRAPH_KERNELS=python`` asks for the plain-Python references.

    Examples
    --------
    >>> import os
    >>> python_only() == (os.environ.get("KNIGHTGRAPH_KERNELS", "").lower() == "python")
    True
    """
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
    missing = [m for m in EXTENSIONS if not library_path(m).is_file()]
    if not missing:
        return "compiled C", None
    some = "" if len(missing) == len(EXTENSIONS) else f" for {', '.join(missing)}"
    return f"plain Python{some}", (
        f"compiled extensions missing ({', '.join(missing)}; no C compiler when knightgraph "
        "was installed?): the plain-Python loops give the same answers, more slowly; "
        "reinstall with a C compiler for speed"
    )
