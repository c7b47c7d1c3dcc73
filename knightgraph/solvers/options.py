"""A strategy's own options: their names and the types they take, checked before any work.

:func:`~knightgraph.solvers.base.solver` reads a strategy's keyword options from its
signature; an option annotated plainly as ``bool``, ``int`` or ``str`` (``| None``
allowed) is refused with :class:`~knightgraph.exceptions.InvalidOptionError` when a
value of another type comes (``prune="yes"`` is not True), so that no strategy meets a
string where it counts on a flag.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from ..exceptions import InvalidOptionError

__all__ = ["check_option_types", "option_kinds", "option_names"]


def option_names(impl: Callable[..., Any]) -> frozenset[str]:
    """Keyword options an implementation accepts beyond ``problem, budget, seed``.

    Examples
    --------
    >>> def impl(problem, budget, *, seed=None, prune: bool = False, rule: str = "roth"): ...
    >>> sorted(option_names(impl))
    ['prune', 'rule']
    """
    params = inspect.signature(impl).parameters
    return frozenset(p for p in params if p not in ("problem", "budget", "seed"))


_KINDS: dict[str, tuple[type, ...]] = {
    "bool": (bool, np.bool_),
    "int": (int, np.integer),
    "str": (str,),
}
_KIND_WORDS = {"bool": "True or False", "int": "a whole number", "str": "a string"}


def option_kinds(impl: Callable[..., Any]) -> dict[str, tuple[str, bool]]:
    """``{option: (kind, None allowed)}`` for the options annotated plainly as bool, int or
    str (optionally ``| None``); richer annotations are checked by the strategy itself.

    Examples
    --------
    >>> def impl(problem, budget, *, attempts: int | None = None, moves: str | list = ""):
    ...     pass
    >>> option_kinds(impl)
    {'attempts': ('int', True)}
    """
    kinds = {}
    for p in inspect.signature(impl).parameters.values():
        words = [w.strip() for w in str(p.annotation).split("|")]
        plain = [w for w in words if w != "None"]
        if p.name not in ("problem", "budget", "seed") and len(plain) == 1 and plain[0] in _KINDS:
            kinds[p.name] = (plain[0], "None" in words)
    return kinds


def check_option_types(
    method: str, kinds: dict[str, tuple[str, bool]], options: dict[str, Any]
) -> None:
    """Refuse an option of the wrong type before any work (``prune="yes"`` is not True).

    Examples
    --------
    >>> check_option_types("backtrack", {"prune": ("bool", False)}, {"prune": "yes"})
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid prune 'yes' for method 'backtrack': expected True or False
    >>> check_option_types("warnsdorff", {"attempts": ("int", True)}, {"attempts": None})
    """
    for key, value in options.items():
        if key not in kinds:
            continue
        kind, none_ok = kinds[key]
        if value is None and none_ok:
            continue
        wrong_bool = kind == "int" and isinstance(value, bool | np.bool_)
        if wrong_bool or not isinstance(value, _KINDS[kind]):
            raise InvalidOptionError(
                f"invalid {key} {value!r} for method {method!r}: expected {_KIND_WORDS[kind]}"
            )
