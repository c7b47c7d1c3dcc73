"""Files written whole or not at all, and the check of a path argument.

Every file knightgraph writes (tours, pictures, pages, masks, checkpoints) goes
through :func:`atomic_output`: the content goes to a temporary file in the same
folder, renamed onto the target only when complete, so that a failure (a full
disk, Ctrl-C, a bad value found half-way) never leaves a partial file behind.

Examples
--------
>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "note.txt")
...     with atomic_output(path) as handle:
...         _ = handle.write("half")
...         exists_meanwhile = os.path.exists(path)
...     exists_meanwhile, open(path, encoding="utf-8").read()
(False, 'half')
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .exceptions import InvalidOptionError, describe_value

__all__ = ["atomic_output", "atomic_path", "check_path", "write_text"]


def check_path(path: object, what: str) -> str:
    """``path`` as a string, or InvalidOptionError naming it (empty or not a path).

    Examples
    --------
    >>> check_path("tour.txt", "output")
    'tour.txt'
    >>> check_path(3, "input")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid input path 3: expected a file name
    """
    try:
        name = os.fspath(path)  # type: ignore[call-overload]
    except TypeError:
        name = None
    if not isinstance(name, str) or not name or "\0" in name:
        raise InvalidOptionError(
            f"invalid {what} path {describe_value(path)}: expected a file name"
        )
    return name


@contextmanager
def atomic_path(path: str | os.PathLike[str], suffix: str = ".part") -> Iterator[str]:
    """A temporary file next to ``path`` (created empty), for writers that want a name;
    renamed onto ``path`` when the block ends without an error, removed otherwise.

    The renamed file gets the permissions a plain ``open`` would give (``0o666`` less the
    umask), not the ``0o600`` of a temporary file.

    Raises
    ------
    InvalidOptionError
        If ``path`` is empty or not a path at all.
    OSError
        If the folder does not exist or is not writable, naming ``path`` (nothing is
        left behind).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.gif")
    ...     with atomic_path(path, suffix=".part.gif") as tmp:
    ...         tmp.endswith(".part.gif"), os.path.dirname(tmp) == folder
    ...     os.listdir(folder)
    (True, True)
    ['tour.gif']
    """
    target = Path(check_path(path, "output"))
    folder = target.parent if str(target.parent) else Path(".")
    tmp = _create_beside(target, folder, suffix)
    try:
        yield tmp
        try:
            os.replace(tmp, target)
        except OSError as err:  # e.g. the target is a folder: name it, not the temporary file
            raise OSError(err.errno, err.strerror, os.fspath(target)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _create_beside(target: Path, folder: Path, suffix: str) -> str:
    """Create a new empty file with a fresh name in ``folder`` and return its path.

    ``O_EXCL`` makes the creation fail rather than reuse a name that exists, so a
    clash (another process writing beside the same target) takes the next random
    name.  Mode ``0o666`` less the umask: the permissions a plain ``open`` gives,
    which the renamed file keeps.
    """
    for _ in range(100):
        name = folder / f".{target.name}.{os.urandom(6).hex()}{suffix}"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except OSError as err:  # name the user's path, not the temporary one
            raise OSError(err.errno, err.strerror, os.fspath(target)) from None
        os.close(fd)
        return os.fspath(name)
    raise OSError(f"could not create a temporary file beside {os.fspath(target)}")


@contextmanager
def atomic_output(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temporary file next to ``path``; rename it onto ``path`` only on success
    (:func:`atomic_path`, which says what is raised).

    Examples
    --------
    >>> with atomic_output("") as f:
    ...     pass
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid output path '': expected a file name
    """
    with atomic_path(path) as tmp, open(tmp, mode) as handle:
        yield handle


def write_text(text: str, path: str | os.PathLike[str]) -> None:
    """Write ``text`` (plus a final newline) to ``path`` atomically.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.txt")
    ...     write_text("a1 c2 a3", path)
    ...     with open(path, encoding="utf-8") as f:
    ...         f.read()
    'a1 c2 a3\\n'
    >>> write_text(["a1"], "tour.txt")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: cannot write ['a1']: expected text (a str)
    """
    if not isinstance(text, str):
        raise InvalidOptionError(f"cannot write {describe_value(text)}: expected text (a str)")
    with atomic_output(path, "w") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")
