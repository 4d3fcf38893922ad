"""`inspect_package`: an `.asif.zip`'s bytes in, a `PackageResult` out (never raises on
content).

In the reference reader's order: the container (`container.py`), `session.json` and
`asif-package.json` present, the manifest and its inventory (`inventory.py`), no member
that is another's folder, the session's schema and its resource closure. Then what the
reference leaves to its writer: the session checked by the core rules of ASIF
(`core.continuation`, with the members as the files its `path` resources name). Then, when
given, the detached signature over the manifest's exact bytes (`signature.py`).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import cast

from zcf_inspector.core.codes import PackageCode, PlanCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import FINDINGS_LIMIT, Finding, FindingBudget, Severity
from zcf_inspector.core.jsontypes import JsonObject
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.package.container import read_container
from zcf_inspector.core.package.inventory import (
    check_closure,
    check_inventory,
    prefix_collisions,
    problem,
    read_member_json,
)
from zcf_inspector.core.package.limits import MANIFEST, SESSION
from zcf_inspector.core.package.results import (
    ClosureEntry,
    InventoryEntry,
    MemberStatus,
    PackageResult,
    SignatureResult,
)
from zcf_inspector.core.package.signature import check_signature

# The session's findings that mean it is not an ASIF session the schema accepts (the
# reference reader's SCHEMA.validate); any other error is a core rule it leaves unchecked.
_NOT_A_SESSION = frozenset(
    {
        PlanCode.DOCUMENT_REFUSED,
        PlanCode.UNRECOGNISED_DOCUMENT,
        PlanCode.UNSUPPORTED_VERSION,
        PlanCode.VERSION_MIXED,
        PlanCode.SCHEMA_VIOLATION,
        PlanCode.PROFILE_ACTIVATION_MISMATCH,
    }
)


def _first_error(result: InspectionResult) -> Finding | None:
    return next((f for f in result.all_findings() if f.severity is Severity.ERROR), None)


def inspect_package(
    raw: bytes,
    *,
    now: datetime,
    signature: bytes | None = None,
    trusted_key: bytes | None = None,
    monitor: Monitor = NULL_MONITOR,
) -> PackageResult:
    """Check the package ``raw`` (and ``signature``, its detached signature file, under
    ``trusted_key``, the caller's 32-byte Ed25519 public key) at the clock ``now``."""
    archive_sha = hashlib.sha256(raw).hexdigest()
    container = read_container(raw)
    if container.refusal is not None:
        return PackageResult((container.refusal,), (), (), None, None, archive_sha, None, 0)
    files = container.files()
    count = len(container.members)
    manifest = files.get(MANIFEST)
    manifest_sha = None if manifest is None else hashlib.sha256(manifest).hexdigest()
    if manifest is None or SESSION not in files:
        missing = MANIFEST if manifest is None else SESSION
        refusal = problem(PackageCode.METADATA_MISSING, missing, "", f"no {missing} member")
        return PackageResult((refusal,), (), (), None, None, archive_sha, manifest_sha, count)
    monitor.breathe()
    findings = FindingBudget(FINDINGS_LIMIT)  # a 16 MiB manifest may list 400,000 records
    inventory: list[InventoryEntry] = []
    parsed = read_member_json(manifest, MANIFEST, PackageCode.MANIFEST_INVALID)
    if isinstance(parsed, Finding):
        findings.append(parsed)
    else:
        checked = check_inventory(parsed, files)
        findings += checked.findings
        inventory = checked.entries
    findings += prefix_collisions(list(files))
    monitor.breathe()
    session = inspect_continuation(
        files[SESSION],
        now=now,
        monitor=monitor,
        files={n: d for n, d in files.items() if n != MANIFEST},
    )
    closure: list[ClosureEntry] = []
    unrelated: set[str] = set()
    first = _first_error(session)
    if session.kind is not DocumentKind.ASIF_SESSION or (
        first is not None and first.code in _NOT_A_SESSION
    ):
        why = f"{first.code}: {first.message}" if first else "not an ASIF session"
        findings.append(
            problem(PackageCode.SESSION_INVALID, SESSION, first.pointer if first else "", why)
        )
    else:
        value = cast(
            JsonObject, read_member_json(files[SESSION], SESSION, PackageCode.SESSION_INVALID)
        )
        found, closure, unrelated = check_closure(value, files)
        findings += found
        if first is not None:
            findings.append(
                problem(
                    PackageCode.SESSION_REFUSED,
                    SESSION,
                    first.pointer,
                    f"the session breaks a core rule: {first.code}: {first.message}",
                )
            )
    inventory = [_unrelated(e) if e.path in unrelated else e for e in inventory]
    signed: SignatureResult | None = None
    if signature is not None:
        signed = check_signature(signature, manifest, trusted_key)
    return PackageResult(
        tuple(findings),
        tuple(inventory),
        tuple(closure),
        session,
        signed,
        archive_sha,
        manifest_sha,
        count,
        findings.omitted(),
    )


def _unrelated(entry: InventoryEntry) -> InventoryEntry:
    if entry.status is not MemberStatus.MATCHES:
        return entry
    return InventoryEntry(
        entry.path,
        MemberStatus.UNRELATED,
        entry.bytes,
        entry.sha256,
        entry.listed_bytes,
        entry.listed_sha256,
        entry.pointer,
    )


def manifest_bytes(raw: bytes) -> bytes:
    """The exact bytes of the manifest member of an archive its reader accepts."""
    container = read_container(raw)
    manifest = container.files().get(MANIFEST)
    if container.refusal is not None or manifest is None:
        raise ValueError("the archive has no readable manifest")
    return manifest
