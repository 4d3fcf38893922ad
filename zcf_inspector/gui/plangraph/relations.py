"""Words for the plan graph's relations: the "why" of a subject, an edge's hover text.

No Qt: the pane, the tooltips and the tests read the same sentences, built from the
core's results (`core/continuation/why.py`, `EdgeKind`). Document strings go through
`visible`, so nothing in them hides or reorders the text.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from zcf_inspector.core.continuation.results import PlanEdge, PlanNode, PlanResult
from zcf_inspector.core.continuation.why import (
    relation_label,
    relation_meaning,
    subject_words,
    why_text,
)
from zcf_inspector.core.visible_text import visible

Point = tuple[float, float]


def why_line(plan: PlanResult, node: PlanNode) -> str:
    """``Why: plan p → context c (context_id) → resource r (input)``."""
    if node.via is None:
        return f"Why: {visible(subject_words(node.id))} is the plan being assessed"
    return "Why: " + visible(why_text(plan, node))


def requirement_line(plan: PlanResult, node: PlanNode) -> str:
    """Required or optional, and the reason the core's flags give."""
    if not node.required:
        return "Optional: nothing required needs it (inventoried, not required)"
    needed_by = [
        e for e in plan.edges if e.prerequisite and e.target == node.id and _required(plan, e)
    ]
    if needed_by:
        first = needed_by[0]
        others = len(needed_by) - 1
        more = (
            f" ({others} more required subject{'s need' if others > 1 else ' needs'} it)"
            if others
            else ""
        )
        return (
            f"Required: needed by {visible(subject_words(first.source))}"
            f" ({relation_label(first.kind)}), which is required{more}"
        )
    if node.type in _ALWAYS:
        return "Required: always, whatever the next action (§10a)"
    if node.type == "dependency":
        scopes = ", ".join(plan.active_scopes)
        return f"Required: its required_for meets the active scopes ({scopes})"
    return f"Required: directly, for the next action {visible(plan.next_action)} (§10a table)"


# Subjects §10a requires for every action (a policy only when enforcing: an optional one
# never reaches the line above).
_ALWAYS = frozenset({"plan", "configuration", "feature", "policy"})


def _required(plan: PlanResult, edge: PlanEdge) -> bool:
    source = plan.node(edge.source)
    return source is not None and source.required


def edge_text(edge: PlanEdge) -> str:
    """What an edge says, for its hover text: ends, relation, field, and its kind."""
    what = (
        "prerequisite: the source needs it (the required flag flows along it)"
        if edge.prerequisite
        else "selection: inventoried by it, not thereby required"
    )
    lines = [
        f"{visible(subject_words(edge.source))} → {visible(subject_words(edge.target))}",
        f"{edge.kind} ({relation_label(edge.kind)}): {relation_meaning(edge.kind)}",
        f"field: {visible(edge.pointer)}",
        what,
    ]
    if edge.in_cycle:
        lines.append("part of a prerequisite cycle")
    return "\n".join(lines)


def path_nodes(path: Iterable[PlanEdge], start: str) -> tuple[str, ...]:
    """The nodes along ``path`` (edges from ``start``), ``start`` first."""
    return (start, *(e.target for e in path))


def distance_to_route(point: Point, route: Sequence[Point]) -> float:
    """Shortest distance from ``point`` to the polyline ``route``."""
    px, py = point
    best = math.inf
    for (ax, ay), (bx, by) in itertools.pairwise(route):
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
        best = min(best, math.hypot(px - (ax + t * dx), py - (ay + t * dy)))
    return best
