"""Outline paths for each node shape, in the node's own coordinates (0, 0, w, h)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF

from zcf_inspector.gui.plangraph.style import Shape

_CORNER = 8.0
_SLANT = 10.0
_FOLD = 10.0
_TAB_WIDTH = 30.0
_TAB_HEIGHT = 6.0

# How far text must stay from the left edge so it clears slanted or pointed sides.
TEXT_INDENT: dict[Shape, float] = {
    Shape.PARALLELOGRAM: 14.0,
    Shape.TAG: 14.0,
    Shape.HEXAGON: 14.0,
    Shape.STADIUM: 14.0,
}
DEFAULT_INDENT = 10.0
# Extra height some shapes take above the text (the folder's tab).
TOP_EXTRA: dict[Shape, float] = {Shape.FOLDER: _TAB_HEIGHT}


def _polygon(points: list[tuple[float, float]]) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    path.closeSubpath()
    return path


def outline(shape: Shape, rect: QRectF) -> QPainterPath:
    x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
    right, bottom, middle = x + w, y + h, y + h / 2
    path = QPainterPath()
    if shape is Shape.ROUNDED:
        path.addRoundedRect(rect, _CORNER, _CORNER)
        return path
    if shape is Shape.STADIUM:
        path.addRoundedRect(rect, h / 2, h / 2)
        return path
    if shape is Shape.HEXAGON:
        c = _SLANT
        points = [(x + c, y), (right - c, y), (right, middle), (right - c, bottom), (x + c, bottom)]
        return _polygon([*points, (x, middle)])
    if shape is Shape.PARALLELOGRAM:
        return _polygon([(x + _SLANT, y), (right, y), (right - _SLANT, bottom), (x, bottom)])
    if shape is Shape.OCTAGON:
        c = _CORNER
        return _polygon(
            [
                (x + c, y),
                (right - c, y),
                (right, y + c),
                (right, bottom - c),
                (right - c, bottom),
                (x + c, bottom),
                (x, bottom - c),
                (x, y + c),
            ]
        )
    if shape is Shape.DOCUMENT:
        return _polygon(
            [(x, y), (right - _FOLD, y), (right, y + _FOLD), (right, bottom), (x, bottom)]
        )
    if shape is Shape.FOLDER:
        tab = y + _TAB_HEIGHT
        return _polygon(
            [
                (x, y),
                (x + _TAB_WIDTH, y),
                (x + _TAB_WIDTH + _TAB_HEIGHT, tab),
                (right, tab),
                (right, bottom),
                (x, bottom),
            ]
        )
    if shape is Shape.TAG:
        return _polygon(
            [(x + _SLANT, y), (right, y), (right, bottom), (x + _SLANT, bottom), (x, middle)]
        )
    path.addRect(rect)
    return path


def decoration(shape: Shape, rect: QRectF) -> QPainterPath | None:
    """Lines drawn over the outline: the folded corner of a document."""
    if shape is not Shape.DOCUMENT:
        return None
    right, top = rect.x() + rect.width(), rect.y()
    path = QPainterPath(QPointF(right - _FOLD, top))
    path.lineTo(right - _FOLD, top + _FOLD)
    path.lineTo(right, top + _FOLD)
    return path
