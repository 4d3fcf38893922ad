"""Issue 30, point 2: the window on a packet whose every string is hostile, at 1024x700
in the light and the dark theme, with a reviewer name pasted with a bidi override and a
line separator: every visible widget (labels, buttons, tabs, item views' display and
tooltip roles, editors, window titles) and every menu entry is walked, and none shows a
control, bidi or invisible character raw — nor an escape escaped twice (the packet holds
no typed backslash, so a doubled one would mean a real character shown as typed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from tests.gui.driving import DESTINATION, wait_idle
from tests.gui.test_text_policy import (
    RAW,
    hostile_packets,
    raw_texts,
    show_everything,
    widget_texts,
)
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.settings import save_identity
from zcf_inspector.gui.theme import Theme

REVIEWER = "bob\u202elive\u202c\u200b\u2028x"


def menu_texts(actions: list[QAction], where: str = "menu") -> Iterator[tuple[str, str]]:
    for action in actions:
        yield f"{where} action", action.text()
        yield f"{where} action tooltip", action.toolTip()
        menu = action.menu()
        if isinstance(menu, QMenu):
            yield from menu_texts(menu.actions(), f"{where} > {action.text()}")


def doubled(found: list[tuple[str, str]], window: MainWindow) -> list[tuple[str, str]]:
    """Texts holding an escape whose backslash was itself escaped: shown twice over."""
    from PySide6.QtWidgets import QApplication

    texts = [t for w in QApplication.allWidgets() if w.isVisible() for t in widget_texts(w)]
    texts += list(menu_texts(window.menuBar().actions()))
    return [(where, text) for where, text in texts if "\\\\u" in text or "\\\\U" in text]


@pytest.mark.qt_log_ignore(".*")
@pytest.mark.parametrize("theme", [Theme.LIGHT, Theme.DARK])
def test_the_hostile_packet_shows_nothing_raw_in_either_theme(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, theme: Theme
) -> None:
    valid, refused = hostile_packets(tmp_path)
    window.resize(1024, 700)
    window.set_theme(theme)
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    window.open_paths([str(valid), str(refused)])
    qtbot.waitUntil(lambda: len(window.document_tabs()) == 2, timeout=20_000)
    wait_idle(qtbot, window)
    found: list[tuple[str, str]] = []
    twice: list[tuple[str, str]] = []
    for tab in window.document_tabs():
        window.tabs.setCurrentWidget(tab)
        wait_idle(qtbot, window)
        pane = tab.review_pane
        if pane is not None:
            save_identity(pane.settings, REVIEWER, "")
            pane._show_identity()
        found += show_everything(qtbot, tab)
        twice += doubled(found, window)
    found += [(w, t) for w, t in menu_texts(window.menuBar().actions()) if RAW & set(t)]
    found += raw_texts()
    pane = window.document_tabs()[0].review_pane
    assert pane is not None
    assert pane.ui.reviewer.text().startswith("Reviewer: bob\\u202elive")
    assert window.size().width() == 1024
    assert not found, "\n".join(f"{where}: {text!r}" for where, text in dict(found).items())
    assert not twice, "\n".join(f"{where}: {text!r}" for where, text in dict(twice).items())
