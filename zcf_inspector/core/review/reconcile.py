"""Two reviewers' receipts of one packet reconciled (``receipt reconcile``, `api.reconcile`).

Both receipts are verified first, like a previous generation's (`previous_trust`): shape,
digest and, when the signature claims a key this destination trusts, the signature. One
that is unsigned or signed by no trusted key is refused (``reconcile_receipt_untrusted``)
unless the caller accepts that; then both are matched to the packet as admitted here
(``receipt_mismatch``). The comparison is `agreement.compare_decisions`.

On request the result carries a third receipt: the packet's receipt as admitted here, with
one decision per belief the reconciliation settled — the agreed ones, and the reconciler's
choices (`reconcile_choices`) on the rest — made by the reconciler, now, and signed by the
destination like any receipt. The receipt's keys are closed (profile §6: exactly these
keys), so the earlier receipts are named where a receipt has room for words: each
decision's note says it was reconciled from receipts A and B, by digest, and what each
reviewer had decided (see docs/format.md, "Reconciled receipts").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.findings import Finding, FindingBudget, Severity, error
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import IngestResult, ingest_bytes
from zcf_inspector.core.packet.receipt import (
    ReceiptReport,
    ReceiptStatus,
    unreadable_receipt,
    verify_receipt,
)
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.agreement import Agreement, Pair, compare_decisions, label
from zcf_inspector.core.review.decisions import Decision, DecisionRequest, ReviewError
from zcf_inspector.core.review.previous import RECEIPT_MAX_BYTES
from zcf_inspector.core.review.previous_trust import RECEIPT_TRUST, trust_words, trusted_signer
from zcf_inspector.core.review.receipt_match import match_receipt
from zcf_inspector.core.review.reconcile_choices import Choices, OneSided, Take
from zcf_inspector.core.review.session import ReviewSession, apply_decisions
from zcf_inspector.core.review.target import ReviewTarget

SIDES = ("A", "B")
SHOWN_PROBLEMS = 20  # of one receipt's verification or matching problems


@dataclass(frozen=True, slots=True)
class CheckedReceipt:
    """One of the two receipts, verified: its value (None when unreadable), the check's
    report, and whether a key this destination trusts signed it."""

    side: str
    value: dict[str, JsonValue] | None
    report: ReceiptReport
    trusted: bool
    trust_words: str

    @property
    def digest(self) -> str | None:
        return self.report.listed_digest if self.report.valid else None


@dataclass(frozen=True, slots=True)
class ReconcileResult:
    """``agreement`` is None when the packet or a receipt was refused (``findings`` say
    why); ``receipt`` is the reconciled receipt, when one was asked for and made."""

    ingest: IngestResult
    receipts: tuple[CheckedReceipt, ...]
    agreement: Agreement | None
    findings: tuple[Finding, ...] = ()
    receipt: dict[str, JsonValue] | None = None
    reconciler: str | None = None

    @property
    def refused(self) -> bool:
        return self.agreement is None or bool(self.findings)


def check_side(side: str, data: bytes, destination: Destination) -> CheckedReceipt:
    """Read and verify one receipt (never raises: a refusal is in its report)."""
    try:
        value = read_json(data, max_bytes=RECEIPT_MAX_BYTES)
    except ReadError as exc:
        report = unreadable_receipt(exc.to_finding())  # the reader's own refusal
        return CheckedReceipt(side, None, report, False, RECEIPT_TRUST[ReceiptStatus.INVALID])
    signer = trusted_signer(value, destination)
    report = verify_receipt(value, None if signer is None else signer[0])
    trusted = report.status is ReceiptStatus.VALID_SIGNED and signer is not None
    words = trust_words(value, destination, report.status)
    return CheckedReceipt(side, value if isinstance(value, dict) else None, report, trusted, words)


def _side_problems(
    checked: CheckedReceipt, target: ReviewTarget, accept_unsigned: bool
) -> list[Finding]:
    side = checked.side
    if not checked.report.valid or checked.value is None:
        errors = [f for f in checked.report.findings if f.severity is Severity.ERROR]
        head = error(
            ReviewCode.RECONCILE_RECEIPT_INVALID,
            "",
            f"receipt {side} does not verify, so it cannot be reconciled",
        )
        return [head, *(_on(side, f) for f in errors[:SHOWN_PROBLEMS])]
    problems: list[Finding] = []
    if not checked.trusted and not accept_unsigned:
        why = (
            "is unsigned"
            if checked.report.status is ReceiptStatus.VALID_UNSIGNED
            else "is signed by no key this destination trusts (its signingKey or a "
            "trustedKeys entry)"
        )
        problems.append(
            error(
                ReviewCode.RECONCILE_RECEIPT_UNTRUSTED,
                "",
                f"receipt {side} {why}: nothing proves who made its decisions. To "
                "reconcile it anyway, accept that explicitly (--accept-unsigned)",
            )
        )
    mismatch = match_receipt(checked.value, target)
    problems += [_on(side, f) for f in mismatch[:SHOWN_PROBLEMS]]
    if len(mismatch) > SHOWN_PROBLEMS:
        more = len(mismatch) - SHOWN_PROBLEMS
        problems.append(error(ReviewCode.RECEIPT_MISMATCH, "", f"receipt {side}: … {more:,} more"))
    return problems


def _on(side: str, finding: Finding) -> Finding:
    return Finding(
        finding.code, finding.severity, finding.pointer, f"receipt {side}: {finding.message}"
    )


def reconcile_receipts(
    data: bytes,
    destination: Destination,
    a: bytes,
    b: bytes,
    *,
    accept_unsigned: bool = False,
    choices: Choices | None = None,
    reconciler: str | None = None,
    monitor: Monitor = NULL_MONITOR,
) -> ReconcileResult:
    """Compare the receipts ``a`` and ``b`` (their bytes) of the packet ``data`` as
    admitted at ``destination``; with ``choices`` and ``reconciler``, also make the
    reconciled receipt (`reconcile_choices` says what a choice means).

    Raises:
        ReviewError: ``choices`` is given without a valid ``reconciler`` id.
    """
    if choices is not None and not reconciler:
        raise ReviewError(
            [error(ReviewCode.INVALID_REVIEWER, "", "a reconciled receipt needs a reconciler")]
        )
    monitor.step("admitting the packet", 0.0)
    admitted = ingest_bytes(data, destination)
    try:
        target = ReviewTarget.from_ingest(admitted)
    except ReviewError as exc:
        return ReconcileResult(admitted, (), None, exc.findings)
    monitor.step("verifying the receipts", 0.4)
    checked = (check_side("A", a, destination), check_side("B", b, destination))
    problems = [p for c in checked for p in _side_problems(c, target, accept_unsigned)]
    if problems:
        return ReconcileResult(admitted, checked, None, tuple(problems))
    first, second = checked[0].value, checked[1].value
    assert first is not None
    assert second is not None
    monitor.step("comparing the decisions", 0.6)
    agreement = compare_decisions(target.refs, first, second)
    if choices is None or reconciler is None:
        return ReconcileResult(admitted, checked, agreement)
    monitor.step("making the reconciled receipt", 0.8)
    origin = Origin(checked[0], checked[1])
    budget = FindingBudget()
    for ref in choices.beliefs:
        if ref not in target.refs:
            budget.add(
                error(
                    ReviewCode.UNKNOWN_PORTABLE_REF,
                    "",
                    f"the choices name {ref!r}, which is not an admitted belief",
                )
            )
    requests = reconciled_requests(agreement, choices, origin)
    try:
        session = ReviewSession(target)
        apply_decisions(session, list(requests), reconciler, destination.now_text, budget)
    except ReviewError as exc:
        budget.extend(exc.findings)
    if budget.kept or budget.omitted():
        return ReconcileResult(admitted, checked, agreement, tuple(budget.kept), None, reconciler)
    receipt = session.receipt(destination.now_text(), destination.signing_key)
    return ReconcileResult(admitted, checked, agreement, (), receipt, reconciler)


@dataclass(frozen=True, slots=True)
class Origin:
    """The two receipts a reconciled decision came from, for its note."""

    a: CheckedReceipt
    b: CheckedReceipt

    def head(self) -> str:
        unsigned = [c.side for c in (self.a, self.b) if not c.trusted]
        caveat = (
            f" (receipt {' and '.join(unsigned)} not signed by a trusted key)" if unsigned else ""
        )
        return f"reconciled from receipts A {self.a.digest} and B {self.b.digest}{caveat}"


def said(side: str, decision: Decision | None) -> str:
    if decision is None or label(decision) is None:
        return f"{side}: undecided"
    text = f"{side}: {decision.state}"
    if decision.superseded_by is not None:
        text += f" by {decision.superseded_by}"
    text += f" ({decision.reviewer} at {decision.at})"
    if decision.note:
        text += f", note: {decision.note}"
    return text


def reconciled_requests(
    agreement: Agreement, choices: Choices, origin: Origin
) -> tuple[DecisionRequest, ...]:
    """One request per belief the reconciliation settles, in packet order."""
    out: list[DecisionRequest] = []
    for pair in agreement.pairs:
        made = _settle(pair, choices)
        if made is None:
            continue
        how, decision = made
        note = f"{origin.head()}: {how}; {said('A', pair.a)}; {said('B', pair.b)}"
        own = decision.note if isinstance(decision, DecisionRequest) else None
        lead = " — ".join(t for t in (choices.note, own) if t)
        out.append(
            DecisionRequest(
                pair.portable_ref,
                str(decision.state),
                f"{lead} — {note}" if lead else note,
                decision.superseded_by,
            )
        )
    return tuple(out)


_Settled = tuple[str, Decision | DecisionRequest]


def _settle(pair: Pair, choices: Choices) -> _Settled | None:
    """How this belief is settled (words for its note, and the decision taken), or None
    to leave it undecided."""
    chosen = choices.beliefs.get(pair.portable_ref)
    if isinstance(chosen, DecisionRequest):
        return "the reconciler's own decision", chosen
    if chosen is not None:
        return _take(pair, chosen, "the reconciler chose")
    if pair.agreed and pair.a is not None:
        return "both reviewers agreed", pair.a
    if pair.both_decided:
        return _take(pair, choices.disagreed, "they disagreed; the rule took")
    if pair.one_sided and choices.one_sided is OneSided.TAKE:
        side = Take.A if label(pair.a) is not None else Take.B
        return _take(pair, side, "only one reviewer decided; the rule took")
    return None


_PICK: dict[Take, Callable[[Pair], Decision | None]] = {
    Take.A: lambda p: p.a,
    Take.B: lambda p: p.b,
}


def _take(pair: Pair, take: Take, words: str) -> _Settled | None:
    if take is Take.LEAVE:
        return None
    decision = _PICK[take](pair)
    if decision is None or label(decision) is None:
        return None  # that reviewer left it undecided: so does the reconciliation
    return f"{words} {str(take).upper()}", decision
