"""A large review never blocks the window: bulk steps, the carry-over and undo run on the
runner (progress, Esc cancels until the journal commit, a committed step always shows),
and the table's rows for its filters come from the core, on the runner, stale answers
dropped."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from tests.core.many_beliefs import admitting, many_beliefs_bytes, many_previous
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, focus_table, wait_open
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.review.journal import journal_path
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.row_filter import SYNC_ROWS
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.present.review.controller import SYNC_DECISIONS
from zcf_inspector.present.review_table import Filters, shown_rows

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

COUNT = 6_000  # more than the pane does on the UI thread, rows or decisions
assert COUNT > SYNC_ROWS
assert COUNT > SYNC_DECISIONS


class Gate:
    """Holds the runner's worker at a progress step whose text contains ``at`` until
    `release`; the UI thread meanwhile runs on (the test drives it)."""

    def __init__(self, runner: TaskRunner, at: str) -> None:
        self.at = at
        self.reached = threading.Event()
        self.opened = threading.Event()
        runner.progress_hook = self.hook

    def hook(self, what: str, fraction: float) -> None:
        if self.at in what and not self.opened.is_set():
            self.reached.set()
            assert self.opened.wait(30), "the test never released the worker"

    def release(self) -> None:
        self.opened.set()


@pytest.fixture
def large(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> Iterator[ReviewPane]:
    pane = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
    qtbot.addWidget(pane)
    data, dest = many_beliefs_bytes(COUNT), admitting(COUNT)
    pane.set_packet("/packets/many.json", data, inspect_bytes(data, dest), dest)
    wait_open(qtbot, pane)
    pane.show()
    focus_table(qtbot, pane)
    qtbot.waitUntil(lambda: not pane.runner.busy)
    yield pane
    gate = pane.runner.progress_hook
    if isinstance(getattr(gate, "__self__", None), Gate):
        gate.__self__.release()  # type: ignore[union-attr]
    pane.runner.cancel_all()
    pane.runner.wait_for_done()


def rows_in_journal(pane: ReviewPane) -> list[tuple[object, ...]]:
    assert pane.target is not None
    path = journal_path(pane.data_dir, pane.target.correlation_id)
    if not path.exists():
        return []
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT * FROM entry ORDER BY seq").fetchall()


def confirmed(pane: ReviewPane) -> int:
    assert pane.review is not None
    return pane.review.session.summary().counts[ReviewState.CONFIRMED]


def held_bulk(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, at: str
) -> tuple[Gate, list[str]]:
    """Bulk-confirm every shown row, the worker held at the progress step ``at``."""
    progress: list[str] = []
    pane.runner.progressChanged.connect(lambda what, _f: progress.append(what))
    gate = Gate(pane.runner, at)
    prompter.script(("confirm", True))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    # The rows to change are counted on the runner first; the UI thread then asks and
    # starts the step, so it must run meanwhile.
    qtbot.waitUntil(gate.reached.is_set, timeout=30_000)
    return gate, progress


def test_a_bulk_step_runs_on_the_runner_and_the_window_stays_live(
    qtbot: Any, large: ReviewPane, prompter: ScriptedPrompter
) -> None:
    pane = large
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # one confirmed by hand, on the UI thread
    assert not pane.runner.busy
    gate, progress = held_bulk(qtbot, pane, prompter, "journalling")
    # The worker is held mid-step; the UI thread still handles events and paints.
    qtbot.wait(50)
    QTest.keyClick(pane.table, Qt.Key.Key_J)  # moving around still works
    assert pane.table.currentIndex().row() == 2
    assert pane.runner.busy
    assert pane.step_running
    assert any("marking 5,999 beliefs confirmed" in p for p in progress)
    assert any("the review after them" in p for p in progress)  # held before the next
    # No conflicting step while it runs; Esc cancels it.
    blocked = [
        *pane.decide_actions.values(),
        *pane.bulk_actions.values(),
        *pane.ui.bulk_buttons.values(),
        pane.undo_action,
        pane.export_action,
        pane.compare_previous_action,
    ]
    assert not any(widget.isEnabled() for widget in blocked)
    assert pane.cancel_step_action.isEnabled()
    assert "Esc cancels" in pane.ui.status.text()
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # a decision key does nothing meanwhile
    assert confirmed(pane) == 1
    gate.release()
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert confirmed(pane) == COUNT
    assert pane.review is not None
    assert len(pane.review.session.applied) == 2  # the bulk is one step
    assert len(rows_in_journal(pane)) == COUNT
    assert pane.model.state("b-005999") is ReviewState.CONFIRMED  # the view reads it
    assert pane.undo_action.isEnabled()
    assert not pane.cancel_step_action.isEnabled()


@pytest.mark.parametrize("at", ["checking the decisions", "journalling"])
def test_cancel_before_the_commit_changes_nothing(
    qtbot: Any, large: ReviewPane, prompter: ScriptedPrompter, at: str
) -> None:
    pane = large
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    before = rows_in_journal(pane)
    gate, _ = held_bulk(qtbot, pane, prompter, at)
    QTest.keyClick(pane.table, Qt.Key.Key_Escape)
    gate.release()
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert rows_in_journal(pane) == before
    assert confirmed(pane) == 1
    assert pane.review is not None
    assert len(pane.review.session.applied) == 1
    assert pane.ui.status.text() == "Cancelled before it was journalled: nothing was changed."
    assert pane.ui.bulk_buttons[ReviewState.CONFIRMED].isEnabled()
    # The review goes on: the next step is journalled after the first.
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert len(rows_in_journal(pane)) == 2


def test_a_committed_step_survives_cancel(
    qtbot: Any, large: ReviewPane, prompter: ScriptedPrompter
) -> None:
    """Cancelled once the step is in the journal (the worker done, its answer not yet
    delivered): the step is still shown, whole."""
    pane = large
    prompter.script(("confirm", True))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    # Counted on the runner, asked, then the step itself starts.
    qtbot.waitUntil(lambda: pane.ui.status.text().startswith("Marking"), timeout=30_000)
    assert pane.runner.wait_for_done(30_000)  # committed; the answer waits in the queue
    pane.cancel_step()
    pane.runner.cancel_all()  # the window's Cancel too
    assert len(rows_in_journal(pane)) == COUNT
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert confirmed(pane) == COUNT
    assert pane.review is not None
    assert pane.review.session.can_undo


def test_the_rows_to_change_are_counted_on_the_runner_and_esc_stops_the_count(
    qtbot: Any, large: ReviewPane, prompter: ScriptedPrompter
) -> None:
    pane = large
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # one confirmed by hand
    gate = Gate(pane.runner, "counting")
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    qtbot.waitUntil(gate.reached.is_set, timeout=30_000)
    # Held mid-count: no question yet, no step can start, Esc is offered.
    assert prompter.log == []
    assert pane.step_running
    assert not any(b.isEnabled() for b in pane.ui.bulk_buttons.values())
    assert "Esc cancels" in pane.ui.status.text()
    pane.cancel_step()
    gate.release()
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert not pane.step_running
    assert prompter.log == []  # a count cancelled asks nothing
    assert confirmed(pane) == 1
    assert "nothing was changed" in pane.ui.status.text()
    # Counted to the end, the question names what the step changes and what it leaves.
    prompter.script(("confirm", False))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    qtbot.waitUntil(lambda: bool(prompter.log), timeout=30_000)
    [text] = prompter.messages("confirm")
    assert f"Mark {COUNT - 1:,} beliefs as confirmed?" in text
    assert "1 already confirmed is left as it is." in text
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert confirmed(pane) == 1  # declined


def test_undo_and_redo_of_a_large_step_run_on_the_runner(
    qtbot: Any, large: ReviewPane, prompter: ScriptedPrompter
) -> None:
    pane = large
    prompter.script(("confirm", True))
    pane.ui.bulk_buttons[ReviewState.CONFIRMED].click()
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    labels: list[str] = []
    pane.runner.progressChanged.connect(lambda what, _f: labels.append(what))
    pane.undo()
    assert pane.step_running
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert confirmed(pane) == 0
    pane.redo()
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert confirmed(pane) == COUNT
    assert any(label.startswith(f"undoing a step of {COUNT:,}") for label in labels)
    assert any(label.startswith(f"redoing a step of {COUNT:,}") for label in labels)
    assert [r[4] for r in rows_in_journal(pane)][-2:] == ["undo", "redo"]


def test_the_carry_over_runs_on_the_runner(
    qtbot: Any, large: ReviewPane, prompter: ScriptedPrompter
) -> None:
    pane = large
    assert pane.target is not None
    pane.set_previous(many_previous(pane.target), ("/earlier.json", "/earlier.receipt.json"))
    qtbot.waitUntil(lambda: not pane.rows.pending, timeout=30_000)
    assert pane.ui.repeat_button.text() == f"Repeat {COUNT:,} earlier decisions…"
    gate = Gate(pane.runner, "journalling")
    prompter.script(("note", "the same claims"))
    QTest.keyClick(
        pane.table,
        Qt.Key.Key_R,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert gate.reached.wait(30)
    assert not pane.repeat_action.isEnabled()
    assert not pane.ui.repeat_button.isEnabled()
    gate.release()
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=30_000)
    assert confirmed(pane) == COUNT
    assert pane.ui.status.text().startswith(f"Repeated {COUNT:,} earlier decisions as carol")
    assert pane.ui.repeat_button.text() == "Repeat 0 earlier decisions…"


def shown_refs(pane: ReviewPane) -> list[int]:
    return list(pane.proxy.rows)


def test_filtered_rows_are_the_cores_and_computed_on_the_runner(
    qtbot: Any, large: ReviewPane
) -> None:
    pane = large
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # row 0 confirmed
    started: list[str] = []
    pane.runner.progressChanged.connect(lambda what, _f: started.append(what))
    pane.ui.state_filter.setCurrentIndex(pane.ui.state_filter.findData("unreviewed"))
    assert pane.rows.pending  # not computed on the UI thread
    qtbot.waitUntil(lambda: not pane.rows.pending, timeout=30_000)
    pane.ui.admission_filter.setCurrentIndex(1)  # demoted
    qtbot.waitUntil(lambda: not pane.rows.pending, timeout=30_000)
    expected = shown_rows(pane.table_facts(), Filters(state=ReviewState.UNREVIEWED, demoted=True))
    assert shown_refs(pane) == list(expected)
    assert 0 not in expected  # the confirmed row left
    assert started.count("filtering the beliefs") == 2
    assert pane.proxy.rowCount() == len(expected)
    row = pane.proxy.index(1, 0)
    assert row.data() == pane.model.beliefs[expected[1]].portable_ref


def test_typing_waits_for_a_pause_and_computes_once(qtbot: Any, large: ReviewPane) -> None:
    pane = large
    started: list[str] = []
    pane.runner.progressChanged.connect(lambda what, _f: started.append(what))
    QTest.keyClicks(pane.ui.text_filter, "parser")
    assert pane.rows.pending
    qtbot.waitUntil(lambda: not pane.rows.pending, timeout=30_000)
    assert started.count("filtering the beliefs") == 1  # not six
    assert shown_refs(pane) == list(shown_rows(pane.table_facts(), Filters(text="parser")))
    assert len(shown_refs(pane)) == COUNT // 3


def test_a_stale_answer_is_dropped(qtbot: Any, large: ReviewPane) -> None:
    pane = large
    swaps: list[int] = []
    pane.proxy.modelReset.connect(lambda: swaps.append(pane.proxy.rowCount()))
    pane.ui.evidence_filter.setCurrentIndex(1)  # has evidence: every seventh
    assert pane.runner.wait_for_done(30_000)  # computed; its answer waits in the queue
    pane.ui.evidence_filter.setCurrentIndex(2)  # no evidence: that answer is stale now
    qtbot.waitUntil(lambda: not pane.rows.pending, timeout=30_000)
    qtbot.wait(20)
    expected = shown_rows(pane.table_facts(), Filters(has_evidence=False))
    assert swaps == [len(expected)]  # only the newer answer was swapped in
    assert shown_refs(pane) == list(expected)


def test_a_decision_moves_its_row_out_of_a_large_filtered_table(
    qtbot: Any, large: ReviewPane
) -> None:
    pane = large
    pane.ui.state_filter.setCurrentIndex(pane.ui.state_filter.findData("unreviewed"))
    qtbot.waitUntil(lambda: not pane.rows.pending, timeout=30_000)
    focus_table(qtbot, pane)
    pane.table.setCurrentIndex(pane.proxy.index(0, 0))
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert shown_refs(pane)[0] == 1  # row 0 (confirmed) left at once
    assert pane.current_ref() == "b-000001"  # and the next is current
    assert shown_refs(pane) == list(
        shown_rows(pane.table_facts(), Filters(state=ReviewState.UNREVIEWED))
    )
