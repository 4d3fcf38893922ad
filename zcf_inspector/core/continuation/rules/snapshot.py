"""The destination capability snapshot an ASIF 0.5 report binds (CAPABILITIES.md, steps 1-4).

The snapshot is evidence only as its exact bytes: they are decoded from strict canonical
padded base64, counted and hashed before anything reads them as JSON, and never
canonicalised or re-serialised (whitespace, key order and escapes are part of the digest).
Then the bytes must be one strict UTF-8 JSON object (no BOM, no duplicate member) of
`snapshot_version` "0.1" that keeps `#/$defs/capability_snapshot`, of the report's
destination, runtime and evaluation mode, observed and expiring around the assessment,
and cited by evidence of the same producer, instant and kind.

Findings about the inside of the snapshot point at the report member that carries it
(`/destination/capabilities_snapshot/data`); the message names the snapshot member.
The binding table (rules/snapshot_bindings.py) and the comparison with the caller's
current bytes (rules/snapshot_current.py) run on what this module verified.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import ValidationError

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.json_values import json_key
from zcf_inspector.core.continuation.models.schema_check import check_schema
from zcf_inspector.core.continuation.models.snapshot import CapabilitySnapshot
from zcf_inspector.core.continuation.models.v0_5 import (
    MAX_SNAPSHOT_BYTES,
    SNAPSHOT_FORMAT,
    DestinationReport03,
)
from zcf_inspector.core.continuation.results import SnapshotComponent, SnapshotState
from zcf_inspector.core.continuation.rules.report_subjects import as_json
from zcf_inspector.core.continuation.timestamps import (
    TimestampError,
    parse_datetime,
    parse_snapshot_time,
)
from zcf_inspector.core.findings import Finding, FindingBudget, error
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadError, read_json

EVIDENCE = "/destination/capabilities_snapshot"
DATA = EVIDENCE + "/data"
SNAPSHOT_VERSION = "0.1"
# The longest canonical base64 text of at most MAX_SNAPSHOT_BYTES bytes: longer is refused
# before it is decoded.
MAX_DATA_CHARS = 4 * ((MAX_SNAPSHOT_BYTES + 2) // 3)
UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(slots=True)
class Verified:
    """What the byte and object checks established (``value`` None: not readable)."""

    state: SnapshotState
    raw: bytes | None = None
    digest: str | None = None
    value: dict[str, JsonValue] | None = None
    components: dict[str, SnapshotComponent] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def add(self, code: PlanCode, where: str, message: str) -> None:
        self.findings.append(error(code, where, message))


def snapshot_bytes(report: DestinationReport03, out: Verified) -> bytes | None:
    """Steps 1 and 2: the supported format, supplied evidence and the exact decoded bytes."""
    evidence = report.destination.capabilities_snapshot
    if evidence.format != SNAPSHOT_FORMAT:
        out.state = SnapshotState.UNAVAILABLE
        out.add(
            PlanCode.SNAPSHOT_FORMAT_UNSUPPORTED,
            EVIDENCE + "/format",
            f"snapshot format {evidence.format!r} is not supported (only {SNAPSHOT_FORMAT!r}): "
            "the report cannot be verified or reused",
        )
        return None
    if evidence.availability != "supplied" or evidence.data is None:
        out.state = SnapshotState.UNAVAILABLE
        why = f" ({evidence.explanation})" if evidence.explanation else ""
        out.add(
            PlanCode.SNAPSHOT_UNAVAILABLE,
            EVIDENCE + "/availability",
            f"the report supplies no snapshot bytes{why}: the destination state it was "
            "assessed against cannot be verified, whatever its outcome says",
        )
        return None
    data = evidence.data
    if len(data) > MAX_DATA_CHARS:
        out.add(
            PlanCode.SNAPSHOT_TOO_LARGE,
            DATA,
            f"the snapshot data has {len(data):,} base64 characters; {MAX_SNAPSHOT_BYTES:,} "
            f"bytes take at most {MAX_DATA_CHARS:,}",
        )
        return None
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as exc:
        out.add(
            PlanCode.SNAPSHOT_ENCODING_INVALID,
            DATA,
            f"the snapshot data is not strict padded base64 ({exc})",
        )
        return None
    canonical = base64.b64encode(raw).decode("ascii")
    if canonical != data:
        out.add(
            PlanCode.SNAPSHOT_ENCODING_INVALID,
            DATA,
            f"the snapshot data is not the canonical base64 of its bytes: it spells "
            f"{_cut(data)!r}, the canonical encoding is {_cut(canonical)!r}",
        )
        return None
    declared = evidence.bytes
    if not 0 < len(raw) <= MAX_SNAPSHOT_BYTES:
        out.add(
            PlanCode.SNAPSHOT_TOO_LARGE,
            DATA,
            f"the snapshot decodes to {len(raw):,} bytes; this format allows 1 to "
            f"{MAX_SNAPSHOT_BYTES:,}",
        )
        return None
    if declared != len(raw):
        out.add(
            PlanCode.SNAPSHOT_BYTE_COUNT_MISMATCH,
            EVIDENCE + "/bytes",
            f"the report declares {declared} bytes; the data decodes to {len(raw)}",
        )
        return None
    digest = hashlib.sha256(raw).hexdigest()
    out.digest = digest
    if digest != report.destination.capabilities_sha256:
        out.add(
            PlanCode.SNAPSHOT_DIGEST_MISMATCH,
            "/destination/capabilities_sha256",
            f"the report binds capabilities_sha256 {report.destination.capabilities_sha256}; "
            f"the supplied snapshot bytes hash to {digest}",
        )
        return None
    out.raw = raw
    return raw


def _cut(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def read_snapshot(raw: bytes, where: str = DATA) -> tuple[dict[str, JsonValue] | None, str]:
    """Step 3: ``raw`` as one strict UTF-8 JSON object, or None and why not."""
    if raw.startswith(UTF8_BOM):
        return None, "the snapshot bytes start with a UTF-8 byte-order mark"
    try:
        value = read_json(raw, max_bytes=MAX_SNAPSHOT_BYTES)
    except ReadError as exc:
        at = f" at byte {exc.offset}" if exc.offset is not None else ""
        return None, f"the strict JSON reader refused the snapshot{at} ({exc.code}): {exc.message}"
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else "not an object"
        return None, f"the snapshot is {kind}; it must be a JSON object"
    return value, ""


def check_object(report: DestinationReport03, out: Verified, now: datetime) -> None:
    """Steps 3 and 4 on the verified bytes in ``out.raw``."""
    assert out.raw is not None
    value, why = read_snapshot(out.raw)
    if value is None:
        out.add(PlanCode.SNAPSHOT_JSON_INVALID, DATA, why)
        return
    version = value.get("snapshot_version")
    if not isinstance(version, str):
        shown = "missing" if "snapshot_version" not in value else f"{version!r}, not a string"
        out.add(
            PlanCode.SNAPSHOT_VERSION_INVALID,
            DATA,
            f"snapshot /snapshot_version is {shown}; the contract requires the string "
            f"{SNAPSHOT_VERSION!r}",
        )
        return
    if version != SNAPSHOT_VERSION:
        out.state = SnapshotState.UNAVAILABLE
        out.add(
            PlanCode.SNAPSHOT_VERSION_UNSUPPORTED,
            DATA,
            f"snapshot_version {version!r} is not supported (only {SNAPSHOT_VERSION!r}): the "
            "report cannot be verified or reused",
        )
        return
    if not _keeps_schema(value, out):
        return
    out.value = value
    _components(value, out)
    _destination(report, value, out)
    _times(report, value, out, now)
    _evidence(report, value, out)


def _keeps_schema(value: dict[str, JsonValue], out: Verified) -> bool:
    """Whether ``value`` keeps `#/$defs/capability_snapshot` (the models first: fast)."""
    try:
        CapabilitySnapshot.model_validate(value)
    except ValidationError:
        pass  # the schema decides, and says where
    else:
        return True
    budget = FindingBudget()
    if not check_schema(
        "continuation-report", value, budget, folder="asif-0.5", definition="capability_snapshot"
    ):
        for found in budget.kept:
            out.add(
                PlanCode.SNAPSHOT_SCHEMA_VIOLATION,
                DATA,
                f"snapshot {found.pointer or '/'}: {found.message}",
            )
        if budget.total > len(budget.kept):
            out.add(
                PlanCode.SNAPSHOT_SCHEMA_VIOLATION,
                DATA,
                f"{budget.total - len(budget.kept):,} more places break the snapshot schema",
            )
        return False
    return True


def _components(value: dict[str, JsonValue], out: Verified) -> None:
    listed = value["components"]
    assert isinstance(listed, list)
    for i, item in enumerate(listed):
        assert isinstance(item, dict)
        ident = str(item["id"])
        if ident in out.components:
            out.add(
                PlanCode.SNAPSHOT_COMPONENT_DUPLICATE,
                DATA,
                f"snapshot /components/{i}: component ID {ident!r} is already used at "
                f"{out.components[ident].pointer}",
            )
            continue
        out.components[ident] = SnapshotComponent(
            id=ident,
            kind=str(item["kind"]),
            status=str(item["status"]),
            revision=str(item["revision"]),
            pointer=f"/components/{i}",
            value=item,
        )


def first_difference(a: JsonValue, b: JsonValue, at: str = "") -> str | None:
    """The pointer of the first place where two JSON values differ (true is not 1)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{at}/{key}"
            found = first_difference(a[key], b[key], f"{at}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{at}/{i}")
            if found is not None:
                return found
        return None
    return None if json_key(a) == json_key(b) else (at or "/")


