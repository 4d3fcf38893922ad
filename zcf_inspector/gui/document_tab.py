"""One open document: the verdict header over the tree (left) and the tool panes (right)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelection, QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QSplitter,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.continuation.results import DocumentKind
from zcf_inspector.core.destination import Destination
from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR
from zcf_inspector.gui.byte_refusal_pane import ByteRefusalPane
from zcf_inspector.gui.canonical_pane import CanonicalPane
from zcf_inspector.gui.clipboard import CopyKind, set_clipboard, slow_copy_work
from zcf_inspector.gui.documents import (
    ContinuationDocument,
    PacketDocument,
    ReceiptDocument,
    ShownDocument,
)
from zcf_inspector.gui.find_bar import FindBar
from zcf_inspector.gui.findings_pane import FindingsPane
from zcf_inspector.gui.load_worker import TaskRunner, Work
from zcf_inspector.gui.manifest_pane import ManifestPane
from zcf_inspector.gui.packet_tree_model import (
    KEY_COLUMN,
    TYPE_COLUMN,
    VALUE_COLUMN,
    JsonNode,
    PacketTreeModel,
)
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.tool_panes import make_plan_graph_pane, make_review_pane
from zcf_inspector.gui.tree_annotations import TreeAnnotations
from zcf_inspector.gui.tree_search import FindMode, FindQuery, find
from zcf_inspector.gui.verdict_header import VerdictHeader
from zcf_inspector.gui.verdicts import (
    Verdict,
    continuation_verdict,
    packet_verdict,
    receipt_verdict,
)

PANE_MANIFEST = "Manifest"
PANE_CANONICAL = "Canonical bytes"
PANE_FINDINGS = "Findings"
PANE_BYTES = "Byte refusal"
PANE_REVIEW = "Review"
PANE_PLAN_GRAPH = "Plan graph"


def document_paths(document: ShownDocument) -> tuple[str, ...]:
    if isinstance(document, ContinuationDocument) and document.report_path is not None:
        return (document.path, document.report_path)
    return (document.path,)


def document_title(document: ShownDocument) -> str:
    return " + ".join(Path(p).name for p in document_paths(document))


class DocumentTab(QWidget):
    def __init__(
        self,
        document: ShownDocument,
        runner: TaskRunner,
        destination: Destination | None,
        copy_actions: dict[CopyKind, QAction] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        self.document = document
        self.destination = destination
        self.header = VerdictHeader()
        self.find_bar = FindBar()
        self.find_bar.hide()
        self.tree = QTreeView()
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.setAccessibleName("Document tree")
        install_on_view(self.tree)
        self.model = PacketTreeModel({}, parent=self)
        self.tree.setModel(self.model)
        # The window's Edit actions (with their shortcuts), reused by the context menu.
        self.copy_actions = copy_actions or {}
        self.panes = QTabWidget()
        self.panes.setDocumentMode(True)
        self.manifest_pane = ManifestPane()
        self.canonical_pane = CanonicalPane(self._run)
        self.findings_pane = FindingsPane()
        self.byte_pane = ByteRefusalPane()
        self.review_pane: QWidget | None = None
        self.plan_graph_pane: QWidget | None = None
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.find_bar)
        left_layout.addWidget(self.tree)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.panes)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([580, 420])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.header)
        layout.addWidget(self.splitter, 1)
        self.header.pointerActivated.connect(self.select_pointer)
        self.manifest_pane.pointerSelected.connect(self.select_pointer)
        self.findings_pane.pointerSelected.connect(self.select_pointer)
        self.find_bar.findRequested.connect(self._find)
        self.find_bar.closed.connect(self.tree.setFocus)
        self.set_document(document, destination)

    # --- showing a document ---------------------------------------------------------

    @property
    def title(self) -> str:
        return document_title(self.document)

    @property
    def paths(self) -> tuple[str, ...]:
        return document_paths(self.document)

    def set_document(self, document: ShownDocument, destination: Destination | None) -> None:
        """Show ``document`` (a first load, a reload or a re-verification)."""
        selected = self.selected_pointer()
        self.document = document
        self.destination = destination
        value, findings, elsewhere, verdict = self._describe(document)
        annotations = TreeAnnotations.build(
            (f for f, other in zip(findings, elsewhere, strict=True) if not other),
            document.inspection.manifest if isinstance(document, PacketDocument) else None,
        )
        old = self.model
        self.model = PacketTreeModel(value, annotations, self)
        self.tree.setModel(self.model)
        old.deleteLater()
        self.tree.selectionModel().selectionChanged.connect(self._tree_selection_changed)
        self._size_columns()
        self.verdict = verdict
        self.header.set_verdict(verdict, document.path)
        self.findings_pane.set_findings(findings, elsewhere)
        self._arrange_panes(document)
        self.canonical_pane.clear()
        if selected is not None and self.model.index_for_pointer(selected, nearest=False).isValid():
            self.select_pointer(selected)
        else:
            self._initial_selection(findings, elsewhere)

    def _describe(
        self, document: ShownDocument
    ) -> tuple[JsonValue, tuple[Finding, ...], tuple[str, ...], Verdict]:
        if isinstance(document, PacketDocument):
            inspection = document.inspection
            findings = inspection.findings
            value: JsonValue = inspection.value if inspection.value is not None else {}
            return value, findings, ("",) * len(findings), packet_verdict(inspection)
        if isinstance(document, ReceiptDocument):
            findings = document.report.findings
            return document.value, findings, ("",) * len(findings), receipt_verdict(document.report)
        assert isinstance(document, ContinuationDocument)
        result = document.result
        local = list(result.findings)
        for plan in result.plans:
            local.extend(plan.findings)
        report_findings = result.report.findings if result.report is not None else ()
        report_elsewhere = ""
        if result.kind is not DocumentKind.CONTINUATION_REPORT and document.report_path:
            report_elsewhere = Path(document.report_path).name
        findings = (*local, *report_findings)
        elsewhere = ("",) * len(local) + (report_elsewhere,) * len(report_findings)
        value = document.value if document.value is not None else {}
        return value, findings, elsewhere, continuation_verdict(result)

    def _arrange_panes(self, document: ShownDocument) -> None:
        wanted: list[tuple[str, QWidget]] = []
        if isinstance(document, PacketDocument):
            inspection = document.inspection
            if inspection.read_error is not None:
                self.byte_pane.set_error(inspection.read_error, document.data)
                wanted.append((PANE_BYTES, self.byte_pane))
            else:
                self.manifest_pane.set_report(inspection.manifest)
                wanted.append((PANE_MANIFEST, self.manifest_pane))
            wanted.append((PANE_CANONICAL, self.canonical_pane))
            wanted.append((PANE_FINDINGS, self.findings_pane))
            if self.review_pane is None:
                self.review_pane = make_review_pane()
            set_packet = getattr(self.review_pane, "set_packet", None)
            if callable(set_packet):
                set_packet(document.path, document.data, inspection, self.destination)
            wanted.append((PANE_REVIEW, self.review_pane))
        elif isinstance(document, ReceiptDocument):
            wanted += [(PANE_CANONICAL, self.canonical_pane), (PANE_FINDINGS, self.findings_pane)]
        else:
            assert isinstance(document, ContinuationDocument)
            wanted.append((PANE_FINDINGS, self.findings_pane))
            if self.plan_graph_pane is None:
                self.plan_graph_pane = make_plan_graph_pane()
            show_result = getattr(self.plan_graph_pane, "show_result", None)
            if callable(show_result):
                show_result(document.result)
            wanted += [
                (PANE_PLAN_GRAPH, self.plan_graph_pane),
                (PANE_CANONICAL, self.canonical_pane),
            ]
        current = self.panes.tabText(self.panes.currentIndex())
        if [self.panes.tabText(i) for i in range(self.panes.count())] != [n for n, _ in wanted]:
            while self.panes.count():
                self.panes.removeTab(0)
            for name, pane in wanted:
                self.panes.addTab(pane, name)
        self.show_pane(current if current else wanted[0][0])

    def show_pane(self, name: str) -> bool:
        for i in range(self.panes.count()):
            if self.panes.tabText(i) == name:
                self.panes.setCurrentIndex(i)
                return True
        return False

    def pane_names(self) -> list[str]:
        return [self.panes.tabText(i) for i in range(self.panes.count())]

    def _size_columns(self) -> None:
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.setColumnWidth(KEY_COLUMN, 210)
        self.tree.setColumnWidth(VALUE_COLUMN, 280)
        self.tree.setColumnWidth(TYPE_COLUMN, 64)  # the status column stretches

    def _initial_selection(self, findings: tuple[Finding, ...], elsewhere: tuple[str, ...]) -> None:
        content = self.model.index_for_pointer("/content", nearest=False)
        if content.isValid():
            self.tree.expand(content)
        document = self.document
        if isinstance(document, PacketDocument) and document.inspection.manifest is not None:
            changed = [
                s for s in document.inspection.manifest.sections if not s.match and s.pointer
            ]
            if changed and changed[0].pointer is not None:
                self.select_pointer(changed[0].pointer)  # the section whose bytes changed
                return
        first_error = next(
            (
                f
                for f, other in zip(findings, elsewhere, strict=True)
                if not other and f.severity == "error"
            ),
            None,
        )
        if first_error is not None and first_error.pointer:
            self.select_pointer(first_error.pointer)

    # --- selection ---------------------------------------------------------------

    def select_pointer(self, pointer: str) -> None:
        """Select the node ``pointer`` names (or its nearest existing ancestor)."""
        index = self.model.index_for_pointer(pointer)
        if not index.isValid():
            self.tree.clearSelection()
            return
        parent = index.parent()
        while parent.isValid():
            self.tree.expand(parent)
            parent = parent.parent()
        self.tree.setCurrentIndex(index)
        self.tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    def selected_node(self) -> JsonNode | None:
        return self.model.node(self.tree.currentIndex())

    def selected_pointer(self) -> str | None:
        node = self.selected_node()
        return None if node is None else node.pointer

    def _tree_selection_changed(self, selected: QItemSelection, _old: QItemSelection) -> None:
        indexes = selected.indexes()
        node = self.model.node(indexes[0]) if indexes else None
        if node is None or node.is_range:
            self.canonical_pane.clear()
        else:
            self.canonical_pane.show_node(node.pointer, node.value)

    # --- copying ------------------------------------------------------------------

    def _context_menu(self, position: QPoint) -> None:
        index = self.tree.indexAt(position)
        if not index.isValid():
            return
        menu = QMenu(self)
        for action in self.copy_actions.values():
            menu.addAction(action)
        menu.popup(self.tree.viewport().mapToGlobal(position))

    def copy(self, kind: CopyKind) -> None:
        node = self.selected_node()
        if node is None or (node.is_range and kind is not CopyKind.POINTER):
            return  # a range of a long array is not a value of the document
        if kind is CopyKind.KEY:
            set_clipboard(str(node.key))
        elif kind is CopyKind.POINTER:
            set_clipboard(node.pointer)
        elif kind is CopyKind.VALUE and not isinstance(node.value, dict | list):
            set_clipboard(slow_copy_work(kind, node.pointer, node.value)(NULL_MONITOR))
        else:
            self.runner.start(
                kind.value.lower(),
                slow_copy_work(kind, node.pointer, node.value),
                lambda text: set_clipboard(str(text)),
            )

    # --- find -------------------------------------------------------------------

    def open_find(self) -> None:
        self.find_bar.open_bar()

    def find_again(self, backwards: bool) -> None:
        if not self.find_bar.edit.text():
            self.open_find()
            return
        self._find(self.find_bar.edit.text(), self.find_bar.mode.currentData(), backwards)

    def _find(self, text: str, mode: str, backwards: bool) -> None:
        node = self.selected_node()
        query = FindQuery(text, FindMode(mode), node.path() if node else (), backwards)
        document = self.model.document
        self.find_bar.status.setText("searching…")

        def found(path: object) -> None:
            if path is None:
                self.find_bar.status.setText("not found")
                return
            assert isinstance(path, tuple)
            self.find_bar.status.setText("")
            node = self.model.node(self.model.index_for_path(path))
            if node is not None:
                self.select_pointer(node.pointer)

        self.runner.start("find", lambda monitor: find(document, query, monitor), found)

    # --- background work ------------------------------------------------------------

    def _run(self, label: str, work: Work, on_done: Callable[[Any], None]) -> object:
        return self.runner.start(label, work, on_done)

    def current_index(self) -> QModelIndex:
        return self.tree.currentIndex()
