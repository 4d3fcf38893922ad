"""One translation of pydantic errors, one pointer rule: every finding points at the member
it is about — a missing field where that field would be — for packets, receipts and
continuation reports alike."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from goldens import generate as g
from tests.conftest import EXAMPLES
from zcf_inspector.core.codes import ErrorCode, PlanCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.packet.receipt_shape import check_receipt_shape
from zcf_inspector.core.packet.structure import check_structure
from zcf_inspector.core.pydantic_findings import IssueKind, validation_issues

NOW = datetime(2026, 9, 26, 12, 30, tzinfo=UTC)


def test_packet_missing_field_points_at_the_member() -> None:
    packet = g.full_handoff()
    del packet["packet"]["id"]
    found = {(f.code, f.pointer) for f in check_structure(packet)}
    assert (ErrorCode.MISSING_FIELD, "/packet/id") in found


def test_receipt_missing_field_points_at_the_member() -> None:
    receipt = json.loads((g.HERE / "publication" / "minimal.receipt.json").read_text())
    del receipt["dispositions"]["tools"]
    findings = check_receipt_shape(receipt)
    assert [(f.code, f.pointer) for f in findings] == [
        (ErrorCode.MISSING_FIELD, "/dispositions/tools")
    ]
    assert findings[0].message == "missing field 'tools'"


def test_report_missing_field_points_at_the_member() -> None:
    report = json.loads((EXAMPLES / "another-agent.report.json").read_bytes())
    del report["source"]["document_sha256"]
    result = inspect_continuation(json.dumps(report).encode(), now=NOW)
    assert result.report is not None
    assert [(f.code, f.pointer, f.message) for f in result.report.findings] == [
        (PlanCode.SCHEMA_VIOLATION, "/source/document_sha256", "missing field 'document_sha256'")
    ]


def test_unknown_field_points_at_its_key() -> None:
    # (Continuation objects keep unknown members, as their specification requires.)
    receipt = json.loads((g.HERE / "publication" / "minimal.receipt.json").read_text())
    receipt["review"]["surprise"] = 1
    assert [(f.code, f.pointer) for f in check_receipt_shape(receipt)] == [
        (ErrorCode.UNKNOWN_FIELD, "/review/surprise")
    ]


def test_issues_are_located_from_the_root_with_chunk_offsets() -> None:
    from pydantic import TypeAdapter, ValidationError

    adapter: TypeAdapter[list[int]] = TypeAdapter(list[int])
    try:
        adapter.validate_python([1, "two"], strict=True)
    except ValidationError as exc:
        [issue] = validation_issues(exc, base=("content", "beliefs"), offset=4096)
    assert issue.kind is IssueKind.INVALID_VALUE
    assert issue.loc == ("content", "beliefs", 4097)
    assert issue.pointer == "/content/beliefs/4097"
    assert issue.input == "two"
