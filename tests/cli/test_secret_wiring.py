"""The secret scan and the workspace check on `validate`, `ingest` and `review` (issue 20):
warnings at the belief's pointer, values masked, verdicts, exit codes and receipts unchanged.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination, to_bytes
from tests.core.test_secret_scan import AWS_KEY, PEM
from zcf_inspector.cli import exitcodes, main
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import receipt_bytes

DEST = GOLDENS / "destination.json"
GOLDEN_PACKETS = sorted((GOLDENS / "publication").glob("*.json"))
GOLDEN_PACKETS = [p for p in GOLDEN_PACKETS if not p.name.endswith(".receipt.json")]
PEM_BODY = PEM.split("\n")[1]  # the part of the block that must never be printed
BELIEF = "/content/beliefs/0/content"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def planted(tmp_path: Path, text: str) -> Path:
    packet = g.handoff("wire-secret")
    packet["content"]["beliefs"] = [g.belief("b-1", text)]
    path = tmp_path / "p.json"
    path.write_bytes(to_bytes(g.unsigned(packet)))
    return path


def no_raw(*texts: str) -> None:
    for text in texts:
        assert AWS_KEY not in text
        assert PEM_BODY not in text


def secret_findings(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in result["findings"] if f["code"] == "secret_suspected"]


@pytest.mark.parametrize("secret", [f"uses {AWS_KEY} daily", f"the key:\n{PEM}\n"])
def test_validate_reports_the_secret_at_the_belief_and_never_its_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], secret: str
) -> None:
    path = planted(tmp_path, secret)
    code, out, err = run(capsys, "validate", str(path))
    assert code == exitcodes.OK  # a warning: the verdict and its exit code are unchanged
    no_raw(out, err)
    assert f"warning secret_suspected  {BELIEF}\n      looks like " in out
    code, out, _ = run(capsys, "validate", str(path), "--json")
    assert code == exitcodes.OK
    no_raw(out)
    (result,) = json.loads(out)
    assert result["valid"] is True
    assert result["trust"] == "unsigned"
    (hit,) = secret_findings(result)
    assert hit["pointer"] == BELIEF
    assert hit["severity"] == "warning"
    assert "the value is not shown here" in hit["message"]


def test_the_verdict_of_a_planted_packet_is_that_of_the_clean_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean_dir, dirty_dir = tmp_path / "clean", tmp_path / "dirty"
    clean_dir.mkdir()
    dirty_dir.mkdir()
    clean = planted(clean_dir, "uses a plain word daily")
    dirty = planted(dirty_dir, f"uses {AWS_KEY} daily")
    _, out_clean, _ = run(capsys, "validate", str(clean), "--json")
    _, out_dirty, _ = run(capsys, "validate", str(dirty), "--json")
    a, b = json.loads(out_clean)[0], json.loads(out_dirty)[0]
    for key in ("valid", "verdict", "trust", "notChecked"):
        assert a[key] == b[key], key
    # The digests differ, the words do not; the admission chip says what the scan flagged,
    # as the window's header does (one verdict for every front end).
    assert [(c["check"], c["status"]) for c in a["checks"]] + [("admission", "changed")] == [
        (c["check"], c["status"]) for c in b["checks"]
    ]
    assert b["checks"][-1]["summary"] == "1 suspected credential flagged (values hidden)"
    assert secret_findings(a) == []
    assert len(secret_findings(b)) == 1


def test_ingest_reports_the_secret_on_stderr_and_the_receipt_is_the_cores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = planted(tmp_path, f"uses {AWS_KEY} daily")
    code, out, err = run(capsys, "ingest", str(path), "--destination", str(DEST))
    assert code == exitcodes.OK
    no_raw(out, err)
    assert f"warning secret_suspected  {BELIEF}" in err
    # The receipt records nothing of the scan: the bytes the core makes without it.
    expected = ingest_bytes(path.read_bytes(), destination()).receipt
    assert expected is not None
    assert out.encode("utf-8") == receipt_bytes(expected)
    assert "secret_suspected" not in out


def test_a_refused_packet_lists_the_secret_with_its_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packet = g.handoff("wire-refused")
    packet["content"]["beliefs"] = [g.belief("b-1", f"uses {AWS_KEY} daily")]
    sealed = g.unsigned(packet)
    sealed["content"]["capsule"]["objective"] = "changed after sealing"  # the root no longer holds
    path = tmp_path / "p.json"
    path.write_bytes(to_bytes(sealed))
    for command in (["ingest"], ["review", "--reviewer", "carol", "--decisions", str(path)]):
        code, out, err = run(capsys, *command, str(path), "--destination", str(DEST))
        assert code == exitcodes.REFUSED, command
        no_raw(out, err)
        assert f"warning secret_suspected  {BELIEF}" in out
        code, out, _ = run(capsys, *command, str(path), "--destination", str(DEST), "--json")
        assert code == exitcodes.REFUSED
        no_raw(out)
        (result,) = json.loads(out)
        assert [f["pointer"] for f in secret_findings(result)] == [BELIEF]


def test_review_reports_the_secret_and_writes_the_same_receipt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = planted(tmp_path, f"the key:\n{PEM}\n")
    decisions = tmp_path / "decisions.json"
    decisions.write_text(json.dumps([{"portableRef": "b-1", "state": "confirmed"}]))
    argv = ["review", str(path), "--destination", str(DEST), "--reviewer", "carol"]
    argv += ["--decisions", str(decisions)]
    code, out, err = run(capsys, *argv)
    assert code == exitcodes.OK
    no_raw(out, err)
    assert f"warning secret_suspected  {BELIEF}" in err
    receipt = json.loads(out)
    assert receipt["review"]["decisions"][0]["portableRef"] == "b-1"
    assert "secret_suspected" not in out
    code, out_json, err = run(capsys, *argv, "--json")
    assert code == exitcodes.OK
    assert out_json == out  # --json changes refusals only; the receipt is the same bytes
    assert f"warning secret_suspected  {BELIEF}" in err


@pytest.mark.parametrize("packet", GOLDEN_PACKETS, ids=lambda p: p.stem)
def test_no_golden_has_a_suspected_secret(packet: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "validate", str(packet), "--json")
    assert secret_findings(json.loads(out)[0]) == []
    _, out, _ = run(capsys, "validate", str(packet))
    assert "secret_suspected" not in out


def test_validate_with_a_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "same.py").write_bytes(b"x = 1\n")
    (root / "other.py").write_bytes(b"y = 2\n")
    same = "sha256:" + hashlib.sha256(b"x = 1\n").hexdigest()
    packet = g.handoff("wire-ws")
    c = packet["content"]
    c["beliefs"] = [g.belief("b-1", "same"), g.belief("b-2", "other")]
    c["evidenceSources"] = [
        {"id": "s-1", "kind": "local", "locator": "same.py", "digest": same},
        {"id": "s-2", "kind": "local", "locator": "other.py", "digest": "sha256:" + "0" * 64},
    ]
    c["evidenceAnchors"] = [
        {"id": "a-1", "beliefRef": "b-1", "sourceRef": "s-1"},
        {"id": "a-2", "beliefRef": "b-2", "sourceRef": "s-2"},
    ]
    path = tmp_path / "p.json"
    path.write_bytes(to_bytes(g.unsigned(packet)))
    code, out, _ = run(capsys, "validate", str(path), "--workspace", str(root))
    assert code == exitcodes.OK  # a mismatch is a warning
    assert "claims vs workspace: 1 matches, 1 differs" in out
    assert "evidence source s-2 (other.py): differs" in out
    assert "/content/evidenceSources/1" in out
    assert "evidence source s-1" not in out  # only what does not match is listed
    code, out, _ = run(capsys, "validate", str(path), "--workspace", str(root), "--json")
    assert code == exitcodes.OK
    (result,) = json.loads(out)
    assert [s["status"] for s in result["workspace"]["sources"]] == ["matches", "differs"]
    assert result["valid"] is True
    code, out, _ = run(capsys, "validate", str(path), "--json")
    assert "workspace" not in json.loads(out)[0]  # not asked, not there


def test_a_workspace_that_is_not_a_folder_is_a_usage_error_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing_packet = str(tmp_path / "missing.json")  # never read: the folder is checked first
    for argv in (
        ["validate", missing_packet],
        ["review", missing_packet, "--destination", str(DEST), "--reviewer", "c"],
    ):
        extra = ["--decisions", missing_packet] if argv[0] == "review" else []
        code, _, err = run(capsys, *argv, *extra, "--workspace", str(tmp_path / "none"))
        assert code == exitcodes.USAGE, argv
        assert "is not a folder" in err
        assert "missing.json" not in err


def test_review_with_a_workspace_reports_on_stderr_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = planted(tmp_path, "plain")
    decisions = tmp_path / "decisions.json"
    decisions.write_text("[]")
    argv = ["review", str(path), "--destination", str(DEST), "--reviewer", "carol"]
    argv += ["--decisions", str(decisions)]
    code, plain, _ = run(capsys, *argv)
    assert code == exitcodes.OK
    code, out, err = run(capsys, *argv, "--workspace", str(tmp_path))
    assert code == exitcodes.OK
    assert out == plain  # the receipt is the same bytes
    assert "claims vs workspace:" in err
