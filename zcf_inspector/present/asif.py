"""The ASIF presenter: a session, bare profile or destination report, with its report.

The headline leads with what a reviewer must act on — the report's recomputed outcome,
or why the report cannot be relied on — and gives the document's own validity second:

    READY · ASIF-SESSION VALID                               verified (green)
    ADAPTATION REQUIRED · ASIF-SESSION VALID                 unchecked (amber)
    BLOCKED (5 blockers) · ASIF-SESSION VALID                refused (red)
    EXPIRED at 2026-09-27 12:00Z · ASIF-SESSION VALID        refused: not to be relied on now
    REFUSED: outcome_mismatch · ASIF-SESSION VALID           refused: the report is wrong
    ASIF-SESSION VALID · NOT ASSESSED (no report)            unsigned (neutral)
    ASIF-SESSION VALID · NO CONTINUATION PLAN (core session) unsigned (neutral)
    ASIF-SESSION REFUSED: dependency_cycle                   refused
    READY · CONTINUATION-REPORT INTACT · SESSION NOT CHECKED (no session)     unchecked

Green only for READY with every claim checked. The chips are made by the builders in
`ROWS`, in order: a new kind of check (ASIF 0.5's snapshot chips) is one more builder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.results import (
    InspectionResult,
    PlanResult,
    ReportResult,
)
from zcf_inspector.core.continuation.timestamps import TimestampError, parse_datetime
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.present.asif_snapshot import snapshot_rows
from zcf_inspector.present.vocabulary import (
    SEPARATOR,
    CheckStatus,
    Chip,
    Trust,
    Verdict,
    weakest,
)

UNRECOGNISED = "unrecognised document"
READY = "ready"
ADAPTATION_REQUIRED = "adaptation_required"
BLOCKED = "blocked"
NO_SESSION = "the session the report binds (no session: the report was checked alone)"
BARE_PROFILE = "references into the ASIF session (a bare profile has none to check)"
NO_PLAN = "NO CONTINUATION PLAN (core session)"
CORE_ONLY = (
    "the session does not use the portable-continuation profile (it is optional): it was "
    "checked by the core rules, and there is no plan to assess"
)


def moment_text(value: str) -> str:
    """A report time as the headline shows it, ``2026-09-27 12:00Z`` (as given if unreadable)."""
    try:
        moment = parse_datetime(value)
    except TimestampError:
        return value
    pattern = "%Y-%m-%d %H:%MZ" if moment.second == 0 else "%Y-%m-%d %H:%M:%SZ"
    return moment.strftime(pattern)


def _first_error(findings: Iterable[Finding]) -> Finding | None:
    return next((f for f in findings if f.severity is Severity.ERROR), None)


def _kind_word(result: InspectionResult) -> str:
    return UNRECOGNISED.upper() if result.kind is None else str(result.kind).upper()


def not_checked(result: InspectionResult) -> tuple[str, ...]:
    """What the document claims that could not be checked here."""
    if result.kind is DocumentKind.CONTINUATION_REPORT:
        return (NO_SESSION,)
    if result.kind is DocumentKind.CONTINUATION_PROFILE:
        return (BARE_PROFILE,)
    return ()


def _document_refusal(result: InspectionResult) -> Finding | None:
    """The first error of the document itself and its plans (not of the report)."""
    first = _first_error(result.findings)
    for plan in result.plans:
        first = first or _first_error(plan.findings)
    if first is None and any(o.severity is Severity.ERROR for o in result.omitted):
        first = Finding(result.omitted[0].code, Severity.ERROR, "", "counted past the budget")
    return first


def window_only(report: ReportResult) -> tuple[str, str, str] | None:
    """(headline words, chip summary, chip detail) when the report's only fault is its
    validity window at the clock: it may be a sound report checked at the wrong time
    ("Assess at" in Settings, ``plan --now``), not a bad one."""
    times = report.times
    if times is None:
        return None
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    # An ASIF 0.5 report's snapshot expires with it (report expires_at <= snapshot
    # expires_at, or the interval itself is refused): the same window, the same words —
    # it was headed "REFUSED: snapshot_expired" though the docs say "EXPIRED at …".
    window = {PlanCode.REPORT_EXPIRED, PlanCode.SNAPSHOT_EXPIRED}
    if times.premature:
        window.add(PlanCode.REPORT_TIME_INVALID)
    if not errors or any(f.code not in window for f in errors):
        return None
    made = moment_text(times.assessed_at)
    clock = moment_text(times.checked_at)
    if times.expired:
        return (
            f"EXPIRED at {moment_text(times.expires_at)}",
            f"expired {moment_text(times.expires_at)}",
            f"expired {moment_text(times.expires_at)}, assessed at {clock} (the Assess at "
            f"clock, plan --now); the report was made {made} — otherwise it checks clean",
        )
    return (
        f"NOT VALID BEFORE {made}",
        f"not valid before {made}",
        f"not yet valid: made {made}, assessed at {clock} (the Assess at clock, plan --now) "
        "— otherwise it checks clean",
    )


_WINDOW_CODES = frozenset(
    {PlanCode.REPORT_EXPIRED, PlanCode.REPORT_TIME_INVALID, PlanCode.SNAPSHOT_EXPIRED}
)


def _substantive_error(report: ReportResult) -> Finding | None:
    """The report's first error, one that is not about its validity window when there is
    one: a wrong report is said as wrong, not merely as expired."""
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    return next((f for f in errors if f.code not in _WINDOW_CODES), errors[0] if errors else None)


def _outcome_words(report: ReportResult) -> str:
    outcome = report.recomputed_outcome or "?"
    if outcome == BLOCKED:
        count = len(report.blocking)
        return f"BLOCKED ({count} blocker{'s' if count != 1 else ''})"
    return outcome.replace("_", " ").upper()


def _report_lead(report: ReportResult) -> tuple[str, Trust]:
    """The headline's first words about the report, and the trust they allow at most."""
    window = window_only(report)
    if window is not None:
        return window[0], Trust.REFUSED
    first = _substantive_error(report)
    if first is not None or not report.ok:
        return f"REFUSED: {first.code if first else 'findings past the budget'}", Trust.REFUSED
    outcome = report.recomputed_outcome
    if outcome == READY:
        return _outcome_words(report), Trust.VERIFIED
    if outcome == BLOCKED:
        return _outcome_words(report), Trust.REFUSED
    return _outcome_words(report), Trust.UNCHECKED


