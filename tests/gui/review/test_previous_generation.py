"""Review only what changed (issue 13, point 4), on the real pane driven by keys: compare
with the previous generation's receipt, filter to what changed, repeat the earlier
decisions on unchanged beliefs as one undoable step, and export what the CLI writes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from tests.core.generations import earlier_receipt, write_generations
from tests.core.helpers import GOLDENS, destination
from tests.gui.review.conftest import (
    OFFSCREEN_NOISE,
    ScriptedPrompter,
    focus_table,
    open_pane,
    wait_open,
)
from zcf_inspector.cli import main
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.packet.receipt import finish_receipt, receipt_bytes
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.table_model import REF_ROLE, Column

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
NOTE = "read the gen2 diff"
Files = tuple[Path, Path, Path]


@pytest.fixture
def files(tmp_path: Path) -> Files:
    return write_generations(tmp_path / "stream")


@pytest.fixture
def pane(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter, files: Files
) -> ReviewPane:
    return open_pane(qtbot, settings, data_dir, prompter, files[2])


def shown(pane: ReviewPane) -> list[str]:
    return [pane.proxy.index(r, 0).data(REF_ROLE) for r in range(pane.proxy.rowCount())]


def compare_by_keys(
    qtbot: Any,
    pane: ReviewPane,
    prompter: ScriptedPrompter,
    files: Files,
    receipt: Path | None = None,
) -> None:
    prompter.script(("previous", (str(files[0]), str(receipt or files[1]))))
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_P, CTRL_SHIFT)
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=20_000)


def repeat_by_keys(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, note: str | None
) -> None:
    prompter.script(("note", note))
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_R, CTRL_SHIFT)


def test_comparing_filters_to_what_changed_and_says_what_was_checked(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    assert shown(pane) == [
        "b-sup2",
        "b-open",
        "b-new",
        "b-edit",
        "b-src",
        "b-old",
        "b-reject",
        "b-keep",
    ]
    assert pane.ui.since_filter.isHidden()
    compare_by_keys(qtbot, pane, prompter, files)
    assert prompter.log[0][2] == repr(([], []))  # a pane on its own offers no open files
    assert pane.previous is not None
    assert shown(pane) == ["b-new", "b-edit", "b-src"]  # new and changed, in packet order
    assert not pane.ui.since_filter.isHidden()
    assert pane.ui.since_filter.currentText() == "Changed since that receipt"
    digest = pane.previous.receipt_digest
    assert pane.ui.previous.text() == (
        "Compared with the receipt of pkt-stream-gen1 (gen1.json, gen1.receipt.json): digest "
        "recomputed, signature verified under this destination's key.\n"
        "Since then: 1 new, 2 changed, 5 unchanged, 1 no longer admitted; 3 earlier "
        "decisions can be repeated on unchanged beliefs.\n"
        "Not repeated: b-sup2 — its replacement 'b-edit' is changed since that receipt"
    )
    assert digest.startswith("sha256:")
    assert pane.ui.repeat_button.text() == "Repeat 3 earlier decisions…"
    assert pane.repeat_action.isEnabled()
    # Nothing was repeated by comparing: no decision, no journal.
    assert pane.review is not None
    assert pane.review.session.decisions == ()
    # The rows and the detail say what changed, and what was decided before.
    edit = pane.model.index(pane.model.row_of("b-edit"), Column.ARRIVED)
    assert edit.data() == "unreviewed\nchanged"
    QTest.keyClick(pane.table, Qt.Key.Key_J)  # b-new → b-edit
    assert pane.current_ref() == "b-edit"
    assert pane.detail.title.text().endswith("— content changed since the previous receipt")
    history = pane.detail.history.topLevelItem(0)
    assert history is not None
    assert [history.text(c) for c in range(6)] == [
        "2026-09-30T16:00:00Z",
        "alice",
        "",
        "confirmed",
        "measured on CI",
        "receipt of pkt-stream-gen1",
    ]


def test_the_filter_choices_and_stopping(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    compare_by_keys(qtbot, pane, prompter, files)
    combo = pane.ui.since_filter
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)  # new
    assert shown(pane) == ["b-new"]
    QTest.keyClick(combo, Qt.Key.Key_Down)  # changed content
    assert shown(pane) == ["b-edit", "b-src"]
    QTest.keyClick(combo, Qt.Key.Key_Down)  # unchanged
    assert shown(pane) == ["b-sup2", "b-open", "b-old", "b-reject", "b-keep"]
    QTest.keyClick(combo, Qt.Key.Key_Down)  # changed or not
    assert len(shown(pane)) == 8
    pane.ui.stop_previous_button.click()
    assert pane.previous is None
    assert pane.ui.since_filter.isHidden()
    assert pane.ui.previous.isHidden()
    assert not pane.repeat_action.isEnabled()
    assert len(shown(pane)) == 8
    edit = pane.model.index(pane.model.row_of("b-edit"), Column.ARRIVED)
    assert edit.data() == "unreviewed"


def test_repeating_is_one_step_by_this_reviewer(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    compare_by_keys(qtbot, pane, prompter, files)
    repeat_by_keys(qtbot, pane, prompter, None)  # Esc in the note dialog: nothing happens
    assert pane.review is not None
    session = pane.review.session
    assert not session.decisions
    repeat_by_keys(qtbot, pane, prompter, NOTE)
    question = prompter.log[-1][2]
    assert question.startswith(
        "Repeat 3 earlier decisions (1 superseded, 1 rejected, 1 confirmed) from the receipt "
        f"{pane.previous.receipt_digest if pane.previous else ''} of packet pkt-stream-gen1 on "
        "beliefs whose admitted content is byte-identical?"
    )
    assert "They are recorded as YOUR decisions (carol), now, in one step" in question
    assert "That receipt: digest recomputed, signature verified" in question
    assert "Not repeated: 1 withheld (named above the table)." in question
    assert [(d.portable_ref, d.state, d.reviewer) for d in session.decisions] == [
        ("b-old", ReviewState.SUPERSEDED, "carol"),
        ("b-reject", ReviewState.REJECTED, "carol"),
        ("b-keep", ReviewState.CONFIRMED, "carol"),
    ]
    assert len(session.applied) == 1
    assert pane.ui.status.text() == (
        "Repeated 3 earlier decisions as carol, in one step (Ctrl+Z undoes them together)."
    )
    assert not pane.repeat_action.isEnabled()
    assert (
        pane.ui.previous.text()
        .splitlines()[1]
        .endswith(
            "0 earlier decisions can be repeated on unchanged beliefs (3 decided here already)."
        )
    )
    # The new and changed beliefs stay unreviewed; still shown by the filter.
    assert shown(pane) == ["b-new", "b-edit", "b-src"]
    assert {pane.model.state(r) for r in shown(pane)} == {ReviewState.UNREVIEWED}
    QTest.keyClick(pane.table, Qt.Key.Key_Z, CTRL)
    assert session.decisions == ()
    assert pane.repeat_action.isEnabled()
    QTest.keyClick(pane.table, Qt.Key.Key_Z, CTRL_SHIFT)
    assert len(session.decisions) == 3


def test_this_reviewers_own_decisions_stand(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    compare_by_keys(qtbot, pane, prompter, files)
    pane.ui.since_filter.setCurrentIndex(3)  # unchanged
    focus_table(qtbot, pane)
    while pane.current_ref() != "b-keep":
        QTest.keyClick(pane.table, Qt.Key.Key_J)
    prompter.script(("note", "no longer true"))
    QTest.keyClick(pane.table, Qt.Key.Key_R)
    repeat_by_keys(qtbot, pane, prompter, NOTE)
    assert "1 you decided already" in prompter.log[-1][2]
    assert pane.review is not None
    last = pane.review.session.last_decisions()
    assert (last["b-keep"].state, last["b-keep"].note) == (ReviewState.REJECTED, "no longer true")
    assert [d.portable_ref for d in pane.review.session.applied[-1].decisions] == [
        "b-old",
        "b-reject",
    ]


def test_a_tampered_receipt_is_refused_and_nothing_changes(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    receipt = json.loads(files[1].read_bytes())
    receipt["review"]["decisions"][0]["state"] = "rejected"
    receipt["review"]["decisions"][0]["note"] = "forged"
    files[1].write_bytes(receipt_bytes(receipt))
    compare_by_keys(qtbot, pane, prompter, files)
    [(_kind, title, text)] = [entry for entry in prompter.log if entry[0] == "warn"]
    assert title == "Previous generation not used"
    assert "previous_receipt_invalid: the previous generation's receipt does not verify" in text
    assert "invalid_value /receiptDigest: receiptDigest" in text
    assert text.endswith("Nothing was repeated; the review is as it was.")
    assert pane.previous is None
    assert pane.ui.since_filter.isHidden()
    assert len(shown(pane)) == 8


@pytest.fixture
def reopen(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> Callable[[Path], ReviewPane]:
    """A new pane on the same settings and journal folder: the window after a restart."""
    return lambda path: open_pane(qtbot, settings, data_dir, prompter, path)


def test_a_restored_review_has_the_step_whole(
    qtbot: Any,
    pane: ReviewPane,
    prompter: ScriptedPrompter,
    files: Files,
    reopen: Callable[[Path], ReviewPane],
) -> None:
    compare_by_keys(qtbot, pane, prompter, files)
    repeat_by_keys(qtbot, pane, prompter, NOTE)
    assert pane.review is not None
    before = pane.review.session.decisions
    # The window goes away without an export (a crash); a new one opens the packet.
    again = reopen(files[2])
    assert again.review is not None
    assert again.review.session.decisions == before
    assert again.ui.status.text() == "Restored 3 decisions from the review journal."
    assert again.previous is None  # the comparison itself is not kept: compare again
    QTest.keyClick(again.table, Qt.Key.Key_Z, CTRL)
    assert again.review.session.decisions == ()


def test_a_cancelled_or_stale_comparison_is_dropped(
    qtbot: Any, pane: ReviewPane, files: Files
) -> None:
    gate: list[str] = []
    pane.runner.progress_hook = lambda what, _f: gate.append(what)
    task = pane.load_previous(str(files[0]), str(files[1]))
    assert task is not None
    pane.runner.cancel_all()
    pane.runner.wait_for_done()
    qtbot.wait(50)
    assert pane.previous is None
    # A comparison that finishes after another packet was opened is not shown on it.
    pane.load_previous(str(files[0]), str(files[1]))
    pane.stop_comparing()  # as opening another packet does: older results go stale
    qtbot.waitUntil(lambda: not pane.runner.busy, timeout=20_000)
    assert pane.previous is None
    assert gate[0] == "reading the previous receipt"


def test_window_and_cli_write_identical_receipts(
    qtbot: Any,
    pane: ReviewPane,
    prompter: ScriptedPrompter,
    files: Files,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tmp_path = files[0].parent
    compare_by_keys(qtbot, pane, prompter, files)
    repeat_by_keys(qtbot, pane, prompter, NOTE)
    focus_table(qtbot, pane)
    assert pane.current_ref() == "b-new"
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # b-new confirmed; on to b-edit
    prompter.script(("note", "not measured"))
    QTest.keyClick(pane.table, Qt.Key.Key_R)
    window_out = tmp_path / "window.json"
    prompter.script(("confirm", True), ("confirm", True), ("path", str(window_out)))
    pane.export_receipt()
    decisions = tmp_path / "decisions.json"
    decisions.write_text(
        json.dumps(
            [
                {"portableRef": "b-new", "state": "confirmed"},
                {"portableRef": "b-edit", "state": "rejected", "note": "not measured"},
            ]
        )
    )
    cli_out = tmp_path / "cli.json"
    gen1, receipt, gen2 = files
    code = main(
        [
            "review",
            str(gen2),
            "--destination",
            str(GOLDENS / "destination.json"),
            "--reviewer",
            "carol",
            "--previous",
            str(gen1),
            "--previous-receipt",
            str(receipt),
            "--repeat-unchanged",
            "--repeat-note",
            NOTE,
            "--decisions",
            str(decisions),
            "--out",
            str(cli_out),
        ]
    )
    capsys.readouterr()
    assert code == 0
    assert cli_out.read_bytes() == window_out.read_bytes()
    written = json.loads(window_out.read_bytes())
    assert [d["portableRef"] for d in written["review"]["decisions"]] == [
        "b-old",
        "b-reject",
        "b-keep",
        "b-new",
        "b-edit",
    ]


def test_opening_the_packet_again_keeps_the_comparison_and_its_filter(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    """Issue 18: a re-check (another destination, F5) is an open of the same packet, and
    the comparison comes back with it — made again against the packet as admitted now,
    its "since" filter as the reviewer left it; another packet clears it and says so."""
    compare_by_keys(qtbot, pane, prompter, files)
    pane.ui.since_filter.setCurrentIndex(1)  # new since that receipt
    qtbot.waitUntil(lambda: not pane.rows.pending)
    new_only = shown(pane)
    banner = pane.ui.previous.text()
    first = pane.previous
    dest = destination()
    data = files[2].read_bytes()
    pane.set_packet(str(files[2]), data, inspect_bytes(data, dest), dest)
    wait_open(qtbot, pane)
    assert pane.previous is not None
    assert pane.previous is not first  # compared again, not kept from before
    assert pane.ui.since_filter.isVisibleTo(pane)
    assert pane.ui.since_filter.currentIndex() == 1
    assert shown(pane) == new_only
    assert pane.ui.previous.text() == banner
    other = files[0].read_bytes()
    with qtbot.waitSignal(pane.statusMessage) as said:
        pane.set_packet(str(files[0]), other, inspect_bytes(other, dest), dest)
        wait_open(qtbot, pane)
    assert said.args == [
        "The comparison with the previous generation was cleared; compare again (Ctrl+Shift+P)."
    ]
    assert pane.previous is None
    assert pane.ui.since_filter.isHidden()
    assert len(shown(pane)) == 8


def test_an_unsigned_receipt_is_asked_about_a_second_time(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    # Issue 19, defect 12: an unsigned receipt is one anyone can compute; repeating its
    # decisions is asked twice, and the notes say where they came from.
    unsigned = files[1].with_name("gen1.unsigned.receipt.json")
    unsigned.write_bytes(receipt_bytes(finish_receipt(earlier_receipt(), None)))
    compare_by_keys(qtbot, pane, prompter, files, unsigned)
    assert pane.previous is not None
    assert not pane.previous.trusted
    assert "unsigned: nothing proves who made these decisions" in pane.ui.previous.text()
    prompter.script(("confirm", False))  # No to the second question: nothing happens
    focus_table(qtbot, pane)
    QTest.keyClick(pane.table, Qt.Key.Key_R, CTRL_SHIFT)
    assert pane.review is not None
    assert not pane.review.session.decisions
    assert "is not signed by a key this destination trusts" in prompter.log[-1][2]
    prompter.script(("confirm", True), ("note", NOTE))
    QTest.keyClick(pane.table, Qt.Key.Key_R, CTRL_SHIFT)
    qtbot.waitUntil(lambda: len(pane.review.session.decisions) == 3, timeout=20_000)
    notes = [d.note or "" for d in pane.review.session.decisions]
    assert all(note.startswith(f"{NOTE} — repeated from an unsigned receipt ") for note in notes)


def test_a_signed_receipt_is_not_asked_about_twice(
    qtbot: Any, pane: ReviewPane, prompter: ScriptedPrompter, files: Files
) -> None:
    compare_by_keys(qtbot, pane, prompter, files)
    assert pane.previous is not None
    assert pane.previous.trusted
    repeat_by_keys(qtbot, pane, prompter, NOTE)  # only the note is asked
    assert [kind for kind, _, _ in prompter.log].count("confirm") == 0
    assert pane.review is not None
    qtbot.waitUntil(lambda: len(pane.review.session.decisions) == 3, timeout=20_000)
