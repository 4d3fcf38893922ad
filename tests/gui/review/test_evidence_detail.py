"""The review pane's evidence, secrets and old-beside-new text (issue 20), on the real pane
driven by keys: "no evidence cited" in a row and the With / Without evidence and Secret
suspected filters; a flagged belief masked until revealed; a bulk confirm that includes
flagged beliefs asks again (No leaves them unreviewed) and the receipt holds nothing of
the secret; a changed belief's earlier text shown above the new one, escaped, with the
changed words marked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPlainTextEdit

from tests.core.generations import earlier_receipt, gen2_beliefs, generation_1, generation_2
from tests.core.helpers import to_bytes
from tests.gui.review.conftest import (
    OFFSCREEN_NOISE,
    ScriptedPrompter,
    focus_table,
    open_pane,
)
from tests.present.review_packets import AWS_KEY, SECRET_KEY, evidence_packet
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.table_model import REF_ROLE, Column

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def pane(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, tmp_path: Path
) -> ReviewPane:
    path = tmp_path / "evidence.json"
    path.write_bytes(to_bytes(evidence_packet()))
    return open_pane(qtbot, settings, data_dir, prompter, path)


def shown(pane: ReviewPane) -> list[str]:
    return [pane.proxy.index(r, 0).data(REF_ROLE) for r in range(pane.proxy.rowCount())]


def cell(pane: ReviewPane, ref: str, column: Column) -> str:
    value = pane.model.index(pane.model.row_of(ref), column).data()
    assert isinstance(value, str)
    return value


def go_to(qtbot: Any, pane: ReviewPane, ref: str) -> None:
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_Home)
    for _ in range(pane.proxy.rowCount()):
        if pane.current_ref() == ref:
            return
        QTest.keyClick(pane.table, Qt.Key.Key_J)
    raise AssertionError(f"{ref} is not shown")


def test_a_belief_without_evidence_says_so_and_the_filters_offer_with_and_without(
    pane: ReviewPane,
) -> None:
    assert cell(pane, "b-bare", Column.EVIDENCE) == "no evidence cited"
    assert cell(pane, "b-reader", Column.EVIDENCE) == "2 anchors"
    combo = pane.ui.evidence_filter
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "Any evidence",
        "With evidence",
        "Without evidence",
    ]
    combo.setCurrentIndex(combo.findText("Without evidence"))
    assert shown(pane) == ["b-bare"]
    combo.setCurrentIndex(combo.findText("With evidence"))
    assert shown(pane) == ["b-spec", "b-reader", "b-key"]
    combo.setCurrentIndex(0)
    admission = pane.ui.admission_filter
    admission.setCurrentIndex(admission.findText("Secret suspected"))
    assert shown(pane) == ["b-key"]
    admission.setCurrentIndex(admission.findText("No secret suspected"))
    assert shown(pane) == ["b-spec", "b-reader", "b-bare"]


def test_copying_a_masked_credential_asks_first(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter
) -> None:
    """Copy raw value is the one unescaped path; for a belief whose suspected credential is
    still masked it asks first (No copies nothing); once revealed, or for a belief with no
    credential, it copies at once."""
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("before")
    asked = len(prompter.log)
    go_to(qtbot, pane, "b-key")
    prompter.script(("confirm", False))
    qtbot.mouseClick(pane.detail.copy_raw_button, Qt.MouseButton.LeftButton)
    assert clipboard.text() == "before"
    assert prompter.log[-1][1] == "Copy a suspected credential?"
    prompter.script(("confirm", True))
    qtbot.mouseClick(pane.detail.copy_raw_button, Qt.MouseButton.LeftButton)
    assert AWS_KEY in clipboard.text()
    clipboard.setText("before")
    QTest.keyClick(pane.table, Qt.Key.Key_V, CTRL_SHIFT)  # revealed: no question
    qtbot.mouseClick(pane.detail.copy_raw_button, Qt.MouseButton.LeftButton)
    assert AWS_KEY in clipboard.text()
    go_to(qtbot, pane, "b-spec")
    qtbot.mouseClick(pane.detail.copy_raw_button, Qt.MouseButton.LeftButton)
    assert pane.target is not None
    spec = next(b.content for b in pane.target.beliefs if b.portable_ref == "b-spec")
    assert clipboard.text() == spec
    assert len(prompter.log) == asked + 2  # the two questions, and no other


def test_a_flagged_belief_is_masked_until_the_reviewer_reveals_it(
    qtbot: Any, pane: ReviewPane
) -> None:
    row = cell(pane, "b-key", Column.CONTENT)
    assert row.startswith("[suspected credential, masked]\n")
    assert AWS_KEY not in row
    go_to(qtbot, pane, "b-key")
    detail = pane.detail
    assert AWS_KEY not in detail.content.toPlainText()
    assert "aws_access_key_id = AKIA" in detail.content.toPlainText()  # the kind's prefix
    assert detail.reveal_button.isVisible()
    assert detail.secret_note.text().startswith("Suspected credential: may hold ")
    # An explicit action reveals it (the button, or Ctrl+Shift+V from the table) …
    QTest.keyClick(pane.table, Qt.Key.Key_V, CTRL_SHIFT)
    assert AWS_KEY in detail.content.toPlainText()
    assert detail.reveal_button.text() == "Mask again"
    assert "revealed: shown as admitted" in detail.secret_note.text()
    qtbot.mouseClick(detail.reveal_button, Qt.MouseButton.LeftButton)
    assert AWS_KEY not in detail.content.toPlainText()
    qtbot.mouseClick(detail.reveal_button, Qt.MouseButton.LeftButton)
    assert AWS_KEY in detail.content.toPlainText()
    # … and another belief, then back, is masked again. The history's notes are masked.
    go_to(qtbot, pane, "b-spec")
    history = detail.history.topLevelItem(0)
    assert history is not None
    assert history.text(4).startswith("checked with aws_secret_access_key = ")
    assert SECRET_KEY not in history.text(4)
    go_to(qtbot, pane, "b-key")
    QTest.keyClick(pane.table, Qt.Key.Key_V, CTRL_SHIFT)
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_K)
    assert pane.current_ref() == "b-reader"
    assert not detail.reveal_button.isVisible()
    QTest.keyClick(pane.table, Qt.Key.Key_J)
    assert pane.current_ref() == "b-key"
    assert AWS_KEY not in detail.content.toPlainText()


def test_a_bulk_confirm_with_flagged_beliefs_asks_again_and_no_leaves_them_unreviewed(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    prompter.script(("confirm", True), ("confirm", False))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    assert prompter.messages("confirm") == [
        "Mark 4 beliefs as confirmed?",
        "1 of these 4 beliefs may contain a credential — confirm it too?\n\nA destination "
        "agent acts on a confirmed belief. No confirms the other 3 and leaves that one as it "
        "is. The detail shows each value masked until you reveal it.",
    ]
    assert pane.review is not None
    last = pane.review.session.last_decisions()
    assert sorted(last) == ["b-bare", "b-reader", "b-spec"]
    assert pane.model.state("b-key") is ReviewState.UNREVIEWED
    # Asked again, Yes confirms it too; the receipt records nothing of the secret.
    prompter.script(("confirm", True), ("confirm", True))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    assert prompter.messages("confirm")[2] == (
        "Mark 1 belief as confirmed?\n3 already confirmed are left as they are."
    )
    assert prompter.messages("confirm")[3].startswith(
        "This belief may contain a credential — confirm it too?"
    )
    assert pane.model.state("b-key") is ReviewState.CONFIRMED
    receipt = tmp_path / "evidence.receipt.json"
    prompter.script(("confirm", True), ("path", str(receipt)))
    pane.export_receipt()
    data = receipt.read_bytes()
    assert b"AKIA" not in data
    assert AWS_KEY[4:].encode() not in data
    assert "secret" not in json.dumps(json.loads(data)).lower()
    # A bulk reject asks nothing more: rejecting a credential admits nothing.
    prompter.script(("note", "stale"), ("confirm", True))
    pane.ui.bulk_buttons[ReviewState.REJECTED].click()
    assert len(prompter.messages("confirm")) == 6


def painted(box: QPlainTextEdit) -> list[str]:
    return [s.cursor.selectedText() for s in box.extraSelections()]


def test_a_changed_belief_shows_the_earlier_text_above_the_new_one_escaped_and_marked(
    qtbot: Any,
    settings: QSettings,
    data_dir: Path,
    prompter: ScriptedPrompter,
    tmp_path: Path,
) -> None:
    beliefs = gen2_beliefs()
    edit = next(b for b in beliefs if b["portableRef"] == "b-edit")
    edit["content"] = "Validation of 50 MB takes under\u202e a second."
    folder = tmp_path / "stream"
    folder.mkdir()
    gen1, receipt, gen2 = folder / "gen1.json", folder / "gen1.receipt.json", folder / "gen2.json"
    gen1.write_bytes(to_bytes(generation_1()))
    receipt.write_bytes(receipt_bytes(earlier_receipt()))
    gen2.write_bytes(to_bytes(generation_2(beliefs)))
    pane = open_pane(qtbot, settings, data_dir, prompter, gen2)
    detail = pane.detail
    go_to(qtbot, pane, "b-edit")
    assert detail.earlier.isHidden()  # not comparing: the new text alone
    prompter.script(("previous", (str(gen1), str(receipt))))
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_P, CTRL_SHIFT)
    qtbot.waitUntil(lambda: pane.previous is not None, timeout=20_000)
    go_to(qtbot, pane, "b-edit")
    assert not detail.earlier.isHidden()
    assert detail.earlier_label.text() == (
        "Admitted by the previous generation (packet pkt-stream-gen1; removed words marked):"
    )
    assert detail.earlier.toPlainText() == "Validation of 50 MB takes about two seconds."
    assert detail.content.toPlainText() == "Validation of 50 MB takes under\\u202e a second."
    assert "\u202e" not in detail.content.toPlainText()  # escaped by the one rule
    assert painted(detail.earlier) == ["about two seconds"]
    assert painted(detail.content) == ["under\\u202e a second"]
    # An unchanged belief shows its text alone, nothing marked.
    pane.ui.since_filter.setCurrentIndex(pane.ui.since_filter.findText("Changed or not"))
    go_to(qtbot, pane, "b-keep")
    assert detail.earlier.isHidden()
    assert painted(detail.content) == []
