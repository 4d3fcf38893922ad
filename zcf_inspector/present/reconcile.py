"""Two reviewers reconciled, in words (``receipt reconcile``'s text and ``--json``, and the
window's Reconcile view): the receipts' trust, agreement per state and overall, Cohen's
kappa, every disagreement with both decisions and both notes, and the beliefs one
reviewer left undecided. Notes are masked where the secret scan flags them and every
document string is made visible (`core.visible_text`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.review.agreement import Agreement, Pair, fraction_json, label
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.reconcile import CheckedReceipt, ReconcileResult
from zcf_inspector.core.visible_text import clip, visible
from zcf_inspector.present import receipt as receipt_words
from zcf_inspector.present.review.secrets import masked_note

NOTE_CHARS: Final = 2000
KAPPA_UNDEFINED: Final = "undefined (no belief both decided, or one label for every belief)"


def _t(value: str | None, limit: int = 300) -> str:
    return "" if value is None else visible(clip(value, limit))


def decision_words(decision: Decision | None) -> str:
    """ "rejected by bob at 2026-10-01T12:00:00Z — note: stale" (masked, visible)."""
    if decision is None or label(decision) is None:
        return "undecided"
    words = str(decision.state)
    if decision.superseded_by is not None:
        words += f" (by {_t(decision.superseded_by)})"
    words += f" by {_t(decision.reviewer)} at {_t(decision.at, 64)}"
    if decision.note:
        words += f" — note: {_t(masked_note(decision.note), NOTE_CHARS)}"
    return words


def percent(agreed: int, total: int) -> str:
    return "—" if total == 0 else f"{agreed:,} of {total:,} ({100 * agreed / total:.1f}%)"


def kappa_words(agreement: Agreement) -> str:
    kappa = agreement.kappa
    if kappa is None:
        return KAPPA_UNDEFINED
    return f"{float(kappa):.4f} (exactly {kappa.numerator}/{kappa.denominator})"


def receipt_line(checked: CheckedReceipt) -> str:
    shown = receipt_words.verdict(checked.report)
    trusted = "" if checked.trusted else " — NOT signed by a key this destination trusts"
    return (
        f"receipt {checked.side}: {checked.digest or '(no digest)'} — {shown.words}{trusted} "
        f"({_t(checked.trust_words, 400)})"
    )


def text_lines(result: ReconcileResult) -> Iterator[str]:
    """The command's text output (each line already safe for a terminal)."""
    for checked in result.receipts:
        yield receipt_line(checked)
    agreement = result.agreement
    if agreement is None:
        return
    compared = len(agreement.compared)
    yield f"beliefs: {len(agreement.pairs):,} admitted, {compared:,} decided by both"
    yield f"agreement: {percent(len(agreement.agreed), compared)}"
    yield f"Cohen's kappa: {kappa_words(agreement)}"
    for row in agreement.per_state:
        specific = row.specific
        share = "—" if specific is None else f"{float(specific):.3f}"
        yield (
            f"  {row.state}: A {row.a:,}, B {row.b:,}, both {row.both:,} "
            f"(specific agreement {share})"
        )
    disagreements = agreement.disagreements
    yield f"disagreements: {len(disagreements):,}"
    for pair in disagreements:
        yield from _pair_lines(pair)
    one_sided = agreement.one_sided
    yield f"decided by one reviewer only: {len(one_sided):,}"
    for pair in one_sided:
        yield from _pair_lines(pair)
    yield f"undecided by both: {agreement.neither:,}"


PAIR_HEADERS: Final = ("belief", "reviewer A", "reviewer B", "agreement")


def pair_status(pair: Pair) -> str:
    """The side-by-side view's last column."""
    if pair.agreed:
        return "agreed"
    if pair.both_decided:
        return "DISAGREE"
    if pair.one_sided:
        return "only A decided" if label(pair.a) is not None else "only B decided"
    return "undecided by both"


def pair_row(pair: Pair) -> tuple[str, str, str, str]:
    """One belief side by side: its ref, each reviewer's decision, and their status."""
    return (_t(pair.portable_ref), decision_words(pair.a), decision_words(pair.b),
            pair_status(pair))  # fmt: skip


def _pair_lines(pair: Pair) -> Iterator[str]:
    yield f"  {_t(pair.portable_ref)}"
    yield f"    A: {decision_words(pair.a)}"
    yield f"    B: {decision_words(pair.b)}"


def _decision_json(decision: Decision | None) -> JsonValue:
    if decision is None or label(decision) is None:
        return None
    out = decision.to_json()
    if decision.note is not None:
        out["note"] = masked_note(decision.note)
    return out


def _pair_json(pair: Pair) -> JsonValue:
    return {"portableRef": pair.portable_ref, "a": _decision_json(pair.a),
            "b": _decision_json(pair.b)}  # fmt: skip


def result_json(result: ReconcileResult) -> dict[str, JsonValue]:
    """``reconcile --json`` (notes masked: the JSON is a report, not a receipt)."""
    receipts: list[JsonValue] = [
        {
            "side": c.side,
            "receiptDigest": c.digest,
            "status": str(c.report.status),
            "verdict": receipt_words.verdict(c.report).words,
            "trustedSigner": c.trusted,
            "trust": c.trust_words,
        }
        for c in result.receipts
    ]
    out: dict[str, JsonValue] = {
        "refused": result.refused,
        "receipts": receipts,
        "findings": [f.to_json() for f in result.findings],
    }
    agreement = result.agreement
    if agreement is None:
        return out
    compared = len(agreement.compared)
    out.update(
        {
            "admitted": len(agreement.pairs),
            "compared": compared,
            "agreed": len(agreement.agreed),
            "agreement": fraction_json(agreement.observed),
            "kappa": fraction_json(agreement.kappa),
            "perState": {
                str(row.state): {
                    "a": row.a,
                    "b": row.b,
                    "both": row.both,
                    "specificAgreement": fraction_json(row.specific),
                }
                for row in agreement.per_state
            },
            "disagreements": [_pair_json(p) for p in agreement.disagreements],
            "oneSided": [_pair_json(p) for p in agreement.one_sided],
            "undecidedByBoth": agreement.neither,
        }
    )
    if result.receipt is not None:
        out["reconciledReceiptDigest"] = result.receipt.get("receiptDigest")
    return out
