"""Which edge lies under the mouse: edges are drawn in bundles, never as items of their
own, so hovering asks the bundles near the point and measures their visible pieces."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsScene

from zcf_inspector.gui.plangraph.edge_bundle import DrawnEdge, EdgeBundle
from zcf_inspector.gui.plangraph.relations import distance_to_route


def edge_at(scene: QGraphicsScene, point: QPointF, tolerance: float) -> DrawnEdge | None:
    """The visible edge nearest to ``point`` within ``tolerance`` (scene units), if any.

    A lit (overlay) bundle is asked first: a highlighted path is what the user looks at.
    """
    area = QRectF(point.x() - tolerance, point.y() - tolerance, 2 * tolerance, 2 * tolerance)
    bundles = [i for i in scene.items(area) if isinstance(i, EdgeBundle) and i.isVisible()]
    bundles.sort(key=lambda b: -b.zValue())
    where = (point.x(), point.y())
    best: tuple[float, DrawnEdge] | None = None
    for bundle in bundles:
        whole = bundle.whole
        for drawn in bundle.edges:
            route = drawn.route
            points = route.points if whole or not route.drawn else route.drawn
            distance = distance_to_route(where, points)
            if distance <= tolerance and (best is None or distance < best[0]):
                best = (distance, drawn)
        if best is not None:
            return best[1]
    return None
