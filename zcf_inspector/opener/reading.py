"""The one read of a file an open checks: bounded, non-blocking, then one strict parse.

An ASIF package (`.asif.zip`) is recognised here by content, never by name
(`opener.package.is_package`), and becomes a `PackageRead`: its checks read the archive
themselves. Files that are not documents at all (folders, devices, FIFOs, dangling or looping links,
unreadable, empty, binary or oversized files) become an `UnreadableDocument` with one
plain message (`file_checks`); everything else is read strictly once, in the mode its
kind needs (`strict_read`), and the parse is counted (`FileRead.parses`), so that a test
can hold the opener to "read and parsed once".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadDocument, ReadError, read_document
from zcf_inspector.opener.documents import UnreadableDocument
from zcf_inspector.opener.file_checks import content_problem, unreadable_message
from zcf_inspector.opener.package import is_package
from zcf_inspector.present.recognise import CONTINUATION_KINDS, recognise


@dataclass(frozen=True, slots=True)
class FileRead:
    path: str
    data: bytes
    read: ReadDocument | ReadError  # the one strict read of the file
    parses: int = 1  # strict parses the read took (2 only when the exact mode was needed)

    @property
    def value(self) -> JsonValue | None:  # None when refused at the byte stage
        return self.read.value if isinstance(self.read, ReadDocument) else None


@dataclass(frozen=True, slots=True)
class PackageRead:
    """A ZIP archive read: an ASIF package, checked by `opener.package.open_package`."""

    path: str
    data: bytes


def _continuation(value: JsonValue | None) -> bool:
    return recognise(value) in CONTINUATION_KINDS


def strict_read(data: bytes, max_bytes: int) -> tuple[ReadDocument | ReadError, int]:
    """The one strict read of a file, in the mode its kind needs, and the parses it took.

    ZCF packets and receipts are read under the profile's ±2^53 rule, continuation
    documents with exact numbers (as `inspect_continuation` reads them). The kind is known
    only once the bytes are read, so they are read under the profile's rule first (a
    packet, the common case, is read once) and again exactly only when that can change
    what is checked: a continuation document holding a number that is not a plain int
    literal within ±2^53 (27.999999999999999999 read as a double is 28), or bytes refused
    only for a number out of range (the exact mode has no such rule, ASIF no such bound).
    """
    try:
        read = read_document(data, max_bytes=max_bytes)
    except ReadError as refused:
        if refused.code is not ErrorCode.NUMBER_OUT_OF_RANGE:
            return refused, 1  # the exact mode refuses such bytes too
        try:
            exact = read_document(data, max_bytes=max_bytes, exact=True)
        except (ReadError, ArithmeticError):
            # ArithmeticError: the exact reader's Decimal gives up on a literal such as
            # 0.4e0066999…9 (decimal.InvalidOperation) instead of refusing it; the
            # profile's refusal of the number stands, as it would for a packet.
            return refused, 2
        return (exact if _continuation(exact.value) else refused), 2
    if (read.has_fractions or read.decimal_literals) and _continuation(read.value):
        return read_document(data, max_bytes=max_bytes, exact=True), 2  # accepted again
    return read, 1


def read_file(
    path: str,
    held: bytes | None,
    max_bytes: int,
    step: Callable[[str, float], None],
    *,
    sniff: bool = True,
) -> FileRead | PackageRead | UnreadableDocument:
    """The one read of a file an open checks: bounded and non-blocking (a FIFO never
        blocks the worker), ``held`` bytes instead when given, then one strict read. ``step``
        reports progress. With ``sniff`` (the window) a file that is empty, binary or larger
        than ``max_bytes`` is no document and gets no tab; without it (the CLI, whose exit
        codes scripts rely on) such bytes go to the strict reader, which refuses them with
        their code (``invalid_json``, ``packet_too_large``…). A ZIP archive is a package,
    sniffed or not."""
    name = Path(path).name
    step(f"reading {name}", 0.0)
    try:
        data = held if held is not None else read_bounded(path, max_bytes, refuse_larger=sniff)
    except UnreadableFileError as exc:
        message = unreadable_message(exc, max_bytes) if sniff else str(exc)
        return UnreadableDocument(path, message, exc)
    if is_package(data):  # an .asif.zip: `open_package` checks it
        return PackageRead(path, data)
    problem = content_problem(path, data, max_bytes) if sniff else None
    if problem is not None:
        return UnreadableDocument(path, problem)
    step(f"parsing {name}", 0.05)
    read, parses = strict_read(data, max_bytes)
    return FileRead(path, data, read, parses)
