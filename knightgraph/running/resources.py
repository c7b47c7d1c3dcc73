"""Memory estimates: refuse work that cannot fit before allocating anything.

Every kind of work on a board has a :class:`Footprint`: bytes per square, per
pair of squares (for work that keeps one tour per square, like the start
maps) and a fixed part.  :func:`require_board_memory` compares it with the
memory the machine has free and raises :class:`BoardTooLargeError`, naming the
board, before anything is allocated; :func:`require_table_memory` does the
same for an existence table, which keeps one tour for each of its boards.

Examples
--------
>>> from knightgraph.running.resources import format_bytes, require_board_memory
>>> format_bytes(512), format_bytes(3 * 2**30), format_bytes(10**24)
('512 B', '3.0 GiB', '847.0 ZiB')
>>> require_board_memory("knight graph", 8, 8)  # fits: nothing happens
>>> require_board_memory("knight graph", 10**12, 10**12, available=2**34)
Traceback (most recent call last):
...
knightgraph.exceptions.BoardTooLargeError: the knight graph of 1000000000000x1000000000000 (1,000,000,000,000,000,000,000,000 squares) needs about 2.5e27 B of memory; only 16.0 GiB is available
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..exceptions import BoardTooLargeError, InvalidBoardError

__all__ = [
    "FOOTPRINTS",
    "Footprint",
    "available_memory",
    "format_bytes",
    "parse_bytes",
    "require_board_memory",
    "require_memory",
    "require_table_memory",
    "resident_bytes",
    "table_memory",
]

_MiB = 2**20

SMALL_BYTES = 64 * _MiB
"""Work needing less than this is never refused (and free memory is not even read)."""


def available_memory() -> int:
    """Bytes of memory this process can expect to use.

    The least of: the machine's free memory (Linux ``MemAvailable``, else the
    physical memory), what is left under a container's memory limit (cgroup v2
    ``memory.max`` or v1 ``memory.limit_in_bytes``, minus the usage), and what
    is left of this process's address-space limit (``ulimit -v``).

    Examples
    --------
    >>> 0 <= available_memory() < 2**63
    True
    """
    free = _machine_free()
    for limit in (_cgroup_free(), _address_space_free()):
        if limit is not None:
            free = min(free, limit)
    return max(0, free)


def _machine_free() -> int:
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - exotic platforms
        return 2**63 - 1


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None  # "max": no limit


def _cgroup_free() -> int | None:
    """What is left under this process's cgroup memory limit, or None without one."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and not controllers:  # cgroup v2
            root, files = "/sys/fs/cgroup", ("memory.max", "memory.current")
        elif "memory" in controllers.split(","):  # cgroup v1
            root, files = (
                "/sys/fs/cgroup/memory",
                ("memory.limit_in_bytes", "memory.usage_in_bytes"),
            )
        else:
            continue
        for folder in (root + path.rstrip("/"), root):  # inside a container: the root
            limit = _read_int(f"{folder}/{files[0]}")
            if limit is not None and limit < 2**62:
                used = _read_int(f"{folder}/{files[1]}") or 0
                return limit - used
    return None


