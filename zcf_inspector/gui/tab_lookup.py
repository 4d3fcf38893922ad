"""Looking at and for a node of a document tab: its whole value in a plain-text viewer
(the explicit way to read a value the tree shows elided or masked), and Find in the tree.
Both are made on the runner: a value may be megabytes, a tree a million nodes."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from zcf_inspector.gui.find_bar import FindBar
from zcf_inspector.gui.full_value import FullValue, FullValueDialog, full_value
from zcf_inspector.gui.packet_tree_model import JsonNode, PacketTreeModel
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.gui.tree_search import FindMode, FindQuery, find, is_pointer_query


class LookupHost(Protocol):
    """What looking at and for a node needs of a document tab."""

    find_bar: FindBar
    model: PacketTreeModel
    runner: TaskRunner

    def selected_node(self) -> JsonNode | None: ...
    def select_pointer(self, pointer: str) -> None: ...
    def open_find(self) -> None: ...


class NodeLookup:
    def __init__(self, tab: LookupHost, parent: QWidget) -> None:
        self.tab = tab
        self._parent = parent  # of the full value's dialog
        self.full_value_dialog: FullValueDialog | None = None
        self._full_value_ticket = 0

    def dispose(self) -> None:
        self._full_value_ticket += 1  # a value still on its way is dropped
        if self.full_value_dialog is not None:
            self.full_value_dialog.close()
            self.full_value_dialog = None

    def show_full_value(self) -> None:
        """Open the selected node's whole value (made on a worker) in a plain-text viewer."""
        node = self.tab.selected_node()
        if node is None or node.is_range:
            return
        self._full_value_ticket += 1
        ticket = self._full_value_ticket
        pointer, value = node.pointer, node.value

        def done(result: object) -> None:
            if ticket == self._full_value_ticket and isinstance(result, FullValue):
                self._show_full_value(result)

        self.tab.runner.start(
            "full value", lambda monitor: full_value(pointer, value, monitor), done
        )

    def _show_full_value(self, value: FullValue) -> None:
        if self.full_value_dialog is not None:
            self.full_value_dialog.close()
        dialog = FullValueDialog(value, self._parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda *_: self._forget_dialog(dialog))
        self.full_value_dialog = dialog
        dialog.show()

    def _forget_dialog(self, dialog: FullValueDialog) -> None:
        if self.full_value_dialog is dialog:
            self.full_value_dialog = None

    def find_again(self, backwards: bool) -> None:
        if not self.tab.find_bar.edit.text():
            self.tab.open_find()
            return
        self.find(self.tab.find_bar.edit.text(), self.tab.find_bar.mode.currentData(), backwards)

    def find(self, text: str, mode: str, backwards: bool) -> None:
        node = self.tab.selected_node()
        query = FindQuery(text, FindMode(mode), node.path() if node else (), backwards)
        document = self.tab.model.document
        self.tab.find_bar.status.setText("searching…")

        def found(path: object) -> None:
            if path is None:
                pointer = is_pointer_query(text)
                self.tab.find_bar.status.setText(
                    "no node at that pointer" if pointer else "not found"
                )
                return
            assert isinstance(path, tuple)
            self.tab.find_bar.status.setText("")
            node = self.tab.model.node(self.tab.model.index_for_path(path))
            if node is not None:
                self.tab.select_pointer(node.pointer)

        self.tab.runner.start("find", lambda monitor: find(document, query, monitor), found)
