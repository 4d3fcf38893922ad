"""File → Export Audit Report… and File → Reconcile Two Receipts… (issue 32), driven
through the window's own actions and dialogs: the page is written off the UI thread and
holds what the report holds; two receipts are shown side by side, walkable by keyboard;
an unsigned one is compared only after a second question."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from tests.core.helpers import destination
from tests.gui.driving import DESTINATION, PUBLICATION, WAIT_MS, drop_and_wait, wait_idle
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.review.batch import review_packet
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.reconcile_view import ReconcileDialog

PACKET = PUBLICATION / "full-handoff.json"
XSS = "<img src=x onerror=alert(1)>"
A = [
    {"portableRef": "b-reader", "state": "confirmed", "note": XSS},
    {"portableRef": "b-order", "state": "rejected", "note": "stale"},
    {"portableRef": "b-bench", "state": "confirmed"},
]
B = [
    {"portableRef": "b-reader", "state": "rejected", "note": "wrong"},
    {"portableRef": "b-order", "state": "confirmed"},
    {"portableRef": "b-bench", "state": "confirmed"},
]


def write_receipt(folder: Path, name: str, decisions: Any, reviewer: str, **dest: Any) -> Path:
    made = review_packet(
        PACKET.read_bytes(), destination(**dest), decisions, reviewer=reviewer
    ).receipt
    assert made is not None
    path = folder / name
    path.write_bytes(receipt_bytes(made))
    return path


def open_packet(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    drop_and_wait(qtbot, window, [PACKET])


def dialog_of(qtbot: QtBot, window: MainWindow) -> QFileDialog:
    dialog = window.auditing.file_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    return dialog


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_export_audit_report_through_the_file_menu(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    receipt = write_receipt(tmp_path, "a.json", A, "alice")
    open_packet(qtbot, window)
    action = window.window_actions["audit report"]
    assert action.isEnabled()
    action.trigger()
    dialog = dialog_of(qtbot, window)
    dialog.selectFile(str(receipt))
    dialog.accept()
    save = dialog_of(qtbot, window)
    qtbot.waitUntil(lambda: save is not dialog, timeout=5_000)
    assert save.acceptMode() is QFileDialog.AcceptMode.AcceptSave
    out = tmp_path / "a.audit.html"
    save.selectFile(str(out))
    save.accept()
    qtbot.waitUntil(lambda: window.auditing.written is not None, timeout=WAIT_MS)
    page = _Text()
    page.feed(out.read_text(encoding="utf-8"))
    assert "script" not in page.tags
    text = "".join(page.text)
    digest = json.loads(receipt.read_text(encoding="utf-8"))["receiptDigest"]
    assert digest in text
    assert "alice" in text
    assert XSS in page.text
    assert window.statusBar().currentMessage().startswith("Audit report written to ")


def test_export_needs_a_destination(qtbot: QtBot, window: MainWindow) -> None:
    drop_and_wait(qtbot, window, [PACKET])
    window.window_actions["audit report"].trigger()
    message = window.auditing.message
    assert message is not None
    assert "choose a destination file in Settings" in message.text()
    assert window.auditing.file_dialog is None


def test_reconcile_two_receipts_side_by_side(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    a = write_receipt(tmp_path, "a.json", A, "alice")
    b = write_receipt(tmp_path, "b.json", B, "bob")
    open_packet(qtbot, window)
    window.window_actions["reconcile"].trigger()
    dialog = dialog_of(qtbot, window)
    assert dialog.fileMode() is QFileDialog.FileMode.ExistingFiles
    dialog.filesSelected.emit([str(a), str(b)])  # what choosing both in the dialog sends
    dialog.close()
    qtbot.waitUntil(lambda: window.auditing.reconcile_view is not None, timeout=WAIT_MS)
    view = window.auditing.reconcile_view
    assert isinstance(view, ReconcileDialog)
    qtbot.waitUntil(view.isVisible, timeout=5_000)
    summary = view.summary.toPlainText()
    assert "agreement: 1 of 3 (33.3%)" in summary
    assert "Cohen's kappa: -0.5000 (exactly -1/2)" in summary
    model = view.model
    rows = [
        tuple(model.index(r, c).data() for c in range(model.columnCount()))
        for r in range(model.rowCount())
    ]
    assert [(r[0], r[3]) for r in rows] == [
        ("b-reader", "DISAGREE"),
        ("b-order", "DISAGREE"),
        ("b-bench", "agreed"),
    ]
    assert rows[0][1].endswith(f"note: {XSS}")  # plain text in a plain model
    # Keyboard: the table has the focus, Down walks it.
    view.activateWindow()
    view.table.setFocus()
    qtbot.waitUntil(view.table.hasFocus, timeout=5_000)
    QTest.keyClick(view.table, Qt.Key.Key_Down)
    assert view.table.currentIndex().row() == 1


def test_an_unsigned_receipt_is_compared_after_a_second_question(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    a = write_receipt(tmp_path, "a.json", A, "alice", signingKey=None)
    b = write_receipt(tmp_path, "b.json", B, "bob")
    open_packet(qtbot, window)
    tab = window.current_tab()
    assert tab is not None
    window.auditing.reconcile(tab.document, (str(a), str(b)))  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: window.auditing.message is not None, timeout=WAIT_MS)
    question = window.auditing.message
    assert question is not None
    assert question.text().startswith("Receipt A is not signed by a key this destination")
    assert window.auditing.reconcile_view is None
    question.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: window.auditing.reconcile_view is not None, timeout=WAIT_MS)
    view = window.auditing.reconcile_view
    assert view is not None
    assert "NOT signed by a key this destination trusts" in view.summary.toPlainText()
