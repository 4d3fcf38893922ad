"""One plan subject on the canvas: its shape, state marks and up to three text lines.

Text comes from the document, so it is drawn with ``QPainter.drawText`` on a plain
string (never interpreted as HTML) after `visible` has escaped invisible characters.
Labels are skipped when the view is zoomed far out (level of detail), which keeps
panning a 5,000-node plan smooth.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from zcf_inspector.gui.plain_text import masked_visible
from zcf_inspector.gui.plangraph import style
from zcf_inspector.gui.plangraph.node_shapes import (
    DEFAULT_INDENT,
    TEXT_INDENT,
    TOP_EXTRA,
    decoration,
    outline,
)
from zcf_inspector.present.asif_listing import NodeFacts, referenced_by_text, subject_text

LABEL_LOD = 0.45  # below this scale, labels are not drawn
SHAPE_LOD = 0.12  # below this scale, a node is a plain box
_LINE = 15.0
_PAD_Y = 7.0
_PAD_RIGHT = 12.0
_MAX_TEXT = 300.0
_MIN_WIDTH = 96.0


HALO_WIDTH = 2.4
_BADGE_RADIUS = 8.0


@dataclass(frozen=True, slots=True)
class _Paths:
    outline: QPainterPath
    inner: QPainterPath  # the second border of a node the plan selects
    decoration: QPainterPath | None
    halo: QPainterPath | None  # the ring of a blocking subject
    badge: QRectF | None  # the disc of a known blocker, on the top right corner


@dataclass(frozen=True, slots=True)
class _Look:
    pen: QPen  # border: bold when required, dashed when missing
    thin: QPen
    brush: QBrush
    status: QColor
    colours: style.GraphColours  # what the look was made for (the scene's, at the time)


class Emphasis(Enum):
    NONE = 0
    FOCUS = 1  # the node clicked
    CLOSURE = 2  # in the clicked node's closure
    PATH = 3  # on the path between two chosen nodes


@cache
def fonts() -> tuple[QFont, QFont, QFont]:
    """(small type line, main line, italic ghost line); built once a QGuiApplication runs."""
    small = QFont()
    small.setPointSizeF(7.5)
    main = QFont()
    main.setPointSizeF(9.0)
    main.setWeight(QFont.Weight.DemiBold)
    ghost = QFont(main)
    ghost.setItalic(True)
    ghost.setWeight(QFont.Weight.Normal)
    return small, main, ghost


@dataclass(frozen=True, slots=True)
class NodeText:
    """The lines a node shows, already escaped and elided, and the box they need."""

    top: str  # badge and type, plus marks (↻ in a cycle, ⊘ a known blocker)
    main: str  # subject ID, or "missing: TYPE:ID"
    extra: str | None  # assessment status, or what referenced a missing subject
    width: float
    height: float


def _elide(text: str, font: QFont) -> str:
    return QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideMiddle, _MAX_TEXT)


def status_line(facts: NodeFacts) -> str | None:
    status = facts.status
    if status is None:
        return None
    line = f"{style.status_style(status).glyph} {status}"
    return line + "  ⚑ blocks" if facts.blocking else line


def component_mark(facts: NodeFacts) -> str | None:
    """The bound destination component (ASIF 0.5), or the binding's problem, in a few
    characters: "→ component-7", "⚠ no component"."""
    binding = facts.binding
    if binding is None:
        return None
    if facts.binding_problem:
        return "⚠ binding" if binding.matching is None else f"⚠ {masked_visible(binding.matching)}"
    if binding.matching is not None:
        return f"→ {masked_visible(binding.matching)}"
    return None


def node_texts(all_facts: Iterable[NodeFacts]) -> list[str]:
    """The document's texts `node_text` shows for these nodes (to be scanned at once)."""
    texts: list[str] = []
    for facts in all_facts:
        node = facts.node
        texts += [node.type, node.id, subject_text(node), referenced_by_text(node)]
        if facts.binding is not None and facts.binding.matching is not None:
            texts.append(facts.binding.matching)
    return texts


