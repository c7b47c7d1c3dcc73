"""Proving small boards have no tour, and checking each proof independently.

Every "no tour" knightgraph reports comes with a certificate: a colour count,
a degree argument, Schwenk's 4 x n partition, or a SAT refutation with its
DRUP proof.  `knightgraph.certcheck` re-checks a certificate from its data
alone, without the code that produced it.

Run: .venv/bin/python examples/unsolvable.py
"""

from __future__ import annotations

import knightgraph as kg
from knightgraph.certcheck import check_certificate

# (m, n, closed): the boards Schwenk (1991) and Conrad et al. (1994) rule out
CASES = [
    (2, 5, False),  # a 2-rank board: the knight cannot turn round
    (3, 3, False),  # the centre square has no move at all
    (3, 5, False),
    (3, 6, False),
    (4, 4, False),  # the open-tour exceptions of Conrad et al.
    (5, 5, True),  # odd x odd: more squares of one colour
    (7, 7, True),
    (3, 8, True),  # Schwenk's 3 x {4, 6, 8}
    (4, 7, True),  # Schwenk's 4 x n: the outer ranks are half the squares
]


def main() -> None:
    print(f"{'board':>8} {'kind':>6}  {'certificate':<15} checked  reason")
    for m, n, closed in CASES:
        result = kg.tour_exists(m, n, closed=closed)
        assert result.status is kg.Status.PROVEN_ABSENT, (m, n, closed)
        cert = result.certificate
        assert cert is not None
        accepted, why = check_certificate(cert.to_dict(), m, n, closed=closed)
        assert accepted, why
        kind = "closed" if closed else "open"
        print(f"{m:>4} x {n:<2} {kind:>6}  {cert.kind:<15} {'yes':<8} {cert.reason[:90]}")

    # A start square can be impossible even when the board has tours: on 5 x 5
    # an open tour must start on a square of the majority colour.
    result = kg.tour_exists(5, 5, start="b1")
    assert result.certificate is not None
    accepted, _ = check_certificate(result.certificate.to_dict(), 5, 5, start="b1")
    print(f"\n5 x 5 from b1: {result.reason} (re-checked: {accepted})")

    # And the theorems agree with every proof (knightgraph checks this on each cell).
    verdict = kg.closed_tour_exists(3, 8)
    print(f"Schwenk on 3 x 8: {bool(verdict)} -- {verdict.reason}")


if __name__ == "__main__":
    main()
