"""Comparing in the window: File → Compare With…, a drop with Alt or Ctrl held, and a
comparison checked again when the Settings change (as every other tab is).

The comparison runs on the window's runner (`compare_work`); its tab is a `CompareView`.
A re-check (`recheck`) checks side A by the path every open takes and compares B's bytes
with it again: the view's banner then says each side's words under the destination in
force, and its selected change and scroll position come back as they were.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QFileDialog, QMenu, QStackedWidget, QTabWidget, QWidget

from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.compare_work import (
    ComparedPackets,
    CompareRequest,
    compare_with,
    recompare,
)
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.plain_text import set_tab_tooltip
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.opener.documents import PacketDocument, UnreadableDocument


def comparable(tab: DocumentTab | None) -> bool:
    """Whether ``tab`` shows a packet that can be side A of a comparison."""
    return tab is not None and isinstance(tab.document, PacketDocument)


class CompareHost(Protocol):
    """What the comparing needs of the window."""

    runner: TaskRunner
    tabs: QTabWidget
    destination: Destination | None

    def report_problems(self, problems: Sequence[str], count: int) -> None: ...
    def tab_shown(self) -> None: ...
    def status_message(self, text: str) -> None: ...


class Comparing:
    def __init__(self, host: CompareHost, parent: QWidget) -> None:
        self._host = host
        self._parent = parent
        self.file_dialog: QFileDialog | None = None

    def views(self) -> list[CompareView]:
        tabs = self._host.tabs
        return [w for i in range(tabs.count()) if isinstance(w := tabs.widget(i), CompareView)]

    def dialog(self, tab: DocumentTab | None) -> None:
        """Ask for packet B to compare with ``tab``'s packet (A)."""
        if tab is None or not comparable(tab):
            return
        dialog = QFileDialog(self._parent, f"Compare {Path(tab.document.path).name} with…")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(["JSON (*.json)", "All files (*)"])
        dialog.setDirectory(str(Path(tab.document.path).parent))
        dialog.fileSelected.connect(lambda path: self.compare(tab, path))
        self.file_dialog = dialog
        dialog.open()

    def tab_menu(self, position: QPoint, close: Callable[[int], object]) -> QMenu | None:
        """A tab's context menu (at ``position`` on the tab bar): Compare With…, Close Tab."""
        tabs = self._host.tabs
        bar = tabs.tabBar()
        index = bar.tabAt(position)
        widget = tabs.widget(index) if index >= 0 else None
        if widget is None:
            return None
        menu = QMenu(self._parent)
        compare = menu.addAction("Compare With…")
        tab = widget if isinstance(widget, DocumentTab) else None
        compare.setEnabled(comparable(tab))
        compare.triggered.connect(lambda _=False: self.dialog(tab))
        close_action = menu.addAction("Close Tab")
        close_action.triggered.connect(lambda _=False: close(tabs.indexOf(widget)))
        menu.popup(bar.mapToGlobal(position))
        return menu

    def drop_target(
        self, window: QWidget, stack: QStackedWidget, position: QPoint
    ) -> DocumentTab | None:
        """The packet tab a drop at ``position`` (``window``'s coordinates) lands on: the
        tab under it in the tab bar, else the tab shown."""
        tabs = self._host.tabs
        if not tabs.count() or stack.currentWidget() is not tabs:
            return None
        bar = tabs.tabBar()
        on_bar = bar.mapFrom(window, position)
        index = bar.tabAt(on_bar) if bar.rect().contains(on_bar) else tabs.currentIndex()
        widget = tabs.widget(index)
        return widget if isinstance(widget, DocumentTab) and comparable(widget) else None

    def compare(self, tab: DocumentTab, path: str) -> None:
        """Compare ``tab``'s packet (A) with the packet at ``path`` (B), off the UI thread."""
        document = tab.document
        if not isinstance(document, PacketDocument):
            return
        request = CompareRequest(document, os.path.abspath(path), self._host.destination)
        self._host.runner.start(
            f"comparing {Path(document.path).name} with {Path(path).name}",
            lambda monitor: compare_with(request, monitor),
            self._compared,
        )

    def recheck(self, view: CompareView) -> int:
        """Check ``view``'s pair again under the destination in force."""
        compared, destination = view.compared, self._host.destination
        return self._host.runner.start(
            f"checking again {compared.title}",
            lambda monitor: recompare(compared, destination, monitor),
            lambda result: self._rechecked(view, result),
        )

    def _rechecked(self, view: CompareView, result: object) -> None:
        if self._host.tabs.indexOf(view) < 0:
            return  # closed while it was checked again
        if isinstance(result, ComparedPackets) and result.comparison.readable:
            view.set_compared(result)
        elif isinstance(result, UnreadableDocument):
            self._host.report_problems([result.message], 1)

    def _compared(self, result: object) -> None:
        if isinstance(result, UnreadableDocument):
            self._host.report_problems([result.message], 1)
            return
        assert isinstance(result, ComparedPackets)
        comparison = result.comparison
        if not comparison.readable:
            unreadable = [
                (path, side)
                for path, side in ((result.path_a, comparison.a), (result.path_b, comparison.b))
                if not side.readable
            ]
            self._host.report_problems(
                [
                    f"{path} cannot be compared: it was refused at the byte stage"
                    + (f" ({side.refusal.code}: {side.refusal.message})" if side.refusal else "")
                    for path, side in unreadable
                ],
                len(unreadable),
            )
            return
        view = CompareView(result, self._host.runner.start)
        view.statusMessage.connect(self._host.status_message)
        tabs = self._host.tabs
        index = tabs.addTab(view, result.title.replace("&", "&&"))
        set_tab_tooltip(tabs, index, f"{result.path_a}\n{result.path_b}")
        tabs.setCurrentIndex(index)
        view.changes.setFocus()
        self._host.tab_shown()