def _address_space_free() -> int | None:
    """What is left of the address-space limit (``ulimit -v``), or None without one."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    used = 0
    try:
        with open("/proc/self/status", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    used = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return soft - used


_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")


def format_bytes(count: float) -> str:
    """Human-readable byte count in binary units (exact for counts of any size).

    Examples
    --------
    >>> format_bytes(0), format_bytes(1536), format_bytes(2**80), format_bytes(10**40)
    ('0 B', '1.5 KiB', '1.0 YiB', '1.0e40 B')
    """
    if count >= 1024 ** len(_UNITS):
        digits = str(int(count))
        return f"{digits[0]}.{digits[1]}e{len(digits) - 1} B"
    for k, unit in enumerate(_UNITS):
        if count < 1024 ** (k + 1) or unit == _UNITS[-1]:
            return f"{count:.0f} B" if k == 0 else f"{count / 1024**k:.1f} {unit}"
    raise AssertionError("unreachable")


_SUFFIXES = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_bytes(text: str) -> int:
    """A size such as ``4G``, ``512MiB``, ``1.5 GB`` or ``1000000`` in bytes: K, M, G and T
    (with or without ``B`` or ``iB``) are powers of 1024.  ValueError for anything else,
    and for sizes below one byte.

    Examples
    --------
    >>> parse_bytes("4G"), parse_bytes("512MiB"), parse_bytes("1.5 GB"), parse_bytes("1000")
    (4294967296, 536870912, 1610612736, 1000)
    >>> parse_bytes("four")
    Traceback (most recent call last):
    ...
    ValueError: invalid size 'four': expected a number of bytes, or one with K, M, G or T (powers of 1024), like 4G
    """
    import re
    from decimal import Decimal

    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(?:i?B)?\s*", text, re.IGNORECASE)
    value = None
    if match:
        number, unit = match.groups()
        value = int(Decimal(number) * _SUFFIXES[unit.upper()])  # exact for any length
    if value is None or value < 1:
        raise ValueError(
            f"invalid size {text!r}: expected a number of bytes, or one with K, M, G or T "
            "(powers of 1024), like 4G"
        )
    return value


def resident_bytes() -> int:
    """The memory this process holds now (its resident set; 0 where it cannot be read).

    Examples
    --------
    >>> resident_bytes() >= 0
    True
    """
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


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


@dataclass(frozen=True)
class Footprint:
    """Memory of one kind of work on a board of ``A`` squares:
    ``per_square * A + per_pair * A**2 + fixed`` bytes.

    Examples
    --------
    >>> Footprint("a walk", 100, 1, fixed=10).bytes(1000)
    1100010
    """

    name: str
    per_square: int
    per_pair: int = 0
    fixed: int = 0

    def bytes(self, area: int) -> int:
        """Bytes the work needs on a board of ``area`` cells (a Python int, never overflows)."""
        return self.per_square * area + self.per_pair * area * area + self.fixed


FOOTPRINTS: dict[str, Footprint] = {
    # networkx: a node dict, an adjacency dict and attribute dicts per square (measured ~2 KB)
    "knight graph": Footprint("the knight graph", 2_560),
    # Board arrays: the move table (8 moves + sentinel, int64) and its temporaries
    "move table": Footprint("the move table", 160),
    # the symmetries: up to 8 index permutations and the coordinates (int64)
    "symmetries": Footprint("the symmetries", 112),
    # Board.available(): one bool per cell, and the index list of the removed squares
    "mask": Footprint("the square mask", 2),
    # Board.squares(): a list of (r, c) tuples
    "squares": Footprint("the list of squares", 128),
    # sweep: one task tuple and one status per start square (measured ~500 B)
    "sweep": Footprint("a sweep", 640, fixed=16 * _MiB),
    # starts / ends: a task, a SearchResult and its tour (A squares) for every square
    "map": Footprint("a map", 8_192, 8, fixed=16 * _MiB),
    # counting: the graph in processing order as Python tuples (measured ~330 B) and the plan
    "count": Footprint("a count", 1_024, fixed=16 * _MiB),
}
"""The :class:`Footprint` of each kind of work, by name (see :func:`require_board_memory`)."""


def require_board_memory(
    kind: str | Footprint, m: int, n: int, *, extra: int = 0, available: int | None = None
) -> None:
    """Refuse (``BoardTooLargeError``) a kind of work on an ``m x n`` board that cannot fit.

    Parameters
    ----------
    kind : str or Footprint
        A key of :data:`FOOTPRINTS` (``"knight graph"``, ``"sweep"``, ``"map"``,
        ``"count"``, ...) or a footprint of one's own.
    m, n : int
        The board's ranks and files (validated elsewhere: any sizes >= 1).
    extra : int, default 0
        Further bytes the same work needs (for instance one search's own memory).
    available : int, optional
        Bytes free (default: :func:`available_memory`).

    Examples
    --------
    >>> require_board_memory("map", 300, 300, available=2**34)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.BoardTooLargeError: a map of 300x300 (90,000 squares) needs about 61.1 GiB of memory; only 16.0 GiB is available
    """
    footprint = kind if isinstance(kind, Footprint) else FOOTPRINTS.get(kind)
    if footprint is None:
        raise KeyError(f"unknown kind of work {kind!r}: one of {', '.join(FOOTPRINTS)}")
    area = m * n
    needed = footprint.bytes(area) + extra
    if needed < SMALL_BYTES and available is None:
        return
    require_memory(needed, f"{footprint.name} of {m}x{n} ({area:,} squares)", available=available)


def table_memory(rows: int, cols: int) -> int:
    """Bytes an existence table of every board up to ``rows x cols`` needs.

    Each cell keeps its evidence: a tour of up to ``m * n`` squares (16 bytes a
    square, counting the verified copy) and about 4 KiB of results, so the table
    needs about ``16 * T(rows) * T(cols) + 4096 * rows * cols`` bytes, where
    ``T(k) = k (k + 1) / 2``.

    Examples
    --------
    >>> table_memory(20, 20) // 2**20
    18
    """
    pairs = rows * (rows + 1) // 2 * (cols * (cols + 1) // 2)
    return 16 * pairs + 4096 * rows * cols + 16 * _MiB


def require_table_memory(rows: int, cols: int, *, available: int | None = None) -> None:
    """Refuse (``BoardTooLargeError``) an existence table up to ``rows x cols`` that cannot fit.

    Raises
    ------
    InvalidBoardError
        For sizes below 1 (naming them).
    BoardTooLargeError
        When :func:`table_memory` exceeds the free memory.

    Examples
    --------
    >>> require_table_memory(20, 20)
    >>> require_table_memory(5, 99999999999999999999, available=2**34)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.BoardTooLargeError: an existence table up to 5x99999999999999999999 (499,999,999,999,999,999,995 boards) needs about 1.2e42 B of memory; only 16.0 GiB is available
    """
    for value, what in ((rows, "ranks"), (cols, "files")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidBoardError(
                f"invalid board size {value!r}: the number of {what} must be a whole number >= 1"
            )
    needed = table_memory(rows, cols)
    if needed < SMALL_BYTES and available is None:
        return
    require_memory(
        needed,
        f"an existence table up to {rows}x{cols} ({rows * cols:,} boards)",
        available=available,
    )
