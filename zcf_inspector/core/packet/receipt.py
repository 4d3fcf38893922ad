"""The transfer receipt of profile §6: its digest, its signature and its verification."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.crypto import (
    ed25519_public_key,
    ed25519_sign,
    ed25519_verify_strict,
    public_key_fingerprint,
)
from zcf_inspector.core.digest import is_digest, lp_concat, sha256_digest
from zcf_inspector.core.document_kind import RECEIPT_FORMAT_NAME
from zcf_inspector.core.findings import Finding, FindingBudget, OmittedFindings, Severity, error
from zcf_inspector.core.formats import Base64UrlError, b64u_decode, b64u_encode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.receipt_shape import check_receipt_shape
from zcf_inspector.core.pointer import join
from zcf_inspector.core.visible_text import json_visible

RECEIPT_FORMAT = RECEIPT_FORMAT_NAME  # where kinds are told apart, it is named once
RECEIPT_SIGNATURE_DOMAIN = "zephr-continuity-receipt-v1"
CORRELATION_DOMAIN = "zephr-continuity-correlation-v1"


# What `json.dumps(receipt, ensure_ascii=False, indent=2)` uses, so that its pieces can be
# taken one at a time (`receipt_chunks`).
_RECEIPT_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, indent=2)
# Characters of encoder pieces gathered into one chunk of the file.
RECEIPT_CHUNK_CHARS: Final = 1 << 20


def receipt_bytes(receipt: Mapping[str, JsonValue]) -> bytes:
    """The file bytes of a receipt: every writer (window, `ingest`, `review`) writes these.

    Characters a terminal could act on (C1 controls, bidi and format characters, U+2028…)
    are JSON escapes, so a receipt printed by `ingest` is safe to show; the JSON value,
    and so the digest, is the same either way."""
    return b"".join(receipt_chunks(receipt))


def receipt_chunks(
    receipt: Mapping[str, JsonValue], chunk_chars: int = RECEIPT_CHUNK_CHARS
) -> Iterator[bytes]:
    """`receipt_bytes` in chunks of about ``chunk_chars`` characters, made as they are
    written: a receipt of a million decisions is 150 MB of text, and `json.dumps` with an
    indent builds a list of every piece before joining them (several times the text).

    Escaping each chunk is escaping the whole: the encoder's pieces are whole tokens, and
    the characters escaped only ever occur inside strings, whose quotes are ASCII, so no
    run of them spans two pieces."""
    pending: list[str] = []
    size = 0
    for piece in _RECEIPT_ENCODER.iterencode(dict(receipt)):
        pending.append(piece)
        size += len(piece)
        if size >= chunk_chars:
            yield json_visible("".join(pending)).encode("utf-8")
            pending, size = [], 0
    pending.append("\n")
    yield json_visible("".join(pending)).encode("utf-8")


def correlation_id(
    destination_installation_key_id: str, packet_id: str, packet_nonce: str, manifest_root: str
) -> str:
    """Computed by the destination, never read from the packet: a replay shows the same id."""
    return sha256_digest(
        lp_concat(
            CORRELATION_DOMAIN,
            destination_installation_key_id,
            packet_id,
            packet_nonce,
            manifest_root,
        )
    )


def draft_of(receipt: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """The receipt without ``receiptDigest`` and ``signature``: what the digest covers."""
    return {k: v for k, v in receipt.items() if k not in ("receiptDigest", "signature")}


def receipt_digest(receipt: dict[str, JsonValue]) -> str:
    return sha256_digest(canonical(draft_of(receipt)))


def signature_message(digest: str) -> bytes:
    return lp_concat(RECEIPT_SIGNATURE_DOMAIN, digest)


def finish_receipt(draft: dict[str, JsonValue], signing_key: bytes | None) -> dict[str, JsonValue]:
    """Add ``receiptDigest`` and, with a signing key, the Ed25519 ``signature``."""
    receipt = draft_of(draft)
    digest = receipt_digest(receipt)
    receipt["receiptDigest"] = digest
    if signing_key is not None:
        receipt["signature"] = {
            "algorithm": "ed25519",
            "publicKeyFingerprint": public_key_fingerprint(ed25519_public_key(signing_key)),
            "value": b64u_encode(ed25519_sign(signing_key, signature_message(digest))),
        }
    return receipt


class ReceiptStatus(StrEnum):
    VALID_SIGNED = "valid_signed"  # digest recomputed, signature verified under the given key
    VALID_SIGNATURE_NOT_CHECKED = "valid_signature_not_checked"  # signed, but no key given
    VALID_UNSIGNED = "valid_unsigned"  # digest recomputed; the receipt carries no signature
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class ReceiptReport:
    status: ReceiptStatus
    computed_digest: str | None
    listed_digest: str | None
    findings: tuple[Finding, ...]  # those the receipt's findings budget kept in full
    omitted: tuple[OmittedFindings, ...] = ()  # counted past it
    # Which check refused it, by the check that found it (the presenter's chips), not
    # guessed from the findings' pointers afterwards:
    shape_error: Finding | None = None  # the first error of the shape check (or the read)
    shape_errors: int = 0  # how many it found, counted past the budget too
    signature_error: Finding | None = None  # the signature did not verify (or is missing)
    signed: bool = False  # the receipt carries a signature object

    @property
    def digest_matches(self) -> bool:
        return self.computed_digest is not None and self.computed_digest == self.listed_digest

    @property
    def valid(self) -> bool:
        return self.status is not ReceiptStatus.INVALID


def verify_receipt(receipt: JsonValue, public_key: bytes | None = None) -> ReceiptReport:
    """Check the receipt's shape, recompute ``receiptDigest`` and check the signature.

    With ``public_key`` the receipt must be signed by exactly that key; without one, a
    signature is reported as present but not checked (a fingerprint is not a trust anchor).
    """
    findings = FindingBudget()
    check_receipt_shape(receipt, findings)
    shape = _Shape(
        next((f for f in findings.kept if f.severity is Severity.ERROR), None),
        _errors(findings),
    )
    if not isinstance(receipt, dict):
        return _report(ReceiptStatus.INVALID, None, None, findings, shape)
    computed = receipt_digest(receipt)
    listed = receipt.get("receiptDigest")
    listed_text = listed if isinstance(listed, str) else None
    if is_digest(listed) and listed != computed:
        findings.add(
            error(
                ErrorCode.INVALID_VALUE,
                join("receiptDigest"),
                f"receiptDigest {listed} does not match the recomputed {computed}: "
                "the receipt was changed after it was made",
            )
        )
    signature = receipt.get("signature")
    signed = isinstance(signature, dict)
    signature_errors: list[Finding] = []
    if signed and isinstance(signature, dict) and not findings.has_error:
        signature_errors = _check_signature(signature, computed, public_key)
    elif public_key is not None and not signed:
        signature_errors = [
            error(
                ErrorCode.SIGNATURE_INVALID,
                join("signature"),
                "a key was given but the receipt is not signed",
            )
        ]
    findings.extend(signature_errors)
    shape = _Shape(shape.first, shape.count, signature_errors[0] if signature_errors else None)
    if findings.has_error:
        status = ReceiptStatus.INVALID
    elif not signed:
        status = ReceiptStatus.VALID_UNSIGNED
    elif public_key is None:
        status = ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED
        findings.add(
            Finding(
                ErrorCode.SOURCE_KEY_UNKNOWN,
                Severity.INFO,
                join("signature"),
                "signature present but not checked: give the signer's public key to verify it",
            )
        )
    else:
        status = ReceiptStatus.VALID_SIGNED
    return _report(status, computed, listed_text, findings, shape, signed=signed)


@dataclass(frozen=True, slots=True)
class _Shape:
    first: Finding | None
    count: int
    signature: Finding | None = None


def _errors(findings: FindingBudget) -> int:
    kept = sum(1 for f in findings.kept if f.severity is Severity.ERROR)
    return kept + sum(o.count for o in findings.omitted() if o.severity is Severity.ERROR)


def _report(
    status: ReceiptStatus,
    computed: str | None,
    listed: str | None,
    findings: FindingBudget,
    shape: _Shape,
    *,
    signed: bool = False,
) -> ReceiptReport:
    return ReceiptReport(
        status,
        computed,
        listed,
        tuple(findings.kept),
        findings.omitted(),
        shape.first,
        shape.count,
        shape.signature,
        signed,
    )


def unreadable_receipt(refusal: Finding) -> ReceiptReport:
    """The report of a receipt the strict reader refused: its shape check failed first."""
    return ReceiptReport(ReceiptStatus.INVALID, None, None, (refusal,), (), refusal, 1)


def _check_signature(
    signature: dict[str, JsonValue], digest: str, public_key: bytes | None
) -> list[Finding]:
    if public_key is None:
        return []
    fingerprint = public_key_fingerprint(public_key)
    if signature.get("publicKeyFingerprint") != fingerprint:
        return [
            error(
                ErrorCode.SOURCE_KEY_UNKNOWN,
                join("signature", "publicKeyFingerprint"),
                f"signed by {signature.get('publicKeyFingerprint')}, not by the given key "
                f"{fingerprint}",
            )
        ]
    value = signature.get("value")
    try:
        raw = b64u_decode(value if isinstance(value, str) else "")
    except Base64UrlError:
        raw = b""
    if not ed25519_verify_strict(public_key, raw, signature_message(digest)):
        return [
            error(
                ErrorCode.SIGNATURE_INVALID,
                join("signature", "value"),
                "the receipt signature does not verify under the given key",
            )
        ]
    return []
