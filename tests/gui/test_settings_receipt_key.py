"""Issue 12, point 3: Settings shows the key that signs receipts, with Copy and Export
(a public key file that `receipt verify --key` accepts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication

from goldens import generate as g
from tests.gui.driving import DESTINATION, PUBLICATION
from zcf_inspector.cli import main
from zcf_inspector.core.crypto import ed25519_public_key, public_key_fingerprint
from zcf_inspector.core.formats import b64u_encode
from zcf_inspector.core.keyfile import load_ed25519_key
from zcf_inspector.gui.settings_dialog import SettingsDialog

RECEIPT_PUBLIC = ed25519_public_key(g.RECEIPT_SEED)


def test_public_key_copy_and_export(
    qtbot: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dialog = SettingsDialog(str(DESTINATION))
    qtbot.addWidget(dialog)
    assert dialog.public_key.text() == b64u_encode(RECEIPT_PUBLIC)
    assert public_key_fingerprint(RECEIPT_PUBLIC) in dialog.signing_note.text()
    assert "not by the reviewer" in dialog.signing_note.text()
    dialog.copy_key.click()
    assert QGuiApplication.clipboard().text() == b64u_encode(RECEIPT_PUBLIC)
    suggested: list[str] = []
    out = tmp_path / "dest.pub.json"

    def ask(_parent: object, proposal: str) -> str:
        suggested.append(proposal)
        return str(out)

    dialog.ask_save_path = ask
    messages: list[str] = []
    dialog.statusMessage.connect(messages.append)
    dialog.export_key.click()
    assert suggested == [str(DESTINATION.with_name("dest-golden-01.receipt-key.pub.json"))]
    assert load_ed25519_key(out, need_seed=False).public_key == RECEIPT_PUBLIC
    assert "seed" not in json.loads(out.read_bytes())
    assert messages == [f"Public key written to {out}"]
    # the file written is what `receipt verify --key` needs
    code = main(
        ["receipt", "verify", str(PUBLICATION / "full-handoff.receipt.json"), "--key", str(out)]
    )
    assert code == 0
    assert "signature verified" in capsys.readouterr().out
    # an existing file is replaced only when the user says so
    out.write_text("keep me")
    asked: list[str] = []

    def refuse(_parent: object, _title: str, text: str) -> bool:
        asked.append(text)
        return False

    dialog.confirm = refuse
    dialog.export_key.click()
    assert asked == [f"{out} already exists. Replace it?"]
    assert out.read_text() == "keep me"
    dialog.confirm = lambda *_: True
    dialog.export_key.click()
    assert load_ed25519_key(out, need_seed=False).public_key == RECEIPT_PUBLIC


def test_destination_without_signing_key_says_receipts_are_unsigned(
    qtbot: Any, tmp_path: Path
) -> None:
    bare = {k: v for k, v in g.DESTINATION.items() if k != "signingKey"}
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(bare))
    dialog = SettingsDialog(str(path))
    qtbot.addWidget(dialog)
    assert dialog.public_key.text() == ""
    assert not dialog.copy_key.isEnabled()
    assert not dialog.export_key.isEnabled()
    assert dialog.signing_note.text().startswith("Receipts are UNSIGNED")
    dialog.path.setText("")
    assert dialog.signing_note.text() == "No destination: nothing signs receipts."
