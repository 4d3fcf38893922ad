"""How far the previous generation's receipt is trusted, and what carrying it over needs.

A receipt's decisions may be repeated as the current reviewer's only when a key this
destination trusts signed it: its own ``signingKey`` (its receipts) or one of its
``trustedKeys``. An unsigned receipt is something anyone can compute (its digest is no
secret), and a signature by any other key proves nothing here (a fingerprint is not a
trust anchor). Such a receipt can still be compared and shown; repeating its decisions
needs an explicit acceptance (`review --accept-unsigned-previous`, a second question in
the window), and every repeated note then says it came from an unsigned receipt.
"""

from __future__ import annotations

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.crypto import public_key_fingerprint
from zcf_inspector.core.findings import Finding, Severity, error
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus, verify_receipt
from zcf_inspector.core.review.decisions import ReviewError

SHOWN_FINDINGS = 20  # a refusal lists this many reasons, then counts the rest
ACCEPT_FLAG = "--accept-unsigned-previous"
UNSIGNED_ORIGIN = "from an unsigned receipt"

RECEIPT_TRUST = {
    ReceiptStatus.VALID_SIGNED: "digest recomputed, signature verified under this "
    "destination's key",
    ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED: "digest recomputed; signed, but by no key "
    "this destination trusts, so not checked: nothing proves who made these decisions",
    ReceiptStatus.VALID_UNSIGNED: "digest recomputed; unsigned: nothing proves who made "
    "these decisions",
    ReceiptStatus.INVALID: "INVALID",
}


def signer_fingerprint(receipt: JsonValue) -> str | None:
    """The fingerprint the receipt's signature names, if it has one."""
    signature = receipt.get("signature") if isinstance(receipt, dict) else None
    signer = signature.get("publicKeyFingerprint") if isinstance(signature, dict) else None
    return signer if isinstance(signer, str) else None


def trusted_signer(receipt: JsonValue, destination: Destination) -> tuple[bytes, bool] | None:
    """The key the signature claims, when this destination trusts it, and whether it is
    the destination's own signingKey."""
    signer = signer_fingerprint(receipt)
    own = destination.signing_public_key
    if own is not None and signer == public_key_fingerprint(own):
        return own, True
    trusted = destination.trusted_keys.get(signer or "")
    return None if trusted is None else (trusted, False)


def trust_words(receipt: JsonValue, destination: Destination, status: ReceiptStatus) -> str:
    """What the verification established, in words (for a signature by a trustedKeys
    entry, which one)."""
    signer = trusted_signer(receipt, destination)
    if status is ReceiptStatus.VALID_SIGNED and signer is not None and not signer[1]:
        return (
            "digest recomputed, signature verified under "
            f"{signer_fingerprint(receipt)}, one of this destination's trustedKeys"
        )
    return RECEIPT_TRUST[status]


def check_previous_receipt(receipt: JsonValue, destination: Destination) -> ReceiptReport:
    """Verify the receipt; refuse it unless its shape, digest and (when it claims a key
    this destination trusts) signature verify."""
    signer = trusted_signer(receipt, destination)
    # A signature that claims a trusted key is checked under it; one by another key
    # cannot be (a fingerprint is not a trust anchor) and is said to be unchecked.
    report = verify_receipt(receipt, None if signer is None else signer[0])
    if not report.valid:
        errors = [f for f in report.findings if f.severity is Severity.ERROR]
        raise refusal(
            ReviewCode.PREVIOUS_RECEIPT_INVALID,
            "the previous generation's receipt does not verify, so its decisions cannot be "
            "repeated",
            errors,
        )
    return report


def untrusted_refusal(status: ReceiptStatus) -> ReviewError:
    why = (
        "is unsigned"
        if status is ReceiptStatus.VALID_UNSIGNED
        else "is signed by no key this destination trusts (its signingKey or a trustedKeys entry)"
    )
    return refusal(
        ReviewCode.PREVIOUS_RECEIPT_UNTRUSTED,
        f"the previous generation's receipt {why}: anyone could have written its "
        "decisions, so they are not "
        f"repeated. It can still be compared; to repeat them anyway, accept that "
        f"explicitly ({ACCEPT_FLAG}; the notes then say they came {UNSIGNED_ORIGIN})",
        [],
    )


def refusal(code: ReviewCode, head: str, reasons: list[Finding]) -> ReviewError:
    findings = [error(code, "", head)]
    findings += reasons[:SHOWN_FINDINGS]
    if len(reasons) > SHOWN_FINDINGS:
        findings.append(error(code, "", f"… and {len(reasons) - SHOWN_FINDINGS:,} more"))
    return ReviewError(findings)
