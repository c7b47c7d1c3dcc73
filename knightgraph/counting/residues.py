"""Counts past 128 bits, by residues (issue 26): the primes the compiled kernel counts
modulo, and the bound that says how many of them a count needs; the count is put together
from its residues by the Chinese remainder theorem (:func:`~knightgraph.counting.compiled.run_compiled`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any


def is_prime(n: int) -> bool:
    """Miller-Rabin with the first twelve primes as bases: exact below 3.3 * 10**24.

    Examples
    --------
    >>> is_prime(2**61 - 1), is_prime(2**62 - 1)
    (True, False)
    """
    if n < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for b in bases:
        if n % b == 0:
            return n == b
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for b in bases:
        x = pow(b, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def moduli() -> Iterator[int]:
    """The primes below 2^62, from the largest down: the moduli of a count too large for 128
    bits (each one's counts stay below 2^62, so that two add up below 2^64).

    Examples
    --------
    >>> from itertools import islice
    >>> [2**62 - p for p in islice(moduli(), 3)]
    [57, 87, 117]
    """
    n = 2**62 - 1
    while True:
        if is_prime(n):
            yield n
        n -= 2


def count_bound_bits(plan: list[tuple[Any, ...]], first: int = 0, start: int = 1) -> float:
    """log2 of an upper bound on what the plan counts from step ``first`` on, from states
    whose counts add up to ``start``: a step chooses at most two of its ``nc`` candidate
    edges, so each tour is one of at most ``1 + nc + nc (nc - 1) / 2`` choices a step.

    Examples
    --------
    >>> import numpy as np
    >>> step = (0, 0, 0, np.zeros(3, dtype=np.int64))  # three candidates: 7 choices
    >>> round(count_bound_bits([step, step]), 3)
    5.615
    """
    bits = math.log2(max(1, start))
    for step in plan[first:]:
        nc = len(step[3])
        bits += math.log2(1 + nc + nc * (nc - 1) // 2)
    return bits
