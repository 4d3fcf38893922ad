"""The main window: tabs of open documents, the opening and re-checking of them, the drop
target, and the settings in force.

Its parts live beside it: the actions and menus (`window_actions`, one table), the status
bar (`window_status`), comparing (`window_compare`), the files watched and recent
(`window_files`) and receipts matched to the open packets (`receipt_controller`). A little
over 500 lines: what is left is the one job of keeping the tabs and the settings in force,
and the Qt overrides and slots that tie the parts together.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from zcf_inspector import __version__
from zcf_inspector.core.packet.destination import Destination, DestinationError, load_destination
from zcf_inspector.gui.clipboard import CopyKind
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.documents import open_documents, recheck_request
from zcf_inspector.gui.garbage_collector import UiThreadGarbageCollector
from zcf_inspector.gui.icons import IconName, example_packet_path, icon
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.plain_text import visible_lines
from zcf_inspector.gui.receipt_controller import ReceiptMatcher
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.review.storage import move_old_journals
from zcf_inspector.gui.session_restore import SessionKeeper
from zcf_inspector.gui.settings import AppSettings, settings_store
from zcf_inspector.gui.settings_dialog import SettingsDialog
from zcf_inspector.gui.shortcuts import ShortcutsDialog, shortcut_entries
from zcf_inspector.gui.start_page import StartPage
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.gui.theme import Theme, ThemeController
from zcf_inspector.gui.verdict_header import level_icon
from zcf_inspector.gui.window_actions import (
    NO_REVIEW,
    PANES,
    Needs,
    build_menus,
    copy_action_id,
    fill_review_menu,
    make_actions,
    make_theme_actions,
    pane_id,
    review_pane_of,
    set_enabled,
    window_slots,
)
from zcf_inspector.gui.window_audit import Auditing
from zcf_inspector.gui.window_compare import Comparing, comparable
from zcf_inspector.gui.window_files import WatchedFiles, refresh_recent
from zcf_inspector.gui.window_status import (
    CANCELLING,
    WorkStatus,
    about_box,
    internal_error_box,
    journal_move_notice,
    problems_text,
)
from zcf_inspector.opener.documents import ShownDocument, UnreadableDocument
from zcf_inspector.opener.open import OpenRequest

__all__ = ["APP_TITLE", "CANCELLING", "MainWindow"]

APP_TITLE = "ZCF Inspector"
# Workers run Python code (the core's hooks and checks) while the UI thread paints, and
# every Qt call into a Python override needs the GIL back. With CPython's default 5 ms
# switch interval a repaint that calls data() a hundred times can wait 100 times 5 ms; 1 ms
# keeps such convoys short at a small cost in worker throughput.
GIL_SWITCH_INTERVAL_S = 0.001
# Holding one of these while dropping a file on a packet's tab compares the two.
COMPARE_DROP_MODIFIERS = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier


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
        self.runner.taskFailed.connect(self._task_failed)
        self.destination: Destination | None = None
        self.destination_problem: str | None = None
        # The "Assess at" clock for continuation reports (`plan --now`); None: the current
        # time. Kept for this window only: a fixed clock remembered across runs would make
        # an expired report look current later without anyone choosing it again.
        self.assess_at: datetime | None = None
        self.files = WatchedFiles(self, self.document_tabs, self.reload_tab)
        self.message: QMessageBox | None = None
        self.shortcuts_dialog: ShortcutsDialog | None = None
        self.tab_menu: QMenu | None = None
        self._closed = False  # closeEvent ran (it may run again: close() twice)
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._current_tab_changed)
        self.tabs.tabBar().setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tabs.tabBar().customContextMenuRequested.connect(self._tab_context_menu)
        self.receipts = ReceiptMatcher(self.runner, self.document_tabs)
        self.comparing = Comparing(self, self)
        self.auditing = Auditing(self, self)  # File → Export Audit Report…, Reconcile…
        self.start_page = StartPage()
        self.start_page.openRequested.connect(self.open_dialog)
        self.start_page.exampleRequested.connect(self.open_example)
        self.start_page.recentRequested.connect(lambda path: self.open_paths([path]))
        self.stack = QStackedWidget()
        self.stack.addWidget(self.start_page)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)
        self.work_status = WorkStatus(self.statusBar(), self.runner)
        self.progress = self.work_status.progress
        self.cancel_button = self.work_status.cancel_button
        self.destination_label = self.work_status.destination_label
        self.clock_label = self.work_status.clock_label
        self.work_status.show_clock(self.assess_at)
        self._make_actions()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        self._load_destination(self.settings.destination_path)
        self._refresh_recent()
        self._current_tab_changed()
        self.journal_move = move_old_journals()
        self.message = journal_move_notice(self, self.journal_move)
        # The open tabs, kept across a restart or a crash (`session_restore`).
        self.session = SessionKeeper(self, self)
        self.session.enabled = self.settings.restore_session
        self.session.start()
        geometry, state = self.settings.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    # --- construction -----------------------------------------------------------------

    def _make_actions(self) -> None:
        """The actions of `window_actions.WINDOW_ACTIONS`, with their slots (`window_slots`)."""
        slots = window_slots(self)
        # Every action by its id (`WINDOW_ACTIONS`); those the window and its tabs use
        # by name besides.
        self.window_actions = actions = make_actions(self, slots)
        self.compare_action = actions["compare"]
        self.export_action = actions["export"]
        self.settings_action = actions["settings"]
        self.copy_actions = {kind: actions[copy_action_id(kind)] for kind in CopyKind}
        self.show_value_action = actions["show value"]
        self.find_action = actions["find"]
        self.find_next_action = actions["find next"]
        self.find_previous_action = actions["find previous"]
        self.pane_actions = [actions[pane_id(name)] for name, _text in PANES]
        self.next_change_action = actions["next change"]
        self.theme_actions = make_theme_actions(self, self.theme.theme, self.set_theme)
        # Shown in an empty Review menu; the menu itself is disabled then.
        self.no_review_action = QAction(NO_REVIEW, self)
        self.no_review_action.setEnabled(False)
        menus = build_menus(self.menuBar(), actions, self.theme_actions, self)
        self.recent_menu = menus.recent
        self.review_menu = menus.review
        self.review_menu.aboutToShow.connect(self._fill_review_menu)

    # --- tabs -------------------------------------------------------------------------

    def document_tabs(self) -> list[DocumentTab]:
        return [
            w for i in range(self.tabs.count()) if isinstance(w := self.tabs.widget(i), DocumentTab)
        ]

    def current_tab(self) -> DocumentTab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, DocumentTab) else None

    def with_tab(self, action: Callable[[DocumentTab], object]) -> None:
        tab = self.current_tab()
        if tab is not None:
            action(tab)

    def current_compare(self) -> CompareView | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, CompareView) else None

    def with_compare(self, action: Callable[[CompareView], object]) -> None:
        view = self.current_compare()
        if view is not None:
            action(view)

    def tab_shown(self) -> None:
        """A tab was added or shown again: the title, the actions and the menus follow."""
        self._current_tab_changed()

    def _current_tab_changed(self, _index: int = -1) -> None:
        tab = self.current_tab()
        compare = self.current_compare()
        self.stack.setCurrentWidget(self.tabs if self.tabs.count() else self.start_page)
        shown = tab or compare
        self.setWindowTitle(f"{shown.title} — {APP_TITLE}" if shown else APP_TITLE)
        set_enabled(
            self.window_actions,
            {
                Needs.ALWAYS: True,
                Needs.ANY_TAB: self.tabs.count() > 0,
                Needs.DOCUMENT: tab is not None,
                Needs.COMPARABLE: comparable(tab),
                Needs.COMPARISON: compare is not None,
                Needs.REVIEW: callable(self._export_function(tab)),
            },
        )
        self._fill_review_menu()
        self._focus_changed(None, QApplication.focusWidget())

    def _export_function(self, tab: DocumentTab | None) -> Callable[[], object] | None:
        pane = review_pane_of(tab)
        return None if pane is None else pane.export_receipt

    def _fill_review_menu(self) -> None:
        """The Review menu holds the current tab's review actions (the pane's own objects,
        with its shortcuts and its enabled states), and nothing when there is no review."""
        pane = review_pane_of(self.current_tab())
        fill_review_menu(self.review_menu, pane, (self.export_action,), self.no_review_action)

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
            self.files.forget(widget)
            widget.deleteLater()
        self._current_tab_changed()
        self._match_receipts()

    def close_current(self) -> None:
        if self.tabs.count():
            self.close_tab(self.tabs.currentIndex())

    def _tab_for(self, path: str) -> DocumentTab | None:
        return next((t for t in self.document_tabs() if t.document.path == path), None)

    def tab_for_path(self, path: str) -> DocumentTab | None:
        """The tab showing the document at ``path`` (absolute), if one is open."""
        return self._tab_for(os.path.abspath(path))

    def restore_session(self) -> None:
        """Reopen the tabs of the last session; say which files changed or are gone."""
        text = self.session.restore().text()
        if text:
            self.message = message_box(self, QMessageBox.Icon.Information, "Last session", text)
            self.message.open()

    def _tab_context_menu(self, position: QPoint) -> None:
        self.tab_menu = self.comparing.tab_menu(position, self.close_tab) or self.tab_menu

    # --- opening ----------------------------------------------------------------------

    def open_paths(self, paths: Sequence[str], *, report_for: dict[str, str] | None = None) -> None:
        """Open (or reload) files together, off the UI thread."""
        # abspath also folds "..", so a title or recent entry never reads "/a/../b".
        wanted = tuple(os.path.abspath(p) for p in paths)
        if not wanted:
            return
        request = OpenRequest(
            wanted,
            self.destination,
            report_for,
            now=self.assess_at,
            package_keys=tuple(self.settings.package_keys),
        )
        label = Path(wanted[0]).name if len(wanted) == 1 else f"{len(wanted)} files"
        self.runner.start(
            f"opening {label}", lambda monitor: open_documents(request, monitor), self._opened
        )

    def open_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            "Open packets, receipts, continuation documents or ASIF packages",
            "",
            "JSON (*.json);;ASIF packages (*.asif.zip *.zip);;All files (*)",
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
        text = problems_text(problems, count)
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
            tab.verdictChanged.connect(partial(self._verdict_changed, tab))
            tab.open_files = partial(self.open_files_for, tab)
            self.tabs.addTab(tab, tab.title)
        else:
            tab.set_document(document, self.destination)
        index = self.tabs.indexOf(tab)
        self.tabs.setTabText(index, tab.title.replace("&", "&&"))
        self.tabs.setTabIcon(index, self._verdict_icon(tab))
        for path in tab.paths:
            self.settings.add_recent(path)
        self.files.watch(tab.paths)
        self._refresh_recent()
        return tab

    @staticmethod
    def _verdict_icon(tab: DocumentTab) -> QIcon:
        return level_icon(tab.verdict.level)

    def _verdict_changed(self, tab: DocumentTab) -> None:
        """The tab's icon from the verdict its header now shows (a check with a current
        snapshot, a receipt matched), never from a verdict of its own."""
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.setTabIcon(index, self._verdict_icon(tab))

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
            tab.document,
            self.destination,
            self.assess_at,
            from_disk=from_disk,
            package_keys=tuple(self.settings.package_keys),
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
        """Files dropped are opened; with Alt or Ctrl held, on a packet's tab, the first
        is compared with that packet (`Comparing.drop_target`)."""
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        target = self.comparing.drop_target(self, self.stack, event.position().toPoint())
        if event.modifiers() & COMPARE_DROP_MODIFIERS and target is not None:
            self.compare_paths(target, paths[0])
            if len(paths) > 1:
                self._status_message(f"Compared with {Path(paths[0]).name} only: one at a time.")
            return
        self.open_paths(paths)

    # --- comparing (`window_compare`) -------------------------------------------------

    @property
    def compare_file_dialog(self) -> QFileDialog | None:
        return self.comparing.file_dialog

    def compare_dialog(self, tab: DocumentTab | None = None) -> None:
        """Ask for packet B to compare with ``tab``'s packet (A; the current tab's)."""
        self.comparing.dialog(tab or self.current_tab())

    def compare_paths(self, tab: DocumentTab, path: str) -> None:
        """Compare ``tab``'s packet (A) with the packet at ``path`` (B), off the UI thread."""
        self.comparing.compare(tab, path)

    @property
    def reload_prompt(self) -> QMessageBox | None:
        """The question asked when a file changed on disk (`WatchedFiles`)."""
        return self.files.reload_prompt

    # --- background work ------------------------------------------------------------

    def cancel_work(self) -> None:
        self.work_status.cancel()

    def _task_failed(self, label: str, details: str) -> None:
        self.message = internal_error_box(self, label, details)

    # --- settings -----------------------------------------------------------------

    def _load_destination(self, path: str | None) -> None:
        self.destination = None
        self.destination_problem = None
        if path:
            try:
                self.destination = load_destination(path)
            except DestinationError as exc:
                self.destination_problem = str(exc)
        self.work_status.show_destination(path, self.destination, self.destination_problem)

    def open_settings(self) -> None:
        dialog = SettingsDialog(
            self.settings.destination_path,
            self,
            assess_at=self.assess_at,
            restore=self.settings.restore_session,
            package_keys=self.settings.package_keys,
        )
        dialog.statusMessage.connect(self._status_message)
        self.settings_dialog = dialog

        def done(result: int) -> None:
            if result == SettingsDialog.DialogCode.Accepted:
                self.settings.restore_session = dialog.restore_box.isChecked()
                self.session.enabled = self.settings.restore_session
                self.settings.package_keys = dialog.package_keys_box.chosen()
                self.apply_settings(dialog.chosen_path(), dialog.chosen_clock())

        dialog.finished.connect(done)
        dialog.open()

    def apply_settings(self, path: str | None, assess_at: datetime | None) -> None:
        """Take the destination file and the "Assess at" clock; check every tab again."""
        self.assess_at = assess_at
        self.work_status.show_clock(assess_at)
        self.apply_destination(path)

    def apply_destination(self, path: str | None) -> None:
        """Remember ``path`` and check every open document and comparison with it again."""
        self.settings.destination_path = path
        self._load_destination(path)
        for tab in self.document_tabs():
            self.recheck_tab(tab)
        for view in self.comparing.views():
            self.comparing.recheck(view)

    def _refresh_recent(self) -> None:
        refresh_recent(
            self.settings, self.recent_menu, self.start_page, lambda p: self.open_paths([p])
        )

    # --- other actions ------------------------------------------------------------

    def export_receipt(self) -> None:
        export = self._export_function(self.current_tab())
        if callable(export):
            export()

    def export_audit_report(self) -> None:
        self.auditing.export_dialog(self.current_tab())

    def reconcile_receipts(self) -> None:
        self.auditing.reconcile_dialog(self.current_tab())

    def set_theme(self, theme: Theme) -> None:
        """View → Theme: System follows the desktop's colour scheme; remembered."""
        self.theme.apply(theme)
        self.theme_actions[theme].setChecked(True)

    def show_shortcuts(self) -> None:
        if self.shortcuts_dialog is not None:
            self.shortcuts_dialog.close()
        self.shortcuts_dialog = ShortcutsDialog(shortcut_entries(self.actions()), self)
        self.shortcuts_dialog.open()

    def status_message(self, text: str) -> None:
        self.statusBar().showMessage(visible_lines(text, 500), 5000)

    _status_message = status_message

    # --- receipts matched to the open packets (`receipt_controller`) ------------------

    def open_files_for(self, asking: DocumentTab) -> tuple[list[OpenFile], list[OpenFile]]:
        """The packets (other than ``asking``'s) and receipts open in tabs, offered as a
        previous generation (a receipt says which open packet it belongs to)."""
        return self.receipts.open_files_for(asking)

    def _match_receipts(self) -> None:
        """Run after every open, close and re-check (see `ReceiptMatcher.match`)."""
        self.receipts.match(self.destination is not None)

    def show_about(self) -> None:
        self.message = about_box(self, APP_TITLE, __version__)

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
        if not self._closed:
            self.session.save()  # the tabs as they are, for the next start
            self.session.timer.stop()
        self._closed = True
        for tab in self.document_tabs():
            tab.dispose()
        self.settings.save_geometry(self.saveGeometry(), self.saveState())
        self.runner.cancel_all()
        self.runner.wait_for_done()
        self.garbage_collector.stop()
        super().closeEvent(event)
