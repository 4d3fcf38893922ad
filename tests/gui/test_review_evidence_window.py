"""A belief's evidence in the window (issue 20, point 2): reached from the keyboard (Alt+4
to the beliefs, E to the evidence), Enter (or a double-click) on an anchor or a source
lands on its node in the tree, and the sources show the Briefing's workspace check — one
mismatch says "differs" on that source and "cites a mismatch" on the belief. The keys
are listed in Help → Keyboard Shortcuts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tests.core.helpers import to_bytes
from tests.gui.driving import DESTINATION, WAIT_MS, wait_idle
from tests.present.review_packets import evidence_packet, make_workspace
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.detail import DETAIL_KEYS
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.settings import save_identity
from zcf_inspector.gui.shortcuts import REVIEW_DETAIL, shortcut_entries

ALT = Qt.KeyboardModifier.AltModifier


@pytest.fixture
def packet_path(tmp_path: Path) -> Path:
    path = tmp_path / "evidence.json"
    path.write_bytes(to_bytes(evidence_packet()))
    return path


def opened(qtbot: QtBot, window: MainWindow, path: Path) -> tuple[DocumentTab, ReviewPane]:
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    window.open_paths([str(path)])
    qtbot.waitUntil(lambda: window.current_tab() is not None, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    tab = window.current_tab()
    assert tab is not None
    pane = tab.review_pane
    assert isinstance(pane, ReviewPane)
    qtbot.waitUntil(lambda: pane.target is not None and not pane.opening, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: tab.briefing_pane.text is not None, timeout=WAIT_MS)
    save_identity(pane.settings, "carol", "")
    return tab, pane


def line_of(pane: ReviewPane, start: str) -> int:
    return next(
        n for n, line in enumerate(pane.detail.evidence_lines) if line.text.startswith(start)
    )


def test_evidence_is_reached_from_the_keyboard_and_enter_lands_in_the_tree(
    qtbot: QtBot, window: MainWindow, packet_path: Path, tmp_path: Path
) -> None:
    tab, pane = opened(qtbot, window, packet_path)
    # The workspace is named in the Briefing; the review's evidence shows its check.
    briefing = tab.briefing_pane
    briefing.choose_folder = lambda: str(make_workspace(tmp_path / "ws"))
    briefing.choose_and_check()
    qtbot.waitUntil(lambda: not briefing.busy, timeout=WAIT_MS)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    tab.tree.setFocus()
    QTest.keyClick(window, Qt.Key.Key_4, ALT)
    qtbot.waitUntil(pane.table.hasFocus, timeout=WAIT_MS)
    assert pane.current_ref() == "b-spec"
    QTest.keyClick(pane.table, Qt.Key.Key_J)
    assert pane.current_ref() == "b-reader"
    QTest.keyClick(pane.table, Qt.Key.Key_E)
    detail = pane.detail
    assert detail.evidence.hasFocus()
    assert detail.side.currentWidget() is detail.evidence
    assert detail.side.tabText(0) == "Evidence (2)"
    text = detail.evidence.toPlainText().splitlines()
    assert text[0].endswith("cites a mismatch")
    assert (
        "      claims vs workspace: differs — the file in the workspace has other bytes than "
        "the packet's digest says"
    ) in text
    assert "      claims vs workspace: matches — the file's SHA-256 is the packet's digest" in text
    # Wrapped, never elided: the view wraps anywhere, a long digest included.
    assert detail.evidence.lineWrapMode() is detail.evidence.LineWrapMode.WidgetWidth
    # E puts the cursor on the first entry: Enter selects the anchor in the tree.
    assert detail.evidence.textCursor().blockNumber() == line_of(pane, "Anchor a-2")
    QTest.keyClick(detail.evidence, Qt.Key.Key_Return)
    assert tab.selected_pointer() == "/content/evidenceAnchors/1"
    assert tab.tree.hasFocus()
    # Back (Alt+4, E), down to the source's line: Enter selects the source.
    QTest.keyClick(window, Qt.Key.Key_4, ALT)
    qtbot.waitUntil(pane.table.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(pane.table, Qt.Key.Key_E)
    source = line_of(pane, "Source s-reader")
    for _ in range(40):  # Down moves by a shown line: a wrapped entry has several
        if detail.evidence.textCursor().blockNumber() == source:
            break
        QTest.keyClick(detail.evidence, Qt.Key.Key_Down)
    QTest.keyClick(detail.evidence, Qt.Key.Key_Enter)
    assert tab.selected_pointer() == "/content/evidenceSources/1"
    # A double-click on the receipt selects the receipt.
    receipt = line_of(pane, "Receipt r-patch")
    block = detail.evidence.document().findBlockByNumber(receipt)
    detail.evidence.setTextCursor(QTextCursor(block))
    rect = detail.evidence.cursorRect()
    QTest.mouseDClick(
        detail.evidence.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0), rect.center()
    )
    assert tab.selected_pointer() == "/content/receipts/0"


def test_the_shortcuts_list_names_the_detail_keys_and_they_are_the_real_ones(
    qtbot: QtBot, window: MainWindow, packet_path: Path
) -> None:
    _, pane = opened(qtbot, window, packet_path)
    native = QKeySequence.SequenceFormat.NativeText
    listed = [e.keys for e in shortcut_entries(window.actions()) if e.section == REVIEW_DETAIL]
    assert listed == [QKeySequence(k).toString(native) for k, _ in DETAIL_KEYS]
    detail = pane.detail
    assert detail.evidence_action.shortcut().toString(native) == listed[0]
    assert detail.reveal_action.shortcut().toString(native) == listed[2]
    # Both work from the table (where the reviewer is), and the reveal from the detail too.
    assert detail.evidence_action in pane.table.actions()
    assert detail.reveal_action in pane.table.actions()
    assert detail.reveal_action in detail.actions()
