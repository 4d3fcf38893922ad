"""`inspect_continuation`: bytes in, an `InspectionResult` out (never raises on content).

Recognises an ASIF 0.4 session, a bare Continuation Profile Object or a destination
report, checks it, and optionally checks a report against the session it binds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.blockers import model_fit_blocker, plan_blockers
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex, index_core, index_profile
from zcf_inspector.core.continuation.models.profile import ContinuationProfile
from zcf_inspector.core.continuation.models.report import DestinationReport
from zcf_inspector.core.continuation.models.schema_check import schema_findings
from zcf_inspector.core.continuation.models.session import FEATURE, AsifSession
from zcf_inspector.core.continuation.models.validation import validate_at
from zcf_inspector.core.continuation.results import (
    DocumentKind,
    InspectionResult,
    PlanResult,
    ReportResult,
)
from zcf_inspector.core.continuation.rules.bindings import check_binding
from zcf_inspector.core.continuation.rules.contexts import (
    SessionHistory,
    check_checkpoints,
    check_contexts,
    context_calls,
)
from zcf_inspector.core.continuation.rules.core_events import check_core_events
from zcf_inspector.core.continuation.rules.document import (
    check_core,
    check_profile,
    dependency_cycles,
)
from zcf_inspector.core.continuation.rules.plan_check import (
    plan_graph,
    plan_result,
    required_inventory,
)
from zcf_inspector.core.continuation.rules.report import PlanFacts, SessionBinding, check_report
from zcf_inspector.core.continuation.rules.resource_bytes import resource_bytes
from zcf_inspector.core.continuation.rules.streams import check_streams
from zcf_inspector.core.continuation.rules.workspace_state import workspace_trees
from zcf_inspector.core.findings import Finding, Severity, error
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadError, read_json

_VERSIONS = {
    "asif_version": (DocumentKind.ASIF_SESSION, "0.4"),
    "report_version": (DocumentKind.CONTINUATION_REPORT, "0.2"),
    "profile_version": (DocumentKind.CONTINUATION_PROFILE, "0.2"),
}


@dataclass(frozen=True, slots=True)
class _Read:
    kind: DocumentKind | None
    value: dict[str, JsonValue] | None
    findings: list[Finding]


def _read(data: bytes) -> _Read:
    try:
        value = read_json(data)
    except ReadError as exc:
        where = f" at byte {exc.offset}" if exc.offset is not None else ""
        return _Read(
            None,
            None,
            [
                error(
                    PlanCode.DOCUMENT_REFUSED,
                    exc.pointer or "",
                    f"the strict JSON reader refused the file{where} ({exc.code}): {exc.message}",
                )
            ],
        )
    if not isinstance(value, dict):
        return _Read(
            None,
            None,
            [error(PlanCode.UNRECOGNISED_DOCUMENT, "", "the document is not a JSON object")],
        )
    for field, (kind, version) in _VERSIONS.items():
        if field in value:
            if value[field] != version:
                return _Read(
                    kind,
                    None,
                    [
                        error(
                            PlanCode.UNSUPPORTED_VERSION,
                            "/" + field,
                            f"{field} {value[field]!r} is not supported (only {version!r})",
                        )
                    ],
                )
            return _Read(kind, value, [])
    return _Read(
        None,
        None,
        [
            error(
                PlanCode.UNRECOGNISED_DOCUMENT,
                "",
                "not an ASIF session, continuation profile or destination report "
                "(no asif_version, profile_version or report_version)",
            )
        ],
    )


@dataclass(slots=True)
class _Checked:
    """A checked session or profile, kept so a report can be checked against it."""

    plans: list[PlanResult]
    binding: SessionBinding | None


def _check_source(
    raw: bytes,
    value: dict[str, JsonValue],
    kind: DocumentKind,
    plan_filter: str | None,
    findings: list[Finding],
) -> _Checked:
    core: CoreIndex | None = None
    if kind is DocumentKind.ASIF_SESSION:
        session, problems = validate_at(AsifSession, value)
        findings.extend(problems)
        if session is None:
            return _Checked([], None)
        if session.continuation is None:
            findings.append(
                error(
                    PlanCode.PROFILE_ACTIVATION_MISMATCH,
                    "/required_features",
                    f"the session does not use the portable-continuation profile ({FEATURE})",
                )
            )
            return _Checked([], None)
        schema = schema_findings("session", value)
        if schema:
            findings.extend(schema)
            return _Checked([], None)
        core = index_core(session, value, findings)
        check_core(core, findings)
        core.resource_bytes = resource_bytes(cast(list[JsonValue], value["resources"]), findings)
        check_core_events(value, core.resource_bytes, findings)
        history = core.history = SessionHistory(value)
        check_contexts(history, findings)
        check_checkpoints(history, findings)
        check_streams(value, core.resource_bytes, findings)
        profile_model, base, raw_profile = (
            session.continuation,
            "/continuation",
            value["continuation"],
        )
    else:
        parsed, problems = validate_at(ContinuationProfile, value)
        findings.extend(problems)
        if parsed is None:
            return _Checked([], None)
        schema = schema_findings("continuation", value)
        if schema:
            findings.extend(schema)
            return _Checked([], None)
        findings.append(
            Finding(
                PlanCode.CORE_CHECK_SKIPPED,
                Severity.INFO,
                "",
                "a bare profile: references into the ASIF session (checkpoints, contexts, "
                "resources, environments, tools) are not checked",
            )
        )
        profile_model, base, raw_profile = parsed, "", value
    profile = index_profile(profile_model, base, raw_profile, findings)
    check_profile(profile, core, findings)
    trees = workspace_trees(profile, findings)
    plans: list[PlanResult] = []
    facts: dict[str, PlanFacts] = {}
    for i, plan in enumerate(profile_model.plans):
        where = f"{base}/plans/{i}"
        wanted = plan_filter is None or plan.id == plan_filter
        if plan.id in facts and not wanted:
            continue
        graph = plan_graph(plan, where, profile, core, trees)
        blockers = plan_blockers(plan, where, profile, core, set(graph.nodes))
        if plan.id not in facts:
            facts[plan.id] = PlanFacts(plan, where, required_inventory(graph), blockers)
        if wanted:
            plans.append(plan_result(graph, where, profile, core, blockers))
    _uncovered_cycles(profile, plans, findings)
    if core is not None:
        _bindings(profile, core, findings)
        _plan_contexts(profile, core, findings)
    binding = None
    if core is not None:
        binding = SessionBinding(
            raw, core.session.session.id, core.session.capture.id, facts, profile, core, trees
        )
    return _Checked(plans, binding)


def _bindings(profile: ProfileIndex, core: CoreIndex, findings: list[Finding]) -> None:
    """§7 for each configuration some plan uses (rule roots are checked per plan)."""
    used = dict.fromkeys(p.configuration_id for p in profile.profile.plans)
    for config_id in used:
        config = core.configurations.get(config_id)
        binding = profile.bindings.get(config_id)
        if config is not None and binding is not None:
            findings.extend(check_binding(config, binding, profile.bindings.at(config_id)))


def _plan_contexts(profile: ProfileIndex, core: CoreIndex, findings: list[Finding]) -> None:
    """§4 for each context some plan selects: its tool inputs agree with their sources."""
    if core.history is None:
        return
    for context_id in dict.fromkeys(p.context_id for p in profile.profile.plans):
        found = context_calls(core.history, context_id)
        if found is not None:
            findings.extend(found.findings)


def _uncovered_cycles(
    profile: ProfileIndex, plans: list[PlanResult], findings: list[Finding]
) -> None:
    """Dependency cycles no listed plan already reports (§2: dependencies are acyclic)."""
    reported = [set(members) for plan in plans for members in plan.cycles]
    for members in dependency_cycles(profile):
        node_ids = {f"dependency:{m}" for m in members}
        if any(node_ids <= cycle for cycle in reported):
            continue
        findings.append(
            error(
                PlanCode.DEPENDENCY_CYCLE,
                profile.dependencies.at(members[0]) + "/depends_on",
                "dependencies form a cycle among " + ", ".join(members),
            )
        )


def _check_report_bytes(data: bytes, binding: SessionBinding | None, now: datetime) -> ReportResult:
    read = _read(data)
    if read.kind is not DocumentKind.CONTINUATION_REPORT or read.value is None:
        problems = read.findings or [
            error(PlanCode.UNRECOGNISED_DOCUMENT, "", "the report file is not a destination report")
        ]
        return ReportResult(None, None, None, None, (), tuple(problems))
    report, problems = validate_at(DestinationReport, read.value)
    if report is None:
        return ReportResult(None, None, None, None, (), tuple(problems))
    schema = schema_findings("continuation-report", read.value)
    if schema:
        return ReportResult(None, None, None, None, (), tuple(schema))
    return check_report(report, binding, now)


def inspect_continuation(
    data: bytes, *, now: datetime, plan_id: str | None = None, report: bytes | None = None
) -> InspectionResult:
    """Check ``data`` (and ``report`` against it) at the clock ``now``.

    ``data`` is the exact file bytes: a report binds them by SHA-256, so they are hashed
    as received and never re-serialised.
    """
    read = _read(data)
    findings = list(read.findings)
    if read.value is None or read.kind is None:
        return InspectionResult(read.kind, tuple(findings), (), None)
    if read.kind is DocumentKind.CONTINUATION_REPORT:
        alone = _check_report_bytes(data, None, now)
        return InspectionResult(read.kind, tuple(findings), (), alone)
    checked = _check_source(data, read.value, read.kind, plan_id, findings)
    report_result: ReportResult | None = None
    plans = tuple(checked.plans)
    if report is not None:
        report_result = _check_report_bytes(report, checked.binding, now)
        if read.kind is DocumentKind.CONTINUATION_PROFILE:
            report_result = _unbound(report_result)
        plans = tuple(_with_report_blockers(p, report_result) for p in plans)
    return InspectionResult(read.kind, tuple(findings), plans, report_result)


def _with_report_blockers(plan: PlanResult, report: ReportResult) -> PlanResult:
    """The plan the report assesses, with the blocker only the report can show (model fit)."""
    if report.plan_id != plan.id or report.model_fit is None:
        return plan
    found = model_fit_blocker(plan.id, report.model_fit)
    if found is None:
        return plan
    key, blocker = found
    nodes = tuple(
        replace(n, blockers=(*n.blockers, blocker)) if n.id == key.node_id else n
        for n in plan.nodes
    )
    return replace(plan, nodes=nodes)


def _unbound(result: ReportResult) -> ReportResult:
    """A report binds session bytes; a bare profile cannot be what it binds."""
    extra = error(
        PlanCode.REPORT_BINDING_MISMATCH,
        "/source/document_sha256",
        "a report binds an ASIF session's bytes; the file is a bare profile",
    )
    return replace(result, findings=(*result.findings, extra))
