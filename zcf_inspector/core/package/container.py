"""The ZIP container of an ASIF package, read from bytes in memory, never extracted.

Why our own reader of the central directory and local headers rather than `zipfile`:
`zipfile.ZipFile` builds a `ZipInfo` for every central-directory record before a caller
can count them (a 272 MiB archive of empty records is six million objects), tolerates
bytes before the first entry and after the last, and reads a member through its own
stream. Here every record is parsed from the archive's bytes with the member cap applied
as they are read, each member's bytes are a slice of the archive bounded by both its
declared sizes and the bytes actually there, the local header must repeat the central
name and method, entries may not overlap one another or the central directory, and the
CRC-32 is checked. Names decode as `zipfile` decodes them (UTF-8 when flag bit 11 is set,
otherwise CP437), so the reference reader and this one see the same names.

ZIP64 is refused: every package within REFERENCE.md's limits fits the 32-bit fields, and
the reference writer (`zipfile` with these sizes) never writes ZIP64 records.

The per-member rules and their order are the reference reader's (`inspect_package`):
portable name, no NUL, no case-fold duplicate, regular file, ZIP_STORED and not
encrypted, the size limits, then the bytes.
"""

from __future__ import annotations

import stat
import struct
import zlib
from dataclasses import dataclass

from zcf_inspector.core.codes import PackageCode
from zcf_inspector.core.continuation.rules.paths import path_problem
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.package.limits import (
    MANIFEST,
    MAX_ARCHIVE,
    MAX_DOCUMENT,
    MAX_MEMBERS,
    MAX_RESOURCE,
    MAX_TOTAL,
    SESSION,
)

_EOCD = struct.Struct("<4s4H2LH")  # signature, disks, entries, cd size, cd offset, comment
_CENTRAL = struct.Struct("<4s6H3L5H2L")
_LOCAL = struct.Struct("<4s5H3L2H")
_EOCD_SIG = b"PK\x05\x06"
_CENTRAL_SIG = b"PK\x01\x02"
_LOCAL_SIG = b"PK\x03\x04"
_ZIP64_LOCATOR_SIG = b"PK\x06\x07"
_MAX_COMMENT = 0xFFFF
_UTF8_FLAG = 0x800
_ENCRYPTED_FLAG = 0x1
_STORED = 0


@dataclass(frozen=True, slots=True)
class Member:
    """One member as the archive holds it: its name and its stored bytes."""

    name: str
    data: bytes
    offset: int  # of its local header in the archive


@dataclass(frozen=True, slots=True)
class Container:
    """The archive's members in archive order, or the first reason it was refused."""

    members: tuple[Member, ...]
    refusal: Finding | None

    def files(self) -> dict[str, bytes]:
        return {m.name: m.data for m in self.members}


def looks_like_package(head: bytes) -> bool:
    """Whether bytes starting with ``head`` are a ZIP archive (a local header, or the end
    record of an empty one): how an opener tells a package from a JSON document by
    content, never by name. It says nothing of validity — `read_container` does."""
    return head.startswith((_LOCAL_SIG, _EOCD_SIG))


def _refuse(
    code: PackageCode, message: str, member: str = "", offset: int | None = None
) -> Finding:
    return Finding(code, Severity.ERROR, "", message, offset=offset, subject=member or None)


def _invalid(message: str, offset: int | None = None, member: str = "") -> Container:
    return Container((), _refuse(PackageCode.CONTAINER_INVALID, message, member, offset))


@dataclass(frozen=True, slots=True)
class _Record:
    name: str
    raw_name: bytes
    flags: int
    method: int
    crc: int
    compressed: int
    size: int
    external: int
    offset: int
    at: int  # where the central record starts


