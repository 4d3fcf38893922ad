"""Graphviz DOT of a plan graph: missing nodes dashed, required bold, cycle edges red.

Prerequisite edges are solid, selection edges dashed grey; each edge is labelled with its
relation and carries the JSON pointer of the field that makes it as its tooltip.

Ids and labels come from the document, and DOT is read by Graphviz and shown in
terminals, so each is quoted for what it is:

* a node's DOT id is synthetic — ``n0``, ``n1``, … in the plan's node order (an edge end
  the nodes do not list gets the next number where it is first met), so the output is
  deterministic. The document's id is never a DOT id, because a DOT id cannot be masked:
  two ids holding different credentials mask alike (``ghp_…(40 characters, hidden)``)
  and would merge into one node, while keeping an id raw "where the scan flags nothing"
  would print the unflagged rest of the document's ids raw into a file meant to be
  shared, and make a node's DOT id change with the scan's rules. A number names one node
  and only that one, whatever the document holds;
* a label or a tooltip is for reading: masked (`masking.masked_shown`: a suspected
  credential in it replaced by its masked form, issue 34 point 1), escaped, cut with its
  length said, then quoted so that Graphviz shows those escapes as written (its ``\\N``,
  ``\\G``, ``\\l`` and line breaks never come from the document). The graph's name is
  the plan's id read the same way.
"""

from __future__ import annotations

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.core.secrets.masking import masked_shown, prime

LABEL_CHARS = 80
NAME_CHARS = 200  # of the graph's name
POINTER_CHARS = 200  # of an edge's pointer in its tooltip


def _label(text: str, limit: int = LABEL_CHARS) -> str:
    """A label: masked, escaped and cut for reading, then quoted for Graphviz's escape
    strings."""
    readable = masked_shown(text, limit)
    return '"' + readable.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _node_ids(plan: PlanResult) -> dict[str, str]:
    """Each node's DOT id (``n0``, ``n1``, …): the plan's nodes in order, then any edge end
    they do not list, where it is first met."""
    ids: dict[str, str] = {}
    for name in (
        *(node.id for node in plan.nodes),
        *(end for edge in plan.edges for end in (edge.source, edge.target)),
    ):
        if name not in ids:
            ids[name] = f"n{len(ids)}"
    return ids


def plan_dot(plan: PlanResult) -> str:
    # One scan for every text the graph shows, rather than one per label.
    prime([plan.id, *(n.id for n in plan.nodes), *(e.pointer for e in plan.edges)])
    ids = _node_ids(plan)
    lines = [
        f"digraph {_label('plan:' + plan.id, NAME_CHARS)} {{",
        "  rankdir=LR;",
        '  node [shape=box, fontname="Helvetica"];',
    ]
    listed = {node.id for node in plan.nodes}
    for node in plan.nodes:
        styles = []
        if node.required:
            styles.append("bold")
        if node.missing:
            styles.append("dashed")
        attrs = [f"label={_label(node.id)}"]
        if styles:
            attrs.append(f'style="{",".join(styles)}"')
        if node.selected:
            attrs.append("peripheries=2")
        lines.append(f"  {ids[node.id]} [{', '.join(attrs)}];")
    for name, dot_id in ids.items():
        if name not in listed:  # an edge end the nodes do not list: labelled all the same
            lines.append(f"  {dot_id} [label={_label(name)}];")
    for edge in plan.edges:
        attrs = [
            f"label={_label(edge.kind)}",
            f"tooltip={_label(edge.pointer, POINTER_CHARS)}",
        ]
        if not edge.prerequisite:  # a selection: inventoried, not thereby required
            attrs.append('style="dashed", color="gray40", fontcolor="gray40"')
        if edge.in_cycle:
            attrs.append("color=red")
        lines.append(f"  {ids[edge.source]} -> {ids[edge.target]} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
