"""The review table's view: the highlighted rows, the current row and the detail are one.

A stock `QTableView` lets the current row and the selection part: Ctrl with a
navigation key moves the current row (and so the belief the detail pane shows, and the
one a decision key decided) but leaves the highlight where it was, and Home/End move
along a row, not between rows. Here every navigation key moves both together — Home
and End (with or without Ctrl) go to the first and the last belief, PageUp/PageDown a
page — and only Shift extends the highlight from the current row. The pane's decision
keys act on the highlighted rows (`ReviewPane.decide_current`).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QTableView

_NAVIGATION: Final = frozenset(
    {
        Qt.Key.Key_Home,
        Qt.Key.Key_End,
        Qt.Key.Key_PageUp,
        Qt.Key.Key_PageDown,
        Qt.Key.Key_Up,
        Qt.Key.Key_Down,
        Qt.Key.Key_Left,
        Qt.Key.Key_Right,
    }
)
_CursorAction = QAbstractItemView.CursorAction
_Flag = QItemSelectionModel.SelectionFlag


class ReviewTable(QTableView):
    def moveCursor(  # noqa: N802 - Qt override
        self, cursor_action: _CursorAction, modifiers: Qt.KeyboardModifier
    ) -> QModelIndex:
        model = self.model()
        if model is not None and model.rowCount() > 0:
            column = max(self.currentIndex().column(), 0)
            if cursor_action is _CursorAction.MoveHome:
                return model.index(0, column)
            if cursor_action is _CursorAction.MoveEnd:
                return model.index(model.rowCount() - 1, column)
        return super().moveCursor(cursor_action, modifiers)

    def selectionCommand(  # noqa: N802 - Qt override
        self, index: QModelIndex | QPersistentModelIndex, event: QEvent | None = None
    ) -> _Flag:
        if isinstance(event, QKeyEvent) and Qt.Key(event.key()) in _NAVIGATION:
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                return super().selectionCommand(index, event)  # extends from the current row
            # Ctrl+navigation too: the highlight goes where the current row goes.
            return _Flag.ClearAndSelect | _Flag.Rows
        return super().selectionCommand(index, event)
