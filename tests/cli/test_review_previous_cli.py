"""`zcf-inspector review --previous … --previous-receipt … --repeat-unchanged`: the carry-over
headless, as the window does it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from tests.core.generations import earlier_receipt, write_generations
from tests.core.helpers import GOLDENS, destination
from tests.present.test_fixed_clock import FIXED_NOTE
from zcf_inspector.cli import main
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.packet.receipt import (
    ReceiptStatus,
    finish_receipt,
    receipt_bytes,
    verify_receipt,
)

DEST = GOLDENS / "destination.json"
KEY = ed25519_public_key(g.RECEIPT_SEED)
NOTE = "read the gen2 diff"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def review(capsys: pytest.CaptureFixture[str], folder: Path, *extra: str) -> tuple[int, str, str]:
    return run(
        capsys,
        "review",
        str(folder / "gen2.json"),
        "--destination",
        str(DEST),
        "--reviewer",
        "carol",
        *extra,
    )


def previous_args(folder: Path, receipt: str = "gen1.receipt.json") -> list[str]:
    return ["--previous", str(folder / "gen1.json"), "--previous-receipt", str(folder / receipt)]


def repeat_args(folder: Path) -> list[str]:
    return [*previous_args(folder), "--repeat-unchanged", "--repeat-note", NOTE]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_generations(tmp_path)
    return tmp_path


def test_repeat_unchanged_writes_them_as_this_reviewers_decisions(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    out = folder / "gen2.receipt.json"
    code, stdout, err = review(capsys, folder, *repeat_args(folder), "--out", str(out))
    assert (code, stdout) == (0, "")
    digest = earlier_receipt()["receiptDigest"]
    assert err == (
        f"previous generation: {folder / 'gen1.json'} (packet pkt-stream-gen1), receipt "
        f"{folder / 'gen1.receipt.json'}\n"
        f"  receipt {digest}: digest recomputed, signature verified under this "
        "destination's key\n"
        f"  admitted at {g.NOW}; now 1 new, 2 changed, 5 unchanged, 1 no longer admitted\n"
        "  3 earlier decisions on unchanged beliefs can be repeated\n"
        "  not repeated: b-sup2 (superseded): its replacement 'b-edit' is changed since "
        "that receipt\n"
        "repeated 3 earlier decisions as carol\n"
        f"receipt written to {out}\n"
        + FIXED_NOTE  # the destination's test clock stamped it (issue 34)
    )
    receipt = json.loads(out.read_bytes())
    assert verify_receipt(receipt, KEY).status is ReceiptStatus.VALID_SIGNED
    decisions = receipt["review"]["decisions"]
    assert [(d["portableRef"], d["state"], d["reviewer"], d["at"]) for d in decisions] == [
        ("b-old", "superseded", "carol", g.NOW),
        ("b-reject", "rejected", "carol", g.NOW),
        ("b-keep", "confirmed", "carol", g.NOW),
    ]
    assert decisions[1]["note"] == (
        f"{NOTE} — repeated from receipt {digest} (packet pkt-stream-gen1; rejected by alice "
        "at 2026-09-30T16:00:00Z): stale: the reader changed"
    )


def test_the_decisions_file_follows_the_carry_over(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    decisions = folder / "decisions.json"
    decisions.write_text(
        json.dumps(
            [
                {"portableRef": "b-new", "state": "confirmed"},
                {"portableRef": "b-keep", "state": "rejected", "note": "on second thought"},
            ]
        )
    )
    code, stdout, _ = review(capsys, folder, *repeat_args(folder), "--decisions", str(decisions))
    assert code == 0
    receipt = json.loads(stdout)
    assert [(d["portableRef"], d["state"]) for d in receipt["review"]["decisions"]] == [
        ("b-old", "superseded"),
        ("b-reject", "rejected"),
        ("b-keep", "confirmed"),
        ("b-new", "confirmed"),
        ("b-keep", "rejected"),
    ]


def test_previous_without_repeat_compares_and_carries_nothing(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    decisions = folder / "decisions.json"
    decisions.write_text(json.dumps([{"portableRef": "b-new", "state": "confirmed"}]))
    code, stdout, err = review(
        capsys, folder, *previous_args(folder), "--decisions", str(decisions)
    )
    assert code == 0
    assert "3 earlier decisions on unchanged beliefs can be repeated (--repeat-unchanged)" in err
    assert "repeated 3" not in err
    receipt = json.loads(stdout)
    assert [d["portableRef"] for d in receipt["review"]["decisions"]] == ["b-new"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--previous", "x.json"], "--previous and --previous-receipt are given together"),
        (["--repeat-unchanged", "--repeat-note", "n"], "--repeat-unchanged needs --previous"),
        (["--repeat-note", "n", "--decisions", "d.json"], "--repeat-note is only used with"),
        ([], "give --decisions, or --repeat-unchanged, or both"),
    ],
)
def test_usage_errors(
    capsys: pytest.CaptureFixture[str], folder: Path, extra: list[str], message: str
) -> None:
    code, stdout, err = review(capsys, folder, *extra)
    assert (code, stdout) == (2, "")
    assert err.startswith("zcf-inspector: ")
    assert message in err


@pytest.mark.parametrize("note", [None, "  "])
def test_repeat_needs_a_note(
    capsys: pytest.CaptureFixture[str], folder: Path, note: str | None
) -> None:
    extra = [*previous_args(folder), "--repeat-unchanged"]
    if note is not None:
        extra += ["--repeat-note", note]
    code, _, err = review(capsys, folder, *extra)
    assert code == 2
    assert "--repeat-unchanged needs --repeat-note TEXT" in err


def test_a_missing_previous_file_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    (folder / "gen1.json").unlink()
    code, stdout, err = review(capsys, folder, *repeat_args(folder))
    assert (code, stdout) == (2, "")
    assert "gen1.json" in err


def tamper(folder: Path) -> None:
    path = folder / "gen1.receipt.json"
    receipt: dict[str, Any] = json.loads(path.read_bytes())
    receipt["review"]["decisions"][4]["state"] = "rejected"  # b-src, confirmed → rejected
    receipt["review"]["decisions"][4]["note"] = "forged"
    path.write_bytes(receipt_bytes(receipt))


def test_a_tampered_receipt_is_refused(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    tamper(folder)
    code, stdout, _ = review(capsys, folder, *repeat_args(folder), "--json")
    assert code == 1
    report = json.loads(stdout)
    assert report["path"] == str(folder / "gen1.receipt.json")
    assert [(f["code"], f["pointer"]) for f in report["findings"]] == [
        ("previous_receipt_invalid", ""),
        ("invalid_value", "/receiptDigest"),
    ]


def test_a_receipt_of_another_packet_is_refused(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    other = folder / "other.receipt.json"
    code, _, _ = run(
        capsys,
        "ingest",
        str(GOLDENS / "publication" / "full-handoff.json"),
        "--destination",
        str(DEST),
        "--out",
        str(other),
    )
    assert code == 0
    code, stdout, _ = review(
        capsys,
        folder,
        *previous_args(folder, "other.receipt.json"),
        "--repeat-unchanged",
        "--repeat-note",
        NOTE,
    )
    assert code == 1
    assert stdout.startswith(f"{other}: refused — no receipt written\n")
    assert "receipt_mismatch  /correlationId" in stdout


def test_a_previous_packet_refused_names_the_packet(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    (folder / "gen1.json").write_bytes(b'{"format": "zephr-continuity"}')
    code, stdout, _ = review(capsys, folder, *repeat_args(folder))
    assert code == 1
    assert stdout.startswith(f"{folder / 'gen1.json'}: refused — no receipt written\n")
    assert "previous_packet_refused" in stdout
    assert destination().signing_key is not None  # the receipt of gen1 was signed


def _unsigned_receipt(folder: Path) -> str:
    path = folder / "gen1.unsigned.receipt.json"
    path.write_bytes(receipt_bytes(finish_receipt(earlier_receipt(), None)))
    return path.name


def test_an_unsigned_previous_receipt_is_not_carried_over(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    # Issue 19, defect 12: anyone can compute an unsigned receipt; its decisions were
    # repeated and then signed with this destination's key.
    out = folder / "gen2.receipt.json"
    args = [*previous_args(folder, _unsigned_receipt(folder)), "--repeat-unchanged"]
    code, stdout, err = review(capsys, folder, *args, "--repeat-note", NOTE, "--out", str(out))
    assert code == 1
    assert "previous_receipt_untrusted" in stdout
    assert "--accept-unsigned-previous" in stdout
    assert "unsigned: nothing proves who made these decisions" in err  # still compared
    assert not out.exists()


def test_accept_unsigned_previous_repeats_them_and_says_so(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    out = folder / "gen2.receipt.json"
    args = [*previous_args(folder, _unsigned_receipt(folder)), "--repeat-unchanged"]
    code, stdout, err = review(
        capsys,
        folder,
        *args,
        "--repeat-note",
        NOTE,
        "--accept-unsigned-previous",
        "--out",
        str(out),
    )
    assert (code, stdout) == (0, "")
    assert "repeated 3 earlier decisions as carol (from an unsigned receipt" in err
    decisions = json.loads(out.read_bytes())["review"]["decisions"]
    assert len(decisions) == 3
    assert all("repeated from an unsigned receipt sha256:" in d["note"] for d in decisions)


def test_accept_unsigned_previous_needs_repeat_unchanged(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    code, _, err = review(
        capsys, folder, *previous_args(folder), "--accept-unsigned-previous", "--decisions", "x"
    )
    assert code == 2
    assert "--accept-unsigned-previous is only used with --repeat-unchanged" in err
