"""The verdict rows of the header: one per check, each pass / fail / not checkable / not run.

Built from core results only (stage statuses, the manifest report, the auth report's
reason); nothing is re-checked here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.packet.auth import AuthStatus
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageResult, StageStatus
from zcf_inspector.core.packet.manifest import SectionDigest
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus


class CheckState(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_CHECKABLE = "not checkable"
    NOT_RUN = "not run"


@dataclass(frozen=True, slots=True)
class VerdictRow:
    check: str  # what was checked: "bytes", "section capsule", "authentication", …
    state: CheckState
    summary: str  # a few words for the chip
    detail: str  # the full reason, as the core gave it
    pointer: str | None = None  # what the row refers to in the document, if anything


@dataclass(frozen=True, slots=True)
class Verdict:
    headline: str  # e.g. "VALID" or "REFUSED at manifest"
    ok: bool
    rows: tuple[VerdictRow, ...]


_STAGE_STATE = {
    StageStatus.PASSED: CheckState.PASS,
    StageStatus.FAILED: CheckState.FAIL,
    StageStatus.NOT_RUN: CheckState.NOT_RUN,
    StageStatus.NOT_CHECKABLE: CheckState.NOT_CHECKABLE,
}


def _first_error(findings: tuple[Finding, ...]) -> Finding | None:
    return next((f for f in findings if f.severity is Severity.ERROR), None)


def _stage_row(result: StageResult, passed: str, not_run: str) -> VerdictRow:
    state = _STAGE_STATE[result.status]
    first = _first_error(result.findings)
    if state is CheckState.FAIL and first is not None:
        errors = sum(1 for f in result.findings if f.severity is Severity.ERROR)
        errors += sum(o.count for o in result.omitted if o.severity is Severity.ERROR)
        more = f" (+{errors - 1:,} more)" if errors > 1 else ""
        return VerdictRow(
            result.stage.value,
            state,
            f"{first.code}{more}",
            f"{first.code} at {first.pointer or '(document)'}: {first.message}{more}",
            first.pointer,
        )
    if state is CheckState.NOT_RUN:
        return VerdictRow(result.stage.value, state, "not run", not_run)
    return VerdictRow(result.stage.value, state, "passed", passed)


def _bytes_row(inspection: PacketInspection) -> VerdictRow:
    error = inspection.read_error
    if error is None:
        return VerdictRow(
            "bytes", CheckState.PASS, "passed", "read strictly as profile §1 requires"
        )
    where = f" at byte {error.offset}" if error.offset is not None else ""
    return VerdictRow(
        "bytes",
        CheckState.FAIL,
        f"{error.code}{where}",
        f"{error.code}{where}: {error.message}",
        error.pointer,
    )


def _section_row(section: SectionDigest, informational: bool) -> VerdictRow:
    note = " (informational: the structure check failed)" if informational else ""
    pointer = section.pointer or jpointer.join("manifest", "sections", section.name)
    if section.match:
        return VerdictRow(
            f"section {section.name}",
            CheckState.PASS,
            "digest matches",
            f"{section.pointer}: listed digest = computed {section.computed}{note}",
            pointer,
        )
    if section.computed is None:
        detail = "listed in the manifest, but the packet does not cover such a section"
    elif section.listed is None:
        detail = f"in the packet but not listed in the manifest; computed {section.computed}"
    else:
        detail = f"listed {section.listed}, computed {section.computed}"
    return VerdictRow(
        f"section {section.name}", CheckState.FAIL, "digest mismatch", detail + note, pointer
    )


def _auth_row(inspection: PacketInspection) -> VerdictRow:
    stage = inspection.stage(Stage.AUTHENTICATION)
    auth = inspection.auth
    state = _STAGE_STATE[stage.status]
    if auth is None or auth.status is AuthStatus.NOT_CHECKED:
        reason = auth.reason if auth is not None else "not checked: an earlier stage failed"
        return VerdictRow("authentication", CheckState.NOT_RUN, "not run", reason)
    kind = auth.kind or "unknown kind"
    summaries = {
        AuthStatus.UNSIGNED: "unsigned",
        AuthStatus.VERIFIED: f"{kind}, verified",
        AuthStatus.NOT_VERIFIED: f"{kind}, not verified (no keys)",
    }
    first = _first_error(auth.findings)
    summary = summaries.get(auth.status, f"{kind}: {first.code if first else 'refused'}")
    pointer = first.pointer if first is not None else jpointer.join("authentication")
    return VerdictRow("authentication", state, summary, auth.reason, pointer)


def packet_verdict(inspection: PacketInspection) -> Verdict:
    rows = [_bytes_row(inspection)]
    if inspection.read_error is None:
        structure = inspection.stage(Stage.STRUCTURE)
        rows.append(
            _stage_row(structure, "every field as profile §3 requires", "an earlier stage failed")
        )
        manifest = inspection.manifest
        if manifest is not None:
            informational = structure.status is not StageStatus.PASSED
            rows.extend(_section_row(s, informational) for s in manifest.sections)
            root_state = CheckState.PASS if manifest.root_match else CheckState.FAIL
            rows.append(
                VerdictRow(
                    "manifest root",
                    root_state,
                    "matches" if manifest.root_match else "mismatch",
                    f"listed {manifest.root_listed}, computed {manifest.root_computed}",
                    jpointer.join("manifest", "rootHash"),
                )
            )
    else:
        rows.extend(
            VerdictRow(s.stage.value, CheckState.NOT_RUN, "not run", "the bytes were refused")
            for s in inspection.stages
            if s.stage in (Stage.STRUCTURE, Stage.MANIFEST)
        )
    rows.append(_auth_row(inspection))
    policy = inspection.stage(Stage.POLICY)
    if policy.status is StageStatus.NOT_CHECKABLE:
        rows.append(
            VerdictRow(
                "policy",
                CheckState.NOT_CHECKABLE,
                "no destination",
                "policy needs a destination file (keys, capabilities, limits): "
                "choose one in Settings",
            )
        )
    else:
        rows.append(
            _stage_row(
                policy, "the destination's policy admits the packet", "an earlier stage failed"
            )
        )
    if inspection.valid:
        headline = "VALID"
    else:
        failed = [s.stage.value for s in inspection.stages if s.status is StageStatus.FAILED]
        headline = f"REFUSED at {', '.join(failed)}"
    return Verdict(headline, inspection.valid, tuple(rows))


_RECEIPT_SIGNATURE = {
    ReceiptStatus.VALID_SIGNED: (
        CheckState.PASS,
        "verified",
        "signature verified under the destination's signing key",
    ),
    ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED: (
        CheckState.NOT_CHECKABLE,
        "not checked (no key)",
        "signed, but not checked: set a destination file with a signingKey to verify it",
    ),
    ReceiptStatus.VALID_UNSIGNED: (CheckState.PASS, "unsigned", "the receipt carries no signature"),
}


def receipt_verdict(report: ReceiptReport) -> Verdict:
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    digest_errors = [f for f in errors if f.pointer == "/receiptDigest"]
    shape_errors = [
        f for f in errors if f not in digest_errors and not f.pointer.startswith("/signature")
    ]
    rows = [
        VerdictRow(
            "receipt shape",
            CheckState.FAIL if shape_errors else CheckState.PASS,
            str(shape_errors[0].code) if shape_errors else "passed",
            shape_errors[0].message if shape_errors else "every field as profile §6 requires",
            shape_errors[0].pointer if shape_errors else None,
        ),
        VerdictRow(
            "receipt digest",
            CheckState.PASS
            if report.computed_digest and report.computed_digest == report.listed_digest
            else CheckState.FAIL,
            "matches" if report.computed_digest == report.listed_digest else "mismatch",
            f"listed {report.listed_digest}, computed {report.computed_digest}",
            "/receiptDigest",
        ),
    ]
    if report.status in _RECEIPT_SIGNATURE:
        state, summary, detail = _RECEIPT_SIGNATURE[report.status]
        rows.append(VerdictRow("signature", state, summary, detail, "/signature"))
    else:
        signature_errors = [f for f in errors if f.pointer.startswith("/signature")]
        if signature_errors:
            first = signature_errors[0]
            rows.append(
                VerdictRow(
                    "signature", CheckState.FAIL, str(first.code), first.message, first.pointer
                )
            )
        else:
            rows.append(
                VerdictRow("signature", CheckState.NOT_RUN, "not run", "an earlier check failed")
            )
    headline = "VALID RECEIPT" if report.valid else "INVALID RECEIPT"
    return Verdict(headline, report.valid, tuple(rows))


def continuation_verdict(result: InspectionResult) -> Verdict:
    kind = "unrecognised document" if result.kind is None else str(result.kind)
    first = _first_error(result.findings)
    rows = [
        VerdictRow(
            "document",
            CheckState.FAIL if first else CheckState.PASS,
            str(first.code) if first else kind,
            f"{first.code} at {first.pointer or '(document)'}: {first.message}"
            if first
            else f"read and checked as {kind}",
            first.pointer if first else None,
        )
    ]
    for plan in result.plans:
        plan_error = _first_error(plan.findings)
        required = sum(1 for n in plan.nodes if n.required)
        missing = sum(1 for n in plan.nodes if n.missing)
        counts = (
            f"{len(plan.nodes)} subjects, {required} required, {missing} missing, "
            f"{len(plan.cycles)} cycles"
        )
        rows.append(
            VerdictRow(
                f"plan {plan.id}",
                CheckState.PASS if plan.ok else CheckState.FAIL,
                "ok" if plan.ok else str(plan_error.code if plan_error else "invalid"),
                counts
                if plan_error is None
                else f"{plan_error.code}: {plan_error.message} — {counts}",
                plan.pointer,
            )
        )
    if result.report is not None:
        report = result.report
        report_error = _first_error(report.findings)
        rows.append(
            VerdictRow(
                f"report {report.id or '?'}",
                CheckState.PASS if report.ok else CheckState.FAIL,
                "ok" if report.ok else str(report_error.code if report_error else "invalid"),
                f"outcome {report.outcome or '?'}, recomputed {report.recomputed_outcome or '?'}"
                + (f" — {report_error.code}: {report_error.message}" if report_error else ""),
                None,
            )
        )
    headline = f"{kind.upper()}: {'OK' if result.ok else 'INVALID'}"
    return Verdict(headline, result.ok, tuple(rows))
