"""`inspect_continuation`: bytes in, an `InspectionResult` out (never raises on content).

Recognises an ASIF 0.4 or 0.5 session (versions.py), a bare Continuation Profile Object
or a destination report, checks it, and optionally checks a report against the session
it binds (for 0.5, with the capability snapshot it embeds and the caller's current one).

Bounded for any input: a document's findings share one budget (`FINDINGS_LIMIT` in full,
then counted per code; the session's plans share the session's, a report has its own),
its schema is validated in bounded pieces, and the plans' prerequisite graphs together
may hold at most `PLAN_GRAPH_LIMIT` subjects and edges — a plan selects a dependency at
the head of a long chain in a few bytes, so ten thousand plans over one chain would
otherwise cost the square of the document's size. Plans past that are not checked, and
the document is refused with `plans_too_large`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import cast

from zcf_inspector.core.bounded_validation import prepare
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.blockers import model_fit_blocker, plan_blockers
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex, index_core, index_profile
from zcf_inspector.core.continuation.models.profile import ContinuationProfile
from zcf_inspector.core.continuation.models.report import DestinationReport
from zcf_inspector.core.continuation.models.schema_check import check_schema
from zcf_inspector.core.continuation.models.session import AsifSession
from zcf_inspector.core.continuation.models.v0_5 import (
    AsifSession05,
    ContinuationProfile03,
    DestinationReport03,
)
from zcf_inspector.core.continuation.models.validation import validate_at
from zcf_inspector.core.continuation.pulse import EVERY, current_monitor, pulsing, tick
from zcf_inspector.core.continuation.results import (
    InspectionResult,
    PlanResult,
    ReportResult,
)
from zcf_inspector.core.continuation.rules.bindings import check_binding
from zcf_inspector.core.continuation.rules.context_calls import context_calls
from zcf_inspector.core.continuation.rules.contexts import check_checkpoints, check_contexts
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
from zcf_inspector.core.continuation.rules.report import check_report
from zcf_inspector.core.continuation.rules.report_binding import DefinedPlan, SessionBinding
from zcf_inspector.core.continuation.rules.resource_bytes import resource_bytes
from zcf_inspector.core.continuation.rules.session_history import SessionHistory
from zcf_inspector.core.continuation.rules.streams import check_streams
from zcf_inspector.core.continuation.rules.workspace_state import workspace_trees
from zcf_inspector.core.continuation.version_check import mixed_report, read_versions
from zcf_inspector.core.continuation.versions import ASIF_0_4, ASIF_0_5, Contract
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.findings import FINDINGS_LIMIT, Finding, FindingBudget, Severity, error
from zcf_inspector.core.hostile.confusables import subject_pairs
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.reading import ReadError, read_json

# Validators built at import, before a large document takes the memory.
prepare(
    AsifSession,
    ContinuationProfile,
    DestinationReport,
    AsifSession05,
    ContinuationProfile03,
    DestinationReport03,
)

# Subjects and edges of all plans' graphs together (the 5,000-dependency benchmark plan
# has 25,016); past it, later plans are not checked.
PLAN_GRAPH_LIMIT = 250_000

# One model per version where they differ (models/v0_5.py); the rules are shared.
_SESSIONS: dict[Contract, type[AsifSession]] = {ASIF_0_4: AsifSession, ASIF_0_5: AsifSession05}
_PROFILES: dict[Contract, type[ContinuationProfile]] = {
    ASIF_0_4: ContinuationProfile,
    ASIF_0_5: ContinuationProfile03,
}
_REPORTS: dict[Contract, type[DestinationReport]] = {
    ASIF_0_4: DestinationReport,
    ASIF_0_5: DestinationReport03,
}


@dataclass(frozen=True, slots=True)
class _Read:
    kind: DocumentKind | None
    value: dict[str, JsonValue] | None
    findings: list[Finding]
    contract: Contract | None = None


def _read(data: bytes, parsed: JsonValue | None = None) -> _Read:
    try:
        # Exact numbers (ASIF: "integral JSON number", "MUST NOT silently round"); the
        # ±2^53 rule is the ZCF profile's, and ASIF bounds only where a schema says so.
        # ``parsed``: the caller's read of these very bytes in that mode (the opener
        # reads a file once), so they are not parsed a second time.
        value = (
            parsed if parsed is not None else read_json(data, exact=True, monitor=current_monitor())
        )
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
    declared = read_versions(value)
    if declared.kind is None:
        return _Read(None, None, declared.findings)
    if declared.findings or declared.contract is None:
        return _Read(declared.kind, None, declared.findings)
    return _Read(declared.kind, value, [], declared.contract)


@dataclass(slots=True)
class _Checked:
    """A checked session or profile, kept so a report can be checked against it."""

    plans: list[PlanResult]
    binding: SessionBinding | None
    core_only: bool = False  # a session checked without a continuation profile


def _check_source(
    raw: bytes,
    value: dict[str, JsonValue],
    kind: DocumentKind,
    *,
    contract: Contract,
    plan_filter: str | None,
    findings: FindingBudget,
    monitor: Monitor = NULL_MONITOR,
    files: Mapping[str, bytes] | None = None,
) -> _Checked:
    core: CoreIndex | None = None
    history: SessionHistory | None = None
    if kind is DocumentKind.ASIF_SESSION:
        session, _ = validate_at(_SESSIONS[contract], value, budget=findings)
        monitor.breathe()
        if session is None:
            return _Checked([], None)
        if not check_schema("session", value, findings, folder=contract.schemas):
            return _Checked([], None)
        core, history = _check_core_session(session, value, findings, monitor, files)
        if session.continuation is None:
            # A core session is a document of its own: the continuation profile is
            # optional (ASIF 0.5 SPEC; the reference's validate_document accepts every
            # example session without it). The model already refuses a session that
            # declares the profile feature without its data, or the reverse, with
            # profile_activation_mismatch; one with neither has no plan to check.
            return _Checked([], None, core_only=True)
        profile_model, base, raw_profile = (
            session.continuation,
            "/continuation",
            value["continuation"],
        )
    else:
        parsed, _ = validate_at(_PROFILES[contract], value, budget=findings)
        if parsed is None:
            return _Checked([], None)
        if not check_schema("continuation", value, findings, folder=contract.schemas):
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
    monitor.breathe()
    trees = workspace_trees(profile, findings, monitor)
    plans: list[PlanResult] = []
    facts: dict[str, DefinedPlan] = {}
    graph_size = 0
    plans_kept = 0
    for i, plan in enumerate(profile_model.plans):
        where = f"{base}/plans/{i}"
        wanted = plan_filter is None or plan.id == plan_filter
        if plan.id in facts and not wanted:
            continue
        if graph_size > PLAN_GRAPH_LIMIT:
            findings.append(_too_large(where, i, len(profile_model.plans), graph_size))
            break
        monitor.breathe()
        replayed = trees.work
        graph = plan_graph(plan, where, profile, core, trees)
        # A plan's workspace trees are made for it (when not kept from an earlier plan):
        # that costs as much as subjects do, so it counts against the same limit.
        graph_size += len(graph.nodes) + len(graph.edges) + trees.work - replayed
        blockers = plan_blockers(plan, where, profile, core, set(graph.nodes))
        if plan.id not in facts:
            facts[plan.id] = DefinedPlan(plan, where, required_inventory(graph), blockers)
        if wanted:
            result = plan_result(graph, where, profile, core, blockers, history=history)
            budget = FindingBudget(findings.limit - len(findings) - plans_kept)
            budget.extend(result.findings)
            plans_kept += len(budget)
            plans.append(replace(result, findings=tuple(budget), omitted=budget.omitted()))
    # What the plans kept counts against the document's budget too.
    findings.limit = max(len(findings), findings.limit - plans_kept)
    _uncovered_cycles(profile, plans, findings)
    if core is not None:
        _bindings(profile, core, findings)
        _plan_contexts(profile, history, findings)
    binding = None
    if core is not None:
        binding = SessionBinding(
            raw,
            core.session.session.id,
            core.session.capture.id,
            facts,
            profile,
            core,
            trees,
            contract,
        )
    return _Checked(plans, binding)


def _check_core_session(
    session: AsifSession,
    value: dict[str, JsonValue],
    findings: FindingBudget,
    monitor: Monitor,
    files: Mapping[str, bytes] | None,
) -> tuple[CoreIndex, SessionHistory]:
    """The core rules of an ASIF session (identities, causal order, branch heads, context
    and checkpoint boundaries, resource references and bytes, streams)."""
    monitor.breathe()  # between the checks: Cancel stops a large session here
    core = index_core(session, value, findings)
    check_core(core, findings)
    monitor.breathe()
    raw_resources = cast(list[JsonValue], value["resources"])
    core.resource_bytes = resource_bytes(raw_resources, findings, files)
    check_core_events(value, core.resource_bytes, findings)
    monitor.breathe()
    history = SessionHistory(value)
    check_contexts(history, findings)
    check_checkpoints(history, findings)
    check_streams(value, core.resource_bytes, findings)
    monitor.breathe()
    return core, history


def _too_large(where: str, index: int, count: int, size: int) -> Finding:
    return error(
        PlanCode.PLANS_TOO_LARGE,
        where,
        f"plans {index} to {count - 1} were not checked: the prerequisite graphs of the "
        f"plans before them already hold {size:,} subjects and edges (at most "
        f"{PLAN_GRAPH_LIMIT:,} are checked in one document)",
    )


def _bindings(profile: ProfileIndex, core: CoreIndex, findings: FindingBudget) -> None:
    """§7 for each configuration some plan uses (rule roots are checked per plan)."""
    used = dict.fromkeys(p.configuration_id for p in profile.profile.plans)
    for config_id in used:
        config = core.configurations.get(config_id)
        binding = profile.bindings.get(config_id)
        if config is not None and binding is not None:
            findings.extend(check_binding(config, binding, profile.bindings.at(config_id)))


def _plan_contexts(
    profile: ProfileIndex, history: SessionHistory | None, findings: FindingBudget
) -> None:
    """§4 for each context some plan selects: its tool inputs agree with their sources."""
    if history is None:
        return
    for context_id in dict.fromkeys(p.context_id for p in profile.profile.plans):
        found = context_calls(history, context_id)
        if found is not None:
            findings.extend(found.findings)


def _uncovered_cycles(
    profile: ProfileIndex, plans: list[PlanResult], findings: list[Finding]
) -> None:
    """Dependency cycles no listed plan already reports (§2: dependencies are acyclic)."""
    # The reported cycles that hold each node: a cycle covering another holds its first
    # member, so only those are looked at (comparing every pair of cycles cost the square
    # of their number: 16,000 two-dependency cycles took 4 s, 32,000 four times that).
    holding: dict[str, list[set[str]]] = {}
    for plan in plans:
        for reported in plan.cycles:
            cycle = set(reported)
            for member in reported:
                holding.setdefault(member, []).append(cycle)
    for members in dependency_cycles(profile):
        node_ids = {f"dependency:{m}" for m in members}
        if any(node_ids <= cycle for cycle in holding.get(f"dependency:{members[0]}", ())):
            continue
        findings.append(
            error(
                PlanCode.DEPENDENCY_CYCLE,
                profile.dependencies.at(members[0]) + "/depends_on",
                "dependencies form a cycle among " + ", ".join(members),
                f"dependency:{members[0]}",
            )
        )


def _check_report_bytes(
    data: bytes,
    binding: SessionBinding | None,
    now: datetime,
    limit: int,
    current: bytes | None = None,
    *,
    parsed: JsonValue | None = None,
) -> ReportResult:
    read = _read(data, parsed)
    tick(EVERY)  # a check point between reading the report and validating it
    budget = FindingBudget(limit)
    if read.kind is not DocumentKind.CONTINUATION_REPORT or read.value is None:
        problems = read.findings or [
            error(PlanCode.UNRECOGNISED_DOCUMENT, "", "the report file is not a destination report")
        ]
        return ReportResult(None, None, None, None, (), tuple(problems))
    contract = read.contract or ASIF_0_4
    if binding is not None and binding.contract is not contract:
        return ReportResult(None, None, None, None, (), (mixed_report(contract, binding.contract),))
    report, _ = validate_at(_REPORTS[contract], read.value, budget=budget)
    tick(EVERY)  # and another before its schema check
    if report is None:
        return ReportResult(None, None, None, None, (), tuple(budget), omitted=budget.omitted())
    if not check_schema("continuation-report", read.value, budget, folder=contract.schemas):
        return ReportResult(None, None, None, None, (), tuple(budget), omitted=budget.omitted())
    result = check_report(report, binding, now, current)
    budget.extend(result.findings)
    return replace(result, findings=tuple(budget), omitted=budget.omitted())


def inspect_continuation(
    data: bytes,
    *,
    now: datetime,
    plan_id: str | None = None,
    report: bytes | None = None,
    findings_limit: int = FINDINGS_LIMIT,
    monitor: Monitor = NULL_MONITOR,
    current_capabilities: bytes | None = None,
    parsed: JsonValue | None = None,
    report_parsed: JsonValue | None = None,
    files: Mapping[str, bytes] | None = None,
) -> InspectionResult:
    """Check ``data`` (and ``report`` against it) at the clock ``now``.

    ``data`` is the exact file bytes: a report binds them by SHA-256, so they are hashed
    as received and never re-serialised. ``findings_limit``: findings kept in full per
    document (see the module). ``monitor``: cancellation points between the checks and
    inside the long ones (workspace trees, the plan loop, and every `pulse.EVERY` items
    of the schema checks and the rules' loops). ``current_capabilities``: the
    caller's current destination snapshot bytes, compared exactly with those an ASIF 0.5
    report binds (CAPABILITIES.md). ``parsed`` and ``report_parsed``: the values the
    caller already read from ``data`` and ``report`` with exact numbers (the opener's one
    read of each file); the bytes are then hashed and bound, not parsed again.
    ``files``: the bytes of the files the session's embedded ``path`` resources name (a
    package's members, keyed by member name); with it each such resource's length and
    SHA-256 are checked and a missing one refused, without it they are reported as not
    checked (only the session's bytes were read).
    """
    with pulsing(monitor):  # the points inside the rules' and schemas' loops (pulse.py)
        return _inspect(
            data,
            now=now,
            plan_id=plan_id,
            report=report,
            findings_limit=findings_limit,
            monitor=monitor,
            current_capabilities=current_capabilities,
            parsed=(parsed, report_parsed),
            files=files,
        )


def require_plan(result: InspectionResult, plan_id: str | None, name: str = "the document") -> None:
    """Refuse a plan filter that names no plan of a session or profile the rules accepted.

    A filter that matches nothing would otherwise look like a document with no plans to
    check — a clean result for a typo — so the CLI (``--plan``) and the API both raise
    this one error. A refused document keeps its findings: the plans were never listed.
    """
    if (
        plan_id is not None
        and result.kind in (DocumentKind.ASIF_SESSION, DocumentKind.CONTINUATION_PROFILE)
        and not result.plans
        and result.ok
    ):
        raise InputError(f"{name} has no plan {plan_id!r}")


def _inspect(
    data: bytes,
    *,
    now: datetime,
    plan_id: str | None,
    report: bytes | None,
    findings_limit: int,
    monitor: Monitor,
    current_capabilities: bytes | None,
    parsed: tuple[JsonValue | None, JsonValue | None] = (None, None),
    files: Mapping[str, bytes] | None = None,
) -> InspectionResult:
    read = _read(data, parsed[0])
    findings = FindingBudget(findings_limit)
    findings.extend(read.findings)
    if read.value is None or read.kind is None:
        return InspectionResult(read.kind, tuple(findings), (), None, findings.omitted())
    if read.kind is DocumentKind.CONTINUATION_REPORT:
        alone = _check_report_bytes(
            data, None, now, findings_limit, current_capabilities, parsed=read.value
        )
        return InspectionResult(read.kind, tuple(findings), (), alone, findings.omitted())
    contract = read.contract or ASIF_0_4
    checked = _check_source(
        data,
        read.value,
        read.kind,
        contract=contract,
        plan_filter=plan_id,
        findings=findings,
        monitor=monitor,
        files=files,
    )
    report_result: ReportResult | None = None
    plans = tuple(checked.plans)
    if report is not None:
        monitor.breathe()  # between the session and its report: Cancel stops here too
        report_result = _check_report_bytes(
            report, checked.binding, now, findings_limit, current_capabilities, parsed=parsed[1]
        )
        if read.kind is DocumentKind.CONTINUATION_PROFILE:
            report_result = _unbound(report_result)
        plans = tuple(_with_report_blockers(p, report_result) for p in plans)
    # Look-alike subject ids (`core.hostile`): a destination resolves a plan by them.
    findings.extend(p.to_finding() for p in subject_pairs(plans, monitor))
    return InspectionResult(
        read.kind,
        tuple(findings),
        plans,
        report_result,
        findings.omitted(),
        core_only=checked.core_only,
    )


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
