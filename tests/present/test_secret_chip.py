"""Issue 20, point 4: what the secret scan flagged is said on the admission chip, in the
presentation layer's words (the only place verdict words are chosen) — how many
suspected credentials, never one of them — and it never changes validity or trust."""

from __future__ import annotations

from goldens import generate as g
from tests.core.helpers import to_bytes
from zcf_inspector.core.packet.admission import AdmissionNotice
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.secrets.scan import masked_text, scan_packet
from zcf_inspector.present import packet
from zcf_inspector.present.vocabulary import CheckStatus

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
GITHUB_TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


def planted() -> bytes:
    value = g.handoff("secret-chip")
    value["content"]["beliefs"] = [
        g.belief("b-1", f"the deploy key is {AWS_KEY}"),
        g.belief("b-2", f"use {GITHUB_TOKEN} for the API"),
        g.belief("b-3", "nothing to hide here"),
    ]
    return to_bytes(g.unsigned(value))


def test_the_admission_chip_counts_the_flagged_credentials_and_shows_none() -> None:
    inspection = inspect_bytes(planted())
    assert inspection.value is not None
    scan = scan_packet(inspection.value)
    assert len(scan.hits) == 2
    plain = packet.verdict(inspection)
    flagged = packet.verdict(inspection, None, scan)
    assert [c.check for c in plain.rows] == [c.check for c in flagged.rows][:-1]
    chip = flagged.rows[-1]
    assert chip.check == packet.ADMISSION_CHECK
    assert chip.state is CheckStatus.CHANGED
    assert chip.summary == "2 suspected credentials flagged (values hidden)"
    assert chip.pointer == "/content/beliefs/0/content"
    assert "secret_suspected" in chip.detail
    for text in (chip.summary, chip.detail, flagged.checks_line()):
        assert AWS_KEY not in text
        assert GITHUB_TOKEN[4:] not in text
    # A warning beside the verdict: the packet's words and trust are what they were.
    assert (flagged.words, flagged.trust) == (plain.words, plain.trust)


def test_with_an_admission_the_one_chip_says_both() -> None:
    inspection = inspect_bytes(planted())
    assert inspection.value is not None
    scan = scan_packet(inspection.value)
    notice = AdmissionNotice("the 3 beliefs admitted", ("every belief admitted",), False)
    chip = packet.verdict(inspection, notice, scan).rows[-1]
    assert chip.summary == (
        "the 3 beliefs admitted; 2 suspected credentials flagged (values hidden)"
    )
    assert chip.state is CheckStatus.CHANGED  # passed, but look before admitting
    assert chip.detail.startswith("every belief admitted\n\n")
    # Nothing flagged: the admission chip is the admission's alone.
    clean = scan_packet({"content": {"beliefs": [g.belief("b", "plain words")]}})
    assert packet.admission_row(notice, clean).summary == "the 3 beliefs admitted"
    assert packet.admission_row(notice, clean).state is CheckStatus.PASS
    assert [c.check for c in packet.verdict(inspection, None, clean).rows][-1] == "policy"


def test_a_flagged_text_is_masked_by_the_one_rule() -> None:
    scan = scan_packet({"content": {"beliefs": [g.belief("b", f"key {AWS_KEY} and more")]}})
    (hit,) = scan.hits
    text = f"key {AWS_KEY} and more"
    assert masked_text(text, scan.by_pointer()[hit.pointer]) == (
        "key AKIA…(20 characters, hidden) and more"
    )
