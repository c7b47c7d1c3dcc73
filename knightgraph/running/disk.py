"""Files written whole or not at all, and the check of a path argument.

Every file knightgraph writes (tours, pictures, pages, masks, checkpoints) goes
through :func:`atomic_output` (or :func:`atomic_path`): the content goes to a
temporary file in the same folder, renamed onto the target only when complete, so
that a failure (a full disk, Ctrl-C, a bad value found half-way) never leaves a
partial file behind.  :func:`output_target` says where a write lands: through
symbolic links (the link is kept), in place on a device or a FIFO with a reader
(never renamed over), nowhere for a folder, a socket or a block device; the
command line asks :func:`check_output` the same before any work.  Every input goes
through :func:`open_input` or :func:`read_input`: regular files (or standard input)
only, bounded.

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

import errno
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from ..exceptions import InvalidOptionError, describe_value

__all__ = [
    "INPUT_LIMIT",
    "atomic_output",
    "atomic_path",
    "check_output",
    "check_path",
    "open_input",
    "output_target",
    "read_input",
    "release_outputs",
    "write_text",
]

INPUT_LIMIT = 1 << 28
"""Bytes an input file may hold unless its reader says otherwise (256 MiB)."""


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


def output_target(path: str | os.PathLike[str], what: str = "output") -> tuple[str, str]:
    """Where a write to ``path`` lands, and how: ``(target, how)``.

    The one rule of every writer (:func:`atomic_output`, :func:`atomic_path`) and of the
    command line's check before any work (:func:`check_output`):

    - a regular file, or a name that does not exist yet: ``"replace"``, written whole or
      not at all (a temporary file in the same folder, renamed onto ``target``);
    - a symbolic link: followed, so the link's target is written (``target`` is the
      resolved path) and the link is kept; a dangling link creates its target, provided
      the target's folder exists;
    - a character device (``/dev/null``, ``/dev/full``, a terminal) or the file that
      standard output or error already is (``/dev/stdout``): ``"direct"``, opened and
      written in place, never renamed over;
    - a FIFO: ``"fifo"``, written in place when a reader is there (see :func:`check_output`);
    - a folder, a block device, a socket, a loop of symbolic links, a missing folder or
      one that cannot be written: refused with an OSError naming ``path`` (its
      ``strerror`` says why in words: ``it is a folder``, ``no such folder 'x'``, ...).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     os.symlink("real.txt", os.path.join(folder, "link.txt"))
    ...     target, how = output_target(os.path.join(folder, "link.txt"))
    ...     os.path.basename(target), how
    ('real.txt', 'replace')
    >>> output_target("/dev/null")
    ('/dev/null', 'direct')
    >>> output_target("/")
    Traceback (most recent call last):
    ...
    IsADirectoryError: [Errno 21] it is a folder: '/'
    """
    name = check_path(path, what)
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as err:
        why = "a loop of symbolic links" if err.errno == errno.ELOOP else err.strerror
        raise OSError(err.errno, why or str(err), name) from None
    if info is None or stat.S_ISREG(info.st_mode):
        if info is not None and _is_standard_stream(info):
            return name, "direct"
        target = os.path.realpath(name)
        folder = os.path.dirname(target) or "."
        if not os.path.isdir(folder):
            shown = os.path.dirname(name) or "."
            if os.path.isdir(shown):  # a dangling link into a missing folder: name that one
                shown = folder
            raise FileNotFoundError(errno.ENOENT, f"no such folder {shown!r}", name)
        if not os.access(folder, os.W_OK):
            raise PermissionError(errno.EACCES, "permission denied", name)
        return target, "replace"
    if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        if not os.access(name, os.W_OK):
            raise PermissionError(errno.EACCES, "permission denied", name)
        return name, "direct" if stat.S_ISCHR(info.st_mode) else "fifo"
    kind = _kind_of(info.st_mode)
    if kind == "a folder":
        raise IsADirectoryError(errno.EISDIR, "it is a folder", name)
    why = f"it is {kind} (knightgraph writes regular files, character devices and FIFOs)"
    raise OSError(errno.ENXIO, why, name)


def _is_standard_stream(info: os.stat_result) -> bool:
    """Whether ``info`` is the file that standard output or error is (``-o /dev/stdout``
    with ``> file``): written in place, since renaming over it would leave the shell's
    redirection writing to a file that no longer has a name."""
    for fd in (1, 2):
        try:
            other = os.fstat(fd)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
            return True
    return False


_HELD: dict[str, int] = {}
"""FIFOs opened by :func:`check_output` before any work, by name, until they are written."""


def check_output(path: str | os.PathLike[str], what: str = "output") -> None:
    """Refuse, before any work, an output the writer would refuse (:func:`output_target`).

    A FIFO is opened for writing without blocking: with no reader it is refused
    (``ENXIO``); with one, the descriptor is held until the output is written (closing it
    now would end the reader's input), or until :func:`release_outputs`.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fifo = os.path.join(folder, "pipe")
    ...     os.mkfifo(fifo)
    ...     check_output(fifo)
    Traceback (most recent call last):
    ...
    OSError: [Errno 6] it is a FIFO (named pipe) with no reader: '...pipe'
    """
    name, how = output_target(path, what)
    if how == "fifo" and name not in _HELD:
        _HELD[name] = _open_fifo(name)


def release_outputs() -> None:
    """Close the FIFOs :func:`check_output` holds that were not written (a command ended).

    Examples
    --------
    >>> release_outputs()  # nothing held: nothing to do
    >>> _HELD
    {}
    """
    while _HELD:
        _, fd = _HELD.popitem()
        with suppress(OSError):
            os.close(fd)


def _open_fifo(name: str) -> int:
    """A FIFO opened for writing, blocking once open; refused when no reader is there."""
    try:
        fd = os.open(name, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "it is a FIFO (named pipe) with no reader", name) from None
        raise OSError(err.errno, err.strerror, name) from None
    os.set_blocking(fd, True)
    return fd


@contextmanager
def _written_in_place(name: str, how: str, mode: str) -> Iterator[IO[Any]]:
    """A device or FIFO opened for writing (``how`` from :func:`output_target`); a failed
    write, flush or close (``/dev/full``) raises an OSError naming ``name``."""
    try:
        if how == "fifo":
            fd = _HELD.pop(name, None)
            fd = _open_fifo(name) if fd is None else fd
        else:
            fd = os.open(name, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, mode) as handle:
            yield handle
    except OSError as err:
        if err.filename is not None:
            raise
        raise OSError(err.errno, err.strerror, name) from None


@contextmanager
def atomic_path(path: str | os.PathLike[str], suffix: str = ".part") -> Iterator[str]:
    """A temporary file for writers that want a name: for a regular file (or a new one)
    next to the target (created empty), renamed onto it when the block ends without an
    error, removed otherwise; for a device or FIFO (:func:`output_target`) in the system's
    temporary folder, copied into the target when the block ends without an error.

    The renamed file gets the permissions a plain ``open`` would give (``0o666`` less the
    umask), not the ``0o600`` of a temporary file.  A symbolic link is followed: its
    target is written and the link kept.

    Raises
    ------
    InvalidOptionError
        If ``path`` is empty or not a path at all.
    OSError
        If the folder does not exist or is not writable, or :func:`output_target` refuses
        the target (a folder, a socket, a FIFO with no reader ...), naming ``path``
        (nothing is left behind); or if a write, flush or close fails.

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
    name = check_path(path, "output")
    target, how = output_target(name)
    if how != "replace":
        import shutil
        import tempfile

        fd, tmp = tempfile.mkstemp(suffix=suffix)
        os.close(fd)
        try:
            yield tmp
            with open(tmp, "rb") as source, _written_in_place(name, how, "wb") as handle:
                shutil.copyfileobj(source, handle)
        finally:
            Path(tmp).unlink(missing_ok=True)
        return
    tmp = _create_beside(Path(target), Path(os.path.dirname(target)), suffix)
    try:
        yield tmp
        try:
            os.replace(tmp, target)
        except OSError as err:  # e.g. the target is a folder: name it, not the temporary file
            raise OSError(err.errno, err.strerror, name) from None
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
    """Open the output ``path`` (:func:`output_target` says where it lands): a regular
    file through a temporary file next to it, renamed onto it only on success
    (:func:`atomic_path`, which says what is raised); a device or a FIFO with a reader
    opened and written in place.  A failed write, flush or close raises an OSError that
    names ``path``.

    Examples
    --------
    >>> with atomic_output("/dev/null") as f:
    ...     f.write("gone")
    4
    >>> with atomic_output("") as f:
    ...     pass
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: invalid output path '': expected a file name
    """
    name = check_path(path, "output")
    _, how = output_target(name)
    if how != "replace":
        with _written_in_place(name, how, mode) as handle:
            yield handle
        return
    with atomic_path(name) as tmp:
        try:
            with open(tmp, mode) as handle:
                yield handle
        except OSError as err:
            if err.filename is not None:
                raise
            raise OSError(err.errno, err.strerror, name) from None


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


def _kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, word in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return word
    return "not a regular file"


def _size_words(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB" if size >= 1 << 20 else f"{size} bytes"


def open_input(path: str | os.PathLike[str], what: str, *, limit: int = INPUT_LIMIT) -> IO[bytes]:
    """Open an input file for reading in binary, after checking it can be read whole.

    Only regular files are read (through symlinks); a FIFO, a device, a socket, a folder,
    a symlink loop, a missing file or one larger than ``limit`` bytes is refused with an
    :class:`~knightgraph.exceptions.InvalidOptionError` that names the path (and the
    size and the limit), before anything is read.  Nothing here ever blocks: the file
    is opened with ``O_NONBLOCK`` (which opens a FIFO without waiting for a writer) and
    checked with ``fstat`` on the descriptor that is read, so a file swapped in between
    cannot slip past.

    Parameters
    ----------
    path : str or path-like
        The file.
    what : str
        What the file is, for messages ("tour", "mask", "checkpoint").
    limit : int
        The largest size accepted, in bytes.

    Returns
    -------
    file object
        Open for reading in binary; the caller closes it.

    Examples
    --------
    >>> open_input("/dev/zero", "tour")
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: cannot read tour '/dev/zero': it is a character device, not a regular file
    """
    name = check_path(path, what)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        why = "a loop of symbolic links" if err.errno == errno.ELOOP else (err.strerror or str(err))
        raise InvalidOptionError(f"cannot read {what} {name!r}: {why}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = _kind_of(info.st_mode)
            raise InvalidOptionError(
                f"cannot read {what} {name!r}: it is {kind}, not a regular file"
                if kind != "not a regular file"
                else f"cannot read {what} {name!r}: not a regular file"
            )
        if info.st_size > limit:
            raise InvalidOptionError(
                f"cannot read {what} {name!r}: {_size_words(info.st_size)} is more than "
                f"the {_size_words(limit)} a {what} may hold"
            )
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_input(
    path: str | os.PathLike[str] | None, what: str, *, limit: int = INPUT_LIMIT
) -> bytes:
    """The whole content of an input file, or of standard input (``path`` None or ``-``),
    read bounded: at most ``limit`` bytes, else refused naming the limit.

    A file is checked by :func:`open_input` first (regular files only, size); standard
    input is read until its end but never more than ``limit + 1`` bytes, and a closed
    standard input is refused in one line rather than failing inside Python.

    Raises
    ------
    InvalidOptionError
        For an input that cannot be read, is not a regular file, or is too large.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "tour.txt")
    ...     write_text("a1 b3", path)
    ...     read_input(path, "tour")
    b'a1 b3\\n'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "big.txt")
    ...     write_text("x" * 99, path)
    ...     read_input(path, "tour", limit=10)
    Traceback (most recent call last):
    ...
    knightgraph.exceptions.InvalidOptionError: cannot read tour '...big.txt': 100 bytes is more than the 10 bytes a tour may hold
    """
    if path is None or os.fspath(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        try:
            if sys.stdin is None or sys.stdin.closed:
                raise OSError("closed")
            data = (
                stream.read(limit + 1) if stream is not None else sys.stdin.read(limit + 1).encode()
            )
        except (OSError, ValueError, AttributeError):
            raise InvalidOptionError(
                f"cannot read {what} from standard input: it is closed"
            ) from None
        if len(data) > limit:
            raise InvalidOptionError(
                f"cannot read {what} from standard input: more than the "
                f"{_size_words(limit)} a {what} may hold"
            )
        return data
    with open_input(path, what, limit=limit) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as err:
            raise InvalidOptionError(
                f"cannot read {what} {os.fspath(path)!r}: {err.strerror}"
            ) from None
    if len(data) > limit:  # the file grew while it was read
        raise InvalidOptionError(
            f"cannot read {what} {os.fspath(path)!r}: more than the {_size_words(limit)} "
            f"a {what} may hold"
        )
    return data
