"""The trust verdict: validity and authenticity from the inspection only (core), and the
packet presenter's words and trust level for them."""

from __future__ import annotations

import pytest

from tests.core.helpers import GOLDENS, destination, golden_bytes
from zcf_inspector.core.packet.inspection import Stage, inspect_bytes
from zcf_inspector.core.packet.trust import (
    Authenticity,
    MacState,
    Validity,
    packet_trust,
    short_fingerprint,
)
from zcf_inspector.present.packet import authenticity_json, headline, trust_level
from zcf_inspector.present.vocabulary import Trust

NEGATIVE = GOLDENS / "negative"


def negative(name: str) -> bytes:
    return (NEGATIVE / f"{name}.json").read_bytes()


def test_signed_and_verified_is_valid_and_complete() -> None:
    trust = packet_trust(inspect_bytes(golden_bytes("recipient-bound-mac"), destination()))
    assert trust.validity is Validity.VALID
    assert trust.authenticity is Authenticity.SIGNED
    assert trust.signer is not None
    assert trust.signer.startswith("sha256:")
    assert trust.signer_trusted is True
    assert trust.mac is MacState.VERIFIED
    assert trust_level(trust) is Trust.VERIFIED
    assert headline(trust) == f"VALID · SIGNED by {trust.signer} (trusted)"
    assert headline(trust, short_fingerprint) == (
        f"VALID · SIGNED by {trust.signer[: len('sha256:') + 16]}… (trusted)"
    )


def test_mac_without_keys_is_intact_never_valid() -> None:
    inspection = inspect_bytes(golden_bytes("recipient-bound-mac"))
    assert inspection.valid  # no error: the MAC could not be checked, it did not fail
    trust = packet_trust(inspection)
    assert trust.validity is Validity.INTACT
    assert trust.authenticity is Authenticity.MAC_NOT_CHECKED
    assert trust.mac is MacState.NOT_CHECKED
    assert trust.signer_trusted is None  # a fingerprint is a claim until a key is trusted
    assert trust_level(trust) is Trust.UNCHECKED
    assert not trust.complete
    assert headline(trust) == "INTACT · MAC NOT CHECKED (no destination keys)"
    assert trust.not_checked == ("signature and recipient MAC (no destination keys)",)


def test_unsigned_is_valid_and_complete() -> None:
    trust = packet_trust(inspect_bytes(golden_bytes("minimal")))
    assert (trust.validity, trust.authenticity, trust.mac) == (
        Validity.VALID,
        Authenticity.UNSIGNED,
        None,
    )
    assert headline(trust) == "VALID · UNSIGNED"
    assert trust.complete
    # valid, but anyone could have written it: neutral, never the green of a trusted key
    assert trust_level(trust) is Trust.UNSIGNED


def test_recipient_binding_of_an_unsigned_packet_needs_a_destination() -> None:
    data = golden_bytes("recipient-bound-unsigned")
    without = packet_trust(inspect_bytes(data))
    assert without.validity is Validity.INTACT
    assert headline(without) == "INTACT · UNSIGNED · RECIPIENT NOT CHECKED (no destination)"
    with_destination = packet_trust(inspect_bytes(data, destination()))
    assert headline(with_destination) == "VALID · UNSIGNED"
    assert with_destination.complete


@pytest.mark.parametrize(
    ("name", "trusted", "mac"),
    [
        ("source-key-unknown", False, MacState.NOT_CHECKED),
        ("signature-invalid", True, MacState.NOT_CHECKED),
        ("mac-invalid", True, MacState.INVALID),
        ("source-signature", None, None),
    ],
)
def test_authentication_refusals(name: str, trusted: bool | None, mac: MacState | None) -> None:
    trust = packet_trust(inspect_bytes(negative(name), destination()))
    assert trust.validity is Validity.REFUSED
    assert trust.authenticity is Authenticity.REFUSED
    assert trust.refused_at == (Stage.AUTHENTICATION,)
    assert trust.signer_trusted is trusted
    assert trust.mac is mac
    assert trust_level(trust) is Trust.REFUSED
    assert headline(trust) == "REFUSED at authentication"


def test_an_earlier_failure_checks_no_authentication() -> None:
    trust = packet_trust(inspect_bytes(negative("tampered-capsule")))
    assert trust.authenticity is Authenticity.NOT_CHECKED
    assert trust.refused_at == (Stage.MANIFEST,)
    assert headline(trust) == "REFUSED at manifest"
    bytes_refused = packet_trust(inspect_bytes(negative("bom")))
    assert headline(bytes_refused) == "REFUSED at bytes"
    assert bytes_refused.kind is None


def test_a_policy_refusal_keeps_what_authentication_found() -> None:
    trust = packet_trust(inspect_bytes(golden_bytes("minimal"), destination(refuseUnsigned=True)))
    assert trust.authenticity is Authenticity.UNSIGNED
    assert headline(trust) == "REFUSED at policy"


def test_json_shape() -> None:
    trust = packet_trust(inspect_bytes(golden_bytes("recipient-bound-mac"), destination()))
    assert authenticity_json(trust) == {
        "state": "signed",
        "kind": "recipient-bound-mac",
        "signer": trust.signer,
        "signerTrusted": True,
        "mac": "verified",
        "notChecked": [],
        "verdict": headline(trust),
        "complete": True,
    }


def test_short_fingerprint() -> None:
    assert short_fingerprint("sha256:" + "ab" * 32) == "sha256:" + "ab" * 8 + "…"
    assert short_fingerprint("sha256:abc") == "sha256:abc"
    assert short_fingerprint("not a fingerprint") == "not a fingerprint"
