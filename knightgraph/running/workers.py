"""How many workers, and which cluster: the checks of ``--workers`` and ``--dask``.

Both are checked before any work starts, with a one-line error naming the bad value:
at most :func:`max_workers` local processes (a small multiple of the CPUs this process
may use), and a dask scheduler address of the form ``tcp://HOST:PORT`` (no connection
is made here).  :mod:`knightgraph.running.parallel` builds the executors on these checks.

Examples
--------
>>> check_workers(2), check_dask_address("tcp://127.0.0.1:8786")
(2, 'tcp://127.0.0.1:8786')
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..exceptions import InvalidOptionError

__all__ = [
    "DASK_SCHEMES",
    "WORKERS_PER_CPU",
    "check_dask_address",
    "check_workers",
    "cpu_count",
    "max_workers",
]

WORKERS_PER_CPU = 4
"""At most this many local worker processes per CPU (``--workers``)."""

DASK_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")
"""The address schemes of dask.distributed; a bare ``HOST:PORT`` means ``tcp://``."""


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity mask where known), at least 1.

    Examples
    --------
    >>> cpu_count() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def max_workers() -> int:
    """The most local worker processes allowed: :data:`WORKERS_PER_CPU` per CPU.

    More processes than that only compete for the same cores (each piece of
    work is CPU-bound) while multiplying the memory in use.

    Examples
    --------
    >>> max_workers() == WORKERS_PER_CPU * cpu_count()
    True
    """
    return WORKERS_PER_CPU * cpu_count()


def check_workers(workers: Any) -> int | None:
    """Validate a worker count (``--workers``); return it, or None when not given.

    ``0`` means one process per CPU and is returned as that number.

    Raises
    ------
    InvalidOptionError
        For anything but a whole number from 0 to :func:`max_workers`, naming it.

    Examples
    --------
    >>> check_workers(None), check_workers(1), check_workers(0) == cpu_count()
    (None, 1, True)
    >>> check_workers(-1)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --workers -1: expected a whole number >= 0 (0: one per CPU)
    """
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise InvalidOptionError(
            f"invalid --workers {workers!r}: expected a whole number >= 0 (0: one per CPU)"
        )
    cpus, most = cpu_count(), max_workers()
    if workers > most:
        raise InvalidOptionError(
            f"invalid --workers {workers}: at most {most} local processes on this machine "
            f"({WORKERS_PER_CPU} per CPU, {cpus} CPU{'' if cpus == 1 else 's'})"
        )
    return workers or cpus


_HOST_NAME = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$")


def check_dask_address(address: str) -> str:
    """Validate a dask scheduler address (``--dask``) without connecting; return it.

    Accepted: ``SCHEME://HOST:PORT`` with a scheme of :data:`DASK_SCHEMES`
    (``inproc://`` takes any non-empty location), or a bare ``HOST:PORT``
    (dask's default, ``tcp://``).  ``HOST`` is a name, an IPv4 address or an
    IPv6 address in brackets; ``PORT`` is 1..65535.  Whether a scheduler
    answers there is found out when connecting.

    Raises
    ------
    InvalidOptionError
        For a malformed address, naming it and what is wrong.

    Examples
    --------
    >>> check_dask_address("tcp://127.0.0.1:8786"), check_dask_address("[::1]:8786")
    ('tcp://127.0.0.1:8786', '[::1]:8786')
    >>> check_dask_address("http://[::1")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --dask address 'http://[::1': unknown scheme 'http' (use tcp://HOST:PORT, or tls, ucx, ws, wss, inproc)
    >>> check_dask_address("nope")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --dask address 'nope': no port (expected tcp://HOST:PORT)
    """
    if not isinstance(address, str):
        raise InvalidOptionError(
            f"invalid --dask address {address!r}: expected a string like tcp://HOST:PORT"
        )

    def bad(why: str) -> InvalidOptionError:
        return InvalidOptionError(f"invalid --dask address {address!r}: {why}")

    text = address.strip()
    if not text:
        raise bad("expected tcp://HOST:PORT")
    if any(ch.isspace() for ch in text):
        raise bad("it contains spaces")
    scheme, sep, location = text.partition("://")
    if not sep:
        scheme, location = "tcp", text
    if scheme.lower() not in DASK_SCHEMES:
        others = ", ".join(s for s in DASK_SCHEMES if s != "tcp")
        raise bad(f"unknown scheme {scheme!r} (use tcp://HOST:PORT, or {others})")
    if scheme.lower() == "inproc":
        if not location:
            raise bad("no location after inproc://")
        return address
    if location.startswith("["):
        host, close, rest = location[1:].partition("]")
        if not close:
            raise bad("an IPv6 host without its closing ']'")
        import ipaddress

        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            raise bad(f"{host!r} is not an IPv6 address") from None
        if not rest.startswith(":"):
            raise bad("no port (expected tcp://[IPV6]:PORT)")
        port = rest[1:]
    else:
        host, colon, port = location.rpartition(":")
        if not colon:
            raise bad("no port (expected tcp://HOST:PORT)")
        if ":" in host:
            raise bad("put an IPv6 host in brackets: tcp://[HOST]:PORT")
        if not _HOST_NAME.match(host):
            raise bad(f"invalid host {host!r}")
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise bad(f"invalid port {port!r}: expected a number from 1 to 65535")
    return address
