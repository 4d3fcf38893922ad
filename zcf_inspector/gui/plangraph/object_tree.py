"""The selected subject's object as a collapsible, copyable tree that uses the pane's width.

Keys on the left, values on the right (strings quoted, containers as counts), nested
members one click away; the first two levels start open. Ctrl+C copies the selected
member as indented JSON, "Copy JSON" the whole object, and the context menu the
member's JSON pointer too. Plain text only: every key and string goes through
`visible`, in item views, so nothing from the document is interpreted.

Bounded: at most `ROW_LIMIT` rows are made (a hostile object of a million members
shows its first rows and says how many were left out; Copy JSON still has all).
"""

from __future__ import annotations

import json

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core import pointer as json_pointer
from zcf_inspector.core.canonical import canonical_exact
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.gui.clipboard import set_clipboard
from zcf_inspector.gui.plain_text import plain_label, preview, set_tooltip, visible

ROW_LIMIT = 5_000
_OPEN_DEPTH = 2
_POINTER_ROLE = Qt.ItemDataRole.UserRole + 1


def json_text(value: JsonValue) -> str:
    """``value`` as indented JSON (what Copy puts on the clipboard)."""
    try:
        return json.dumps(value, indent=2, ensure_ascii=False)
    except TypeError:  # a Decimal: written exactly, never as a rounded double
        return canonical_exact(value).decode("utf-8")


class _Tree(QTreeView):
    """A tree whose Copy key copies JSON (an item view's own Copy copies a cell's text)."""

    copy_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt virtual)
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class ObjectTree(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value: JsonValue | None = None
        self._where: str | None = None
        self.caption = plain_label(wrap=True, selectable=True)
        self.copy_button = QPushButton("Copy JSON")
        set_tooltip(self.copy_button, "Copy the whole object as indented JSON")
        self.copy_button.clicked.connect(self.copy_all)
        self.copy_button.setEnabled(False)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.caption, 1)
        top.addWidget(self.copy_button)
        self.model = QStandardItemModel(0, 2, self)
        self.model.setHorizontalHeaderLabels(["Key", "Value"])
        self.view = _Tree()
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.view.setWordWrap(False)
        header = self.view.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._menu)
        self.view.copy_requested.connect(self.copy_selected)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)

    # ---- content ------------------------------------------------------------------------

    def show_object(self, document: JsonValue | None, where: str | None) -> None:
        """The value at ``where`` in ``document``, or a caption saying why there is none."""
        self.model.removeRows(0, self.model.rowCount())
        self._value, self._where = None, where
        self.copy_button.setEnabled(False)
        if where is None:
            self.caption.setText("Object: not declared anywhere in the document")
            return
        if document is None:
            self.caption.setText(f"Object at {visible(where)} (the document was not given)")
            return
        try:
            value = json_pointer.resolve(document, where)
        except (KeyError, ValueError):
            self.caption.setText(f"Object: {visible(where)} does not resolve in the document")
            return
        self._value = value
        self.copy_button.setEnabled(True)
        made = self._fill(value, where)
        left = _count(value, ROW_LIMIT + made + 1) - made
        caption = f"Object at {visible(where) or '(document)'}"
        if left > 0:
            caption += f" — first {made:,} members shown, {left:,}+ more in Copy JSON"
        self.caption.setText(caption)
        self.view.resizeColumnToContents(0)

    def clear(self) -> None:
        self.model.removeRows(0, self.model.rowCount())
        self.caption.setText("")
        self._value = self._where = None
        self.copy_button.setEnabled(False)

    def _fill(self, value: JsonValue, where: str) -> int:
        """Rows for ``value``'s members, breadth-first, up to `ROW_LIMIT`; returns how many."""
        root = self.model.invisibleRootItem()
        queue: list[tuple[QStandardItem, JsonValue, str, int]] = [(root, value, where, 0)]
        made = 0
        head = 0
        while head < len(queue) and made < ROW_LIMIT:
            parent, container, at, depth = queue[head]
            head += 1
            members = (
                container.items()
                if isinstance(container, dict)
                else enumerate(container)
                if isinstance(container, list)
                else ()
            )
            for key, member in members:
                if made >= ROW_LIMIT:
                    break
                path = json_pointer.child(at, key)
                key_item = QStandardItem(visible(str(key)))
                key_item.setData(path, _POINTER_ROLE)
                value_item = QStandardItem(preview(member))
                value_item.setData(path, _POINTER_ROLE)
                parent.appendRow([key_item, value_item])
                made += 1
                if isinstance(member, dict | list) and member:
                    queue.append((key_item, member, path, depth + 1))
                    if depth + 1 < _OPEN_DEPTH:
                        self.view.setExpanded(key_item.index(), True)
        return made

    # ---- copying ------------------------------------------------------------------------

    def selected_pointer(self) -> str | None:
        index = self.view.currentIndex()
        path = index.data(_POINTER_ROLE) if index.isValid() else None
        return path if isinstance(path, str) else None

    def _selected_value(self) -> tuple[bool, JsonValue]:
        path = self.selected_pointer()
        if path is None or self._value is None or self._where is None:
            return False, None
        try:
            return True, json_pointer.resolve(self._value, path[len(self._where) :])
        except (KeyError, ValueError):
            return False, None

    def copy_all(self) -> None:
        if self._value is not None:
            set_clipboard(json_text(self._value))

    def copy_selected(self) -> None:
        found, value = self._selected_value()
        if found:
            set_clipboard(json_text(value))
        else:
            self.copy_all()

    def copy_pointer(self) -> None:
        path = self.selected_pointer()
        if path is not None:
            set_clipboard(path)

    def _menu(self, where: QPoint) -> None:
        index: QModelIndex = self.view.indexAt(where)
        if index.isValid():
            self.view.setCurrentIndex(index)
        menu = QMenu(self)
        menu.addAction("Copy value as JSON", self.copy_selected)
        menu.addAction("Copy JSON pointer", self.copy_pointer)
        menu.addAction("Copy the whole object", self.copy_all)
        menu.exec(self.view.viewport().mapToGlobal(where))


def _count(value: JsonValue, limit: int) -> int:
    """Members below ``value`` (all depths), counted up to ``limit``."""
    total = 0
    stack = [value]
    while stack and total < limit:
        item = stack.pop()
        members = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        for member in members:
            total += 1
            if isinstance(member, dict | list):
                stack.append(member)
    return total
