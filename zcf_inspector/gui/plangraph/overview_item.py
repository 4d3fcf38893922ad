"""All nodes as coloured boxes in one item, shown instead of the nodes when zoomed out.

Far out, a node is a few pixels: painting 5,000 node items (a Python call each) per
frame would make panning stutter, so the scene hides them and this item draws every
box of a type in one ``drawRects`` call.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from zcf_inspector.gui.plangraph import style
from zcf_inspector.present.asif_listing import NodeFacts, PlanFacts
from zcf_inspector.present.layout import GraphLayout


class OverviewItem(QGraphicsItem):
    def __init__(
        self,
        facts: PlanFacts,
        layout: GraphLayout,
        colours: style.GraphColours = style.LIGHT_COLOURS,
        outside: Mapping[str, NodeFacts] | None = None,
    ) -> None:
        super().__init__()
        groups: dict[tuple[str, str], list[QRectF]] = {}
        self._where: dict[str, tuple[tuple[str, str], QRectF]] = {}
        outside = outside or {}
        for box in layout.nodes:
            node_facts = facts.nodes.get(box.id) or outside.get(box.id)
            if node_facts is None:
                continue
            kind = style.type_style(node_facts.node.type)
            look = (
                (colours.ghost_fill, colours.ghost_border)
                if node_facts.node.missing
                else (
                    colours.fill(kind) if node_facts.node.required else colours.optional_fill(kind),
                    colours.border(kind),
                )
            )
            rect = QRectF(box.x, box.y, box.width, box.height)
            groups.setdefault(look, []).append(rect)
            self._where[box.id] = (look, rect)
        self._groups = [
            (QBrush(QColor(fill)), QPen(QColor(border), 0.0), rects)
            for (fill, border), rects in sorted(groups.items())
        ]
        self._bounds = QRectF(0, 0, layout.width, layout.height)
        self._lit: list[tuple[QBrush, QPen, list[QRectF]]] | None = None
        self.focus: frozenset[str] | None = None  # the lit members, when any
        self._dim = 1.0
        self.setZValue(1)

    def set_focus(self, members: Collection[str] | None, dim: float = 1.0) -> None:
        """Far out, a lit path or closure: ``members`` in full, the rest at ``dim``
        (``None``: everything in full)."""
        self.focus = None if members is None else frozenset(members)
        if members is None:
            self._lit, self._dim = None, 1.0
        else:
            groups: dict[tuple[str, str], list[QRectF]] = {}
            for member in members:
                found = self._where.get(member)
                if found is not None:
                    groups.setdefault(found[0], []).append(found[1])
            self._lit = [
                (QBrush(QColor(fill)), QPen(QColor(border), 0.0), rects)
                for (fill, border), rects in sorted(groups.items())
            ]
            self._dim = dim
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt virtual)
        return self._bounds

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setOpacity(self._dim)
        for brush, pen, rects in self._groups:
            painter.setBrush(brush)
            painter.setPen(pen)
            painter.drawRects(rects)
        if self._lit is not None:
            painter.setOpacity(1.0)
            for brush, pen, rects in self._lit:
                painter.setBrush(brush)
                painter.setPen(pen)
                painter.drawRects(rects)
