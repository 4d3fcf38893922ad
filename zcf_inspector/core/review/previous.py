"""Reviewing only what changed since the previous generation's receipt (issue 13, point 4).

A stream of handoffs sends a packet, then a later packet of the same work. ZCF v1 has no
in-band link between them (``packet.generation`` is always 1), so the reviewer names
the previous packet and the receipt exported for it; nothing here guesses.

**Checks.** The receipt must verify (shape, ``receiptDigest``; a signature that claims
the destination's own key must verify under it) and must belong to the previous packet
*as admitted here*: that packet is ingested again under the destination in force, with
the clock set to the receipt's ``importedAt`` (so an old packet's expiry does not refuse
it, and the admission is the one the decisions were made on), and ``match_receipt``
compares correlationId, packetId, packetNonce, manifestRootHash, the destination's key
id, targetDigest and every decision's portableRef. Anything else is refused.

**Content.** A belief is *unchanged* when its admitted object ``{portableRef, sourceId,
content}`` is byte-identical in canonical form in both generations — what the
destination admitted (``content`` already cut at ``maxBeliefBytes``), which is what the
earlier reviewer read and what the receipt's ``targetDigest`` binds. ``reviewState`` is
not part of it: admission makes every belief ``unreviewed``, so an incoming state is the
producer's claim, never the content decided on. A different ``sourceId`` is a change: the
claim now comes from another memory. Canonical bytes of these three strings are equal
exactly when the strings are (ZCF-JSON-v1 writes a string one way), so they are compared
as strings. A portableRef admitted twice on either side is ambiguous: *changed*.

**Trust.** Only a receipt signed by a key the destination trusts (its ``signingKey`` or
a ``trustedKeys`` entry) is carried over as it is; any other is compared and shown, and
its decisions repeated only when that is accepted explicitly (`previous_trust`).

**Carrying over.** Candidates are unchanged beliefs whose final earlier state (the last
decision for them in ``review.decisions``) is not ``unreviewed``. A supersede is carried
only when its replacement is admitted now *and* unchanged: "A is superseded by B" was
judged against B's content then; if B changed or is gone, repeating it would assert a
judgement about text nobody has read. Carrying over is never automatic: `plan_carry_over`
turns the candidates the current review has not decided yet into one bulk step of
decision requests, each with a note saying where it came from; the caller applies them
as the current reviewer at the current time (journalled like any decision).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.formats import ReviewState, parse_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import ingest_inspection
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.decisions import (
    AdmittedBelief,
    Decision,
    DecisionRequest,
    ReviewTarget,
    check_request,
    match_receipt,
    normal_note,
    refuse,
)
from zcf_inspector.core.review.previous_trust import (
    RECEIPT_TRUST,
    UNSIGNED_ORIGIN,
    check_previous_receipt,
    refusal,
    trust_words,
    untrusted_refusal,
)

RECEIPT_MAX_BYTES = 64 * 1024 * 1024
_CHUNK = 10_000  # beliefs between two cancellation points
_STATES = frozenset(s.value for s in ReviewState)


class BeliefChange(StrEnum):
    NEW = "new"  # no belief of that portableRef was admitted from the previous packet
    CHANGED = "changed"  # admitted both times, other sourceId or content (or ref repeated)
    UNCHANGED = "unchanged"  # the admitted object is byte-identical


def content_key(belief: AdmittedBelief) -> tuple[str, str, str]:
    """What "byte-identical content" compares: the admitted ``{portableRef, sourceId,
    content}`` (equal strings are equal canonical bytes)."""
    return (belief.portable_ref, belief.source_id, belief.content)


@dataclass(frozen=True, slots=True)
class Classification:
    changes: Mapping[str, BeliefChange]  # every current portableRef
    removed: tuple[str, ...]  # admitted before, not now (previous packet order)
    repeated: frozenset[str]  # admitted more than once on either side
    # Counted once, where the classification is made (a worker): the window reads the
    # counts on every refresh.
    _counts: Mapping[BeliefChange, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts = dict.fromkeys(BeliefChange, 0)
        for change in self.changes.values():
            counts[change] += 1
        object.__setattr__(self, "_counts", counts)

    def count(self, change: BeliefChange) -> int:
        return self._counts[change]


def classify(
    previous: Sequence[AdmittedBelief],
    current: Sequence[AdmittedBelief],
    monitor: Monitor = NULL_MONITOR,
) -> Classification:
    """Each current belief as new, changed or unchanged against the previous admission."""
    before: dict[str, tuple[str, str, str]] = {}
    repeated: set[str] = set()
    for index, belief in enumerate(previous):
        if index % _CHUNK == 0:
            monitor.breathe()
        if belief.portable_ref in before:
            repeated.add(belief.portable_ref)
        before[belief.portable_ref] = content_key(belief)
    changes: dict[str, BeliefChange] = {}
    for index, belief in enumerate(current):
        if index % _CHUNK == 0:
            monitor.breathe()
        ref = belief.portable_ref
        if ref in changes:
            repeated.add(ref)
        earlier = before.get(ref)
        if earlier is None:
            changes[ref] = BeliefChange.NEW
        elif earlier == content_key(belief) and ref not in changes:
            changes[ref] = BeliefChange.UNCHANGED
        else:
            changes[ref] = BeliefChange.CHANGED
    for ref in repeated:
        if ref in changes and changes[ref] is not BeliefChange.NEW:
            changes[ref] = BeliefChange.CHANGED
    removed = tuple(ref for ref in before if ref not in changes)
    return Classification(changes, removed, frozenset(repeated))


def earlier_decisions(receipt: Mapping[str, JsonValue]) -> dict[str, Decision]:
    """The last decision per belief in a receipt whose shape was checked (profile §6:
    the last decision for a belief is its state)."""
    review = receipt.get("review")
    listed = review.get("decisions") if isinstance(review, dict) else None
    last: dict[str, Decision] = {}
    for item in listed if isinstance(listed, list) else []:
        if not isinstance(item, dict):
            continue
        ref, state, reviewer, at = (item.get(k) for k in ("portableRef", "state", "reviewer", "at"))
        note, replacement = item.get("note"), item.get("supersededBy")
        if not (
            isinstance(ref, str)
            and isinstance(state, str)
            and state in _STATES
            and isinstance(reviewer, str)
            and isinstance(at, str)
        ):
            continue  # the shape check refuses such a receipt before this is called
        last[ref] = Decision(
            ref,
            ReviewState(state),
            reviewer,
            at,
            note if isinstance(note, str) else None,
            replacement if isinstance(replacement, str) else None,
        )
    return last


@dataclass(frozen=True, slots=True)
class Carryable:
    """An unchanged belief and the earlier decision that may be repeated on it."""

    portable_ref: str
    earlier: Decision


@dataclass(frozen=True, slots=True)
class Withheld:
    """An unchanged belief with an earlier decision that is not offered, and why."""

    portable_ref: str
    earlier: Decision
    reason: str


@dataclass(frozen=True, slots=True)
class PreviousGeneration:
    """The previous packet and its receipt, checked, against the packet under review."""

    packet_id: str  # the previous packet's
    receipt_digest: str
    receipt_status: ReceiptStatus
    receipt_notes: tuple[Finding, ...]  # what the verification could not check
    imported_at: str  # the receipt's: the clock the previous packet was admitted at again
    current_correlation_id: str  # the review this was computed for
    classification: Classification
    earlier: Mapping[str, Decision]  # the last earlier decision per previous belief
    candidates: tuple[Carryable, ...]  # in the current packet's order
    withheld: tuple[Withheld, ...]
    notes: tuple[str, ...]  # what the two packets' identities say about their relation
    trust_words: str = ""  # what the receipt's verification established (by whose key)
    # The content the previous generation admitted, for each belief changed since: what
    # the earlier reviewer read, shown beside the new text (only changed beliefs are
    # kept, so an unchanged stream of 200,000 beliefs keeps nothing twice).
    earlier_content: Mapping[str, str] = field(default_factory=dict)

    @property
    def changed_refs(self) -> frozenset[str]:
        """New or changed: what "changed since that receipt" shows."""
        return frozenset(
            ref for ref, c in self.classification.changes.items() if c is not BeliefChange.UNCHANGED
        )

    def trust_text(self) -> str:
        """What the receipt's verification established, in words."""
        return self.trust_words or RECEIPT_TRUST[self.receipt_status]

    @property
    def trusted(self) -> bool:
        """Signed by a key the destination trusts, and verified: its decisions may be
        repeated without a second question."""
        return self.receipt_status is ReceiptStatus.VALID_SIGNED

    def summary(self) -> str:
        c = self.classification
        parts = [
            f"{c.count(BeliefChange.NEW):,} new",
            f"{c.count(BeliefChange.CHANGED):,} changed",
            f"{c.count(BeliefChange.UNCHANGED):,} unchanged",
        ]
        if c.removed:
            parts.append(f"{len(c.removed):,} no longer admitted")
        return ", ".join(parts)