def node_text(facts: NodeFacts, has_report: bool) -> NodeText:
    small, main, ghost = fonts()
    node = facts.node
    kind = style.type_style(node.type)
    marks = "  ↻ cycle" if facts.in_cycle else ""
    if facts.blockers:
        count = len(facts.blockers)
        marks += f"  {style.KNOWN_BLOCKER_MARK} " + (
            "blocker" if count == 1 else f"{count} blockers"
        )
    # The type's short name (its legend label), so boxes stay narrow enough for a public
    # example to read at Fit; the full type is in the detail pane and the hover text.
    name = kind.label if node.type in style.TYPE_STYLES else masked_visible(node.type)
    top = f"{kind.badge} · {name}{marks}"
    extra: str | None = None
    if node.missing:
        line = _elide("missing: " + masked_visible(node.id), ghost)
        extra = _elide(masked_visible(referenced_by_text(node)), small)
    else:
        line = _elide(masked_visible(subject_text(node)), main)
        if has_report:
            extra = status_line(facts) or "· not assessed"
            bound = component_mark(facts)
            if bound is not None:
                extra = _elide(f"{extra}  {bound}", small)
    indent = TEXT_INDENT.get(kind.shape, DEFAULT_INDENT)
    widths = [QFontMetricsF(small).horizontalAdvance(top)]
    widths.append(QFontMetricsF(ghost if node.missing else main).horizontalAdvance(line))
    if extra is not None:
        widths.append(QFontMetricsF(small).horizontalAdvance(extra))
    width = max(_MIN_WIDTH, indent + max(widths) + _PAD_RIGHT)
    lines = 3 if extra is not None else 2
    height = 2 * _PAD_Y + lines * _LINE + TOP_EXTRA.get(kind.shape, 0.0)
    return NodeText(top, line, extra, round(width), height)


_DASH, _SOLID = Qt.PenStyle.DashLine, Qt.PenStyle.SolidLine  # (enum look-ups are slow)
_SQUARE, _ROUND = Qt.PenCapStyle.SquareCap, Qt.PenJoinStyle.RoundJoin


@lru_cache(maxsize=1024)
def _look(
    colours: style.GraphColours, node_type: str, missing: bool, required: bool, status: str | None
) -> _Look:
    """Pens and brushes of a node: shared by every node of one type and state, so the
    first paint of thousands of nodes makes a handful (a click far out paints them all)."""
    kind = style.type_style(node_type)
    border = QColor(colours.ghost_border if missing else colours.border(kind))
    if missing:
        fill = QColor(colours.ghost_fill)
        fill.setAlpha(170)
    elif required:
        fill = QColor(colours.fill(kind))
    else:
        fill = QColor(colours.optional_fill(kind))
    return _Look(
        QPen(
            QBrush(border), 2.6 if required else 1.0, _DASH if missing else _SOLID, _SQUARE, _ROUND
        ),
        QPen(border, 1.0),
        QBrush(fill),
        QColor(colours.status(status)),
        colours,
    )


@lru_cache(maxsize=4096)
def _geometry(
    shape: style.Shape, width: float, height: float, *, halo: bool, badge: bool
) -> _Paths:
    """A node's paths in its own coordinates: the same for every node of one shape and
    size, so a column of thousands of equal boxes builds them once (zooming in past the
    overview would otherwise build hundreds in one frame)."""
    rect = QRectF(0, 0, width, height)
    ring = None
    if halo:
        # A red ring around the node, clear of its border, so blocking stands
        # out even where the type's own colour is red.
        ring = outline(shape, rect.adjusted(-4.5, -4.5, 4.5, 4.5))
    disc = None
    if badge:
        # Astride the top right corner, so it reads as a mark on the node and stays
        # visible at zoom levels where labels are no longer drawn.
        r = _BADGE_RADIUS
        disc = QRectF(rect.right() - r - 2, rect.top() - r + 2, 2 * r, 2 * r)
    return _Paths(
        outline(shape, rect),
        outline(shape, rect.adjusted(3.5, 3.5, -3.5, -3.5)),
        decoration(shape, rect),
        ring,
        disc,
    )


