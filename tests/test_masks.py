"""Masked boards (issue 17, part 2): text and image masks, large boards with holes answered
by a verified tour or a checked "no", small ones exactly against a brute force."""

from __future__ import annotations

import numpy as np
import pytest
from independent import tour_defect

import knightgraph as kg
from knightgraph.boards.masks import (
    board_from_array,
    board_from_image,
    board_from_text,
    mask_text,
    read_mask,
    write_mask,
)
from knightgraph.certcheck import check_certificate


def exists_by_search(m, n, closed, removed):
    """Brute force over the squares left (no knightgraph code): any tour at all?"""
    squares = [(r, c) for r in range(m) for c in range(n) if (r, c) not in set(removed)]
    jumps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    adj = {s: [(s[0] + a, s[1] + b) for a, b in jumps] for s in squares}
    adj = {s: [t for t in ts if t in adj] for s, ts in adj.items()}
    failed = set()

    def go(first, here, left):
        if not left:
            return not closed or first in adj[here]
        if (here, left) in failed:
            return False
        for t in adj[here]:
            if t in left and go(first, t, left - {t}):
                return True
        failed.add((here, left))
        return False

    everything = frozenset(squares)
    firsts = squares[:1] if closed else squares
    return any(go(s, s, everything - {s}) for s in firsts)


def disc(radius):
    y, x = np.mgrid[-radius : radius + 1, -radius : radius + 1]
    return x * x + y * y <= radius * radius


def random_holes(side, holes, seed, balanced=False):
    rng = np.random.default_rng(seed)
    mask = np.ones((side, side), dtype=bool)
    per_colour = [0, 0]
    while (~mask).sum() < holes:
        r, c = (int(x) for x in rng.integers(side, size=2))
        colour = (side - 1 - r + c) % 2  # row r of the mask is rank side-1-r
        if mask[r, c] and (not balanced or per_colour[colour] < holes // 2):
            mask[r, c] = False
            per_colour[colour] += 1
    return mask


def answered(board, closed):
    """The answer and its independent check: a tour, or a certificate the checker accepts."""
    res = kg.find_tour(board, closed=closed, timeout=10)
    assert res.status is not kg.Status.ABORTED, res.reason
    if res.found:
        removed = sorted(board.removed)
        squares = res.tour.squares()
        assert tour_defect(board.m, board.n, squares, closed=closed, removed=removed) is None
        kg.validate_tour(squares, board, closed=closed)
    else:
        cert = res.certificate.to_dict()
        names = [board.name(s) for s in sorted(board.removed)]
        assert check_certificate(cert, board.m, board.n, closed=closed, removed=names)[0]
    return res


# --------------------------------------------------------------- round trips
def test_text_mask_round_trip(tmp_path):
    text = "..#..\n.....\n#...#"
    board = board_from_text(text)
    assert board.m == 3 and board.n == 5
    assert board.removed == {(2, 2), (0, 0), (0, 4)}  # the top line is the highest rank
    assert mask_text(board) == text
    path = tmp_path / "mask.txt"
    write_mask(board, path)
    assert read_mask(path) == board


def test_image_mask_round_trip(tmp_path):
    mask = random_holes(40, 60, seed=3)
    board = board_from_array(mask)
    path = tmp_path / "mask.png"
    write_mask(board, path)
    assert read_mask(path) == board
    assert board_from_image(path).num_squares == mask.sum()


def test_images_of_other_modes_read_alike(tmp_path):
    from PIL import Image

    mask = random_holes(30, 40, seed=4)
    want = board_from_array(mask)
    pixels = (mask * 255).astype(np.uint8)
    for mode in ("1", "L", "RGB", "RGBA", "P"):
        path = tmp_path / f"mask_{mode}.png"
        Image.fromarray(pixels, mode="L").convert(mode).save(path)
        assert read_mask(path) == want, mode
    light = np.dstack([pixels * 0] * 3 + [np.where(mask, 0, 255).astype(np.uint8)])
    # black holes on a transparent ground: transparent reads as white, a square
    Image.fromarray(light, mode="RGBA").save(tmp_path / "alpha.png")
    assert read_mask(tmp_path / "alpha.png") == want


def test_bad_masks_are_refused(tmp_path):
    with pytest.raises(kg.TourFormatError, match="line 2"):
        board_from_text("...\n..")
    with pytest.raises(kg.TourFormatError, match="'o'"):
        board_from_text(".o.")
    with pytest.raises(kg.InvalidBoardError, match="no square"):
        board_from_text("##\n##")
    with pytest.raises(kg.TourFormatError, match="No such file"):
        read_mask(tmp_path / "gone.png")
    (tmp_path / "junk.png").write_bytes(b"not a png")
    with pytest.raises(kg.TourFormatError, match=r"junk\.png"):
        read_mask(tmp_path / "junk.png")


# ------------------------------------------------------------------ at scale
def test_1000x1000_with_100_random_holes():
    for seed in (0, 1):
        res = answered(board_from_array(random_holes(1000, 100, seed)), closed=False)
        assert res.seconds < 10  # acceptance figure; benchmarks/bench_masks.py measures it


@pytest.mark.slow  # the independent check of 282,657 squares takes seconds
def test_disc_of_radius_300_balanced_by_interior_holes_has_a_tour():
    mask = disc(300)
    side = 601
    colour = ((side - 1 - np.arange(side))[:, None] + np.arange(side)[None, :]) % 2
    light, dark = int((mask & (colour == 0)).sum()), int((mask & (colour == 1)).sum())
    rng = np.random.default_rng(0)
    left, major = abs(light - dark) - 1, int(dark > light)
    while left > 0:
        r, c = (int(x) for x in rng.integers(200, 400, size=2))
        if mask[r, c] and colour[r, c] == major:
            mask[r, c] = False
            left -= 1
    assert answered(board_from_array(mask), False).found


@pytest.mark.slow  # the independent check of a million squares takes seconds
def test_1000x1000_with_100_holes_of_both_colours_has_a_tour():
    res = answered(board_from_array(random_holes(1000, 100, seed=5, balanced=True)), False)
    assert res.found


def corner_disc(radius):
    """The squares whose centres lie within ``radius`` of the corner shared by the four
    middle squares of a ``2 * radius`` board: its two colours are equal (a reflection
    swaps them)."""
    r = np.arange(2 * radius) - (radius - 0.5)
    return r[:, None] ** 2 + r[None, :] ** 2 <= radius * radius


@pytest.mark.slow  # the independent check of 282,792 squares, twice
def test_disc_of_radius_300_centred_on_a_corner_has_open_and_closed_tours():
    board = board_from_array(corner_disc(300))
    assert board.num_squares == 282_792
    for closed in (False, True):
        assert answered(board, closed).found


@pytest.mark.slow
def test_disc_of_radius_300_balanced_at_the_rim_has_a_tour():
    mask = disc(300)
    side = 601
    colour = ((side - 1 - np.arange(side))[:, None] + np.arange(side)[None, :]) % 2
    light, dark = int((mask & (colour == 0)).sum()), int((mask & (colour == 1)).sum())
    inner = np.zeros_like(mask)
    inner[1:-1, 1:-1] = mask[:-2, 1:-1] & mask[2:, 1:-1] & mask[1:-1, :-2] & mask[1:-1, 2:]
    rim = np.argwhere(mask & ~inner & (colour == int(dark > light)))
    pick = rim[np.random.default_rng(0).choice(len(rim), abs(light - dark) - 1, replace=False)]
    mask[pick[:, 0], pick[:, 1]] = False
    assert answered(board_from_array(mask), False).found


def test_disc_of_radius_300():
    board = board_from_array(disc(300))
    assert board.num_squares == int(disc(300).sum())
    for closed in (False, True):
        answered(board, closed)


# --------------------------------------------------------- small and exact
@pytest.mark.parametrize("seed", range(6))
def test_small_masks_agree_with_brute_force(seed):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(3, 5)), int(rng.integers(4, 6))
    mask = rng.random((m, n)) > 0.15
    mask[0, 0] = True
    board = board_from_array(mask)
    removed = sorted(board.removed)
    for closed in (False, True):
        res = answered(board, closed)
        truth = exists_by_search(m, n, closed, removed)
        assert res.found == truth, (mask, closed)


