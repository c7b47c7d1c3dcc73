"""Quick start: a tour, a proof that none exists, and a check by hand.

Run: .venv/bin/python examples/quickstart.py
"""

from __future__ import annotations

import knightgraph as kg
from knightgraph.io.formats import format_board


def main() -> None:
    res = kg.find_tour(8, 8, closed=True, start="d4", seed=0)
    print(f"{res.status.name} by {res.method} in {res.seconds * 1e3:.1f} ms")
    print(format_board(res.require_tour()))

    for m, n, closed in [(7, 7, True), (3, 8, True), (4, 4, False)]:
        absent = kg.find_tour(m, n, closed=closed)
        print(f"{absent.status.name}: {absent.reason} [{absent.certificate.kind}]")

    squares = res.require_tour().squares()
    kg.validate_tour(squares, 8, 8, closed=True)  # raises if anything is wrong
    squares[10], squares[11] = squares[11], squares[10]
    try:
        kg.validate_tour(squares, 8, 8, closed=True)
    except kg.InvalidTourError as err:
        print(f"a broken tour is caught: {err}")


if __name__ == "__main__":
    main()