def _destination(report: DestinationReport03, value: dict[str, JsonValue], out: Verified) -> None:
    destination = report.destination
    if value["destination_id"] != destination.id:
        out.add(
            PlanCode.SNAPSHOT_DESTINATION_MISMATCH,
            "/destination/id",
            f"the report's destination is {destination.id!r}; the snapshot is of "
            f"{value['destination_id']!r}",
        )
    runtime = as_json(destination.runtime)
    where = first_difference(runtime, value["runtime"])
    if where is not None:
        out.add(
            PlanCode.SNAPSHOT_RUNTIME_MISMATCH,
            "/destination/runtime" + ("" if where == "/" else where),
            f"runtime{'' if where == '/' else where}: the report declares "
            f"{_shown(runtime, where)}, the snapshot {_shown(value['runtime'], where)}",
        )
    if value["evaluation_mode"] != report.evaluation_mode:
        out.add(
            PlanCode.SNAPSHOT_MODE_MISMATCH,
            "/evaluation_mode",
            f"the report is {report.evaluation_mode}; the snapshot's evaluation_mode is "
            f"{value['evaluation_mode']!r} (a synthetic snapshot cannot justify observed "
            "execution)",
        )


def _shown(value: JsonValue, where: str) -> str:
    """The member of ``value`` at ``where`` as JSON-ish text, or "nothing" when absent."""
    current: JsonValue = value
    for token in [t for t in where.split("/") if t]:
        if isinstance(current, dict) and token in current:
            current = current[token]
        elif isinstance(current, list) and token.isdigit() and int(token) < len(current):
            current = current[int(token)]
        else:
            return "nothing"
    if isinstance(current, bool):
        return "true" if current else "false"
    if isinstance(current, dict | list):
        return "an object" if isinstance(current, dict) else "an array"
    return repr(current)