def admit_previous(
    data: bytes, receipt: Mapping[str, JsonValue], destination: Destination, monitor: Monitor
) -> ReviewTarget:
    """The previous packet as admitted here when the receipt was made (its ``importedAt``)."""
    imported_at = receipt.get("importedAt")
    assert isinstance(imported_at, str)  # the receipt's shape was checked
    then = dataclasses.replace(destination, fixed_now=parse_timestamp(imported_at))
    inspection = inspect_bytes(data, then, monitor=monitor)
    result = ingest_inspection(inspection, then)
    if result.receipt is None:
        errors = [f for f in inspection.findings if f.severity is Severity.ERROR]
        raise refusal(
            ReviewCode.PREVIOUS_PACKET_REFUSED,
            f"the previous packet does not ingest at this destination at {imported_at} "
            "(the receipt's importedAt)",
            errors,
        )
    return ReviewTarget.from_ingest(result)


def compare_with_previous(
    previous: ReviewTarget,
    receipt: Mapping[str, JsonValue],
    report: ReceiptReport,
    current: ReviewTarget,
    monitor: Monitor = NULL_MONITOR,
) -> PreviousGeneration:
    """Classify ``current`` against ``previous`` and find what may be carried over.

    ``receipt`` was verified (``report``); it is refused here unless it belongs to
    ``previous`` as admitted at this destination.
    """
    problems = match_receipt(receipt, previous)
    if problems:
        raise refusal(
            ReviewCode.RECEIPT_MISMATCH,
            "the receipt does not belong to the previous packet as admitted here",
            problems,
        )
    classification = classify(previous.beliefs, current.beliefs, monitor)
    earlier = earlier_decisions(receipt)
    candidates: list[Carryable] = []
    withheld: list[Withheld] = []
    for index, belief in enumerate(current.beliefs):
        if index % _CHUNK == 0:
            monitor.breathe()
        ref = belief.portable_ref
        decision = earlier.get(ref)
        if (
            decision is None
            or decision.state is ReviewState.UNREVIEWED
            or classification.changes[ref] is not BeliefChange.UNCHANGED
        ):
            continue
        reason = _withheld_reason(decision, classification, current)
        if reason is None:
            candidates.append(Carryable(ref, decision))
        else:
            withheld.append(Withheld(ref, decision, reason))
    digest = receipt.get("receiptDigest")
    imported_at = receipt.get("importedAt")
    assert isinstance(digest, str)
    assert isinstance(imported_at, str)
    changed = classification.changes
    earlier_content: dict[str, str] = {}
    for belief in previous.beliefs:  # the first of a repeated ref, as everywhere
        if changed.get(belief.portable_ref) is BeliefChange.CHANGED:
            earlier_content.setdefault(belief.portable_ref, belief.content)
    return PreviousGeneration(
        previous.receipt_text("packetId"),
        digest,
        report.status,
        tuple(f for f in report.findings if f.severity is not Severity.ERROR),
        imported_at,
        current.correlation_id,
        classification,
        earlier,
        tuple(candidates),
        tuple(withheld),
        _relation_notes(previous, current),
        earlier_content=earlier_content,
    )


