"""The main window: tabs of open documents, menus, drop target, status bar with progress."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QPoint, Qt
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QIcon,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from zcf_inspector import __version__
from zcf_inspector.core.packet.destination import Destination, DestinationError, load_destination
from zcf_inspector.core.review.decisions import ReviewTarget
from zcf_inspector.gui.clipboard import CopyKind, shortcut
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.compare_work import ComparedPackets, CompareRequest, compare_with
from zcf_inspector.gui.document_tab import (
    PANE_BRIEFING,
    PANE_CANONICAL,
    PANE_FINDINGS,
    PANE_MANIFEST,
    PANE_PLAN_GRAPH,
    PANE_REVIEW,
    DocumentTab,
)
from zcf_inspector.gui.documents import (
    OpenRequest,
    PacketDocument,
    ReceiptDocument,
    ShownDocument,
    UnreadableDocument,
    open_documents,
    recheck_request,
)
from zcf_inspector.gui.garbage_collector import UiThreadGarbageCollector
from zcf_inspector.gui.icons import IconName, example_packet_path, icon
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.plain_text import (
    plain_label,
    set_tab_tooltip,
    set_tooltip,
    visible,
    visible_lines,
)
from zcf_inspector.gui.receipt_match import (
    PacketIdentity,
    ReceiptMatch,
    ReceiptMatchInput,
    match_row,
)
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.review.storage import default_data_dir, move_old_journals
from zcf_inspector.gui.settings import AppSettings, settings_store
from zcf_inspector.gui.settings_dialog import SettingsDialog, clock_text
from zcf_inspector.gui.shortcuts import ShortcutsDialog, shortcut_entries
from zcf_inspector.gui.start_page import StartPage
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.gui.theme import Theme, ThemeController
from zcf_inspector.gui.verdict_header import level_icon

APP_TITLE = "ZCF Inspector"
# Workers run Python code (the core's hooks and checks) while the UI thread paints, and
# every Qt call into a Python override needs the GIL back. With CPython's default 5 ms
# switch interval a repaint that calls data() a hundred times can wait 100 times 5 ms; 1 ms
# keeps such convoys short at a small cost in worker throughput.
GIL_SWITCH_INTERVAL_S = 0.001
# Holding one of these while dropping a file on a packet's tab compares the two.
COMPARE_DROP_MODIFIERS = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier


CANCELLING = "Cancelling… (the work in progress stops at its next check)"


class MainWindow(QMainWindow):
    def __init__(self, settings: AppSettings | None = None) -> None:
        super().__init__()
        sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
        self.garbage_collector = UiThreadGarbageCollector(self)
        self.garbage_collector.start()
        self.settings = settings or AppSettings()
        self.theme = ThemeController(settings_store(), self)
        self.theme.settings.setParent(self.theme)
        self.theme.apply()
        self.setWindowTitle(APP_TITLE)
        self.setWindowIcon(icon(IconName.APP))
        self.setAcceptDrops(True)
        # Never larger than the screen (a 1024x700 laptop gets a window it can use).
        available = self.screen().availableGeometry()
        self.resize(min(1400, available.width()), min(900, available.height()))
        self.runner = TaskRunner(self)
        self.runner.busyChanged.connect(self._busy_changed)
        self._user_cancelled = False
        self.runner.stoppingChanged.connect(self._stopping_changed)
        self.runner.progressChanged.connect(self._progress)
        self.runner.taskFailed.connect(self._task_failed)
        self.destination: Destination | None = None
        self.destination_problem: str | None = None
        # The "Assess at" clock for continuation reports (`plan --now`); None: the current
        # time. Kept for this window only: a fixed clock remembered across runs would make
        # an expired report look current later without anyone choosing it again.
        self.assess_at: datetime | None = None
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._file_changed)
        self.reload_prompt: QMessageBox | None = None
        self.message: QMessageBox | None = None
        self.shortcuts_dialog: ShortcutsDialog | None = None
        self.compare_file_dialog: QFileDialog | None = None
        self.tab_menu: QMenu | None = None
        self._receipt_generation = 0
        # Each receipt tab's match: the packet it belongs to, by identity.
        self._receipt_matches: dict[DocumentTab, ReceiptMatch] = {}
        self._closed = False  # closeEvent ran (it may run again: close() twice)
        self._prompted: set[str] = set()
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._current_tab_changed)
        self.tabs.tabBar().setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tabs.tabBar().customContextMenuRequested.connect(self._tab_context_menu)
        self.start_page = StartPage()
        self.start_page.openRequested.connect(self.open_dialog)
        self.start_page.exampleRequested.connect(self.open_example)
        self.start_page.recentRequested.connect(lambda path: self.open_paths([path]))
        self.stack = QStackedWidget()
        self.stack.addWidget(self.start_page)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)
        self._make_status_bar()
        self._make_actions()
        self._make_menus()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        self._load_destination(self.settings.destination_path)
        self._refresh_recent()
        self._current_tab_changed()
        self.journal_move = move_old_journals()
        if self.journal_move.kept:
            self.message = message_box(
                self,
                QMessageBox.Icon.Warning,
                "Saved reviews",
                "Some saved reviews could not be moved to the new folder "
                f"({default_data_dir()}); they are still in the old one:\n"
                + self.journal_move.message,
            )
            self.message.open()
        elif self.journal_move.moved:
            self.statusBar().showMessage(
                f"Saved reviews: {self.journal_move.message} ({default_data_dir()})", 10_000
            )
        geometry, state = self.settings.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    # --- construction -----------------------------------------------------------------

    def _make_status_bar(self) -> None:
        bar = self.statusBar()
        self.progress_label = plain_label()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        set_tooltip(self.cancel_button, "Stop waiting for the work in progress (Ctrl+.)")
        self.cancel_button.clicked.connect(self.cancel_work)
        self.destination_label = plain_label()
        self.clock_label = plain_label()
        bar.addWidget(self.progress_label, 1)
        bar.addWidget(self.progress)
        bar.addWidget(self.cancel_button)
        bar.addPermanentWidget(self.clock_label)
        bar.addPermanentWidget(self.destination_label)
        self._show_clock()
        self._busy_changed(False)

    def _action(
        self, text: str, slot: Callable[[], object], keys: QKeySequence | str | None = None
    ) -> QAction:
        action = QAction(text, self)
        if keys is not None:
            action.setShortcut(QKeySequence(keys))
        action.triggered.connect(lambda _=False: slot())
        self.addAction(action)
        return action

    def _make_actions(self) -> None:
        std = QKeySequence.StandardKey
        self.open_action = self._action("&Open…", self.open_dialog, QKeySequence(std.Open))
        self.example_action = self._action("Open the &Example Packet", self.open_example)
        self.reload_action = self._action("&Reload", self.reload_current, "F5")
        self.compare_action = self._action("Compare &With…", self.compare_dialog)
        self.next_change_action = self._action(
            "Next C&hange", lambda: self._with_compare(CompareView.next_change), "F7"
        )
        self.previous_change_action = self._action(
            "Previous Ch&ange", lambda: self._with_compare(CompareView.previous_change), "Shift+F7"
        )
        self.export_action = self._action("&Export Receipt…", self.export_receipt, "Ctrl+E")
        self.close_action = self._action("&Close Tab", self.close_current, QKeySequence(std.Close))
        self.settings_action = self._action("&Settings…", self.open_settings, "Ctrl+,")
        self.quit_action = self._action("&Quit", self.close, QKeySequence(std.Quit))
        self.copy_actions: dict[CopyKind, QAction] = {}
        for kind in CopyKind:
            self.copy_actions[kind] = self._action(
                kind.value,
                partial(self._with_tab, partial(DocumentTab.copy, kind=kind)),
                shortcut(kind),
            )
        self.find_action = self._action(
            "&Find…", lambda: self._with_tab(DocumentTab.open_find), QKeySequence(std.Find)
        )
        self.find_next_action = self._action(
            "Find &Next", lambda: self._with_tab(lambda t: t.find_again(False)), "F3"
        )
        self.find_previous_action = self._action(
            "Find &Previous", lambda: self._with_tab(lambda t: t.find_again(True)), "Shift+F3"
        )
        self.cancel_action = self._action("Cancel Background Work", self.cancel_work, "Ctrl+.")
        # Each moves the keyboard into its pane (Alt+5 into the plan graph's canvas).
        self.pane_actions = [
            self._action(
                text,
                partial(self._with_tab, partial(DocumentTab.focus_pane, name=name)),
                f"Alt+{i}",
            )
            for i, (name, text) in enumerate(
                (
                    (PANE_MANIFEST, "&Manifest"),
                    (PANE_CANONICAL, "&Canonical Bytes"),
                    (PANE_FINDINGS, "F&indings"),
                    (PANE_REVIEW, "Re&view (focus the beliefs)"),
                    (PANE_PLAN_GRAPH, "Plan &Graph (focus the graph)"),
                    (PANE_BRIEFING, "&Briefing (focus its text)"),
                ),
                1,
            )
        ]
        self.details_action = self._action(
            "Verdict &Details",
            lambda: self._with_tab(lambda t: t.header.details_button.toggle()),
            "Ctrl+D",
        )
        self.tree_action = self._action(
            "Focus the &Tree", lambda: self._with_tab(lambda t: t.tree.setFocus()), "Alt+0"
        )
        self.collapse_action = self._action(
            "&Collapse All", lambda: self._with_tab(lambda t: t.tree.collapseAll()), "Ctrl+Shift+-"
        )
        self.show_value_action = self._action(
            "Show &Full Value…", lambda: self._with_tab(DocumentTab.show_full_value), "Ctrl+Return"
        )
        # Shown in an empty Review menu; the menu itself is disabled then.
        self.no_review_action = QAction("No packet under review in this tab", self)
        self.no_review_action.setEnabled(False)
        self.theme_group = QActionGroup(self)
        self.theme_actions: dict[Theme, QAction] = {}
        for theme, text in (
            (Theme.SYSTEM, "&System"),
            (Theme.LIGHT, "&Light"),
            (Theme.DARK, "&Dark"),
        ):
            action = QAction(text, self.theme_group)
            action.setCheckable(True)
            action.setChecked(theme is self.theme.theme)
            action.triggered.connect(lambda _=False, t=theme: self.set_theme(t))
            self.theme_actions[theme] = action
        self.shortcuts_action = self._action("&Keyboard Shortcuts", self.show_shortcuts, "F1")
        self.about_action = self._action("&About", self.show_about)

    def _make_menus(self) -> None:
        menus = self.menuBar()
        file_menu = menus.addMenu("&File")
        file_menu.addAction(self.open_action)
        self.recent_menu = QMenu("Open &Recent", self)
        file_menu.addMenu(self.recent_menu)
        file_menu.addAction(self.example_action)
        file_menu.addAction(self.reload_action)
        file_menu.addAction(self.compare_action)
        file_menu.addSeparator()
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.close_action)
        file_menu.addAction(self.quit_action)
        edit_menu = menus.addMenu("&Edit")
        for action in self.copy_actions.values():
            edit_menu.addAction(action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.show_value_action)
        edit_menu.addSeparator()
        for action in (self.find_action, self.find_next_action, self.find_previous_action):
            edit_menu.addAction(action)
        view_menu = menus.addMenu("&View")
        view_menu.addAction(self.tree_action)
        for action in self.pane_actions:
            view_menu.addAction(action)
        view_menu.addSeparator()
        view_menu.addAction(self.next_change_action)
        view_menu.addAction(self.previous_change_action)
        view_menu.addSeparator()
        view_menu.addAction(self.details_action)
        view_menu.addAction(self.collapse_action)
        view_menu.addAction(self.cancel_action)
        view_menu.addSeparator()
        theme_menu = view_menu.addMenu("&Theme")
        for action in self.theme_actions.values():
            theme_menu.addAction(action)
        self.review_menu = menus.addMenu("&Review")
        self.review_menu.aboutToShow.connect(self._fill_review_menu)
        help_menu = menus.addMenu("&Help")
        help_menu.addAction(self.shortcuts_action)
        help_menu.addAction(self.about_action)

    # --- tabs -------------------------------------------------------------------------

    def document_tabs(self) -> list[DocumentTab]:
        return [
            w for i in range(self.tabs.count()) if isinstance(w := self.tabs.widget(i), DocumentTab)
        ]

    def current_tab(self) -> DocumentTab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, DocumentTab) else None

    def _with_tab(self, action: Callable[[DocumentTab], object]) -> None:
        tab = self.current_tab()
        if tab is not None:
            action(tab)

    def current_compare(self) -> CompareView | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, CompareView) else None

    def _with_compare(self, action: Callable[[CompareView], object]) -> None:
        view = self.current_compare()
        if view is not None:
            action(view)

    def _current_tab_changed(self, _index: int = -1) -> None:
        tab = self.current_tab()
        compare = self.current_compare()
        self.stack.setCurrentWidget(self.tabs if self.tabs.count() else self.start_page)
        shown = tab or compare
        self.setWindowTitle(f"{shown.title} — {APP_TITLE}" if shown else APP_TITLE)
        has_tab = tab is not None
        self.close_action.setEnabled(self.tabs.count() > 0)
        self.compare_action.setEnabled(_comparable(tab))
        for action in (self.next_change_action, self.previous_change_action):
            action.setEnabled(compare is not None)
        for action in (
            self.reload_action,
            self.find_action,
            self.find_next_action,
            self.find_previous_action,
            self.details_action,
            self.collapse_action,
            self.show_value_action,
            *self.copy_actions.values(),
        ):
            action.setEnabled(has_tab)
        self.export_action.setEnabled(has_tab and callable(self._export_function(tab)))
        self._fill_review_menu()
        self._focus_changed(None, QApplication.focusWidget())

    @staticmethod
    def review_pane_of(tab: DocumentTab | None) -> ReviewPane | None:
        """The review pane of ``tab`` when that tab shows one (packet tabs only)."""
        if tab is None or PANE_REVIEW not in tab.pane_names():
            return None
        return tab.review_pane

    def _export_function(self, tab: DocumentTab | None) -> Callable[[], object] | None:
        pane = self.review_pane_of(tab)
        return None if pane is None else pane.export_receipt

    def _fill_review_menu(self) -> None:
        """The Review menu holds the current tab's review actions (the pane's own objects,
        with its shortcuts and its enabled states), and nothing when there is no review."""
        menu = self.review_menu
        for action in menu.actions():
            menu.removeAction(action)
        pane = self.review_pane_of(self.current_tab())
        menu.menuAction().setEnabled(pane is not None)
        if pane is None:
            menu.addAction(self.no_review_action)
            return
        previous_group = None
        for action in pane.review_actions():
            group = _review_group(action)
            if previous_group is not None and group != previous_group:
                menu.addSeparator()
            menu.addAction(action)
            previous_group = group
        menu.addSeparator()
        menu.addAction(self.export_action)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """Ctrl+F belongs to the plan graph (find a node) while it has the focus: the
        window's Find steps aside there, so the key is never ambiguous."""
        tab = self.current_tab()
        graph = None if tab is None else tab.plan_graph_pane
        in_graph = graph is not None and new is not None and graph.isAncestorOf(new)
        self.find_action.setEnabled(tab is not None and not in_graph)

    def close_tab(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if isinstance(widget, DocumentTab) and not widget.confirm_close():
            return
        self.tabs.removeTab(index)
        if isinstance(widget, CompareView):
            widget.dispose()
            widget.deleteLater()
        if isinstance(widget, DocumentTab):
            widget.dispose()
            still_open = {p for t in self.document_tabs() for p in t.paths}
            gone = [p for p in widget.paths if p not in still_open and p in self.watcher.files()]
            if gone:
                self.watcher.removePaths(gone)
            widget.deleteLater()
        self._current_tab_changed()
        self._match_receipts()

    def close_current(self) -> None:
        if self.tabs.count():
            self.close_tab(self.tabs.currentIndex())

    def _tab_for(self, path: str) -> DocumentTab | None:
        return next((t for t in self.document_tabs() if t.document.path == path), None)

    # --- opening ----------------------------------------------------------------------

    def open_paths(self, paths: Sequence[str], *, report_for: dict[str, str] | None = None) -> None:
        """Open (or reload) files together, off the UI thread."""
        # abspath also folds "..", so a title or recent entry never reads "/a/../b".
        wanted = tuple(os.path.abspath(p) for p in paths)
        if not wanted:
            return
        request = OpenRequest(wanted, self.destination, report_for, now=self.assess_at)
        label = Path(wanted[0]).name if len(wanted) == 1 else f"{len(wanted)} files"
        self.runner.start(
            f"opening {label}", lambda monitor: open_documents(request, monitor), self._opened
        )

    def open_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            "Open packets, receipts or continuation documents",
            "",
            "JSON (*.json);;All files (*)",
        )
        self.open_paths(paths)

    def open_example(self) -> None:
        self.open_paths([str(example_packet_path())])

    def _opened(self, result: object, *, recheck: bool = False) -> None:
        """Show what an open made: new tabs, or tabs shown again (a reload, a re-check:
        those keep the tab that is current)."""
        assert isinstance(result, list)
        problems: list[str] = []
        last: DocumentTab | None = None
        for document in result:
            if isinstance(document, UnreadableDocument):
                problems.append(document.message)
                continue
            if recheck and self._tab_for(document.path) is None:
                continue  # its tab was closed while it was checked again
            last = self._show_document(document)
        if last is not None and not recheck:
            self.tabs.setCurrentWidget(last)
        self._current_tab_changed()
        self._match_receipts()
        if problems:
            self.report_problems(problems, len(result))

    def report_problems(self, problems: Sequence[str], count: int) -> None:
        """One message for every file of one open that could not be opened."""
        if len(problems) == 1 and count == 1:
            text = problems[0]
        else:
            opened = count - len(problems)
            also = {0: "", 1: "; the other one opened"}.get(opened, f"; the other {opened} opened")
            text = f"{len(problems)} of {count} files could not be opened{also}:\n\n" + (
                "\n".join(f"• {p}" for p in problems)
            )
        self.message = message_box(self, QMessageBox.Icon.Warning, "Cannot open", text)
        self.message.open()

    def _show_document(self, document: ShownDocument) -> DocumentTab:
        tab = self._tab_for(document.path)
        if tab is None:
            tab = DocumentTab(
                document,
                self.runner,
                self.destination,
                self.copy_actions,
                show_value_action=self.show_value_action,
            )
            tab.statusMessage.connect(self._status_message)
            tab.open_files = partial(self.open_files_for, tab)
            self.tabs.addTab(tab, tab.title)
        else:
            tab.set_document(document, self.destination)
        index = self.tabs.indexOf(tab)
        self.tabs.setTabText(index, tab.title.replace("&", "&&"))
        self.tabs.setTabIcon(index, self._verdict_icon(tab))
        for path in tab.paths:
            self.settings.add_recent(path)
            if path not in self.watcher.files() and Path(path).exists():
                self.watcher.addPath(path)
        self._refresh_recent()
        return tab

    @staticmethod
    def _verdict_icon(tab: DocumentTab) -> QIcon:
        return level_icon(tab.verdict.level)

    def reload_current(self) -> None:
        tab = self.current_tab()
        if tab is not None:
            self.reload_tab(tab)

    def reload_tab(self, tab: DocumentTab) -> None:
        """F5, or a file changed on disk: the tab's files read and opened again."""
        self.recheck_tab(tab, from_disk=True)

    def recheck_tab(self, tab: DocumentTab, *, from_disk: bool = False) -> int:
        """Check ``tab``'s document again by the path an open takes (`open_documents` on
        the runner, then `_show_document`), under the destination and clock in force:
        over the bytes it holds, or its files read again (``from_disk``). Its tab shows
        the answer as it shows any open; the review pane puts back its decisions (from
        the journal), comparison, filters, selection and scroll position."""
        request = recheck_request(
            tab.document, self.destination, self.assess_at, from_disk=from_disk
        )
        what = "reloading" if from_disk else "checking again"
        return self.runner.start(
            f"{what} {tab.title}",
            lambda monitor: open_documents(request, monitor),
            partial(self._opened, recheck=True),
        )

    # --- drag and drop --------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        target = self._drop_target(event.position().toPoint())
        if event.modifiers() & COMPARE_DROP_MODIFIERS and target is not None:
            self.compare_paths(target, paths[0])
            if len(paths) > 1:
                self._status_message(f"Compared with {Path(paths[0]).name} only: one at a time.")
            return
        self.open_paths(paths)

    def _drop_target(self, position: QPoint) -> DocumentTab | None:
        """The packet tab a drop at ``position`` (window coordinates) lands on: the tab
        under it in the tab bar, else the tab shown."""
        if not self.tabs.count() or self.stack.currentWidget() is not self.tabs:
            return None
        bar = self.tabs.tabBar()
        on_bar = bar.mapFrom(self, position)
        index = bar.tabAt(on_bar) if bar.rect().contains(on_bar) else self.tabs.currentIndex()
        widget = self.tabs.widget(index)
        return widget if isinstance(widget, DocumentTab) and _comparable(widget) else None

    # --- comparing --------------------------------------------------------------------

    def compare_dialog(self, tab: DocumentTab | None = None) -> None:
        """Ask for packet B to compare with ``tab``'s packet (A; the current tab's)."""
        tab = tab or self.current_tab()
        if tab is None or not _comparable(tab):
            return
        dialog = QFileDialog(self, f"Compare {Path(tab.document.path).name} with…")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(["JSON (*.json)", "All files (*)"])
        dialog.setDirectory(str(Path(tab.document.path).parent))
        dialog.fileSelected.connect(lambda path: self.compare_paths(tab, path))
        self.compare_file_dialog = dialog
        dialog.open()

    def compare_paths(self, tab: DocumentTab, path: str) -> None:
        """Compare ``tab``'s packet (A) with the packet at ``path`` (B), off the UI thread."""
        document = tab.document
        if not isinstance(document, PacketDocument):
            return
        request = CompareRequest(document, os.path.abspath(path), self.destination)
        self.runner.start(
            f"comparing {Path(document.path).name} with {Path(path).name}",
            lambda monitor: compare_with(request, monitor),
            self._compared,
        )

    def _compared(self, result: object) -> None:
        if isinstance(result, UnreadableDocument):
            self.report_problems([result.message], 1)
            return
        assert isinstance(result, ComparedPackets)
        comparison = result.comparison
        if not comparison.readable:
            unreadable = [
                (path, side)
                for path, side in ((result.path_a, comparison.a), (result.path_b, comparison.b))
                if not side.readable
            ]
            self.report_problems(
                [
                    f"{path} cannot be compared: it was refused at the byte stage"
                    + (f" ({side.refusal.code}: {side.refusal.message})" if side.refusal else "")
                    for path, side in unreadable
                ],
                len(unreadable),
            )
            return
        view = CompareView(result, self.runner.start)
        view.statusMessage.connect(self._status_message)
        index = self.tabs.addTab(view, result.title.replace("&", "&&"))
        set_tab_tooltip(self.tabs, index, f"{result.path_a}\n{result.path_b}")
        self.tabs.setCurrentIndex(index)
        view.changes.setFocus()
        self._current_tab_changed()

    def _tab_context_menu(self, position: QPoint) -> None:
        bar = self.tabs.tabBar()
        index = bar.tabAt(position)
        if index < 0:
            return
        widget = self.tabs.widget(index)
        if widget is None:
            return
        menu = QMenu(self)
        compare = menu.addAction("Compare With…")
        tab = widget if isinstance(widget, DocumentTab) else None
        compare.setEnabled(_comparable(tab))
        compare.triggered.connect(lambda _=False: self.compare_dialog(tab))
        close = menu.addAction("Close Tab")
        close.triggered.connect(lambda _=False: self.close_tab(self.tabs.indexOf(widget)))
        self.tab_menu = menu
        menu.popup(bar.mapToGlobal(position))

    # --- files changing on disk -------------------------------------------------------

    def _file_changed(self, path: str) -> None:
        if Path(path).exists() and path not in self.watcher.files():
            self.watcher.addPath(path)  # editors replace files: watch the new one
        tabs = [t for t in self.document_tabs() if path in t.paths]
        if not tabs or path in self._prompted:
            return
        self._prompted.add(path)
        box = message_box(
            self,
            QMessageBox.Icon.Question,
            "File changed on disk",
            f"{path}\nchanged on disk. Reload it? What is shown now is the version read before.",
        )
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.Yes)

        def answered(result: int) -> None:
            self._prompted.discard(path)
            if result == QMessageBox.StandardButton.Yes:
                for tab in [t for t in self.document_tabs() if path in t.paths]:
                    self.reload_tab(tab)

        box.finished.connect(answered)
        self.reload_prompt = box
        box.open()

    # --- background work ------------------------------------------------------------

    def cancel_work(self) -> None:
        if self.runner.busy:
            self.runner.cancel_all()
            self._user_cancelled = True
            self._stopping_changed(self.runner.stopping)

    def _stopping_changed(self, stopping: bool) -> None:
        """After Cancel: "cancelling…" while a cancelled worker still runs (it stops at
        its next cancellation point), "Cancelled." once it has."""
        if not self._user_cancelled:
            return  # a cancel the window made itself (a closed tab, a stale filter)
        if stopping:
            self.statusBar().showMessage(CANCELLING)
        else:
            self._user_cancelled = False
            self.statusBar().showMessage("Cancelled.", 4000)

    def _busy_changed(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.progress_label.setVisible(busy)
        if not busy:
            self.progress.setValue(0)
            self.progress_label.setText("")

    def _progress(self, what: str, fraction: float) -> None:
        self.progress_label.setText(visible(what))
        self.progress.setValue(int(fraction * 1000))

    def _task_failed(self, label: str, details: str) -> None:
        last_line = details.strip().splitlines()[-1] if details.strip() else "unknown error"
        self.message = message_box(
            self,
            QMessageBox.Icon.Critical,
            "Internal error",
            f"{label} failed: {last_line}",
            details=details,
        )
        self.message.open()

    # --- settings -----------------------------------------------------------------

    def _load_destination(self, path: str | None) -> None:
        self.destination = None
        self.destination_problem = None
        if path:
            try:
                self.destination = load_destination(path)
            except DestinationError as exc:
                self.destination_problem = str(exc)
        if self.destination is not None:
            name = visible(Path(path or "").name)
            text = f"destination: {name} ({visible(self.destination.installation_key_id)})"
        elif self.destination_problem is not None:
            text = f"destination: unusable — {visible(self.destination_problem)}"
        else:
            text = "destination: none — MACs not verifiable, policy not checked"
        self.destination_label.setText(text)

    def _show_clock(self) -> None:
        when = "now" if self.assess_at is None else clock_text(self.assess_at)
        self.clock_label.setText(f"assess at: {when}")

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings.destination_path, self, assess_at=self.assess_at)
        dialog.statusMessage.connect(self._status_message)
        self.settings_dialog = dialog

        def done(result: int) -> None:
            if result == SettingsDialog.DialogCode.Accepted:
                self.apply_settings(dialog.chosen_path(), dialog.chosen_clock())

        dialog.finished.connect(done)
        dialog.open()

    def apply_settings(self, path: str | None, assess_at: datetime | None) -> None:
        """Take the destination file and the "Assess at" clock; check every tab again."""
        self.assess_at = assess_at
        self._show_clock()
        self.apply_destination(path)

    def apply_destination(self, path: str | None) -> None:
        """Remember ``path`` and verify every open document with it again."""
        self.settings.destination_path = path
        self._load_destination(path)
        for tab in self.document_tabs():
            self.recheck_tab(tab)

    # --- recent files -------------------------------------------------------------

    def _refresh_recent(self) -> None:
        recent = [p for p in self.settings.recent_files if Path(p).exists()]
        self.recent_menu.clear()
        for path in recent:
            action = self.recent_menu.addAction(visible(path).replace("&", "&&"))
            action.triggered.connect(lambda _=False, p=path: self.open_paths([p]))
        if recent:
            self.recent_menu.addSeparator()
        clear = self.recent_menu.addAction("Clear Recent Files")
        clear.setEnabled(bool(recent))
        clear.triggered.connect(self._clear_recent)
        self.start_page.set_recent(recent)

    def _clear_recent(self) -> None:
        self.settings.clear_recent()
        self._refresh_recent()

    # --- other actions ------------------------------------------------------------

    def export_receipt(self) -> None:
        export = self._export_function(self.current_tab())
        if callable(export):
            export()

    def set_theme(self, theme: Theme) -> None:
        """View → Theme: System follows the desktop's colour scheme; remembered."""
        self.theme.apply(theme)
        self.theme_actions[theme].setChecked(True)

    def show_shortcuts(self) -> None:
        if self.shortcuts_dialog is not None:
            self.shortcuts_dialog.close()
        self.shortcuts_dialog = ShortcutsDialog(shortcut_entries(self.actions()), self)
        self.shortcuts_dialog.open()

    def _status_message(self, text: str) -> None:
        self.statusBar().showMessage(visible_lines(text, 500), 5000)

    # --- receipts matched to the open packets -----------------------------------------

    def _review_targets(self) -> list[tuple[DocumentTab, ReviewTarget]]:
        """Each open packet as admitted by the destination in force (prepared by its
        open), with its tab."""
        targets = []
        for tab in self.document_tabs():
            document = tab.document
            review = document.review if isinstance(document, PacketDocument) else None
            if review is not None and review.target is not None:
                targets.append((tab, review.target))
        return targets

    def open_files_for(self, asking: DocumentTab) -> tuple[list[OpenFile], list[OpenFile]]:
        """The packets (other than ``asking``'s) and receipts open in tabs, offered as a
        previous generation; a receipt matched to an open packet says which — the packet
        with the identity it matched (`PacketIdentity`), not one with the same title."""
        packet_tabs = [t for t in self.document_tabs() if isinstance(t.document, PacketDocument)]
        packets = [OpenFile(t.title, t.document.path) for t in packet_tabs if t is not asking]
        identities = {PacketIdentity.of(target): tab for tab, target in self._review_targets()}
        receipts = []
        for tab in self.document_tabs():
            if not isinstance(tab.document, ReceiptDocument):
                continue
            match = self._receipt_matches.get(tab)
            owner = identities.get(match.packet) if match and match.packet else None
            belongs = owner.document.path if owner is not None else None
            receipts.append(OpenFile(tab.title, tab.document.path, belongs))
        return packets, receipts

    def _match_receipts(self) -> None:
        """Say, on every open receipt, which open packet it belongs to (if any).

        Run after every open, close and re-check: a receipt opened before its packet is
        matched once the packet arrives. The comparison runs on a worker; a newer round
        makes the results of an older one stale.
        """
        receipts = [t for t in self.document_tabs() if isinstance(t.document, ReceiptDocument)]
        self._receipt_matches = {t: m for t, m in self._receipt_matches.items() if t in receipts}
        if not receipts:
            return
        self._receipt_generation += 1
        generation = self._receipt_generation
        work = ReceiptMatchInput(
            tuple(t.document.value for t in receipts),  # type: ignore[union-attr]
            tuple((tab.title, target) for tab, target in self._review_targets()),
            self.destination is not None,
        )

        def done(matches: object) -> None:
            if generation != self._receipt_generation or not isinstance(matches, tuple):
                return
            for tab, match in zip(receipts, matches, strict=True):
                if self.tabs.indexOf(tab) >= 0 and isinstance(match, ReceiptMatch):
                    self._receipt_matches[tab] = match
                    tab.set_receipt_match(match.row)

        self.runner.start("matching receipts", partial(match_row, work), done)

    def show_about(self) -> None:
        self.message = message_box(
            self,
            QMessageBox.Icon.Information,
            f"About {APP_TITLE}",
            f"{APP_TITLE} {__version__}\nInspects ZCF v1 packets, transfer receipts and ASIF "
            "continuation plans. Everything shown comes from the same core as the CLI.",
        )
        self.message.open()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self._closed:
            for tab in self.document_tabs():
                if not tab.confirm_close():
                    self.tabs.setCurrentWidget(tab)
                    event.ignore()
                    return
        app = QApplication.instance()
        if isinstance(app, QApplication) and not self._closed:
            app.focusChanged.disconnect(self._focus_changed)
            self.theme.disconnect_system()  # a closed window no longer follows the desktop
        self._closed = True
        for tab in self.document_tabs():
            tab.dispose()
        self.settings.save_geometry(self.saveGeometry(), self.saveState())
        self.runner.cancel_all()
        self.runner.wait_for_done()
        self.garbage_collector.stop()
        super().closeEvent(event)


def _comparable(tab: DocumentTab | None) -> bool:
    """Whether ``tab`` shows a packet that can be side A of a comparison."""
    return tab is not None and isinstance(tab.document, PacketDocument)


def _review_group(action: QAction) -> str:
    """Which block of the Review menu an action goes in (separators between blocks)."""
    keys = action.shortcut().toString()
    if "Z" in keys and "Ctrl" in keys:
        return "history"
    if keys in ("J", "K"):
        return "move"
    if "previous generation" in action.text() or "earlier decisions" in action.text():
        return "previous"
    if keys:
        return "decide"
    return "bulk" if action.text().startswith("Bulk") else "other"
