"""The canvas: zoom (wheel, +/-), fit (F), pan (drag), clicks, arrow-key moves, hovers.

The view only reports what the user did (signals); the pane decides what it means,
and what a hover shows (``tip_for``: scene point and tolerance → plain text).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from zcf_inspector.gui.plain_tooltip import hide_tip, show_plain_tip
from zcf_inspector.gui.plangraph.node_item import NodeItem

_ZOOM_STEP = 1.25
_MIN_SCALE = 0.01
_MAX_SCALE = 6.0
_CLICK_SLOP = 4  # pixels a press may move and still count as a click, not a pan
_HOVER_REACH = 5.0  # pixels from an edge that still count as pointing at it

_ARROWS = {
    Qt.Key.Key_Right: "prerequisite",
    Qt.Key.Key_Left: "dependent",
    Qt.Key.Key_Up: "above",
    Qt.Key.Key_Down: "below",
}


class GraphView(QGraphicsView):
    node_clicked = Signal(str, bool)  # node ID, shift held (pick a path end)
    background_clicked = Signal()
    move_requested = Signal(str)  # "prerequisite", "dependent", "above" or "below"
    escape_pressed = Signal()
    zoom_changed = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._press: QPointF | None = None
        self.tip_for: Callable[[QPointF, float], str] | None = None

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def _fit_zoom(self) -> float:
        scene = self.scene()
        rect = scene.sceneRect() if scene is not None else None
        if rect is None or rect.width() <= 0 or rect.height() <= 0:
            return _MIN_SCALE
        area = self.viewport().rect()
        return min(area.width() / rect.width(), area.height() / rect.height())

    def zoom_by(self, factor: float) -> None:
        # Never further out than needed to see everything (a 5,000-subject column is
        # taller than 1 % zoom shows), never closer than 6:1.
        floor = min(_MIN_SCALE, self._fit_zoom())
        target = min(_MAX_SCALE, max(floor, self.zoom * factor))
        if self.zoom > 0:
            self.scale(target / self.zoom, target / self.zoom)
        self.zoom_changed.emit(self.zoom)

    def fit(self) -> None:
        scene = self.scene()
        if scene is not None:
            self.fitInView(scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
            if self.zoom > 1.0:  # a small plan is shown at natural size, not blown up
                self.resetTransform()
                self.centerOn(scene.sceneRect().center())
            self.zoom_changed.emit(self.zoom)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 (Qt virtual)
        # Hover text is plain, never Qt's rich-text-guessing tooltip (document strings).
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tip_at(QPointF(event.pos()))
            if text:
                show_plain_tip(text, event.globalPos())
            else:
                hide_tip()
            return True
        if event.type() in (QEvent.Type.Leave, QEvent.Type.MouseButtonPress):
            hide_tip()
        return super().viewportEvent(event)

    def tip_at(self, position: QPointF) -> str:
        """The hover text for a viewport position ("" for none)."""
        if self.tip_for is None or self.zoom <= 0:
            return ""
        return self.tip_for(self.mapToScene(position.toPoint()), _HOVER_REACH / self.zoom)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt virtual)
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(_ZOOM_STEP**steps)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt virtual)
        key = event.key()
        text = event.text()
        if text in ("+", "=") or key == Qt.Key.Key_ZoomIn:
            self.zoom_by(_ZOOM_STEP)
        elif text in ("-", "\N{MINUS SIGN}") or key == Qt.Key.Key_ZoomOut:
            self.zoom_by(1 / _ZOOM_STEP)
        elif key == Qt.Key.Key_F:
            self.fit()
        elif key in _ARROWS:
            self.move_requested.emit(_ARROWS[Qt.Key(key)])
        elif key == Qt.Key.Key_Escape:
            self.escape_pressed.emit()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def node_at(self, position: QPointF) -> NodeItem | None:
        for item in self.items(position.toPoint()):
            if isinstance(item, NodeItem):
                return item
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt virtual)
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt virtual)
        press, self._press = self._press, None
        super().mouseReleaseEvent(event)
        if press is None or event.button() != Qt.MouseButton.LeftButton:
            return
        moved = event.position() - press
        if abs(moved.x()) + abs(moved.y()) > _CLICK_SLOP:
            return  # that was a pan
        node = self.node_at(event.position())
        if node is None:
            self.background_clicked.emit()
        else:
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.node_clicked.emit(node.node_id, shift)
