"""The side pane's text for one node: whether it is required and why, its flags, the
edge it entered by, neighbours, assessment and findings (the "why" chain is shown above
it and its object as a tree below it: `detail_pane`).

Plain text only (shown in a read-only ``QPlainTextEdit``); document strings go through
`visible`, line by line, so bidi overrides and other invisible characters show as
escapes.
"""

from __future__ import annotations

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.core.continuation.why import relation_label, subject_words
from zcf_inspector.gui.plain_text import visible
from zcf_inspector.gui.plangraph import style
from zcf_inspector.gui.plangraph.relations import requirement_line
from zcf_inspector.present.asif_listing import NodeFacts
from zcf_inspector.present.reach import Reach

_LIST_LIMIT = 12


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _names(label: str, ids: tuple[str, ...]) -> list[str]:
    if not ids:
        return [f"{label}: none"]
    lines = [f"{label} ({len(ids)}):"]
    lines += [f"  {visible(i)}" for i in ids[:_LIST_LIMIT]]
    if len(ids) > _LIST_LIMIT:
        lines.append(f"  … and {len(ids) - _LIST_LIMIT} more")
    return lines


def node_details(plan: PlanResult, facts: NodeFacts, reach: Reach) -> str:
    node = facts.node
    lines = [
        visible(node.id),
        requirement_line(plan, node),
        f"type: {visible(node.type)}",
        f"selected by the plan: {_yes(node.selected)}   required: {_yes(node.required)}"
        f"   missing: {_yes(node.missing)}   in a cycle: {_yes(facts.in_cycle)}",
    ]
    if node.via is not None:
        lines.append(
            f"entered by: {node.via.kind} ({relation_label(node.via.kind)}) from"
            f" {visible(subject_words(node.via.source))}, field {visible(node.via.pointer)}"
        )
    lines += [
        "",
        *_names("needs", reach.needs.get(node.id, ())),
        *_names("needed by", reach.needed_by.get(node.id, ())),
    ]
    if node.missing:
        lines += ["", "Missing: " + ", ".join(visible(r) for r in node.referenced_by) + " need it"]
    if facts.blockers:
        lines += ["", f"Known blockers ({len(facts.blockers)}): no report may claim it supported"]
        for blocker in facts.blockers:
            where = "the report" if blocker.in_report else "the session"
            lines.append(
                f"  {style.KNOWN_BLOCKER_MARK} {blocker.code}: {visible(blocker.reason)}"
                f"  ({where} at {visible(blocker.pointer)})"
            )
    for reason in facts.reasons:
        lines += ["", f"The report's blocking reason: {visible(reason.reason)}"]
    assessment = facts.assessment
    if assessment is not None:
        lines += [
            "",
            f"Assessment: {visible(assessment.status or '(none)')}"
            + ("   ⚑ blocks the report" if facts.blocking else ""),
            f"  reported required: {assessment.reported_required}"
            f"   computed required: {assessment.computed_required}"
            f"   assessments naming it: {assessment.assessments}",
        ]
    lines += _binding_lines(facts)
    lines += ["", f"Findings ({len(facts.findings)}):" if facts.findings else "Findings: none"]
    for finding in facts.findings:
        lines.append(
            f"  {finding.severity} {finding.code} at {visible(finding.pointer) or '(document)'}:"
            f" {visible(finding.message)}"
        )
    return "\n".join(lines)


def _binding_lines(facts: NodeFacts) -> list[str]:
    """ASIF 0.5: the destination snapshot components the assessment is bound to."""
    binding = facts.binding
    if binding is None:
        return []
    named = ", ".join(visible(i) for i in binding.component_ids) or "none"
    lines = ["", f"Destination components named: {named}"]
    component = facts.component
    if component is not None:
        lines.append(
            f"  bound to {visible(component.id)}: {visible(component.kind)}, "
            f"{visible(component.status)}, revision {visible(component.revision)}"
            f" (snapshot {visible(component.pointer)})"
        )
    elif binding.matching is None and not binding.problems:
        lines.append("  no component of its kind is needed (or it is not claimed supported)")
    if binding.problems:
        lines.append("  binding problems: " + ", ".join(binding.problems))
    return lines