def _end_record(raw: bytes) -> tuple[int, int, int] | Container:
    """(entries, central directory offset, its size), or why the archive is refused."""
    start = max(0, len(raw) - _EOCD.size - _MAX_COMMENT)
    at = raw.rfind(_EOCD_SIG, start)
    if at < 0 or len(raw) - at < _EOCD.size:
        return _invalid("no end of central directory record: not a ZIP archive")
    _sig, disk, cd_disk, here, entries, cd_size, cd_offset, comment = _EOCD.unpack_from(raw, at)
    if at + _EOCD.size + comment != len(raw):
        return _invalid("bytes follow the end of central directory record", at)
    if at >= 20 and raw[at - 20 : at - 16] == _ZIP64_LOCATOR_SIG:
        return _invalid("a ZIP64 archive: a package within its limits needs none", at - 20)
    if 0xFFFF in (here, entries) or 0xFFFFFFFF in (cd_size, cd_offset):
        return _invalid("a ZIP64 archive: a package within its limits needs none", at)
    if disk or cd_disk or here != entries:
        return _invalid("a multi-disk archive", at)
    if cd_offset + cd_size != at:
        return _invalid("the central directory does not end where its end record starts", at)
    return entries, cd_offset, cd_size


def _records(raw: bytes, cd_offset: int, cd_end: int) -> list[_Record] | Container:
    out: list[_Record] = []
    at = cd_offset
    while at < cd_end:
        if len(out) >= MAX_MEMBERS:
            return Container(
                (),
                _refuse(
                    PackageCode.MEMBER_LIMIT,
                    f"more than {MAX_MEMBERS} members (package member limit)",
                    offset=at,
                ),
            )
        if cd_end - at < _CENTRAL.size or raw[at : at + 4] != _CENTRAL_SIG:
            return _invalid("a central directory record is damaged", at)
        fields = _CENTRAL.unpack_from(raw, at)
        flags, method, crc, compressed, size = fields[3], fields[4], fields[7], fields[8], fields[9]
        name_len, extra_len, comment_len, disk = fields[10], fields[11], fields[12], fields[13]
        external, offset = fields[15], fields[16]
        end = at + _CENTRAL.size + name_len + extra_len + comment_len
        if end > cd_end or disk != 0:
            return _invalid("a central directory record runs past the directory", at)
        raw_name = raw[at + _CENTRAL.size : at + _CENTRAL.size + name_len]
        try:
            name = raw_name.decode("utf-8" if flags & _UTF8_FLAG else "cp437")
        except UnicodeDecodeError:
            return Container(
                (),
                _refuse(PackageCode.MEMBER_NAME_UNSAFE, "a member name is not UTF-8", offset=at),
            )
        out.append(
            _Record(name, raw_name, flags, method, crc, compressed, size, external, offset, at)
        )
        at = end
    if at != cd_end:
        return _invalid("the central directory's records do not fill it", at)
    return out


def _check_record(record: _Record, folded: set[str]) -> Finding | None:
    """The reference reader's rules for one member, in its order."""
    name = record.name
    problem = path_problem(name) if name else "the name is empty"
    if problem is None and "\x00" in name:
        problem = "the name holds a NUL character"
    if problem is not None:
        return _refuse(
            PackageCode.MEMBER_NAME_UNSAFE, f"member {name!r}: {problem}", name, record.at
        )
    if name.casefold() in folded:
        return _refuse(
            PackageCode.MEMBER_COLLISION,
            f"member {name!r} is a duplicate, or one name with another case-folded",
            name,
            record.at,
        )
    folded.add(name.casefold())
    kind = stat.S_IFMT(record.external >> 16)
    if kind not in (0, stat.S_IFREG):
        return _refuse(
            PackageCode.MEMBER_NOT_REGULAR,
            f"member {name!r} is not a regular file (mode {record.external >> 16:o})",
            name,
            record.at,
        )
    if record.method != _STORED or record.flags & _ENCRYPTED_FLAG:
        what = (
            "encrypted"
            if record.flags & _ENCRYPTED_FLAG
            else f"compressed (method {record.method})"
        )
        return _refuse(
            PackageCode.MEMBER_ENCODING_UNSUPPORTED,
            f"member {name!r} is {what}; a package holds ZIP_STORED members only",
            name,
            record.at,
        )
    return None


