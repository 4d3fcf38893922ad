"""Issue 18, point 4: a re-check is an open. A Settings change (another destination
file, the "Assess at" clock moved) checks every open tab again by the path opening
takes, on the runner — and nothing the reviewer had is lost: the header and its
admission chip, the review's decisions (from the journal), its comparison with the
previous generation with its banner and "since" filter, the filters, the highlighted
and selected rows and the scroll position."""

from __future__ import annotations

import copy
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.core.generations import write_generations
from tests.core.many_beliefs import many_beliefs_bytes
from tests.gui.driving import GOLDENS, drop_and_wait, rows, wait_idle
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.document_tab import PANE_REVIEW, DocumentTab
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import STATUS_COLUMN, expanded_rows
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.settings import save_identity
from zcf_inspector.gui.review.table_model import REF_ROLE
from zcf_inspector.present.review_table import Filters

BIG = 200_000
WAIT_MS = 240_000  # a 200,000-belief packet opens, and is checked again, on two cores


def write_destination(path: Path, **overrides: Any) -> Path:
    dest = {**copy.deepcopy(g.DESTINATION), **overrides}
    path.write_text(json.dumps(dest), encoding="utf-8")
    return path


def pane_of(tab: DocumentTab) -> ReviewPane:
    tab.focus_pane(PANE_REVIEW)
    pane = tab.review_pane
    assert pane is not None
    return pane


def snapshot(tab: DocumentTab) -> dict[str, object]:
    """Everything the reviewer sees that a re-check must not lose."""
    pane = pane_of(tab)
    review = pane.review
    selection = pane.table.selectionModel().selection()
    spans = [(selection.at(i).top(), selection.at(i).bottom()) for i in range(selection.count())]
    return {
        "headline": tab.verdict.headline,
        "rows": rows(tab),
        "chips": [chip.text() for chip in tab.header.chips],
        "admission": (pane.ui.admission.isVisibleTo(pane), pane.ui.admission.text()),
        "banner": (pane.ui.previous.isVisibleTo(pane), pane.ui.previous.text()),
        "since": (pane.ui.since_filter.isVisibleTo(pane), pane.ui.since_filter.currentIndex()),
        "filters": pane.ui.filters(),
        "shown": pane.proxy.rowCount(),
        "first shown": pane.proxy.index(0, 0).data(REF_ROLE),
        "current": pane.current_ref(),
        "selected": spans,
        "scroll": pane.table.verticalScrollBar().value(),
        "decisions": None if review is None else review.session.decisions,
        "summary": pane.ui.summary.text(),
        "problem": pane.ui.problem.text(),
    }


def wait_done(qtbot: QtBot, window: MainWindow) -> None:
    def settled() -> bool:
        return not window.runner.busy and not any(
            getattr(t.review_pane, "opening", False) for t in window.document_tabs()
        )

    qtbot.waitUntil(settled, timeout=WAIT_MS)


