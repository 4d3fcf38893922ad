"""The scene of one plan: node items and edge bundles placed from a finished layout.

Built once per plan and layout; clicking, finding and path-picking only dim the base
items and draw the lit edges in an overlay (nothing is laid out again).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QGraphicsScene

from zcf_inspector.core.continuation.layout import GraphLayout
from zcf_inspector.core.continuation.reach import Reach
from zcf_inspector.gui.plangraph import style
from zcf_inspector.gui.plangraph.edge_bundle import (
    DrawnEdge,
    EdgeBundle,
    EdgeStyle,
    bundles,
    overlay,
)
from zcf_inspector.gui.plangraph.edge_bundle import restyle as restyle_bundle
from zcf_inspector.gui.plangraph.node_item import Emphasis, NodeItem, NodeText
from zcf_inspector.gui.plangraph.overview_item import OverviewItem
from zcf_inspector.gui.plangraph.plan_facts import PlanFacts

_MARGIN = 24.0


class PlanScene(QGraphicsScene):
    def __init__(
        self,
        facts: PlanFacts,
        texts: dict[str, NodeText],
        layout: GraphLayout,
        colours: style.GraphColours = style.LIGHT_COLOURS,
    ) -> None:
        super().__init__()
        self.facts = facts
        self.layout = layout
        self.reach = Reach.of_plan(facts.plan)
        self.colours = colours
        self.setBackgroundBrush(QBrush(QColor(colours.background)))
        self.nodes: dict[str, NodeItem] = {}
        for box in layout.nodes:
            node_facts = facts.nodes.get(box.id)
            if node_facts is None:  # an edge endpoint the plan does not list (never expected)
                continue
            item = NodeItem(node_facts, texts[box.id], QRectF(box.x, box.y, box.width, box.height))
            self.addItem(item)
            self.nodes[box.id] = item
        plan = facts.plan
        drawn: list[DrawnEdge] = []
        for route in layout.edges:
            edge = plan.edges[route.index]
            target = facts.nodes.get(edge.target)
            if edge.in_cycle:
                kind = EdgeStyle.CYCLE
            elif target is not None and target.node.missing:
                kind = EdgeStyle.TO_MISSING
            else:
                kind = EdgeStyle.NEEDS
            drawn.append(DrawnEdge(edge, route, kind))
        self.edges: tuple[DrawnEdge, ...] = tuple(drawn)
        self.bundles = bundles(drawn, colours)
        for bundle in self.bundles:
            self.addItem(bundle)
        self.setSceneRect(
            QRectF(-_MARGIN, -_MARGIN, layout.width + 2 * _MARGIN, layout.height + 2 * _MARGIN)
        )
        self.highlighted: frozenset[str] = frozenset()
        self.lit: tuple[DrawnEdge, ...] = ()
        self._overlay: list[EdgeBundle] = []
        self.overview = OverviewItem(facts, layout, colours)
        self.overview.setVisible(False)
        self.addItem(self.overview)
        self.detailed = True
        self._overlay_colour = colours.highlight

    def restyle(self, colours: style.GraphColours) -> None:
        """Paint with ``colours`` from now on (the theme changed); nothing is laid out."""
        if colours == self.colours:
            return
        was_path = self._overlay_colour == self.colours.path
        self.colours = colours
        self.setBackgroundBrush(QBrush(QColor(colours.background)))
        for node in self.nodes.values():
            node.restyle()
        for bundle in self.bundles:
            restyle_bundle(bundle, colours)
        visible = self.overview.isVisible()
        self.removeItem(self.overview)
        self.overview = OverviewItem(self.facts, self.layout, colours)
        self.overview.setVisible(visible)
        self.addItem(self.overview)
        self._set_overlay(self.lit, colours.path if was_path else colours.highlight)

    def set_detailed(self, detailed: bool) -> None:
        """Node items (zoomed in) or the one-item overview of boxes (zoomed far out)."""
        if detailed == self.detailed:
            return
        self.detailed = detailed
        self.overview.setVisible(not detailed)
        for node in self.nodes.values():
            node.setVisible(detailed)

    def clear_emphasis(self) -> None:
        for node in self.nodes.values():
            node.setOpacity(1.0)
            node.set_emphasis(Emphasis.NONE)
        for bundle in self.bundles:
            bundle.setOpacity(1.0)
        self._set_overlay((), self.colours.highlight)
        self.highlighted = frozenset()

    def _set_overlay(self, lit: tuple[DrawnEdge, ...], colour: str) -> None:
        for bundle in self._overlay:
            self.removeItem(bundle)
        self.lit = lit
        self._overlay_colour = colour
        self._overlay = overlay(lit, colour, self.colours)
        for bundle in self._overlay:
            self.addItem(bundle)

    def _emphasise(
        self, members: Collection[str], pairs: set[tuple[str, str]], colour: str
    ) -> None:
        self.set_detailed(True)  # a highlight is only visible on the node items
        for node_id, node in self.nodes.items():
            node.setOpacity(1.0 if node_id in members else style.DIMMED_OPACITY)
        for bundle in self.bundles:
            bundle.setOpacity(style.DIMMED_OPACITY)
        lit = tuple(d for d in self.edges if (d.edge.source, d.edge.target) in pairs)
        self._set_overlay(lit, colour)

    def focus_closure(self, node_id: str) -> frozenset[str]:
        """Highlight ``node_id`` with everything it needs and everything that needs it."""
        closure = self.reach.closure(node_id)
        pairs = {
            (e.source, e.target)
            for e in self.facts.plan.edges
            if e.prerequisite and e.source in closure and e.target in closure
        }
        self._emphasise(closure, pairs, self.colours.highlight)
        for member in closure:
            if member in self.nodes:
                self.nodes[member].set_emphasis(
                    Emphasis.FOCUS if member == node_id else Emphasis.CLOSURE
                )
        self.highlighted = closure
        return closure

    def focus_path(self, path: tuple[str, ...]) -> None:
        pairs = set(itertools.pairwise(path))
        pairs |= {(b, a) for a, b in pairs}
        self._emphasise(set(path), pairs, self.colours.path)
        for member in path:
            if member in self.nodes:
                self.nodes[member].set_emphasis(Emphasis.PATH)
        self.highlighted = frozenset(path)
