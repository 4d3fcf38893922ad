"""The files behind the window's tabs: watched for changes on disk (a reload is offered,
never forced), and the recent ones remembered for File → Open Recent and the start page."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.plain_text import visible
from zcf_inspector.gui.settings import AppSettings
from zcf_inspector.gui.start_page import StartPage


class WatchedFiles:
    """Asks once per change whether to reload the tabs showing a file that changed."""

    def __init__(
        self,
        parent: QWidget,
        tabs: Callable[[], list[DocumentTab]],
        reload: Callable[[DocumentTab], object],
    ) -> None:
        self._parent = parent
        self._tabs = tabs
        self._reload = reload
        self.watcher = QFileSystemWatcher(parent)
        self.watcher.fileChanged.connect(self._file_changed)
        self.reload_prompt: QMessageBox | None = None
        self._prompted: set[str] = set()

    def watch(self, paths: Iterable[str]) -> None:
        for path in paths:
            if path not in self.watcher.files() and Path(path).exists():
                self.watcher.addPath(path)

    def forget(self, closed: DocumentTab) -> None:
        """``closed``'s files, unless another open tab shows them too."""
        still_open = {p for t in self._tabs() if t is not closed for p in t.paths}
        gone = [p for p in closed.paths if p not in still_open and p in self.watcher.files()]
        if gone:
            self.watcher.removePaths(gone)

    def _showing(self, path: str) -> list[DocumentTab]:
        return [t for t in self._tabs() if path in t.paths]

    def _file_changed(self, path: str) -> None:
        if Path(path).exists() and path not in self.watcher.files():
            self.watcher.addPath(path)  # editors replace files: watch the new one
        if not self._showing(path) or path in self._prompted:
            return
        self._prompted.add(path)
        box = message_box(
            self._parent,
            QMessageBox.Icon.Question,
            "File changed on disk",
            f"{path}\nchanged on disk. Reload it? What is shown now is the version read before.",
        )
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.Yes)

        def answered(result: int) -> None:
            self._prompted.discard(path)
            if result == QMessageBox.StandardButton.Yes:
                for tab in self._showing(path):
                    self._reload(tab)

        box.finished.connect(answered)
        self.reload_prompt = box
        box.open()


def refresh_recent(
    settings: AppSettings, menu: QMenu, start_page: StartPage, open_path: Callable[[str], object]
) -> None:
    """File → Open Recent and the start page's list: the remembered files that exist."""
    recent = [p for p in settings.recent_files if Path(p).exists()]
    menu.clear()
    for path in recent:
        action = menu.addAction(visible(path).replace("&", "&&"))
        action.triggered.connect(lambda _=False, p=path: open_path(p))
    if recent:
        menu.addSeparator()
    clear = menu.addAction("Clear Recent Files")
    clear.setEnabled(bool(recent))

    def cleared() -> None:
        settings.clear_recent()
        refresh_recent(settings, menu, start_page, open_path)

    clear.triggered.connect(lambda _=False: cleared())
    start_page.set_recent(recent)
