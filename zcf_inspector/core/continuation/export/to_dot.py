"""Graphviz DOT of a plan graph: missing nodes dashed, required bold, cycle edges red.

Prerequisite edges are solid, selection edges dashed grey; each edge is labelled with its
relation and carries the JSON pointer of the field that makes it as its tooltip.

Ids and labels come from the document, and DOT is read by Graphviz and shown in
terminals, so each is quoted for what it is:

* a node id must name one node and only that one: ``\\`` is doubled and ``"`` escaped
  (DOT's only escape), and every character `visible` would escape is written as
  ``\\uXXXX`` — unambiguous, since every backslash of the id itself is doubled. An id
  longer than `ID_CHARS` keeps its start and gets a digest of the whole, so that two
  long ids stay two nodes;
* a label or a tooltip is for reading: `shown` (escaped, cut with its length said), then
  quoted so that Graphviz shows those escapes as written (its ``\\N``, ``\\G``, ``\\l``
  and line breaks never come from the document).
"""

from __future__ import annotations

import hashlib

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.core.visible_text import shown, visible

ID_CHARS = 200
LABEL_CHARS = 80
POINTER_CHARS = 200  # of an edge's pointer in its tooltip


def _id_text(text: str) -> str:
    # Every backslash of the id is doubled first, so the single-backslash escapes that
    # visible() writes ("\\n", "\\u001b") cannot be confused with anything in the id.
    escaped = visible(text.replace("\\", "\\\\"))
    if len(escaped) > ID_CHARS:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        escaped = f"{escaped[: ID_CHARS - 40]}…#{digest}"
    return escaped.replace('"', '\\"')


def _quote(text: str) -> str:
    """A node id (or the graph's name), as one DOT double-quoted string."""
    return f'"{_id_text(text)}"'


def _label(text: str, limit: int = LABEL_CHARS) -> str:
    """A label: escaped and cut for reading, then quoted for Graphviz's escape strings."""
    readable = shown(text, limit)
    return '"' + readable.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
        attrs = [f"label={_label(node.id)}"]
        if styles:
            attrs.append(f"style={_quote(','.join(styles))}")
        if node.selected:
            attrs.append("peripheries=2")
        lines.append(f"  {_quote(node.id)} [{', '.join(attrs)}];")
    for edge in plan.edges:
        attrs = [
            f"label={_label(edge.kind)}",
            f"tooltip={_label(edge.pointer, POINTER_CHARS)}",
        ]
        if not edge.prerequisite:  # a selection: inventoried, not thereby required
            attrs.append('style="dashed", color="gray40", fontcolor="gray40"')
        if edge.in_cycle:
            attrs.append("color=red")
        lines.append(f"  {_quote(edge.source)} -> {_quote(edge.target)} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
