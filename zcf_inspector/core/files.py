"""Reading input files without trusting them: bounded reads, clear errors."""

from __future__ import annotations

from pathlib import Path

from zcf_inspector.core.errors import InputError
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES


class UnreadableFileError(InputError):
    """A file that cannot be read at all (missing, a folder, no permission)."""


def read_bounded(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """At most ``max_bytes + 1`` bytes of ``path``: enough for the reader to refuse an
    oversized file with `packet_too_large` without loading all of it."""
    target = Path(path)
    if target.is_dir():
        raise UnreadableFileError(f"{path} is a folder, not a file")
    if target.exists() and not target.is_file():
        # Opening a FIFO blocks until a writer comes, and a device may never end.
        raise UnreadableFileError(f"{path} is not a regular file (a pipe, socket or device)")
    try:
        with target.open("rb") as handle:
            return handle.read(max_bytes + 1)
    except FileNotFoundError as exc:
        raise UnreadableFileError(f"{path}: no such file") from exc
    except PermissionError as exc:
        raise UnreadableFileError(f"{path}: permission denied") from exc
    except OSError as exc:
        raise UnreadableFileError(f"{path}: {exc.strerror or exc}") from exc
