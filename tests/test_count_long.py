"""Long boards and the summit counts (issue 26), against the published values.

Sources: OEIS A175881 (closed tours of 6 x n, terms to n = 40); A193054 (7 x 2n closed) and
A193055 (8 x n closed), computed by KeyTo9_Fans (2011) and given in his tables on the
emath forum, from which the OEIS entries were made (7 x 10, 7 x 12, 8 x 9, 8 x 10);
A001230 (8 x 8 closed, McKay 1997) and A165134 (7 x 7 open, directed).  The counts that take
more than a minute on the 2-core development machine are marked slow (``make test-all``);
their times are in ``docs/counting.md``.
"""

from __future__ import annotations

import pytest

from knightgraph import count_tours
from knightgraph.counting.compiled import kernel_available

pytestmark = pytest.mark.skipif(not kernel_available(), reason="compiled kernel not built")

A175881 = {
    20: 276_453_522_147_273_309_254_029_785_276,
    26: 19_145_888_052_227_167_790_585_189_427_230_454_709_502,
    30: 322_863_244_258_188_584_511_076_820_531_771_298_243_292_346_804,
    40: 377_031_597_006_006_571_424_070_743_308_269_493_020_186_682_009_428_464_253_448_495_336,
}
"""Closed tours of 6 x n (undirected), OEIS A175881."""


def test_6x20_closed_in_128_bits():
    result = count_tours(6, 20, closed=True)
    assert result.undirected == A175881[20]
    assert result.stats["counts"] == "128-bit"


@pytest.mark.slow
@pytest.mark.parametrize("n", [26, 30, 40])
def test_6xn_closed_past_128_bits_modulo_primes(n):
    """Past 2^128 the kernel counts modulo primes and puts the residues together."""
    result = count_tours(6, n, closed=True)
    assert result.stats["counts"].startswith("modulo ")
    assert result.undirected == A175881[n]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("m", "n", "tours"),
    [
        (7, 10, 1_250_063_279_938_854),  # A193054
        (7, 12, 38_350_427_205_194_670_084),  # A193054
        (8, 9, 7_112_881_119_092_574),  # A193055
        (8, 10, 4_235_482_818_156_697_040),  # A193055
        (8, 8, 13_267_364_410_532),  # A001230
    ],
)
def test_long_boards_closed(m, n, tours):
    assert count_tours(m, n, closed=True).undirected == tours


@pytest.mark.slow
def test_7x7_open():
    assert count_tours(7, 7).directed == 165_575_218_320  # A165134