def _document_part(result: InspectionResult) -> tuple[str, Trust]:
    kind = _kind_word(result)
    first = _document_refusal(result)
    report = result.report
    if result.kind is DocumentKind.CONTINUATION_REPORT and first is None and report:
        if window_only(report) is None:
            first = _first_error(report.findings)
        if first is None and window_only(report) is None and not report.ok:
            first = Finding(PlanCode.DOCUMENT_REFUSED, Severity.ERROR, "", "past the budget")
        if first is None:
            return f"{kind} INTACT{SEPARATOR}SESSION NOT CHECKED (no session)", Trust.UNCHECKED
    if first is not None:
        return f"{kind} REFUSED: {first.code}", Trust.REFUSED
    if result.kind is DocumentKind.CONTINUATION_PROFILE:
        return f"{kind} INTACT{SEPARATOR}SESSION REFERENCES NOT CHECKED (bare profile)", (
            Trust.UNCHECKED
        )
    return f"{kind} VALID", Trust.VERIFIED


def headline(result: InspectionResult) -> tuple[str, Trust]:
    part, level = _document_part(result)
    if level is Trust.REFUSED:
        return part, level  # the report cannot be relied on over a refused document
    report = result.report
    if report is None and result.core_only:
        return f"{part}{SEPARATOR}{NO_PLAN}", weakest(level, Trust.UNSIGNED)
    if report is None:
        return f"{part}{SEPARATOR}NOT ASSESSED (no report)", weakest(level, Trust.UNSIGNED)
    lead, report_level = _report_lead(report)
    return f"{lead}{SEPARATOR}{part}", weakest(level, report_level)


# --- chips ---------------------------------------------------------------------------