class NodeItem(QGraphicsItem):
    """A node drawn in one paint call; its look is fixed at construction."""

    def __init__(self, facts: NodeFacts, text: NodeText, rect: QRectF) -> None:
        super().__init__()
        self.facts = facts
        self.node_id = facts.node.id
        self._text = text
        self._rect = QRectF(0, 0, rect.width(), rect.height())
        self._bounds = self._rect.adjusted(-8, -8, 8, 8)
        self.setPos(rect.topLeft())
        self._shape = style.type_style(facts.node.type).shape
        self._paths: _Paths | None = None  # built on first paint: most nodes of a big plan
        self._look: _Look | None = None  # are never drawn at full detail
        self.emphasis = Emphasis.NONE
        self.setZValue(1)

    def _geometry(self) -> _Paths:
        if self._paths is None:
            self._paths = _geometry(
                self._shape,
                self._rect.width(),
                self._rect.height(),
                halo=self.facts.blocking,
                badge=bool(self.facts.blockers),
            )
        return self._paths

    def colours(self) -> style.GraphColours:
        """The scene's colours (its palette's), light when not in a scene."""
        colours = getattr(self.scene(), "colours", None)
        return colours if isinstance(colours, style.GraphColours) else style.LIGHT_COLOURS

    def restyle(self) -> None:
        """The palette changed: make the look again on the next paint."""
        self._look = None
        self.update()

    def _pens(self) -> _Look:
        if self._look is None:
            node = self.facts.node
            self._look = _look(
                self.colours(), node.type, node.missing, node.required, self.facts.status
            )
        return self._look

    def marks(self) -> frozenset[str]:
        """The state marks as drawn, read back from the pens and paths (for tests)."""
        out = set()
        look, paths = self._pens(), self._geometry()
        if look.pen.widthF() > 2:
            out.add("required")
        if look.pen.style() == Qt.PenStyle.DashLine:
            out.add("missing")
        if self.facts.node.selected:
            out.add("selected")
        if paths.halo is not None:
            out.add("blocking")
        if paths.badge is not None:
            out.add("known-blocker")
        if "↻" in self._text.top:
            out.add("cycle")
        return frozenset(out)

    @property
    def text(self) -> NodeText:
        return self._text

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt virtual)
        # Made once: Qt asks thousands of times a frame on a large plan.
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._geometry().outline

    def set_emphasis(self, emphasis: Emphasis) -> None:
        if emphasis is not self.emphasis:
            self.emphasis = emphasis
            self.update()

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        look = self._pens()
        painter.setBrush(look.brush)
        painter.setPen(look.pen)
        if lod < SHAPE_LOD:
            painter.drawRect(self._rect)
            return
        paths = self._geometry()
        if paths.halo is not None:
            painter.setPen(QPen(QColor(look.colours.blocking), HALO_WIDTH))
            painter.setBrush(QBrush(QColor(look.colours.blocking_glow)))
            painter.drawPath(paths.halo)
            painter.setBrush(look.brush)
            painter.setPen(look.pen)
        painter.drawPath(paths.outline)
        if self.facts.node.selected:
            # Named by the plan itself: a double border, like `peripheries=2` in DOT.
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(look.thin)
            painter.drawPath(paths.inner)
        if paths.decoration is not None:
            painter.setPen(look.thin)
            painter.drawPath(paths.decoration)
        self._paint_emphasis(painter, look.colours)
        if paths.badge is not None:
            self._paint_badge(painter, paths.badge, lod >= LABEL_LOD)
        if lod >= LABEL_LOD:
            self._paint_text(painter, look)

    def _paint_badge(self, painter: QPainter, disc: QRectF, labelled: bool) -> None:
        # White on the blocker's own colour, like the verdict icons: legible on any canvas.
        painter.setPen(QPen(QColor("#ffffff"), 1.5))
        painter.setBrush(QBrush(QColor(style.KNOWN_BLOCKER_COLOUR)))
        painter.drawEllipse(disc)
        if labelled:
            count = len(self.facts.blockers)
            small, _, _ = fonts()
            bold = QFont(small)
            bold.setWeight(QFont.Weight.Bold)
            painter.setFont(bold)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, "!" if count == 1 else str(count))

    def _paint_emphasis(self, painter: QPainter, colours: style.GraphColours) -> None:
        if self.emphasis is Emphasis.NONE or self.emphasis is Emphasis.CLOSURE:
            return
        colour = colours.path if self.emphasis is Emphasis.PATH else colours.highlight
        pen = QPen(QColor(colour), 3.0)
        pen.setStyle(Qt.PenStyle.SolidLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(outline(self._shape, self._rect.adjusted(-6, -6, 6, 6)))

    def _paint_text(self, painter: QPainter, look: _Look) -> None:
        small, main, ghost = fonts()
        missing = self.facts.node.missing
        x = TEXT_INDENT.get(self._shape, DEFAULT_INDENT)
        baseline = TOP_EXTRA.get(self._shape, 0.0) + _PAD_Y + _LINE - 4
        colours = look.colours
        painter.setFont(small)
        painter.setPen(QColor(colours.muted))
        painter.drawText(QPointF(x, baseline), self._text.top)
        painter.setFont(ghost if missing else main)
        painter.setPen(QColor(colours.muted if missing else colours.text))
        painter.drawText(QPointF(x, baseline + _LINE), self._text.main)
        if self._text.extra is not None:
            painter.setFont(small)
            painter.setPen(look.status if not missing else QColor(colours.muted))
            painter.drawText(QPointF(x, baseline + 2 * _LINE), self._text.extra)
