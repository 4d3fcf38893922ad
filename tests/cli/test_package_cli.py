"""`zcf-inspector package verify|build|sign`: the words, the exit codes, --json, atomic
writes that never replace a file without --force (issue 33)."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.core.package.cases import EXAMPLES, TEST_SEED, Entry, members, write
from zcf_inspector import api
from zcf_inspector.cli import exitcodes, main

SESSION = str(EXAMPLES / "tool-generated-files.session.json")
PUBLIC = Ed25519PrivateKey.from_private_bytes(TEST_SEED).public_key().public_bytes_raw()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["package", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def built(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "t.asif.zip"
    assert run(capsys, "build", SESSION, "--out", str(out))[0] == exitcodes.OK
    return out


def test_build_writes_the_reference_bytes_once(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = json.loads((EXAMPLES.parent / "reference-packages.json").read_text())
    assert (
        hashlib.sha256(built.read_bytes()).hexdigest()
        == golden["tool-generated-files.session.json"]
    )
    code, _out, err = run(capsys, "build", SESSION, "--out", str(built))
    assert code == exitcodes.USAGE
    assert "already exists; use --force" in err
    assert run(capsys, "build", SESSION, "--out", str(built), "--force")[0] == exitcodes.OK


def test_verify_exit_codes_follow_the_words(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = tmp_path / "seed"
    seed.write_bytes(TEST_SEED.hex().encode() + b"\n")
    seed.chmod(0o600)
    sig = tmp_path / "t.sig"
    assert run(capsys, "sign", str(built), "--key", str(seed), "--out", str(sig))[0] == 0
    key = tmp_path / "key.b64"
    key.write_bytes(base64.b64encode(PUBLIC) + b"\n")
    other = tmp_path / "other"
    other.write_bytes(bytes(32))

    code, out, _ = run(capsys, "verify", str(built))
    assert (code, out.splitlines()[0].endswith("VALID PACKAGE · UNSIGNED")) == (0, True)
    code, out, _ = run(capsys, "verify", str(built), "--signature", str(sig))
    assert code == exitcodes.UNCHECKED
    assert "INTACT PACKAGE · SIGNATURE NOT CHECKED (no key)" in out
    code, out, _ = run(capsys, "verify", str(built), "--signature", str(sig), "--key", str(key))
    assert code == exitcodes.OK
    assert "VALID PACKAGE · SIGNED by sha256:56475aa7" in out
    assert "(trusted)" in out
    code, out, _ = run(capsys, "verify", str(built), "--signature", str(sig), "--key", str(other))
    assert code == exitcodes.REFUSED
    assert "REFUSED PACKAGE at signature#/key_id: signing_key_untrusted" in out
    code, _, err = run(capsys, "verify", str(built), "--key", str(key))
    assert code == exitcodes.USAGE
    assert "--signature" in err


def test_a_tampered_member_is_refused_with_json(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = members(built.read_bytes())
    for e in entries:
        if e.name == "assets/totals.csv":
            e.data = b"x" + e.data[1:]
    bad = tmp_path / "bad.asif.zip"
    bad.write_bytes(write(entries))
    code, out, _ = run(capsys, "verify", str(bad), "--json")
    assert code == exitcodes.REFUSED
    value = json.loads(out)
    assert (
        value["verdict"]
        == "REFUSED PACKAGE at assets/totals.csv#/files/1/sha256: inventory_mismatch"
    )
    assert value["trust"] == "refused"
    statuses = {e["path"]: e["status"] for e in value["package"]["inventory"]}
    assert statuses == {
        "assets/summary.md": "matches",
        "assets/totals.csv": "differs",
        "session.json": "matches",
    }
    assert value["package"]["findings"][0]["member"] == "assets/totals.csv"
    assert value["session"]["trust"] == "refused"


def test_a_refused_package_is_not_signed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.asif.zip"
    bad.write_bytes(write([Entry("session.json", b"{}")]))
    seed = tmp_path / "seed"
    seed.write_bytes(TEST_SEED)
    seed.chmod(0o600)
    code, _, err = run(capsys, "sign", str(bad), "--key", str(seed), "--out", str(tmp_path / "s"))
    assert code == exitcodes.REFUSED
    assert "not signed" in err
    assert not (tmp_path / "s").exists()


def test_the_api_functions(built: Path) -> None:
    raw = built.read_bytes()
    assert api.build_package(SESSION) == raw
    signature = api.sign_package(raw, TEST_SEED)
    result = api.verify_package(raw, signature=signature, key=PUBLIC)
    assert api.verdict(result).trust is api.Trust.VERIFIED
    assert api.verify_package(built).ok
    with pytest.raises(api.InputError):
        api.verify_package(raw, signature=signature, key=b"short")


def test_plan_heads_a_core_session_valid_with_no_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["plan", SESSION])
    out = capsys.readouterr().out
    assert code == exitcodes.OK
    assert out.splitlines()[0].endswith("ASIF-SESSION VALID · NO CONTINUATION PLAN (core session)")


def test_key_files_others_could_have_written_or_read_are_refused(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = tmp_path / "seed"
    seed.write_bytes(TEST_SEED)
    seed.chmod(0o644)
    code, _, err = run(capsys, "sign", str(built), "--key", str(seed), "--out", str(tmp_path / "s"))
    assert code == exitcodes.USAGE
    assert "trust_file_unsafe" in err
    seed.chmod(0o600)
    sig = tmp_path / "s"
    assert run(capsys, "sign", str(built), "--key", str(seed), "--out", str(sig))[0] == 0
    key = tmp_path / "key"
    key.write_bytes(PUBLIC)
    key.chmod(0o666)
    code, _, err = run(capsys, "verify", str(built), "--signature", str(sig), "--key", str(key))
    assert code == exitcodes.USAGE
    assert "trust_file_unsafe" in err
    argv = ("verify", str(built), "--signature", str(sig), "--key", str(key))
    assert run(capsys, *argv, "--allow-unsafe-permissions")[0] == exitcodes.OK
