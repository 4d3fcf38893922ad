"""Packages built from the ASIF 0.5 example sessions, and one mutation per container,
inventory and closure rule of TRANSPORT.md, each with the code the reader must give.

Shared by the in-repo tests (tests/core/package/) and the differential oracle
(`scripts/compare_package_reference.py`, which runs the upstream reference reader on the
same bytes). Archives are made with `zipfile` and, where `zipfile` cannot write the fault,
patched in their bytes.
"""

from __future__ import annotations

import hashlib
import io
import json
import stat
import struct
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tests.conftest import DATA
from zcf_inspector.core.codes import PackageCode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.package.writer import build_from_folder, encode_manifest

PACKAGE_DATA = DATA / "asif-0.5-package"
EXAMPLES = PACKAGE_DATA / "examples"
NOW = datetime(2026, 10, 6, tzinfo=UTC)
TEST_SEED = bytes(range(32))  # the public test key of the upstream example (never trusted)
BASE = "tool-generated-files"  # the example with two file resources


def sessions() -> list[Path]:
    return sorted(EXAMPLES.glob("*.session.json"))


def buildable() -> list[Path]:
    """The example sessions whose every file resource is in this copy (image-and-document
    names assets/color-grid.png, which could not be copied: see SOURCE.txt)."""
    out = []
    for path in sessions():
        doc = json.loads(path.read_bytes())
        names = [
            r["path"] for r in doc["resources"] if r["availability"] == "embedded" and "path" in r
        ]
        if all((EXAMPLES / n).is_file() for n in names):
            out.append(path)
    return out


def build(name: str) -> bytes:
    return build_from_folder(EXAMPLES / f"{name}.session.json", now=NOW, max_session=16 << 20)


# --- writing archives with faults ----------------------------------------------------------


@dataclass
class Entry:
    name: str
    data: bytes
    compress: int = zipfile.ZIP_STORED
    mode: int = stat.S_IFREG | 0o600


def members(raw: bytes) -> list[Entry]:
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        return [Entry(i.filename, archive.read(i)) for i in archive.infolist()]


def write(entries: list[Entry]) -> bytes:
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Duplicate name": a case writes one
        for e in entries:
            item = zipfile.ZipInfo(e.name, date_time=(1980, 1, 1, 0, 0, 0))
            item.create_system = 3
            item.external_attr = e.mode << 16
            item.compress_type = e.compress
            archive.writestr(item, e.data)
    return stream.getvalue()


def manifest_of(entries: list[Entry]) -> bytes:
    files: list[JsonValue] = [
        {"path": e.name, "bytes": len(e.data), "sha256": hashlib.sha256(e.data).hexdigest()}
        for e in sorted(entries, key=lambda e: e.name)
        if e.name != "asif-package.json"
    ]
    return encode_manifest({"package_version": "0.1", "session": "session.json", "files": files})


def relist(entries: list[Entry]) -> list[Entry]:
    """The entries with the manifest made again over the others (so only the fault differs)."""
    kept = [e for e in entries if e.name != "asif-package.json"]
    return [*kept, Entry("asif-package.json", manifest_of(kept))]


def _base() -> list[Entry]:
    return members(build(BASE))


def _change(name: str, change: Callable[[Entry], None], *, keep_manifest: bool = True) -> bytes:
    entries = _base()
    for e in entries:
        if e.name == name:
            change(e)
    return write(entries if keep_manifest else relist(entries))


def _add(entry: Entry, *, listed: bool) -> bytes:
    entries = [*_base(), entry]
    return write(relist(entries) if listed else entries)


def _manifest(change: Callable[[dict[str, object]], object]) -> bytes:
    entries = _base()
    for e in entries:
        if e.name == "asif-package.json":
            value = json.loads(e.data)
            change(value)
            e.data = encode_manifest(value)
    return write(entries)