def _instant(value: str, code: PlanCode, where: str, what: str, out: Verified) -> datetime | None:
    try:
        return parse_snapshot_time(value)
    except TimestampError as exc:
        if code is PlanCode.REPORT_TIME_INVALID and not _reported(value):
            return None  # the report's own time check (rules/report.py) already refused it
        out.add(code, where, f"{what}: {exc} (CAPABILITIES.md step 4)")
        return None


def _reported(value: str) -> bool:
    """Whether the 0.4 report time rule accepts ``value`` (so only this stricter one fails)."""
    try:
        parse_datetime(value)
    except TimestampError:
        return False
    return True


def _times(
    report: DestinationReport03, value: dict[str, JsonValue], out: Verified, now: datetime
) -> None:
    assessed = _instant(
        report.assessed_at, PlanCode.REPORT_TIME_INVALID, "/assessed_at", "assessed_at", out
    )
    expires = _instant(
        report.expires_at, PlanCode.REPORT_TIME_INVALID, "/expires_at", "expires_at", out
    )
    observed = _instant(
        str(value["observed_at"]),
        PlanCode.SNAPSHOT_TIME_INVALID,
        DATA,
        "snapshot /observed_at",
        out,
    )
    snapshot_expires = _instant(
        str(value["expires_at"]), PlanCode.SNAPSHOT_TIME_INVALID, DATA, "snapshot /expires_at", out
    )
    if assessed is None or expires is None or observed is None or snapshot_expires is None:
        return
    order = [
        (observed, assessed, False, "snapshot observed_at", "assessed_at"),
        (assessed, expires, True, "assessed_at", "report expires_at"),
        (expires, snapshot_expires, False, "report expires_at", "snapshot expires_at"),
    ]
    spelled = {
        "snapshot observed_at": value["observed_at"],
        "assessed_at": report.assessed_at,
        "report expires_at": report.expires_at,
        "snapshot expires_at": value["expires_at"],
    }
    for early, late, strict, a, b in order:
        if early > late or (strict and early == late):
            relation = "before" if strict else "at or before"
            out.add(
                PlanCode.SNAPSHOT_INTERVAL_INVALID,
                "/expires_at" if "report expires_at" in (a, b) else "/assessed_at",
                f"{a} ({spelled[a]}) must be {relation} {b} ({spelled[b]}): "
                "observed_at <= assessed_at < report expires_at <= snapshot expires_at",
            )
    if now < observed:
        out.add(
            PlanCode.SNAPSHOT_EXPIRED,
            DATA,
            f"the snapshot is observed at {value['observed_at']}, after the clock "
            f"({now.isoformat().replace('+00:00', 'Z')})",
        )
    elif now >= snapshot_expires:
        out.add(
            PlanCode.SNAPSHOT_EXPIRED,
            DATA,
            f"the snapshot expired at {value['expires_at']} (clock "
            f"{now.isoformat().replace('+00:00', 'Z')})",
        )


