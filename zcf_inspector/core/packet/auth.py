"""Authentication of profile §5: verify `unsigned` and `recipient-bound-mac`, refuse
`source-signature`, and the producer side that makes each kind."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.crypto import (
    constant_time_equal,
    ed25519_public_key,
    ed25519_sign,
    ed25519_verify_strict,
    hmac_sha256,
    public_key_fingerprint,
    recipient_mac_key,
)
from zcf_inspector.core.digest import lp_concat
from zcf_inspector.core.findings import Finding, Severity, error
from zcf_inspector.core.formats import Base64UrlError, b64u_decode, b64u_encode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pointer import join

if TYPE_CHECKING:  # annotations only: `validate` without a destination never loads it
    from zcf_inspector.core.packet.destination import Destination

AUTH_DOMAIN = "zephr-continuity-auth-v1"
UNBOUND = "unbound"


class AuthStatus(StrEnum):
    """What the window and the CLI say about authentication, one word each."""

    UNSIGNED = "unsigned"  # valid, carries no cryptographic identity
    VERIFIED = "verified"  # signature and MAC checked against trusted keys
    NOT_VERIFIED = "not_verified"  # recipient-bound-mac, but no destination keys to check it
    REFUSED = "refused"  # the first failure in §5's order is the verdict
    NOT_CHECKED = "not_checked"  # an earlier stage failed


@dataclass(frozen=True, slots=True)
class AuthReport:
    kind: str | None
    status: AuthStatus
    reason: str
    findings: tuple[Finding, ...] = ()


def recipient_of(packet: dict[str, JsonValue]) -> str:
    """``R`` of the signed message: the bound destination key id, or ``"unbound"``."""
    intent = packet.get("recipientIntent")
    if isinstance(intent, dict) and intent.get("kind") == "recipient-bound":
        bound = intent.get("destinationInstallationKeyId")
        if isinstance(bound, str):
            return bound
    return UNBOUND


def signed_message(packet: dict[str, JsonValue]) -> bytes:
    """``M``: LP(domain) ‖ LP(artifactKind) ‖ LP(packet.id) ‖ LP(nonce) ‖ LP(rootHash) ‖ LP(R).

    Call only on a packet whose structure checked clean: the fields are read as strings.
    """
    identity = _obj(packet.get("packet"))
    manifest = _obj(packet.get("manifest"))
    return lp_concat(
        AUTH_DOMAIN,
        _text(packet.get("artifactKind")),
        _text(identity.get("id")),
        _text(identity.get("nonce")),
        _text(manifest.get("rootHash")),
        recipient_of(packet),
    )


def check_authentication(
    packet: dict[str, JsonValue], destination: Destination | None
) -> AuthReport:
    """§5 for a packet whose structure and manifest checked clean.

    Without a destination only the key-free part runs: a `recipient-bound-mac` is then
    reported as not verified (severity info), never as verified.
    """
    auth = _obj(packet.get("authentication"))
    kind = auth.get("kind")
    pointer = join("authentication", "kind")
    if kind == "unsigned":
        return AuthReport(
            "unsigned", AuthStatus.UNSIGNED, "unsigned: valid, no cryptographic identity"
        )
    if kind == "source-signature":
        finding = error(
            ErrorCode.SOURCE_SIGNATURE_UNVERIFIABLE,
            pointer,
            "a bare source signature is never accepted as verified: a fingerprint is a claim, "
            "not a trust anchor (use recipient-bound-mac)",
        )
        return AuthReport(str(kind), AuthStatus.REFUSED, finding.message, (finding,))
    if kind == "recipient-bound-mac":
        return _check_mac(packet, auth, destination)
    return AuthReport(
        None,
        AuthStatus.NOT_CHECKED,
        f"unknown authentication kind {kind!r}",
        (error(ErrorCode.INVALID_VALUE, pointer, f"unknown authentication kind {kind!r}"),),
    )


def _check_mac(
    packet: dict[str, JsonValue], auth: dict[str, JsonValue], destination: Destination | None
) -> AuthReport:
    kind = "recipient-bound-mac"

    def refuse(code: ErrorCode, pointer: str, message: str) -> AuthReport:
        return AuthReport(kind, AuthStatus.REFUSED, message, (error(code, pointer, message),))

    intent = _obj(packet.get("recipientIntent"))
    if intent.get("kind") != "recipient-bound":
        return refuse(
            ErrorCode.RECIPIENT_INTENT_CONFLICT,
            join("recipientIntent", "kind"),
            "a recipient-bound-mac packet must have recipientIntent.kind = recipient-bound",
        )
    bound_id = _text(intent.get("destinationInstallationKeyId"))
    if destination is None:
        reason = (
            "recipient-bound-mac not verified: no destination keys given "
            "(validate with --destination to verify the signature and MAC)"
        )
        finding = Finding(
            ErrorCode.INSTALLATION_KEY_UNAVAILABLE, Severity.INFO, join("authentication"), reason
        )
        return AuthReport(kind, AuthStatus.NOT_VERIFIED, reason, (finding,))
    if destination.installation_key_id != bound_id:
        return refuse(
            ErrorCode.RECIPIENT_MISMATCH,
            join("recipientIntent", "destinationInstallationKeyId"),
            f"the packet is bound to {bound_id!r}, this destination is "
            f"{destination.installation_key_id!r}",
        )
    fingerprint = _text(auth.get("publicKeyFingerprint"))
    public_key = destination.trusted_keys.get(fingerprint)
    if public_key is None:
        return refuse(
            ErrorCode.SOURCE_KEY_UNKNOWN,
            join("authentication", "publicKeyFingerprint"),
            f"no trusted public key has fingerprint {fingerprint}",
        )
    source = _obj(packet.get("source"))
    source_key_id = _text(source.get("installationKeyId"))
    source_key = destination.source_installation_keys.get(source_key_id)
    if destination.installation_key is None or source_key is None:
        missing = (
            "this destination's own"
            if destination.installation_key is None
            else (f"the source's ({source_key_id!r})")
        )
        return refuse(
            ErrorCode.INSTALLATION_KEY_UNAVAILABLE,
            join("source", "installationKeyId"),
            f"cannot check the MAC: {missing} installation key is not configured",
        )
    try:
        signature = b64u_decode(_text(auth.get("signature")))
        mac = b64u_decode(_text(auth.get("mac")))
        nonce = b64u_decode(_text(_obj(packet.get("packet")).get("nonce")))
    except Base64UrlError as exc:  # structure refuses these first; kept for direct callers
        return refuse(ErrorCode.INVALID_VALUE, join("authentication"), str(exc))
    signed = signed_message(packet)
    if not ed25519_verify_strict(public_key, signature, signed):
        return refuse(
            ErrorCode.SIGNATURE_INVALID,
            join("authentication", "signature"),
            "the Ed25519 signature does not verify under the trusted key "
            f"{fingerprint} (strict RFC 8032)",
        )
    key = recipient_mac_key(source_key, destination.installation_key, nonce, bound_id)
    if not constant_time_equal(hmac_sha256(key, signed + signature), mac):
        return refuse(
            ErrorCode.MAC_INVALID,
            join("authentication", "mac"),
            "the signature is valid but the recipient MAC is not: the packet was not "
            "made for this pair of installation keys, or it was altered",
        )
    return AuthReport(
        kind,
        AuthStatus.VERIFIED,
        f"signature by trusted key {fingerprint} and recipient MAC verified",
    )


# --- the producer side -------------------------------------------------------------------


def make_unsigned() -> dict[str, JsonValue]:
    return {"kind": "unsigned"}


def make_source_signature(packet: dict[str, JsonValue], seed: bytes) -> dict[str, JsonValue]:
    """A bare source signature (which every verifier refuses: it exists for test packets)."""
    signature = ed25519_sign(seed, signed_message(packet))
    return {
        "kind": "source-signature",
        "algorithm": "ed25519",
        "publicKeyFingerprint": public_key_fingerprint(ed25519_public_key(seed)),
        "signature": b64u_encode(signature),
    }


def make_recipient_bound_mac(
    packet: dict[str, JsonValue],
    seed: bytes,
    source_installation_key: bytes,
    destination_installation_key: bytes,
) -> dict[str, JsonValue]:
    """Sign ``M`` and MAC it for the bound destination; the manifest must already be sealed."""
    bound = recipient_of(packet)
    if bound == UNBOUND and _obj(packet.get("recipientIntent")).get("kind") != "recipient-bound":
        raise ValueError("recipient-bound-mac needs recipientIntent.kind = recipient-bound")
    message = signed_message(packet)
    signature = ed25519_sign(seed, message)
    nonce = b64u_decode(_text(_obj(packet.get("packet")).get("nonce")))
    key = recipient_mac_key(source_installation_key, destination_installation_key, nonce, bound)
    return {
        "kind": "recipient-bound-mac",
        "algorithm": "ed25519+hmac-sha256",
        "publicKeyFingerprint": public_key_fingerprint(ed25519_public_key(seed)),
        "signature": b64u_encode(signature),
        "mac": b64u_encode(hmac_sha256(key, message + signature)),
    }


def _obj(value: JsonValue) -> dict[str, JsonValue]:
    return value if isinstance(value, dict) else {}


def _text(value: JsonValue) -> str:
    return value if isinstance(value, str) else ""
