"""Graphviz DOT of a plan graph: missing nodes dashed, required bold, cycle edges red.

Prerequisite edges are solid, selection edges dashed grey; each edge is labelled with its
relation and carries the JSON pointer of the field that makes it as its tooltip.
"""

from __future__ import annotations

from zcf_inspector.core.continuation.results import PlanResult


def _quote(text: str) -> str:
    # DOT double-quoted IDs: only `"` and `\` need escaping; newlines become `\n`.
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def plan_dot(plan: PlanResult) -> str:
    lines = [
        f"digraph {_quote('plan:' + plan.id)} {{",
        "  rankdir=LR;",
        '  node [shape=box, fontname="Helvetica"];',
    ]
    for node in plan.nodes:
        styles = []
        if node.required:
            styles.append("bold")
        if node.missing:
            styles.append("dashed")
        attrs = [f"label={_quote(node.id)}"]
        if styles:
            attrs.append(f"style={_quote(','.join(styles))}")
        if node.selected:
            attrs.append("peripheries=2")
        lines.append(f"  {_quote(node.id)} [{', '.join(attrs)}];")
    for edge in plan.edges:
        attrs = [f"label={_quote(edge.kind)}", f"tooltip={_quote(edge.pointer)}"]
        if not edge.prerequisite:  # a selection: inventoried, not thereby required
            attrs.append('style="dashed", color="gray40", fontcolor="gray40"')
        if edge.in_cycle:
            attrs.append("color=red")
        lines.append(f"  {_quote(edge.source)} -> {_quote(edge.target)} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
