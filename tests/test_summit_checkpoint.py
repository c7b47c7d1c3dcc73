"""The 8 x 8 open count kept in the repository (issue 26): its checkpoint is intact and its
45 parts add up to the literature's number.

The count itself takes hours (``docs/counting.md``); this checks the file it left, through
the same reader a rerun uses (format, digest, request, split), and against OEIS A165134's
8 x 8 term (19,591,828,170,979,904 directed open tours, Chernov 2014), not against a number
of ours."""

from __future__ import annotations

import shutil
from pathlib import Path

from knightgraph import Board
from knightgraph.counting.checkpoint import Checkpoint, request_of

KEPT = Path(__file__).resolve().parent.parent / "benchmarks" / "checkpoints"

A165134_8X8 = 19_591_828_170_979_904
"""Directed open knight's tours of the 8 x 8 board (OEIS A165134)."""


def test_the_8x8_open_checkpoint_adds_up_to_the_oeis(tmp_path: Path) -> None:
    path = tmp_path / "count-8x8-open.json"
    shutil.copyfile(KEPT / "count-8x8-open.json", path)  # the reader may write: a copy
    kept = Checkpoint(str(path), request_of(Board(8, 8), False, None, None, "oeis"))
    (entry,) = kept.data["counts"].values()  # one count of paths, split in 45 parts
    assert entry["split"]["parts"] == 45 and entry["split"]["engine"] == "middle"
    assert sorted(int(k) for k in entry["done"]) == list(range(45))  # every part, whole
    undirected = sum(int(v) for v in entry["done"].values())
    assert 2 * undirected == A165134_8X8
