"""Tooltips that are always plain text.

``QToolTip`` decides by itself whether a text "might be rich text", so a packet string
like ``<b>x</b>`` would render as HTML there. Widgets that show packet-derived tooltips
install `PlainToolTips` instead: it answers ``QEvent.ToolTip`` with a plain-text label.
Item views give their text through ``PLAIN_TOOLTIP_ROLE``; other widgets through
`set_plain_tooltip`.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QHelpEvent, QPalette
from PySide6.QtWidgets import QAbstractItemView, QFrame, QLabel, QWidget

from zcf_inspector.core.visible_text import clip
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE

# The longest tooltip text shown: one from a packet is cut with its length said.
TOOLTIP_CHARS: Final = 4000
_PROPERTY = "plainToolTip"
_HIDE_AFTER_MS = 10_000


class _TipLabel(QLabel):
    def __init__(self) -> None:
        super().__init__(None, Qt.WindowType.ToolTip)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setMaximumWidth(640)
        self.setFrameShape(QFrame.Shape.Box)
        self.setMargin(4)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)

    def show_at(self, text: str, where: QPoint) -> None:
        self.setText(clip(text, TOOLTIP_CHARS))
        self.adjustSize()
        self.move(where + QPoint(12, 16))
        self.show()
        self._timer.start(_HIDE_AFTER_MS)


_tip: _TipLabel | None = None


def tip_label() -> QLabel | None:
    """The label last used to show a tooltip (for tests and for hiding)."""
    return _tip


def _show(text: str, where: QPoint) -> None:
    global _tip  # noqa: PLW0603 - one tooltip window for the whole application, like QToolTip
    if _tip is None:
        _tip = _TipLabel()
    _tip.show_at(text, where)


def show_plain_tip(text: str, where: QPoint) -> None:
    """Show ``text`` as a plain-text tooltip at the global position ``where``."""
    _show(text, where)


def hide_tip() -> None:
    if _tip is not None:
        _tip.hide()


class PlainToolTips(QObject):
    """Event filter: plain-text tooltips for item views' viewports and plain widgets."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if kind == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = _text_for(watched, event.pos())
            if text:
                _show(text, event.globalPos())
            else:
                hide_tip()
            return True
        if kind in (QEvent.Type.Leave, QEvent.Type.MouseButtonPress, QEvent.Type.Hide):
            hide_tip()
        return False


def _text_for(watched: QObject, pos: QPoint) -> str:
    view = watched.parent()
    if isinstance(view, QAbstractItemView) and watched is view.viewport():
        index = view.indexAt(pos)
        value = index.data(PLAIN_TOOLTIP_ROLE) if index.isValid() else None
        text = value if isinstance(value, str) else ""
        # An escaped character's token under the mouse (`escape_tokens`) is named first.
        token_at = getattr(view.itemDelegateForIndex(index), "token_at", None)
        token = token_at(view, index, pos) if index.isValid() and token_at is not None else ""
        return f"{token}\n\n{text}" if token and text else token or text
    value = watched.property(_PROPERTY)
    return value if isinstance(value, str) else ""


_filter: PlainToolTips | None = None


def _the_filter() -> PlainToolTips:
    global _filter  # noqa: PLW0603 - a stateless filter shared by every widget
    if _filter is None:
        _filter = PlainToolTips()
    return _filter


def install_on_view(view: QAbstractItemView) -> None:
    view.viewport().installEventFilter(_the_filter())


def set_plain_tooltip(widget: QWidget, text: str) -> None:
    widget.setProperty(_PROPERTY, text)
    widget.installEventFilter(_the_filter())
