"""Issue 31, point 6: the window never grows itself past the screen — at 1024x700 a find
(its bar, its count of matches) used to widen the window to 1085 px."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.driving import PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.gui.main_window import MainWindow


def test_a_find_at_1024_by_700_does_not_widen_the_window(qtbot: Any, window: MainWindow) -> None:
    window.resize(1024, 700)
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    qtbot.wait(50)
    assert window.width() <= 1024
    tab.open_find()
    bar = tab.find_bar
    # the longest answer the bar gives
    QTest.keyClicks(bar.edit, "/no/such/pointer/anywhere/in/this/packet/at/all")
    QTest.keyClick(bar.edit, Qt.Key.Key_Return)
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: bar.status.text() == "no node at that pointer", timeout=10_000)
    qtbot.wait(50)
    assert bar.isVisible()
    assert window.width() <= 1024, window.width()
    assert window.minimumSizeHint().width() <= 1024, window.minimumSizeHint().width()
