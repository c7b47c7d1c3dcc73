"""Boards of any shape from masks: text (``.`` a square, ``#`` a hole) or black-and-white images.

A mask is the board seen from above, as :func:`~knightgraph.io.formats.format_board`
prints it: its first line (top row of pixels) is the highest rank, its first column
file ``a``.  The board is a :class:`~knightgraph.Board` with the holes removed, so
every strategy, the certificates and the gate apply unchanged: on large boards the
colour count settles most masks at once, and Warnsdorff's rule with Posa rotations
finds a tour where one exists (a 1000 x 1000 board with 100 holes in under a second,
see ``benchmarks/bench_masks.py``); small ones are decided exactly by SAT.

Examples
--------
>>> board = board_from_text('''
... ..#
... ...
... ''')
>>> board, board.removed
(Board(2, 3, removed=('c2',)), frozenset({(1, 2)}))
>>> print(mask_text(board))
..#
...
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, BinaryIO, cast

import numpy as np

from ..exceptions import InvalidBoardError, InvalidOptionError, TourFormatError
from ..running.disk import atomic_output
from .board import Board

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "MAX_SIDE",
    "board_from_array",
    "board_from_image",
    "board_from_text",
    "mask_array",
    "mask_text",
    "read_mask",
    "write_mask",
]

MAX_SIDE = 10_000
"""The longest side of a mask (10^8 squares)."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff")


def board_from_array(squares: Any) -> Board:
    """The board of a boolean array (True a square), its row 0 the top (highest) rank.

    Examples
    --------
    >>> board_from_array([[True, False], [True, True]]).removed
    frozenset({(1, 1)})
    """
    a = np.asarray(squares, dtype=bool)
    if a.ndim != 2 or 0 in a.shape:
        raise InvalidBoardError(f"invalid mask of shape {a.shape}: expected rows of squares")
    if max(a.shape) > MAX_SIDE:
        raise InvalidBoardError(
            f"invalid mask of {a.shape[0]}x{a.shape[1]}: sides up to {MAX_SIDE}"
        )
    if not a.any():
        raise InvalidBoardError("invalid mask: it has no square")
    m, n = a.shape
    rows, cols = np.nonzero(~a[::-1])  # rank 1 is the bottom row of the mask
    return Board(m, n, removed=list(zip(rows.tolist(), cols.tolist(), strict=True)))


def mask_array(board: Board) -> NDArray[np.bool_]:
    """The mask of a board: True on squares, row 0 the highest rank.

    Examples
    --------
    >>> mask_array(Board(2, 2, removed=["a1"])).tolist()
    [[True, True], [False, True]]
    """
    return np.asarray(board.available()).reshape(board.m, board.n)[::-1].copy()


def board_from_text(text: str) -> Board:
    """The board of a text mask: one line a rank (top line highest), ``.`` a square, ``#`` a hole.

    Blank lines before and after are ignored; every line must have the same length.

    Examples
    --------
    >>> board_from_text(".#.\\n...").num_squares
    5
    >>> board_from_text("..\\n.x")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: invalid mask: line 2 has 'x' (expected '.' or '#')
    """
    lines = [line.rstrip("\r") for line in text.strip("\n").split("\n")]
    lines = [line.rstrip() for line in lines]
    if not lines or not lines[0]:
        raise TourFormatError("invalid mask: it is empty")
    width = len(lines[0])
    for k, line in enumerate(lines, start=1):
        if len(line) != width:
            raise TourFormatError(
                f"invalid mask: line {k} has {len(line)} characters, line 1 has {width}"
            )
        bad = set(line) - {".", "#"}
        if bad:
            raise TourFormatError(
                f"invalid mask: line {k} has {sorted(bad)[0]!r} (expected '.' or '#')"
            )
    grid = np.frombuffer("".join(lines).encode("ascii"), dtype=np.uint8).reshape(len(lines), width)
    return board_from_array(grid == ord("."))


def mask_text(board: Board) -> str:
    """The text mask of a board (no final newline).

    Examples
    --------
    >>> mask_text(Board(1, 3, removed=["b1"]))
    '.#.'
    """
    a = mask_array(board)
    table = np.array([ord("#"), ord(".")], dtype=np.uint8)[a.astype(np.uint8)]
    return "\n".join(row.tobytes().decode("ascii") for row in table)


