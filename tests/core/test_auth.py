from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

import pytest

from goldens import generate as g
from tests.core.helpers import destination, golden, lp
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.crypto import ed25519_public_key, ed25519_verify_strict
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.formats import b64u_decode
from zcf_inspector.core.packet.auth import AuthStatus, check_authentication, signed_message
from zcf_inspector.core.packet.producer import AuthKind, seal_packet


def test_signed_message_layout() -> None:
    packet = golden("recipient-bound-mac")
    expected = b"".join(
        lp(x)
        for x in (
            "zephr-continuity-auth-v1",
            "session-handoff",
            packet["packet"]["id"],
            packet["packet"]["nonce"],
            packet["manifest"]["rootHash"],
            g.DEST_ID,
        )
    )
    assert signed_message(packet) == expected
    unbound = golden("minimal")
    assert signed_message(unbound).endswith(lp("unbound"))


def test_mac_golden_verifies_and_matches_an_independent_mac() -> None:
    packet = golden("recipient-bound-mac")
    report = check_authentication(packet, destination())
    assert report.status is AuthStatus.VERIFIED
    assert report.findings == ()
    # Recompute K and the MAC with the standard library only (RFC 5869 by hand).
    nonce = b64u_decode(packet["packet"]["nonce"])
    prk = hmac.new(nonce, g.SOURCE_INSTALLATION + g.DEST_INSTALLATION, hashlib.sha256).digest()
    info = b"zephr-continuity-recipient-mac-v1\x00" + g.DEST_ID.encode()
    k = hmac.new(prk, info + b"\x01", hashlib.sha256).digest()
    signature = b64u_decode(packet["authentication"]["signature"])
    mac = hmac.new(k, signed_message(packet) + signature, hashlib.sha256).digest()
    assert base64.urlsafe_b64encode(mac).rstrip(b"=").decode() == packet["authentication"]["mac"]
    assert ed25519_verify_strict(
        ed25519_public_key(g.SOURCE_SEED), signature, signed_message(packet)
    )


def test_unsigned_is_valid() -> None:
    report = check_authentication(golden("minimal"), None)
    assert report.status is AuthStatus.UNSIGNED
    assert report.findings == ()


def test_mac_without_destination_is_not_verified_info() -> None:
    report = check_authentication(golden("recipient-bound-mac"), None)
    assert report.status is AuthStatus.NOT_VERIFIED
    assert [(f.code, f.severity) for f in report.findings] == [
        (ErrorCode.INSTALLATION_KEY_UNAVAILABLE, Severity.INFO)
    ]


@pytest.mark.parametrize("with_destination", [False, True])
def test_source_signature_is_always_refused(with_destination: bool) -> None:
    packet: dict[str, Any] = seal_packet(
        g.handoff("s"), AuthKind.SOURCE_SIGNATURE, signing_seed=g.SOURCE_SEED
    )
    # The signature is mathematically valid and by a trusted key: still refused.
    assert ed25519_verify_strict(
        ed25519_public_key(g.SOURCE_SEED),
        b64u_decode(packet["authentication"]["signature"]),
        signed_message(packet),
    )
    report = check_authentication(packet, destination() if with_destination else None)
    assert report.status is AuthStatus.REFUSED
    assert [f.code for f in report.findings] == [ErrorCode.SOURCE_SIGNATURE_UNVERIFIABLE]


def _mac_packet(**kwargs: bytes) -> dict[str, Any]:
    return g.mac(g.bound(g.handoff("order")), **kwargs)


def _flipped(field: str) -> dict[str, Any]:
    packet = _mac_packet()
    value = packet["authentication"][field]
    packet["authentication"][field] = ("B" if value[0] == "A" else "A") + value[1:]
    return packet


# Each case fails exactly one requirement of §5; the order of checks makes it the verdict.
ORDER_CASES: dict[str, tuple[Any, dict[str, Any]]] = {
    "recipient_intent_conflict": (
        lambda: {**_mac_packet(), "recipientIntent": {"kind": "unbound-local-import"}},
        {},
    ),
    "recipient_mismatch": (_mac_packet, {"installationKeyId": "dest-elsewhere"}),
    "source_key_unknown": (_mac_packet, {"trustedKeys": []}),
    "installation_key_unavailable (own key)": (_mac_packet, {"installationKey": None}),
    "installation_key_unavailable (source key)": (
        _mac_packet,
        {"sourceInstallationKeys": {}},
    ),
    "signature_invalid": (lambda: _flipped("signature"), {}),
    "mac_invalid": (lambda: _flipped("mac"), {}),
}


@pytest.mark.parametrize("case", ORDER_CASES)
def test_each_requirement_in_order(case: str) -> None:
    make, overrides = ORDER_CASES[case]
    report = check_authentication(make(), destination(**overrides))
    assert report.status is AuthStatus.REFUSED
    assert [f.code.value for f in report.findings] == [case.split(" ", maxsplit=1)[0]]


def test_first_failure_wins_when_several_fail() -> None:
    # Untrusted key AND a bad MAC AND a wrong destination: recipient_mismatch comes first.
    packet = _mac_packet(seed=g.UNTRUSTED_SEED, dest_key=b"\x01" * 32)
    report = check_authentication(packet, destination(installationKeyId="dest-elsewhere"))
    assert [f.code for f in report.findings] == [ErrorCode.RECIPIENT_MISMATCH]
    report = check_authentication(packet, destination())
    assert [f.code for f in report.findings] == [ErrorCode.SOURCE_KEY_UNKNOWN]
