"""Suspected credentials outside the row and the detail (issue 20, point 4), on the real
pane: the Supersede dialog lists other beliefs' content masked as their rows do; repeating
earlier decisions asks the bulk confirm's second question before it confirms a flagged
belief again (No leaves it out, the others repeated)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from tests.core.generations import earlier_receipt, gen1_beliefs, gen2_beliefs, packet
from tests.core.helpers import to_bytes
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, focus_table
from tests.gui.review.test_evidence_detail import go_to, open_pane
from tests.present.review_packets import AWS_KEY, evidence_packet
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.gui.review.dialogs import SupersedeDialog
from zcf_inspector.gui.review.pane import ReviewPane

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