def _session(change: Callable[[dict[str, object]], object]) -> bytes:
    entries = _base()
    for e in entries:
        if e.name == "session.json":
            value = json.loads(e.data)
            change(value)
            e.data = (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()
    return write(relist(entries))


def _drop(name: str, *, relisted: bool) -> bytes:
    entries = [e for e in _base() if e.name != name]
    return write(relist(entries) if relisted else entries)


def _patch_central(raw: bytes, name: str, field_offset: int, fmt: str, value: int) -> bytes:
    """Change one field of ``name``'s central-directory record."""
    data = bytearray(raw)
    at = 0
    while True:
        at = raw.index(b"PK\x01\x02", at)
        name_len = struct.unpack_from("<H", raw, at + 28)[0]
        if raw[at + 46 : at + 46 + name_len] == name.encode():
            struct.pack_into(fmt, data, at + field_offset, value)
            return bytes(data)
        at += 4


def _rename_bytes(raw: bytes, old: str, new: bytes) -> bytes:
    """Replace a member's name in its local header and its central record alike."""
    assert len(new) == len(old.encode())
    data = bytearray(raw)
    at = raw.find(old.encode())
    while at >= 0:
        local = raw[at - 30 : at - 26] == b"PK\x03\x04"
        if local or raw[at - 46 : at - 42] == b"PK\x01\x02":
            data[at : at + len(new)] = new
        at = raw.find(old.encode(), at + 1)
    return bytes(data)


def _overlapping() -> bytes:
    """Two central records, the second's local header inside the first member's bytes: a
    reader that trusts the directory reads those bytes twice."""
    inner = write([Entry("assets/inner.txt", b"x" * 64)])
    local_end = inner.index(b"PK\x01\x02")
    outer_data = b"A" * 10 + inner[:local_end]
    entries = [*_base(), Entry("assets/outer.bin", outer_data)]
    raw = write(relist(entries))
    # Point a new central record at the inner local header: rebuild by hand.
    outer_at = raw.index(b"assets/outer.bin") + len("assets/outer.bin") + 10
    cd = raw.index(b"PK\x01\x02")
    inner_cd_start = inner.index(b"PK\x01\x02")
    inner_eocd = inner.index(b"PK\x05\x06")
    record = bytearray(inner[inner_cd_start:inner_eocd])
    struct.pack_into("<L", record, 42, outer_at)
    eocd = raw.index(b"PK\x05\x06")
    count = struct.unpack_from("<H", raw, eocd + 10)[0]
    new_cd = raw[cd:eocd] + bytes(record)
    tail = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count + 1, count + 1, len(new_cd), cd, 0)
    return raw[:cd] + new_cd + tail


def _many() -> bytes:
    entries = _base() + [Entry(f"assets/n{i}.txt", b"") for i in range(1024)]
    return write(entries)


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[], bytes]
    code: PackageCode | None  # None: accepted
    # Why the reference reader gives another reason, where it deliberately does.
    differs: str = ""


TOTALS = "assets/totals.csv"


def _flip(e: Entry) -> None:
    e.data = bytes([e.data[0] ^ 1]) + e.data[1:]


