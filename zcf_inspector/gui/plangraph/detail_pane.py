"""The "Node" tab of the plan graph's side pane: why the subject is there, its facts, and
its object as a tree that uses the pane's width.

With no node selected it shows the plan's summary instead. Plain text throughout.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.gui.plain_text import plain_label
from zcf_inspector.gui.plangraph.node_details import node_details
from zcf_inspector.gui.plangraph.object_tree import ObjectTree
from zcf_inspector.gui.plangraph.relations import why_line
from zcf_inspector.present.asif_listing import NodeFacts
from zcf_inspector.present.reach import Reach


class NodeDetailPane(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.why = plain_label(wrap=True, selectable=True)
        font = self.why.font()
        font.setBold(True)
        self.why.setFont(font)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.object_tree = ObjectTree()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.text)
        self.splitter.addWidget(self.object_tree)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.why)
        layout.addWidget(self.splitter, 1)

    def show_node(
        self, plan: PlanResult, facts: NodeFacts, reach: Reach, document: JsonValue | None
    ) -> None:
        self.why.setText(why_line(plan, facts.node))
        self.why.setVisible(True)
        self.text.setPlainText(node_details(plan, facts, reach))
        self.object_tree.setVisible(True)
        self.object_tree.show_object(document, facts.node.pointer)

    def show_summary(self, text: str) -> None:
        self.why.clear()
        self.why.setVisible(False)
        self.text.setPlainText(text)
        self.object_tree.clear()
        self.object_tree.setVisible(False)

    def clear(self) -> None:
        self.show_summary("")

    def toPlainText(self) -> str:  # noqa: N802 - as the QPlainTextEdit it replaced
        """The facts' text (the why line is ``why.text()``)."""
        return self.text.toPlainText()
