"""Standard output as a command writes it: every byte written, or the command fails.

Python's own ``sys.stdout`` can lose output without a word: on a full disk or past
``ulimit -f`` a large write to its buffer returns a short count, which nobody checks, and
the command exits 0 with 1 KB of a 400 KB receipt. And a text a terminal's encoding cannot
hold (latin-1, cp1252) raises UnicodeEncodeError from the middle of a report.

So while a command runs, `checked_stdout` puts in its place a writer over the same file
descriptor that writes every byte (a short write is continued, a failed one raises
`UnwritableFileError`, code ``output_unwritable``: one line on stderr and exit 2, as for an
``--out`` file that cannot be written) and that writes what the encoding cannot hold as
``\\uXXXX`` escapes (JSON's spelling, so JSON output stays the same JSON value). Byte
outputs — receipts, keys, sealed packets, canonical bytes — go to ``sys.stdout.buffer``
and are UTF-8 whatever the locale. A closed pipe stays `BrokenPipeError` (exit 141).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import Final

from zcf_inspector.core.atomic import UnwritableFileError

ESCAPE_ERRORS: Final = "zcf-json-escape"


def _json_escape(error: UnicodeError) -> tuple[str, int]:
    """An encoding error handler: each character the encoding cannot hold as a JSON escape
    (``\\uXXXX``, a surrogate pair past U+FFFF): valid in JSON strings and readable text."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    pieces = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code <= 0xFFFF:
            pieces.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            pieces.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
    return "".join(pieces), error.end


codecs.register_error(ESCAPE_ERRORS, _json_escape)


def _reason(exc: OSError) -> str:
    name = errno.errorcode.get(exc.errno or 0, "")
    words = exc.strerror or str(exc)
    return f"{words} ({name})" if name else words


class CheckedRaw(io.RawIOBase):
    """The raw file under the command's stdout: writes all of each buffer or raises."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self.failed = False  # after a failure, later writes (the final flush) are dropped
        self.written = 0

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def close(self) -> None:
        # The descriptor is the process's stdout: it is never closed here.
        super().close()

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(data).cast("B")
        if self.failed:
            return len(view)
        done = 0
        try:
            while done < len(view):
                try:
                    n = os.write(self._fd, view[done:])
                except BlockingIOError:
                    _wait_writable(self._fd)
                    continue
                if n <= 0:
                    raise OSError(errno.EIO, "the write wrote nothing")
                done += n
        except BrokenPipeError:
            self.failed = True
            raise
        except OSError as exc:
            self.failed = True
            self.written += done
            raise UnwritableFileError(
                "stdout",
                f"{_reason(exc)}; {self.written:,} bytes were written, the output is incomplete",
            ) from exc
        self.written += done
        return done


def _wait_writable(fd: int) -> None:
    """A non-blocking stdout (a pipe set so by another program) that is full: wait."""
    import select  # noqa: PLC0415 - only ever needed for this rare case

    select.select([], [fd], [])


def _fd_of(stream: object) -> int | None:
    """The descriptor under ``stream``, or None (a test's capture, a closed stdout)."""
    fileno = getattr(stream, "fileno", None)
    if fileno is None:
        return None
    try:
        fd = fileno()
    except (OSError, ValueError):
        return None
    return fd if isinstance(fd, int) else None


@contextlib.contextmanager
def checked_stdout() -> Iterator[None]:
    """``sys.stdout`` replaced by the checked writer while the block runs, and flushed at
    its end (a failure there raises too). Without a file descriptor under stdout (a
    test's capture), nothing is replaced."""
    original = sys.stdout
    fd = _fd_of(original)
    if fd is None or not isinstance(original, io.TextIOWrapper):
        yield
        return
    if type(getattr(original.buffer, "raw", None)).__name__ == "_WindowsConsoleIO":
        # A Windows console takes text (WriteConsoleW), not bytes on its descriptor, and
        # cannot be full: keep it, only with the escaping for what it cannot show.
        errors = original.errors
        original.reconfigure(errors=ESCAPE_ERRORS)
        try:
            yield
            original.flush()
        finally:
            original.reconfigure(errors=errors)
        return
    original.flush()
    raw = CheckedRaw(fd)
    text = io.TextIOWrapper(
        io.BufferedWriter(raw),  # type: ignore[type-var]  # a RawIOBase is what it takes
        encoding=original.encoding,
        errors=ESCAPE_ERRORS,
        line_buffering=original.line_buffering,
    )
    sys.stdout = text
    try:
        yield
        text.flush()
    finally:
        sys.stdout = original
        raw.failed = True  # whatever is left in the buffers is not written again
        with contextlib.suppress(OSError, ValueError, UnwritableFileError):
            text.close()
