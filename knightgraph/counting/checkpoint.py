"""The checkpoint file of a split count (``count_tours(checkpoint=...)``, ``count --checkpoint``).

A JSON object that carries its own proof of integrity:

``format``, ``version``
    ``"knightgraph count checkpoint"`` and the version of this layout (:data:`VERSION`).
``knightgraph``
    The version of knightgraph that wrote it.  Another version is refused: the engines,
    the plan or the way a count splits may change between versions, and a part counted
    by one cannot be added to the parts of another.
``request``
    What is counted (:func:`request_of`): the board in full (its kind, rows, columns,
    leaper and removed squares), open or closed, the fixed ends and the convention.
``counts``
    For each count of Hamiltonian cycles the request makes (``"cycles"``, ``"paths"``:
    one, or two for the knuth convention), how it was split (the cut step, the number of
    parts, the engine, and ``groups``: the :func:`groups_digest` of the parts, that is of
    the states each part starts from) and the exact count of every part finished so far,
    as decimal text.  A part of a count in the middle that did not fit its memory is counted
    in sub-parts (:mod:`.middle`), each kept under its part's index followed by ``/`` and
    the digits of its vector of degrees (``"7/010122"``, and so on a level deeper) until
    the part is whole.
``digest``
    The sha256 of the canonical JSON (sorted keys, no spaces) of everything above.

It is rewritten after each part (:func:`~knightgraph.running.disk.atomic_output`: a temporary
file, then renamed, so an interrupted write leaves the previous version), and a rerun of
the same request skips the parts it holds.

Everything about the file is checked before any work, and anything that does not match is
refused with one line (:class:`~knightgraph.exceptions.InvalidOptionError`, exit 2 on
the command line): a folder that does not exist or cannot be written, a folder given as
the file, a file that is not a regular file or is larger than :data:`LIMIT` bytes
(:func:`~knightgraph.running.disk.open_input`), text nested deeper than :data:`MAX_DEPTH`, a
truncated or damaged file, a key given twice, a digest that does not match (an edited
or corrupted count), another format version or knightgraph version, another request
(naming what differs), another split, and a finished part that is not a whole number
from 0 up or whose index is not one of the split's parts.  Once the parts are made
(after the program's prefix, before any part runs), parts other than those on file
(:func:`groups_digest`) are refused too.  A checkpoint keeps at most
:data:`MAX_KEPT_PARTS` parts, so that a full one always fits :data:`LIMIT`.

The digest tells damage from content; it is not a signature: whoever edits a count and
computes the digest again (:func:`digest`) makes the file say what they wrote.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

from .._version import __version__
from ..boards.board import Board
from ..exceptions import InvalidOptionError
from ..running.disk import atomic_output, open_input

FORMAT = "knightgraph count checkpoint"
VERSION = 2
"""The layout of the file (1: before the digest and the knightgraph version)."""

LIMIT = 32 << 20
"""The largest checkpoint read, in bytes (32 MiB)."""

MAX_KEPT_PARTS = 1 << 18
"""At most this many parts in a checkpoint: two counts of this many parts, each part's
count up to 2**128 (39 digits), are about 26 MiB of JSON, within :data:`LIMIT`."""

MAX_DEPTH = 16
"""The deepest nesting of ``[`` and ``{`` read (a checkpoint itself nests 4 deep)."""

NAMES = ("cycles", "paths")
"""The counts a request makes (:func:`knightgraph.counting.plan.tally`)."""

ENGINES = ("c", "python", "middle")

_KEYS = {"format", "version", "knightgraph", "request", "counts", "digest"}
_SPLIT_KEYS = {"cut", "parts", "engine", "groups"}
_HEX = re.compile(r"[0-9a-f]{64}")
_DECIMAL = re.compile(r"0|[1-9][0-9]*")
_SUB_PART = re.compile(r"(0|[1-9][0-9]{0,6})(/[012]{1,40}){1,8}")


def request_of(
    board: Board, closed: bool, start: int | None, end: int | None, convention: str
) -> dict[str, Any]:
    """What a checkpoint is for: the board in full and the options of the count.

    Examples
    --------
    >>> request_of(Board(5, 6), True, None, None, "oeis")  # doctest: +NORMALIZE_WHITESPACE
    {'board': 'rectangle', 'rows': 5, 'cols': 6, 'leaper': [1, 2], 'removed': [],
     'closed': True, 'start': None, 'end': None, 'convention': 'oeis'}
    """
    return {
        "board": "rectangle",
        "rows": board.m,
        "cols": board.n,
        "leaper": list(board.leaper),
        "removed": sorted(board.name(r * board.n + c) for r, c in board.removed),
        "closed": bool(closed),
        "start": None if start is None else board.name(start),
        "end": None if end is None else board.name(end),
        "convention": convention,
    }


def digest(data: dict[str, Any]) -> str:
    """The sha256 (hex) of the canonical JSON of ``data`` without its ``digest`` key.

    Examples
    --------
    >>> digest({"a": 1, "digest": "x"}) == digest({"a": 1})
    True
    >>> len(digest({}))
    64
    """
    rest = {k: v for k, v in data.items() if k != "digest"}
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def groups_digest(groups: list[Any], engine: str) -> str:
    """The sha256 (hex) of the parts of a split count: the states (and their counts) of
    each part at the cut, in order, so that a resumed count adds parts of the same split.

    ``groups`` as :func:`knightgraph.counting.split._groups` makes them: ``(keys, lo,
    hi)`` arrays for the ``"c"`` engine, a dict of states for ``"python"``.

    Examples
    --------
    >>> a = groups_digest([{(1, 2): 3}, {}], "python")
    >>> a == groups_digest([{}, {(1, 2): 3}], "python"), len(a)
    (False, 64)
    """
    import numpy as np

    h = hashlib.sha256(engine.encode("ascii"))
    for group in groups:
        if engine != "c":
            chunk = repr(sorted(group.items())).encode("ascii")
            h.update(len(chunk).to_bytes(8, "little"))
            h.update(chunk)
            continue
        for array in group:  # read a block at a time: a layer may be gigabytes
            h.update(int(array.nbytes).to_bytes(8, "little"))
            for i in range(0, len(array), _BLOCK):
                h.update(np.ascontiguousarray(array[i : i + _BLOCK]).data)
    return h.hexdigest()


_BLOCK = 1 << 20
"""Entries of a layer's array hashed at a time (:func:`groups_digest`)."""


def check_kept_parts(parts: int | None) -> None:
    """Refuse, before any work, more parts than a checkpoint keeps (:data:`MAX_KEPT_PARTS`).

    Examples
    --------
    >>> check_kept_parts(8)
    >>> check_kept_parts(1 << 20)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --parts 1048576 with --checkpoint: a checkpoint keeps at most 262144 parts
    """
    if parts is not None and parts > MAX_KEPT_PARTS:
        raise InvalidOptionError(
            f"invalid --parts {parts} with --checkpoint: a checkpoint keeps at most "
            f"{MAX_KEPT_PARTS} parts"
        )


def _depth(tree: Any) -> int:
    """The deepest nesting of lists and objects in a parsed JSON value (walked with a stack
    of its own, so any depth is measured), stopping past :data:`MAX_DEPTH`.

    Examples
    --------
    >>> _depth({"a": [1, "[[[", {}]}), _depth(json.loads("[" * 500 + "]" * 500))
    (3, 17)
    """
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
            stack.extend(
                (v, depth + 1) for v in (node.values() if isinstance(node, dict) else node)
            )
    return deepest


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (``json`` would keep the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Bad(f"the key {key!r} is given twice")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise _Bad(f"{name} is not a number")


class _Bad(ValueError):
    """A defect of the file, said in words."""


class Checkpoint:
    """The finished parts of the split counts of one request, kept in a file.

    Parameters
    ----------
    path : str
        The file; it need not exist yet (its folder must, and be writable).
    request : dict
        What is being counted (JSON values, :func:`request_of`); a file written for
        another request is refused.

    Raises
    ------
    InvalidOptionError
        Before any work, for a path that cannot be written or a file that is not an
        intact checkpoint of this request (see the module's description).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "count.json")
    >>> cp = Checkpoint(path, request_of(Board(6, 6), True, None, None, "oeis"))
    >>> parts = groups_digest([{}, {}, {(1,): 1}, {}], "python")
    >>> cp.start("cycles", {"cut": 20, "parts": 4, "engine": "c"}, parts)
    {}
    >>> cp.record("cycles", 2, 2462)
    >>> Checkpoint(path, request_of(Board(6, 6), True, None, None, "oeis")).start(
    ...     "cycles", {"cut": 20, "parts": 4, "engine": "c"}, parts)
    {2: 2462}
    >>> Checkpoint(path, request_of(Board(5, 6), True, None, None, "oeis"))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --checkpoint ...: it was written for another count: rows 6, not 5
    >>> text = open(path, encoding="utf-8").read()
    >>> with open(path, "w", encoding="utf-8") as f:
    ...     _ = f.write(text.replace('"2462"', '"2463"'))
    >>> Checkpoint(path, request_of(Board(6, 6), True, None, None, "oeis"))
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --checkpoint ...: its digest does not match its content (edited or damaged: count again with another file)
    """

    def __init__(self, path: str, request: dict[str, Any]) -> None:
        if not isinstance(path, str | os.PathLike) or not str(path).strip():
            raise InvalidOptionError(f"invalid --checkpoint {path!r}: expected a file name")
        self.path = os.fspath(path)
        self.request = request
        folder = os.path.dirname(self.path) or "."
        if not os.path.isdir(folder):
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: no such folder {folder!r}"
            )
        if os.path.isdir(self.path):
            raise InvalidOptionError(f"invalid --checkpoint {self.path!r}: it is a folder")
        if not os.access(folder, os.W_OK) or (
            os.path.exists(self.path) and not os.access(self.path, os.W_OK)
        ):
            raise InvalidOptionError(f"invalid --checkpoint {self.path!r}: permission denied")
        self.data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        self.data.update(knightgraph=__version__, request=request, counts={})
        if os.path.lexists(self.path):  # a symlink loop or a FIFO is refused by open_input
            self._load()

    def _refuse(self, why: str) -> InvalidOptionError:
        return InvalidOptionError(f"invalid --checkpoint {self.path!r}: {why}")

    def _load(self) -> None:
        if os.path.islink(self.path) and not os.path.exists(self.path):
            try:
                os.stat(self.path)
            except FileNotFoundError:  # a link to no file yet: the checkpoint is made there
                return
            except OSError:  # a loop of links: open_input says so
                pass
        with open_input(self.path, "checkpoint", limit=LIMIT) as f:
            try:
                raw = f.read(LIMIT + 1)
            except OSError as err:
                raise self._refuse(f"cannot be read ({err.strerror or err})") from None
        if len(raw) > LIMIT:  # it grew while it was read
            raise self._refuse(f"more than the {LIMIT >> 20} MiB a checkpoint may hold")
        try:
            data = self._parse(raw)
        except _Bad as bad:
            raise self._refuse(str(bad)) from None
        self._check(data)
        self.data = data

    @staticmethod
    def _parse(raw: bytes) -> Any:
        """The JSON of the file, bounded in depth, or :class:`_Bad` saying why not."""
        if not raw.strip():
            raise _Bad("it is empty (not a knightgraph checkpoint)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _Bad("it is not UTF-8 text (not a knightgraph checkpoint)") from None
        deep = f"it nests deeper than {MAX_DEPTH} levels (not a knightgraph checkpoint)"
        try:
            tree = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
        except _Bad:
            raise
        except RecursionError:  # the decoder's own bound (checked, far from the C stack's)
            raise _Bad(deep) from None
        except json.JSONDecodeError as err:
            where = f"line {err.lineno} column {err.colno}"
            raise _Bad(f"not a knightgraph checkpoint (truncated or damaged: {where})") from None
        except ValueError as err:  # e.g. a number of more digits than Python converts
            raise _Bad(f"not a knightgraph checkpoint (damaged: {err})"[:160]) from None
        if _depth(tree) > MAX_DEPTH:  # before anything recursive (==, json.dumps) sees it
            raise _Bad(deep)
        return tree

    def _check(self, data: Any) -> None:
        """Everything about the parsed file, in the order that names the real defect."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise self._refuse("not a knightgraph checkpoint")
        if data.get("version") != VERSION:
            raise self._refuse(
                f"format version {data.get('version')!r} (this knightgraph reads version "
                f"{VERSION}: count again with another file)"
            )
        if set(data) != _KEYS:
            keys = sorted(set(data) ^ _KEYS)
            raise self._refuse(f"unexpected or missing keys {keys} (edited or damaged)")
        if data["digest"] != digest(data):
            raise self._refuse(
                "its digest does not match its content (edited or damaged: count again "
                "with another file)"
            )
        if data["knightgraph"] != __version__:
            raise self._refuse(
                f"it was written by knightgraph {data['knightgraph']!r}, this is "
                f"{__version__!r} (engines may differ: count again with another file)"
            )
        if data["request"] != self.request:
            raise self._refuse(f"it was written for another count: {self._differs(data)}")
        counts = data["counts"]
        if not isinstance(counts, dict) or not set(counts) <= set(NAMES):
            raise self._refuse(f"its counts are not {' and '.join(NAMES)} (edited or damaged)")
        for name, entry in counts.items():
            self._check_entry(name, entry)

    def _differs(self, data: dict[str, Any]) -> str:
        """What of the request on file differs from this one, in words."""
        saved = data["request"]
        if not isinstance(saved, dict):
            return json.dumps(saved)
        keys = sorted(set(saved) | set(self.request))
        return ", ".join(
            f"{k} {_short(saved.get(k))}, not {_short(self.request.get(k))}"
            for k in keys
            if saved.get(k) != self.request.get(k)
        )

    def _check_entry(self, name: str, entry: Any) -> None:
        """One count on file: its split and its finished parts."""
        if not isinstance(entry, dict) or set(entry) != {"split", "done"}:
            raise self._refuse(f"its count {name!r} is not a split and finished parts")
        split, done = entry["split"], entry["done"]
        if (
            not isinstance(split, dict)
            or set(split) != _SPLIT_KEYS
            or not all(_whole(split[k]) for k in ("cut", "parts"))
            or not 1 <= split["parts"] <= MAX_KEPT_PARTS
            or split["engine"] not in ENGINES
            or not (isinstance(split["groups"], str) and _HEX.fullmatch(split["groups"]))
        ):
            raise self._refuse(f"the split of its count {name!r} is damaged: {split!r}"[:200])
        if not isinstance(done, dict):
            raise self._refuse(f"the finished parts of its count {name!r} are damaged")
        for index, count in done.items():
            sub = split["engine"] == "middle" and _SUB_PART.fullmatch(index)
            top = index if not sub else index.split("/")[0]
            if not (len(top) <= 7 and _DECIMAL.fullmatch(top) and int(top) < split["parts"]):
                raise self._refuse(
                    f"its count {name!r} holds a part {index!r}"[:120]
                    + f" (the parts are 0 to {split['parts'] - 1})"
                )
            if not (isinstance(count, str) and len(count) <= 4000 and _DECIMAL.fullmatch(count)):
                raise self._refuse(
                    f"part {index} of its count {name!r} is {json.dumps(count)}"[:120]
                    + " (expected a whole number from 0 up)"
                )

    def begun_in_the_middle(self) -> bool:
        """True when a count on file was begun in the middle (:mod:`.middle`): a rerun goes
        on that way, so that its parts on file are kept (:func:`begun_in_the_middle`)."""
        return _middle_in(self.data)

    def split_of(self, name: str) -> dict[str, Any] | None:
        """How the count ``name`` was split when the file was written (None: not begun)."""
        entry = self.data["counts"].get(name)
        return None if entry is None else dict(entry["split"])

    def start(self, name: str, split: dict[str, Any], groups: str | None = None) -> dict[int, int]:
        """Begin (or resume) the count ``name`` split as ``split``: the parts already done.

        ``groups`` is the :func:`groups_digest` of the parts once they are made (None: the
        check before any work, of the split alone).  Raises InvalidOptionError when the
        file holds the same count split otherwise, or split into other parts.
        """
        counts = self.data["counts"]
        entry = counts.get(name)
        if entry is None:
            check_kept_parts(split["parts"])
            if groups is not None:
                counts[name] = {"split": {**split, "groups": groups}, "done": {}}
            return {}
        saved = {k: v for k, v in entry["split"].items() if k != "groups"}
        if saved != split:
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: it holds this count split as "
                f"{json.dumps(saved, sort_keys=True)}, not "
                f"{json.dumps(split, sort_keys=True)} (give the same --parts, or another file)"
            )
        if groups is not None and groups != entry["split"]["groups"]:
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: the parts of this count are not the "
                "parts it holds (another machine or build split them): count again with "
                "another file"
            )
        return {int(k): int(v) for k, v in entry["done"].items() if "/" not in k}  # checked

    def record(self, name: str, part: int, count: int) -> None:
        """Note that part ``part`` of the count ``name`` gave ``count``; rewrite the file."""
        self.data["counts"][name]["done"][str(part)] = str(count)
        self.save()

    def sub_parts(self, name: str) -> dict[str, int]:
        """The sub-parts on file of the count ``name`` (``"7/0101"``: see the module's
        notes), by key."""
        done = self.data["counts"][name]["done"]
        return {k: int(v) for k, v in done.items() if "/" in k}

    def record_sub(self, name: str, key: str, count: int) -> None:
        """Note that the sub-part ``key`` of the count ``name`` gave ``count``; rewrite
        the file."""
        self.data["counts"][name]["done"][key] = str(count)
        self.save()

    def record_whole(self, name: str, part: int, count: int) -> None:
        """Note that part ``part``, counted in sub-parts, gave ``count``: its sub-parts are
        folded into it, in one rewrite of the file."""
        done = self.data["counts"][name]["done"]
        for key in [k for k in done if k.startswith(f"{part}/")]:
            del done[key]
        self.record(name, part, count)

    def save(self) -> None:
        """Write the file with its digest: a temporary file in the same folder, then renamed
        over it."""
        self.data["digest"] = digest(self.data)
        with atomic_output(self.path) as f:
            json.dump(self.data, f, sort_keys=True, separators=(",", ":"))
            f.write("\n")


def _whole(value: Any) -> bool:
    """A JSON whole number from 0 up (not a bool, not a float)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _short(value: Any) -> str:
    """A JSON value in at most 60 characters, for messages."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _middle_in(data: Any) -> bool:
    counts = data.get("counts") if isinstance(data, dict) else None
    return isinstance(counts, dict) and any(
        isinstance(entry, dict)
        and isinstance(entry.get("split"), dict)
        and entry["split"].get("engine") == "middle"
        for entry in counts.values()
    )


def begun_in_the_middle(path: str | None) -> bool:
    """True when the checkpoint file ``path`` holds a count begun in the middle, read
    without checking it (for the ``count`` command's note before the work; the count
    itself reads it through :class:`Checkpoint`, which refuses a damaged file).

    A count begun in the middle goes on in the middle, whatever
    :func:`~knightgraph.counting.middle.meets_in_the_middle` says for the board today:
    the parts on file are kept.

    Examples
    --------
    >>> begun_in_the_middle(None), begun_in_the_middle("no-such-file.json")
    (False, False)
    """
    if not path or not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(LIMIT))
    except (OSError, ValueError, RecursionError):  # the count's own reading refuses it
        return False
    return _middle_in(data)
