"""Suspected credentials outside the row and the detail (issue 20, point 4), on the real
pane: the Supersede dialog lists other beliefs' content masked as their rows do; repeating
earlier decisions asks the bulk confirm's second question before it confirms a flagged
belief again (No leaves it out, the others repeated); a changed belief's earlier text
the dropped beliefs' window and the notes of decisions (the history, the Note column)
mask what the scan finds in them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from goldens import generate as g
from tests.core.generations import (
    EARLIER_DECISIONS,
    earlier_receipt,
    gen1_beliefs,
    gen2_beliefs,
    packet,
    write_generations,
)
from tests.core.helpers import to_bytes
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, focus_table, open_pane
from tests.gui.review.test_evidence_detail import go_to
from tests.present.review_packets import AWS_KEY, evidence_packet
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.gui.review.dialogs import SupersedeDialog
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.table_model import REF_ROLE, Column

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
MARK = "[suspected credential, masked]"


@pytest.fixture
def pane(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, tmp_path: Path
) -> ReviewPane:
    path = tmp_path / "evidence.json"
    path.write_bytes(to_bytes(evidence_packet()))
    return open_pane(qtbot, settings, data_dir, prompter, path)


def test_the_supersede_dialog_lists_a_flagged_belief_masked(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter
) -> None:
    go_to(qtbot, pane, "b-spec")
    prompter.script(("replacement", None))  # Esc: nothing superseded
    QTest.keyClick(pane.table, Qt.Key.Key_S)
    offered = prompter.messages("replacement")[0]
    assert AWS_KEY not in offered
    assert MARK in offered
    assert pane.model.state("b-spec") is ReviewState.UNREVIEWED
    # The dialog itself shows what it is given: the row's mark, then the masked text.
    candidates = pane.controller.replacements("b-spec", pane.model.secrets)
    dialog = SupersedeDialog(pane, "b-spec", candidates, "")
    qtbot.addWidget(dialog)
    items = [dialog.choices.item(r).text() for r in range(dialog.choices.count())]
    key = next(text for text in items if text.startswith("b-key"))
    assert key.startswith(f"b-key — {MARK} Deploy with aws_access_key_id = AKIA")
    assert AWS_KEY not in "\n".join(items)
    # Filtering by the value finds nothing: the list holds only the masked form.
    dialog.search.setText(AWS_KEY[4:12])
    assert all(dialog.choices.item(r).isHidden() for r in range(dialog.choices.count()))
    # An unflagged belief is listed as it was.
    assert "b-reader — The reader patch keeps duplicate keys out." in items


def flagged_generations(folder: Path) -> tuple[Path, Path, Path]:
    """The stream of `tests.core.generations` with b-keep (unchanged, confirmed in the
    earlier receipt) holding a credential in both generations."""
    secret = f"The reader returns int; deploy key aws_access_key_id = {AWS_KEY}."
    first = [dict(b, content=secret) if b["portableRef"] == "b-keep" else b for b in gen1_beliefs()]
    later = [dict(b, content=secret) if b["portableRef"] == "b-keep" else b for b in gen2_beliefs()]
    gen1 = packet("stream-gen1", first, created="2026-09-29T10:00:00Z")
    folder.mkdir()
    paths = folder / "gen1.json", folder / "gen1.receipt.json", folder / "gen2.json"
    paths[0].write_bytes(to_bytes(gen1))
    paths[1].write_bytes(receipt_bytes(earlier_receipt(gen1)))
    paths[2].write_bytes(to_bytes(packet("stream-gen2", later, created="2026-09-30T18:00:00Z")))
    return paths


@pytest.mark.parametrize("answer", [False, True])
def test_repeating_earlier_decisions_asks_before_confirming_a_flagged_belief(  # noqa: PLR0917
    qtbot: Any,
    settings: QSettings,
    data_dir: Path,
    prompter: ScriptedPrompter,
    tmp_path: Path,
    answer: bool,
) -> None:
    gen1, receipt, gen2 = flagged_generations(tmp_path / "stream")
    pane = open_pane(qtbot, settings, data_dir, prompter, gen2)
    assert pane.model.flagged == frozenset({"b-keep"})
    prompter.script(("previous", (str(gen1), str(receipt))))
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_P, CTRL_SHIFT)
    qtbot.waitUntil(lambda: pane.previous is not None and not pane.runner.busy, timeout=20_000)
    prompter.script(("note", "read the gen2 diff"), ("confirm", answer))
    QTest.keyClick(pane.table, Qt.Key.Key_R, CTRL_SHIFT)
    title, text = prompter.log[-1][1:]
    assert title == "Confirm suspected credentials?"
    assert text == (
        "1 of the 3 earlier decisions to repeat confirms a belief that may contain a "
        "credential — confirm it too?\n\nA destination agent acts on a confirmed belief. "
        "No repeats the other 2 and leaves that belief as it is. The detail shows each "
        "value masked until you reveal it."
    )
    assert AWS_KEY not in text
    assert pane.review is not None
    repeated = [(d.portable_ref, d.state) for d in pane.review.session.decisions]
    expected = [("b-old", ReviewState.SUPERSEDED), ("b-reject", ReviewState.REJECTED)]
    assert repeated == ([*expected, ("b-keep", ReviewState.CONFIRMED)] if answer else expected)
    count = 3 if answer else 2
    assert pane.ui.status.text().startswith(f"Repeated {count} earlier decisions as carol")
    if not answer:
        assert pane.model.state("b-keep") is ReviewState.UNREVIEWED
        assert pane.repeat_action.isEnabled()  # b-keep's is still there to repeat


def test_an_earlier_text_holding_a_credential_is_masked_though_the_new_one_is_not(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    """b-edit's earlier text had a key, its new text has none: the scan at open read the
    new one only; the old text shown beside it is masked until revealed."""
    old = f"Validation takes two seconds with aws_access_key_id = {AWS_KEY} set."
    first = [dict(b, content=old) if b["portableRef"] == "b-edit" else b for b in gen1_beliefs()]
    gen1 = packet("stream-gen1", first, created="2026-09-29T10:00:00Z")
    folder = tmp_path / "stream"
    folder.mkdir()
    paths = folder / "gen1.json", folder / "gen1.receipt.json", folder / "gen2.json"
    paths[0].write_bytes(to_bytes(gen1))
    paths[1].write_bytes(receipt_bytes(earlier_receipt(gen1)))
    later = packet("stream-gen2", gen2_beliefs(), created="2026-09-30T18:00:00Z")
    paths[2].write_bytes(to_bytes(later))
    pane = open_pane(qtbot, settings, data_dir, prompter, paths[2])
    assert pane.model.flagged == frozenset()
    prompter.script(("previous", (str(paths[0]), str(paths[1]))))
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_P, CTRL_SHIFT)
    qtbot.waitUntil(lambda: pane.previous is not None and not pane.runner.busy, timeout=20_000)
    go_to(qtbot, pane, "b-edit")
    detail = pane.detail
    assert not detail.earlier.isHidden()
    assert AWS_KEY not in detail.earlier.toPlainText()
    assert "aws_access_key_id = AKIA…(20 characters, hidden)" in detail.earlier.toPlainText()
    assert detail.content.toPlainText() == "Validation of 50 MB takes under a second."
    assert detail.reveal_button.isVisible()
    assert detail.secret_note.text().startswith(
        "Suspected credential: the earlier text may hold an AWS access key id"
    )
    QTest.keyClick(pane.table, Qt.Key.Key_V, CTRL_SHIFT)
    assert AWS_KEY in detail.earlier.toPlainText()
    QTest.keyClick(pane.table, Qt.Key.Key_V, CTRL_SHIFT)
    assert AWS_KEY not in detail.earlier.toPlainText()


def test_a_dropped_belief_holding_a_credential_is_shown_masked(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    """The destination admits 8 beliefs; the 9th, dropped, is never in the review's scan
    (the packet's scan reports it): its cell and its full text are masked."""
    value = g.handoff("dropped-secret")
    beliefs = [g.belief(f"b-{i}", f"Belief number {i}.") for i in range(8)]
    beliefs.append(g.belief("b-late", f"Late: aws_access_key_id = {AWS_KEY}\nsecond line"))
    value["content"]["beliefs"] = beliefs
    path = tmp_path / "dropped.json"
    path.write_bytes(to_bytes(g.unsigned(value)))
    pane = open_pane(qtbot, settings, data_dir, prompter, path)
    assert pane.ui.dropped_button.text() == "Show the 1 dropped belief…"
    QTest.mouseClick(pane.ui.dropped_button, Qt.MouseButton.LeftButton)
    dialog = pane.dropped_dialog
    assert dialog is not None
    cell = dialog.model.index(0, 3).data()
    assert cell == f"{MARK} Late: aws_access_key_id = AKIA…(20 characters, hidden)\\nsecond line"
    text = dialog.content.toPlainText()
    assert AWS_KEY not in text
    assert "Suspected credential: may hold an AWS access key id; shown masked" in text
    assert text.endswith("\n\nLate: aws_access_key_id = AKIA…(20 characters, hidden)\nsecond line")


def history_notes(pane: ReviewPane) -> list[str]:
    history = pane.detail.history
    items = [history.topLevelItem(i) for i in range(history.topLevelItemCount())]
    return [item.text(4) for item in items if item is not None]


def test_a_note_holding_a_credential_is_masked_in_the_history_and_the_note_column(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    """The earlier receipt's note on b-keep holds a key (no scan read it): masked in the
    history beside the belief, and in the note the carry-over repeats it with."""
    said = f"checked; aws_access_key_id = {AWS_KEY}"
    requests = [
        DecisionRequest(r.portable_ref, r.state, said, r.superseded_by)
        if r.portable_ref == "b-keep"
        else r
        for r in EARLIER_DECISIONS
    ]
    folder = tmp_path / "stream"
    gen1, receipt, gen2 = write_generations(folder)
    receipt.write_bytes(receipt_bytes(earlier_receipt(requests=requests)))
    pane = open_pane(qtbot, settings, data_dir, prompter, gen2)
    prompter.script(("previous", (str(gen1), str(receipt))))
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_P, CTRL_SHIFT)
    qtbot.waitUntil(lambda: pane.previous is not None and not pane.runner.busy, timeout=20_000)
    pane.ui.since_filter.setCurrentIndex(pane.ui.since_filter.findText("Changed or not"))
    go_to(qtbot, pane, "b-keep")
    assert history_notes(pane) == ["checked; aws_access_key_id = AKIA…(20 characters, hidden)"]
    prompter.script(("note", "read the gen2 diff"))
    QTest.keyClick(pane.table, Qt.Key.Key_R, CTRL_SHIFT)
    assert pane.model.state("b-keep") is ReviewState.CONFIRMED
    cell = pane.model.index(pane.model.row_of("b-keep"), Column.NOTE).data()
    assert cell.startswith("read the gen2 diff — repeated from receipt ")
    assert cell.endswith(": checked; aws_access_key_id = AKIA…(20 characters, hidden)")
    go_to(qtbot, pane, "b-keep")
    notes = history_notes(pane)
    assert len(notes) == 2
    assert all(AWS_KEY not in note for note in notes)


def test_the_text_filter_reads_a_flagged_content_masked(qtbot: Any, pane: ReviewPane) -> None:
    """Typing part of the credential finds nothing (the filter would confirm a guess);
    the words around it, and the masked form, still find the row."""
    found: list[list[str]] = []
    for text in (AWS_KEY[4:], "vault", "characters, hidden"):
        pane.ui.text_filter.setText(text)
        qtbot.waitUntil(lambda: not pane.runner.busy, timeout=20_000)
        rows = pane.proxy.rowCount()
        found.append([pane.proxy.index(r, 0).data(REF_ROLE) for r in range(rows)])
    assert found == [[], ["b-key"], ["b-key"]]
