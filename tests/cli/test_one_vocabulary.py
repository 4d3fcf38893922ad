"""Issue 18, "words drift between front ends": every command says a packet, a receipt and an
ASIF session in the same words (VALID / INTACT / REFUSED, the report's outcome first), with
the trust level beside them in --json, and exits with a code that matches the words."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, REPO
from zcf_inspector import api
from zcf_inspector.cli import exitcodes, main

PUB = REPO / "goldens" / "publication"
NEG = REPO / "goldens" / "negative"
DEST = REPO / "goldens" / "destination.json"
RECEIPT = PUB / "full-handoff.receipt.json"
CLOCK = "2026-09-26T12:30:00Z"
UNCHECKED_MAC = "INTACT · MAC NOT CHECKED (no destination keys)"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(argv))
    return code, capsys.readouterr().out


def example(name: str) -> str:
    return str(EXAMPLES / name)


@pytest.mark.parametrize("name", ["recipient-bound-mac", "mac-invalid"])
def test_diff_says_a_side_as_validate_does_even_for_a_wrong_mac(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    folder = PUB if name == "recipient-bound-mac" else NEG
    packet = str(folder / f"{name}.json")
    code, validated = run(capsys, "validate", packet)
    assert code == exitcodes.UNCHECKED
    assert validated.splitlines()[0] == f"{packet}: {UNCHECKED_MAC}"
    code, out = run(capsys, "diff", packet, packet)
    assert code == exitcodes.OK  # identical: diff keeps 0/1/2
    assert out.splitlines()[:2] == [
        f"A: {packet} — {UNCHECKED_MAC}",
        f"B: {packet} — {UNCHECKED_MAC}",
    ]
    assert "valid — " not in out
    code, out = run(capsys, "diff", "--json", packet, packet)
    side = json.loads(out)["a"]
    assert (side["verdict"], side["trust"]) == (UNCHECKED_MAC, "unchecked")
    assert side["valid"] is True  # the core's fact is kept beside the words


def test_diff_of_a_packet_refused_later_says_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "diff", str(PUB / "minimal.json"), str(NEG / "tampered-capsule.json"))
    assert code == 1
    assert out.splitlines()[1].endswith(" — REFUSED at manifest (compared as far as it reads)")


def test_receipt_verify_without_a_key_is_intact_and_not_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "receipt", "verify", str(RECEIPT))
    assert code == exitcodes.UNCHECKED == 3
    assert out.splitlines()[0] == f"{RECEIPT}: INTACT RECEIPT · SIGNATURE NOT CHECKED (no key)"
    assert "valid digest" not in out
    code, out = run(capsys, "receipt", "verify", "--json", str(RECEIPT))
    doc = json.loads(out)
    assert code == exitcodes.UNCHECKED
    assert (doc["verdict"], doc["trust"]) == (
        "INTACT RECEIPT · SIGNATURE NOT CHECKED (no key)",
        "unchecked",
    )
    assert doc["digestOnly"] is False


def test_receipt_verify_digest_only_is_an_explicit_choice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, "receipt", "verify", "--digest-only", str(RECEIPT))
    assert code == exitcodes.OK
    # exit 0 says what was asked for; the words still say the signature was not checked
    assert out.splitlines()[0].endswith("INTACT RECEIPT · SIGNATURE NOT CHECKED (no key)")
    with pytest.raises(SystemExit) as usage:
        main(["receipt", "verify", "--digest-only", "--destination", str(DEST), str(RECEIPT)])
    assert usage.value.code == exitcodes.USAGE
    code, _ = run(capsys, "receipt", "verify", "--destination", str(DEST), str(RECEIPT))
    assert code == exitcodes.OK


def test_a_tampered_receipt_is_refused_in_the_shared_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    receipt = json.loads(RECEIPT.read_bytes())
    receipt["packetId"] = "pkt-other"  # changed after it was made: the digest no longer holds
    forged = tmp_path / "forged.receipt.json"
    forged.write_text(json.dumps(receipt))
    code, out = run(capsys, "receipt", "verify", str(forged))
    assert code == exitcodes.REFUSED
    assert out.splitlines()[0] == f"{forged}: REFUSED RECEIPT at receipt digest"


def test_a_blocked_plan_leads_with_blocked_not_ok(capsys: pytest.CaptureFixture[str]) -> None:
    session = example("action-specific.session.json")
    report = example("action-specific-model_request.report.json")
    code, out = run(capsys, "plan", session, "--report", report, "--now", CLOCK)
    lines = out.splitlines()
    assert lines[0] == f"{session}: BLOCKED (5 blockers) · ASIF-SESSION VALID"
    assert lines[1].startswith("  refused | ")
    assert lines[1].endswith("| report assessment-model_request: fail · blocked (5 blockers)")
    assert ": ok" not in out
    assert code == exitcodes.REFUSED  # a script must not read BLOCKED as "go"


def test_an_expired_report_says_expired_in_the_cli_as_in_the_window(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(
        capsys,
        "plan",
        example("another-computer.session.json"),
        "--report",
        example("another-computer.report.json"),
        "--now",
        "2026-09-27T12:00:00Z",
    )
    assert code == exitcodes.REFUSED
    assert out.splitlines()[0].endswith(": EXPIRED at 2026-09-26 13:00Z · ASIF-SESSION VALID")
    assert "INVALID" not in out.splitlines()[0]


def test_plan_outcomes_and_their_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    cases = {
        "another-computer": ("READY · ASIF-SESSION VALID", "verified", exitcodes.OK),
        "another-agent": ("ADAPTATION REQUIRED · ASIF-SESSION VALID", "unchecked", 3),
        "pending-remote-operation": ("BLOCKED (2 blockers) · ASIF-SESSION VALID", "refused", 1),
    }
    for stem, (words, trust, exit_code) in cases.items():
        argv = ["plan", "--json", example(f"{stem}.session.json")]
        argv += ["--report", example(f"{stem}.report.json"), "--now", CLOCK]
        code, out = run(capsys, *argv)
        doc = json.loads(out)
        assert (doc["verdict"], doc["trust"], code) == (words, trust, exit_code), stem
    code, out = run(capsys, "plan", "--json", example("another-computer.session.json"))
    doc = json.loads(out)
    assert (doc["verdict"], doc["trust"], code) == (
        "ASIF-SESSION VALID · NOT ASSESSED (no report)",
        "unsigned",
        exitcodes.OK,
    )


def test_every_json_result_carries_its_trust_level(capsys: pytest.CaptureFixture[str]) -> None:
    levels = {"verified", "unsigned", "unchecked", "refused"}
    _, out = run(capsys, "validate", "--json", str(PUB / "minimal.json"), str(NEG / "bom.json"))
    assert [r["trust"] for r in json.loads(out)] == ["unsigned", "refused"]
    _, out = run(capsys, "ingest", "--json", "--destination", str(DEST), str(NEG / "bom.json"))
    assert json.loads(out)[0]["trust"] == "refused"
    for argv in (
        ["receipt", "verify", "--json", str(RECEIPT)],
        ["plan", "--json", example("another-agent.report.json")],
    ):
        _, out = run(capsys, *argv)
        assert json.loads(out)["trust"] in levels


ASIF_05 = Path(__file__).parents[1] / "data" / "asif-0.5" / "examples" / "continuation"


def test_an_expired_asif_05_report_is_headed_expired_in_every_front_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 34: an ASIF 0.5 report past its expiry (its snapshot expiring with it) was
    headed ``REFUSED: snapshot_expired``; the docs say ``EXPIRED at …``, as for 0.4."""
    session = str(ASIF_05 / "another-computer.session.json")
    report = str(ASIF_05 / "another-computer.report.json")
    clock = "2026-09-27T12:00:00Z"
    expected = "EXPIRED at 2026-09-26 13:00Z · ASIF-SESSION VALID"
    code, out = run(capsys, "plan", session, "--report", report, "--now", clock)
    assert code == exitcodes.REFUSED  # expired is still not to be relied on
    assert out.splitlines()[0].endswith(f": {expected}")
    assert "snapshot asif.destination-capabilities/0.1 (supplied)" in out  # 0.5 indeed
    code, out = run(capsys, "plan", session, "--report", report, "--now", clock, "--json")
    data = json.loads(out)
    assert (data["verdict"], data["trust"]) == (expected, "refused")
    checked = api.inspect_continuation(
        ASIF_05 / "another-computer.session.json",
        report=ASIF_05 / "another-computer.report.json",
        now=datetime(2026, 9, 27, 12, tzinfo=UTC),
    )
    assert api.verdict(checked).words == expected
