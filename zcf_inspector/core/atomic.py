"""Crash-safe file writes: a receipt is either wholly written or not there at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from zcf_inspector.core.errors import InputError


class TargetExistsError(InputError):
    """The output file exists and replacing it was not asked for."""


class UnwritableFileError(InputError):
    """The output could not be written (no permission, no space, no such folder…)."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"cannot write {path}: {reason}")
        self.path = str(path)
        self.reason = reason


def write_atomic(path: str | os.PathLike[str], data: bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, fsync, rename.

    Without ``overwrite`` an existing target is never replaced, even one that appears
    between the check and the rename (``os.link`` fails instead of clobbering).
    """
    try:
        _write(Path(path), data, overwrite)
    except TargetExistsError:
        raise
    except OSError as exc:
        raise UnwritableFileError(path, exc.strerror or str(exc)) from exc


def _write(target: Path, data: bytes, overwrite: bool) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    if not overwrite and target.exists():
        raise TargetExistsError(f"{target} already exists")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            tmp.replace(target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError as exc:
                raise TargetExistsError(f"{target} already exists") from exc
            tmp.unlink()
        _fsync_dir(folder)
    finally:
        if tmp.exists():
            tmp.unlink()


def _fsync_dir(folder: Path) -> None:
    # The rename is durable only once the folder entry is on disk.
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
