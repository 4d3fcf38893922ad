"""Review only what changed, in the window, from the keyboard with the real dialogs: the
previous generation and its receipt opened in tabs are offered (the matched receipt with
its packet), Ctrl+Shift+P compares, Ctrl+Shift+R repeats after the note, Ctrl+Z undoes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from tests.core.generations import write_generations
from tests.gui.driving import DESTINATION, drop_and_wait, wait_idle
from tests.gui.test_keyboard_review import (
    ModalAnswers,
    ctrl_enter,
    focused,
    press,
    type_then_submit,
)
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.dialogs import NoteDialog
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.previous_dialog import OpenFile, PreviousGenerationDialog
from zcf_inspector.gui.review.settings import save_identity
from zcf_inspector.gui.review.table_model import REF_ROLE

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier


@pytest.fixture
def answers() -> ModalAnswers:
    return ModalAnswers()


def shown(pane: ReviewPane) -> list[str]:
    return [pane.proxy.index(r, 0).data(REF_ROLE) for r in range(pane.proxy.rowCount())]


def test_compare_and_repeat_by_keys_in_the_window(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, answers: ModalAnswers
) -> None:
    gen1, receipt, gen2 = write_generations(tmp_path)
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    drop_and_wait(qtbot, window, [gen1, receipt])
    tab = drop_and_wait(qtbot, window, [gen2])
    pane = tab.review_pane
    assert pane is not None
    save_identity(pane.settings, "carol", "")
    packets, receipts = window.open_files_for(tab)
    assert packets == [OpenFile("gen1.json", str(gen1))]
    assert receipts == [OpenFile("gen1.receipt.json", str(receipt), str(gen1))]
    press(qtbot, window, Qt.Key.Key_4, ALT)
    assert focused() is pane.table
    # Both fields come filled in (the open packet, the receipt matched to it): Ctrl+Enter.
    answers.expect((PreviousGenerationDialog, ctrl_enter))
    press(qtbot, window, Qt.Key.Key_P, CTRL | SHIFT)
    assert not answers.steps, answers.stuck
    wait_idle(qtbot, window)
    assert pane.previous is not None
    assert shown(pane) == ["b-new", "b-edit", "b-src"]
    assert pane.review is not None
    assert pane.review.session.decisions == ()  # nothing repeated by comparing
    answers.expect((NoteDialog, type_then_submit("gen2 diff read")))
    press(qtbot, window, Qt.Key.Key_R, CTRL | SHIFT)
    assert not answers.steps, answers.stuck
    last = pane.review.session.last_decisions()
    assert {ref: d.state for ref, d in last.items()} == {
        "b-old": ReviewState.SUPERSEDED,
        "b-reject": ReviewState.REJECTED,
        "b-keep": ReviewState.CONFIRMED,
    }
    assert last["b-keep"].note is not None
    assert last["b-keep"].note.startswith("gen2 diff read — repeated from receipt sha256:")
    press(qtbot, window, Qt.Key.Key_Z, CTRL)
    assert not pane.review.session.decisions
    press(qtbot, window, Qt.Key.Key_Z, CTRL | SHIFT)
    assert len(pane.review.session.decisions) == 3
    assert answers.seen == ["PreviousGenerationDialog", "NoteDialog"]


def test_esc_in_either_dialog_changes_nothing(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, answers: ModalAnswers
) -> None:
    gen1, receipt, gen2 = write_generations(tmp_path)
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    tab = drop_and_wait(qtbot, window, [gen2])
    pane = tab.review_pane
    assert pane is not None
    save_identity(pane.settings, "carol", "")
    press(qtbot, window, Qt.Key.Key_4, ALT)
    answers.expect(
        (PreviousGenerationDialog, lambda _d: QTest.keyClick(focused(), Qt.Key.Key_Escape))
    )
    press(qtbot, window, Qt.Key.Key_P, CTRL | SHIFT)
    assert not answers.steps, answers.stuck
    assert not window.runner.busy
    assert pane.previous is None

    # Nothing open: the paths are typed, Tab between them, Ctrl+Enter.
    def type_paths(_dialog: object) -> None:
        QTest.keyClicks(focused(), str(gen1))
        QTest.keyClick(focused(), Qt.Key.Key_Tab)
        QTest.keyClicks(focused(), str(receipt))
        QTest.keyClick(focused(), Qt.Key.Key_Return, CTRL)

    answers.expect((PreviousGenerationDialog, type_paths))
    press(qtbot, window, Qt.Key.Key_P, CTRL | SHIFT)
    assert not answers.steps, answers.stuck
    wait_idle(qtbot, window)
    assert pane.previous is not None
    answers.expect((NoteDialog, lambda _d: QTest.keyClick(focused(), Qt.Key.Key_Escape)))
    press(qtbot, window, Qt.Key.Key_R, CTRL | SHIFT)
    assert not answers.steps, answers.stuck
    assert pane.review is not None
    assert pane.review.session.decisions == ()


def test_the_dialog_offers_open_files_and_needs_both(qtbot: QtBot) -> None:
    packets = [OpenFile("a.json", "/p/a.json"), OpenFile("b.json", "/p/b.json")]
    receipts = [
        OpenFile("ra.json", "/p/ra.json", "/p/a.json"),
        OpenFile("rb.json", "/p/rb.json", "/p/b.json"),
        OpenFile("rx.json", "/p/rx.json"),
    ]
    dialog = PreviousGenerationDialog(None, packets, receipts)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.chosen() == ("/p/a.json", "/p/ra.json")  # the receipt matched to it
    assert dialog.receipt_note.text() == "This open receipt matches that open packet."
    dialog.packet.setCurrentIndex(1)
    assert dialog.chosen() == ("/p/b.json", "/p/rb.json")
    dialog.receipt.setCurrentIndex(0)
    assert dialog.receipt_note.text() == (
        "This open receipt matches another open packet: /p/a.json"
    )
    assert ok.isEnabled()
    dialog.receipt.setCurrentText("")
    assert not ok.isEnabled()
    dialog.receipt.setCurrentText("/p/rx.json")
    assert dialog.receipt_note.text() == ""
    assert ok.isEnabled()