def _member_limit(name: str) -> int:
    return MAX_DOCUMENT if name in (MANIFEST, SESSION) else MAX_RESOURCE


def _member_bytes(raw: bytes, record: _Record) -> tuple[bytes, int] | Finding:
    """The stored bytes of ``record`` and where its entry ends, read from its local header."""
    name, at = record.name, record.offset
    if at + _LOCAL.size > len(raw) or raw[at : at + 4] != _LOCAL_SIG:
        return _refuse(PackageCode.CONTAINER_INVALID, f"member {name!r}: no local header", name, at)
    fields = _LOCAL.unpack_from(raw, at)
    method, name_len, extra_len = fields[3], fields[9], fields[10]
    local_name = raw[at + _LOCAL.size : at + _LOCAL.size + name_len]
    if local_name != record.raw_name or method != record.method:
        return _refuse(
            PackageCode.CONTAINER_INVALID,
            f"member {name!r}: the local header names another member or method",
            name,
            at,
        )
    start = at + _LOCAL.size + name_len + extra_len
    # Bounded by the declared size (checked against the limit before) and by the bytes
    # actually there: a short archive gives fewer, which is a size mismatch, not a read.
    data = raw[start : start + min(record.compressed, record.size)]
    if record.compressed != record.size or len(data) != record.size:
        return _refuse(
            PackageCode.MEMBER_SIZE_MISMATCH,
            f"member {name!r} declares {record.size} bytes; {len(data)} are stored",
            name,
            at,
        )
    if zlib.crc32(data) != record.crc:
        return _refuse(
            PackageCode.CONTAINER_INVALID, f"member {name!r}: its CRC-32 does not match", name, at
        )
    return data, start + len(data)


def read_container(raw: bytes) -> Container:
    """Every member of the archive ``raw`` (see the module for the rules)."""
    if len(raw) > MAX_ARCHIVE:
        return Container(
            (),
            _refuse(
                PackageCode.PACKAGE_TOO_LARGE,
                f"the archive has {len(raw):,} bytes; at most {MAX_ARCHIVE:,} are read",
            ),
        )
    found = _end_record(raw)
    if isinstance(found, Container):
        return found
    _entries, cd_offset, cd_size = found
    records = _records(raw, cd_offset, cd_offset + cd_size)
    if isinstance(records, Container):
        return records
    folded: set[str] = set()
    total = 0
    members: list[Member] = []
    spans: list[tuple[int, int, str]] = []
    for record in records:
        refused = _check_record(record, folded)
        if refused is not None:
            return Container((), refused)
        limit = _member_limit(record.name)
        total += record.size
        if record.size > limit or total > MAX_TOTAL:
            what = f"over its {limit:,}-byte limit" if record.size > limit else ""
            what = what or f"past {MAX_TOTAL:,} bytes of members in all"
            return Container(
                (),
                _refuse(
                    PackageCode.MEMBER_TOO_LARGE,
                    f"member {record.name!r} declares {record.size:,} bytes, {what}",
                    record.name,
                    record.at,
                ),
            )
        read = _member_bytes(raw, record)
        if isinstance(read, Finding):
            return Container((), read)
        data, end = read
        spans.append((record.offset, end, record.name))
        members.append(Member(record.name, data, record.offset))
    overlap = _overlap(spans, cd_offset)
    if overlap is not None:
        return Container((), overlap)
    return Container(tuple(members), None)


def _overlap(spans: list[tuple[int, int, str]], cd_offset: int) -> Finding | None:
    """Entries that share bytes (one member's data read twice, the zip-bomb trick) or
    reach into the central directory."""
    previous_end = 0
    for start, end, name in sorted(spans):
        if start < previous_end or end > cd_offset:
            return _refuse(
                PackageCode.CONTAINER_INVALID,
                f"member {name!r} overlaps another entry or the central directory",
                name,
                start,
            )
        previous_end = end
    return None