def _withheld_reason(
    decision: Decision, classification: Classification, current: ReviewTarget
) -> str | None:
    replacement = decision.superseded_by
    if decision.state is not ReviewState.SUPERSEDED:
        # The belief is admitted (it is unchanged), the state is legal and supersededBy
        # absent (the receipt's shape), and the repeated decision carries a note.
        return None
    if replacement is not None:
        change = classification.changes.get(replacement)
        if change is None:
            return f"its replacement {replacement!r} is not admitted in this packet"
        if change is not BeliefChange.UNCHANGED:
            return f"its replacement {replacement!r} is {change} since that receipt"
    # The rest of the rules (a belief superseded by itself, say): a receipt from another
    # tool may hold what this one refuses.
    request = DecisionRequest(decision.portable_ref, decision.state, "repeated", replacement)
    problems = check_request(request, current.refs)
    return problems[0].message if problems else None


def _relation_notes(previous: ReviewTarget, current: ReviewTarget) -> tuple[str, ...]:
    """What can be said of the two packets' relation (nothing here is a refusal: the
    reviewer chose the previous packet, and these say what to look at twice)."""
    notes = []
    if previous.correlation_id == current.correlation_id:
        notes.append("the previous packet is the packet under review itself")
    old_source = previous.receipt.get("sourceInstallationKeyId")
    new_source = current.receipt.get("sourceInstallationKeyId")
    if old_source != new_source:
        notes.append(
            f"the previous packet comes from source installation {old_source}, "
            f"this one from {new_source}"
        )
    old_created = _created(previous)
    new_created = _created(current)
    if old_created and new_created and parse_timestamp(old_created) > parse_timestamp(new_created):
        notes.append(
            f"the previous packet was created at {old_created}, after this one ({new_created})"
        )
    return tuple(notes)