@pytest.mark.qt_log_ignore(".*")
def test_a_settings_change_loses_nothing(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    # The golden destination's keys and clock; it admits every one of 200,000 beliefs
    # and cuts a belief's content to 160 bytes.
    first = write_destination(tmp_path / "first.json", maxBeliefs=BIG)
    window.apply_destination(str(first))
    wait_idle(qtbot, window)
    save_identity(window.theme.settings, "carol", "")

    # 1. A truncated packet: two beliefs cut to maxBeliefBytes.
    truncated = drop_and_wait(qtbot, window, [GOLDENS / "publication" / "truncation.json"])
    wait_done(qtbot, window)
    admission = rows(truncated)["admission"]
    assert admission[0] == "changed"
    assert "2 cut to 160 bytes" in admission[1]
    pane = pane_of(truncated)
    save_identity(pane.settings, "carol", "")
    pane.focus_table()
    pane.decide_current(ReviewState.CONFIRMED)  # b-long confirmed, on to b-cut
    assert pane.current_ref() == "b-cut"

    # 2. A compared pair: generation 2 compared with generation 1 and its receipt, its
    # "since" filter set to "new since that receipt".
    gen1, receipt, gen2 = write_generations(tmp_path / "stream")
    compared = drop_and_wait(qtbot, window, [gen2])
    wait_done(qtbot, window)
    pair = pane_of(compared)
    pair.load_previous(str(gen1), str(receipt))
    wait_done(qtbot, window)
    assert pair.previous is not None
    pair.ui.since_filter.setCurrentIndex(3)  # unchanged since that receipt: five beliefs
    qtbot.waitUntil(lambda: not pair.rows.pending)
    pair.focus_table()
    QTest.keyClick(pair.table, Qt.Key.Key_Down)
    QTest.keyClick(pair.table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)

    # 3. A 200,000-belief review, filtered, scrolled far down, a few decisions made.
    big_path = tmp_path / "many.json"
    big_path.write_bytes(many_beliefs_bytes(BIG))
    big = drop_and_wait(qtbot, window, [big_path])
    wait_done(qtbot, window)
    large = pane_of(big)
    assert large.model.rowCount() == BIG
    large.ui.text_filter.setText("parser")  # every third belief
    qtbot.waitUntil(lambda: not large.rows.pending, timeout=WAIT_MS)
    large.focus_table()
    large.decide_current(ReviewState.CONFIRMED)
    large.decide_current(ReviewState.CONFIRMED)
    large.table.selectRow(40_000)
    large.table.scrollTo(large.proxy.index(40_000, 0))
    QTest.keyClick(large.table, Qt.Key.Key_PageDown)
    assert large.table.verticalScrollBar().value() > 0

    window.tabs.setCurrentWidget(compared)  # a tab not current is checked again as well
    before = {tab.title: snapshot(tab) for tab in (truncated, compared, big)}
    assert before["gen2.json"]["banner"][0]  # type: ignore[index]
    assert len(before["many.json"]["decisions"]) == 2  # type: ignore[arg-type]

    # Settings: another destination file (the same keys) and the "Assess at" clock moved.
    second = write_destination(tmp_path / "second.json", maxBeliefs=BIG)
    window.apply_settings(str(second), parse_datetime("2026-10-01T13:00:00Z"))
    assert window.runner.busy  # checked again on the runner, not on the UI thread
    wait_done(qtbot, window)
    after = {tab.title: snapshot(tab) for tab in (truncated, compared, big)}
    for title, seen in before.items():
        for what, value in seen.items():
            assert after[title][what] == value, (title, what)
    assert large.ui.filters() == Filters(text="parser")
    assert pair.previous is not None
    assert large.review is not None
    assert large.review.session.state_of(str(large.proxy.index(0, 0).data(REF_ROLE))) is (
        ReviewState.CONFIRMED
    )
    # The tree still marks the cut belief (admission's facts came back with the open).
    node = truncated.model.index_for_pointer("/content/beliefs/0", nearest=False)
    assert "cut to 160 of 255 bytes" in str(node.siblingAtColumn(STATUS_COLUMN).data())


@pytest.mark.qt_log_ignore(".*")
def test_f5_reads_the_file_again_by_the_same_path(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """F5 (and a change on disk) reads the file again, then opens it as any open: the
    admission chip, the decisions and the highlighted belief come back."""
    window.apply_destination(str(GOLDENS / "destination.json"))
    wait_idle(qtbot, window)
    packet = tmp_path / "truncation.json"
    packet.write_bytes((GOLDENS / "publication" / "truncation.json").read_bytes())
    tab = drop_and_wait(qtbot, window, [packet])
    wait_done(qtbot, window)
    pane = pane_of(tab)
    save_identity(pane.settings, "carol", "")
    pane.decide_current(ReviewState.CONFIRMED)
    # the tree: every belief expanded, the last one selected, scrolled to the top
    beliefs = tab.model.index_for_pointer("/content/beliefs", nearest=False)
    tab.tree.expand(beliefs)
    for row in range(tab.model.rowCount(beliefs)):
        tab.tree.expand(tab.model.index(row, 0, beliefs))
    tab.select_pointer("/content/beliefs/9/content")
    tab.tree.verticalScrollBar().setValue(3)
    tree = (expanded_rows(tab.tree), tab.selected_pointer(), tab.tree.verticalScrollBar().value())
    before = snapshot(tab)
    assert before["current"] == "b-cut"
    window.reload_current()
    assert window.runner.busy
    wait_done(qtbot, window)
    assert snapshot(tab) == before
    assert rows(tab)["admission"][0] == "changed"
    assert (
        expanded_rows(tab.tree),
        tab.selected_pointer(),
        tab.tree.verticalScrollBar().value(),
    ) == tree


@pytest.mark.qt_log_ignore(".*")
def test_a_tab_closed_while_its_review_opens_is_left_alone(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.apply_destination(str(GOLDENS / "destination.json"))
    wait_idle(qtbot, window)
    held, release = threading.Event(), threading.Event()

    def hook(what: str, _fraction: float) -> None:
        if what == "restoring the saved review":
            held.set()
            release.wait(20)

    window.runner.progress_hook = hook
    window.open_paths([str(GOLDENS / "publication" / "truncation.json")])
    qtbot.waitUntil(held.is_set, timeout=20_000)
    tab = window.document_tabs()[0]
    window.close_tab(window.tabs.indexOf(tab))
    qtbot.waitUntil(lambda: not window.document_tabs())
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)  # the pane is gone
    release.set()
    window.runner.progress_hook = None
    wait_idle(qtbot, window)  # its answer arrives for a deleted pane: dropped, no error
    assert not window.document_tabs()
