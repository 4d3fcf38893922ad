"""Driving the real window the way a user does: drops, menus, keys, dialogs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from goldens import generate
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.main_window import MainWindow

GOLDENS = Path(generate.__file__).resolve().parent
PUBLICATION = GOLDENS / "publication"
NEGATIVE = GOLDENS / "negative"
DESTINATION = GOLDENS / "destination.json"
WAIT_MS = 20_000


def publication_packets() -> list[Path]:
    return sorted(p for p in PUBLICATION.glob("*.json") if not p.name.endswith(".receipt.json"))


def _drag_enter(where: QPointF, mime: QMimeData) -> QDragEnterEvent:
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    try:  # PySide6 >= 6.12 has the QPointF constructor and deprecates the QPoint one
        event: QDragEnterEvent = QDragEnterEvent(  # type: ignore[call-overload,unused-ignore]
            where, Qt.DropAction.CopyAction, mime, buttons, modifiers
        )
    except TypeError:  # older PySide6 has only the QPoint constructor
        return QDragEnterEvent(where.toPoint(), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    return event


def drop(window: MainWindow, paths: Sequence[Path | str]) -> None:
    """A real drag-enter and drop of file URLs on the window."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(Path(p).absolute())) for p in paths])
    where = QPointF(window.width() / 2, window.height() / 2)
    enter = _drag_enter(where, mime)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    event = QDropEvent(
        where,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(window, event)
    assert event.isAccepted()


def wait_idle(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=WAIT_MS)


def drop_and_wait(qtbot: QtBot, window: MainWindow, paths: Sequence[Path | str]) -> DocumentTab:
    before = len(window.document_tabs())
    drop(window, paths)
    qtbot.waitUntil(
        lambda: len(window.document_tabs()) > before or not window.runner.busy, timeout=WAIT_MS
    )
    wait_idle(qtbot, window)
    tab = window.current_tab()
    assert tab is not None
    return tab


def rows(tab: DocumentTab) -> dict[str, tuple[str, str]]:
    """check -> (state, summary) of the verdict header."""
    return {r.check: (str(r.state), r.summary) for r in tab.header.model.rows}
