"""Journal restore and refusal, export, read-only folders, and the window-vs-CLI twin."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination
from tests.gui.review.conftest import OFFSCREEN_NOISE, PaneFactory, ScriptedPrompter, wait_open
from tests.present.test_fixed_clock import FIXED_WORDS
from zcf_inspector.cli import main
from zcf_inspector.core.crypto import ed25519_public_key, public_key_fingerprint
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.keyfile import new_ed25519_key
from zcf_inspector.core.packet.receipt import ReceiptStatus, verify_receipt
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.settings import save_identity

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)
RECEIPT_KEY = ed25519_public_key(g.RECEIPT_SEED)
NOBODY = 65534


def review_by_keys(pane: ReviewPane, prompter: ScriptedPrompter) -> None:
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    prompter.script(("note", "stale"))
    QTest.keyClick(pane.table, Qt.Key.Key_R)
    prompter.script(("replacement", ("b-reader", "covered by b-reader")))
    QTest.keyClick(pane.table, Qt.Key.Key_S)


def journal_file(pane: ReviewPane) -> Path:
    assert pane.target is not None
    return journal_path(pane.data_dir, pane.target.correlation_id)


def test_decisions_restored_in_a_new_pane(
    make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    first = make_pane()
    QTest.keyClick(first.table, Qt.Key.Key_C)
    prompter.script(("note", "stale"))
    QTest.keyClick(first.table, Qt.Key.Key_R)
    QTest.keyClick(first.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    before = [d.to_json() for d in first.review.session.decisions]  # type: ignore[union-attr]
    first.close()
    first.deleteLater()
    second = make_pane()
    assert second.review is not None
    assert [d.to_json() for d in second.review.session.decisions] == before
    assert second.model.state("b-reader") is ReviewState.CONFIRMED
    assert second.redo_action.isEnabled()  # the undone reject can still be redone
    assert second.ui.status.text() == "Restored 1 decision from the review journal."
    QTest.keyClick(
        second.table,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert second.model.state("b-order") is ReviewState.REJECTED


def test_corrupt_journal_is_refused_cleanly(
    qtbot: Any, make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    first = make_pane()
    QTest.keyClick(first.table, Qt.Key.Key_C)
    path = journal_file(first)
    first.close()
    path.write_bytes(b"this is not what the journal held" * 100)
    damaged = path.read_bytes()
    second = make_pane()
    assert second.review is None
    assert second.model.state("b-reader") is ReviewState.UNREVIEWED  # nothing applied
    assert not second.decide_actions[ReviewState.CONFIRMED].isEnabled()
    [warning] = prompter.messages("warn")
    assert "refused; nothing from it was applied" in warning
    assert "journal_corrupt" in warning
    assert second.ui.problem.isVisible()
    assert warning in second.ui.problem.text()
    QTest.keyClick(second.table, Qt.Key.Key_C)
    assert path.read_bytes() == damaged  # the refused journal is never written to
    # Setting it aside keeps it, renamed, and starts a new review.
    second.ui.set_aside.click()
    wait_open(qtbot, second)
    kept = [p for p in path.parent.iterdir() if p.name.startswith(path.name + ".refused-")]
    assert len(kept) == 1
    assert kept[0].read_bytes() == damaged
    assert second.review is not None
    assert second.review.session.decisions == ()
    assert not second.ui.problem.isVisible()


def test_journal_header_naming_another_packet_is_refused(
    make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    first = make_pane()
    QTest.keyClick(first.table, Qt.Key.Key_C)
    path = journal_file(first)
    first.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE review SET packet_id = 'pkt-other'")
    conn.close()
    second = make_pane()
    assert second.review is None
    # Its rows do not verify under the packet it now names: it was changed, not swapped.
    assert "journal_corrupt" in prompter.messages("warn")[0]


def test_a_deleted_last_decision_is_refused_and_the_review_can_start_over(
    qtbot: Any, make_pane: PaneFactory, prompter: ScriptedPrompter
) -> None:
    """Issue 15: the journal's checksums are keyed and chained, with the head kept beside
    the settings: deleting the last row is found, and the window offers to start over."""
    first = make_pane()
    QTest.keyClick(first.table, Qt.Key.Key_C)
    QTest.keyClick(first.table, Qt.Key.Key_C)
    path = journal_file(first)
    first.close()
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM entry WHERE seq = (SELECT max(seq) FROM entry)")
    conn.close()
    second = make_pane()
    assert second.review is None
    [warning] = prompter.messages("warn")
    assert "journal_corrupt" in warning
    assert "saved rows are gone" in warning
    assert second.ui.set_aside.isVisibleTo(second)
    key_folder = second.key_dir
    assert key_folder.parent != path.parent  # the key is kept beside the settings
    second.ui.set_aside.click()
    wait_open(qtbot, second)
    assert second.review is not None
    assert second.review.session.decisions == ()
    assert [p for p in path.parent.iterdir() if p.name.startswith(path.name + ".refused-")]
    assert [p for p in key_folder.iterdir() if ".refused-" in p.name]  # its key went too
    QTest.keyClick(second.table, Qt.Key.Key_C)  # and the new review journals again
    third = make_pane()
    assert third.review is not None
    assert len(third.review.session.decisions) == 1


def export(pane: ReviewPane, prompter: ScriptedPrompter, path: Path, *answers: Any) -> None:
    prompter.script(("confirm", True), *answers, ("path", str(path)))
    pane.export_receipt()


def test_export_writes_a_verifying_receipt(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    pane = make_pane()
    review_by_keys(pane, prompter)
    out = tmp_path / "r.json"
    export(pane, prompter, out)
    receipt = json.loads(out.read_bytes())
    report = verify_receipt(receipt, RECEIPT_KEY)
    assert report.status is ReceiptStatus.VALID_SIGNED
    assert receipt["review"] == {
        "decisions": [d.to_json() for d in pane.review.session.decisions],  # type: ignore[union-attr]
        "completedAt": "2026-10-01T12:00:00Z",
    }
    assert [d["state"] for d in receipt["review"]["decisions"]] == [
        "confirmed",
        "rejected",
        "superseded",
    ]
    fingerprint = public_key_fingerprint(RECEIPT_KEY)
    assert prompter.messages("confirm") == [
        "3 admitted beliefs: 0 unreviewed, 1 confirmed, 1 rejected, 1 superseded.\n"
        "3 decisions recorded.\n\n"
        f"{FIXED_WORDS}.\n\n"  # the destination's test clock (issue 34)
        "The receipt will be signed by destination dest-golden-01's signingKey\n"
        f"{fingerprint}\n"
        "(not by your reviewer key). Check it with: zcf-inspector receipt verify "
        "--destination DESTINATION.json, or --key with the public key from Settings.\n\n"
        "Export the transfer receipt?"
    ]
    assert prompter.messages("inform")[-1] == (
        f"Receipt written to {out}\nsigned by destination dest-golden-01's key {fingerprint}\n"
        f"receiptDigest {receipt['receiptDigest']}"
    )
    assert not pane.undo_action.isEnabled()  # an export seals what it exported
    # Opened later, the receipt verifies and is matched to the packet.
    check = pane.open_receipt(str(out))
    assert check.valid
    assert "belongs to the open packet" in check.lines


def test_export_with_unreviewed_beliefs_asks_first(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    pane = make_pane()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    out = tmp_path / "r.json"
    prompter.script(("confirm", True), ("confirm", False))
    pane.export_receipt()
    assert "2 of 3 beliefs are still unreviewed" in prompter.messages("confirm")[1]
    assert not out.exists()
    export(pane, prompter, out, ("confirm", True))
    assert out.exists()


def test_export_asks_before_replacing(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    pane = make_pane()
    review_by_keys(pane, prompter)
    out = tmp_path / "r.json"
    out.write_bytes(b"keep me")
    prompter.script(("confirm", True), ("path", str(out)), ("confirm", False))
    pane.export_receipt()
    assert prompter.messages("confirm")[-1] == f"{out} already exists. Replace it?"
    assert out.read_bytes() == b"keep me"
    prompter.script(("confirm", True), ("path", str(out)), ("confirm", True))
    pane.export_receipt()
    assert verify_receipt(json.loads(out.read_bytes()), RECEIPT_KEY).valid


@contextlib.contextmanager
def as_unprivileged_user() -> Iterator[None]:
    """Root ignores folder permissions; act as ``nobody`` so a read-only folder is one."""
    if os.geteuid() != 0:
        yield
        return
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def test_export_into_read_only_folder(
    make_pane: PaneFactory, prompter: ScriptedPrompter, tmp_path: Path
) -> None:
    pane = make_pane()
    review_by_keys(pane, prompter)
    # Somewhere every user can reach, so only the folder's own mode refuses the write.
    folder = Path(tempfile.mkdtemp(prefix="zcf-review-ro-"))
    try:
        folder.chmod(0o555)
        with as_unprivileged_user():
            export(pane, prompter, folder / "r.json")
        assert list(folder.iterdir()) == []  # no receipt, no temporary file
    finally:
        folder.chmod(0o755)
        folder.rmdir()
    [warning] = prompter.messages("warn")
    assert warning.startswith(f"The receipt could not be written to {folder / 'r.json'}")
    assert "Nothing was written" in warning
    assert pane.undo_action.isEnabled()  # not exported: the review is still open


def test_window_and_cli_write_identical_receipts(
    make_pane: PaneFactory,
    prompter: ScriptedPrompter,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pane = make_pane()
    review_by_keys(pane, prompter)
    window_out = tmp_path / "window.json"
    export(pane, prompter, window_out)
    decisions = tmp_path / "decisions.json"
    decisions.write_text(
        json.dumps(
            [
                {"portableRef": "b-reader", "state": "confirmed"},
                {"portableRef": "b-order", "state": "rejected", "note": "stale"},
                {
                    "portableRef": "b-bench",
                    "state": "superseded",
                    "note": "covered by b-reader",
                    "supersededBy": "b-reader",
                },
            ]
        )
    )
    cli_out = tmp_path / "cli.json"
    code = main(
        [
            "review",
            str(GOLDENS / "publication" / "full-handoff.json"),
            "--destination",
            str(GOLDENS / "destination.json"),
            "--decisions",
            str(decisions),
            "--reviewer",
            "carol",
            "--out",
            str(cli_out),
        ]
    )
    capsys.readouterr()
    assert code == 0
    assert cli_out.read_bytes() == window_out.read_bytes()


def test_self_review_is_warned(make_pane: PaneFactory, settings: Any, tmp_path: Path) -> None:
    key_file = tmp_path / "me.json"
    key_file.write_text(json.dumps(new_ed25519_key(g.SOURCE_SEED).to_json()))
    key_file.chmod(0o600)  # a private key: others may not read it
    save_identity(settings, "carol", str(key_file))
    pane = make_pane("recipient-bound-mac")
    assert pane.ui.self_review.isVisible()
    assert "Self-review" in pane.ui.self_review.text()
    other = make_pane("full-handoff")
    assert not other.ui.self_review.isVisible()


def reviewers(pane: ReviewPane) -> list[str]:
    assert pane.review is not None
    return [d.reviewer for d in pane.review.session.decisions]


def test_reviewer_is_asked_for_when_unset(
    make_pane: PaneFactory, prompter: ScriptedPrompter, settings: Any
) -> None:
    save_identity(settings, "", "")
    pane = make_pane()
    assert pane.identity_bar.isVisible()  # asked before the first decision, in the pane
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # no dialog: the prompter has no answer
    assert reviewers(pane) == []
    pane.identity_bar.field.setText("dave")
    pane.identity_bar.button.click()
    assert not pane.identity_bar.isVisible()
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert reviewers(pane) == ["dave"]
    assert pane.ui.reviewer.text() == "Reviewer: dave"


def test_no_destination_and_refused_packet(
    qtbot: Any, make_pane: PaneFactory, tmp_path: Path, prompter: ScriptedPrompter
) -> None:
    from zcf_inspector.core.packet.inspection import inspect_bytes

    pane = make_pane()
    data = (GOLDENS / "negative" / "tampered-capsule.json").read_bytes()
    dest = destination()
    pane.set_packet("bad.json", data, inspect_bytes(data, dest), dest)
    wait_open(qtbot, pane)
    assert pane.review is None
    assert pane.model.rowCount() == 0
    assert "Nothing to review" in pane.ui.problem.text()
    pane.set_packet("x.json", data, inspect_bytes(data), None)
    assert "No destination is in force" in pane.ui.problem.text()
    pane.export_receipt()
    assert prompter.messages("inform") == ["There is no review to export."]


def test_an_unsafe_journal_key_is_never_offered_to_be_set_aside(
    make_pane: PaneFactory, prompter: ScriptedPrompter, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 19: nothing is wrong with such a journal; the fix is the key file's mode.
    monkeypatch.delenv("ZCF_INSPECTOR_ALLOW_UNSAFE_PERMISSIONS", raising=False)
    first = make_pane()
    QTest.keyClick(first.table, Qt.Key.Key_C)
    keys = sorted(first.key_dir.glob("*.key.json"))
    first.close()
    assert len(keys) == 1
    keys[0].chmod(0o666)
    second = make_pane()
    assert second.review is None
    [warning] = prompter.messages("warn")
    assert "cannot be opened now; nothing was changed" in warning
    assert "journal_unavailable" in warning
    assert f"chmod 600 {keys[0]}" in warning
    assert not second.ui.set_aside.isVisibleTo(second)
    keys[0].chmod(0o600)
    third = make_pane()
    assert third.review is not None
    assert third.model.state("b-reader") is ReviewState.CONFIRMED
