"""The legend: every type's shape and badge, every state mark and every status glyph."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from zcf_inspector.core.continuation.subjects import EdgeKind
from zcf_inspector.gui.plain_tooltip import hide_tip, show_plain_tip
from zcf_inspector.gui.plangraph import style
from zcf_inspector.gui.plangraph.node_shapes import outline
from zcf_inspector.gui.plangraph.palette import colours_for

_ROW = 24.0
_SWATCH_W = 46.0
_SWATCH_H = 18.0
_HEADING = 22.0

Painter = Callable[[QPainter, QRectF], None]


def _type_row(kind: style.TypeStyle, colours: style.GraphColours) -> tuple[str, Painter]:
    def draw(painter: QPainter, rect: QRectF) -> None:
        painter.setPen(QPen(QColor(colours.border(kind)), 1.4))
        painter.setBrush(QBrush(QColor(colours.fill(kind))))
        painter.drawPath(outline(kind.shape, rect))

    return f"{kind.badge} · {kind.label}", draw


def _box(
    pen: QPen,
    colours: style.GraphColours,
    *,
    fill: str | None = None,
    double: bool = False,
    halo: bool = False,
    badge: bool = False,
) -> Painter:
    def draw(painter: QPainter, rect: QRectF) -> None:
        if halo:
            painter.setPen(QPen(QColor(colours.blocking), 2.0))
            painter.setBrush(QBrush(QColor(colours.blocking_glow)))
            painter.drawRoundedRect(rect.adjusted(-3, -3, 3, 3), 7, 7)
        painter.setPen(pen)
        painter.setBrush(QBrush(QColor(fill or colours.swatch_fill)))
        painter.drawRoundedRect(rect, 5, 5)
        if double:
            painter.setPen(QPen(QColor(colours.outline), 1.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(3, 3, -3, -3), 3, 3)
        if badge:
            disc = QRectF(rect.right() - 9, rect.top() - 4, 12, 12)
            painter.setPen(QPen(QColor("#ffffff"), 1.2))
            painter.setBrush(QBrush(QColor(style.KNOWN_BLOCKER_COLOUR)))
            painter.drawEllipse(disc)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, "!")

    return draw


def _line(colour: str, width: float, pen_style: Qt.PenStyle) -> Painter:
    def draw(painter: QPainter, rect: QRectF) -> None:
        pen = QPen(QColor(colour), width)
        pen.setStyle(pen_style)
        painter.setPen(pen)
        y = rect.center().y()
        painter.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))
        painter.drawLine(QPointF(rect.right(), y), QPointF(rect.right() - 6, y - 4))
        painter.drawLine(QPointF(rect.right(), y), QPointF(rect.right() - 6, y + 4))

    return draw


def _glyph(status: str, colours: style.GraphColours) -> tuple[str, Painter]:
    look = style.status_style(status)

    def draw(painter: QPainter, rect: QRectF) -> None:
        painter.setPen(QColor(colours.status(status)))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, look.glyph)

    return status, draw


def _dashed(colour: str, width: float) -> QPen:
    pen = QPen(QColor(colour), width)
    pen.setStyle(Qt.PenStyle.DashLine)
    return pen


def _sections(
    colours: style.GraphColours = style.LIGHT_COLOURS,
) -> list[tuple[str, list[tuple[str, Painter]]]]:
    grey = colours.outline
    seen: set[str] = set()
    types = []
    for kind in style.TYPE_STYLES.values():
        if kind.label not in seen:
            seen.add(kind.label)
            types.append(_type_row(kind, colours))
    ghost = _dashed(colours.ghost_border, 1.4)
    solid, dash_dot, dotted = Qt.PenStyle.SolidLine, Qt.PenStyle.DashDotLine, Qt.PenStyle.DotLine
    states = [
        ("required (bold border)", _box(QPen(QColor(grey), 2.6), colours)),
        (
            "optional (thin border, paler fill)",
            _box(
                QPen(QColor(grey), 1.0),
                colours,
                fill=style.mix(colours.swatch_fill, colours.background, 0.6),
            ),
        ),
        (
            "selected by the plan (double border)",
            _box(QPen(QColor(grey), 1.0), colours, double=True),
        ),
        ("missing (dashed ghost)", _box(ghost, colours, fill=colours.ghost_fill)),
        ("blocks the report (⚑, red halo)", _box(QPen(QColor(grey), 1.4), colours, halo=True)),
        (
            f"known blocker ({style.KNOWN_BLOCKER_MARK}, ! badge): never supported",
            _box(QPen(QColor(grey), 1.4), colours, badge=True),
        ),
        ("needs (prerequisite edge, solid)", _line(colours.edge, 1.3, solid)),
        ("selects (selection edge, dotted)", _line(colours.selection, 1.2, dotted)),
        ("in a cycle (↻, red dash-dot)", _line(colours.cycle, 2.2, dash_dot)),
        ("why: the path from the plan (click)", _line(colours.path, 2.5, solid)),
        ("what the clicked subject needs", _line(colours.highlight, 2.5, solid)),
    ]
    relations = [
        (
            f"{kind.value} ({kind.label})",
            _line(colours.edge, 1.3, solid)
            if kind.prerequisite
            else _line(colours.selection, 1.2, dotted),
        )
        for kind in EdgeKind
    ]
    statuses = [_glyph(s, colours) for s in style.STATUS_STYLES]
    return [
        ("Types", types),
        ("States", states),
        ("Relations (hover an edge for its field)", relations),
        ("Report status", statuses),
    ]


def _meanings() -> dict[str, str]:
    """Each relation row's label → what the relation says (the row's hover text)."""
    return {
        f"{kind.value} ({kind.label})": (
            f"{kind.meaning}\n"
            + (
                "prerequisite: the required flag flows along it"
                if kind.prerequisite
                else "selection: inventoried, not thereby required"
            )
        )
        for kind in EdgeKind
    }


class LegendWidget(QWidget):
    """Painted with the colours of its palette (rebuilt when the palette changes)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colours = colours_for(self.palette())
        self._sections = _sections(self.colours)
        self._meanings = _meanings()
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(int(self._height()))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt virtual)
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.colours = colours_for(self.palette())
            self._sections = _sections(self.colours)
            self.update()

    def entries(self) -> list[str]:
        return [label for _, rows in self._sections for label, _ in rows]

    def tip_at(self, y: float) -> str:
        """The hover text of the row at ``y`` (a relation's meaning; "" elsewhere)."""
        top = 4.0
        for _, rows in self._sections:
            top += _HEADING
            for label, _ in rows:
                if top <= y < top + _ROW:
                    return self._meanings.get(label, "")
                top += _ROW
        return ""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tip_at(event.pos().y())
            if text:
                show_plain_tip(text, event.globalPos())
            else:
                hide_tip()
            return True
        return super().event(event)

    def _height(self) -> float:
        return sum(_HEADING + len(rows) * _ROW for _, rows in self._sections) + 8

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt virtual)
        return QSize(260, int(self._height()))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt virtual)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        bold = QFont(self.font())
        bold.setBold(True)
        y = 4.0
        for heading, rows in self._sections:
            painter.setFont(bold)
            painter.setPen(self.palette().windowText().color())
            painter.drawText(QPointF(6, y + 15), heading)
            y += _HEADING
            painter.setFont(self.font())
            for label, draw in rows:
                swatch = QRectF(10, y + (_ROW - _SWATCH_H) / 2, _SWATCH_W, _SWATCH_H)
                draw(painter, swatch)
                painter.setPen(self.palette().windowText().color())
                painter.drawText(QPointF(10 + _SWATCH_W + 10, y + _ROW / 2 + 5), label)
                y += _ROW
        painter.end()