def board_from_image(path: str | os.PathLike[str], threshold: float = 0.5) -> Board:
    """The board of a black-and-white image: a pixel lighter than ``threshold`` a square, a
    darker one a hole (one pixel a square; read by Pillow, or matplotlib for other than 8-bit images).

    The file is read bounded (:data:`IMAGE_LIMIT` bytes, a regular file only) and its width
    and height are read from its header and checked (at most :data:`MAX_SIDE` each) before
    any pixel is decoded.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "mask.png")
    ...     write_mask(Board(3, 4, removed=["b2"]), path)
    ...     board_from_image(path)
    Board(3, 4, removed=('b2',))
    """
    pixels = _read_pixels(os.fspath(path))
    if pixels.max(initial=0) > 1:
        pixels = pixels / 255.0
    if pixels.ndim == 3:
        alpha = pixels[..., 3] if pixels.shape[2] == 4 else 1.0
        pixels = pixels[..., :3].mean(axis=2) * alpha + (1 - alpha)  # transparent is white
    return board_from_array(pixels >= threshold)


IMAGE_LIMIT = 1 << 28
"""The most bytes an image mask may hold (256 MiB)."""

TEXT_LIMIT = (MAX_SIDE + 2) * MAX_SIDE
"""The most bytes a text mask may hold: :data:`MAX_SIDE` lines of :data:`MAX_SIDE` squares."""


def _read_pixels(name: str) -> NDArray[np.float64]:
    """The pixels of an image as floats in [0, 1] (RGBA): by Pillow for 8-bit images (its
    import takes some 50 ms, matplotlib's image module a second on a busy machine), by
    matplotlib for the rest.  The size in the header is checked first; whatever Pillow
    or matplotlib cannot read is a TourFormatError naming the file."""
    import io
    import warnings

    from PIL import Image, UnidentifiedImageError

    from ..running.disk import read_input

    try:
        raw = read_input(name, "mask", limit=IMAGE_LIMIT)
    except InvalidOptionError as err:
        raise TourFormatError(str(err)) from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            saved, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None  # our check, below
            try:
                image = Image.open(io.BytesIO(raw))  # reads the header only
            finally:
                Image.MAX_IMAGE_PIXELS = saved
            with image:
                width, height = image.size
                if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
                    raise TourFormatError(
                        f"cannot read mask {name!r}: its header says {width}x{height} "
                        f"pixels, more than the {MAX_SIDE}x{MAX_SIDE} a mask may have"
                    )
                if image.mode in ("1", "L", "LA", "P", "PA", "RGB", "RGBA"):
                    return np.asarray(image.convert("RGBA"), dtype=float) / 255.0
            import matplotlib.image as mpimg

            return np.asarray(mpimg.imread(io.BytesIO(raw)), dtype=float)
    except TourFormatError:
        raise
    except MemoryError:
        raise
    except Exception as err:  # Pillow's and matplotlib's errors are of many kinds
        why = " ".join(str(err).split()) or type(err).__name__
        if isinstance(err, UnidentifiedImageError):
            why = "not an image Pillow can read"
        raise TourFormatError(f"cannot read mask {name!r}: {why}") from None


def read_mask(path: str | os.PathLike[str]) -> Board:
    """The board of a mask file: an image by its suffix, else a text mask (UTF-8).

    Either is read bounded (:func:`knightgraph.running.disk.read_input`): a regular file only,
    at most :data:`IMAGE_LIMIT` or :data:`TEXT_LIMIT` bytes.

    Examples
    --------
    >>> read_mask("/no/such/mask.txt")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.TourFormatError: cannot read mask '/no/such/mask.txt': No such file or directory
    """
    from ..running.disk import check_path, read_input

    name = check_path(path, "mask")
    if name.lower().endswith(IMAGE_SUFFIXES):
        return board_from_image(name)
    try:
        raw = read_input(name, "mask", limit=TEXT_LIMIT)
    except InvalidOptionError as err:
        raise TourFormatError(str(err)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TourFormatError(f"cannot read mask {name!r}: not UTF-8 text") from None
    return board_from_text(text)


def write_mask(board: Board, path: str | os.PathLike[str]) -> None:
    """Write the mask of a board, atomically: a PNG (white squares, black holes) or text.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "mask.txt")
    ...     write_mask(Board(2, 2, removed=["a1"]), path)
    ...     read_mask(path).removed
    frozenset({(0, 0)})
    """
    name = os.fspath(path)
    try:
        grid = mask_array(board)  # a graph board has no rows of squares (nor has a non-board)
    except AttributeError:
        raise InvalidOptionError(f"cannot write the mask of {board!r}: expected a Board") from None
    if name.lower().endswith(".png"):
        import matplotlib.image as mpimg

        with atomic_output(name, "wb") as handle:
            mpimg.imsave(
                cast(BinaryIO, handle),
                grid.astype(float),
                cmap="gray",
                vmin=0,
                vmax=1,
                format="png",
            )
        return
    if name.lower().endswith(IMAGE_SUFFIXES):
        raise InvalidOptionError(f"cannot write {name!r}: masks are written as .png or text")
    with atomic_output(name, "w") as handle:
        handle.write(mask_text(board) + "\n")
