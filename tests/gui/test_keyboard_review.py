"""Issue 12, point 4: a whole review and its export from the keyboard alone, on the real
widgets and real dialogs (no scripted prompter); every dialog takes Ctrl+Enter and Esc;
the pane keys move the focus; a restored review continues at the next unreviewed belief."""

from __future__ import annotations

import json
import shutil
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QElapsedTimer, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QMessageBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.conftest import EXAMPLES
from tests.gui.driving import DESTINATION, PUBLICATION, WAIT_MS, drop_and_wait, wait_idle
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.packet.receipt import ReceiptStatus, verify_receipt
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.dialogs import NoteDialog, SupersedeDialog

CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier
Step = tuple[type[QWidget], Callable[[Any], None]]


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


class ModalAnswers:
    """Answers modal dialogs, in order, with keys only, as each one opens (they run
    their own event loop inside the key press that opened them).

    A dialog still open after ``DEADLINE_MS`` is closed and noted, so a key that went
    astray fails the test instead of leaving it waiting in a modal loop for ever.
    """

    DEADLINE_MS = 10_000

    def __init__(self) -> None:
        self.steps: deque[Step] = deque()
        self.seen: list[str] = []
        self.stuck: list[str] = []
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._poll)
        # The dialogs answered, kept (not their ids: a new dialog may reuse a gone one's).
        self._handled: list[tuple[QWidget, QElapsedTimer]] = []
        self._waiting = QElapsedTimer()

    def expect(self, *steps: Step) -> None:
        self.steps.extend(steps)
        self._waiting.start()
        self._timer.start()

    def _poll(self) -> None:
        modal = QApplication.activeModalWidget()
        answered = next((clock for w, clock in self._handled if w is modal), None)
        if modal is not None and answered is not None:
            if answered.elapsed() > self.DEADLINE_MS:
                self.stuck.append(f"{type(modal).__name__} still open; focus {focused_name()}")
                modal.close()
            return
        if not self.steps:
            self._timer.stop()
            return
        kind, answer = self.steps[0]
        if not isinstance(modal, kind) or not modal.isVisible():
            if modal is not None and self._waiting.elapsed() > self.DEADLINE_MS:
                self.stuck.append(f"expected {kind.__name__}, {type(modal).__name__} is open")
                modal.close()
            return
        focus = QApplication.focusWidget()
        if QApplication.activeWindow() is not modal or focus is None or focus.window() is not modal:
            modal.activateWindow()  # keys go where the focus is: wait until it is in the dialog
            return
        clock = QElapsedTimer()
        clock.start()
        self._handled.append((modal, clock))
        self.steps.popleft()
        self._waiting.start()
        self.seen.append(type(modal).__name__)
        answer(modal)


def focused_name() -> str:
    widget = QApplication.focusWidget()
    return "none" if widget is None else f"{type(widget).__name__} {widget.objectName()}"


def ctrl_enter(_dialog: QWidget) -> None:
    QTest.keyClick(focused(), Qt.Key.Key_Return, CTRL)


def type_then_submit(text: str) -> Callable[[QWidget], None]:
    def answer(_dialog: QWidget) -> None:
        QTest.keyClicks(focused(), text)
        QTest.keyClick(focused(), Qt.Key.Key_Return, CTRL)

    return answer


def supersede_by_keys(_dialog: QWidget) -> None:
    QTest.keyClicks(focused(), "b-reader")  # the filter picks the first match
    QTest.keyClick(focused(), Qt.Key.Key_Tab)  # to the list
    QTest.keyClick(focused(), Qt.Key.Key_Tab)  # to the note
    QTest.keyClicks(focused(), "covered by b-reader")
    QTest.keyClick(focused(), Qt.Key.Key_Return, CTRL)


def save_as(path: Path) -> Callable[[QWidget], None]:
    def answer(_dialog: QWidget) -> None:
        QTest.keyClick(focused(), Qt.Key.Key_A, CTRL)
        QTest.keyClicks(focused(), str(path))
        QTest.keyClick(focused(), Qt.Key.Key_Return)

    return answer


@pytest.fixture
def answers() -> ModalAnswers:
    return ModalAnswers()


