"""The receipt presenter: a `ReceiptReport` in the packets' vocabulary.

    VALID RECEIPT · SIGNED (signature verified)        verified
    VALID RECEIPT · UNSIGNED                           unsigned
    INTACT RECEIPT · SIGNATURE NOT CHECKED (no key)    unchecked: signed, nothing to check with
    REFUSED RECEIPT at receipt digest                  refused: the failing check(s)

Each chip is the check that found its finding (the core says which), never a guess from
a finding's pointer.
"""

from __future__ import annotations

from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus
from zcf_inspector.present.vocabulary import (
    SEPARATOR,
    CheckStatus,
    Chip,
    Trust,
    Verdict,
)

SHAPE = "receipt shape"
DIGEST = "receipt digest"
SIGNATURE = "signature"
NO_KEY = "no key"
SIGNATURE_NOT_CHECKED = f"signature ({NO_KEY}: give the destination's public signing key)"

_SIGNATURE_ROWS = {
    ReceiptStatus.VALID_SIGNED: (
        CheckStatus.PASS,
        "verified",
        "signature verified under the destination's signing key",
    ),
    ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED: (
        CheckStatus.NOT_CHECKABLE,
        f"not checked ({NO_KEY})",
        "signed, but not checked: give the destination's public signing key (--key or "
        "--destination; in the window, a destination file with a signingKey) to verify it",
    ),
    ReceiptStatus.VALID_UNSIGNED: (
        CheckStatus.PASS,
        "unsigned",
        "the receipt carries no signature",
    ),
}


def verdict(report: ReceiptReport) -> Verdict:
    rows = (_shape_row(report), _digest_row(report), _signature_row(report))
    kind = str(DocumentKind.RECEIPT)
    if report.status is ReceiptStatus.INVALID:
        failed = [r.check for r in rows if r.state is CheckStatus.FAIL] or [SHAPE]
        return Verdict(kind, f"REFUSED RECEIPT at {', '.join(failed)}", Trust.REFUSED, rows)
    if report.status is ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED:
        words = SEPARATOR.join(("INTACT RECEIPT", f"SIGNATURE NOT CHECKED ({NO_KEY})"))
        return Verdict(kind, words, Trust.UNCHECKED, rows, not_checked=(SIGNATURE_NOT_CHECKED,))
    if report.status is ReceiptStatus.VALID_SIGNED:
        words = SEPARATOR.join(("VALID RECEIPT", "SIGNED (signature verified)"))
        return Verdict(kind, words, Trust.VERIFIED, rows)
    return Verdict(kind, SEPARATOR.join(("VALID RECEIPT", "UNSIGNED")), Trust.UNSIGNED, rows)


def _shape_row(report: ReceiptReport) -> Chip:
    first = report.shape_error
    if first is None:
        return Chip(SHAPE, CheckStatus.PASS, "passed", "every field as profile §6 requires")
    more = f" (+{report.shape_errors - 1:,} more)" if report.shape_errors > 1 else ""
    return Chip(
        SHAPE,
        CheckStatus.FAIL,
        f"{first.code}{more}",
        f"{first.code} at {first.pointer or '(document)'}: {first.message}{more}",
        first.pointer,
    )


def _digest_row(report: ReceiptReport) -> Chip:
    if report.computed_digest is None:
        return Chip(DIGEST, CheckStatus.NOT_RUN, "not run", "the receipt is not an object")
    detail = f"listed {report.listed_digest}, computed {report.computed_digest}"
    if report.digest_matches:
        return Chip(DIGEST, CheckStatus.PASS, "matches", detail, "/receiptDigest")
    return Chip(DIGEST, CheckStatus.FAIL, "mismatch", detail, "/receiptDigest")


def _signature_row(report: ReceiptReport) -> Chip:
    if report.status in _SIGNATURE_ROWS:
        state, summary, detail = _SIGNATURE_ROWS[report.status]
        return Chip(SIGNATURE, state, summary, detail, "/signature")
    first = report.signature_error
    if first is not None:
        return Chip(SIGNATURE, CheckStatus.FAIL, str(first.code), first.message, first.pointer)
    return Chip(SIGNATURE, CheckStatus.NOT_RUN, "not run", "an earlier check failed")
