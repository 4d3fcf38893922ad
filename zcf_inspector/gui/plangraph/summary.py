"""Plain-text summaries of a plan: the status line and the side pane with no selection."""

from __future__ import annotations

from zcf_inspector.gui.plain_text import visible
from zcf_inspector.gui.plangraph import style
from zcf_inspector.present.asif import plan_counts
from zcf_inspector.present.asif_listing import PlanFacts


def _listed(ids: tuple[str, ...]) -> str:
    return ", ".join(visible(i) for i in ids) or "none"


def summary_line(facts: PlanFacts) -> str:
    plan = facts.plan
    blocking = len(facts.blocking) if facts.has_report else None
    counts = plan_counts(plan, len(facts.known_blockers), blocking)  # `plan`'s words
    return " · ".join((f"plan {visible(plan.id)}", *counts))


def plan_summary(facts: PlanFacts) -> str:
    plan = facts.plan
    lines = [
        f"Plan {visible(plan.id)}",
        f"next action: {visible(plan.next_action)}",
        f"active scopes: {', '.join(plan.active_scopes)}",
        f"subjects: {len(plan.nodes)}   edges: {len(plan.edges)}",
        f"dependency closure: {_listed(plan.closure.dependencies)}",
        f"missing from the closure: {_listed(plan.closure.missing)}",
    ]
    for cycle in plan.cycles:
        lines.append("cycle: " + " → ".join(visible(m) for m in cycle))
    known = facts.known_blockers
    lines.append("")
    lines.append(
        f"known blockers ({len(known)}), which no report may claim supported:"
        if known
        else "known blockers: none"
    )
    for node_id in known:
        node = facts.nodes[node_id]
        need = "required" if node.node.required else "optional"
        codes = ", ".join(str(b.code) for b in node.blockers)
        lines.append(f"  {style.KNOWN_BLOCKER_MARK} {visible(node_id)} ({need}): {codes}")
    if facts.has_report:
        blocking = facts.blocking
        lines.append("")
        lines.append(f"blocking subjects ({len(blocking)}):" if blocking else "blocking: none")
        for node_id in blocking:
            reasons = facts.nodes[node_id].reasons
            said = f" — {visible(reasons[0].reason)}" if reasons else ""
            lines.append(f"  ⚑ {visible(node_id)} ({facts.nodes[node_id].status}){said}")
    lines += ["", "Click a node to see its object, findings and assessment."]
    lines.append("Shift+click a second node for the path between them. Arrows move, F fits.")
    return "\n".join(lines)
