#!/usr/bin/env python3
"""Fail when knightgraph's compiled code was expected but is not what runs.

The C extensions (``ext-modules`` in ``pyproject.toml``) are *optional*: when
the build fails, ``pip install`` carries on and knightgraph silently uses its
plain-Python loops (correct, about a hundred times slower).  This check turns
that silence into an error where it matters:

* a C compiler works here (``cc --version``, or ``$CC``) and
* ``KNIGHTGRAPH_KERNELS`` does not ask for the Python loops,

then every extension listed in ``pyproject.toml`` must load, and every loader
must hand out its compiled twin: the search kernels
(``knightgraph.solvers.kernels``), the verifier's fast path
(``knightgraph.tours.verify``), the counting kernel (``knightgraph.counting``), the
DRUP checker (``knightgraph.certcheck.drup``).  A stale
build (a ``.so`` older than its C file, missing a function) fails too.

Usage: ``python scripts/check_compiled.py`` (exit 0 ok or not expected, 1 missing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def compiler() -> str | None:
    """The C compiler that works here, or None."""
    for cc in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if not cc or shutil.which(cc.split()[0]) is None:
            continue
        try:
            done = subprocess.run(
                [*cc.split(), "--version"],
                capture_output=True,
                timeout=30,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return cc
    return None


def extensions() -> list[tuple[str, list[str]]]:
    """``(module, sources and headers)`` of every extension in ``pyproject.toml``."""
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    modules = data.get("tool", {}).get("setuptools", {}).get("ext-modules", [])
    return [(m["name"], [*m.get("sources", []), *m.get("depends", [])]) for m in modules]


def problems() -> list[str]:
    """What is missing (empty: the compiled code runs)."""
    sys.path.insert(0, str(REPO))
    from knightgraph import counting
    from knightgraph.certcheck import drup
    from knightgraph.running import native as _native
    from knightgraph.solvers import kernels
    from knightgraph.tours import verifyfast

    found = []
    for module, sources in extensions():
        short = module.rsplit(".", 1)[-1]
        _native.load_library.cache_clear()
        library = _native.load_library(short)
        if library is None:
            found.append(f"{module} is not built (or does not load): see `pip install -v -e .`")
            continue
        origin = Path(library._name)  # type: ignore[attr-defined]
        for source in sources:
            path = REPO / source
            if (
                path.exists()
                and origin.exists()
                and path.stat().st_mtime > origin.stat().st_mtime + 1
            ):
                found.append(f"{origin.name} is older than {source}: rebuild (pip install -e .)")
    if not kernels.kernels().compiled:
        found.append(
            "knightgraph.solvers.kernels uses the Python loops (a stale or missing _kernels)"
        )
    if verifyfast._compiled_check() is None:
        found.append("knightgraph.tours.verifyfast has no compiled fast path (a stale or missing _verify)")
    if not counting.kernel_available():
        found.append("knightgraph.counting uses the Python engine (a stale or missing _count)")
    library = getattr(drup, "_library", lambda: None)()
    if library is None:
        found.append("knightgraph.certcheck.drup uses the Python checker (a stale or missing _drup)")
    else:
        accepted, why = drup.check_drup(
            [[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"], compiled=True
        )
        if not accepted:
            found.append(f"the compiled DRUP checker rejects a valid proof: {why}")
    return found


def main() -> int:
    kernels_env = os.environ.get("KNIGHTGRAPH_KERNELS", "")
    if kernels_env.lower() == "python":
        print(
            "check_compiled: KNIGHTGRAPH_KERNELS=python: the Python loops are asked for; nothing to check"
        )
        return 0
    cc = compiler()
    if cc is None:
        print(
            "check_compiled: no working C compiler: the Python loops are expected; nothing to check"
        )
        return 0
    found = problems()
    for line in found:
        print(f"check_compiled: {line}", file=sys.stderr)
    if found:
        print(
            f"check_compiled: a C compiler ({cc}) works here, so the compiled code was expected",
            file=sys.stderr,
        )
        return 1
    names = ", ".join(m for m, _ in extensions())
    print(f"check_compiled: ok: {names} built and in use (compiler: {cc})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
