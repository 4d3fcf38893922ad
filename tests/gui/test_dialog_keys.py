"""Issue 12, point 4: every dialog submits with Ctrl+Enter and cancels with Esc."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from tests.gui.driving import DESTINATION
from zcf_inspector.gui.full_value import FullValue, FullValueDialog
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.review.dialogs import (
    KEY_FILE_HELP,
    KEY_FILE_LABEL,
    NoteDialog,
    ReviewerSettingsDialog,
    SupersedeDialog,
)
from zcf_inspector.gui.review.settings import load_identity
from zcf_inspector.gui.settings_dialog import SettingsDialog
from zcf_inspector.gui.shortcuts import ShortcutsDialog

CTRL = Qt.KeyboardModifier.ControlModifier
KEYPAD = Qt.KeyboardModifier.KeypadModifier
Accepted = QDialog.DialogCode.Accepted
Rejected = QDialog.DialogCode.Rejected


def shown(qtbot: Any, dialog: QDialog) -> QDialog:
    """Open and active (keys reach the active window; no window manager activates it)."""
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    return dialog


def submit(dialog: QDialog, keypad: bool = False) -> None:
    key = Qt.Key.Key_Enter if keypad else Qt.Key.Key_Return
    target = dialog.focusWidget() or dialog
    QTest.keyClick(target, key, CTRL | KEYPAD if keypad else CTRL)


def test_note_dialog(qtbot: Any) -> None:
    dialog = shown(qtbot, NoteDialog(None, "Reject", "Why?", "", required=True))
    assert isinstance(dialog, NoteDialog)
    assert dialog.focusWidget() is dialog.editor
    submit(dialog)  # blank and required: stays open
    assert dialog.isVisible()
    QTest.keyClicks(dialog.editor, "stale")
    QTest.keyClick(dialog.editor, Qt.Key.Key_Return)  # Enter alone is a new line
    QTest.keyClicks(dialog.editor, "second line")
    assert dialog.isVisible()
    submit(dialog, keypad=True)
    assert dialog.result() == Accepted
    assert dialog.note() == "stale\nsecond line"
    again = shown(qtbot, NoteDialog(None, "Reject", "Why?", "typed", required=True))
    QTest.keyClick(again.focusWidget(), Qt.Key.Key_Escape)
    assert again.result() == Rejected


def test_supersede_dialog_by_keys(qtbot: Any) -> None:
    candidates = [("b-2", "two"), ("b-3", "three"), ("b-4", "four")]
    dialog = shown(qtbot, SupersedeDialog(None, "b-1", candidates, ""))
    assert isinstance(dialog, SupersedeDialog)
    assert dialog.focusWidget() is dialog.search
    QTest.keyClicks(dialog.search, "t")  # two, three
    assert dialog.replacement() == "b-2"
    QTest.keyClick(dialog.search, Qt.Key.Key_Down)
    assert dialog.replacement() == "b-3"
    QTest.keyClick(dialog.search, Qt.Key.Key_Down)  # stays on the last match
    assert dialog.replacement() == "b-3"
    QTest.keyClick(dialog.search, Qt.Key.Key_Up)
    assert dialog.replacement() == "b-2"
    QTest.keyClick(dialog.search, Qt.Key.Key_Tab)
    QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.editor
    QTest.keyClicks(dialog.editor, "newer")
    submit(dialog)
    assert dialog.result() == Accepted
    assert (dialog.replacement(), dialog.note()) == ("b-2", "newer")


def test_reviewer_identity_dialog_says_what_the_key_is_for(qtbot: Any, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    dialog = ReviewerSettingsDialog(None, settings)
    shown(qtbot, dialog)
    texts = [label.text() for label in dialog.findChildren(type(dialog.problem))]
    assert KEY_FILE_LABEL in texts
    assert KEY_FILE_HELP in texts
    assert "Signing key file" not in " ".join(texts)
    QTest.keyClicks(dialog.name, "erin")
    submit(dialog)
    assert dialog.result() == Accepted
    assert load_identity(settings).name == "erin"


@pytest.mark.parametrize(("keys", "answer"), [("submit", "Yes"), ("escape", "No")])
def test_questions(qtbot: Any, keys: str, answer: str) -> None:
    box = message_box(None, QMessageBox.Icon.Question, "Export", "Export?", question=True)
    qtbot.addWidget(box)
    results: list[int] = []
    box.finished.connect(results.append)
    box.open()
    qtbot.waitExposed(box)
    box.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is box)
    if keys == "submit":
        submit(box)
    else:
        QTest.keyClick(box.focusWidget() or box, Qt.Key.Key_Escape)
    assert results == [getattr(QMessageBox.StandardButton, answer).value]


def test_viewers_close_on_either_key(qtbot: Any) -> None:
    for make in (
        lambda: FullValueDialog(FullValue("/a", "string", "x", "x", "")),
        lambda: ShortcutsDialog([]),
    ):
        for closing in ("submit", "escape"):
            dialog = shown(qtbot, make())
            if closing == "submit":
                submit(dialog)
            else:
                QTest.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_Escape)
            assert not dialog.isVisible()


def test_settings_dialog(qtbot: Any) -> None:
    dialog = shown(qtbot, SettingsDialog(str(DESTINATION)))
    submit(dialog)
    assert dialog.result() == Accepted
    bad = shown(qtbot, SettingsDialog("/no/such/destination.json"))
    submit(bad)  # OK is disabled while the file cannot be used
    assert bad.isVisible()
    QTest.keyClick(bad.focusWidget() or bad, Qt.Key.Key_Escape)
    assert bad.result() == Rejected
