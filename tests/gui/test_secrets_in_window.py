"""Issue 20, point 4, in the window: a packet whose texts carry suspected credentials is
flagged on the header's admission chip, its Findings list each `secret_suspected`
warning (the value never echoed), and the tree shows each flagged text masked — the
value as the packet holds it is one explicit action away (Show Full Value)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.core.helpers import to_bytes
from tests.gui.driving import WAIT_MS, drop_and_wait, rows, wait_idle
from zcf_inspector.core.codes import AdvisoryCode
from zcf_inspector.gui.document_tab import PANE_CANONICAL
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import VALUE_COLUMN
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
FLAGGED = "/content/beliefs/0/content"
MASKED = "the deploy key is AKIA…(20 characters, hidden)"


def planted(tmp_path: Path) -> Path:
    value = g.handoff("secrets-in-window")
    value["content"]["beliefs"] = [
        g.belief("b-1", f"the deploy key is {AWS_KEY}"),
        g.belief("b-2", "nothing to hide here"),
    ]
    path = tmp_path / "planted.json"
    path.write_bytes(to_bytes(g.unsigned(value)))
    return path


def test_the_admission_chip_says_what_the_scan_flagged(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    assert rows(tab)["admission"] == ("changed", "1 suspected credential flagged (values hidden)")
    chip = next(c for c in tab.header.chips if c.text().startswith("admission"))
    assert AWS_KEY not in chip.text()
    assert AWS_KEY not in chip.toolTip()
    assert tab.verdict.words == "VALID · UNSIGNED"  # validity is not what the scan says


def test_the_findings_list_each_suspected_credential_without_its_value(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    model = tab.findings_pane.model
    found = [model.finding(r) for r in range(model.rowCount())]
    secrets = [f for f in found if f.code is AdvisoryCode.SECRET_SUSPECTED]
    assert [(f.severity, f.pointer) for f in secrets] == [("warning", FLAGGED)]
    shown = [
        str(model.index(r, c).data())
        for r in range(model.rowCount())
        for c in range(model.columnCount())
    ]
    assert any("AKIA…(20 characters, hidden)" in text for text in shown)
    assert not any(AWS_KEY in text for text in shown)


def test_the_tree_masks_a_flagged_value_until_it_is_shown_in_full(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    tab.select_pointer(FLAGGED)
    value = tab.tree.currentIndex().siblingAtColumn(VALUE_COLUMN)
    assert MASKED in str(value.data())
    assert AWS_KEY not in str(value.data())
    assert AWS_KEY not in str(value.data(PLAIN_TOOLTIP_ROLE))
    assert AWS_KEY not in str(value.data(Qt.ItemDataRole.AccessibleTextRole))
    other = tab.model.index_for_pointer("/content/beliefs/1/content").siblingAtColumn(VALUE_COLUMN)
    assert "nothing to hide here" in str(other.data())  # only what was flagged is masked
    # Revealing is an explicit action: the full value shows the text as the packet holds it.
    tab.show_full_value()
    qtbot.waitUntil(lambda: tab.full_value_dialog is not None, timeout=WAIT_MS)
    dialog = tab.full_value_dialog
    assert dialog is not None
    assert AWS_KEY in dialog.text.toPlainText()
    dialog.close()
    wait_idle(qtbot, window)


def test_the_briefing_uses_the_opens_scan(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    pane = tab.briefing_pane
    qtbot.waitUntil(lambda: pane.result is not None, timeout=WAIT_MS)
    document = tab.document
    assert pane.result is not None
    assert pane.result.scan is getattr(document, "secrets", None) is not None


def test_the_canonical_bytes_of_a_node_holding_a_flagged_text_are_held_back(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    pane = tab.canonical_pane

    def shows(pointer: str) -> bool:
        return pane.form is not None and pane.form.pointer == pointer

    for pointer in (FLAGGED, "/content/beliefs/0", "/content/beliefs"):
        tab.select_pointer(pointer)
        qtbot.waitUntil(partial(shows, pointer))
        wait_idle(qtbot, window)
        assert pane.digest.text().startswith("sha256:")  # the digest is of the whole node
        assert pane.views.isHidden()
        assert not pane.held_back.isHidden()
        assert "1 text that may contain a credential" in pane.held_back.text()
        assert AWS_KEY not in pane.text.toPlainText()
        assert AWS_KEY.encode().hex() not in pane.hex.toPlainText().replace(" ", "")
    # A node holding nothing flagged shows its bytes at once.
    tab.select_pointer("/content/beliefs/1")
    qtbot.waitUntil(lambda: shows("/content/beliefs/1"))
    assert not pane.views.isHidden()
    assert pane.held_back.isHidden()
    assert "nothing to hide here" in pane.text.toPlainText()
    # Asking shows them: the bytes as the packet holds them.
    tab.select_pointer(FLAGGED)
    qtbot.waitUntil(lambda: shows(FLAGGED))
    pane.reveal_button.click()
    assert not pane.views.isHidden()
    assert AWS_KEY in pane.text.toPlainText()


def test_show_bytes_is_reached_from_the_keyboard(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    pane = tab.canonical_pane
    tab.select_pointer(FLAGGED)
    qtbot.waitUntil(lambda: pane.form is not None and pane.form.pointer == FLAGGED)
    tab.focus_pane(PANE_CANONICAL)
    qtbot.waitUntil(pane.reveal_button.hasFocus)
    QTest.keyClick(pane.reveal_button, Qt.Key.Key_Space)
    assert AWS_KEY in pane.text.toPlainText()
    qtbot.waitUntil(pane.text.hasFocus)


def test_copying_a_flagged_value_does_not_echo_it(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Copy Value is the explicit action that takes the value as the packet holds it, once
    the user says Yes to the review pane's question (issue 34); the status bar's echo of
    what was copied must not show it unasked (for the text, nor for an object holding
    it); an unflagged value is echoed as before, and asks nothing."""
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    asked: list[tuple[str, str]] = []

    def yes(_parent: object, title: str, text: str) -> bool:
        asked.append((title, text))
        return True

    tab.copier.confirm = yes
    clipboard = QGuiApplication.clipboard()
    status = window.statusBar()
    window.activateWindow()
    tab.tree.setFocus()
    qtbot.waitUntil(tab.tree.hasFocus)
    for pointer, copied in (
        (FLAGGED, f"the deploy key is {AWS_KEY}"),
        ("/content/beliefs/0", None),  # the belief holding it, copied on the runner
    ):
        clipboard.setText("(before)")
        tab.select_pointer(pointer)
        QTest.keyClick(tab.tree, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: clipboard.text() != "(before)", timeout=WAIT_MS)
        assert AWS_KEY in clipboard.text()
        if copied is not None:
            assert clipboard.text() == copied
        qtbot.waitUntil(lambda: status.currentMessage().startswith("Copied value"))
        assert status.currentMessage() == (
            "Copied value: it holds a suspected credential, not shown here"
        )
        assert AWS_KEY not in status.currentMessage()
    assert [title for title, _ in asked] == ["Copy a suspected credential?"] * 2
    assert asked[0][1].startswith(f"The value at {FLAGGED} holds a suspected credential")
    tab.select_pointer("/content/beliefs/1/content")
    QTest.keyClick(tab.tree, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: clipboard.text() == "nothing to hide here", timeout=WAIT_MS)
    assert status.currentMessage() == "Copied value: nothing to hide here"
    assert len(asked) == 2  # nothing flagged: nothing asked


def test_copy_value_of_a_flagged_node_asks_first_and_no_copies_nothing(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Issue 34: the tree's Copy Value (and Copy Canonical JSON) put a flagged credential on
    the clipboard without the question the review pane's Copy raw value asks."""
    tab = drop_and_wait(qtbot, window, [planted(tmp_path)])
    asked: list[str] = []

    def no(_parent: object, title: str, _text: str) -> bool:
        asked.append(title)
        return False

    tab.copier.confirm = no
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("(before)")
    window.activateWindow()
    tab.tree.setFocus()
    tab.select_pointer(FLAGGED)
    QTest.keyClick(tab.tree, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(
        tab.tree,
        Qt.Key.Key_C,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier,
    )
    wait_idle(qtbot, window)
    assert asked == ["Copy a suspected credential?"] * 2
    assert clipboard.text() == "(before)"  # No: nothing reaches the clipboard
    assert window.statusBar().currentMessage() == (
        "Nothing copied: the value holds a suspected credential"
    )
    # The digest shows nothing of the text: copied without a question.
    QTest.keyClick(
        tab.tree,
        Qt.Key.Key_D,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: clipboard.text().startswith("sha256:"), timeout=WAIT_MS)
    assert len(asked) == 2
