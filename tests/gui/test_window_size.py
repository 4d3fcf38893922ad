"""Issue 31, point 6: the window never grows itself past the screen (a find at 1024x700
was seen to widen it to 1085 px), and the Settings dialog never clips its text — with a
destination typed in, on a short screen, at 200%: it scrolls instead."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QWidget

from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.settings_dialog import SettingsDialog


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


def clipped_labels(dialog: QWidget) -> list[str]:
    """The wrapped labels shown shorter than their text needs at their width."""
    return [
        label.text()[:40]
        for label in dialog.findChildren(QLabel)
        if label.isVisible()
        and label.wordWrap()
        and label.text()
        and label.height() < label.heightForWidth(label.width())
    ]


def test_the_settings_dialog_scrolls_rather_than_clips_with_a_destination_typed(
    qtbot: Any,
) -> None:
    dialog = SettingsDialog(None)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.path.setText(str(DESTINATION))  # its description is the long text
    qtbot.wait(20)
    assert clipped_labels(dialog) == []
    screen = dialog.screen().availableGeometry()
    assert dialog.width() <= screen.width()
    assert dialog.height() <= screen.height()
    dialog.resize(dialog.width(), 300)  # a short screen: the settings scroll
    qtbot.wait(20)
    assert clipped_labels(dialog) == []
    assert dialog.scroll_area.verticalScrollBar().maximum() > 0


PROBE = """
import os, sys
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
from zcf_inspector.gui.settings_dialog import SettingsDialog
d = SettingsDialog(sys.argv[1]); d.show(); app.processEvents()
s = d.screen().availableGeometry()
bad = [l for l in d.findChildren(QLabel) if l.isVisible() and l.wordWrap() and l.text()
       and l.height() < l.heightForWidth(l.width())]
print(d.width() <= s.width(), d.height() <= s.height(), len(bad))
"""


def test_the_settings_dialog_fits_and_clips_nothing_at_200_percent() -> None:
    environment = dict(os.environ, QT_SCALE_FACTOR="2", QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(DESTINATION)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == ["True", "True", "0"], done.stderr
