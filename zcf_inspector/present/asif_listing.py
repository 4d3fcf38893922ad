"""The ASIF listing: each plan node's facts, and every finding, blocker and note attached
to the node it is about — what the plan graph, the findings pane and the tree show.

No Qt here: the facts are plain data, so the scene only draws. What blocks is the core's
§11 rule (`SubjectAssessment.blocking`), never re-derived here. Everything is attached
to its node by identity: a finding by the subject its rule named (`Finding.subject`), a
known blocker and a report's blocking reason by their node's ID.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core.continuation.results import (
    Blocker,
    BlockingReason,
    ComponentBinding,
    InspectionResult,
    PlanNode,
    PlanResult,
    SnapshotComponent,
    SubjectAssessment,
)
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import Finding, Severity


class Note(StrEnum):
    """A listed row that is not a finding of the checks: what the report itself says."""

    BLOCKING_REASON = "blocking_reason"


@dataclass(frozen=True, slots=True)
class ListedFinding:
    """One finding in the pane's list, and the node it selects (if any)."""

    finding: Finding
    source: str  # "plan", "document", "report", "known blocker" or "report reason"
    node_id: str | None


@dataclass(frozen=True, slots=True)
class NodeFacts:
    node: PlanNode
    in_cycle: bool
    assessment: SubjectAssessment | None  # from a destination report for this plan
    findings: tuple[Finding, ...]
    reasons: tuple[BlockingReason, ...] = ()  # the report's blocking reasons for this node
    # ASIF 0.5: the snapshot components the assessment names, and the one of its kind.
    binding: ComponentBinding | None = None
    component: SnapshotComponent | None = None

    @property
    def binding_problem(self) -> bool:
        """The assessment's component binding is missing or does not agree (a finding)."""
        return self.binding is not None and bool(self.binding.problems)

    @property
    def status(self) -> str | None:
        return None if self.assessment is None else self.assessment.status

    @property
    def blockers(self) -> tuple[Blocker, ...]:
        """Known blockers: the session shows this subject cannot be claimed supported."""
        return self.node.blockers

    @property
    def blocking(self) -> bool:
        """A required subject the report marks omitted, unresolved or unsupported (§11)."""
        return self.assessment is not None and self.assessment.blocking


@dataclass(frozen=True, slots=True)
class PlanFacts:
    plan: PlanResult
    nodes: dict[str, NodeFacts]
    findings: tuple[ListedFinding, ...]
    has_report: bool  # a destination report assessed this plan

    @property
    def blocking(self) -> tuple[str, ...]:
        return tuple(sorted(n for n, f in self.nodes.items() if f.blocking))

    @property
    def known_blockers(self) -> tuple[str, ...]:
        return tuple(sorted(n for n, f in self.nodes.items() if f.blockers))


def finding_node(known: Collection[str], finding: Finding) -> str | None:
    """The node a finding is about: the subject its rule named (`Finding.subject`), when
    the plan inventories that subject (``known``: the plan's node IDs); otherwise none.

    Never guessed from the pointer: a pointer at one subject's field (a dependency's
    ``depends_on`` entry, an assessment of the report) may be about another subject.
    """
    subject = finding.subject
    return subject if subject is not None and subject in known else None


def plan_facts(result: InspectionResult, plan: PlanResult) -> PlanFacts:
    report = result.report
    assessed = report is not None and report.plan_id == plan.id
    by_subject: dict[str, SubjectAssessment] = {}
    if report is not None and assessed:
        by_subject = {s.node_id: s for s in report.subjects}
    known = {n.id for n in plan.nodes}
    listed: list[ListedFinding] = [
        ListedFinding(f, "plan", finding_node(known, f)) for f in plan.findings
    ]
    listed += [ListedFinding(f, "document", finding_node(known, f)) for f in result.findings]
    bound = _bindings(result) if assessed else {}
    if report is not None and assessed:
        # Report pointers point into the report, not the session; a report finding
        # about an assessed subject lands on that subject's node all the same.
        listed += [ListedFinding(f, "report", finding_node(known, f)) for f in report.findings]
    per_node: dict[str, list[Finding]] = {}
    for item in listed:
        if item.node_id is not None:
            per_node.setdefault(item.node_id, []).append(item.finding)
    listed += [ListedFinding(f, "known blocker", node) for node, f in blocker_findings(plan)]
    reasons: dict[str, list[BlockingReason]] = {}
    if report is not None and assessed:
        for reason in report.blocking_reasons:
            node_id = reason.node_id if reason.node_id in known else None
            listed.append(ListedFinding(reason_finding(reason), "report reason", node_id))
            reasons.setdefault(reason.node_id, []).append(reason)
    cyclic = {member for cycle in plan.cycles for member in cycle}
    cyclic |= {e.source for e in plan.edges if e.in_cycle}
    cyclic |= {e.target for e in plan.edges if e.in_cycle}
    snapshot = None if report is None or not assessed else report.snapshot
    by_node = {b.node_id: b for b in bound.values()}
    nodes = {}
    for n in plan.nodes:
        binding = by_node.get(n.id)
        component = None
        if snapshot is not None and binding is not None and binding.matching is not None:
            component = snapshot.component(binding.matching)
        nodes[n.id] = NodeFacts(
            n,
            n.id in cyclic,
            by_subject.get(n.id),
            tuple(per_node.get(n.id, ())),
            tuple(reasons.get(n.id, ())),
            binding,
            component,
        )
    return PlanFacts(plan, nodes, tuple(listed), assessed)