def _created(target: ReviewTarget) -> str | None:
    identity = target.packet.get("packet")
    value = identity.get("createdAt") if isinstance(identity, dict) else None
    return value if isinstance(value, str) else None


def load_previous(
    packet_path: str,
    receipt_path: str,
    destination: Destination,
    current: ReviewTarget,
    monitor: Monitor = NULL_MONITOR,
) -> PreviousGeneration:
    """Read, verify and compare: what the window's worker and the `review` command run.

    Raises `InputError` for a file that cannot be read, `ReviewError` for a refusal.
    """
    monitor.step("reading the previous receipt", 0.0)
    receipt_data = read_bounded(receipt_path, RECEIPT_MAX_BYTES)
    try:
        receipt = read_json(receipt_data, max_bytes=RECEIPT_MAX_BYTES)
    except ReadError as exc:
        raise refuse(
            ReviewCode.PREVIOUS_RECEIPT_INVALID,
            f"{receipt_path} is not a receipt: the strict reader refused it ({exc})",
        ) from exc
    monitor.step("verifying the previous receipt", 0.05)
    report = check_previous_receipt(receipt, destination)
    assert isinstance(receipt, dict)
    monitor.step("reading the previous packet", 0.1)
    data = read_bounded(packet_path)
    previous = admit_previous(data, receipt, destination, monitor)
    monitor.step("comparing the admitted beliefs", 0.8)
    compared = compare_with_previous(previous, receipt, report, current, monitor)
    return dataclasses.replace(
        compared, trust_words=trust_words(receipt, destination, report.status)
    )


