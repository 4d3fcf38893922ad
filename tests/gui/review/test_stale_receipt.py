"""Issue 12, point 6: a decision after an export makes the exported receipt out of date,
and the pane, a restored review and closing the tab all say so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait
from tests.gui.review.conftest import OFFSCREEN_NOISE, PaneFactory, ScriptedPrompter
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.close_question import CloseAnswer
from zcf_inspector.gui.review.pane import ReviewPane

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)
AT = "2026-10-01T12:00:00Z"  # the golden destination's clock


def export_to(pane: ReviewPane, prompter: ScriptedPrompter, out: Path) -> None:
    unreviewed = pane.review is not None and pane.review.session.summary().unreviewed > 0
    answers: list[tuple[str, Any]] = [("confirm", True)]
    if unreviewed:
        answers.append(("confirm", True))
    answers.append(("path", str(out)))
    prompter.script(*answers)
    pane.export_receipt()
    assert not prompter.answers


def test_a_decision_after_export_makes_the_receipt_stale(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    pane = make_pane()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    out = tmp_path / "r.json"
    export_to(pane, prompter, out)
    assert not pane.ui.stale.isVisible()
    assert pane.ui.summary.text().endswith(f" — receipt exported at {AT}")
    assert pane.confirm_close()  # nothing to say: the receipt has every decision
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    expected = f"The receipt exported at {AT} ({out}) is out of date — export again (Ctrl+E)."
    assert pane.ui.stale.isVisible()
    assert pane.ui.stale.text() == expected
    # closing asks; Cancel (Esc) keeps it open
    prompter.script(("close", CloseAnswer.CANCEL))
    assert not pane.confirm_close()
    assert "is out of date" in prompter.messages("close")[-1]
    # a restored review (the journal remembers the export) says it too
    pane.close()
    again = make_pane()
    assert again.review is not None
    assert again.review.stale_export is not None
    assert again.ui.stale.text() == expected
    # exporting again makes it current
    export_to(again, prompter, tmp_path / "r2.json")
    assert not again.ui.stale.isVisible()
    assert again.confirm_close()


def test_closing_the_tab_asks_when_the_receipt_is_stale(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    window.apply_destination(str(DESTINATION))
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    pane = tab.review_pane
    assert pane is not None
    prompter = ScriptedPrompter()
    pane.prompter = prompter
    pane.identity_bar.field.setText("carol")  # the window's settings have no reviewer yet
    pane.identity_bar.button.click()
    tab.show_pane("Review")
    pane.decide_current(ReviewState.CONFIRMED)
    export_to(pane, prompter, tmp_path / "r.json")
    pane.decide_current(ReviewState.CONFIRMED)
    assert pane.ui.stale.isVisible()
    prompter.script(("close", CloseAnswer.CANCEL))
    window.close_current()
    assert window.document_tabs() == [tab]  # kept open
    prompter.script(("close", CloseAnswer.CANCEL))
    window.close()  # the window asks too
    assert window.isVisible()
    prompter.script(("close", CloseAnswer.KEEP))
    window.close_current()
    assert window.document_tabs() == []
    assert not prompter.answers
