"""Every public function and class has a numpydoc ``Examples`` section with doctests (issue 13).

Public: named in the ``__all__`` of a public module (no part of its name starts
with ``_``).  The examples themselves run with the doctests (``--doctest-modules``).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from types import ModuleType

import knightgraph

ALLOWED_WITHOUT_EXAMPLES: set[str] = set()
"""Exact: an entry that gets its Examples (or stops being public) must leave the list."""

_HEADER = re.compile(r"^(\w[\w ]*)\n-{3,}$", re.MULTILINE)


def _public_modules() -> list[ModuleType]:
    names = ["knightgraph"] + [
        info.name for info in pkgutil.walk_packages(knightgraph.__path__, "knightgraph.")
    ]
    return [
        importlib.import_module(name)
        for name in names
        if not any(part.startswith("_") for part in name.split(".")[1:])
    ]


def _public_objects() -> dict[str, object]:
    """Every function and class in a public ``__all__``, by ``module.qualname`` (once each)."""
    found: dict[str, object] = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue  # constants, type aliases
            if getattr(obj, "__module__", "").split(".")[0] != "knightgraph":
                continue
            found.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return found


def has_examples(obj: object) -> bool:
    """True when the object's own docstring has an ``Examples`` section holding a ``>>>`` line."""
    doc = inspect.cleandoc(getattr(obj, "__doc__", None) or "")
    headers = list(_HEADER.finditer(doc))
    for k, header in enumerate(headers):
        if header.group(1) == "Examples":
            end = headers[k + 1].start() if k + 1 < len(headers) else len(doc)
            section = doc[header.end() : end]
            return any(line.lstrip().startswith(">>>") for line in section.splitlines())
    return False


def test_has_examples_reads_numpydoc_sections():
    def with_examples():
        """Do it.

        Examples
        --------
        >>> 1 + 1
        2
        """

    def examples_without_doctest():
        """Do it.

        Examples
        --------
        Call it.

        Notes
        -----
        >>> 1 + 1
        2
        """

    class Undocumented:
        pass

    assert has_examples(with_examples)
    assert not has_examples(examples_without_doctest)
    assert not has_examples(Undocumented)


def test_the_walk_finds_the_public_objects():
    objects = _public_objects()
    assert len(objects) > 100
    for name in (
        "knightgraph.solvers.find_tour",
        "knightgraph.exceptions.KnightGraphError",
        "knightgraph.draw.output.to_png",
        "knightgraph.cli.main",
    ):
        assert name in objects, name


def test_every_public_function_and_class_has_examples():
    missing = sorted(
        name
        for name, obj in _public_objects().items()
        if name not in ALLOWED_WITHOUT_EXAMPLES and not has_examples(obj)
    )
    assert not missing, "public objects without a numpydoc Examples section:\n" + "\n".join(missing)


def test_the_allow_list_only_shrinks():
    objects = _public_objects()
    stale = sorted(
        name
        for name in ALLOWED_WITHOUT_EXAMPLES
        if name not in objects or has_examples(objects[name])
    )
    assert not stale, (
        "remove from ALLOWED_WITHOUT_EXAMPLES (now with Examples, or no longer public):\n"
        + "\n".join(stale)
    )
