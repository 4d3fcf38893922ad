"""Crash-safe file writes: a receipt is either wholly written or not there at all.

The bytes go to a temporary sibling ``.NAME.XXXXXXXX.tmp`` (made by ``mkstemp``, mode
0600), are fsynced, and are then linked (never replacing) or renamed (replacing) onto
``NAME``. The temporary is removed on every failure path; one left by a kill (SIGKILL, a
power cut) is removed by the next write of ``NAME`` once it is older than
`STALE_AFTER_SECONDS` — only files of exactly that shape, regular, owned by this user.

Replacing (``overwrite``) is allowed only over a regular file, or a symbolic link to one
(the link itself is replaced by the new file; the file it pointed to is left as it was).
A folder, FIFO, socket, device or a link to one at the target is refused: the caller
named the wrong path.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import Final

from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import kind_of, shown_path

# Older than this, a temporary of ours is a leftover: no write takes minutes.
STALE_AFTER_SECONDS: Final = 10 * 60
# mkstemp's random part: 8 characters of [a-z0-9_].
_RANDOM: Final = r"[a-z0-9_]{8}"


class TargetExistsError(InputError):
    """The output file exists and replacing it was not asked for."""

    code = "output_exists"


class TargetNotAFileError(InputError):
    """The output path names something that is not a regular file; it is never replaced."""

    code = "output_not_a_file"


class UnwritableFileError(InputError):
    """The output could not be written (no permission, no space, no such folder…)."""

    code = "output_unwritable"

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"cannot write {shown_path(path)}: {reason}")
        self.path = str(path)
        self.reason = reason


def write_atomic(path: str | os.PathLike[str], data: bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, fsync, rename.

    Without ``overwrite`` an existing target is never replaced, even one that appears
    between the check and the rename (``os.link`` fails instead of clobbering). With it,
    only a regular file (or a link to one) is replaced.
    """
    target = Path(path)
    try:
        _write(target, data, overwrite)
    except (TargetExistsError, TargetNotAFileError):
        raise
    except OSError as exc:
        raise UnwritableFileError(path, exc.strerror or str(exc)) from exc


def check_replaceable(target: Path) -> None:
    """Refuse a target that exists and is not a regular file or a link to one."""
    try:
        info = target.stat()  # follows a link: what it points to must be a file
    except FileNotFoundError:
        if target.is_symlink():
            raise TargetNotAFileError(
                f"{shown_path(target)} is a dangling symbolic link; it is not replaced"
            ) from None
        return
    except OSError:
        return  # the write itself will say what is wrong
    if not stat.S_ISREG(info.st_mode):
        raise TargetNotAFileError(
            f"{shown_path(target)} is {kind_of(info.st_mode)}, not a regular file; "
            "--force only replaces a file"
        )


def remove_stale_temporaries(folder: Path, name: str, now: float | None = None) -> list[Path]:
    """Remove the temporaries of earlier writes of ``name`` that a kill left in ``folder``;
    return what was removed. Never anything else: exact name shape, a regular file (not a
    link), owned by this user, older than `STALE_AFTER_SECONDS`."""
    pattern = re.compile(rf"\.{re.escape(name)}\.{_RANDOM}\.tmp")
    cutoff = (time.time() if now is None else now) - STALE_AFTER_SECONDS
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_uid == _uid() and info.st_mtime < cutoff:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue  # gone already, or not ours to remove
    return removed


def _uid() -> int:
    getuid = getattr(os, "geteuid", None)
    return getuid() if getuid is not None else 0


def _write(target: Path, data: bytes, overwrite: bool) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    if overwrite:
        check_replaceable(target)
    elif target.exists() or target.is_symlink():
        raise TargetExistsError(f"{shown_path(target)} already exists")
    remove_stale_temporaries(folder, target.name)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            check_replaceable(target)  # once more, as close to the rename as it can be
            tmp.replace(target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError as exc:
                raise TargetExistsError(f"{shown_path(target)} already exists") from exc
        _fsync_dir(folder)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _fsync_dir(folder: Path) -> None:
    # The rename is durable only once the folder entry is on disk.
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