def active(qtbot: QtBot, window: MainWindow) -> None:
    # The offscreen platform has no window manager to give the window back its
    # activation when a dialog closes; a desktop does that by itself.
    if QApplication.activeWindow() is not window:
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def press(
    qtbot: QtBot,
    window: MainWindow,
    key: Qt.Key,
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """A key pressed where the keyboard focus is, as a user would."""
    active(qtbot, window)
    QTest.keyClick(focused(), key, modifiers)


def test_a_whole_review_and_export_by_keys_only(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, answers: ModalAnswers
) -> None:
    packet = tmp_path / "full-handoff.json"
    shutil.copy(PUBLICATION / "full-handoff.json", packet)
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    tab = drop_and_wait(qtbot, window, [packet])
    pane = tab.review_pane
    assert pane is not None
    # Review: no reviewer yet, so the focus goes to the name asked above the beliefs
    # (issue 31: before the first decision, never a dialog opened by a decision key).
    press(qtbot, window, Qt.Key.Key_4, ALT)
    assert focused() is pane.identity_bar.field
    QTest.keyClicks(pane.identity_bar.field, "carol")
    press(qtbot, window, Qt.Key.Key_Return)
    assert focused() is pane.table
    assert pane.current_ref() == "b-reader"
    press(qtbot, window, Qt.Key.Key_C)
    assert pane.current_ref() == "b-order"
    answers.expect((NoteDialog, type_then_submit("stale: the order rule changed")))
    press(qtbot, window, Qt.Key.Key_R)
    answers.expect((SupersedeDialog, supersede_by_keys))
    press(qtbot, window, Qt.Key.Key_S)
    assert not answers.steps, answers.stuck
    states = {b.portable_ref: str(pane.model.state(b.portable_ref)) for b in pane.model._beliefs}
    assert states == {"b-reader": "confirmed", "b-order": "rejected", "b-bench": "superseded"}
    # Export: Ctrl+E, Ctrl+Enter on the summary, a file name, Ctrl+Enter on the report.
    out = tmp_path / "keyboard.receipt.json"
    answers.expect(
        (QMessageBox, ctrl_enter), (QFileDialog, save_as(out)), (QMessageBox, ctrl_enter)
    )
    press(qtbot, window, Qt.Key.Key_E, CTRL)
    assert not answers.stuck
    assert not answers.steps, (answers.seen, answers.stuck)
    assert answers.seen == [  # no dialog asks who reviews (issue 31)
        "NoteDialog",
        "SupersedeDialog",
        "QMessageBox",
        "QFileDialog",
        "QMessageBox",
    ]
    receipt = json.loads(out.read_bytes())
    report = verify_receipt(receipt, ed25519_public_key(g.RECEIPT_SEED))
    assert report.status is ReceiptStatus.VALID_SIGNED
    assert [
        (d["portableRef"], d["state"], d["reviewer"], d.get("note"), d.get("supersededBy"))
        for d in receipt["review"]["decisions"]
    ] == [
        ("b-reader", "confirmed", "carol", None, None),
        ("b-order", "rejected", "carol", "stale: the order rule changed", None),
        ("b-bench", "superseded", "carol", "covered by b-reader", "b-reader"),
    ]
    assert window.statusBar().currentMessage() == f"Receipt written to {out}"


def test_esc_cancels_the_note_dialog_and_nothing_is_recorded(
    qtbot: QtBot, window: MainWindow, answers: ModalAnswers
) -> None:
    window.apply_destination(str(DESTINATION))
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    pane = tab.review_pane
    assert pane is not None
    from zcf_inspector.gui.review.settings import save_identity

    save_identity(pane.settings, "carol", "")
    press(qtbot, window, Qt.Key.Key_4, ALT)
    answers.expect((NoteDialog, lambda d: QTest.keyClick(focused(), Qt.Key.Key_Escape)))
    press(qtbot, window, Qt.Key.Key_R)
    # a required note stays required: Ctrl+Enter on an empty note does nothing
    answers.expect((NoteDialog, empty_then_escape))
    press(qtbot, window, Qt.Key.Key_R)
    assert not answers.steps, answers.stuck
    assert pane.review is not None
    assert pane.review.session.decisions == ()
    assert pane.current_ref() == "b-reader"


def empty_then_escape(dialog: QDialog) -> None:
    QTest.keyClick(focused(), Qt.Key.Key_Return, CTRL)
    assert dialog.isVisible()  # OK is disabled while the note is blank
    QTest.keyClick(focused(), Qt.Key.Key_Escape)


def test_pane_keys_move_the_focus_and_alt_5_reaches_the_graph(
    qtbot: QtBot, window: MainWindow
) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    for key, widget in (
        (Qt.Key.Key_1, tab.manifest_pane.table),
        (Qt.Key.Key_3, tab.findings_pane.table),
        (Qt.Key.Key_2, tab.canonical_pane.views.currentWidget()),
    ):
        press(qtbot, window, key, ALT)
        assert focused() is widget
    press(qtbot, window, Qt.Key.Key_0, ALT)
    assert focused() is tab.tree
    plan = drop_and_wait(qtbot, window, [EXAMPLES / "another-computer.session.json"])
    graph = plan.plan_graph_pane
    assert graph is not None
    press(qtbot, window, Qt.Key.Key_0, ALT)
    press(qtbot, window, Qt.Key.Key_5, ALT)  # one key from anywhere to the graph canvas
    assert focused() is graph.view
    press(qtbot, window, Qt.Key.Key_Right)  # the graph's own keys work at once
    qtbot.waitUntil(lambda: graph.current_node is not None, timeout=WAIT_MS)
