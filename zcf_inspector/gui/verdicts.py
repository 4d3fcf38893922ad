"""The verdict rows of the header: one per check, each pass / fail / not checkable / not run.

Built from core results only (stage statuses, the manifest report, the auth report's
reason); nothing is re-checked here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.results import InspectionResult, ReportResult
from zcf_inspector.core.continuation.timestamps import TimestampError, parse_datetime
from zcf_inspector.core.findings import Finding, Severity, has_error
from zcf_inspector.core.packet.admission import AdmissionNotice
from zcf_inspector.core.packet.auth import AuthStatus
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageResult, StageStatus
from zcf_inspector.core.packet.manifest import SectionDigest
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus
from zcf_inspector.core.packet.trust import TrustLevel, packet_trust, short_fingerprint


class CheckState(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_CHECKABLE = "not checkable"
    NOT_RUN = "not run"
    CHANGED = "changed"  # passed, but something was taken away or altered (admission)


@dataclass(frozen=True, slots=True)
class VerdictRow:
    check: str  # what was checked: "bytes", "section capsule", "authentication", …
    state: CheckState
    summary: str  # a few words for the chip
    detail: str  # the full reason, as the core gave it
    pointer: str | None = None  # what the row refers to in the document, if anything


@dataclass(frozen=True, slots=True)
class Verdict:
    headline: str  # e.g. "VALID · UNSIGNED" or "REFUSED at manifest"
    ok: bool
    rows: tuple[VerdictRow, ...]
    # Green only for CHECKED: valid, and everything the document claims was checked.
    level: TrustLevel = TrustLevel.CHECKED
    full_headline: str = ""  # the headline with nothing shortened (keys in full)

    @property
    def tooltip(self) -> str:
        return self.full_headline or self.headline


def _level(ok: bool) -> TrustLevel:
    return TrustLevel.CHECKED if ok else TrustLevel.REFUSED


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
    trust = packet_trust(inspection)
    return Verdict(
        trust.headline(short_fingerprint),
        inspection.valid,
        tuple(rows),
        trust.level,
        trust.headline(),
    )


ADMISSION_CHECK = "admission"


def admission_row(notice: AdmissionNotice) -> VerdictRow:
    """What the destination's admission changed (dropped, cut, demoted, not native)."""
    state = CheckState.CHANGED if notice.changed else CheckState.PASS
    return VerdictRow(ADMISSION_CHECK, state, notice.summary, notice.text, "/content/beliefs")


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
    if report.status is ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED:
        # The receipt claims a signer that could not be checked here: not green.
        return Verdict(
            "INTACT RECEIPT · SIGNATURE NOT CHECKED", True, tuple(rows), TrustLevel.PARTIAL
        )
    headline = "VALID RECEIPT" if report.valid else "INVALID RECEIPT"
    return Verdict(headline, report.valid, tuple(rows), _level(report.valid))


def moment_text(value: str) -> str:
    """A report time as the header shows it, ``2026-09-27 12:00Z`` (as given if unreadable)."""
    try:
        moment = parse_datetime(value)
    except TimestampError:
        return value
    pattern = "%Y-%m-%d %H:%MZ" if moment.second == 0 else "%Y-%m-%d %H:%M:%SZ"
    return moment.strftime(pattern)


def _window_only(report: ReportResult) -> tuple[str, str] | None:
    """(summary, detail) when the report's only fault is its validity window at the clock.

    An expired (or not yet valid) report is told apart from a substantive failure: it may
    be a sound report checked at the wrong time ("Assess at" in Settings), not a bad one.
    """
    times = report.times
    if times is None:
        return None
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    window = {PlanCode.REPORT_EXPIRED}
    if times.premature:
        window.add(PlanCode.REPORT_TIME_INVALID)
    if not errors or any(f.code not in window for f in errors):
        return None
    made = moment_text(times.assessed_at)
    clock = moment_text(times.checked_at)
    if times.expired:
        return (
            f"expired {moment_text(times.expires_at)}",
            f"expired {moment_text(times.expires_at)}, assessed at {clock} (the Assess at "
            f"clock); the report was made {made} — otherwise it checks clean",
        )
    return (
        f"not valid before {made}",
        f"not yet valid: made {made}, assessed at {clock} (the Assess at clock) — otherwise "
        "it checks clean",
    )


def _report_row(report: ReportResult) -> VerdictRow:
    report_error = _first_error(report.findings)
    outcome = f"outcome {report.outcome or '?'}, recomputed {report.recomputed_outcome or '?'}"
    window = _window_only(report)
    if window is not None:
        summary, detail = window
        return VerdictRow(
            f"report {report.id or '?'}", CheckState.FAIL, summary, f"{detail}; {outcome}", None
        )
    detail = outcome
    if report.times is not None and report.times.expired:
        detail += f"; expired {moment_text(report.times.expires_at)}"
    if report_error is not None:
        detail += f" — {report_error.code}: {report_error.message}"
    return VerdictRow(
        f"report {report.id or '?'}",
        CheckState.PASS if report.ok else CheckState.FAIL,
        "ok" if report.ok else str(report_error.code if report_error else "invalid"),
        detail,
        None,
    )


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
        blocked = sum(1 for n in plan.nodes if n.blockers)
        counts = (
            f"{len(plan.nodes)} subjects, {required} required, {missing} missing, "
            f"{len(plan.cycles)} cycles, {blocked} known blockers"
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
    headline = f"{kind.upper()}: {'OK' if result.ok else 'INVALID'}"
    report = result.report
    if report is not None:
        rows.append(_report_row(report))
        times = report.times
        if (
            times is not None
            and _window_only(report) is not None
            and not has_error(result.findings)
            and all(p.ok for p in result.plans)
        ):
            state = "REPORT EXPIRED" if times.expired else "REPORT NOT YET VALID"
            headline = f"{kind.upper()}: {state}"
    return Verdict(headline, result.ok, tuple(rows), _level(result.ok))
