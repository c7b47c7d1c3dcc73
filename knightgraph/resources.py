"""Memory estimates: refuse work that cannot fit before allocating anything.

Examples
--------
>>> from knightgraph.resources import format_bytes
>>> format_bytes(512), format_bytes(3 * 2**30)
('512 B', '3.0 GiB')
"""

from __future__ import annotations

import os

from .exceptions import BoardTooLargeError

__all__ = ["available_memory", "format_bytes", "require_memory"]


def available_memory() -> int:
    """Bytes of memory this process can expect to use (Linux ``MemAvailable``, else physical)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - exotic platforms
        return 2**63 - 1


def format_bytes(count: float) -> str:
    """Human-readable byte count in binary units."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if count < 1024 or unit == "TiB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def require_memory(needed: int, what: str, *, available: int | None = None) -> None:
    """Raise :class:`BoardTooLargeError` when ``needed`` bytes exceed what is available.

    Examples
    --------
    >>> require_memory(10**15, "a tour of 100000000x10", available=2**34)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.BoardTooLargeError: a tour of 100000000x10 needs about 909.5 TiB of memory; only 16.0 GiB is available
    """
    have = available_memory() if available is None else available
    if needed > have:
        raise BoardTooLargeError(
            f"{what} needs about {format_bytes(needed)} of memory; only {format_bytes(have)} is available"
        )
