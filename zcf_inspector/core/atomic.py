"""Crash-safe file writes: a receipt is either wholly written or not there at all.

The bytes go to a temporary sibling ``.NAME.XXXXXXXX.tmp`` (made by ``mkstemp``, mode
0600; for a NAME too long for that to fit the folder's NAME_MAX, ``.CUT~HASH.XXXXXXXX.tmp``
with NAME cut and a digest of the whole name: the temporary is shortened, never the
target), are written whole (a short write continued, every error raised), fsynced, and
are then linked (never replacing) or renamed (replacing) onto ``NAME``. The temporary is
removed on every failure path; one left by a kill (SIGKILL, a power cut) is removed by
the next write of ``NAME`` once it is older than `STALE_AFTER_SECONDS` — only files of
exactly that shape, regular, owned by this user.

Replacing (``overwrite``) is allowed only over a regular file, or a symbolic link to one
(the link itself is replaced by the new file; the file it pointed to is left as it was).
A folder, FIFO, socket, device or a link to one at the target is refused: the caller
named the wrong path.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from zcf_inspector.core.codes import FileCode
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import kind_of, shown_path

# Older than this, a temporary of ours is a leftover: no write takes minutes.
STALE_AFTER_SECONDS: Final = 10 * 60
# mkstemp's random part: 8 characters of [a-z0-9_].
_RANDOM: Final = r"[a-z0-9_]{8}"
_RANDOM_AND_SUFFIX_BYTES: Final = 8 + len(".tmp")
_NAME_MAX_FALLBACK: Final = 255  # POSIX systems' usual NAME_MAX, when pathconf cannot say
_HASH_CHARS: Final = 8


class TargetExistsError(InputError):
    """The output file exists and replacing it was not asked for."""

    code = "output_exists"


class TargetNotAFileError(InputError):
    """The output path names something that is not a regular file; it is never replaced."""

    code = "output_not_a_file"


class UnwritableFileError(InputError):
    """The output could not be written (no permission, no space, no such folder…)."""

    code = "output_unwritable"  # FileCode.OUTPUT_UNWRITABLE, also said in the message

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"{FileCode.OUTPUT_UNWRITABLE}: cannot write {shown_path(path)}: {reason}")
        self.path = str(path)
        self.reason = reason


def write_atomic(
    path: str | os.PathLike[str], data: bytes | Iterable[bytes], *, overwrite: bool = False
) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, fsync, rename.
    ``data`` may be chunks, written as they come (a large receipt need not exist whole).

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
    pattern = re.compile(rf"{re.escape(temporary_prefix(folder, name))}{_RANDOM}\.tmp")
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


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows), or it cannot say
        return _NAME_MAX_FALLBACK


def temporary_prefix(folder: Path, name: str) -> str:
    """The temporary's name up to its random part: ``.NAME.`` when the whole temporary
    fits NAME_MAX, else ``.CUT~HASH.`` with NAME cut (on a character boundary) so that it
    does, and a digest of NAME keeping two long names that share their start apart."""
    limit = _name_max(folder)
    whole = f".{name}."
    if len(os.fsencode(whole)) + _RANDOM_AND_SUFFIX_BYTES <= limit:
        return whole
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:_HASH_CHARS]
    room = limit - _RANDOM_AND_SUFFIX_BYTES - len(f".~{digest}.")
    cut: list[str] = []
    used = 0
    for char in name:
        size = len(os.fsencode(char))
        if used + size > room:
            break
        cut.append(char)
        used += size
    return f".{''.join(cut)}~{digest}."


def _uid() -> int:
    getuid = getattr(os, "geteuid", None)
    return getuid() if getuid is not None else 0


def _write(target: Path, data: bytes | Iterable[bytes], overwrite: bool) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    if overwrite:
        check_replaceable(target)
    elif target.exists() or target.is_symlink():
        raise TargetExistsError(f"{shown_path(target)} already exists")
    remove_stale_temporaries(folder, target.name)
    prefix = temporary_prefix(folder, target.name)
    fd, tmp_name = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        try:
            for chunk in (data,) if isinstance(data, bytes) else data:
                _write_all(fd, chunk)
            os.fsync(fd)
        finally:
            os.close(fd)
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


def _write_all(fd: int, data: bytes) -> None:
    """Every byte of ``data``, or an OSError: a short write is continued, never taken for
    the whole (past ``ulimit -f`` the first write is short, the next one fails)."""
    view = memoryview(data)
    done = 0
    while done < len(view):
        n = os.write(fd, view[done:])
        if n <= 0:
            raise OSError(0, "the write wrote nothing")
        done += n


def _fsync_dir(folder: Path) -> None:
    # The rename is durable only once the folder entry is on disk.
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
