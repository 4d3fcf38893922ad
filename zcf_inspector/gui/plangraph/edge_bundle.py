"""Edges drawn in bundles: one ``QGraphicsPathItem`` holds many routes of one style.

A 5,000-node plan has 20,000 edges; one Qt item per edge costs seconds to create, so
routes are grouped by style and by position (bundles of neighbouring edges keep the
scene's spatial index useful when zoomed in). Highlighting draws the lit edges again
in an overlay bundle on top of the dimmed ones. Bundles are plain path items,
painted by Qt itself with no Python per frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from zcf_inspector.core.continuation.results import PlanEdge
from zcf_inspector.gui.plangraph import style
from zcf_inspector.present.layout import EdgeRoute

_ARROW = 8.0
_ARROW_ANGLE = math.radians(24)
BUNDLE_SIZE = 64  # edges per bundle: few items, yet each covers a small area


class EdgeStyle(Enum):
    NEEDS = "needs"  # a prerequisite: solid
    SELECTS = "selects"  # a selection (inventoried, not thereby required): dotted, lighter
    TO_MISSING = "to missing"  # dashed, like the ghost it points at
    CYCLE = "cycle"  # red, dash-dotted


@dataclass(frozen=True, slots=True)
class DrawnEdge:
    edge: PlanEdge
    route: EdgeRoute
    style: EdgeStyle


def edge_pen(
    kind: EdgeStyle,
    colour: str | None = None,
    extra_width: float = 0.0,
    colours: style.GraphColours = style.LIGHT_COLOURS,
) -> QPen:
    # One constructor call sets style, cap and join (fewer calls per pen, and no
    # setter whose binding mishandles reference counts on some PySide6 builds).
    if kind is EdgeStyle.CYCLE:
        width, line, base = 2.2, Qt.PenStyle.DashDotLine, colours.cycle
    elif kind is EdgeStyle.TO_MISSING:
        width, line, base = 1.3, Qt.PenStyle.DashLine, colours.edge
    elif kind is EdgeStyle.SELECTS:
        width, line, base = 1.2, Qt.PenStyle.DotLine, colours.selection
    else:
        width, line, base = 1.3, Qt.PenStyle.SolidLine, colours.edge
    # A cycle stays red even when lit: red is what says "cycle".
    shown = base if kind is EdgeStyle.CYCLE or colour is None else colour
    return QPen(
        QBrush(QColor(shown)),
        width + extra_width,
        line,
        Qt.PenCapStyle.RoundCap,
        Qt.PenJoinStyle.RoundJoin,
    )


def add_route(path: QPainterPath, points: Sequence[tuple[float, float]]) -> None:
    """The polyline and an open arrowhead at its end, as two unclosed subpaths.

    Plain moveTo/lineTo with floats: building QPointF/QPolygonF objects per edge made
    this twice as slow, and 20,000 edges are built on the UI thread.
    """
    x, y = points[0]
    path.moveTo(x, y)
    for x, y in points[1:]:
        path.lineTo(x, y)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    angle = math.atan2(y1 - y0, x1 - x0)
    left, right = angle - _ARROW_ANGLE, angle + _ARROW_ANGLE
    path.moveTo(x1 - _ARROW * math.cos(left), y1 - _ARROW * math.sin(left))
    path.lineTo(x1, y1)
    path.lineTo(x1 - _ARROW * math.cos(right), y1 - _ARROW * math.sin(right))


class EdgeBundle(QGraphicsPathItem):
    """Edges are drawn, never picked: the mouse goes to nodes. So the bounds are the path's
    control points plus the pen, not Qt's default, which strokes the whole path (120,000
    segments on a large plan) just to find its outline and took a quarter of a second."""

    def __init__(
        self, edges: Sequence[DrawnEdge], pen: QPen, z: float = 0.0, *, whole: bool = False
    ) -> None:
        # Edges on a bus share its trunk: the base picture draws each one's own piece
        # (route.drawn), a highlight (``whole``) the edge's whole way.
        path = QPainterPath()
        for drawn in edges:
            route = drawn.route
            add_route(path, route.points if whole or not route.drawn else route.drawn)
        super().__init__(path)
        self.edges = tuple(edges)
        self.whole = whole
        margin = pen.widthF() + _ARROW
        self._bounds = path.controlPointRect().adjusted(-margin, -margin, margin, margin)
        self._outline = QPainterPath()
        self._outline.addRect(self._bounds)
        self.setPen(pen)
        self.setZValue(z)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._outline


def bundles(
    edges: Sequence[DrawnEdge], colours: style.GraphColours = style.LIGHT_COLOURS
) -> list[EdgeBundle]:
    """Bundles of at most `BUNDLE_SIZE` edges of one style, grouped left to right."""
    out: list[EdgeBundle] = []
    for kind in EdgeStyle:
        group = sorted(
            (d for d in edges if d.style is kind),
            key=lambda d: (d.route.points[0][0], d.route.points[0][1], d.route.index),
        )
        pen = edge_pen(kind, colours=colours)
        for start in range(0, len(group), BUNDLE_SIZE):
            out.append(EdgeBundle(group[start : start + BUNDLE_SIZE], pen))
    return out


def overlay(
    edges: Sequence[DrawnEdge], colour: str, colours: style.GraphColours = style.LIGHT_COLOURS
) -> list[EdgeBundle]:
    """The lit edges, drawn above everything else in ``colour`` (cycle edges stay red)."""
    out = []
    for kind in EdgeStyle:
        group = [d for d in edges if d.style is kind]
        if group:
            pen = edge_pen(kind, colour, extra_width=1.2, colours=colours)
            out.append(EdgeBundle(group, pen, z=0.5, whole=True))
    return out


def restyle(bundle: EdgeBundle, colours: style.GraphColours) -> None:
    """A base bundle's pen for new colours (its edges share one style)."""
    if bundle.edges:
        bundle.setPen(edge_pen(bundle.edges[0].style, colours=colours))
