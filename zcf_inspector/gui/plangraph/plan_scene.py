"""The scene of one plan: node items and edge bundles placed from a finished layout.

Built once per plan and layout; clicking, finding and path-picking only dim the base
items and draw the lit edges in an overlay (nothing is laid out again). Subjects of
other plans, when the user asks to see all subjects, sit apart below the plan's graph,
dimmed, under a caption saying they are not in this plan's inventory.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSimpleTextItem

from zcf_inspector.core.continuation.results import PlanEdge
from zcf_inspector.gui.plain_text import masked_visible
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
from zcf_inspector.present.asif_listing import NodeFacts, PlanFacts
from zcf_inspector.present.layout import GraphLayout
from zcf_inspector.present.reach import Reach

_MARGIN = 16.0
OUTSIDE_OPACITY = 0.45  # subjects of other plans: visible, but plainly not this plan's


def _edge_style(edge: PlanEdge, target: NodeFacts | None) -> EdgeStyle:
    if edge.in_cycle:
        return EdgeStyle.CYCLE
    if target is not None and target.node.missing:
        return EdgeStyle.TO_MISSING
    return EdgeStyle.NEEDS if edge.prerequisite else EdgeStyle.SELECTS


class PlanScene(QGraphicsScene):
    def __init__(
        self,
        facts: PlanFacts,
        texts: Mapping[str, NodeText],
        layout: GraphLayout,
        colours: style.GraphColours = style.LIGHT_COLOURS,
        outside: Mapping[str, NodeFacts] | None = None,
    ) -> None:
        super().__init__()
        self.facts = facts
        self.layout = layout
        self.reach = Reach.of_plan(facts.plan)
        self.colours = colours
        self.setBackgroundBrush(QBrush(QColor(colours.background)))
        self.nodes: dict[str, NodeItem] = {}
        outside = outside or {}
        for box in layout.nodes:
            node_facts = facts.nodes.get(box.id) or outside.get(box.id)
            if node_facts is None:  # an edge endpoint the plan does not list (never expected)
                continue
            item = NodeItem(node_facts, texts[box.id], QRectF(box.x, box.y, box.width, box.height))
            self.addItem(item)
            self.nodes[box.id] = item
        # Subjects outside this plan's inventory (shown on request), and their caption.
        self.outside = frozenset(n for n in outside if n in self.nodes)
        self.caption: QGraphicsSimpleTextItem | None = None
        if self.outside:
            self._add_caption(layout)
        plan = facts.plan
        drawn = [
            DrawnEdge(
                plan.edges[route.index],
                route,
                _edge_style(
                    plan.edges[route.index], facts.nodes.get(plan.edges[route.index].target)
                ),
            )
            for route in layout.edges
        ]
        self.edges: tuple[DrawnEdge, ...] = tuple(drawn)
        self.bundles = bundles(drawn, colours)
        for bundle in self.bundles:
            self.addItem(bundle)
        self.setSceneRect(
            QRectF(-_MARGIN, -_MARGIN, layout.width + 2 * _MARGIN, layout.height + 2 * _MARGIN)
        )
        self.highlighted: frozenset[str] = frozenset()
        self.lit: tuple[DrawnEdge, ...] = ()
        self.path_edges: tuple[DrawnEdge, ...] = ()  # the "why" path of the clicked node
        self._lit_groups: list[tuple[tuple[DrawnEdge, ...], bool]] = []  # (edges, on a path)
        self._overlay: list[EdgeBundle] = []
        self._outside_facts = {n: outside[n] for n in self.outside}
        self.overview = OverviewItem(facts, layout, colours, self._outside_facts)
        self.overview.setVisible(False)
        self.addItem(self.overview)
        self.detailed = True
        self._rest()

    def _add_caption(self, layout: GraphLayout) -> None:
        top = min(b.y for b in layout.nodes if b.id in self.outside)
        caption = QGraphicsSimpleTextItem(
            f"Not in plan {masked_visible(self.facts.plan.id)}'s inventory: subjects of the"
            " document's other plans (shown because All subjects is on)"
        )
        font = QFont()
        font.setItalic(True)
        caption.setFont(font)
        caption.setPos(0.0, top - caption.boundingRect().height() - 8)
        self.addItem(caption)
        self.caption = caption

    def _rest(self) -> None:
        """Nothing highlighted: this plan's subjects in full, others dimmed."""
        for node_id, node in self.nodes.items():
            node.setOpacity(OUTSIDE_OPACITY if node_id in self.outside else 1.0)
            node.set_emphasis(Emphasis.NONE)
        if self.caption is not None:
            self.caption.setBrush(QBrush(QColor(self.colours.muted)))

    def restyle(self, colours: style.GraphColours) -> None:
        """Paint with ``colours`` from now on (the theme changed); nothing is laid out."""
        if colours == self.colours:
            return
        self.colours = colours
        self.setBackgroundBrush(QBrush(QColor(colours.background)))
        for node in self.nodes.values():
            node.restyle()
        for bundle in self.bundles:
            restyle_bundle(bundle, colours)
        if self.caption is not None:
            self.caption.setBrush(QBrush(QColor(colours.muted)))
        visible = self.overview.isVisible()
        self.removeItem(self.overview)
        self.overview = OverviewItem(self.facts, self.layout, colours, self._outside_facts)
        self.overview.setVisible(visible)
        if self.highlighted:
            self.overview.set_focus(self.highlighted, style.DIMMED_OPACITY)
        self.addItem(self.overview)
        self._set_overlay(self._lit_groups)

    def set_detailed(self, detailed: bool) -> None:
        """Node items (zoomed in) or the one-item overview of boxes (zoomed far out)."""
        if detailed == self.detailed:
            return
        self.detailed = detailed
        self.overview.setVisible(not detailed)
        for node in self.nodes.values():
            node.setVisible(detailed)

    def clear_emphasis(self) -> None:
        self._rest()
        self.overview.set_focus(None)
        for bundle in self.bundles:
            bundle.setOpacity(1.0)
        self._set_overlay([])
        self.highlighted = frozenset()
        self.path_edges = ()

    def _set_overlay(self, groups: Sequence[tuple[tuple[DrawnEdge, ...], bool]]) -> None:
        """Draw the lit edges on top: each group in the path or the highlight colour."""
        for bundle in self._overlay:
            self.removeItem(bundle)
        self._lit_groups = list(groups)
        self.lit = tuple(d for edges, _ in groups for d in edges)
        self._overlay = []
        for edges, on_path in groups:
            colour = self.colours.path if on_path else self.colours.highlight
            self._overlay += overlay(edges, colour, self.colours)
        for bundle in self._overlay:
            self.addItem(bundle)

    def _dim_all_but(self, members: Collection[str]) -> None:
        # Far out the overview shows the highlight too, so a click on a 5,000-subject plan
        # does not have to paint every node item.
        self.overview.set_focus(members, style.DIMMED_OPACITY)
        for node_id, node in self.nodes.items():
            node.setOpacity(1.0 if node_id in members else style.DIMMED_OPACITY)
            node.set_emphasis(Emphasis.NONE)
        for bundle in self.bundles:
            bundle.setOpacity(style.DIMMED_OPACITY)

    def focus_why(
        self, node_id: str, path: Sequence[PlanEdge], needs: Collection[str]
    ) -> frozenset[str]:
        """Light the path by which the plan reached ``node_id`` (``path``: the walk's
        edges, plan first) and, in the highlight colour, what ``node_id`` needs."""
        on_path = {(e.source, e.target, e.kind) for e in path}
        path_nodes = {node_id, *(e.source for e in path)}
        closure = {node_id, *needs}
        members = path_nodes | closure
        self._dim_all_but(members)
        by_key = {(d.edge.source, d.edge.target, d.edge.kind): d for d in self.edges}
        self.path_edges = tuple(
            by_key[(e.source, e.target, e.kind)]
            for e in path
            if (e.source, e.target, e.kind) in by_key
        )
        needed = tuple(
            d
            for d in self.edges
            if d.edge.prerequisite
            and d.edge.source in closure
            and d.edge.target in closure
            and (d.edge.source, d.edge.target, d.edge.kind) not in on_path
        )
        self._set_overlay([(needed, False), (self.path_edges, True)])
        for member in members:
            item = self.nodes.get(member)
            if item is None:
                continue
            if member == node_id:
                item.set_emphasis(Emphasis.FOCUS)
            elif member in path_nodes:
                item.set_emphasis(Emphasis.PATH)
            else:
                item.set_emphasis(Emphasis.CLOSURE)
        self.highlighted = frozenset(members)
        return self.highlighted

    def focus_closure(self, node_id: str) -> frozenset[str]:
        """Highlight ``node_id`` with everything it needs and everything that needs it."""
        closure = self.reach.closure(node_id)
        self._dim_all_but(closure)
        lit = tuple(
            d
            for d in self.edges
            if d.edge.prerequisite and d.edge.source in closure and d.edge.target in closure
        )
        self._set_overlay([(lit, False)])
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
        self._dim_all_but(set(path))
        lit = tuple(
            d for d in self.edges if d.edge.prerequisite and (d.edge.source, d.edge.target) in pairs
        )
        self.path_edges = lit
        self._set_overlay([(lit, True)])
        for member in path:
            if member in self.nodes:
                self.nodes[member].set_emphasis(Emphasis.PATH)
        self.highlighted = frozenset(path)
