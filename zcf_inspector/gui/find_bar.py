"""Ctrl+F: find by key, value or JSON pointer; Enter / F3 next, Shift+Enter / Shift+F3
previous, Escape closes."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QToolButton, QWidget

from zcf_inspector.gui.plain_text import plain_label
from zcf_inspector.gui.tree_search import FindMode


class _FindEdit(QLineEdit):
    previousRequested = Signal()  # noqa: N815
    closeRequested = Signal()  # noqa: N815

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.previousRequested.emit()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.closeRequested.emit()
            return
        super().keyPressEvent(event)


class FindBar(QWidget):
    findRequested = Signal(str, str, bool)  # noqa: N815 - (text, mode, backwards)
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = _FindEdit()
        self.edit.setPlaceholderText("Find key, value or /json/pointer (a / starts a pointer)")
        self.edit.setClearButtonEnabled(True)
        self.mode = QComboBox()
        for mode in FindMode:
            self.mode.addItem(mode.value, mode.value)
        self.previous = QToolButton()
        self.previous.setArrowType(Qt.ArrowType.UpArrow)
        self.previous.setAccessibleName("Find previous (Shift+F3)")
        self.next = QToolButton()
        self.next.setArrowType(Qt.ArrowType.DownArrow)
        self.next.setAccessibleName("Find next (F3)")
        self.status = plain_label()
        close = QToolButton()
        close.setText("\N{MULTIPLICATION SIGN}")
        close.setAccessibleName("Close find (Esc)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(plain_label("Find:"))
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.mode)
        layout.addWidget(self.previous)
        layout.addWidget(self.next)
        layout.addWidget(self.status)
        layout.addWidget(close)
        self.edit.returnPressed.connect(self.find_next)
        self.edit.previousRequested.connect(self.find_previous)
        self.edit.closeRequested.connect(self.close_bar)
        self.next.clicked.connect(self.find_next)
        self.previous.clicked.connect(self.find_previous)
        close.clicked.connect(self.close_bar)

    def open_bar(self) -> None:
        self.show()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    def set_mode(self, mode: FindMode) -> None:
        self.mode.setCurrentIndex(self.mode.findData(mode.value))

    def find_next(self) -> None:
        self.findRequested.emit(self.edit.text(), self.mode.currentData(), False)

    def find_previous(self) -> None:
        self.findRequested.emit(self.edit.text(), self.mode.currentData(), True)
