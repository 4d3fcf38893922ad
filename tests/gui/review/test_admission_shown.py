"""Issue 12, point 2: every drop, cut, demotion and degradation is visible — in the
header, the review pane and the export summary — and dropped beliefs can be read."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from goldens import generate as g
from tests.gui.driving import GOLDENS, drop_and_wait
from tests.gui.review.conftest import OFFSCREEN_NOISE, PaneFactory, ScriptedPrompter
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import STATUS_COLUMN
from zcf_inspector.gui.review.table_model import Column
from zcf_inspector.present.packet import ADMISSION_CHECK
from zcf_inspector.present.vocabulary import CheckStatus

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def test_pane_says_what_was_dropped_and_cut(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    pane = make_pane("truncation")
    assert pane.ui.admission.isVisible()
    assert pane.ui.admission.text() == (
        "8 of 10 beliefs admitted — 2 dropped by maxBeliefs 8\n"
        "2 admitted beliefs cut to maxBeliefBytes 160 (the rest of the content is not admitted)"
    )
    assert pane.ui.dropped_button.isVisible()
    assert pane.ui.dropped_button.text() == "Show the 2 dropped beliefs…"
    QTest.mouseClick(pane.ui.dropped_button, Qt.MouseButton.LeftButton)
    dialog = pane.dropped_dialog
    assert dialog is not None
    assert dialog.isVisible()
    assert dialog.model.rowCount() == 2
    cells = [dialog.model.index(0, c).data() for c in range(4)]
    assert cells == ["8", "b-6", "unreviewed", "Belief number 6."]
    assert dialog.content.isReadOnly()
    assert dialog.content.toPlainText().endswith("\n\nBelief number 6.")
    QTest.keyClick(dialog.table, Qt.Key.Key_Down)
    assert dialog.content.toPlainText().endswith("\n\nBelief number 7.")
    # and the export summary says it again, before anything is written
    out = tmp_path / "r.json"
    prompter.script(("confirm", True), ("confirm", True), ("path", str(out)))
    pane.export_receipt()
    summary = prompter.messages("confirm")[0]
    assert (
        "Admission (the receipt records it):\n"
        "• 8 of 10 beliefs admitted — 2 dropped by maxBeliefs 8\n"
        "• 2 admitted beliefs cut to maxBeliefBytes 160" in summary
    )
    assert json.loads(out.read_bytes())["truncatedBeliefCount"] == 4


def test_demotion_is_said_and_nothing_else(make_pane: PaneFactory) -> None:
    pane = make_pane("demotion")
    assert pane.ui.admission.text() == (
        "all 5 beliefs admitted\n3 beliefs arrived already reviewed and were demoted to unreviewed"
    )
    assert not pane.ui.dropped_button.isVisible()


def test_nothing_changed_shows_no_banner(make_pane: PaneFactory) -> None:
    pane = make_pane("full-handoff")
    assert not pane.ui.admission.isVisible()
    assert not pane.ui.dropped_button.isVisible()


def many_beliefs_packet(tmp_path: Path, count: int) -> Path:
    packet: Any = g.handoff("many")
    packet["content"]["beliefs"] = [g.belief(f"b-{i:05d}", f"belief {i}") for i in range(count)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(g.unsigned(packet)), encoding="utf-8")
    return path


def test_header_shows_the_drop_in_the_reviewers_case(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    dest = copy.deepcopy(g.DESTINATION)
    dest["maxBeliefs"] = 40
    dest_path = tmp_path / "dest.json"
    dest_path.write_text(json.dumps(dest), encoding="utf-8")
    window.apply_destination(str(dest_path))
    tab = drop_and_wait(qtbot, window, [many_beliefs_packet(tmp_path, 2_000)])
    row = next(r for r in tab.header.model.rows if r.check == ADMISSION_CHECK)
    assert row.state is CheckStatus.CHANGED
    assert row.summary == "40 of 2,000 beliefs admitted — 1,960 dropped by maxBeliefs 40"
    chip = next(c for c in tab.header.chips if c.text().startswith("admission"))
    assert "1,960 dropped by maxBeliefs 40" in chip.text()
    assert tab.verdict.headline == "VALID · UNSIGNED"  # validity is one thing, admission another
    pane = tab.review_pane
    assert pane is not None
    assert pane.model.rowCount() == 40
    dialog = pane.show_dropped()
    assert dialog is not None
    assert dialog.model.rowCount() == 1_960
    assert dialog.model.index(1_959, 1).data() == "b-01999"
    dialog.close()


def test_a_cut_belief_is_marked_on_its_row_detail_and_in_the_export(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    """Issue 18, point 7: which belief was cut is said where it is read, with how much
    of it was kept — facts from the core's admission, not recomputed by the view."""
    pane = make_pane("truncation")
    content = [pane.proxy.index(r, Column.CONTENT).data() for r in range(pane.proxy.rowCount())]
    assert content[0].startswith("[cut to 160 of 255 bytes by maxBeliefBytes]\n")
    assert content[1].startswith("[cut to 159 of 179 bytes by maxBeliefBytes]\n")
    assert not any(c.startswith("[cut") for c in content[2:])
    assert pane.current_ref() == "b-long"
    assert pane.detail.title.text().endswith(" — cut to 160 of 255 bytes by maxBeliefBytes")
    QTest.keyClick(pane.table, Qt.Key.Key_J)
    assert "cut to 159 of 179 bytes" in pane.detail.title.text()
    # the filter offers Cut (and Not cut)
    combo = pane.ui.admission_filter
    combo.setCurrentIndex(combo.findData("cut"))
    assert [pane.proxy.index(r, 0).data() for r in range(pane.proxy.rowCount())] == [
        "b-long",
        "b-cut",
    ]
    combo.setCurrentIndex(combo.findData("not cut"))
    assert pane.proxy.rowCount() == 6
    combo.setCurrentIndex(0)
    out = tmp_path / "r.json"
    prompter.script(("confirm", True), ("confirm", True), ("path", str(out)))
    pane.export_receipt()
    summary = prompter.messages("confirm")[0]
    assert (
        "Cut beliefs (reviewed, and in the receipt, as admitted — not as written):\n"
        "• b-long: cut to 160 of 255 bytes by maxBeliefBytes\n"
        "• b-cut: cut to 159 of 179 bytes by maxBeliefBytes" in summary
    )


def test_the_tree_marks_the_cut_and_the_dropped_beliefs(qtbot: Any, window: MainWindow) -> None:
    window.apply_destination(str(GOLDENS / "destination.json"))
    tab = drop_and_wait(qtbot, window, [GOLDENS / "publication" / "truncation.json"])

    def status(pointer: str) -> str:
        index = tab.model.index_for_pointer(pointer, nearest=False)
        assert index.isValid()
        return str(index.siblingAtColumn(STATUS_COLUMN).data())

    assert "cut to 160 of 255 bytes by maxBeliefBytes" in status("/content/beliefs/0")
    assert "cut to 160 of 255 bytes by maxBeliefBytes" in status("/content/beliefs/0/content")
    assert "cut to 159 of 179 bytes by maxBeliefBytes" in status("/content/beliefs/1")
    assert "cut" not in status("/content/beliefs/2")
    assert "dropped by maxBeliefs 8" in status("/content/beliefs/8")
    assert "dropped" not in status("/content/beliefs/7")
