"""The pane's own dialogs, the reviewer settings, and receipts opened later."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from goldens import generate as g
from tests.core.helpers import GOLDENS
from tests.gui.review.conftest import OFFSCREEN_NOISE, PaneFactory
from zcf_inspector.core.crypto import ed25519_public_key, public_key_fingerprint
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.keyfile import new_ed25519_key
from zcf_inspector.gui.review.dialogs import (
    NoteDialog,
    Prompter,
    ReviewerSettingsDialog,
    SupersedeDialog,
)
from zcf_inspector.gui.review.receipts import suggested_receipt_path
from zcf_inspector.gui.review.settings import load_identity, save_identity

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def ok_button(box: QDialogButtonBox) -> Any:
    return box.button(QDialogButtonBox.StandardButton.Ok)


def test_note_dialog_requires_a_note(qtbot: Any) -> None:
    dialog = NoteDialog(None, "Reject", "Why?", "", required=True)
    qtbot.addWidget(dialog)
    assert not ok_button(dialog.buttons).isEnabled()
    dialog.editor.setPlainText("   ")
    assert not ok_button(dialog.buttons).isEnabled()
    dialog.editor.setPlainText("stale")
    assert ok_button(dialog.buttons).isEnabled()
    optional = NoteDialog(None, "Confirm", "Note?", "", required=False)
    qtbot.addWidget(optional)
    assert ok_button(optional.buttons).isEnabled()


def test_supersede_dialog_needs_a_replacement_and_a_note(qtbot: Any) -> None:
    dialog = SupersedeDialog(None, "b-1", [("b-2", "two"), ("b-3", "three")], "")
    qtbot.addWidget(dialog)
    assert not ok_button(dialog.buttons).isEnabled()
    dialog.select("b-3")
    assert dialog.replacement() == "b-3"
    assert not ok_button(dialog.buttons).isEnabled()
    dialog.editor.setPlainText("newer")
    assert ok_button(dialog.buttons).isEnabled()
    dialog.search.setText("two")  # the chosen one is filtered out: the first match is picked
    assert dialog.replacement() == "b-2"
    dialog.search.setText("nothing like it")  # no match: no replacement
    assert dialog.replacement() is None
    assert not ok_button(dialog.buttons).isEnabled()


def test_real_supersede_dialog_from_the_keyboard(make_pane: PaneFactory, qtbot: Any) -> None:
    pane = make_pane("full-handoff", use_prompter=Prompter())

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SupersedeDialog)
        assert dialog.choices.count() == 2  # every other admitted belief, not itself
        dialog.select("b-bench")
        dialog.editor.setPlainText("b-bench measures it")
        ok_button(dialog.buttons).click()

    QTimer.singleShot(0, answer)
    QTest.keyClick(pane.table, Qt.Key.Key_S)
    review = pane.review
    assert review is not None
    [decision] = review.session.decisions
    assert (decision.state, decision.superseded_by, decision.note) == (
        ReviewState.SUPERSEDED,
        "b-bench",
        "b-bench measures it",
    )


def test_reviewer_settings_dialog(qtbot: Any, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    dialog = ReviewerSettingsDialog(None, settings)
    qtbot.addWidget(dialog)
    assert not ok_button(dialog.buttons).isEnabled()  # no name yet
    dialog.name.setText("erin")
    dialog.key_file.setText(str(tmp_path / "missing.json"))
    ok_button(dialog.buttons).click()
    identity = load_identity(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert identity.name == "erin"
    assert identity.usable
    assert identity.fingerprint is None
    assert identity.key_problem is not None


def test_identity_with_a_key_file(tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    key_file = tmp_path / "k.json"
    key_file.write_text(json.dumps(new_ed25519_key(g.SOURCE_SEED).to_json(include_seed=False)))
    save_identity(settings, "erin", str(key_file))
    identity = load_identity(settings)
    assert identity.fingerprint == public_key_fingerprint(ed25519_public_key(g.SOURCE_SEED))


def test_a_reviewer_key_others_may_write_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 19: the reviewer key (self-review warnings rest on it) is a trust file too.
    monkeypatch.delenv("ZCF_INSPECTOR_ALLOW_UNSAFE_PERMISSIONS", raising=False)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    key_file = tmp_path / "k.json"
    key_file.write_text(json.dumps(new_ed25519_key(g.SOURCE_SEED).to_json(include_seed=False)))
    key_file.chmod(0o666)
    save_identity(settings, "erin", str(key_file))
    identity = load_identity(settings)
    assert identity.fingerprint is None
    assert identity.key_problem is not None
    assert identity.key_problem.startswith("trust_file_unsafe: key file ")
    assert f"chmod 600 {key_file}" in identity.key_problem


def test_open_receipt_verifies_and_matches(make_pane: PaneFactory, tmp_path: Path) -> None:
    pane = make_pane("full-handoff")
    golden = pane.open_receipt(str(GOLDENS / "publication" / "full-handoff.receipt.json"))
    assert golden.valid
    assert golden.lines[0].endswith("valid — digest recomputed, signature verified")
    other = pane.open_receipt(str(GOLDENS / "publication" / "demotion.receipt.json"))
    assert not other.valid
    assert "does NOT belong to the open packet as admitted here" in other.lines
    tampered = json.loads((GOLDENS / "publication" / "full-handoff.receipt.json").read_bytes())
    tampered["demotionCount"] = 5
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tampered))
    check = pane.open_receipt(str(path))
    assert not check.valid
    assert "INVALID" in check.lines[0]
    assert pane.ui.receipt_status.isVisible()


def test_suggested_receipt_path_carries_the_packet_id_and_is_free(tmp_path: Path) -> None:
    packet = tmp_path / "full-handoff.json"
    first = suggested_receipt_path(str(packet), "pkt-full-handoff")
    assert first == str(tmp_path / "full-handoff.pkt-full-handoff.receipt.json")
    Path(first).write_text("{}")  # taken: the next proposal is another name
    second = suggested_receipt_path(str(packet), "pkt-full-handoff")
    assert second == str(tmp_path / "full-handoff.pkt-full-handoff.receipt-2.json")
    # an id already in the file name is not repeated; an id unsafe in a name is made safe
    assert suggested_receipt_path(str(tmp_path / "pkt-7.json"), "pkt-7") == str(
        tmp_path / "pkt-7.receipt.json"
    )
    assert suggested_receipt_path(str(tmp_path / "p"), "a/b c\\..") == str(
        tmp_path / "p.a_b_c.receipt.json"
    )
    # the golden receipt beside the golden packet is never proposed
    golden = GOLDENS / "publication" / "full-handoff.json"
    assert suggested_receipt_path(str(golden), "") == str(
        golden.with_name("full-handoff.receipt-2.json")
    )
