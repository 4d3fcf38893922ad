"""One open document: the verdict header over the tree (left) and the tool panes (right)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelection, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QMenu,
    QSplitter,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.continuation.results import DocumentKind
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.findings import Finding, OmittedFindings, merge_omitted
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import Admission
from zcf_inspector.gui.briefing_pane import BriefingPane
from zcf_inspector.gui.byte_refusal_pane import ByteRefusalPane
from zcf_inspector.gui.canonical_pane import CanonicalPane
from zcf_inspector.gui.clipboard import CopyKind, set_clipboard, slow_copy_work
from zcf_inspector.gui.documents import (
    ContinuationDocument,
    PacketDocument,
    ReceiptDocument,
    ShownDocument,
    UnreadableDocument,
    with_current_snapshot,
)
from zcf_inspector.gui.find_bar import FindBar
from zcf_inspector.gui.findings_pane import FindingsPane, finding_line
from zcf_inspector.gui.full_value import FullValue, FullValueDialog, full_value
from zcf_inspector.gui.manifest_pane import ManifestPane
from zcf_inspector.gui.packet_tree_model import (
    JsonNode,
    PacketTreeModel,
    expand_rows,
    expanded_rows,
)
from zcf_inspector.gui.plain_text import clip, shown, visible
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.plangraph.pane import PlanGraphPane
from zcf_inspector.gui.review.pane import OpenFiles, ReviewPane, no_open_files
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.roles import POINTER_ROLE
from zcf_inspector.gui.settings import settings_store
from zcf_inspector.gui.task_runner import TaskRunner, Work
from zcf_inspector.gui.tree_annotations import TreeAnnotations
from zcf_inspector.gui.tree_columns import TreeColumns
from zcf_inspector.gui.tree_search import FindMode, FindQuery, find, is_pointer_query
from zcf_inspector.gui.verdict_header import VerdictHeader
from zcf_inspector.gui.verdicts import (
    Verdict,
    VerdictRow,
    continuation_verdict,
    packet_verdict,
    receipt_verdict,
)
from zcf_inspector.present.asif_listing import findings_listing

PANE_MANIFEST = "Manifest"
PANE_CANONICAL = "Canonical bytes"
PANE_FINDINGS = "Findings"
PANE_BYTES = "Byte refusal"
PANE_REVIEW = "Review"
PANE_PLAN_GRAPH = "Plan graph"
PANE_BRIEFING = "Briefing"


def document_paths(document: ShownDocument) -> tuple[str, ...]:
    if isinstance(document, ContinuationDocument) and document.report_path is not None:
        return (document.path, document.report_path)
    return (document.path,)


def _omitted_of(document: ShownDocument) -> tuple[OmittedFindings, ...]:
    """The findings past the budget of every document the tab shows (the findings pane)."""
    if isinstance(document, PacketDocument):
        return document.inspection.omitted
    if isinstance(document, ReceiptDocument):
        return document.report.omitted
    return merge_omitted(document.result.all_omitted())


def _own_omitted(document: ShownDocument) -> tuple[OmittedFindings, ...]:
    """Those whose pointers point into the shown document itself (the tree), not a report
    checked beside it."""
    if isinstance(document, ContinuationDocument):
        result = document.result
        paired = result.kind is not DocumentKind.CONTINUATION_REPORT and document.report_path
        if paired:
            return merge_omitted(result.omitted, *(p.omitted for p in result.plans))
    return _omitted_of(document)


def _admission_of(document: ShownDocument) -> Admission | None:
    """What the destination in force admitted of a packet (its tree marks what was cut
    and dropped), from the review prepared by the load."""
    review = document.review if isinstance(document, PacketDocument) else None
    target = review.target if review is not None else None
    return target.admission if target is not None else None


def document_title(document: ShownDocument) -> str:
    return " + ".join(shown(Path(p).name, TITLE_NAME_CHARS) for p in document_paths(document))


TITLE_NAME_CHARS = 80  # of each file name in a tab or window title
STATUS_CHARS = 120  # of a copied text, echoed in the status bar
# The share of the tab's width given to the panes that need room: the plan graph the
# most (its canvas and its side pane both; the tree keeps enough for key and value).
WIDE_PANES = {PANE_REVIEW: 0.62, PANE_PLAN_GRAPH: 0.78}
SPLIT_KEY = "layout/documentSplit"  # the tree's share of the tab, as the user left it


def _fraction(value: object) -> float | None:
    try:
        fraction = float(value) if isinstance(value, str | float | int) else None
    except ValueError:
        return None
    return fraction if fraction is not None and 0.05 <= fraction <= 0.95 else None


def make_review_pane(runner: TaskRunner | None = None) -> ReviewPane:
    """A review pane keeping the reviewer's identity with the window's own settings (the
    same INI file as the destination), not in a second, native-format store; its heavy
    work runs on ``runner`` (the window's: progress and Cancel in its status bar)."""
    store = settings_store()
    pane = ReviewPane(settings=store, runner=runner)
    store.setParent(pane)  # deleted with the pane, on the GUI thread
    return pane


class DocumentTab(QWidget):
    statusMessage = Signal(str)  # noqa: N815 - a short note for the window's status bar

    def __init__(
        self,
        document: ShownDocument,
        runner: TaskRunner,
        destination: Destination | None,
        copy_actions: dict[CopyKind, QAction] | None = None,
        *,
        show_value_action: QAction | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        # The packets and receipts open in the window, for Review → Compare with previous
        # generation (the window sets it; a tab on its own offers none).
        self.open_files: OpenFiles = no_open_files
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
        self.tree.doubleClicked.connect(self._double_clicked)
        install_on_view(self.tree)
        self.model = PacketTreeModel({}, parent=self)
        self.tree.setModel(self.model)
        # The window's Edit actions (with their shortcuts), reused by the context menus.
        self.copy_actions = copy_actions or {}
        self.show_value_action = show_value_action
        self.panes = QTabWidget()
        self.panes.setDocumentMode(True)
        self.manifest_pane = ManifestPane()
        self.canonical_pane = CanonicalPane(self._run)
        self.findings_pane = FindingsPane()
        self.byte_pane = ByteRefusalPane()
        self.briefing_pane = BriefingPane(runner)
        self.review_pane: ReviewPane | None = None
        self.plan_graph_pane: PlanGraphPane | None = None
        self.full_value_dialog: FullValueDialog | None = None
        self._disposed = False
        self._full_value_ticket = 0
        self._receipt_match: VerdictRow | None = None
        # The item view the copy actions act on: the last one in this tab that had focus.
        # Remembered rather than asked at the time of the copy, because opening the Edit
        # menu or a context menu moves the focus away from it.
        self.copy_view: QAbstractItemView = self.tree
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
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
        # The splitter and the tree's columns as the user left them (any tab, last run).
        self.layout_store = settings_store()
        self.layout_store.setParent(self)
        self.tree_columns = TreeColumns(self.tree, self.layout_store)
        self._split = _fraction(self.layout_store.value(SPLIT_KEY))
        self._widened = self._split is not None  # a remembered split wins over widening
        self.splitter.splitterMoved.connect(self._split_moved)
        self.panes.currentChanged.connect(self._pane_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.header)
        layout.addWidget(self.splitter, 1)
        self.header.pointerActivated.connect(self.select_pointer)
        self.manifest_pane.pointerSelected.connect(self.select_pointer)
        self.findings_pane.pointerSelected.connect(self.select_pointer)
        self.briefing_pane.pointerSelected.connect(self.select_pointer)
        self.briefing_pane.statusMessage.connect(self.statusMessage)
        self.find_bar.findRequested.connect(self._find)
        self.find_bar.closed.connect(self.tree.setFocus)
        for table in (self.findings_pane.table, self.manifest_pane.table):
            table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            table.customContextMenuRequested.connect(
                lambda position, view=table: self._table_context_menu(view, position)
            )
        self.set_document(document, destination)

    # --- showing a document ---------------------------------------------------------

    @property
    def title(self) -> str:
        return document_title(self.document)

    @property
    def paths(self) -> tuple[str, ...]:
        return document_paths(self.document)

    def check_current_snapshot(self, path: str) -> None:
        """Check the document again with ``path`` as the destination's current capability
        snapshot (ASIF 0.5), on the window's task runner, at the clock of the last check."""
        document = self.document
        if not isinstance(document, ContinuationDocument):
            return
        times = None if document.result.report is None else document.result.report.times
        now = None if times is None else parse_datetime(times.checked_at)
        self.runner.start(
            "checking the current snapshot",
            partial(with_current_snapshot, document, path, now=now),
            self._current_snapshot_checked,
        )

    def _current_snapshot_checked(self, document: object) -> None:
        if isinstance(document, UnreadableDocument):
            self.statusMessage.emit(document.message)
            return
        assert isinstance(document, ContinuationDocument)
        self.set_document(document, self.destination)
        snapshot = None if document.result.report is None else document.result.report.snapshot
        if snapshot is not None and snapshot.current is not None:
            self.statusMessage.emit(f"Current snapshot: {snapshot.current}")

    def set_document(self, document: ShownDocument, destination: Destination | None) -> None:
        """Show ``document`` (a first load, a reload or a re-check): the tree comes back
        as it was — its expanded nodes, the selected one, the scroll position."""
        selected = self.selected_pointer()
        expanded, scroll = expanded_rows(self.tree), self.tree.verticalScrollBar().value()
        self.document = document
        self.destination = destination
        value, findings, elsewhere, verdict = self._describe(document)
        omitted = _omitted_of(document)
        annotations = TreeAnnotations.build(
            (f for f, other in zip(findings, elsewhere, strict=True) if not other),
            document.inspection.manifest if isinstance(document, PacketDocument) else None,
            omitted=_own_omitted(document),
            admission=_admission_of(document),
        )
        old = self.model
        self.model = PacketTreeModel(value, annotations, self, run=self._run)
        self.tree.setModel(self.model)
        old.digests.close()
        old.deleteLater()
        self.tree.selectionModel().selectionChanged.connect(self._tree_selection_changed)
        expand_rows(self.tree, expanded)
        self._size_columns()
        self.base_verdict = verdict
        if not isinstance(document, ReceiptDocument):
            self._receipt_match = None
        self.verdict = self._with_match(verdict)
        self.header.set_verdict(self.verdict, document.path)
        self.findings_pane.set_findings(findings, elsewhere, omitted)
        self._arrange_panes(document)
        self.canonical_pane.clear()
        if selected is not None and self.model.index_for_pointer(selected, nearest=False).isValid():
            self.select_pointer(selected)
            self.tree.doItemsLayout()  # the scroll range of what was expanded, then the position
            self.tree.verticalScrollBar().setValue(scroll)
        else:
            self._initial_selection(findings, elsewhere)

    def _describe(
        self, document: ShownDocument
    ) -> tuple[JsonValue, tuple[Finding, ...], tuple[str, ...], Verdict]:
        if isinstance(document, PacketDocument):
            inspection = document.inspection
            findings = inspection.findings
            value: JsonValue = inspection.value if inspection.value is not None else {}
            target = document.review.target if document.review is not None else None
            # what admission changed is a chip of its own: never hidden
            verdict = packet_verdict(inspection, target.notice if target is not None else None)
            return value, findings, ("",) * len(findings), verdict
        if isinstance(document, ReceiptDocument):
            findings = document.report.findings
            return document.value, findings, ("",) * len(findings), receipt_verdict(document.report)
        assert isinstance(document, ContinuationDocument)
        result = document.result
        report_name = Path(document.report_path).name if document.report_path else ""
        findings, elsewhere = findings_listing(result, report_name)
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
            self.briefing_pane.set_packet(document, self.destination)
            wanted.append((PANE_BRIEFING, self.briefing_pane))
            if self.review_pane is None:
                self.review_pane = make_review_pane(self.runner)
                self.review_pane.statusMessage.connect(self.statusMessage)
                self.review_pane.open_files = self._offered_files
                # The review's evidence: Enter lands on its node in the tree, and its
                # sources show the Briefing's workspace check (issue 20).
                self.review_pane.detail.pointerSelected.connect(self._show_in_tree)
                self.briefing_pane.workspaceChecked.connect(self.review_pane.detail.set_workspace)
            self.review_pane.set_packet(
                document.path, document.data, inspection, self.destination, document.review
            )
            wanted.append((PANE_REVIEW, self.review_pane))
        elif isinstance(document, ReceiptDocument):
            wanted += [(PANE_CANONICAL, self.canonical_pane), (PANE_FINDINGS, self.findings_pane)]
        else:
            assert isinstance(document, ContinuationDocument)
            wanted.append((PANE_FINDINGS, self.findings_pane))
            if self.plan_graph_pane is None:
                self.plan_graph_pane = PlanGraphPane()
                self.plan_graph_pane.node_selected.connect(self._plan_node_selected)
                self.plan_graph_pane.plan_shown.connect(self._plan_shown)
                self.plan_graph_pane.exported.connect(
                    lambda path: self.statusMessage.emit(f"Plan graph written to {visible(path)}")
                )
                self.plan_graph_pane.current_snapshot_chosen.connect(self.check_current_snapshot)
            self.plan_graph_pane.document_path = document.path
            self.plan_graph_pane.show_result(document.result, document.value)
            wanted += [
                (PANE_PLAN_GRAPH, self.plan_graph_pane),
                (PANE_CANONICAL, self.canonical_pane),
            ]
        # A plan is read as a graph first; a packet by its manifest.
        first = PANE_PLAN_GRAPH if isinstance(document, ContinuationDocument) else wanted[0][0]
        current = self.panes.tabText(self.panes.currentIndex())
        if [self.panes.tabText(i) for i in range(self.panes.count())] != [n for n, _ in wanted]:
            while self.panes.count():
                self.panes.removeTab(0)
            for name, pane in wanted:
                self.panes.addTab(pane, name)
        self.show_pane(current if current else first)

    def _pane_changed(self, _index: int) -> None:
        """The review table and the plan graph need room the tree can spare: the first
        time one of them is shown, the panes get most of the width (once, so a width the
        user chose afterwards is kept)."""
        share = WIDE_PANES.get(self.panes.tabText(self.panes.currentIndex()))
        if self._widened or share is None:
            return
        self._widened = True
        total = sum(self.splitter.sizes())
        if total > 0 and self.splitter.sizes()[1] < total * share:
            left = int(total * (1 - share))
            self.splitter.setSizes([left, total - left])
            self._split = left / total  # kept as the window is resized (not remembered)

    def _plan_node_selected(self, node_id: str) -> None:
        if node_id:
            self.statusMessage.emit(f"Plan graph: node {clip(visible(node_id), STATUS_CHARS)}")

    def _plan_shown(self, plan_id: str) -> None:
        self.statusMessage.emit(f"Plan graph: plan {clip(visible(plan_id), STATUS_CHARS)}")

    def dispose(self) -> None:
        """The tab is closing: let go of what its panes hold (once)."""
        if self._disposed:
            return
        self._disposed = True
        self._full_value_ticket += 1
        self.model.digests.close()
        self.briefing_pane.dispose()
        if self.review_pane is not None:
            self.review_pane.save_layout()
        self.layout_store.sync()
        if self.plan_graph_pane is not None:
            self.plan_graph_pane.clear()
        if self.full_value_dialog is not None:
            self.full_value_dialog.close()
            self.full_value_dialog = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.disconnect(self._focus_changed)

    def confirm_close(self) -> bool:
        """Whether the tab may close: a review whose exported receipt is out of date asks."""
        if self.review_pane is None or PANE_REVIEW not in self.pane_names():
            return True
        return self.review_pane.confirm_close()

    # --- a receipt matched to the open packets -----------------------------------

    def _offered_files(self) -> tuple[list[OpenFile], list[OpenFile]]:
        # Read when asked: the window sets ``open_files`` after this tab was made.
        return self.open_files()

    def set_receipt_match(self, row: VerdictRow | None) -> None:
        """Add (or replace) the verdict row saying which open packet this receipt is for."""
        self._receipt_match = row
        self.verdict = self._with_match(self.base_verdict)
        self.header.set_verdict(self.verdict, self.document.path)

    @property
    def receipt_match(self) -> VerdictRow | None:
        return self._receipt_match

    def _with_match(self, verdict: Verdict) -> Verdict:
        if self._receipt_match is None:
            return verdict
        return replace(verdict, rows=(*verdict.rows, self._receipt_match))

    def show_pane(self, name: str) -> bool:
        for i in range(self.panes.count()):
            if self.panes.tabText(i) == name:
                self.panes.setCurrentIndex(i)
                return True
        return False

    def focus_pane(self, name: str) -> bool:
        """Alt+1…5: show the pane and put the keyboard in it (its table, text or graph),
        so the pane's own keys work at once. A packet refused at the byte stage shows its
        byte refusal where the manifest would be."""
        if name == PANE_MANIFEST and PANE_MANIFEST not in self.pane_names():
            name = PANE_BYTES
        if not self.show_pane(name):
            return False
        target: QWidget | None = {
            PANE_MANIFEST: self.manifest_pane.table,
            PANE_BYTES: self.byte_pane.raw,
            PANE_CANONICAL: self.canonical_pane.views.currentWidget(),
            PANE_FINDINGS: self.findings_pane.table,
            PANE_BRIEFING: self.briefing_pane.view,
            PANE_PLAN_GRAPH: None if self.plan_graph_pane is None else self.plan_graph_pane.view,
        }.get(name)
        if name == PANE_REVIEW and self.review_pane is not None:
            self.review_pane.focus_table()
        elif target is not None:
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True

    def pane_names(self) -> list[str]:
        return [self.panes.tabText(i) for i in range(self.panes.count())]

    def _size_columns(self) -> None:
        self.tree_columns.apply()

    def _split_moved(self, _position: int, _index: int) -> None:
        sizes = self.splitter.sizes()
        if sum(sizes) > 0:
            self._split = sizes[0] / sum(sizes)
            self.layout_store.setValue(SPLIT_KEY, f"{self._split:.4f}")

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        """The tree keeps its share of the tab (the user's, or the one it was given)."""
        super().resizeEvent(event)
        total = sum(self.splitter.sizes())
        if self._split is not None and total > 0:
            left = round(total * self._split)
            self.splitter.setSizes([left, total - left])

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

    def _show_in_tree(self, pointer: str) -> None:
        """Select ``pointer``'s node and give the tree the keyboard (from the review's
        evidence: the reviewer goes to read it there; Alt+4 goes back)."""
        self.select_pointer(pointer)
        self.tree.setFocus(Qt.FocusReason.OtherFocusReason)

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
        self.copy_view = self.tree
        menu = QMenu(self)
        for action in self.copy_actions.values():
            menu.addAction(action)
        if self.show_value_action is not None:
            menu.addSeparator()
            menu.addAction(self.show_value_action)
        menu.popup(self.tree.viewport().mapToGlobal(position))

    def _table_context_menu(self, view: QAbstractItemView, position: QPoint) -> None:
        if not view.indexAt(position).isValid():
            return
        self.copy_view = view
        menu = QMenu(self)
        for action in self.copy_actions.values():
            menu.addAction(action)
        menu.popup(view.viewport().mapToGlobal(position))

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if isinstance(new, QAbstractItemView) and self.isAncestorOf(new):
            self.copy_view = new

    def copy(self, kind: CopyKind) -> None:
        """Copy from the view the user last worked in: the tree, the findings, the
        manifest, or another table of this tab (the review's beliefs, a plan's findings)."""
        view = self.copy_view
        if view is not self.tree and not view.isVisible():
            view = self.tree  # its pane was switched away: the tree is what is in view
        if view is self.tree:
            self._copy_node(kind, self.selected_node())
        elif view is self.findings_pane.table:
            self._copy_finding(kind)
        elif view is self.manifest_pane.table:
            self._copy_manifest_row(kind)
        else:
            self._copy_row(view, kind)

    def _put(self, what: str, text: str) -> None:
        set_clipboard(text)
        self.statusMessage.emit(f"Copied {what}: {clip(visible(text), STATUS_CHARS)}")

    def _copy_node(self, kind: CopyKind, node: JsonNode | None) -> None:
        if node is None or (node.is_range and kind is not CopyKind.POINTER):
            return  # a range of a long array is not a value of the document
        if kind is CopyKind.KEY:
            self._put("key", str(node.key))
        elif kind is CopyKind.POINTER:
            self._put("pointer", node.pointer)
        elif kind is CopyKind.VALUE and not isinstance(node.value, dict | list):
            self._put("value", slow_copy_work(kind, node.pointer, node.value)(NULL_MONITOR))
        else:
            what = "value" if kind is CopyKind.VALUE else kind.name.lower()
            self.runner.start(
                kind.value.lower(),
                slow_copy_work(kind, node.pointer, node.value),
                lambda text: self._put(what, str(text)),
            )

    def _node_at(self, pointer: str | None) -> JsonNode | None:
        if pointer is None:
            return None
        return self.model.node(self.model.index_for_pointer(pointer, nearest=False))

    def _copy_finding(self, kind: CopyKind) -> None:
        pane = self.findings_pane
        current = pane.table.currentIndex()
        if not current.isValid():
            return
        row = pane.proxy.mapToSource(current).row()
        finding, other = pane.model.finding(row), pane.model.elsewhere(row)
        if kind is CopyKind.VALUE:
            self._put("finding", (f"in {other}: " if other else "") + finding_line(finding))
        elif kind is CopyKind.KEY:
            self._put("code", str(finding.code))
        elif kind is CopyKind.POINTER:
            self._put("pointer", finding.pointer)
        elif other:
            self.statusMessage.emit(f"That finding points into {visible(other)}, not this file.")
        else:  # canonical JSON and digest: of the node the finding points at
            self._copy_node(kind, self._node_at(finding.pointer))

    def _copy_manifest_row(self, kind: CopyKind) -> None:
        pane = self.manifest_pane
        current = pane.table.currentIndex()
        if not current.isValid():
            return
        row = pane.model.row(current.row())
        if kind is CopyKind.VALUE:
            verdict = "match" if row.match else "MISMATCH"
            self._put(
                "section", f"{row.name}: {verdict}, listed {row.listed}, computed {row.computed}"
            )
        elif kind is CopyKind.KEY:
            self._put("section name", row.name)
        elif kind is CopyKind.POINTER:
            self._put("pointer", row.pointer or "")
        elif kind is CopyKind.DIGEST and row.computed is not None:
            self._put("computed digest", row.computed)
        else:
            self._copy_node(kind, self._node_at(row.pointer))

    def _copy_row(self, view: QAbstractItemView, kind: CopyKind) -> None:
        current = view.currentIndex()
        model = view.model()
        if not current.isValid() or model is None:
            return
        cells = [
            model.index(current.row(), column, current.parent())
            for column in range(model.columnCount(current.parent()))
        ]
        texts = [str(c.data() if c.data() is not None else "") for c in cells]
        if kind is CopyKind.VALUE:
            self._put("row", "\t".join(texts))
        elif kind is CopyKind.KEY and texts:
            self._put("first column", texts[0])
        elif kind is CopyKind.POINTER and isinstance(current.data(POINTER_ROLE), str):
            self._put("pointer", str(current.data(POINTER_ROLE)))
        else:
            self.statusMessage.emit(
                "Canonical JSON and digests are copied from the tree, the findings or the manifest."
            )

    # --- the full value of a node ---------------------------------------------------

    def _double_clicked(self, index: QModelIndex) -> None:
        node = self.model.node(index)
        if node is not None and not node.is_range and not isinstance(node.value, dict | list):
            self.show_full_value()  # containers expand on double-click instead

    def show_full_value(self) -> None:
        """Open the selected node's whole value (made on a worker) in a plain-text viewer."""
        node = self.selected_node()
        if node is None or node.is_range:
            return
        self._full_value_ticket += 1
        ticket = self._full_value_ticket
        pointer, value = node.pointer, node.value

        def done(result: object) -> None:
            if ticket == self._full_value_ticket and isinstance(result, FullValue):
                self._show_full_value(result)

        self.runner.start("full value", lambda monitor: full_value(pointer, value, monitor), done)

    def _show_full_value(self, value: FullValue) -> None:
        if self.full_value_dialog is not None:
            self.full_value_dialog.close()
        dialog = FullValueDialog(value, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda *_: self._forget_dialog(dialog))
        self.full_value_dialog = dialog
        dialog.show()

    def _forget_dialog(self, dialog: FullValueDialog) -> None:
        if self.full_value_dialog is dialog:
            self.full_value_dialog = None

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
                pointer = is_pointer_query(text)
                self.find_bar.status.setText("no node at that pointer" if pointer else "not found")
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