def test_command_line(tmp_path, capsys):
    from knightgraph.cli import main

    path = tmp_path / "mask.txt"
    path.write_text("#....\n.....\n....#\n")
    assert main(["tour", "3", "5", "--mask", str(path), "--format", "json"]) in (0, 1)
    out = capsys.readouterr().out
    board = read_mask(path)
    res = kg.find_tour(board)
    assert ('"status": "found"' in out) == res.found
    assert main(["exists", "3", "5", "--mask", str(path)]) == (0 if res.found else 1)
    capsys.readouterr()
    assert main(["tour", "4", "5", "--mask", str(path)]) == 2
    assert "3x5" in capsys.readouterr().err
    assert main(["tour", "3", "5", "--mask", str(tmp_path / "gone.txt")]) == 2


def test_every_board_command_takes_the_mask(tmp_path, capsys):
    from knightgraph.cli import main

    path = tmp_path / "mask.txt"
    path.write_text("#.....\n......\n.....#\n......\n")
    assert main(["starts", "4", "6", "--mask", str(path)]) == 0
    assert "22 start squares" in capsys.readouterr().out  # 24 squares less the 2 holes
    assert (
        main(["draw", "graph", "4", "6", "--mask", str(path), "-o", str(tmp_path / "g.png")]) == 0
    )
    assert "22 squares" in capsys.readouterr().out
    assert main(["sweep", "4", "6", "--wrap", "both"]) == 2
    assert "--wrap" in capsys.readouterr().err
