"""Frozen results of the continuation checks: what the CLI prints and the graph view draws."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core.codes import BlockerCode

# One enumeration of kinds for every layer: the continuation kinds are three of its members.
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import Finding, OmittedFindings, Severity, has_error
from zcf_inspector.core.jsontypes import JsonValue

# §11: a required subject assessed with one of these statuses blocks the plan.
BLOCKING_STATUSES = frozenset({"omitted", "unresolved", "unsupported"})


@dataclass(frozen=True, slots=True)
class Blocker:
    """Why a subject cannot be claimed supported or adapted (derived, never reported)."""

    code: BlockerCode
    reason: str
    pointer: str  # where the session (or, with in_report, the report) shows it
    in_report: bool = False


@dataclass(frozen=True, slots=True)
class PlanNode:
    """One inventoried subject of a plan's prerequisite graph."""

    id: str  # TYPE:ID, or TYPE:OWNER/ID for owner-scoped subjects
    type: str
    subject_id: str
    owner: str | None
    selected: bool  # named by the plan's own selection fields
    required: bool  # computed by §10a monotonic propagation
    missing: bool  # resolves nowhere, or a dependency the plan does not select
    pointer: str | None  # where the subject is declared, when it resolves
    referenced_by: tuple[str, ...]  # node IDs with a prerequisite edge to this node
    blockers: tuple[Blocker, ...] = ()  # known blockers (blockers.py)
    via: PlanEdge | None = None  # the edge by which the walk reached it (None: the plan)


@dataclass(frozen=True, slots=True)
class PlanEdge:
    """One relation between two inventoried subjects (``kind``: an ``EdgeKind`` value).

    A prerequisite edge says the source needs the target (the required flag flows along
    it); a selection edge says the source names the target, which is inventoried for it.
    """

    source: str
    target: str
    kind: str
    pointer: str  # the field that makes the reference
    in_cycle: bool
    prerequisite: bool = True


@dataclass(frozen=True, slots=True)
class Closure:
    """The dependency closure the plan needs, and the part of it the plan does not select."""

    dependencies: tuple[str, ...]
    missing: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlanResult:
    id: str
    pointer: str
    next_action: str
    active_scopes: tuple[str, ...]
    nodes: tuple[PlanNode, ...]
    edges: tuple[PlanEdge, ...]
    closure: Closure
    cycles: tuple[tuple[str, ...], ...]
    findings: tuple[Finding, ...]  # those the document's findings budget kept in full
    omitted: tuple[OmittedFindings, ...] = ()  # counted past it

    def node(self, node_id: str) -> PlanNode | None:
        return next((n for n in self.nodes if n.id == node_id), None)

    @property
    def ok(self) -> bool:
        return not has_error(self.findings) and not _omitted_error(self.omitted)


@dataclass(frozen=True, slots=True)
class SubjectAssessment:
    """How a report assessed one subject, next to what the plan computed for it."""

    node_id: str
    kind: str
    subject_id: str
    owner: str | None
    computed_required: bool | None  # None: not in the computed inventory (or no session)
    reported_required: bool | None  # None: the report has no assessment for it
    status: str | None
    assessments: int  # how many assessments name this subject (exactly one is valid)

    @property
    def blocking(self) -> bool:
        """§11: a required subject (as computed; as reported when the plan has no such
        subject) the report marks omitted, unresolved or unsupported."""
        if self.status not in BLOCKING_STATUSES:
            return False
        required = self.computed_required
        return bool(self.reported_required if required is None else required)


@dataclass(frozen=True, slots=True)
class BlockingReason:
    """One of the report's own `blocking_reasons`: a subject and the report's reason text."""

    node_id: str
    reason: str
    pointer: str  # /blocking_reasons/N in the report


@dataclass(frozen=True, slots=True)
class ReportTimes:
    """The report's validity window and the clock it was checked at (all as given/ISO)."""

    assessed_at: str
    expires_at: str
    checked_at: str  # the clock (`--now`, or the window's "Assess at")
    expired: bool  # the clock is at or past expires_at
    premature: bool = False  # the clock is before assessed_at


class SnapshotState(StrEnum):
    """What became of the capability snapshot an ASIF 0.5 report binds (CAPABILITIES.md)."""

    VERIFIED = "verified"  # exact bytes, digest, object, times, evidence and bindings hold
    REFUSED = "refused"  # supplied, but some rule of the contract fails
    UNAVAILABLE = "unavailable"  # no bytes supplied, or an unsupported format/version


