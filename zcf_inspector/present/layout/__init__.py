"""The plan graph's layered layout, in steps: layers (longest path, cycles broken), order
(crossing reduction), coordinates, routes and packing of components."""

from zcf_inspector.present.layout.boxes import (
    EdgeRoute,
    GraphLayout,
    NodeBox,
    Size,
    Spacing,
    default_size,
)
from zcf_inspector.present.layout.plan_layout import layout_graph, layout_plan

__all__ = [
    "EdgeRoute",
    "GraphLayout",
    "NodeBox",
    "Size",
    "Spacing",
    "default_size",
    "layout_graph",
    "layout_plan",
]
