"""Escaped characters drawn as tokens typed text cannot produce.

The one escaping rule (`core.visible_text`) is one-to-one: ``\\u202e`` in an escaped text
is always the character U+202E, a typed backslash being written as two. The window goes
one step further, so a reader need not count backslashes: each escape is drawn in its own
colour on its own background, in a frame (`theme.token_colours`), and its tooltip names
the code point. Typed text is drawn as text, as the text form writes it (a typed
backslash doubled), however it is spelled.

- `EscapeTokenDelegate`: item views (the tree, Findings, the manifest, the verdict's
  checks, the compare table, the review table; `install_tokens`); the view's plain
  tooltip names the token under the mouse first. A cell of several lines is drawn by Qt
  as usual (escaped, without tokens).
- `install_on_editor`: plain-text editors (the review detail, the Briefing): a
  highlighter colours each escape, and the viewport's tooltip names the one under the
  mouse. A text past `EDITOR_CHARS` is left to Qt (its highlighting would cost per line).
"""

from __future__ import annotations

import unicodedata
from typing import Final

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QPoint, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QHelpEvent,
    QPainter,
    QPalette,
    QPen,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QPlainTextEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from zcf_inspector.core.visible_text import escapes
from zcf_inspector.gui.plain_tooltip import show_plain_tip
from zcf_inspector.gui.theme import token_colours

EDITOR_CHARS: Final = 200_000
_PAD: Final = 2.0  # inside a token's frame, each side
AnyIndex = QModelIndex | QPersistentModelIndex


def token_tip(escape: str, char: str) -> str:
    """What a token's tooltip says: the code point, and that it is one."""
    if char == "\\":
        return "\\\\ is a backslash as typed (written twice, so no escape can be typed)"
    name = unicodedata.name(char, "unnamed")
    return (
        f"{escape} is the character U+{ord(char):04X} {name}, shown escaped: the text holds "
        "it, not the characters of its escape"
    )


def _segments(text: str) -> list[tuple[str, str | None, str]]:
    """``text`` as (shown text, the character of a token or None, its escape)."""
    parts: list[tuple[str, str | None, str]] = []
    at = 0
    for start, end, char in escapes(text):
        if start > at:
            parts.append((text[at:start], None, ""))
        if char == "\\":
            parts.append(("\\\\", None, ""))  # a typed backslash: as the text form writes it
        else:
            parts.append((text[start:end], char, text[start:end]))
        at = end
    if at < len(text):
        parts.append((text[at:], None, ""))
    return parts


def _has_tokens(text: object) -> bool:
    return isinstance(text, str) and "\\" in text and any(True for _ in escapes(text))


class EscapeTokenDelegate(QStyledItemDelegate):
    """Draws a cell's escapes as tokens; everything else as the style draws it."""

    def _layout(
        self, option: QStyleOptionViewItem, text: str
    ) -> tuple[QRectF, list[tuple[QRectF, str, str | None, str]]]:
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        area = QRectF(style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget))
        metrics = QFontMetricsF(option.font)
        x = area.left() + 3
        height = metrics.height()
        top = area.top() + (area.height() - height) / 2
        placed: list[tuple[QRectF, str, str | None, str]] = []
        for shown, char, escape in _segments(text):
            width = metrics.horizontalAdvance(shown) + (2 * _PAD if char is not None else 0)
            placed.append((QRectF(x, top, width, height), shown, char, escape))
            x += width + (1 if char is not None else 0)
        return area, placed

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not _has_tokens(text) or "\n" in text:
            super().paint(painter, option, index)
            return
        assert isinstance(text, str)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        area, placed = self._layout(opt, text)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = opt.palette
        plain = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        fore, back = token_colours(palette)
        painter.save()
        painter.setClipRect(area)
        painter.setFont(opt.font)
        for rect, shown, char, _ in placed:
            if rect.left() > area.right():
                break
            if char is None:
                painter.setPen(plain)
                painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter, shown)
                continue
            painter.setPen(QPen(fore, 1))
            painter.setBrush(back)
            painter.drawRoundedRect(rect.adjusted(0, 0.5, 0, -0.5), 3, 3)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, shown)
        painter.restore()

    def token_at(self, view: QWidget, index: AnyIndex, pos: QPoint) -> str:
        """The tooltip of the token under ``pos`` in ``index``'s cell ("" for none)."""
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not _has_tokens(text) or "\n" in text:
            return ""
        assert isinstance(text, str)
        opt = QStyleOptionViewItem()
        opt.initFrom(view)
        opt.rect = view.visualRect(index)  # type: ignore[attr-defined]
        self.initStyleOption(opt, index)
        opt.widget = view
        _, placed = self._layout(opt, text)
        for rect, _, char, escape in placed:
            if char is not None and rect.contains(pos.toPointF()):
                return token_tip(escape, char)
        return ""


class _Highlighter(QSyntaxHighlighter):
    def __init__(self, document: QTextDocument, editor: QPlainTextEdit) -> None:
        super().__init__(document)
        self._editor = editor

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt override
        if "\\" not in text or self._editor.document().characterCount() > EDITOR_CHARS:
            return
        fore, back = token_colours(self._editor.palette())
        shape = QTextCharFormat()
        shape.setForeground(fore)
        shape.setBackground(back)
        shape.setFontUnderline(True)
        shape.setUnderlineColor(QColor(fore))
        for start, end, char in escapes(text):
            if char != "\\":
                self.setFormat(start, end - start, shape)


class _EditorTips(QObject):
    """The viewport's tooltip: the token under the mouse, by name."""

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self._editor = editor

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
            return False
        cursor = self._editor.cursorForPosition(event.pos())
        block, at = cursor.block().text(), cursor.positionInBlock()
        for start, end, char in escapes(block):
            if start <= at < end and char != "\\":
                show_plain_tip(token_tip(block[start:end], char), event.globalPos())
                return True
        return False


def install_tokens(view: QAbstractItemView) -> None:
    """Tokens for the escapes in ``view``'s cells."""
    view.setItemDelegate(EscapeTokenDelegate(view))


def install_on_editor(editor: QPlainTextEdit) -> None:
    """Tokens for the escapes ``editor`` shows, and their names as tooltips."""
    editor.setProperty("escapeHighlighter", _Highlighter(editor.document(), editor))
    editor.viewport().installEventFilter(_EditorTips(editor))
