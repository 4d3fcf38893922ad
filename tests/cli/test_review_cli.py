"""`zcf-inspector review`: the headless twin of the review pane."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination, golden_bytes
from tests.present.test_fixed_clock import FIXED_NOTE
from zcf_inspector.cli import main
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import ReceiptStatus, receipt_bytes, verify_receipt
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import ReviewTarget

PUB = GOLDENS / "publication"
DEST = GOLDENS / "destination.json"
KEY = ed25519_public_key(g.RECEIPT_SEED)
DECISIONS = [
    {"portableRef": "b-reader", "state": "confirmed"},
    {"portableRef": "b-order", "state": "rejected", "note": "stale"},
    {"portableRef": "b-bench", "state": "superseded", "note": "newer", "supersededBy": "b-reader"},
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def decisions_file(tmp_path: Path, value: Any) -> str:
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


def review(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    value: Any,
    *extra: str,
    packet: str = "full-handoff",
    dest: Path = DEST,
) -> tuple[int, str, str]:
    return run(
        capsys,
        "review",
        str(PUB / f"{packet}.json"),
        "--destination",
        str(dest),
        "--decisions",
        decisions_file(tmp_path, value),
        "--reviewer",
        "carol",
        *extra,
    )


def test_review_writes_the_signed_receipt(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.json"
    code, stdout, err = review(capsys, tmp_path, DECISIONS, "--out", str(out))
    # The destination's test clock stamped it, and the command says so (issue 34).
    assert (code, stdout, err) == (0, "", f"receipt written to {out}\n" + FIXED_NOTE)
    receipt = json.loads(out.read_bytes())
    assert verify_receipt(receipt, KEY).status is ReceiptStatus.VALID_SIGNED
    assert [d["portableRef"] for d in receipt["review"]["decisions"]] == [
        "b-reader",
        "b-order",
        "b-bench",
    ]
    assert receipt["review"]["decisions"][2] == {
        "portableRef": "b-bench",
        "state": "superseded",
        "reviewer": "carol",
        "at": "2026-10-01T12:00:00Z",
        "note": "newer",
        "supersededBy": "b-reader",
    }
    assert receipt["review"]["completedAt"] == "2026-10-01T12:00:00Z"


def test_stdout_and_file_are_the_same_bytes_as_the_core(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, stdout, _ = review(capsys, tmp_path, DECISIONS)
    assert code == 0
    session = ReviewSession(
        ReviewTarget.from_ingest(ingest_bytes(golden_bytes("full-handoff"), destination()))
    )
    for d in DECISIONS:
        request = DecisionRequest(
            d["portableRef"], d["state"], d.get("note"), d.get("supersededBy")
        )
        session.apply(session.plan([request], "carol", g.NOW))
    assert stdout.encode() == receipt_bytes(session.receipt(g.NOW, g.RECEIPT_SEED))
    again = run(
        capsys,
        "review",
        str(PUB / "full-handoff.json"),
        "--destination",
        str(DEST),
        "--decisions",
        str(tmp_path / "decisions.json"),
        "--reviewer",
        "carol",
    )
    assert again[1] == stdout  # the fixed clock makes runs byte-identical


def test_empty_decisions_give_a_completed_empty_review(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, stdout, _ = review(capsys, tmp_path, [])
    assert code == 0
    assert json.loads(stdout)["review"] == {"decisions": [], "completedAt": g.NOW}


def test_every_refusal_is_listed_with_its_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.json"
    bad = [
        {"portableRef": "b-nowhere", "state": "confirmed"},
        {"portableRef": "b-reader", "state": "approved"},
        {"portableRef": "b-order", "state": "rejected"},
        {"portableRef": "b-bench", "state": "superseded", "note": "x"},
        {"portableRef": "b-bench", "state": "superseded", "note": "x", "supersededBy": "b-bench"},
        {"portableRef": "b-bench", "state": "confirmed", "extra": 1},
        {"portableRef": "b-reader", "state": "confirmed"},
    ]
    code, stdout, _ = review(capsys, tmp_path, bad, "--json", "--out", str(out))
    assert code == 1
    result = json.loads(stdout)
    assert result["refused"] is True
    assert [(f["code"], f["pointer"]) for f in result["findings"]] == [
        ("invalid_decision", "/5/extra"),
        ("unknown_portable_ref", "/0/portableRef"),
        ("illegal_state", "/1/state"),
        ("note_required", "/2/note"),
        ("superseded_by_invalid", "/3/supersededBy"),
        ("superseded_by_invalid", "/4/supersededBy"),
    ]
    assert not out.exists()
    code, stdout, _ = review(capsys, tmp_path, bad)
    assert code == 1
    assert "refused — no receipt written" in stdout
    assert "unknown_portable_ref" in stdout


def test_invalid_reviewer_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, stdout, _ = run(
        capsys,
        "review",
        str(PUB / "full-handoff.json"),
        "--destination",
        str(DEST),
        "--decisions",
        decisions_file(tmp_path, DECISIONS),
        "--reviewer",
        "",
        "--json",
    )
    assert code == 1
    assert [f["code"] for f in json.loads(stdout)["findings"]] == ["invalid_reviewer"]


def test_refused_packet_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, stdout, _ = run(
        capsys,
        "review",
        str(GOLDENS / "negative" / "tampered-capsule.json"),
        "--destination",
        str(DEST),
        "--decisions",
        decisions_file(tmp_path, []),
        "--reviewer",
        "carol",
    )
    assert code == 1
    assert "section_digest_mismatch" in stdout


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = run(
        capsys,
        "review",
        str(PUB / "full-handoff.json"),
        "--destination",
        str(DEST),
        "--decisions",
        str(tmp_path / "none.json"),
        "--reviewer",
        "carol",
    )
    assert missing[0] == 2
    assert "no such file" in missing[2]
    (tmp_path / "bad.json").write_text("[{,]")
    broken = run(
        capsys,
        "review",
        str(PUB / "full-handoff.json"),
        "--destination",
        str(DEST),
        "--decisions",
        str(tmp_path / "bad.json"),
        "--reviewer",
        "carol",
    )
    assert broken[0] == 2
    assert "invalid_json" in broken[2]


def test_never_overwrites_without_force(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    out.write_bytes(b"keep")
    code, _, err = review(capsys, tmp_path, DECISIONS, "--out", str(out))
    assert code == 2
    assert "already exists" in err
    assert out.read_bytes() == b"keep"
    code, _, _ = review(capsys, tmp_path, DECISIONS, "--out", str(out), "--force")
    assert code == 0
    assert verify_receipt(json.loads(out.read_bytes()), KEY).valid


def test_unsigned_without_a_signing_key(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plain = dict(g.DESTINATION)
    del plain["signingKey"]
    dest = tmp_path / "dest.json"
    dest.write_text(json.dumps(plain))
    code, stdout, _ = review(capsys, tmp_path, DECISIONS, dest=dest)
    assert code == 0
    assert verify_receipt(json.loads(stdout)).status is ReceiptStatus.VALID_UNSIGNED
