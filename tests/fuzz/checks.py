"""The properties a packet inspection, an ingest and a continuation result must always have."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from goldens import generate
from tests.core.continuation.relations import assert_explained
from tests.fuzz.harness import check_findings, is_pointer, locatable
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ErrorCode, PlanCode
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.digest import is_digest
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import (
    FINDINGS_LIMIT,
    Finding,
    OmittedFindings,
    Severity,
    has_error,
)
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import IngestResult, ingest_bytes
from zcf_inspector.core.packet.inspection import (
    STAGE_FLOOR,
    PacketInspection,
    Stage,
    StageStatus,
    inspect_bytes,
)
from zcf_inspector.core.packet.producer import AuthKind, seal_packet
from zcf_inspector.core.packet.receipt import ReceiptStatus, verify_receipt
from zcf_inspector.core.reading import read_json

_STAGES = list(Stage)


def _fails(findings: Sequence[Finding], omitted: Sequence[OmittedFindings]) -> bool:
    return has_error(findings) or any(o.severity is Severity.ERROR for o in omitted)


def check_budget(findings: Sequence[Finding], omitted: Sequence[OmittedFindings]) -> None:
    """At most the budget in full (a later stage may keep a few of its own), and past it
    only counts, each with a pointer."""
    assert len(findings) <= FINDINGS_LIMIT + 4 * STAGE_FLOOR
    if omitted:
        assert len(findings) >= FINDINGS_LIMIT
    for item in omitted:
        assert item.count >= 1
        assert is_pointer(item.first_pointer), item


def check_inspection(inspection: PacketInspection, destination: Destination | None) -> None:
    assert isinstance(inspection, PacketInspection)
    assert [s.stage for s in inspection.stages] == _STAGES
    for stage in inspection.stages:
        assert isinstance(stage.status, StageStatus)
        check_findings(stage.findings, ErrorCode)
    by_stage = {s.stage: s for s in inspection.stages}
    policy = by_stage[Stage.POLICY]
    if inspection.value is None:
        err = inspection.read_error
        assert err is not None
        first = by_stage[Stage.BYTES]
        assert first.status is StageStatus.FAILED
        assert [f.code for f in first.findings] == [err.code]
        for stage in inspection.stages[1:]:
            assert stage.status is StageStatus.NOT_RUN, stage
            assert not stage.findings, stage
        assert inspection.manifest is None
        assert inspection.auth is None
        assert not inspection.valid
        return
    assert inspection.read_error is None
    assert isinstance(inspection.value, dict)
    assert by_stage[Stage.BYTES].status is StageStatus.PASSED
    structure = by_stage[Stage.STRUCTURE]
    assert (structure.status is StageStatus.FAILED) == _fails(structure.findings, structure.omitted)
    for finding in structure.findings:
        # A structure finding points at what it is about: a value of the packet, or a
        # member missing from an object that is there.
        assert locatable(inspection.value, finding.pointer), finding
    manifest = inspection.manifest
    assert manifest is not None
    assert is_digest(manifest.root_computed)
    assert [s.name for s in manifest.sections] == sorted(s.name for s in manifest.sections)
    for finding in manifest.findings:
        assert finding.pointer.startswith("/manifest/"), finding
    if structure.status is StageStatus.FAILED:
        later = by_stage[Stage.MANIFEST]
        assert later.status is StageStatus.NOT_RUN
        assert all(f.severity is Severity.INFO for f in later.findings)
        assert by_stage[Stage.AUTHENTICATION].status is StageStatus.NOT_RUN
        assert not inspection.valid
    if destination is None:
        assert policy.status is StageStatus.NOT_CHECKABLE
    else:
        assert policy.status is not StageStatus.NOT_CHECKABLE
    assert inspection.valid == (not _fails(inspection.findings, inspection.omitted))
    check_budget(inspection.findings, inspection.omitted)


def check_ingest(result: IngestResult, destination: Destination) -> None:
    inspection = result.inspection
    policy = inspection.stage(Stage.POLICY)
    admitted = inspection.valid and policy.status is StageStatus.PASSED
    assert (result.receipt is not None) == admitted, (admitted, result.findings)
    if result.receipt is None:
        return
    receipt = result.receipt
    public = destination.signing_public_key
    checked = verify_receipt(receipt, public)
    assert checked.status is (
        ReceiptStatus.VALID_SIGNED if public is not None else ReceiptStatus.VALID_UNSIGNED
    ), checked.findings
    check_findings(checked.findings, ErrorCode)
    again = read_json(canonical(receipt))  # a receipt is itself reader-clean JSON
    assert canonical(again) == canonical(receipt)
    assert verify_receipt(again, public).status is checked.status
    packet: Any = inspection.value
    assert packet is not None
    beliefs = packet["content"].get("beliefs", [])
    assert len(result.admitted_beliefs) == min(len(beliefs), destination.max_beliefs)
    cut = 0
    for belief, original in zip(result.admitted_beliefs, beliefs, strict=False):
        content = belief["content"]
        assert isinstance(content, str)
        assert len(content.encode()) <= destination.max_belief_bytes
        assert original["content"].startswith(content)
        cut += content != original["content"]
    assert receipt["truncatedBeliefCount"] == cut + max(0, len(beliefs) - destination.max_beliefs)


def check_pipeline(data: bytes, destination: Destination | None) -> PacketInspection:
    """Inspect (and, with a destination, ingest) ``data``; check every property."""
    inspection = inspect_bytes(data, destination)
    check_inspection(inspection, destination)
    if destination is not None:
        check_ingest(ingest_bytes(data, destination), destination)
    if inspection.valid:
        check_still_valid(inspection, destination)
    return inspection


def check_still_valid(inspection: PacketInspection, destination: Destination | None) -> None:
    """A valid packet, re-canonicalized and re-sealed with its own kind, still validates."""
    value: Any = inspection.value
    assert value is not None
    recanonical = inspect_bytes(canonical(value), destination)
    assert recanonical.valid, [(f.code, f.pointer) for f in recanonical.findings]
    kind = value["authentication"]["kind"]
    resealed: dict[str, Any]
    if kind == "unsigned":
        resealed = seal_packet(value, AuthKind.UNSIGNED)
    elif kind == "recipient-bound-mac":
        resealed = generate.mac(value)
    else:
        raise AssertionError(f"a valid packet with authentication kind {kind!r}")
    again = inspect_bytes(canonical(resealed), destination)
    assert again.valid, [(f.code, f.pointer) for f in again.findings]


def check_continuation(result: InspectionResult) -> None:
    assert isinstance(result, InspectionResult)
    assert result.kind is None or isinstance(result.kind, DocumentKind)
    check_findings(result.findings, PlanCode)
    for plan in result.plans:
        check_findings(plan.findings, PlanCode)
        assert is_pointer(plan.pointer), plan.pointer
        for node in plan.nodes:
            assert node.pointer is None or is_pointer(node.pointer), node
        for edge in plan.edges:
            assert is_pointer(edge.pointer), edge
        # Issue 11: whatever the input, the inventory is exactly what the plan reaches.
        assert_explained(plan)
    if result.report is not None:
        check_findings(result.report.findings, PlanCode)
    assert result.ok == (not _fails(result.all_findings(), result.all_omitted()))