def other_subjects(
    result: InspectionResult, plan: PlanResult
) -> tuple[dict[str, NodeFacts], dict[str, PlanResult]]:
    """Subjects the document's other plans inventory and ``plan`` does not (what the
    graph's "All subjects" draws beside it), each with its facts in the first plan that
    has it, and that plan."""
    own = {n.id for n in plan.nodes}
    facts: dict[str, NodeFacts] = {}
    source: dict[str, PlanResult] = {}
    for other in result.plans:
        if other is plan or other.id == plan.id:
            continue
        missing = [n.id for n in other.nodes if n.id not in own and n.id not in facts]
        if not missing:
            continue
        other_facts = plan_facts(result, other)
        for node_id in missing:
            facts[node_id] = other_facts.nodes[node_id]
            source[node_id] = other
    return facts, source


def next_match(
    node_ids: Iterable[str], needle: str, previous: list[str], current: str | None
) -> tuple[list[str], str | None]:
    """The node IDs containing ``needle`` (casefolded), sorted, and the one Find selects:
    an exact match, else the one after ``current`` when the matches are the ``previous``
    ones (Find again cycles), else the first; None when nothing matches."""
    matches = sorted(n for n in node_ids if needle in n.casefold())
    if not matches:
        return matches, None
    exact = [n for n in matches if n.casefold() == needle]
    if exact:
        return matches, exact[0]
    if matches == previous and current in matches:
        return matches, matches[(matches.index(current) + 1) % len(matches)]
    return matches, matches[0]


def _bindings(result: InspectionResult) -> dict[str, ComponentBinding]:
    """The report's component bindings by assessment pointer (/assessments/N)."""
    snapshot = None if result.report is None else result.report.snapshot
    if snapshot is None:
        return {}
    return {b.pointer: b for b in snapshot.bindings}


def blocker_finding(node: PlanNode, blocker: Blocker, plans: str = "") -> Finding:
    """A known blocker as a row of a findings list: a warning when the subject is required
    (the plan cannot be ready anywhere), otherwise information."""
    need = "required" if node.required else "optional"
    where = f" in plan {plans}" if plans else ""
    return Finding(
        blocker.code,
        Severity.WARNING if node.required else Severity.INFO,
        blocker.pointer,
        f"known blocker: {node.id} ({need}{where}) cannot be claimed supported — {blocker.reason}",
    )


def blocker_findings(plan: PlanResult) -> list[tuple[str, Finding]]:
    return [(n.id, blocker_finding(n, b)) for n in plan.nodes for b in n.blockers]


def reason_finding(reason: BlockingReason) -> Finding:
    return Finding(
        Note.BLOCKING_REASON,
        Severity.INFO,
        reason.pointer,
        f"the report's blocking reason for {reason.node_id}: {reason.reason}",
    )


def document_notes(result: InspectionResult) -> tuple[list[Finding], list[Finding]]:
    """Rows for the window's findings pane: (pointing into the session, into the report).

    Known blockers the session shows point into the session; the report's blocking reasons
    and the blocker only a report shows (model fit) point into the report. A blocker
    shared by several plans (a resource every plan inventories) is one row that names the
    plans; it is a warning when any of them requires the subject.
    """
    merged: dict[tuple[str, str, str], tuple[PlanNode, Blocker, list[str]]] = {}
    for plan in result.plans:
        for node in plan.nodes:
            for blocker in node.blockers:
                key = (str(blocker.code), blocker.pointer, node.id)
                if key in merged:
                    first, _, plans = merged[key]
                    plans.append(plan.id)
                    if node.required and not first.required:
                        merged[key] = (node, blocker, plans)
                else:
                    merged[key] = (node, blocker, [plan.id])
    rows = [
        (blocker.in_report, blocker_finding(node, blocker, ", ".join(plans)))
        for node, blocker, plans in merged.values()
    ]
    report = result.report
    reasons = [reason_finding(r) for r in report.blocking_reasons] if report is not None else []
    in_session = [f for in_report, f in rows if not in_report]
    return in_session, [*(f for in_report, f in rows if in_report), *reasons]


def findings_listing(
    result: InspectionResult, report_name: str = ""
) -> tuple[tuple[Finding, ...], tuple[str, ...]]:
    """Every row of the findings pane, and for each the file it points into: "" for the
    shown document (the session: its findings, its plans' and the known blockers), the
    report's name (``report_name``) for the report's findings and notes when the report
    was checked beside its session."""
    local = [*result.findings, *(f for plan in result.plans for f in plan.findings)]
    blockers, report_notes = document_notes(result)
    local += blockers
    report = result.report
    report_rows = (*(report.findings if report is not None else ()), *report_notes)
    beside = report_name if result.kind is not DocumentKind.CONTINUATION_REPORT else ""
    return (*local, *report_rows), ("",) * len(local) + (beside,) * len(report_rows)


def subject_text(node: PlanNode) -> str:
    """The node's second line: its ID within the type, with the owner for scoped kinds."""
    return node.subject_id if node.owner is None else f"{node.owner}/{node.subject_id}"


def referenced_by_text(node: PlanNode, limit: int = 2) -> str:
    """``referenced by a, b (+3 more)``: what a missing node's ghost names."""
    if not node.referenced_by:
        return "referenced by nothing"
    shown = ", ".join(node.referenced_by[:limit])
    more = len(node.referenced_by) - limit
    return f"referenced by {shown}" + (f" (+{more} more)" if more > 0 else "")
