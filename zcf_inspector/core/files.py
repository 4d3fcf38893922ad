"""Reading input files without trusting them: the one bounded, non-blocking way to read.

Every file the program reads — packets, sessions, reports, receipts, key, destination and
decisions files, the window's opens and drops — goes through `read_bounded`:

* the path is opened once, with ``O_NONBLOCK`` (opening a FIFO never waits for a writer),
  ``O_NOCTTY`` (a terminal device never becomes the controlling terminal) and
  ``O_CLOEXEC``; nothing looks at the path before ``open()``, since whatever was checked
  could be swapped for a FIFO before the open (a race that once hung the CLI);
* the *open descriptor* is ``fstat``-ed: anything but a regular file (a folder, a FIFO,
  a socket, a device) is refused before a byte is read;
* at most ``max_bytes + 1`` bytes are read (enough for the strict reader to refuse an
  oversized packet with ``packet_too_large``), or, with ``refuse_larger``, a file larger
  than ``max_bytes`` is refused from its size without reading it.

A refusal is an `UnreadableFileError` that says why in words and carries a `Unreadable`
reason, so that the window can phrase its own message for each kind of problem.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from enum import StrEnum
from typing import Final

from zcf_inspector.core.errors import InputError
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES
from zcf_inspector.core.visible_text import shown

# O_NONBLOCK and O_NOCTTY do not exist on Windows, where neither problem does either.
OPEN_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
PATH_CHARS: Final = 300  # a file name longer than this is cut in messages
# One read asks for at most this much more than the file's size says it holds: a limit
# read from an input (a vector's maxBytes of 10^15) must never become an allocation.
_READ_SLACK: Final = 1024 * 1024


class Unreadable(StrEnum):
    """Why a path could not be read as a file."""

    MISSING = "missing"
    NOT_A_FOLDER = "not_a_folder"  # a part of the path is a file
    DANGLING_LINK = "dangling_link"
    LINK_LOOP = "link_loop"
    FOLDER = "folder"
    NOT_REGULAR = "not_regular"  # a FIFO, socket or device
    PERMISSION = "permission"
    TOO_LARGE = "too_large"
    NAME_TOO_LONG = "name_too_long"
    OTHER = "other"


class UnreadableFileError(InputError):
    """A file that cannot be read at all (missing, a folder, a pipe, no permission...)."""

    code = "file_unreadable"

    def __init__(
        self,
        path: str | os.PathLike[str],
        reason: Unreadable,
        message: str,
        *,
        kind: str = "",
        size: int | None = None,
        target: str = "",
    ) -> None:
        super().__init__(message)
        self.path = os.fspath(path)
        self.reason = reason
        self.kind = kind  # for NOT_REGULAR: "a named pipe (FIFO)", "a socket", ...
        self.size = size  # for TOO_LARGE: the size found
        self.target = target  # for DANGLING_LINK: where the link points


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file name as messages show it: escaped (a name may hold any character) and cut."""
    return shown(os.fspath(path), PATH_CHARS)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def read_bounded(
    path: str | os.PathLike[str],
    max_bytes: int = DEFAULT_MAX_BYTES,
    *,
    refuse_larger: bool = False,
    guard: Callable[[os.stat_result], None] | None = None,
) -> bytes:
    """At most ``max_bytes + 1`` bytes of the regular file at ``path`` (see the module
    docstring); with ``refuse_larger``, a larger file is an `UnreadableFileError`.
    ``guard`` sees the open descriptor's status first and may refuse the file by raising
    (`core.file_trust`: a trust file others could have written)."""
    fd = _open(path)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)
        if guard is not None:
            guard(info)
        if refuse_larger and info.st_size > max_bytes:
            raise _too_large(path, info.st_size, max_bytes)
        data = _read_at_most(path, fd, max_bytes + 1, info.st_size)
    finally:
        os.close(fd)
    if refuse_larger and len(data) > max_bytes:  # grew since fstat, or reports no size
        raise _too_large(path, len(data), max_bytes)
    return data


def _open(path: str | os.PathLike[str]) -> int:
    try:
        return os.open(path, OPEN_FLAGS)
    except OSError as exc:
        raise _open_refusal(path, exc) from exc
    except ValueError as exc:  # a NUL in the name
        raise UnreadableFileError(
            path, Unreadable.OTHER, f"{shown_path(path)}: not a usable file name"
        ) from exc


def _read_at_most(path: str | os.PathLike[str], fd: int, limit: int, size: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    try:
        while total < limit:
            # os.read allocates what it is asked for: ask for what the file holds (and one
            # byte to see its end), a bounded slack more when it grew, never the limit.
            want = max(size + 1, total + _READ_SLACK) - total
            chunk = os.read(fd, min(limit - total, want))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise _open_refusal(path, exc) from exc
    # A regular file is nearly always read by one call: no copy then.
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _not_regular(path: str | os.PathLike[str], mode: int) -> UnreadableFileError:
    if stat.S_ISDIR(mode):
        return UnreadableFileError(
            path, Unreadable.FOLDER, f"{shown_path(path)} is a folder, not a file"
        )
    kind = kind_of(mode)
    return UnreadableFileError(
        path,
        Unreadable.NOT_REGULAR,
        f"{shown_path(path)} is {kind}, not a regular file; it was not read",
        kind=kind,
    )


def _too_large(path: str | os.PathLike[str], size: int, max_bytes: int) -> UnreadableFileError:
    return UnreadableFileError(
        path,
        Unreadable.TOO_LARGE,
        f"{shown_path(path)} is {size:,} bytes; at most {max_bytes:,} are read here",
        size=size,
    )


def _open_refusal(path: str | os.PathLike[str], exc: OSError) -> UnreadableFileError:
    name = shown_path(path)
    code = exc.errno
    if code == errno.ENOENT:
        # Said after the open failed, so nothing can be raced: only the words differ.
        if os.path.islink(path):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return UnreadableFileError(
                path,
                Unreadable.DANGLING_LINK,
                f"{name} is a symbolic link to {shown_path(target)}, which does not exist",
                target=target,
            )
        return UnreadableFileError(path, Unreadable.MISSING, f"{name}: no such file")
    if code == errno.ENOTDIR:
        return UnreadableFileError(
            path, Unreadable.NOT_A_FOLDER, f"{name}: no such file (a part of the path is a file)"
        )
    if code == errno.ELOOP:
        return UnreadableFileError(
            path, Unreadable.LINK_LOOP, f"{name} is a symbolic link that loops back on itself"
        )
    if code in (errno.EACCES, errno.EPERM):
        return UnreadableFileError(path, Unreadable.PERMISSION, f"{name}: permission denied")
    if code == errno.ENAMETOOLONG:
        return UnreadableFileError(
            path, Unreadable.NAME_TOO_LONG, f"{name}: the file name is too long for this system"
        )
    if code == errno.EISDIR:
        return UnreadableFileError(path, Unreadable.FOLDER, f"{name} is a folder, not a file")
    if code in (errno.ENXIO, errno.ENODEV, errno.EOPNOTSUPP):
        # A socket (or a device without its driver) cannot be opened at all.
        return UnreadableFileError(
            path,
            Unreadable.NOT_REGULAR,
            f"{name} is not a regular file (a socket or device); it was not read",
            kind="not a regular file",
        )
    return UnreadableFileError(path, Unreadable.OTHER, f"{name}: {exc.strerror or exc}")
