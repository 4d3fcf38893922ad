"""The manifest's inventory against the members, and the session's resource closure.

The reference reader stops at its first problem; here every member and record gets a
status (the inventory pane lists them all) and every problem a finding, emitted in the
reference's order, so the first error is the reason the reference gives.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from zcf_inspector.core.codes import PackageCode
from zcf_inspector.core.continuation.rules.paths import path_problem
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.jsontypes import JsonObject, JsonValue
from zcf_inspector.core.package.limits import MANIFEST, PACKAGE_VERSION, RESERVED, SESSION
from zcf_inspector.core.package.results import (
    ClosureEntry,
    ClosureState,
    InventoryEntry,
    MemberStatus,
)
from zcf_inspector.core.reading import ReadError, read_json


def problem(code: PackageCode, member: str, pointer: str, message: str) -> Finding:
    return Finding(code, Severity.ERROR, pointer, message, subject=member)


@dataclass(slots=True)
class Inventory:
    findings: list[Finding] = field(default_factory=list)
    entries: list[InventoryEntry] = field(default_factory=list)
    listed: set[str] = field(default_factory=set)


def read_member_json(data: bytes, member: str, code: PackageCode) -> JsonValue | Finding:
    """A JSON member read by the strict reader (exact numbers, duplicate keys refused)."""
    try:
        return read_json(data, exact=True)
    except ReadError as exc:
        return problem(code, member, exc.pointer or "", f"{member} is not JSON: {exc.message}")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _manifest_records(manifest: JsonValue, inv: Inventory) -> list[JsonValue] | None:
    if (
        not isinstance(manifest, dict)
        or manifest.get("package_version") != PACKAGE_VERSION
        or manifest.get("session") != SESSION
    ):
        inv.findings.append(
            problem(
                PackageCode.MANIFEST_INVALID,
                MANIFEST,
                "",
                f"not a package {PACKAGE_VERSION} manifest whose session is {SESSION}",
            )
        )
        return None
    records = manifest.get("files")
    if not isinstance(records, list):
        inv.findings.append(
            problem(PackageCode.MANIFEST_INVALID, MANIFEST, "/files", "files is not an array")
        )
        return None
    return records


def check_inventory(manifest: JsonValue, files: Mapping[str, bytes]) -> Inventory:
    """Each inventory record against the member it names, then the members none names."""
    inv = Inventory()
    records = _manifest_records(manifest, inv)
    if records is None:
        return inv
    for i, item in enumerate(records):
        where = f"/files/{i}"
        if not isinstance(item, dict) or not {"path", "bytes", "sha256"} <= item.keys():
            inv.findings.append(
                problem(
                    PackageCode.MANIFEST_INVALID,
                    MANIFEST,
                    where,
                    "an inventory record needs path, bytes and sha256",
                )
            )
            continue
        _record(item, where, files, inv)
    for name, data in files.items():
        if name != MANIFEST and name not in inv.listed:
            inv.entries.append(
                InventoryEntry(name, MemberStatus.UNLISTED, len(data), _digest(data))
            )
            inv.findings.append(
                problem(
                    PackageCode.MEMBER_UNLISTED,
                    name,
                    "",
                    f"member {name!r} is not in the inventory",
                )
            )
    return inv


def _record(item: JsonObject, where: str, files: Mapping[str, bytes], inv: Inventory) -> None:
    name = item["path"]
    unsafe = path_problem(name) if isinstance(name, str) and name else "not a non-empty string"
    if not isinstance(name, str) or unsafe is not None:
        inv.findings.append(
            problem(PackageCode.MEMBER_NAME_UNSAFE, MANIFEST, where + "/path", f"path: {unsafe}")
        )
        return
    if name == MANIFEST or name in inv.listed:
        inv.findings.append(
            problem(
                PackageCode.MANIFEST_INVALID,
                MANIFEST,
                where + "/path",
                f"{name!r} is listed twice, or is the manifest itself",
            )
        )
        return
    inv.listed.add(name)
    listed = item["bytes"]
    listed_bytes = listed if isinstance(listed, int) and not isinstance(listed, bool) else None
    listed_sha = item["sha256"] if isinstance(item["sha256"], str) else None
    if name not in files:
        inv.entries.append(
            InventoryEntry(name, MemberStatus.MISSING, None, None, listed_bytes, listed_sha, where)
        )
        inv.findings.append(
            problem(
                PackageCode.INVENTORY_MEMBER_MISSING,
                name,
                where,
                f"the inventory lists {name!r}; the archive does not hold it",
            )
        )
        return
    data = files[name]
    digest = _digest(data)
    entry = InventoryEntry(
        name, MemberStatus.MATCHES, len(data), digest, listed_bytes, listed_sha, where
    )
    if listed_bytes != len(data):
        message = f"{name!r} has {len(data)} bytes; its record says {listed!r}"
        inv.findings.append(
            problem(PackageCode.INVENTORY_MISMATCH, name, where + "/bytes", message)
        )
        entry = _differs(entry)
    elif item["sha256"] != digest:
        message = f"{name!r} hashes to {digest}; its record says {item['sha256']!r}"
        inv.findings.append(
            problem(PackageCode.INVENTORY_MISMATCH, name, where + "/sha256", message)
        )
        entry = _differs(entry)
    inv.entries.append(entry)


def _differs(entry: InventoryEntry) -> InventoryEntry:
    return InventoryEntry(
        entry.path,
        MemberStatus.DIFFERS,
        entry.bytes,
        entry.sha256,
        entry.listed_bytes,
        entry.listed_sha256,
        entry.pointer,
    )


def prefix_collisions(names: list[str]) -> list[Finding]:
    """A member that is also another's folder (``a`` and ``a/b``), found in one sorted
    pass: a name's descendants sort right after it, separated only by names that start
    with the same characters and a byte below ``/``."""
    out: list[Finding] = []
    ordered = sorted(names)
    for i, name in enumerate(ordered):
        prefix = name + "/"
        for other in ordered[i + 1 :]:
            if other.startswith(prefix):
                out.append(
                    problem(
                        PackageCode.MEMBER_COLLISION,
                        other,
                        "",
                        f"{name!r} is a file and the folder of {other!r}",
                    )
                )
                break
            if not other.startswith(name):
                break
    return out


def check_closure(
    session: JsonObject, files: Mapping[str, bytes]
) -> tuple[list[Finding], list[ClosureEntry], set[str]]:
    """Every embedded file resource of the (schema-valid) session has its member, with its
    bytes; then no member beyond them, session.json and the manifest (the unrelated
    members' names are returned too)."""
    findings: list[Finding] = []
    entries: list[ClosureEntry] = []
    unrelated: set[str] = set()
    expected = set(RESERVED)
    for i, item in enumerate(cast(list[JsonValue], session["resources"])):
        resource = cast(JsonObject, item)
        if resource.get("availability") != "embedded" or "path" not in resource:
            continue
        ident, name, where = (
            cast(str, resource["id"]),
            cast(str, resource["path"]),
            f"/resources/{i}",
        )
        state, code, message = _closure_state(resource, name, files)
        entries.append(ClosureEntry(ident, name, state, where))
        if code is not None:
            findings.append(problem(code, SESSION, where + "/path", message))
        if state is not ClosureState.PRESENT:
            break  # the reference stops here; the rest of the closure is not known to hold
        expected.add(name)
    else:
        for name, data in files.items():
            if name not in expected:
                unrelated.add(name)
                findings.append(
                    problem(
                        PackageCode.MEMBER_UNRELATED,
                        name,
                        "",
                        f"member {name!r} ({len(data)} bytes) is no embedded resource of the "
                        "session",
                    )
                )
    return findings, entries, unrelated


def _closure_state(
    resource: JsonObject, name: str, files: Mapping[str, bytes]
) -> tuple[ClosureState, PackageCode | None, str]:
    unsafe = path_problem(name) if name else "the path is empty"
    if unsafe is not None:
        return ClosureState.UNSAFE, PackageCode.MEMBER_NAME_UNSAFE, f"{name!r}: {unsafe}"
    if name in RESERVED:
        return ClosureState.RESERVED, PackageCode.RESOURCE_PATH_RESERVED, f"{name!r} is reserved"
    if name not in files:
        return (
            ClosureState.MISSING,
            PackageCode.RESOURCE_MISSING,
            f"resource {resource['id']!r} is the file {name!r}; the package lacks it",
        )
    data = files[name]
    if len(data) != resource["bytes"] or _digest(data) != resource["sha256"]:
        return (
            ClosureState.MISMATCH,
            PackageCode.RESOURCE_MISMATCH,
            f"member {name!r} ({len(data)} bytes, SHA-256 {_digest(data)}) is not resource "
            f"{resource['id']!r} ({resource['bytes']} bytes, SHA-256 {resource['sha256']})",
        )
    return ClosureState.PRESENT, None, ""
