"""Reading a file a claim names, safely: inside the workspace, regular, bounded, hashed.

A packet names files (an evidence source's locator, a changed file); the reviewer names
the workspace folder. A name from the packet is untrusted: an absolute path, a `..`
segment or a link may point anywhere on this machine, a FIFO would block the reader, a
device never ends. So a name is checked as a portable relative path first, resolved with
every link followed and refused if the result leaves the folder, opened without following
a link (so one swapped in since is refused too) and without blocking, and read only when
it is a regular file no larger than the limit — in chunks, the monitor consulted between
them. Nothing here lists the folder: the work is proportional to the names, not to the
size of the workspace.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from zcf_inspector.core.files import kind_of
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor

MAX_FILE_BYTES: Final = 64 * 1024 * 1024  # a larger file is not hashed (not checkable)
CHUNK: Final = 1024 * 1024
_OPEN_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS_BINARY: Final = _OPEN_FLAGS | getattr(os, "O_BINARY", 0)


class Look(StrEnum):
    """What looking for one named file found."""

    HASHED = "hashed"  # a regular file, read whole: ``digest`` is set
    PRESENT = "present"  # it exists (only presence was asked)
    MISSING = "missing"
    NOT_CHECKABLE = "not_checkable"  # ``reason`` says why


@dataclass(frozen=True, slots=True)
class FileLook:
    look: Look
    reason: str = ""
    digest: str | None = None
    size: int | None = None


@dataclass(slots=True)
class ReadCounter:
    """How much the check read: the tests hold it to the names, not the folder."""

    files_opened: int = 0
    bytes_read: int = 0


def portable_problem(name: str) -> str | None:
    """Why ``name`` is not a portable relative path (profile §3's rule for changedFiles),
    or None when it is one."""
    if not name:
        return "an empty path"
    if "\x00" in name:
        return "a path with a NUL character"
    if "\\" in name:
        return "a path with a backslash"
    if name.startswith("/"):
        return "an absolute path"
    if len(name) >= 2 and name[1] == ":" and name[0].isascii() and name[0].isalpha():
        return "a path with a drive prefix"
    segments = name.split("/")
    if any(s in ("", ".", "..") for s in segments):
        return "a path with an empty, '.' or '..' segment (it could leave the workspace)"
    return None


def look_in(
    root: Path,
    name: str,
    *,
    hash_it: bool,
    counter: ReadCounter,
    max_bytes: int = MAX_FILE_BYTES,
    monitor: Monitor = NULL_MONITOR,
) -> FileLook:
    """Look for the portable path ``name`` under the folder ``root`` (already resolved)."""
    problem = portable_problem(name)
    if problem is not None:
        return FileLook(Look.NOT_CHECKABLE, f"{problem}")
    candidate = root / name
    # Where it leads first, then whether it is there: a name under a link out of the
    # folder is not looked for at all (its existence outside is none of the packet's).
    target = Path(os.path.realpath(candidate))
    if target != root and root not in target.parents:
        return FileLook(Look.NOT_CHECKABLE, "a link that leads out of the workspace")
    if not os.path.lexists(candidate):
        return FileLook(Look.MISSING, "not in the workspace")
    if not os.path.lexists(target):
        return FileLook(Look.MISSING, "a link inside the workspace to a file that is not there")
    if not hash_it:
        return FileLook(Look.PRESENT, "present in the workspace (only its presence was checked)")
    return hash_file(target, counter=counter, max_bytes=max_bytes, monitor=monitor)


def hash_file(
    path: Path,
    *,
    counter: ReadCounter,
    max_bytes: int = MAX_FILE_BYTES,
    monitor: Monitor = NULL_MONITOR,
) -> FileLook:
    """SHA-256 of a regular file's bytes, read in chunks; anything else is not checkable."""
    try:
        # Looked at before it is opened: opening a device can itself do something.
        before = os.stat(path)
    except FileNotFoundError:
        return FileLook(Look.MISSING, "not in the workspace")
    except OSError as exc:
        return FileLook(Look.NOT_CHECKABLE, f"cannot look at it ({exc.strerror})")
    if not stat.S_ISREG(before.st_mode):
        return FileLook(Look.NOT_CHECKABLE, f"{kind_of(before.st_mode)}, not a regular file")
    if before.st_size > max_bytes:
        return _too_large(before.st_size, max_bytes)
    try:
        fd = os.open(path, _OPEN_FLAGS_BINARY)
    except FileNotFoundError:
        return FileLook(Look.MISSING, "not in the workspace")
    except OSError as exc:
        return FileLook(Look.NOT_CHECKABLE, f"cannot open it ({exc.strerror})")
    counter.files_opened += 1
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return FileLook(
                Look.NOT_CHECKABLE,
                f"{kind_of(info.st_mode)}, not a regular file",
            )
        if info.st_size > max_bytes:
            return _too_large(info.st_size, max_bytes)
        digest = hashlib.sha256()
        size = 0
        while True:
            monitor.breathe()
            chunk = os.read(fd, min(CHUNK, max_bytes + 1 - size))
            if not chunk:
                break
            size += len(chunk)
            counter.bytes_read += len(chunk)
            if size > max_bytes:  # it grew while being read
                return FileLook(
                    Look.NOT_CHECKABLE,
                    f"it grew past the {max_bytes:,} bytes a file is hashed up to",
                )
            digest.update(chunk)
        return FileLook(Look.HASHED, "", "sha256:" + digest.hexdigest(), size)
    except OSError as exc:
        return FileLook(Look.NOT_CHECKABLE, f"cannot read it ({exc.strerror})")
    finally:
        os.close(fd)


def _too_large(size: int, max_bytes: int) -> FileLook:
    return FileLook(
        Look.NOT_CHECKABLE,
        f"{size:,} bytes, larger than the {max_bytes:,} bytes a file is hashed up to",
        size=size,
    )
