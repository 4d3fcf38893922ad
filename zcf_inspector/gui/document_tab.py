"""One open document: the verdict header over the tree (left) and the tool panes (right)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
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

from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.gui.briefing_pane import BriefingPane
from zcf_inspector.gui.byte_refusal_pane import ByteRefusalPane
from zcf_inspector.gui.canonical_pane import CanonicalPane
from zcf_inspector.gui.clipboard import CopyKind
from zcf_inspector.gui.escape_tokens import install_tokens
from zcf_inspector.gui.find_bar import FindBar
from zcf_inspector.gui.findings_pane import FindingsPane
from zcf_inspector.gui.full_value import FullValueDialog
from zcf_inspector.gui.inventory_pane import InventoryPane
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
from zcf_inspector.gui.release import RELEASER
from zcf_inspector.gui.review.pane import OpenFiles, ReviewPane, no_open_files
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.session_pane import SessionPane
from zcf_inspector.gui.settings import settings_store
from zcf_inspector.gui.tab_copy import TabCopier
from zcf_inspector.gui.tab_kinds import (
    PANE_BRIEFING,
    PANE_BYTES,
    PANE_CANONICAL,
    PANE_FINDINGS,
    PANE_INVENTORY,
    PANE_MANIFEST,
    PANE_PLAN_GRAPH,
    PANE_REVIEW,
    PANE_SESSION,
    Shown,
    kind_of,
)
from zcf_inspector.gui.tab_lookup import NodeLookup
from zcf_inspector.gui.tab_split import TabSplit
from zcf_inspector.gui.task_runner import TaskRunner, Work
from zcf_inspector.gui.tree_annotations import TreeAnnotations
from zcf_inspector.gui.tree_columns import TreeColumns
from zcf_inspector.gui.verdict_header import VerdictHeader
from zcf_inspector.opener.documents import ContinuationDocument, ShownDocument, UnreadableDocument
from zcf_inspector.present.clock import fixed_clock_words
from zcf_inspector.present.vocabulary import Chip, Verdict

__all__ = [
    "PANE_BRIEFING",
    "PANE_BYTES",
    "PANE_CANONICAL",
    "PANE_FINDINGS",
    "PANE_INVENTORY",
    "PANE_MANIFEST",
    "PANE_PLAN_GRAPH",
    "PANE_REVIEW",
    "PANE_SESSION",
    "DocumentTab",
    "document_paths",
    "document_title",
    "make_review_pane",
]


def document_paths(document: ShownDocument) -> tuple[str, ...]:
    return kind_of(document).paths(document)


def document_title(document: ShownDocument) -> str:
    # A file name is the user's own, not the document's text: escaped and cut as the CLI
    # prints it (`files.shown_path`), never masked (a name of words read as a random key).
    return " + ".join(shown(Path(p).name, TITLE_NAME_CHARS) for p in document_paths(document))


TITLE_NAME_CHARS = 80  # of each file name in a tab or window title
STATUS_CHARS = 120  # of a copied text, echoed in the status bar


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
    # The verdict shown changed (an open, a re-check, a current snapshot, a receipt
    # match): the window's tab icon follows it, from the same verdict as the header.
    verdictChanged = Signal()  # noqa: N815

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
        install_tokens(self.tree)
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
        self.session_pane: SessionPane | None = None
        self.inventory_pane: InventoryPane | None = None
        self.copier = TabCopier(self, self.statusMessage.emit, self)
        self.lookup = NodeLookup(self, self)
        self._disposed = False
        self._receipt_match: Chip | None = None
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
        self.split = TabSplit(self.splitter, self.layout_store)
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
        self.find_bar.findRequested.connect(self.lookup.find)
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
        work = kind_of(self.document).current_snapshot_work(self.document, path)
        if work is not None:
            self.runner.start("checking the current snapshot", work, self._current_snapshot_checked)

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
        kind = kind_of(document)
        what = kind.shown(document)
        annotations = TreeAnnotations.build(
            (f for f, other in zip(what.findings, what.elsewhere, strict=True) if not other),
            what.manifest,
            omitted=what.own_omitted,
            admission=what.admission,
        )
        old = self.model
        self.model = PacketTreeModel(what.value, annotations, self, run=self._run, masks=what.masks)
        self.canonical_pane.set_flagged(what.masks or ())
        self.tree.setModel(self.model)
        # The value shown before dies once the panes show the new one: freed off the UI
        # thread, a slice at a time (a 200,000-belief parse is a 110 ms stall otherwise).
        RELEASER.release(old.close())
        old.deleteLater()
        self.tree.selectionModel().selectionChanged.connect(self._tree_selection_changed)
        expand_rows(self.tree, expanded)
        self._size_columns()
        self.base_verdict = what.verdict
        if not kind.keeps_receipt_match:
            self._receipt_match = None
        self.verdict = self._with_match(what.verdict)
        self.header.set_verdict(self.verdict, document.path, self._clock())
        self.verdictChanged.emit()
        self.findings_pane.set_findings(what.findings, what.elsewhere, what.omitted)
        self._arrange_panes(*kind.panes(self, document))
        self.canonical_pane.clear()
        if selected is not None and self.model.index_for_pointer(selected, nearest=False).isValid():
            self.select_pointer(selected)
            self.tree.doItemsLayout()  # the scroll range of what was expanded, then the position
            self.tree.verticalScrollBar().setValue(scroll)
        else:
            self._initial_selection(what)

    def ensure_review_pane(self) -> ReviewPane:
        """The tab's review pane, made the first time a packet is shown."""
        if self.review_pane is None:
            self.review_pane = make_review_pane(self.runner)
            self.review_pane.statusMessage.connect(self.statusMessage)
            self.review_pane.open_files = self._offered_files
            # The review's evidence: Enter lands on its node in the tree, and its
            # sources show the Briefing's workspace check (issue 20).
            self.review_pane.detail.pointerSelected.connect(self._show_in_tree)
            self.briefing_pane.workspaceChecked.connect(self.review_pane.detail.set_workspace)
        return self.review_pane

    def ensure_plan_graph_pane(self) -> PlanGraphPane:
        """The tab's plan graph, made the first time a continuation document is shown."""
        if self.plan_graph_pane is None:
            graph = self.plan_graph_pane = PlanGraphPane()
            graph.node_selected.connect(self._plan_node_selected)
            graph.plan_shown.connect(self._plan_shown)
            graph.exported.connect(
                lambda path: self.statusMessage.emit(f"Plan graph written to {visible(path)}")
            )
            graph.current_snapshot_chosen.connect(self.check_current_snapshot)
        return self.plan_graph_pane

    def ensure_session_pane(self) -> SessionPane:
        """The tab's session view, made the first time an ASIF session is shown."""
        if self.session_pane is None:
            self.session_pane = SessionPane()
            self.session_pane.pointerSelected.connect(self.select_pointer)
        return self.session_pane

    def ensure_inventory_pane(self) -> InventoryPane:
        """The tab's inventory pane, made the first time a package is shown."""
        if self.inventory_pane is None:
            self.inventory_pane = InventoryPane()
            self.inventory_pane.pointerSelected.connect(self.select_pointer)
        return self.inventory_pane

    def _arrange_panes(self, wanted: list[tuple[str, QWidget]], first: str) -> None:
        """Show the panes ``wanted`` (the kind's, in order), the one shown before if it
        is still there, else ``first``."""
        current = self.panes.tabText(self.panes.currentIndex())
        if [self.panes.tabText(i) for i in range(self.panes.count())] != [n for n, _ in wanted]:
            while self.panes.count():
                self.panes.removeTab(0)
            for name, pane in wanted:
                self.panes.addTab(pane, name)
        self.show_pane(current if current else first)

    def _pane_changed(self, _index: int) -> None:
        self.split.pane_shown(self.panes.tabText(self.panes.currentIndex()))

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
        RELEASER.release(self.model.close())  # freed off the UI thread once let go
        self.briefing_pane.dispose()
        if self.review_pane is not None:
            self.review_pane.save_layout()
        self.layout_store.sync()
        if self.plan_graph_pane is not None:
            self.plan_graph_pane.clear()
        self.lookup.dispose()
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

    def set_receipt_match(self, row: Chip | None) -> None:
        """Add (or replace) the verdict row saying which open packet this receipt is for."""
        self._receipt_match = row
        self.verdict = self._with_match(self.base_verdict)
        self.header.set_verdict(self.verdict, self.document.path, self._clock())
        self.verdictChanged.emit()

    def _clock(self) -> str | None:
        """The fixed clock in force, said in the header of a packet (whose admission and
        receipt the destination's clock stamps); an ASIF plan has its own Assess at."""
        return (
            fixed_clock_words(self.destination)
            if self.verdict.kind == DocumentKind.PACKET
            else None
        )

    @property
    def receipt_match(self) -> Chip | None:
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
            # a package's inventory is its manifest pane (Alt+1)
            name = PANE_INVENTORY if PANE_INVENTORY in self.pane_names() else PANE_BYTES
        if not self.show_pane(name):
            return False
        target: QWidget | None = {
            PANE_MANIFEST: self.manifest_pane.table,
            PANE_BYTES: self.byte_pane.raw,
            PANE_CANONICAL: self.canonical_pane.focus_target(),
            PANE_FINDINGS: self.findings_pane.table,
            PANE_BRIEFING: self.briefing_pane.view,
            PANE_PLAN_GRAPH: None if self.plan_graph_pane is None else self.plan_graph_pane.view,
            PANE_SESSION: None if self.session_pane is None else self.session_pane.timeline,
            PANE_INVENTORY: None if self.inventory_pane is None else self.inventory_pane.members,
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

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.split.resized()

    def _initial_selection(self, what: Shown) -> None:
        content = self.model.index_for_pointer("/content", nearest=False)
        if content.isValid():
            self.tree.expand(content)
        if what.changed_section is not None:
            self.select_pointer(what.changed_section)  # the section whose bytes changed
            return
        first_error = next(
            (
                f
                for f, other in zip(what.findings, what.elsewhere, strict=True)
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
        """Copy from the view the user last worked in (`TabCopier.copy`)."""
        self.copier.copy(kind)

    # --- the full value of a node ---------------------------------------------------

    def _double_clicked(self, index: QModelIndex) -> None:
        node = self.model.node(index)
        if node is not None and not node.is_range and not isinstance(node.value, dict | list):
            self.show_full_value()  # containers expand on double-click instead

    def show_full_value(self) -> None:
        """Open the selected node's whole value in a plain-text viewer (`NodeLookup`)."""
        self.lookup.show_full_value()

    @property
    def full_value_dialog(self) -> FullValueDialog | None:
        return self.lookup.full_value_dialog

    # --- find -------------------------------------------------------------------

    def open_find(self) -> None:
        self.find_bar.open_bar()

    def find_again(self, backwards: bool) -> None:
        self.lookup.find_again(backwards)

    # --- background work ------------------------------------------------------------

    def _run(self, label: str, work: Work, on_done: Callable[[Any], None]) -> object:
        return self.runner.start(label, work, on_done)

    def current_index(self) -> QModelIndex:
        return self.tree.currentIndex()
