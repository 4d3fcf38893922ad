"""Issue 12, point 3: which key signs receipts, its public key file, and verifying a
receipt with the destination file itself."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination
from zcf_inspector.cli import main
from zcf_inspector.core.crypto import ed25519_public_key, public_key_fingerprint
from zcf_inspector.core.formats import b64u_encode
from zcf_inspector.core.keyfile import load_ed25519_key, new_ed25519_key
from zcf_inspector.core.packet.receipt_keys import (
    load_public_key,
    public_key_file,
    receipt_signer,
)

PUB = GOLDENS / "publication"
DEST = GOLDENS / "destination.json"
RECEIPT = PUB / "full-handoff.receipt.json"
RECEIPT_PUBLIC = ed25519_public_key(g.RECEIPT_SEED)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_signer_is_the_destinations_signing_key() -> None:
    signer = receipt_signer(destination())
    assert signer.public_key == RECEIPT_PUBLIC
    assert signer.describe() == (
        "receipts are signed by destination dest-golden-01's signingKey "
        f"{public_key_fingerprint(RECEIPT_PUBLIC)}"
    )
    unsigned = receipt_signer(destination(signingKey=None))
    assert unsigned.fingerprint is None
    assert unsigned.describe().startswith("receipts are UNSIGNED: destination dest-golden-01")
    assert public_key_file(destination()) == {
        "kind": "ed25519",
        "publicKey": b64u_encode(RECEIPT_PUBLIC),
        "fingerprint": public_key_fingerprint(RECEIPT_PUBLIC),
    }


def test_keygen_public_of_a_destination_verifies_its_receipts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "dest.pub.json"
    code, _, err = run(capsys, "keygen", "--public-of", str(DEST), "--out", str(out))
    assert code == 0
    assert f"key written to {out}" in err
    written = json.loads(out.read_bytes())
    assert "seed" not in written  # nothing secret leaves the destination file
    assert written == public_key_file(destination())
    assert load_ed25519_key(out, need_seed=False).public_key == RECEIPT_PUBLIC
    code, stdout, _ = run(capsys, "receipt", "verify", str(RECEIPT), "--key", str(out))
    assert code == 0
    assert "signature verified" in stdout
    # never overwritten
    code, _, err = run(capsys, "keygen", "--public-of", str(DEST), "--out", str(out))
    assert code == 2
    assert "already exists" in err


def test_keygen_public_of_a_key_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    key = new_ed25519_key()
    private = tmp_path / "k.json"
    private.write_text(json.dumps(key.to_json()))
    private.chmod(0o600)  # a private key: others may not read it
    code, stdout, _ = run(capsys, "keygen", "--public-of", str(private))
    assert code == 0
    assert json.loads(stdout) == key.to_json(include_seed=False)
    assert load_public_key(private).public_key == key.public_key


def test_receipt_verify_with_the_destination_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "receipt", "verify", str(RECEIPT), "--destination", str(DEST))
    assert code == 0
    assert out == (
        f"{RECEIPT}: VALID RECEIPT · SIGNED (signature verified)\n"
        "  verified | receipt shape: pass | receipt digest: pass · matches | "
        "signature: pass · verified\n"
    )
    other = copy.deepcopy(g.DESTINATION)
    other["signingKey"] = b64u_encode(b"\x07" * 32)
    other_path = tmp_path / "other.json"
    other_path.write_text(json.dumps(other))
    code, out, _ = run(
        capsys, "receipt", "verify", "--json", str(RECEIPT), "--destination", str(other_path)
    )
    assert code == 1
    assert json.loads(out)["findings"][0]["code"] == "source_key_unknown"


def test_destination_without_signing_key_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bare = {k: v for k, v in g.DESTINATION.items() if k != "signingKey"}
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(bare))
    for argv in (
        ("receipt", "verify", str(RECEIPT), "--destination", str(path)),
        ("keygen", "--public-of", str(path)),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2
        assert "has no signingKey: its receipts are unsigned" in err


def test_key_and_destination_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["receipt", "verify", str(RECEIPT), "--key", "k", "--destination", str(DEST)])
    assert exit_info.value.code == 2
    assert "not allowed with" in capsys.readouterr().err