class CurrentState(StrEnum):
    """The caller's current snapshot bytes against the report's (``--current-capabilities``)."""

    MATCHES = "matches"  # byte for byte: the destination is still what was assessed
    DIFFERS = "differs"  # any difference invalidates the whole report
    UNVERIFIED = "unverified"  # the report's own snapshot was not verified: nothing to compare


@dataclass(frozen=True, slots=True)
class SnapshotComponent:
    """One component of the snapshot inventory (``value``: its JSON, extensions kept)."""

    id: str
    kind: str
    status: str
    revision: str
    pointer: str  # inside the snapshot: /components/N
    value: dict[str, JsonValue]


@dataclass(frozen=True, slots=True)
class ComponentBinding:
    """The components one assessment names, and what the binding table makes of them."""

    node_id: str
    pointer: str  # /assessments/N
    component_ids: tuple[str, ...]
    matching: str | None  # the bound component of the subject's kind, when exactly one
    problems: tuple[str, ...]  # finding codes about this binding (empty: it holds)


@dataclass(frozen=True, slots=True)
class SnapshotResult:
    state: SnapshotState
    format: str
    availability: str
    digest: str | None  # SHA-256 of the supplied bytes as decoded
    size: int | None  # their length
    value: JsonValue  # the snapshot object parsed from those bytes (None when unreadable)
    components: tuple[SnapshotComponent, ...] = ()
    bindings: tuple[ComponentBinding, ...] = ()
    current: CurrentState | None = None  # None: no current snapshot given
    changes: tuple[str, ...] = ()  # what differs in the current snapshot, in words

    def component(self, ident: str) -> SnapshotComponent | None:
        return next((c for c in self.components if c.id == ident), None)

    def binding(self, node_id: str) -> ComponentBinding | None:
        return next((b for b in self.bindings if b.node_id == node_id), None)


@dataclass(frozen=True, slots=True)
class ReportResult:
    id: str | None
    plan_id: str | None
    outcome: str | None
    recomputed_outcome: str | None
    subjects: tuple[SubjectAssessment, ...]
    findings: tuple[Finding, ...]  # those the report's findings budget kept in full
    blocking_reasons: tuple[BlockingReason, ...] = ()
    times: ReportTimes | None = None
    model_fit: str | None = None  # the report's model_assessment.fit
    omitted: tuple[OmittedFindings, ...] = ()  # counted past the budget
    snapshot: SnapshotResult | None = None  # ASIF 0.5 reports: the bound destination snapshot
    report_version: str | None = None

    @property
    def ok(self) -> bool:
        return not has_error(self.findings) and not _omitted_error(self.omitted)

    @property
    def blocking(self) -> tuple[str, ...]:
        """The subjects (node IDs) that block the plan by §11, each once, in order."""
        return tuple(sorted({s.node_id for s in self.subjects if s.blocking}))


@dataclass(frozen=True, slots=True)
class InspectionResult:
    """Everything `plan` reports about one file (and, optionally, one report)."""

    kind: DocumentKind | None
    findings: tuple[Finding, ...]  # document-level findings (those kept in full)
    plans: tuple[PlanResult, ...]
    report: ReportResult | None
    omitted: tuple[OmittedFindings, ...] = ()  # document-level findings counted past the budget
    # An ASIF session without the (optional) portable-continuation profile: a core
    # session, checked by the core rules alone, with no plan to assess.
    core_only: bool = False

    def all_findings(self) -> tuple[Finding, ...]:
        out = list(self.findings)
        for plan in self.plans:
            out.extend(plan.findings)
        if self.report is not None:
            out.extend(self.report.findings)
        return tuple(out)

    def all_omitted(self) -> tuple[OmittedFindings, ...]:
        out = list(self.omitted)
        for plan in self.plans:
            out.extend(plan.omitted)
        if self.report is not None:
            out.extend(self.report.omitted)
        return tuple(out)

    @property
    def ok(self) -> bool:
        return not has_error(self.all_findings()) and not _omitted_error(self.all_omitted())


def _omitted_error(omitted: tuple[OmittedFindings, ...]) -> bool:
    return any(o.severity is Severity.ERROR for o in omitted)
