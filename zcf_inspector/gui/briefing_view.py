"""The Briefing pane's text: a briefing's lines in a read-only, wrapped, selectable
`QPlainTextEdit`, each line in its style (headings bold, tones the theme's), formatted
only where the reviewer looks. Plain text only: the lines come escaped (`briefing_lines`)."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent, QMouseEvent, QTextCharFormat, QTextLayout
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from zcf_inspector.gui.briefing_lines import Style
from zcf_inspector.gui.escape_tokens import install_on_editor
from zcf_inspector.gui.theme import Tone, tone_colour

_TONES: Final = {Style.GOOD: Tone.GOOD, Style.CAUTION: Tone.CAUTION, Style.BAD: Tone.BAD}


class BriefingView(QPlainTextEdit):
    """The briefing's lines: read-only, wrapped, selectable by mouse and keyboard."""

    activated = Signal(int)  # a line (block) number: Enter or a double-click

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        install_on_editor(self)  # escaped characters as tokens, named in their tooltips
        self.setUndoRedoEnabled(False)
        self.setAccessibleName("Briefing")
        self.setTabChangesFocus(True)
        self.styles: tuple[Style, ...] = ()  # per line (block)
        self._formats: dict[Style, QTextCharFormat] = {}
        self._painted: set[int] = set()  # blocks whose formats are set
        self.updateRequest.connect(self._paint_visible)

    def set_lines(self, text: str, styles: tuple[Style, ...]) -> None:
        """Show ``text`` (one block per line), each block in its style."""
        self.styles = styles
        self._painted = set()
        self._formats = self._make_formats()
        # setPlainText writes with the cursor's current format: a bold heading under the
        # cursor would make the whole new text bold.
        self.setCurrentCharFormat(QTextCharFormat())
        self.setPlainText(text)
        # setPlainText clears the document first and may repaint it empty meanwhile: a
        # block painted then got a format one character long. Painted again, in full.
        self._painted = set()
        self._paint_visible()

    def restyle(self) -> None:
        """The palette changed: the tones' colours are the theme's."""
        document = self.document()
        for number in self._painted:
            document.findBlockByNumber(number).layout().clearFormats()
        if self._painted:
            document.markContentsDirty(0, document.characterCount())
        self._painted = set()
        self._formats = self._make_formats()
        self._paint_visible()

    def block_changed(self, number: int) -> None:
        """A block's text was replaced (a reveal): its format is set again."""
        self._painted.discard(number)
        self._paint_visible()

    def _make_formats(self) -> dict[Style, QTextCharFormat]:
        palette = self.palette()
        bold, title = QTextCharFormat(), QTextCharFormat()
        bold.setFontWeight(QFont.Weight.Bold)
        title.setFontWeight(QFont.Weight.Bold)
        title.setFontPointSize(self.font().pointSizeF() * 1.1)
        formats: dict[Style, QTextCharFormat] = {Style.HEADING: bold, Style.TITLE: title}
        for style, tone in _TONES.items():
            formats[style] = QTextCharFormat()
            formats[style].setForeground(tone_colour(tone, palette))
        formats[Style.DETAIL] = QTextCharFormat()
        formats[Style.DETAIL].setForeground(palette.color(palette.ColorRole.PlaceholderText))
        return formats

    def _paint_visible(self, *_: object) -> None:
        """Format the blocks in view that are not yet: as a syntax highlighter would, but
        only where the reviewer looks, so a briefing of thousands of lines costs what a
        screenful does (formatting every block took 0.75 s for 7,000 lines)."""
        if not self.styles:
            return
        document = self.document()
        offset = self.contentOffset()
        bottom = self.viewport().height()
        block = self.firstVisibleBlock()
        dirty = []
        while block.isValid():
            number = block.blockNumber()
            if number not in self._painted:
                self._painted.add(number)
                style = self.styles[number] if number < len(self.styles) else Style.PLAIN
                fmt = self._formats.get(style)
                if fmt is not None:
                    whole = QTextLayout.FormatRange()
                    whole.start, whole.length, whole.format = 0, block.length(), fmt
                    block.layout().setFormats([whole])
                    dirty.append(block)
            if self.blockBoundingGeometry(block).translated(offset).top() > bottom:
                break
            block = block.next()
        if dirty:  # one relayout for the screenful, not one per block
            start = dirty[0].position()
            document.markContentsDirty(start, dirty[-1].position() + dirty[-1].length() - start)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        ):
            self.activated.emit(self.textCursor().blockNumber())
            event.accept()
            return
        super().keyPressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        super().mouseDoubleClickEvent(event)
        self.activated.emit(self.cursorForPosition(event.position().toPoint()).blockNumber())