@dataclass(frozen=True, slots=True)
class CarryOver:
    """One bulk step's requests, and the candidates this review had decided already."""

    requests: tuple[DecisionRequest, ...]
    already_decided: tuple[str, ...]


def repeat_note(note: str, previous: PreviousGeneration, earlier: Decision) -> str:
    """The note of a repeated decision: the reviewer's words, then where it came from
    (saying so when no trusted key signed that receipt)."""
    source = "receipt" if previous.trusted else UNSIGNED_ORIGIN.removeprefix("from ")
    origin = (
        f"repeated from {source} {previous.receipt_digest} (packet {previous.packet_id}; "
        f"{earlier.state} by {earlier.reviewer} at {earlier.at})"
    )
    if earlier.note:
        origin += f": {earlier.note}"
    return f"{note} — {origin}"


def plan_carry_over(
    previous: PreviousGeneration,
    last: Mapping[str, Decision],
    note: str,
    monitor: Monitor = NULL_MONITOR,
    *,
    accept_untrusted: bool = False,
) -> CarryOver:
    """The requests that repeat every candidate this review has not decided yet.

    A belief this review has a decision for (other than back to unreviewed) keeps it:
    the reviewer's own decision is never overwritten by an older one. A receipt no
    trusted key signed is refused (``previous_receipt_untrusted``) unless
    ``accept_untrusted``: the caller asked the reviewer a second time.
    """
    if not previous.trusted and not accept_untrusted:
        raise untrusted_refusal(previous.receipt_status)
    reviewer_note = normal_note(note)
    if reviewer_note is None or not reviewer_note.strip():
        raise refuse(
            ReviewCode.NOTE_REQUIRED,
            "repeating earlier decisions needs a note: they become your decisions",
        )
    pending, decided = repeatable(previous, last, monitor)
    requests: list[DecisionRequest] = []
    for index, c in enumerate(pending):
        if index % _CHUNK == 0:
            monitor.breathe()
        requests.append(
            DecisionRequest(
                c.portable_ref,
                c.earlier.state,
                repeat_note(reviewer_note, previous, c.earlier),
                c.earlier.superseded_by,
            )
        )
    return CarryOver(tuple(requests), decided)


def repeatable(
    previous: PreviousGeneration, last: Mapping[str, Decision], monitor: Monitor = NULL_MONITOR
) -> tuple[tuple[Carryable, ...], tuple[str, ...]]:
    """The candidates still open in this review, and those it has decided already."""
    pending: list[Carryable] = []
    decided: list[str] = []
    for index, candidate in enumerate(previous.candidates):
        if index % _CHUNK == 0:
            monitor.breathe()
        mine = last.get(candidate.portable_ref)
        if mine is not None and mine.state is not ReviewState.UNREVIEWED:
            decided.append(candidate.portable_ref)
        else:
            pending.append(candidate)
    return tuple(pending), tuple(decided)


@dataclass(frozen=True, slots=True)
class RepeatCounts:
    """How many candidates are still open in this review (by their earlier state, in
    the order first met) and how many it has decided already: what `repeatable` lists,
    counted without building the lists."""

    pending: int
    decided: int
    by_state: tuple[tuple[ReviewState, int], ...]


def repeat_counts(
    previous: PreviousGeneration, last: Mapping[str, Decision], monitor: Monitor = NULL_MONITOR
) -> RepeatCounts:
    decided = 0
    states: dict[ReviewState, int] = {}
    for index, candidate in enumerate(previous.candidates):
        if index % _CHUNK == 0:
            monitor.breathe()
        mine = last.get(candidate.portable_ref)
        if mine is not None and mine.state is not ReviewState.UNREVIEWED:
            decided += 1
        else:
            state = candidate.earlier.state
            states[state] = states.get(state, 0) + 1
    return RepeatCounts(sum(states.values()), decided, tuple(states.items()))