def document_rows(result: InspectionResult) -> Iterable[Chip]:
    kind = UNRECOGNISED if result.kind is None else str(result.kind)
    first = _first_error(result.findings)
    if first is not None:
        yield Chip(
            "document",
            CheckStatus.FAIL,
            str(first.code),
            f"{first.code} at {first.pointer or '(document)'}: {first.message}",
            first.pointer,
        )
    else:
        yield Chip("document", CheckStatus.PASS, kind, f"read and checked as {kind}")
    if result.kind is DocumentKind.CONTINUATION_PROFILE:
        yield Chip("session references", CheckStatus.NOT_CHECKABLE, "bare profile", BARE_PROFILE)
    if result.kind is DocumentKind.CONTINUATION_REPORT:
        yield Chip("binding", CheckStatus.NOT_CHECKABLE, "no session", NO_SESSION)
    if result.core_only:
        yield Chip("continuation plan", CheckStatus.NOT_RUN, "none (core session)", CORE_ONLY)


def plan_row(plan: PlanResult) -> Chip:
    plan_error = _first_error(plan.findings)
    required = sum(1 for n in plan.nodes if n.required)
    missing = sum(1 for n in plan.nodes if n.missing)
    known = sum(1 for n in plan.nodes if n.blockers)
    counts = (
        f"{len(plan.nodes)} subjects, {required} required, {missing} missing, "
        f"{len(plan.cycles)} cycles, {known} known blockers"
    )
    if plan.ok:
        return Chip(f"plan {plan.id}", CheckStatus.PASS, "passed", counts, plan.pointer)
    code = str(plan_error.code) if plan_error else "findings past the budget"
    detail = counts if plan_error is None else f"{plan_error.code}: {plan_error.message} — {counts}"
    return Chip(f"plan {plan.id}", CheckStatus.FAIL, code, detail, plan.pointer)


def plan_rows(result: InspectionResult) -> Iterable[Chip]:
    return (plan_row(p) for p in result.plans)


def report_row(report: ReportResult) -> Chip:
    check = f"report {report.id or '?'}"
    outcome = f"outcome {report.outcome or '?'}, recomputed {report.recomputed_outcome or '?'}"
    window = window_only(report)
    if window is not None:
        _, summary, detail = window
        return Chip(check, CheckStatus.FAIL, summary, f"{detail}; {outcome}")
    if report.times is not None and report.times.expired:
        outcome += f"; expired {moment_text(report.times.expires_at)}"
    first = _substantive_error(report)
    if first is not None or not report.ok:
        code = str(first.code) if first else "findings past the budget"
        detail = f"{outcome} — {first.code}: {first.message}" if first else outcome
        return Chip(check, CheckStatus.FAIL, code, detail)
    blocking = report.blocking
    if blocking:
        outcome += "; blocked by " + ", ".join(blocking)
    words = _outcome_words(report).lower()
    if report.recomputed_outcome == READY:
        return Chip(check, CheckStatus.PASS, words, outcome)
    if report.recomputed_outcome == BLOCKED:
        return Chip(check, CheckStatus.FAIL, words, outcome)
    return Chip(check, CheckStatus.CHANGED, words, outcome)


def report_rows(result: InspectionResult) -> Iterable[Chip]:
    if result.report is not None:
        yield report_row(result.report)


RowBuilder = Callable[[InspectionResult], Iterable[Chip]]
# Every chip of an ASIF document, in order. Another kind of check is one more builder.
ROWS: list[RowBuilder] = [document_rows, plan_rows, report_rows, snapshot_rows]


def verdict(result: InspectionResult) -> Verdict:
    words, level = headline(result)
    rows = tuple(row for build in ROWS for row in build(result))
    kind = str(DocumentKind(str(result.kind))) if result.kind is not None else UNRECOGNISED
    return Verdict(kind, words, level, rows, not_checked=not_checked(result))


def plan_counts(
    plan: PlanResult, known_blockers: int, blocking: int | None = None
) -> tuple[str, ...]:
    """A plan's counts in words — subjects, required, missing, cycles, known blockers (and,
    with a report, blocking) — the one summary `plan` prints on each plan's line and the
    plan graph's status line shows."""
    nodes = plan.nodes
    parts = [
        f"{len(nodes)} subjects",
        f"{sum(1 for n in nodes if n.required)} required",
        f"{sum(1 for n in nodes if n.missing)} missing",
        f"{len(plan.cycles)} cycles",
        f"{known_blockers} known blockers",
    ]
    if blocking is not None:
        parts.append(f"{blocking} blocking")
    return tuple(parts)
