"""A whole review by keyboard, and undo/redo by Ctrl+Z / Ctrl+Shift+Z."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.review.conftest import OFFSCREEN_NOISE, PaneFactory, ScriptedPrompter
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.review.pane import ReviewPane

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def key(pane: ReviewPane, k: Qt.Key, modifiers: Any = Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(pane.table, k, modifiers)


def states(pane: ReviewPane) -> dict[str, str]:
    return {b.portable_ref: str(pane.model.state(b.portable_ref)) for b in pane.model._beliefs}


def test_whole_review_by_keyboard(make_pane: PaneFactory, prompter: ScriptedPrompter) -> None:
    pane = make_pane("full-handoff")
    assert pane.current_ref() == "b-reader"
    key(pane, Qt.Key.Key_C)  # confirm b-reader, move to b-order
    assert pane.current_ref() == "b-order"
    prompter.script(("note", "stale: keys compare by code point only after NFC"))
    key(pane, Qt.Key.Key_R)  # reject b-order with its note, move to b-bench
    assert pane.current_ref() == "b-bench"
    prompter.script(("replacement", ("b-reader", "the reader belief covers it")))
    key(pane, Qt.Key.Key_S)
    assert states(pane) == {"b-reader": "confirmed", "b-order": "rejected", "b-bench": "superseded"}
    decisions = [d.to_json() for d in pane.review.session.decisions]  # type: ignore[union-attr]
    assert decisions == [
        {
            "portableRef": "b-reader",
            "state": "confirmed",
            "reviewer": "carol",
            "at": "2026-10-01T12:00:00Z",
        },
        {
            "portableRef": "b-order",
            "state": "rejected",
            "reviewer": "carol",
            "at": "2026-10-01T12:00:00Z",
            "note": "stale: keys compare by code point only after NFC",
        },
        {
            "portableRef": "b-bench",
            "state": "superseded",
            "reviewer": "carol",
            "at": "2026-10-01T12:00:00Z",
            "note": "the reader belief covers it",
            "supersededBy": "b-reader",
        },
    ]
    # K goes back up, U takes b-order back to unreviewed; J moves down again.
    key(pane, Qt.Key.Key_K)
    assert pane.current_ref() == "b-order"
    key(pane, Qt.Key.Key_U)
    assert pane.model.state("b-order") is ReviewState.UNREVIEWED
    assert pane.current_ref() == "b-bench"
    key(pane, Qt.Key.Key_K)
    key(pane, Qt.Key.Key_K)
    key(pane, Qt.Key.Key_J)
    assert pane.current_ref() == "b-order"
    assert "3 decisions" not in pane.ui.summary.text()
    assert "4 decisions recorded" in pane.ui.summary.text()


def test_cancelled_note_records_nothing(make_pane: PaneFactory, prompter: ScriptedPrompter) -> None:
    pane = make_pane()
    prompter.script(("note", None))
    key(pane, Qt.Key.Key_R)
    prompter.script(("replacement", None))
    key(pane, Qt.Key.Key_S)
    assert pane.review is not None
    assert pane.review.session.decisions == ()
    assert pane.current_ref() == "b-reader"


def test_undo_and_redo_by_keyboard(make_pane: PaneFactory) -> None:
    pane = make_pane()
    key(pane, Qt.Key.Key_C)
    key(pane, Qt.Key.Key_C)
    assert pane.model.state("b-order") is ReviewState.CONFIRMED
    key(pane, Qt.Key.Key_Z, CTRL)
    assert pane.model.state("b-order") is ReviewState.UNREVIEWED
    assert pane.current_ref() == "b-order"  # undo shows what it took back
    key(pane, Qt.Key.Key_Z, CTRL)
    assert pane.model.state("b-reader") is ReviewState.UNREVIEWED
    assert not pane.undo_action.isEnabled()
    key(pane, Qt.Key.Key_Z, CTRL | SHIFT)
    key(pane, Qt.Key.Key_Z, CTRL | SHIFT)
    assert pane.model.state("b-order") is ReviewState.CONFIRMED
    assert not pane.redo_action.isEnabled()
    # A new decision after an undo drops what could have been redone.
    key(pane, Qt.Key.Key_Z, CTRL)
    assert pane.redo_action.isEnabled()
    key(pane, Qt.Key.Key_U)  # already unreviewed, no note: nothing to record, just advance
    assert pane.redo_action.isEnabled()
    assert pane.current_ref() == "b-bench"
    key(pane, Qt.Key.Key_K)
    key(pane, Qt.Key.Key_K)
    key(pane, Qt.Key.Key_U)
    assert not pane.redo_action.isEnabled()
    assert pane.model.state("b-reader") is ReviewState.UNREVIEWED


def test_a_restored_review_continues_at_the_next_unreviewed_belief(
    make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    first = make_pane()
    key(first, Qt.Key.Key_C)  # b-reader confirmed; the crash comes before anything else
    first.close()
    second = make_pane()
    assert second.current_ref() == "b-order"  # not back at the first belief
    key(second, Qt.Key.Key_J)
    key(second, Qt.Key.Key_C)  # b-bench confirmed: b-order is the one left, before it
    second.close()
    third = make_pane()
    assert third.current_ref() == "b-order"  # the search wraps around
    key(third, Qt.Key.Key_C)
    third.close()
    done = make_pane()
    assert done.current_ref() == "b-order"  # nothing left: the last one decided
