"""Bulk decisions with their count dialog, filters, and the table model under Qt's checker."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QTreeWidget

from tests.gui.review.conftest import (
    OFFSCREEN_NOISE,
    PaneFactory,
    ScriptedPrompter,
    focus_table,
)
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.gui.review.pane import ReviewPane

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def answer_message_box(seen: list[str], button: QMessageBox.StandardButton) -> None:
    """Queue an answer for the next modal message box: runs inside its event loop."""

    def answer() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        assert box.textFormat() is Qt.TextFormat.PlainText
        seen.append(box.text())
        box.button(button).click()

    QTimer.singleShot(0, answer)


def test_bulk_confirm_states_its_count(make_pane: PaneFactory, qtbot: Any) -> None:
    pane = make_pane("truncation", use_prompter=Prompter())  # real dialogs
    assert pane.proxy.rowCount() == 8  # the destination admits 8 of 10
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # one already confirmed
    seen: list[str] = []
    answer_message_box(seen, QMessageBox.StandardButton.Yes)
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    assert seen == ["Mark 7 beliefs as confirmed?\n1 already confirmed is left as it is."]
    review = pane.review
    assert review is not None
    assert review.session.summary().counts[ReviewState.CONFIRMED] == 8
    assert len(review.session.applied) == 2  # the bulk is one step
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert review.session.summary().counts[ReviewState.CONFIRMED] == 1


def test_bulk_declined_records_nothing(make_pane: PaneFactory) -> None:
    pane = make_pane("truncation", use_prompter=Prompter())
    seen: list[str] = []
    answer_message_box(seen, QMessageBox.StandardButton.No)
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    assert seen == ["Mark 8 beliefs as confirmed?"]
    assert pane.review is not None
    assert pane.review.session.decisions == ()


def test_bulk_over_selected_rows_and_reject_note(
    make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    pane = make_pane("truncation")
    selection = pane.table.selectionModel()
    for row in (1, 3, 4):
        selection.select(
            pane.proxy.index(row, 0),
            QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
        )
    prompter.script(("note", "all from the stale cache"), ("confirm", True))
    pane.ui.bulk_buttons[ReviewState.REJECTED].click()
    assert prompter.messages("confirm") == ["Mark 4 beliefs as rejected?"]  # row 0 was current
    review = pane.review
    assert review is not None
    assert {d.portable_ref for d in review.session.decisions} == {
        pane.model.belief(r).portable_ref for r in (0, 1, 3, 4)
    }
    assert {d.note for d in review.session.decisions} == {"all from the stale cache"}


def test_bulk_over_filtered_rows(make_pane: PaneFactory, prompter: ScriptedPrompter) -> None:
    pane = make_pane("demotion")
    pane.ui.admission_filter.setCurrentIndex(pane.ui.admission_filter.findData("demoted"))
    assert pane.proxy.rowCount() == 3
    prompter.script(("confirm", True))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    assert prompter.messages("confirm") == ["Mark 3 beliefs as confirmed?"]
    assert pane.review is not None
    assert [d.portable_ref for d in pane.review.session.decisions] == ["b-c", "b-r", "b-s"]


def test_filters(make_pane: PaneFactory) -> None:
    pane = make_pane("full-handoff")
    ui = pane.ui
    ui.evidence_filter.setCurrentIndex(ui.evidence_filter.findData(True))
    assert [pane.proxy.index(r, 0).data() for r in range(pane.proxy.rowCount())] == ["b-order"]
    ui.evidence_filter.setCurrentIndex(0)
    ui.text_filter.setText("CI MACHINE")
    assert [pane.proxy.index(r, 0).data() for r in range(pane.proxy.rowCount())] == ["b-bench"]
    ui.text_filter.clear()
    ui.state_filter.setCurrentIndex(ui.state_filter.findData("unreviewed"))
    pane.table.setFocus()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    # The confirmed row leaves the filter; the next unreviewed one becomes current.
    assert pane.proxy.rowCount() == 2
    assert pane.current_ref() == "b-order"


def test_model_passes_qt_checker(make_pane: PaneFactory, qtmodeltester: Any) -> None:
    pane = make_pane("demotion", show=False)
    qtmodeltester.check(pane.model)
    qtmodeltester.check(pane.proxy)
    row = pane.model.row_of("b-r")
    cells = [pane.model.index(row, c).data() for c in range(pane.model.columnCount())]
    assert cells == [
        "b-r",
        pane.model.belief(row).content,
        "unreviewed",  # the decision here
        "",  # its note
        "rejected, demoted",  # as it arrived
        "no evidence cited",
    ]


def cell(tree: QTreeWidget, row: int, column: int) -> str:
    item = tree.topLevelItem(row)
    assert item is not None
    return item.text(column)


def test_table_and_detail(make_pane: PaneFactory, prompter: ScriptedPrompter) -> None:
    pane = make_pane("full-handoff")
    QTest.keyClick(pane.table, Qt.Key.Key_J)
    detail = pane.detail
    assert detail.content.toPlainText() == "Keys are sorted by code point, not by UTF-16 unit."
    anchors = [line.text for line in detail.evidence_lines if line.text.startswith("Anchor")]
    assert anchors == ["Anchor a-1 → source src-spec", "Anchor a-2 → source src-rfc"]
    shown = detail.evidence.toPlainText().splitlines()
    assert "      where in the source: §2" in shown
    assert "      locator: spec/zcf-v1-profile.md" in shown
    QTest.keyClick(pane.table, Qt.Key.Key_K)
    assert detail.history.topLevelItemCount() == 1  # the packet's reviewEvents for b-reader
    assert cell(detail.history, 0, 4) == "seen, not yet checked"
    pane.ui.note_field.setText("checked against the reader tests")
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    QTest.keyClick(pane.table, Qt.Key.Key_K)
    assert detail.history.topLevelItemCount() == 2
    assert pane.model.note("b-reader") == "checked against the reader tests"
    assert pane.ui.note_field.text() == ""


def test_every_label_is_plain_text(make_pane: PaneFactory, qtbot: Any) -> None:
    from PySide6.QtWidgets import QLabel

    pane: ReviewPane = make_pane("unicode")
    labels = pane.findChildren(QLabel)
    assert labels
    assert all(label.textFormat() is Qt.TextFormat.PlainText for label in labels)
