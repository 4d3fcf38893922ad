"""Why a dropped or opened path is not a document at all, in one specific sentence.

Runs on the worker before (`file_problem`) and after (`content_problem`) the bounded
read. Anything these let through goes to the strict reader, whose refusals are shown in
a tab (a packet refused at the byte stage is still a packet); what they catch is not
worth a tab: a folder, a device, a FIFO (whose open would block the worker for ever), a
dangling or looping link, a file that cannot be read, an empty, binary or oversized file.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import Final

from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

SNIFF_BYTES: Final = 8192
# Share of the sniffed characters that may be replacement or control characters before a
# file is called binary. A JSON text has none outside strings and few inside; a packet
# with one bad byte is still text, and the reader refuses it with its offset.
BINARY_SHARE: Final = 0.1

_MAGIC: Final = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"\x7fELF", "an executable (ELF)"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"BZh", "bzip2-compressed data"),
)
_UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")
_TEXT_CONTROLS: Final = frozenset("\t\n\r\f\b")


def size_text(size: int) -> str:
    mib = size / (1024 * 1024)
    return f"{size:,} bytes" if mib < 1 else f"{mib:,.1f} MiB ({size:,} bytes)"


def _link_problem(path: str) -> str | None:
    """For a path whose stat failed: what is wrong with it if it is a symbolic link."""
    if not os.path.islink(path):
        return None
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return f"{path} is a symbolic link to {target}, which does not exist (a dangling link)"


def _kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def file_problem(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str | None:
    """Why ``path`` cannot be read as a document, judged from the file system alone."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return _link_problem(path) or f"{path}: no such file"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{path} is a symbolic link that loops back on itself; it leads to no file"
        if exc.errno in (errno.EACCES, errno.EPERM):
            return permission_denied(path)
        if exc.errno == errno.ENOTDIR:
            return f"{path}: no such file (a part of the path is a file, not a folder)"
        if exc.errno == errno.ENAMETOOLONG:
            return "a dropped file name is too long for this system"
        return f"{path}: {exc.strerror or exc}"
    if stat.S_ISDIR(info.st_mode):
        return f"{path} is a folder, not a file; open the files inside it instead"
    if not stat.S_ISREG(info.st_mode):
        return f"{path} is {_kind_of(info.st_mode)}, not a file; only files can be inspected"
    if info.st_size > max_bytes:
        return too_large(path, info.st_size, max_bytes)
    return None


def permission_denied(path: str) -> str:
    return f"{path}: permission denied — this account may not read it"


def too_large(path: str, size: int, max_bytes: int) -> str:
    return (
        f"{path} is {size_text(size)}; the inspector opens files of at most "
        f"{size_text(max_bytes)} (the packet size limit), so it was not read"
    )


def content_problem(path: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> str | None:
    """Why the bytes read from ``path`` are not worth a tab (empty, binary, oversized)."""
    if not data:
        return f"{path} is empty (0 bytes); there is nothing to inspect"
    if len(data) > max_bytes:  # grew since it was checked, or a file that reports no size
        return too_large(path, len(data), max_bytes)
    binary = binary_kind(data[:SNIFF_BYTES])
    if binary is not None:
        return f"{path} is {binary}, not a JSON document"
    return None


def binary_kind(head: bytes) -> str | None:
    """What the first bytes of a file say it is, when that is not text."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    if head.startswith(_UTF16_BOMS):
        return "UTF-16 text (packets must be UTF-8)"
    if b"\x00" in head:
        return "a binary file (it contains NUL bytes)"
    # A cut multi-byte character at the end of the sniffed bytes is not a sign of binary.
    text = head.decode("utf-8", errors="replace") if len(head) < SNIFF_BYTES else _decode_cut(head)
    odd = sum(1 for ch in text if ch == "\ufffd" or (ch < " " and ch not in _TEXT_CONTROLS))
    if text and odd / len(text) > BINARY_SHARE:
        return "a binary file (most of its bytes are not text)"
    return None


def _decode_cut(head: bytes) -> str:
    for cut in range(4):
        try:
            return head[: len(head) - cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
    return head.decode("utf-8", errors="replace")
