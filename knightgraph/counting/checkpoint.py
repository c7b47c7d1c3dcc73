"""The checkpoint file of a split count (``count_tours(checkpoint=...)``, ``count --checkpoint``).

A JSON file naming the request it belongs to (the board, the kind, the ends, the
convention) and, for each count of Hamiltonian cycles the request makes (one, or two for
the knuth convention), how it was split (the cut step, the number of parts, the engine)
and the exact count of every part finished so far.  It is rewritten after each part (a
temporary file, then renamed: an interrupted write leaves the previous version), and a
rerun of the same request skips the parts it holds.

Everything about the file is checked before any work: a folder that does not exist or
cannot be written, a folder given as the file, a file that is not a knightgraph
checkpoint, or one written for another request or with another split, are refused
(:class:`~knightgraph.exceptions.InvalidOptionError`, exit 2 on the command line).
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..exceptions import InvalidOptionError
from ..files import atomic_output

FORMAT = "knightgraph count checkpoint"
VERSION = 1


class Checkpoint:
    """The finished parts of the split counts of one request, kept in a file.

    Parameters
    ----------
    path : str
        The file; it need not exist yet (its folder must, and be writable).
    request : dict
        What is being counted (JSON values); a file written for another request
        is refused.

    Raises
    ------
    InvalidOptionError
        Before any work, for a path that cannot be written or a file that is not a
        checkpoint of this request.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "count.json")
    >>> cp = Checkpoint(path, {"rows": 6, "cols": 6, "closed": True})
    >>> cp.start("cycles", {"cut": 20, "parts": 4, "engine": "c"})
    {}
    >>> cp.record("cycles", 2, 2462)
    >>> Checkpoint(path, {"rows": 6, "cols": 6, "closed": True}).start(
    ...     "cycles", {"cut": 20, "parts": 4, "engine": "c"})
    {2: 2462}
    >>> Checkpoint(path, {"rows": 5, "cols": 6, "closed": True})
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid --checkpoint ...: it was written for another count (...)
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
        self.data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "request": request}
        self.data["counts"] = {}
        if os.path.exists(self.path):
            self._load()

    def _load(self) -> None:
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: not a knightgraph checkpoint ({err})"
            ) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: not a knightgraph checkpoint"
            )
        if data.get("version") != VERSION or not isinstance(data.get("counts"), dict):
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: version {data.get('version')!r} "
                f"(this knightgraph reads version {VERSION})"
            )
        if data.get("request") != self.request:
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: it was written for another count "
                f"({json.dumps(data.get('request'), sort_keys=True)})"
            )
        self.data = data

    def split_of(self, name: str) -> dict[str, Any] | None:
        """How the count ``name`` was split when the file was written (None: not begun)."""
        entry = self.data["counts"].get(name)
        return None if entry is None else dict(entry["split"])

    def start(self, name: str, split: dict[str, Any]) -> dict[int, int]:
        """Begin (or resume) the count ``name`` split as ``split``: the parts already done.

        Raises InvalidOptionError when the file holds the same count split otherwise.
        """
        counts = self.data["counts"]
        entry = counts.get(name)
        if entry is None:
            counts[name] = {"split": split, "done": {}}
            return {}
        if entry.get("split") != split:
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: it holds this count split as "
                f"{json.dumps(entry.get('split'), sort_keys=True)}, not "
                f"{json.dumps(split, sort_keys=True)} (give the same --parts, or another file)"
            )
        try:
            return {int(k): int(v) for k, v in entry["done"].items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            raise InvalidOptionError(
                f"invalid --checkpoint {self.path!r}: its finished parts are not numbers"
            ) from None

    def record(self, name: str, part: int, count: int) -> None:
        """Note that part ``part`` of the count ``name`` gave ``count``; rewrite the file."""
        self.data["counts"][name]["done"][str(part)] = str(count)
        self.save()

    def save(self) -> None:
        """Write the file: a temporary file in the same folder, then renamed over it."""
        with atomic_output(self.path) as f:
            json.dump(self.data, f, indent=1, sort_keys=True)
            f.write("\n")
