"""Arrow-key moves: along edges (right: a prerequisite, left: a dependent) or within
a column (up, down). Pure geometry over the layout; no Qt."""

from __future__ import annotations

from zcf_inspector.present.layout import GraphLayout, NodeBox
from zcf_inspector.present.reach import Reach


def _nearest(boxes: list[NodeBox], y: float) -> str | None:
    if not boxes:
        return None
    return min(boxes, key=lambda b: (abs(b.centre[1] - y), b.id)).id


def next_node(layout: GraphLayout, reach: Reach, current: str | None, direction: str) -> str | None:
    """The node an arrow key moves to from ``current``; with nothing selected, the first
    node of the largest component's first column."""
    boxes = {b.id: b for b in layout.nodes}
    if current is None or current not in boxes:
        start = [b for b in layout.nodes if b.component == 0 and b.layer == 0]
        return min(start, key=lambda b: (b.y, b.id)).id if start else None
    here = boxes[current]
    y = here.centre[1]
    if direction in ("prerequisite", "dependent"):
        linked = reach.needs if direction == "prerequisite" else reach.needed_by
        found = _nearest([boxes[n] for n in linked.get(current, ()) if n in boxes], y)
        if found is not None:
            return found
        # No prerequisite (dependent) to go to — the plan node has none, only its
        # subjects: follow the edges drawn from (to) it, so the keys never stop dead.
        drawn = [
            e.target if direction == "prerequisite" else e.source
            for e in layout.edges
            if (e.source if direction == "prerequisite" else e.target) == current
        ]
        return _nearest([boxes[n] for n in drawn if n in boxes and n != current], y)
    column = sorted(
        (b for b in layout.nodes if b.component == here.component and b.layer == here.layer),
        key=lambda b: (b.y, b.id),
    )
    position = column.index(here)
    step = -1 if direction == "above" else 1
    if 0 <= position + step < len(column):
        return column[position + step].id
    return None
