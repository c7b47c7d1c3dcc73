"""Build hook: knightgraph's C sources become plain shared libraries.

The extensions listed in ``pyproject.toml`` (``ext-modules``) are plain C, with
no Python module in them: ``knightgraph/running/native.py`` opens them with ctypes.
setuptools builds them as it builds any extension; this hook only names the
results ``libknightgraph_<job>.so.1`` inside the package (a versioned library name,
which no import machinery takes for a module: ``pkgutil`` and ``importlib`` pass it
by) and asks for no ``PyInit_`` symbol.
"""

from __future__ import annotations

import os

from setuptools import setup
from setuptools.command.build_ext import build_ext


class BuildSharedLibraries(build_ext):
    """``build_ext`` for plain shared libraries loaded by ctypes."""

    def get_ext_filename(self, fullname: str) -> str:
        *package, name = fullname.split(".")
        return os.path.join(*package, f"libknightgraph{name}.so.1")

    def get_export_symbols(self, ext: object) -> list[str]:
        return []  # no module initialiser: nothing imports these libraries


setup(cmdclass={"build_ext": BuildSharedLibraries})
