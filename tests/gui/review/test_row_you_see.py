"""Issue 18, point 6: the row you see is the row you decide. Selection, current row and
detail pane are one state; every navigation key moves them together, and every decision
key acts on exactly the highlighted row(s)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from tests.core.many_beliefs import admitting, many_beliefs_bytes
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, focus_table, wait_open
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.table_model import REF_ROLE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

COUNT = 60
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
NONE = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def pane(qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter) -> ReviewPane:
    made = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
    qtbot.addWidget(made)
    data, dest = many_beliefs_bytes(COUNT), admitting(COUNT)
    made.set_packet("/packets/many.json", data, inspect_bytes(data, dest), dest)
    wait_open(qtbot, made)
    made.resize(1000, 800)
    made.show()
    focus_table(qtbot, made)
    return made


def highlighted(pane: ReviewPane) -> list[str]:
    rows = sorted({i.row() for i in pane.table.selectionModel().selectedRows()})
    return [str(pane.proxy.index(r, 0).data(REF_ROLE)) for r in rows]


def one_state(pane: ReviewPane) -> str:
    """The highlighted belief, checked to be the current one and the one in the detail."""
    [ref] = highlighted(pane)
    assert pane.current_ref() == ref
    assert pane.detail.title.text().startswith(ref + "  (source ")
    return ref


def refs(pane: ReviewPane) -> list[str]:
    return [str(pane.proxy.index(r, 0).data(REF_ROLE)) for r in range(pane.proxy.rowCount())]


Expected = Callable[[list[str]], str] | None
NAVIGATION: list[tuple[str, Qt.Key, Qt.KeyboardModifier, Expected]] = [
    ("End", Qt.Key.Key_End, NONE, lambda shown: shown[-1]),
    ("Home", Qt.Key.Key_Home, NONE, lambda shown: shown[0]),
    ("Ctrl+End", Qt.Key.Key_End, CTRL, lambda shown: shown[-1]),
    ("Ctrl+Home", Qt.Key.Key_Home, CTRL, lambda shown: shown[0]),
    ("Down", Qt.Key.Key_Down, NONE, lambda shown: shown[1]),
    ("Ctrl+Down", Qt.Key.Key_Down, CTRL, lambda shown: shown[2]),
    ("PageDown", Qt.Key.Key_PageDown, NONE, None),
    ("PageUp", Qt.Key.Key_PageUp, NONE, None),
    ("J", Qt.Key.Key_J, NONE, None),
    ("K", Qt.Key.Key_K, NONE, None),
]


def test_every_navigation_key_moves_highlight_current_and_detail_together(
    pane: ReviewPane,
) -> None:
    shown = refs(pane)
    assert one_state(pane) == shown[0]
    for name, key, modifiers, expected in NAVIGATION:
        before = shown.index(one_state(pane))
        QTest.keyClick(pane.table, key, modifiers)
        ref = one_state(pane)
        if expected is not None:
            assert ref == expected(shown), name
        elif name == "PageDown":
            assert shown.index(ref) > before + 1, name
        elif name == "PageUp":
            assert shown.index(ref) < before, name
        elif name == "J":
            assert shown.index(ref) == before + 1, name
        else:
            assert shown.index(ref) == before - 1, name


@pytest.mark.parametrize(
    ("key", "state"),
    [
        (Qt.Key.Key_C, ReviewState.CONFIRMED),
        (Qt.Key.Key_R, ReviewState.REJECTED),
        (Qt.Key.Key_S, ReviewState.SUPERSEDED),
        (Qt.Key.Key_U, ReviewState.UNREVIEWED),
    ],
)
def test_each_decision_key_after_each_navigation_key_decides_the_highlighted_belief(
    qtbot: Any,
    pane: ReviewPane,
    prompter: ScriptedPrompter,
    key: Qt.Key,
    state: ReviewState,
) -> None:
    review = pane.review
    assert review is not None
    for name, nav, modifiers, _ in NAVIGATION:
        QTest.keyClick(pane.table, nav, modifiers)
        target = one_state(pane)
        if state is ReviewState.REJECTED:
            prompter.script(("note", f"rejected after {name}"))
        elif state is ReviewState.SUPERSEDED:
            other = next(r for r in refs(pane) if r != target)
            prompter.script(("replacement", (other, f"superseded after {name}")))
        else:  # a note makes it a decision even when the belief is in that state already
            pane.ui.note_field.setText(f"{state} after {name}")
        focus_table(qtbot, pane)
        count = len(review.session.decisions)
        QTest.keyClick(pane.table, key)
        decided = review.session.decisions[count:]
        assert [d.portable_ref for d in decided] == [target], name
        assert decided[0].state is state, name


def test_filters_move_the_highlight_with_the_current_row(pane: ReviewPane) -> None:
    QTest.keyClick(pane.table, Qt.Key.Key_End)
    combo = pane.ui.admission_filter
    combo.setCurrentIndex(combo.findData("demoted"))  # every fifth belief
    shown = refs(pane)
    assert len(shown) == COUNT // 5
    ref = one_state(pane)  # the old current row left the filter: a shown one, highlighted
    assert ref in shown
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert pane.review is not None
    assert [d.portable_ref for d in pane.review.session.decisions] == [ref]


def test_several_highlighted_rows_are_decided_together(
    pane: ReviewPane, prompter: ScriptedPrompter
) -> None:
    QTest.keyClick(pane.table, Qt.Key.Key_Home)
    QTest.keyClick(pane.table, Qt.Key.Key_Down, SHIFT)
    QTest.keyClick(pane.table, Qt.Key.Key_Down, SHIFT)
    chosen = highlighted(pane)
    assert chosen == refs(pane)[:3]
    prompter.script(("confirm", True))
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert pane.review is not None
    assert [d.portable_ref for d in pane.review.session.decisions] == chosen
    assert all(d.state is ReviewState.CONFIRMED for d in pane.review.session.decisions)
    assert "Mark 3 beliefs as confirmed?" in prompter.messages("confirm")[0]
