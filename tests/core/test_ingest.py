from __future__ import annotations

from typing import Any

import pytest

from goldens import generate as g
from tests.core.helpers import destination, golden_bytes, lp, plain_canonical, sha, to_bytes
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.packet.ingest import admit_beliefs, ingest_bytes
from zcf_inspector.core.packet.receipt import ReceiptStatus, verify_receipt


def test_receipt_fields_computed_independently() -> None:
    data = golden_bytes("full-handoff")
    result = ingest_bytes(data, destination())
    assert result.receipt is not None
    assert result.inspection.value is not None
    receipt: dict[str, Any] = result.receipt
    packet: dict[str, Any] = result.inspection.value
    assert receipt["destinationInstallationKeyId"] == "unbound"
    assert receipt["correlationId"] == sha(
        lp("zephr-continuity-correlation-v1")
        + lp("unbound")
        + lp(packet["packet"]["id"])
        + lp(packet["packet"]["nonce"])
        + lp(packet["manifest"]["rootHash"])
    )
    beliefs = [dict(b, reviewState="unreviewed") for b in packet["content"]["beliefs"]]
    assert receipt["targetDigest"] == sha(
        plain_canonical({"beliefs": beliefs, "dispositions": receipt["dispositions"]})
    )
    draft = {k: v for k, v in receipt.items() if k not in ("receiptDigest", "signature")}
    assert receipt["receiptDigest"] == sha(plain_canonical(draft))
    assert receipt["importedAt"] == g.NOW
    assert receipt["review"] == {"decisions": []}
    assert receipt["dispositions"]["tools"] == {
        "zephr_remember": "native",
        "zephr_recall": "native",
        "zephr_why": "native",
    }
    assert set(receipt["dispositions"]["sections"].values()) == {"native"}
    report = verify_receipt(receipt, ed25519_public_key(g.RECEIPT_SEED))
    assert report.status is ReceiptStatus.VALID_SIGNED


def test_correlation_id_is_stable_across_repeated_imports() -> None:
    first: dict[str, Any] | None = ingest_bytes(
        golden_bytes("recipient-bound-mac"), destination()
    ).receipt
    again: dict[str, Any] | None = ingest_bytes(
        golden_bytes("recipient-bound-mac"), destination(now="2027-01-01T00:00:00Z")
    ).receipt
    assert first is not None
    assert again is not None
    assert first["correlationId"] == again["correlationId"]
    assert first["receiptDigest"] != again["receiptDigest"]  # importedAt differs
    assert first["destinationInstallationKeyId"] == g.DEST_ID


def test_demotion_counts_every_non_unreviewed_state() -> None:
    receipt: dict[str, Any] | None = ingest_bytes(golden_bytes("demotion"), destination()).receipt
    assert receipt is not None
    assert receipt["demotionCount"] == 3
    assert receipt["truncatedBeliefCount"] == 0


def test_truncation_cuts_at_the_last_whole_code_point() -> None:
    beliefs: list[Any] = [
        {"portableRef": "a", "sourceId": "s", "content": "x" * 9 + "é"},  # 11 bytes
        {"portableRef": "b", "sourceId": "s", "content": "😀😀"},  # 8 bytes
        {"portableRef": "c", "sourceId": "s", "content": "fits"},
        {"portableRef": "d", "sourceId": "s", "content": "dropped"},
    ]
    admitted = admit_beliefs(beliefs, max_beliefs=3, max_bytes=10)
    contents: list[Any] = admitted.beliefs
    assert [b["content"] for b in contents] == ["x" * 9, "😀😀", "fits"]
    assert admitted.truncations == 2  # one cut, one dropped
    admitted = admit_beliefs(beliefs[1:2], max_beliefs=3, max_bytes=5)
    assert admitted.beliefs == [
        {"portableRef": "b", "sourceId": "s", "content": "😀", "reviewState": "unreviewed"}
    ]


def test_truncation_golden_counts() -> None:
    receipt: dict[str, Any] | None = ingest_bytes(golden_bytes("truncation"), destination()).receipt
    assert receipt is not None
    # 10 beliefs, maxBeliefs 8: 2 dropped; of the 8 admitted, 2 are longer than 160 bytes.
    assert receipt["truncatedBeliefCount"] == 4


def test_tools_and_degradation() -> None:
    receipt: dict[str, Any] | None = ingest_bytes(golden_bytes("tools"), destination()).receipt
    assert receipt is not None
    assert receipt["dispositions"]["tools"] == {
        "zephr_remember": "native",
        "zephr_status": "unsupported",
        "zephr_admin": "narrated",
        "zephr_rules": "narrated",
        "zephr_verify": "native",
    }
    assert receipt["degradationCount"] == 3


def test_omitted_sections_keep_their_status() -> None:
    receipt: dict[str, Any] | None = ingest_bytes(
        golden_bytes("omissions-redactions"), destination()
    ).receipt
    assert receipt is not None
    sections = receipt["dispositions"]["sections"]
    assert sections["evidenceSources"] == "not_captured"
    assert sections["evidenceAnchors"] == "omitted"
    assert sections["verification"] == "unsupported"
    assert sections["beliefs"] == "native"
    assert receipt["degradationCount"] == 1


def test_strict_destination_refuses_high_risk_tools() -> None:
    result = ingest_bytes(golden_bytes("tools"), destination(strict=True))
    assert result.receipt is None
    assert [(f.code, f.pointer) for f in result.findings if f.severity == "error"] == [
        (ErrorCode.HIGH_RISK_TOOL_REFUSED, "/content/allowedTools/2"),
        (ErrorCode.HIGH_RISK_TOOL_REFUSED, "/content/allowedTools/3"),
    ]


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"refuseUnsigned": True}, ErrorCode.UNSIGNED_REFUSED),
        ({"now": "2027-06-01T00:00:00Z"}, ErrorCode.PACKET_EXPIRED),
    ],
)
def test_policy_refusals(overrides: dict[str, Any], code: ErrorCode) -> None:
    result = ingest_bytes(golden_bytes("full-handoff"), destination(**overrides))
    assert result.receipt is None
    assert code in [f.code for f in result.findings]


def test_unsigned_receipt_without_signing_key() -> None:
    result = ingest_bytes(golden_bytes("minimal"), destination(signingKey=None))
    assert result.receipt is not None
    assert "signature" not in result.receipt
    assert verify_receipt(result.receipt).status is ReceiptStatus.VALID_UNSIGNED


def test_refused_packet_makes_no_receipt() -> None:
    packet = g.unsigned(g.handoff("x"))
    packet["content"]["capsule"]["objective"] = "tampered"
    result = ingest_bytes(to_bytes(packet), destination())
    assert result.receipt is None
    assert ErrorCode.MANIFEST_ROOT_MISMATCH in [f.code for f in result.findings]
