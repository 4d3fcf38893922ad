"""Issue 31: closing asks (Export…, Keep for later, Discard), the reviewer is asked once
before the first decision without a dialog that could take the next key, remembered per
destination, and a review is carried across a change of what is admitted."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from tests.core.helpers import destination
from tests.gui.review.conftest import (
    OFFSCREEN_NOISE,
    PaneFactory,
    ScriptedPrompter,
    focus_table,
    wait_open,
)
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.gui.review.close_question import CloseAnswer, close_box
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.settings import load_identity, save_identity

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def decided(pane: ReviewPane) -> dict[str, ReviewState]:
    assert pane.review is not None
    return {r: d.state for r, d in pane.review.session.last_decisions().items()}


def test_closing_asks_only_with_unexported_decisions(
    make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    pane = make_pane()
    assert pane.confirm_close()  # nothing decided: nothing to ask
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    prompter.script(("close", CloseAnswer.CANCEL))
    assert not pane.confirm_close()
    assert "1 decision that no exported receipt has" in prompter.messages("close")[-1]


def test_keep_for_later_closes_and_the_next_open_restores(
    make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    pane = make_pane()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    before = decided(pane)
    assert len(before) == 2
    prompter.script(("close", CloseAnswer.KEEP))
    assert pane.confirm_close()
    pane.close()
    assert decided(make_pane()) == before


def test_discard_sets_the_journal_aside_and_the_next_open_starts_over(
    make_pane: PaneFactory, prompter: ScriptedPrompter, data_dir: Path
) -> None:
    pane = make_pane()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert pane.target is not None
    path = journal_path(data_dir, pane.target.correlation_id)
    prompter.script(("close", CloseAnswer.DISCARD))
    assert pane.confirm_close()
    assert not path.exists()
    kept = [
        p
        for p in data_dir.iterdir()
        if ".refused-" in p.name and p.name.endswith(tuple("0123456789Z"))
    ]
    assert kept  # kept on disk, renamed, never deleted
    pane.close()
    assert decided(make_pane()) == {}


def test_export_writes_the_receipt_then_closes(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    pane = make_pane()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    out = tmp_path / "r.json"
    # the export's own questions: its summary, beliefs left unreviewed, where
    prompter.script(
        ("close", CloseAnswer.EXPORT), ("confirm", True), ("confirm", True), ("path", str(out))
    )
    assert pane.confirm_close()
    assert out.exists()
    assert pane.confirm_close()  # exported: nothing left to ask
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    # an export given up (the summary declined) closes nothing
    prompter.script(("close", CloseAnswer.EXPORT), ("confirm", False))
    assert not pane.confirm_close()
    assert "out of date" in prompter.messages("close")[-1]


def test_the_close_box_has_the_three_answers_and_keep_by_default(qtbot: Any) -> None:
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    box, buttons = close_box(parent, "text")
    assert [
        buttons[a].text() for a in (CloseAnswer.EXPORT, CloseAnswer.KEEP, CloseAnswer.DISCARD)
    ] == [
        "&Export…",
        "&Keep for Later",
        "&Discard",
    ]
    assert box.defaultButton() is buttons[CloseAnswer.KEEP]
    assert box.escapeButton() is buttons[CloseAnswer.CANCEL]
    box.deleteLater()


def test_identity_is_asked_before_the_first_decision_and_never_takes_a_key(
    make_pane: PaneFactory, settings: QSettings
) -> None:
    save_identity(settings, "", "")
    pane = make_pane()  # the scripted prompter has no answer: any dialog would fail
    assert pane.identity_bar.isVisible()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    QTest.keyClick(pane.table, Qt.Key.Key_R)
    assert decided(pane) == {}
    assert pane.identity_bar.field.text() == ""  # R did not become the name
    assert "reviewer name" in pane.ui.status.text()
    pane.identity_bar.field.setText("erin")
    QTest.keyClick(pane.identity_bar.field, Qt.Key.Key_Return)
    assert not pane.identity_bar.isVisible()
    assert pane.table.hasFocus()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert pane.review is not None
    assert [d.reviewer for d in pane.review.session.decisions] == ["erin"]


def test_identity_is_remembered_per_destination(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    save_identity(settings, "", "")
    first = destination()
    other = dataclasses.replace(first, installation_key_id="another-destination")
    panes = []
    for dest in (first, first, other):
        pane = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
        qtbot.addWidget(pane)
        from tests.core.helpers import golden_bytes

        data = golden_bytes("full-handoff")
        pane.set_packet("/packets/full-handoff.json", data, inspect_bytes(data, dest), dest)
        wait_open(qtbot, pane)
        pane.show()
        panes.append(pane)
        if len(panes) == 1:
            pane.identity_bar.field.setText("erin")
            pane.identity_bar.button.click()
    assert not panes[1].identity_bar.isVisible()  # the same destination: remembered
    assert panes[2].identity_bar.isVisible()  # another: asked, the last name offered
    assert panes[2].identity_bar.field.text() == "erin"
    assert load_identity(settings, panes[2].identity_scope).name == ""


def test_a_settings_change_carries_the_review_over_with_its_counts(
    qtbot: Any, make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    pane = make_pane()
    for _ in range(3):
        QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert len(decided(pane)) == 3
    # b-bench (59 bytes) is cut at 55; the other two are admitted as before
    cut = dataclasses.replace(destination(), max_belief_bytes=55)
    from tests.core.helpers import golden_bytes

    data = golden_bytes("full-handoff")
    pane.set_packet("/packets/full-handoff.json", data, inspect_bytes(data, cut), cut)
    wait_open(qtbot, pane)
    assert pane.review is not None
    assert decided(pane) == {"b-reader": ReviewState.CONFIRMED, "b-order": ReviewState.CONFIRMED}
    text = pane.carried_label.text()
    assert pane.carried_label.isVisible()
    assert "2 decisions on beliefs admitted byte for byte as before were kept" in text
    assert "reopened: 1 newly cut belief" in text
    assert "Reopened: b-bench (was confirmed by carol)" in text  # never hidden
    assert not pane.ui.set_aside.isVisible()  # start over is not the only way on
    assert pane.export_action.isEnabled()
    focus_table(qtbot, pane)
    assert prompter.messages("warn") == []


def test_triage_keys_walk_to_the_cut_belief_and_say_when_there_is_none(
    qtbot: Any, make_pane: PaneFactory
) -> None:
    cut = dataclasses.replace(destination(), max_belief_bytes=55)
    pane = make_pane(dest=cut)
    pane.table_cursor.select_row(0)
    QTest.keyClick(pane.table, Qt.Key.Key_X)
    assert pane.current_ref() == "b-bench"  # the one cut to 55 bytes
    QTest.keyClick(pane.table, Qt.Key.Key_X, Qt.KeyboardModifier.ShiftModifier)
    assert pane.current_ref() == "b-bench"  # the only one, wrapping
    QTest.keyClick(pane.table, Qt.Key.Key_F)  # no suspected credential here
    assert pane.current_ref() == "b-bench"
    assert pane.ui.status.text() == "No belief shown is flagged as a suspected credential."
    keys = {a.shortcut().toString() for a in pane.review_actions()}
    assert {"F", "Shift+F", "X", "Shift+X", "N", "Shift+N"} <= keys
