"""Why a subject is in a plan's inventory: the chain of edges the walk took to reach it.

Every node but the plan records the edge by which the §10a walk first reached it
(:attr:`PlanNode.via`); following those back from any subject ends at the plan node,
because the walk only ever adds a subject from one already inventoried.
"""

from __future__ import annotations

from zcf_inspector.core.continuation.results import PlanEdge, PlanNode, PlanResult
from zcf_inspector.core.continuation.subjects import EdgeKind


def entry_path(plan: PlanResult, node_id: str) -> tuple[PlanEdge, ...] | None:
    """The edges from the plan node to ``node_id`` (empty for the plan itself).

    ``None`` when ``node_id`` is not in the plan's inventory.
    """
    by_id = {n.id: n for n in plan.nodes}
    node = by_id.get(node_id)
    if node is None:
        return None
    chain: list[PlanEdge] = []
    # Each step moves to a subject inventoried earlier, so this ends within len(nodes).
    for _ in range(len(by_id)):
        if node.via is None:
            break
        chain.append(node.via)
        parent = by_id.get(node.via.source)
        if parent is None:
            break
        node = parent
    chain.reverse()
    return tuple(chain)


def subject_words(node_id: str) -> str:
    """``TYPE:ID`` written as ``TYPE ID`` (``TYPE OWNER/ID`` for owner-scoped subjects)."""
    kind, _, rest = node_id.partition(":")
    return f"{kind} {rest}" if rest else node_id


def relation_label(kind: str) -> str:
    """The relation's short label, or the kind itself for one this version does not know."""
    try:
        return EdgeKind(kind).label
    except ValueError:
        return kind


def relation_meaning(kind: str) -> str:
    try:
        return EdgeKind(kind).meaning
    except ValueError:
        return kind


def why_text(plan: PlanResult, node: PlanNode) -> str:
    """The chain as one line, e.g. ``plan p → context c (context_id) → resource r (input)``.

    Document strings are returned as they are: the caller escapes them for its medium.
    """
    path = entry_path(plan, node.id) or ()
    parts = [subject_words(f"plan:{plan.id}")]
    parts += [f"{subject_words(e.target)} ({relation_label(e.kind)})" for e in path]
    return " → ".join(parts)
