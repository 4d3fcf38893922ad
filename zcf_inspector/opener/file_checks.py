"""Why a dropped or opened path is not a document at all, in one specific sentence.

Runs on the worker: `unreadable_message` phrases what the bounded read refused (a folder,
a device, a FIFO, a dangling or looping link, a file that cannot be read or is oversized:
the open and the ``fstat`` of its descriptor decide it, see `core.files`), and
`content_problem` judges the bytes read (empty, binary). Anything these let through goes
to the strict reader, whose refusals are shown in a tab (a packet refused at the byte
stage is still a packet); what they catch is not worth a tab.
"""

from __future__ import annotations

from typing import Final

from zcf_inspector.core.files import Unreadable, UnreadableFileError, shown_path
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
    # (a ZIP archive never gets here: the read opens it as an ASIF package)
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


def unreadable_message(exc: UnreadableFileError, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The window's sentence for a file `read_bounded` refused, by the reason it gave (the
    open and ``fstat`` of the descriptor decided it, never a look at the path before)."""
    path = shown_path(exc.path)
    reason = exc.reason
    if reason is Unreadable.MISSING:
        return f"{path}: no such file"
    if reason is Unreadable.NOT_A_FOLDER:
        return f"{path}: no such file (a part of the path is a file, not a folder)"
    if reason is Unreadable.DANGLING_LINK:
        target = shown_path(exc.target)
        return f"{path} is a symbolic link to {target}, which does not exist (a dangling link)"
    if reason is Unreadable.LINK_LOOP:
        return f"{path} is a symbolic link that loops back on itself; it leads to no file"
    if reason is Unreadable.FOLDER:
        return f"{path} is a folder, not a file; open the files inside it instead"
    if reason is Unreadable.NOT_REGULAR:
        return f"{path} is {exc.kind}, not a file; only files can be inspected"
    if reason is Unreadable.PERMISSION:
        return permission_denied(exc.path)
    if reason is Unreadable.TOO_LARGE:
        return too_large(exc.path, exc.size or 0, max_bytes)
    if reason is Unreadable.NAME_TOO_LONG:
        return "a dropped file name is too long for this system"
    return str(exc)


def permission_denied(path: str) -> str:
    return f"{shown_path(path)}: permission denied — this account may not read it"


def too_large(path: str, size: int, max_bytes: int) -> str:
    return (
        f"{shown_path(path)} is {size_text(size)}; the inspector opens files of at most "
        f"{size_text(max_bytes)} (the packet size limit), so it was not read"
    )


def content_problem(path: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> str | None:
    """Why the bytes read from ``path`` are not worth a tab (empty, binary, oversized)."""
    if not data:
        return f"{shown_path(path)} is empty (0 bytes); there is nothing to inspect"
    if len(data) > max_bytes:  # grew since it was checked, or a file that reports no size
        return too_large(path, len(data), max_bytes)
    binary = binary_kind(data[:SNIFF_BYTES])
    if binary is not None:
        return f"{shown_path(path)} is {binary}, not a JSON document"
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
