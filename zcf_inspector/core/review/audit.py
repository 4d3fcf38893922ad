"""What an audit report stands on (``receipt report``, `api.audit_report`): the packet
admitted at the destination, the receipt verified and matched to it, and, when a folder
is given, the packet's claims checked against that workspace.

Facts only: the words and the page are the presentation layer's (`present.audit_report`,
`present.audit_html`). A receipt that does not belong to the packet leaves ``target``
set and ``mismatch`` non-empty: the report says so and stops.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core.claims.workspace import WorkspaceCheck, check_workspace
from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import IngestResult, ingest_bytes
from zcf_inspector.core.packet.receipt import ReceiptReport, unreadable_receipt, verify_receipt
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.decisions import ReviewError
from zcf_inspector.core.review.previous import RECEIPT_MAX_BYTES
from zcf_inspector.core.review.previous_trust import trust_words, trusted_signer
from zcf_inspector.core.review.receipt_match import match_receipt
from zcf_inspector.core.review.target import ReviewTarget


@dataclass(frozen=True, slots=True)
class AuditFacts:
    """``receipt`` is None when it is not strict JSON (``report`` says why); ``target`` is
    None when the packet was refused at this destination (``refusal`` says why)."""

    ingest: IngestResult
    target: ReviewTarget | None
    receipt: dict[str, JsonValue] | None
    report: ReceiptReport
    trust_words: str  # what the receipt's verification established, in words
    signer_is_own: bool | None  # the destination's signingKey signed it (None: no trusted key)
    mismatch: tuple[Finding, ...] = ()
    refusal: tuple[Finding, ...] = ()
    workspace: WorkspaceCheck | None = None

    @property
    def matches(self) -> bool:
        """The receipt is readable and belongs to the packet as admitted here."""
        return self.target is not None and self.receipt is not None and not self.mismatch


def audit_facts(
    data: bytes,
    destination: Destination,
    receipt_data: bytes,
    *,
    key: bytes | None = None,
    workspace: Path | None = None,
    monitor: Monitor = NULL_MONITOR,
) -> AuditFacts:
    """Admit ``data`` at ``destination``, verify the receipt (under ``key`` when given,
    else under the key its signature claims when this destination trusts it) and match
    it to the admitted packet. Never raises for a bad packet or receipt: those are facts."""
    monitor.step("admitting the packet", 0.0)
    admitted = ingest_bytes(data, destination)
    monitor.step("verifying the receipt", 0.5)
    try:
        value = read_json(receipt_data, max_bytes=RECEIPT_MAX_BYTES)
    except ReadError as exc:
        report = unreadable_receipt(exc.to_finding())  # the reader's own refusal
        return AuditFacts(admitted, _target(admitted)[0], None, report, "INVALID", None)
    signer = trusted_signer(value, destination)
    chosen = key if key is not None else (None if signer is None else signer[0])
    report = verify_receipt(value, chosen)
    own = None if signer is None else signer[1]
    receipt = value if isinstance(value, dict) else None
    target, refusal = _target(admitted)
    if target is None or receipt is None:
        words = trust_words(value, destination, report.status)
        return AuditFacts(admitted, target, receipt, report, words, own, (), refusal)
    mismatch = tuple(match_receipt(receipt, target))
    checked = None
    if workspace is not None and not mismatch and admitted.inspection.value is not None:
        monitor.step("checking claims against the workspace", 0.7)
        checked = check_workspace(admitted.inspection.value, workspace, monitor=monitor)
    words = trust_words(value, destination, report.status)
    return AuditFacts(admitted, target, receipt, report, words, own, mismatch, (), checked)


def _target(admitted: IngestResult) -> tuple[ReviewTarget | None, tuple[Finding, ...]]:
    try:
        return ReviewTarget.from_ingest(admitted), ()
    except ReviewError as exc:
        return None, exc.findings
