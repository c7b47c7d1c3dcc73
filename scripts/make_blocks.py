"""Make the block tours of ``--method divide`` (knightgraph/data/blocks.txt).

Every tour is found by knightgraph's own SAT solver
(:func:`knightgraph.solvers.blocks.block_tour`) with the moves the
construction needs forced, then checked.  The solver is deterministic, so
running this script again gives the same file::

    python scripts/make_blocks.py            # writes knightgraph/data/blocks.txt

Contents (``h x w`` blocks; see the notes of ``knightgraph.solvers.divide``):

* ``grid_HxW``, 5 <= H, W <= 12, not both odd (Parberry's 6x6 ... 10x12 among
  them; the decomposition uses sides up to 10): closed, structured at all four
  corners (Parberry 1997), with the two ports (1,1)-(3,0) and (1,1)-(0,3);
* ``corner_HxW``, H, W in {5, 7, 9}: closed tour of the block minus its
  corner a1, structured at the other three corners;
* ``strip3_closed_N``, ``strip3_corner_N``, ``strip3_open_N``, ``strip4_open_N``:
  whole strips for short lengths, and strips with a repeatable window for
  every longer length (one per residue of the window's period).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from knightgraph import Board, Tour
from knightgraph.running.disk import write_text
from knightgraph.solvers.blocks import PORTS, STRIP_CAP, STRIP_WINDOW, block_tour, structure_moves
from knightgraph.solvers.codes import codes_from_order, expand, follow_codes, path_end
from knightgraph.tours.blocktour import library_text

OUT = Path(__file__).resolve().parents[1] / "knightgraph" / "data" / "blocks.txt"

# strips: (height, kind, whole lengths, window bases); kind as in blocks.strip_codes
STRIPS = [
    (3, "closed", [10, 12, 14, 16, 18, 22, 24], [20, 26]),
    (3, "corner", [9, 11, 13, 15, 17, 19, 21], [23, 25]),
    (3, "open", [4, 7, 8], []),
    (4, "open", list(range(5, 18)), [18, 19, 20, 21]),
]


def grid_blocks() -> dict[str, tuple[dict[str, object], list[int]]]:
    out = {}
    for h in range(5, 13):
        for w in range(5, 13):
            if h % 2 and w % 2:
                if h <= 9 and w <= 9:
                    order = block_tour(
                        h,
                        w,
                        closed=True,
                        removed=[(0, 0)],
                        forced=structure_moves(h, w, "tr bl br"),
                    )
                    out[f"corner_{h}x{w}"] = (_info(h, w, True, "corner"), _need(order))
                continue
            order = block_tour(h, w, closed=True, forced=structure_moves(h, w) + list(PORTS))
            out[f"grid_{h}x{w}"] = (_info(h, w, True, "grid"), _need(order))
    return out


def strips() -> dict[str, tuple[dict[str, object], list[int]]]:
    out = {}
    for h, kind, whole, bases in STRIPS:
        closed = kind != "open"
        removed = [(0, 0)] if kind == "corner" else []
        for n in whole:
            order = block_tour(h, n, closed=closed, removed=removed)
            out[f"strip{h}_{kind}_{n}"] = (_info(h, n, closed, kind, strip=h), _need(order))
        for n in bases:
            window = (STRIP_CAP[h], STRIP_WINDOW)
            order = block_tour(h, n, closed=closed, removed=removed, windows=[window])
            info = _info(h, n, closed, kind, strip=h, window=list(window))
            out[f"strip{h}_{kind}_{n}"] = (info, _need(order))
    return out


def _info(h: int, w: int, closed: bool, kind: str, **extra: object) -> dict[str, object]:
    return {"rows": h, "cols": w, "closed": closed, "kind": kind, **extra}


def _need(order: list[int] | None) -> list[int]:
    if order is None:
        raise SystemExit("a block has no tour with the moves it needs")
    return order


def check(name: str, info: dict[str, object], order: list[int]) -> None:
    """Each entry is a tour; windows give a tour for several lengths."""
    h, w, closed = int(info["rows"]), int(info["cols"]), bool(info["closed"])  # type: ignore[call-overload]
    removed = [(0, 0)] if info["kind"] == "corner" else []
    Tour(Board(h, w, removed=removed), order, closed=closed)
    if "window" not in info:
        return
    x, period = info["window"]  # type: ignore[misc]
    codes = codes_from_order(h, w, order, closed)
    for copies in range(1, 6):
        longer = expand(codes, [(x, period, copies)])
        start = 1 if removed else int(order[0]) if closed else path_end(longer)
        seq = follow_codes(longer, start)
        Tour(Board(h, longer.shape[1], removed=removed), seq, closed=closed)
    print(f"  {name}: window {x}+{period} repeats", file=sys.stderr)


def main() -> None:
    began = time.perf_counter()
    entries = {**grid_blocks(), **strips()}
    for name, (info, order) in entries.items():
        check(name, info, order)
    OUT.parent.mkdir(exist_ok=True)
    write_text(library_text(entries).rstrip("\n"), OUT)
    print(f"{len(entries)} block tours written to {OUT} in {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