CASES: list[Case] = [
    Case("valid", lambda: build(BASE), None),
    Case("tampered-member", lambda: _change(TOTALS, _flip), PackageCode.INVENTORY_MISMATCH),
    Case(
        "inventory-length",
        lambda: _manifest(lambda m: m["files"][0].update(bytes=1)),  # type: ignore[index]
        PackageCode.INVENTORY_MISMATCH,
    ),
    Case(
        "inventory-digest-uppercase",
        lambda: _manifest(
            lambda m: m["files"][0].update(sha256=m["files"][0]["sha256"].upper())  # type: ignore[index]
        ),
        PackageCode.INVENTORY_MISMATCH,
    ),
    Case(
        "traversal",
        lambda: _add(Entry("../evil.txt", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "absolute",
        lambda: _add(Entry("/etc/evil", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "backslash",
        lambda: _add(Entry("assets\\evil", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case("colon", lambda: _add(Entry("c:evil", b"x"), listed=True), PackageCode.MEMBER_NAME_UNSAFE),
    Case(
        "control",
        lambda: _add(Entry("assets/e\x01vil", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "device-name",
        lambda: _add(Entry("assets/CON.txt", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "trailing-dot",
        lambda: _add(Entry("assets/evil.", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "trailing-space",
        lambda: _add(Entry("assets/evil ", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "star",
        lambda: _add(Entry("assets/ev*l", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "empty-segment",
        lambda: _add(Entry("assets//evil", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "dot-segment",
        lambda: _add(Entry("assets/./evil", b"x"), listed=True),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "directory-entry",
        lambda: _add(Entry("assets/", b""), listed=False),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "nul-in-name",
        lambda: _rename_bytes(build(BASE), TOTALS, b"assets/tot\x00ls.csv"),
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "symlink",
        lambda: _add(
            Entry("assets/link", b"../../etc/passwd", mode=stat.S_IFLNK | 0o777), listed=True
        ),
        PackageCode.MEMBER_NOT_REGULAR,
    ),
    Case(
        "directory-mode",
        lambda: _add(Entry("assets/dir", b"", mode=stat.S_IFDIR | 0o700), listed=True),
        PackageCode.MEMBER_NOT_REGULAR,
    ),
    Case(
        "compressed",
        lambda: _change(TOTALS, lambda e: setattr(e, "compress", zipfile.ZIP_DEFLATED)),
        PackageCode.MEMBER_ENCODING_UNSUPPORTED,
    ),
    Case(
        "encrypted-flag",
        lambda: _patch_central(build(BASE), TOTALS, 8, "<H", 1),
        PackageCode.MEMBER_ENCODING_UNSUPPORTED,
    ),
    Case(
        "duplicate",
        lambda: _add(Entry(TOTALS, b"a,b\n"), listed=False),
        PackageCode.MEMBER_COLLISION,
    ),
    Case(
        "case-fold",
        lambda: _add(Entry("assets/TOTALS.csv", b"a,b\n"), listed=True),
        PackageCode.MEMBER_COLLISION,
    ),
    Case(
        "file-folder-prefix",
        lambda: _add(Entry("assets/totals.csv/inner", b"x"), listed=True),
        PackageCode.MEMBER_COLLISION,
    ),
    Case("no-session", lambda: _drop("session.json", relisted=True), PackageCode.METADATA_MISSING),
    Case(
        "no-manifest",
        lambda: _drop("asif-package.json", relisted=False),
        PackageCode.METADATA_MISSING,
    ),
    Case(
        "unlisted",
        lambda: _add(Entry("assets/extra.txt", b"x"), listed=False),
        PackageCode.MEMBER_UNLISTED,
    ),
    Case(
        "unrelated",
        lambda: _add(Entry("assets/extra.txt", b"x"), listed=True),
        PackageCode.MEMBER_UNRELATED,
    ),
    Case(
        "inventoried-member-missing",
        lambda: _drop(TOTALS, relisted=False),
        PackageCode.INVENTORY_MEMBER_MISSING,
    ),
    Case("resource-missing", lambda: _drop(TOTALS, relisted=True), PackageCode.RESOURCE_MISSING),
    Case(
        "resource-integrity",
        lambda: _change(TOTALS, _flip, keep_manifest=False),
        PackageCode.RESOURCE_MISMATCH,
    ),
    Case(
        "resource-path-reserved",
        lambda: _session(lambda d: d["resources"][1].update(path="asif-package.json")),  # type: ignore[index]
        PackageCode.RESOURCE_PATH_RESERVED,
    ),
    Case(
        "manifest-version",
        lambda: _manifest(lambda m: m.update(package_version="0.2")),
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-session-name",
        lambda: _manifest(lambda m: m.update(session="other.json")),
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-files-object",
        lambda: _manifest(lambda m: m.update(files={})),
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-record-incomplete",
        lambda: _manifest(lambda m: m["files"][0].pop("sha256")),  # type: ignore[index]
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-record-twice",
        lambda: _manifest(lambda m: m["files"].append(m["files"][0])),  # type: ignore[index, attr-defined]
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-lists-itself",
        lambda: _manifest(
            lambda m: m["files"].append({"path": "asif-package.json", "bytes": 0, "sha256": ""})  # type: ignore[attr-defined]
        ),
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-not-json",
        lambda: _change("asif-package.json", lambda e: setattr(e, "data", b"{")),
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-duplicate-key",
        lambda: _change(
            "asif-package.json",
            lambda e: setattr(e, "data", e.data[:-2] + b',"session":"session.json"}\n'),
        ),
        PackageCode.MANIFEST_INVALID,
    ),
    Case(
        "manifest-unsafe-record-path",
        lambda: _manifest(lambda m: m["files"][0].update(path="../x")),  # type: ignore[index]
        PackageCode.MEMBER_NAME_UNSAFE,
    ),
    Case(
        "session-not-json",
        lambda: write(
            relist([*(e for e in _base() if e.name != "session.json"), Entry("session.json", b"[")])
        ),
        PackageCode.SESSION_INVALID,
    ),
    Case(
        "session-schema",
        lambda: _session(lambda d: d.pop("events")),
        PackageCode.SESSION_INVALID,
    ),
    Case(
        "member-over-limit",
        lambda: _patch_central(build(BASE), TOTALS, 24, "<L", 65 << 20),
        PackageCode.MEMBER_TOO_LARGE,
    ),
    Case(
        "session-over-limit",
        lambda: _patch_central(build(BASE), "session.json", 24, "<L", 17 << 20),
        PackageCode.MEMBER_TOO_LARGE,
    ),
    Case(
        "size-mismatch",
        lambda: _patch_central(build(BASE), TOTALS, 24, "<L", 37),
        PackageCode.MEMBER_SIZE_MISMATCH,
    ),
    Case(
        "overlapping",
        _overlapping,
        PackageCode.CONTAINER_INVALID,
        "the reference (zipfile on Python 3.11.7) reads the overlapping member's bytes a "
        "second time and only then refuses it as unlisted; the overlap itself is refused here",
    ),
    Case("member-limit", _many, PackageCode.MEMBER_LIMIT),
    Case("not-a-zip", lambda: b"PK\x03\x04 not really", PackageCode.CONTAINER_INVALID),
    Case("truncated", lambda: build(BASE)[:-30], PackageCode.CONTAINER_INVALID),
    Case(
        "bad-crc",
        lambda: _patch_central(build(BASE), TOTALS, 16, "<L", 0),
        PackageCode.CONTAINER_INVALID,
    ),
]
