"""The CLI contract: exit codes, JSON shapes and files, exactly as scripts rely on them."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS
from zcf_inspector.cli import main
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.formats import b64u_encode

PUB = GOLDENS / "publication"
NEG = GOLDENS / "negative"
DEST = GOLDENS / "destination.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_no_subcommand_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    # With no subcommand the window opens (tests/gui drives it); --help still prints the help.
    from zcf_inspector.cli import asks_for_window

    assert asks_for_window([])
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "validate" in out
    assert "check-goldens" in out


def test_console_script_runs_as_a_process() -> None:
    exe = Path(sys.executable).with_name("zcf-inspector")
    proc = subprocess.run(
        [str(exe), "validate", str(PUB / "minimal.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    # the verdict, then the trust level and every check as the window's chips say them
    assert proc.stdout == (
        f"{PUB / 'minimal.json'}: VALID · UNSIGNED\n"
        "  unsigned | bytes: pass | structure: pass | 12 sections: pass · digests match | "
        "manifest root: pass · matches | authentication: pass · unsigned | "
        "policy: not checkable · no destination\n"
    )


def test_validate_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "validate", "--json", str(PUB / "minimal.json"), str(NEG / "tampered-capsule.json")
    )
    assert code == 1
    results = json.loads(out)
    assert [r["valid"] for r in results] == [True, False]
    assert set(results[0]) == {
        "path",
        "valid",
        "kind",
        "verdict",
        "trust",
        "notChecked",
        "checks",
        "findings",
        "findingsOmitted",
        "manifest",
        "authenticity",
    }
    assert results[0]["findingsOmitted"] == []  # always there: nothing was cut
    assert results[0]["authenticity"] == {
        "state": "unsigned",
        "kind": "unsigned",
        "signer": None,
        "signerTrusted": None,
        "mac": None,
        "notChecked": [],
        "verdict": "VALID · UNSIGNED",
        "complete": True,
    }
    assert results[1]["authenticity"]["state"] == "not-checked"
    assert results[1]["authenticity"]["verdict"] == "REFUSED at manifest"
    manifest = results[1]["manifest"]
    assert set(manifest) == {"sections", "root", "uncovered"}
    assert manifest["sections"]["capsule"]["match"] is False
    assert manifest["sections"]["beliefs"]["match"] is True
    assert set(manifest["sections"]["capsule"]) == {"computed", "listed", "match"}
    assert manifest["root"]["match"] is False
    assert "authentication" in manifest["uncovered"]
    assert {f["code"] for f in results[1]["findings"]} == {
        "section_digest_mismatch",
        "manifest_root_mismatch",
    }
    for finding in results[1]["findings"]:
        assert set(finding) == {"code", "severity", "pointer", "message"}


def test_validate_byte_refusal_has_null_manifest(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", "--json", str(NEG / "bom.json"))
    assert code == 1
    [result] = json.loads(out)
    assert result["manifest"] is None
    assert result["findings"][0]["code"] == "invalid_encoding"


def test_mac_without_destination_is_info_and_valid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", "--json", str(PUB / "recipient-bound-mac.json"))
    assert code == 3  # INTACT: the words say the MAC was not checked, and so does the code
    [result] = json.loads(out)
    assert result["trust"] == "unchecked"
    assert result["verdict"] == "INTACT · MAC NOT CHECKED (no destination keys)"
    # valid as far as checked, but not VALID in words: the MAC was never checked
    assert result["valid"] is True
    assert result["authenticity"]["state"] == "mac-not-checked"
    assert result["authenticity"]["mac"] == "not-checked"
    assert result["authenticity"]["complete"] is False
    assert result["authenticity"]["verdict"] == "INTACT · MAC NOT CHECKED (no destination keys)"
    assert [(f["code"], f["severity"]) for f in result["findings"]] == [
        ("installation_key_unavailable", "info")
    ]


def test_mac_with_destination_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "validate", "--destination", str(DEST), str(PUB / "recipient-bound-mac.json")
    )
    assert code == 0
    assert "VALID · SIGNED by sha256:" in out
    assert out.splitlines()[0].endswith(" (trusted)")
    assert out.splitlines()[1].startswith("  verified | ")


def test_source_signature_refused_without_destination(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(NEG / "source-signature.json"))
    assert code == 1
    assert "source_signature_unverifiable  /authentication/kind" in out


def test_unreadable_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(
        capsys, "validate", str(tmp_path / "missing.json"), str(PUB / "minimal.json")
    )
    assert code == 2
    assert "no such file" in err
    code, _, err = run(capsys, "validate", str(tmp_path))
    assert code == 2
    assert "folder" in err


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["validate"])
    assert exc.value.code == 2
    capsys.readouterr()


def test_bad_destination_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "dest.json"
    bad.write_text('{"installationKeyId": "d", "surprise": true}')
    code, _, err = run(capsys, "validate", "--destination", str(bad), str(PUB / "minimal.json"))
    assert code == 2
    assert "surprise" in err
    assert "Traceback" not in err


def test_ingest_prints_the_golden_receipt(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ingest", "--destination", str(DEST), str(PUB / "full-handoff.json"))
    assert code == 0
    assert json.loads(out) == json.loads((PUB / "full-handoff.receipt.json").read_text())


def test_ingest_writes_atomically_and_never_overwrites(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_path = tmp_path / "r.json"
    code, _, _ = run(
        capsys,
        "ingest",
        "--destination",
        str(DEST),
        "--out",
        str(out_path),
        str(PUB / "minimal.json"),
    )
    assert code == 0
    assert json.loads(out_path.read_text()) == json.loads(
        (PUB / "minimal.receipt.json").read_text()
    )
    out_path.write_text("keep me")
    code, _, err = run(
        capsys,
        "ingest",
        "--destination",
        str(DEST),
        "--out",
        str(out_path),
        str(PUB / "minimal.json"),
    )
    assert code == 2
    assert "already exists" in err
    assert out_path.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_ingest_refused_prints_findings_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "ingest", "--json", "--destination", str(DEST), str(NEG / "mac-invalid.json")
    )
    assert code == 1
    [result] = json.loads(out)
    assert result["valid"] is False
    assert [f["code"] for f in result["findings"]] == ["mac_invalid"]


def test_ingest_into_read_only_folder_fails_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if os.geteuid() == 0:
        # root ignores permission bits; a path under a regular file cannot be created by anyone.
        target = tmp_path / "file" / "r.json"
        (tmp_path / "file").write_text("")
    else:
        (tmp_path / "ro").mkdir()
        (tmp_path / "ro").chmod(0o500)
        target = tmp_path / "ro" / "r.json"
    code, _, err = run(
        capsys,
        "ingest",
        "--destination",
        str(DEST),
        "--out",
        str(target),
        str(PUB / "minimal.json"),
    )
    assert code == 2
    assert "cannot write" in err
    assert not target.exists()


def test_canonicalize_any_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "x.json"
    src.write_bytes(b'{"b": [1.0, -0, 1E2, 0.000001, 1e-7], "a": "\\u00e9\\u2028/"}')
    code = main(["canonicalize", str(src)])
    out, err = capsys.readouterr()
    assert code == 0
    assert err == ""
    assert out == '{"a":"é\u2028/","b":[1,0,100,0.000001,1e-7]}'


def test_canonicalize_refusal_code_on_stderr(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "dup.json"
    src.write_bytes(b'{"a": 1, "a": 2}')
    code = main(["canonicalize", str(src)])
    out, err = capfd.readouterr()
    assert code == 1
    assert out == ""
    assert err.startswith("duplicate_key")


def test_keygen_seal_validate_round_trip(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    signing, src_key, dst_key = tmp_path / "sign.json", tmp_path / "src.json", tmp_path / "dst.json"
    public = tmp_path / "sign.pub.json"
    assert run(capsys, "keygen", "--out", str(signing), "--public-out", str(public))[0] == 0
    assert (
        run(capsys, "keygen", "--installation-key-id", "src-golden-01", "--out", str(src_key))[0]
        == 0
    )
    assert run(capsys, "keygen", "--installation-key-id", "dest-x", "--out", str(dst_key))[0] == 0
    assert "seed" not in json.loads(public.read_text())
    draft = g.bound(g.handoff("cli"), "dest-x")
    (tmp_path / "draft.json").write_text(json.dumps(draft))
    sealed = tmp_path / "sealed.json"
    code, _, err = run(
        capsys,
        "seal",
        str(tmp_path / "draft.json"),
        "--kind",
        "recipient-bound-mac",
        "--signing-key",
        str(signing),
        "--source-installation-key",
        str(src_key),
        "--destination-installation-key",
        str(dst_key),
        "--out",
        str(sealed),
    )
    assert code == 0, err
    keys = {p: json.loads(p.read_text()) for p in (signing, src_key, dst_key)}
    destination = {
        "installationKeyId": "dest-x",
        "installationKey": keys[dst_key]["key"],
        "sourceInstallationKeys": {"src-golden-01": keys[src_key]["key"]},
        "trustedKeys": [keys[signing]["publicKey"]],
    }
    (tmp_path / "d.json").write_text(json.dumps(destination))
    code, out, _ = run(capsys, "validate", "--destination", str(tmp_path / "d.json"), str(sealed))
    assert code == 0, out
    assert "VALID · SIGNED by sha256:" in out
    assert out.splitlines()[0].endswith(" (trusted)")
    # keygen never overwrites a key
    assert run(capsys, "keygen", "--out", str(signing))[0] == 2


def test_seal_mac_needs_keys(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "draft.json").write_text(json.dumps(g.handoff("x")))
    code, _, err = run(capsys, "seal", str(tmp_path / "draft.json"), "--kind", "source-signature")
    assert code == 2
    assert "needs a signing key" in err


def test_receipt_verify(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    key = tmp_path / "k.json"
    key.write_text(
        json.dumps(
            {"kind": "ed25519", "publicKey": b64u_encode(ed25519_public_key(g.RECEIPT_SEED))}
        )
    )
    receipt = PUB / "full-handoff.receipt.json"
    code, out, _ = run(capsys, "receipt", "verify", str(receipt), "--key", str(key))
    assert code == 0
    assert "signature verified" in out
    changed = json.loads(receipt.read_text())
    changed["importedAt"] = "2030-01-01T00:00:00Z"
    (tmp_path / "r.json").write_text(json.dumps(changed))
    code, out, _ = run(
        capsys, "receipt", "verify", "--json", str(tmp_path / "r.json"), "--key", str(key)
    )
    assert code == 1
    result = json.loads(out)
    assert result["valid"] is False
    assert result["findings"][0]["pointer"] == "/receiptDigest"


def test_check_goldens_default_and_failure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "check-goldens")
    assert code == 0
    assert out.strip().splitlines()[-1].endswith(" 0 failed")
    copy = tmp_path / "goldens"
    shutil.copytree(GOLDENS, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    packet = json.loads((copy / "publication" / "minimal.json").read_text())
    packet["extensions"] = {"x-zephr-internal": True}
    (copy / "publication" / "minimal.json").write_text(json.dumps(packet))
    code, out, _ = run(capsys, "check-goldens", str(copy))
    assert code == 1
    assert "contains the key 'x-zephr-internal'" in out


def test_fifo_is_refused_without_blocking(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "validate", str(fifo))
    assert code == 2
    assert "not a regular file" in err


def test_closed_stdout_gives_no_traceback() -> None:
    exe = Path(sys.executable).with_name("zcf-inspector")
    many = [str(PUB / "full-handoff.json")] * 200
    proc = subprocess.Popen(
        [str(exe), "validate", "--json", *many], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()  # like `| head -c 10`
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err
    assert err == ""


def test_mistyped_command_is_a_usage_error_with_a_suggestion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "valdate", str(PUB / "minimal.json"))
    assert code == 2
    assert out == ""
    assert "'valdate' is neither a command nor a file; did you mean 'validate'?" in err
    code, _, err = run(capsys, "chek-goldens")
    assert code == 2
    assert "did you mean 'check-goldens'?" in err


def test_only_existing_files_open_the_window(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, str(PUB / "minimal.json"), str(tmp_path / "gone.json"))
    assert code == 2
    assert f"no such file: '{tmp_path / 'gone.json'}'" in err
    code, _, err = run(capsys, "gui", str(tmp_path / "gone.json"))
    assert code == 2
    assert "no such file" in err
    code, _, err = run(capsys, str(tmp_path))  # a folder is not a document either
    assert code == 2
    assert f"'{tmp_path}' is a folder, not a file" in err


def test_qt_options_reach_qt_and_files_reach_the_window(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from zcf_inspector.gui import app

    opened: list[tuple[list[str], list[str]]] = []
    restores: list[bool] = []

    def run_app(files: list[str], qt_arguments: list[str], *, restore: bool = True) -> int:
        opened.append((list(files), list(qt_arguments)))
        restores.append(restore)
        return 0

    monkeypatch.setattr(app, "run_app", run_app)
    packet = str(PUB / "minimal.json")
    assert main(["-style", "Fusion", packet, "-reverse", "-platform=offscreen"]) == 0
    assert main(["gui", "-style", "Fusion", packet]) == 0
    # issue 31: --no-restore, bare or after gui, keeps the last session closed
    assert main(["--no-restore"]) == 0
    assert main(["gui", "--no-restore"]) == 0
    assert opened == [
        ([packet], ["-style", "Fusion", "-reverse", "-platform=offscreen"]),
        ([packet], ["-style", "Fusion"]),
        ([], []),
        ([], []),
    ]
    assert restores == [True, True, False, False]
    assert capsys.readouterr().err == ""


def test_qt_options_are_not_ours(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # -style and its value go to Qt: what is left is judged as usual (here a missing file),
    # not refused by our parser as an unknown option.
    code, _, err = run(capsys, "-style", "Fusion", str(tmp_path / "gone.json"))
    assert code == 2
    assert "no such file" in err
    assert "unrecognized arguments" not in err


def modules_loaded_by(argv: list[str], prefixes: tuple[str, ...]) -> tuple[str, list[str]]:
    """Run ``main(argv)`` in a fresh interpreter: its stdout, and which of the modules
    starting with ``prefixes`` it had imported by the end."""
    probe = (
        "import sys\n"
        "from zcf_inspector.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"sys.stderr.write(repr(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, ast.literal_eval(proc.stderr)


def test_help_imports_no_command_module_no_model_and_no_qt() -> None:
    out, loaded = modules_loaded_by(
        ["--help"],
        (
            "pydantic",
            "PySide6",
            "cryptography",
            "zcf_inspector.core.packet",
            "zcf_inspector.core.continuation",
        ),
    )
    assert loaded == []
    assert "validate" in out


def test_validating_an_unsigned_packet_loads_no_crypto_and_no_destination_model() -> None:
    # Start-up time (issue 14): cryptography is loaded where a key is used, the destination
    # file's model only when a destination is given, and a section's validator on first use.
    probe = (
        "import sys\n"
        "from zcf_inspector.cli import main\n"
        f"code = main(['validate', {str(PUB / 'minimal.json')!r}])\n"
        "from zcf_inspector.core.bounded_validation import built as done\n"
        "from zcf_inspector.core.packet import structure_models as m\n"
        "built = sorted(k for k, t in m.ENVELOPE_TYPES.items() if done(t))\n"
        "unused = done(m.ARRAY_SECTIONS['beliefs'].list_type)\n"
        "loaded = sorted(x for x in sys.modules if x.startswith(('cryptography',"
        " 'zcf_inspector.core.packet.destination_file', 'difflib')))\n"
        "sys.stderr.write(repr((loaded, built, unused)))\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    # minimal.json has no scopeProof and an empty beliefs array: neither validator is built.
    built = ["manifest", "omissionManifest", "packet", "redactionManifest", "retention", "source"]
    assert proc.stderr == repr(([], built, False))


def test_a_command_imports_only_its_own_module() -> None:
    out, loaded = modules_loaded_by(
        ["validate", str(PUB / "minimal.json")],
        ("PySide6", "zcf_inspector.core.continuation", "zcf_inspector.cli.plan"),
    )
    assert loaded == []
    assert ": VALID · UNSIGNED" in out


def test_validate_loads_pydantic_core_but_not_pydantic() -> None:
    # Start-up time (issue 14): the packet's schemas are compiled for pydantic-core
    # directly (core/core_schemas.py); importing pydantic cost more than a small packet's
    # whole check.
    for packet in ("minimal.json", "full-handoff.json", "scope-proof.json"):
        out, loaded = modules_loaded_by(["validate", str(PUB / packet)], ("pydantic.",))
        assert loaded == []
        assert ": VALID" in out


def test_keygen_writes_both_files_or_neither(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    private = tmp_path / "signer.json"
    # The public half cannot be written (no such folder): the private one is taken back.
    code, _, err = run(
        capsys, "keygen", "--out", str(private), "--public-out", str(tmp_path / "no" / "p.json")
    )
    assert code == 2
    assert "removed again" in err
    assert list(tmp_path.iterdir()) == []
    # The public file exists already: nothing is written at all.
    taken = tmp_path / "taken.pub.json"
    taken.write_bytes(b"theirs")
    assert run(capsys, "keygen", "--out", str(private), "--public-out", str(taken))[0] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.pub.json"]
    assert taken.read_bytes() == b"theirs"
    # The same file twice is a usage error before anything is written.
    assert run(capsys, "keygen", "--out", str(private), "--public-out", str(private))[0] == 2
    assert not private.exists()
    # Seed on stdout: the public file is written first, so a failure prints no seed.
    code, out, _ = run(capsys, "keygen", "--public-out", str(taken))
    assert (code, out) == (2, "")
    code, out, _ = run(capsys, "keygen", "--public-out", str(tmp_path / "p.json"))
    assert code == 0
    assert "seed" in json.loads(out)
    assert "seed" not in json.loads((tmp_path / "p.json").read_text())
    assert run(capsys, "keygen", "--out", str(private), "--public-out", str(tmp_path / "q"))[0] == 0
    assert (private.stat().st_mode & 0o777, (tmp_path / "q").stat().st_mode & 0o777) == (
        0o600,
        0o600,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["keygen"],
        ["keygen", "--installation-key-id", "inst-x"],
        ["keygen", "--public-of", str(GOLDENS / "destination.json")],
        ["seal", str(PUB / "minimal.json")],
    ],
    ids=["keygen", "keygen-installation", "keygen-public-of", "seal"],
)
def test_force_exists_where_it_is_advised(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    # Issue 19: seal and keygen advised "use --force to replace it" and had no --force.
    out = tmp_path / "out.json"
    out.write_bytes(b"old")
    code, _, err = run(capsys, *argv, "--out", str(out))
    assert code == 2
    assert "use --force to replace it" in err
    assert out.read_bytes() == b"old"
    code, _, err = run(capsys, *argv, "--out", str(out), "--force")
    assert code == 0, err
    assert json.loads(out.read_bytes())
    assert (out.stat().st_mode & 0o777) == 0o600


def test_keygen_force_replaces_both_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    private, public = tmp_path / "k.json", tmp_path / "k.pub.json"
    private.write_bytes(b"old")
    public.write_bytes(b"old")
    assert run(capsys, "keygen", "--out", str(private), "--public-out", str(public))[0] == 2
    code = run(capsys, "keygen", "--out", str(private), "--public-out", str(public), "--force")
    assert code[0] == 0
    assert (
        json.loads(private.read_bytes())["publicKey"]
        == json.loads(public.read_bytes())["publicKey"]
    )