def _evidence(report: DestinationReport03, value: dict[str, JsonValue], out: Verified) -> None:
    wanted = report.destination.capabilities_snapshot.evidence_id
    found = next(((i, e) for i, e in enumerate(report.evidence) if e.id == wanted), None)
    if found is None:
        out.add(
            PlanCode.SNAPSHOT_EVIDENCE_MISSING,
            EVIDENCE + "/evidence_id",
            f"the snapshot cites evidence {wanted!r}; the report's evidence has no such entry",
        )
        return
    i, evidence = found
    if evidence.producer != value["producer"]:
        out.add(
            PlanCode.SNAPSHOT_EVIDENCE_MISMATCH,
            f"/evidence/{i}/producer",
            f"evidence {wanted!r} is produced by {evidence.producer!r}; the snapshot's "
            f"producer is {value['producer']!r}",
        )
    at = _instant(
        evidence.time, PlanCode.SNAPSHOT_TIME_INVALID, f"/evidence/{i}/time", "evidence time", out
    )
    try:
        observed = parse_snapshot_time(str(value["observed_at"]))
    except TimestampError:
        observed = None  # already reported
    if at is not None and observed is not None and at != observed:
        out.add(
            PlanCode.SNAPSHOT_EVIDENCE_MISMATCH,
            f"/evidence/{i}/time",
            f"evidence {wanted!r} is at {evidence.time}; the snapshot is observed at "
            f"{value['observed_at']} (another instant)",
        )
    kind = "synthetic" if value["evaluation_mode"] == "synthetic" else "inspection"
    if evidence.kind != kind:
        out.add(
            PlanCode.SNAPSHOT_EVIDENCE_MISMATCH,
            f"/evidence/{i}/kind",
            f"evidence {wanted!r} is of kind {evidence.kind!r}; a {value['evaluation_mode']} "
            f"snapshot is cited by {kind!r} evidence",
        )
