"""Human review of admitted beliefs (profile §6 ``review``): the rules, the session, the receipt.

A decision sets one admitted belief's review state. The receipt lists every decision in the
order made, so the last decision for a belief is its state. Undo takes a whole step (one
decision, or one bulk decision) off the end of that list; redo puts it back. An export seals
what was exported: nothing before it can be undone any more.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import RefusalError
from zcf_inspector.core.findings import Finding, FindingBudget, Severity, error
from zcf_inspector.core.formats import ReviewState, is_id, is_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.admission import AdmissionNotice, DroppedBeliefs, describe_admission
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import (
    Admission,
    IngestResult,
    ingest_bytes,
    ingest_inspection,
)
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageStatus
from zcf_inspector.core.packet.receipt import finish_receipt
from zcf_inspector.core.pointer import escape, join
from zcf_inspector.core.visible_text import clip

NOTE_REQUIRED_STATES = frozenset({ReviewState.REJECTED, ReviewState.SUPERSEDED})
DECISION_KEYS = frozenset({"portableRef", "state", "note", "supersededBy"})


class ReviewError(RefusalError):
    """A refused review operation; ``findings`` holds every reason, each with its code."""

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.findings = tuple(findings)
        super().__init__("; ".join(f"{f.code}: {f.message}" for f in self.findings))

    @property
    def code(self) -> StrEnum:
        return self.findings[0].code


def refuse(code: ReviewCode, message: str, pointer: str = "") -> ReviewError:
    return ReviewError([error(code, pointer, message)])


@dataclass(frozen=True, slots=True)
class AdmittedBelief:
    portable_ref: str
    source_id: str
    content: str
    incoming_state: str  # as the packet wrote it; admission made it unreviewed

    @property
    def demoted(self) -> bool:
        return self.incoming_state != ReviewState.UNREVIEWED


class AdmittedRefs(tuple[str, ...]):
    """The admitted portableRefs in packet order, with set-speed membership.

    Every decision is checked against them (``ref in refs``): a bulk step or a replayed
    journal of 10,000 decisions over 10,000 beliefs must not cost 10,000 linear scans.
    """

    _known: frozenset[str]

    def __new__(cls, refs: Iterable[str]) -> AdmittedRefs:
        made = super().__new__(cls, refs)
        made._known = frozenset(made)
        return made

    def __contains__(self, ref: object) -> bool:
        # Only strings are refs; anything else (a hostile list, say) is not one, never an error.
        return isinstance(ref, str) and ref in self._known


@dataclass(frozen=True, slots=True)
class ReviewTarget:
    """What is under review: the ingest receipt (no decisions) and the admitted beliefs."""

    receipt: Mapping[str, JsonValue]
    beliefs: tuple[AdmittedBelief, ...]
    packet: Mapping[str, JsonValue]
    admission: Admission | None = None  # what admission dropped, cut and demoted
    degraded: tuple[tuple[str, str, str], ...] = ()  # sections and tools not native
    _refs: AdmittedRefs = field(init=False, repr=False, compare=False)
    _by_ref: Mapping[str, AdmittedBelief] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen: computed once here. The first belief of a repeated ref is the one found.
        object.__setattr__(self, "_refs", AdmittedRefs(b.portable_ref for b in self.beliefs))
        by_ref: dict[str, AdmittedBelief] = {}
        for b in self.beliefs:
            by_ref.setdefault(b.portable_ref, b)
        object.__setattr__(self, "_by_ref", by_ref)

    @classmethod
    def from_ingest(cls, result: IngestResult) -> ReviewTarget:
        packet = result.inspection.value
        if result.receipt is None or packet is None:
            raise refuse(
                ReviewCode.PACKET_REFUSED,
                "the packet was refused at ingest, so it has no admitted beliefs to review",
            )
        content = packet.get("content")
        raw = content.get("beliefs", []) if isinstance(content, dict) else []
        incoming = raw if isinstance(raw, list) else []
        beliefs = []
        # Admission keeps the first beliefs in packet order, so the i-th admitted belief is
        # the i-th belief of the packet: its incoming state is read from there.
        for admitted, original in zip(result.admitted_beliefs, incoming, strict=False):
            state = original.get("reviewState", "unreviewed") if isinstance(original, dict) else ""
            beliefs.append(
                AdmittedBelief(
                    _text(admitted["portableRef"]),
                    _text(admitted["sourceId"]),
                    _text(admitted["content"]),
                    state if isinstance(state, str) else "",
                )
            )
        return cls(result.receipt, tuple(beliefs), packet, result.admission, result.degraded)

    @property
    def notice(self) -> AdmissionNotice | None:
        """What admission changed, in words (None for a target made without an ingest)."""
        if self.admission is None:
            return None
        return describe_admission(self.admission, self.degraded)

    @property
    def dropped(self) -> DroppedBeliefs | None:
        """The beliefs admission left out, for reading only."""
        if self.admission is None or not isinstance(self.packet, dict):
            return None
        return DroppedBeliefs(self.packet, self.admission)

    @property
    def refs(self) -> AdmittedRefs:
        return self._refs

    def receipt_text(self, name: str) -> str:
        return _text(self.receipt[name])

    @property
    def correlation_id(self) -> str:
        return self.receipt_text("correlationId")

    def belief(self, ref: str) -> AdmittedBelief | None:
        return self._by_ref.get(ref)


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """What a reviewer asks for, before the rules have seen it (``state`` may be illegal)."""

    portable_ref: str
    state: str
    note: str | None = None
    superseded_by: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    portable_ref: str
    state: ReviewState
    reviewer: str
    at: str
    note: str | None = None
    superseded_by: str | None = None

    def to_json(self) -> dict[str, JsonValue]:
        """The wire object, keys in the profile's order (the file bytes depend on it)."""
        out: dict[str, JsonValue] = {
            "portableRef": self.portable_ref,
            "state": str(self.state),
            "reviewer": self.reviewer,
            "at": self.at,
        }
        if self.note is not None:
            out["note"] = self.note
        if self.superseded_by is not None:
            out["supersededBy"] = self.superseded_by
        return out


@dataclass(frozen=True, slots=True)
class Step:
    """One undoable unit: a single decision, or every decision of one bulk action."""

    number: int
    decisions: tuple[Decision, ...]


def normal_note(note: str | None) -> str | None:
    # An empty note field means "no note": the window and the CLI must write the same bytes.
    return None if note is None or note == "" else note


def check_request(
    request: DecisionRequest, refs: Iterable[str], pointer: str = ""
) -> list[Finding]:
    """Every rule one decision breaks, whatever the belief's current state."""
    known: Container[str] = refs if isinstance(refs, AdmittedRefs | AbstractSet) else set(refs)
    problems: list[Finding] = []
    if request.portable_ref not in known:
        problems.append(
            error(
                ReviewCode.UNKNOWN_PORTABLE_REF,
                pointer + "/portableRef",
                f"{request.portable_ref!r} is not the portableRef of an admitted belief",
            )
        )
    if request.state not in set(ReviewState):
        problems.append(
            error(
                ReviewCode.ILLEGAL_STATE,
                pointer + "/state",
                f"{request.state!r} is not a review state "
                "(unreviewed, confirmed, rejected, superseded)",
            )
        )
        return problems
    state = ReviewState(request.state)
    note = normal_note(request.note)
    if state in NOTE_REQUIRED_STATES and (note is None or not note.strip()):
        problems.append(
            error(ReviewCode.NOTE_REQUIRED, pointer + "/note", f"a {state} decision needs a note")
        )
    problems.extend(_check_replacement(request, state, known, pointer + "/supersededBy"))
    return problems


def _check_replacement(
    request: DecisionRequest, state: ReviewState, known: Container[str], pointer: str
) -> list[Finding]:
    replacement = request.superseded_by
    if state is not ReviewState.SUPERSEDED:
        if replacement is None:
            return []
        message = f"supersededBy is only given for a superseded belief, not a {state} one"
    elif replacement is None:
        message = "a superseded belief names the belief that replaces it (supersededBy)"
    elif replacement == request.portable_ref:
        message = f"{replacement!r} cannot supersede itself"
    elif replacement not in known:
        message = f"supersededBy {replacement!r} is not the portableRef of an admitted belief"
    else:
        return []
    return [error(ReviewCode.SUPERSEDED_BY_INVALID, pointer, message)]


def check_reviewer(reviewer: str) -> None:
    if not is_id(reviewer):
        raise refuse(
            ReviewCode.INVALID_REVIEWER,
            f"reviewer {reviewer!r} is not an id (1-256 characters, none below U+0020)",
        )


def make_decision(request: DecisionRequest, reviewer: str, at: str) -> Decision:
    """A checked request as a decision; call ``check_request`` first."""
    return Decision(
        request.portable_ref,
        ReviewState(request.state),
        reviewer,
        at,
        normal_note(request.note),
        request.superseded_by,
    )


@dataclass(frozen=True, slots=True)
class ReviewSummary:
    counts: Mapping[ReviewState, int]
    decisions: int

    @property
    def unreviewed(self) -> int:
        return self.counts[ReviewState.UNREVIEWED]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class ReviewSession:
    """The decisions made so far on one target, with undo and redo; pure, no storage."""

    target: ReviewTarget
    applied: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)  # redo stack, most recent undo last
    sealed: int = 0  # how many applied steps an export made final
    next_number: int = 1

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(d for step in self.applied for d in step.decisions)

    def last_decisions(self) -> dict[str, Decision]:
        return {d.portable_ref: d for d in self.decisions}

    def state_of(self, ref: str) -> ReviewState:
        last = self.last_decisions().get(ref)
        return ReviewState.UNREVIEWED if last is None else last.state

    def plan(self, requests: Sequence[DecisionRequest], reviewer: str, at: str) -> Step:
        """The next step for ``requests`` (checked, not yet applied): journal it, then apply."""
        check_reviewer(reviewer)
        if not is_timestamp(at):
            raise refuse(ReviewCode.INVALID_DECISION, f"{at!r} is not a timestamp")
        problems = [
            p
            for index, request in enumerate(requests)
            for p in check_request(request, self.target.refs, join(index))
        ]
        if problems:
            raise ReviewError(problems)
        decisions = tuple(make_decision(r, reviewer, at) for r in requests)
        return Step(self.next_number, decisions)

    def apply(self, step: Step) -> None:
        if step.number < self.next_number or not step.decisions:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"step {step.number} is out of order")
        self.applied.append(step)
        self.undone.clear()  # a new decision forks history: what was undone is gone
        self.next_number = step.number + 1

    def undo_candidate(self) -> Step:
        if len(self.applied) <= self.sealed:
            reason = "the receipt was exported" if self.sealed else "no decision has been made"
            raise refuse(ReviewCode.NOTHING_TO_UNDO, f"nothing to undo: {reason}")
        return self.applied[-1]

    def redo_candidate(self) -> Step:
        if not self.undone:
            raise refuse(ReviewCode.NOTHING_TO_REDO, "nothing to redo")
        return self.undone[-1]

    def undo(self, number: int) -> Step:
        step = self.undo_candidate()
        if step.number != number:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"undo of step {number} is out of order")
        self.undone.append(self.applied.pop())
        return step

    def redo(self, number: int) -> Step:
        step = self.redo_candidate()
        if step.number != number:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"redo of step {number} is out of order")
        self.applied.append(self.undone.pop())
        return step

    def seal(self) -> None:
        self.sealed = len(self.applied)
        self.undone.clear()

    @property
    def can_undo(self) -> bool:
        return len(self.applied) > self.sealed

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def summary(self) -> ReviewSummary:
        counts = dict.fromkeys(ReviewState, 0)
        last = self.last_decisions()
        for ref in self.target.refs:
            counts[last[ref].state if ref in last else ReviewState.UNREVIEWED] += 1
        return ReviewSummary(counts, len(self.decisions))

    def receipt(self, completed_at: str, signing_key: bytes | None) -> dict[str, JsonValue]:
        return review_receipt(self.target.receipt, self.decisions, completed_at, signing_key)


def review_receipt(
    ingest_receipt: Mapping[str, JsonValue],
    decisions: Sequence[Decision],
    completed_at: str,
    signing_key: bytes | None,
) -> dict[str, JsonValue]:
    """The §6 receipt with ``review.decisions`` and ``completedAt``, digested and signed."""
    draft = copy.deepcopy(dict(ingest_receipt))
    draft["review"] = {
        "decisions": [d.to_json() for d in decisions],
        "completedAt": completed_at,
    }
    return finish_receipt(draft, signing_key)


def parse_decision_requests(
    value: JsonValue, budget: FindingBudget | None = None
) -> tuple[list[DecisionRequest | None], list[Finding]]:
    """A decisions file ``[{"portableRef", "state", "note"?, "supersededBy"?}, …]``.

    Each malformed entry is ``None`` in the list, with its findings; the rest are kept so
    that every problem in the file is reported at once — into ``budget`` when given (a
    file may hold millions of bad entries), whose kept findings are returned.
    """
    budget = FindingBudget() if budget is None else budget
    if not isinstance(value, list):
        budget.add(error(ReviewCode.INVALID_DECISION, "", "a decisions file is a JSON array"))
        return [], list(budget.kept)
    requests: list[DecisionRequest | None] = []
    for index, entry in enumerate(value):
        found = _entry_problems(entry)
        for where, message in found:
            pointer = join(index) + where
            if budget.full:
                budget.tally(ReviewCode.INVALID_DECISION, Severity.ERROR, pointer)
            else:
                budget.add(error(ReviewCode.INVALID_DECISION, pointer, message()))
        if found or not isinstance(entry, dict):
            requests.append(None)
            continue
        requests.append(
            DecisionRequest(
                _text(entry["portableRef"]),
                _text(entry["state"]),
                _optional_text(entry.get("note")),
                _optional_text(entry.get("supersededBy")),
            )
        )
    return requests, list(budget.kept)


def _entry_problems(entry: JsonValue) -> list[tuple[str, Callable[[], str]]]:
    """(pointer under the entry, its message, phrased only if kept) for each problem."""
    if not isinstance(entry, dict):
        return [("", lambda: "a decision is a JSON object")]
    problems: list[tuple[str, Callable[[], str]]] = [
        ("/" + escape(key), partial(_unknown_key, key)) for key in entry if key not in DECISION_KEYS
    ]
    for key in ("portableRef", "state"):
        if key not in entry:
            problems.append(("", partial(str, f"{key} is missing")))
    for key in DECISION_KEYS:
        if key in entry and not isinstance(entry[key], str):
            problems.append(("/" + key, partial(str, f"{key} must be a string")))
    return problems


def _unknown_key(key: str) -> str:
    return f"unknown key {clip(key, 60)!r}"


def apply_decisions(
    session: ReviewSession,
    requests: Sequence[DecisionRequest | None],
    reviewer: str,
    clock: Callable[[], str],
    budget: FindingBudget | None = None,
) -> list[Finding]:
    """Apply ``requests`` in order, one step each, as the window would; every refusal found
    (into ``budget`` when given; the findings it keeps are returned).

    Refused entries (and ``None``, already refused by the parser) are skipped, so one run
    reports every problem; callers must not write a receipt when anything was refused.
    """
    check_reviewer(reviewer)
    problems = FindingBudget() if budget is None else budget
    for index, request in enumerate(requests):
        if request is None:
            continue
        found = check_request(request, session.target.refs, join(index))
        if found:
            problems.extend(found)
            continue
        session.apply(session.plan([request], reviewer, clock()))
    return list(problems.kept)


def match_receipt(receipt: Mapping[str, JsonValue], target: ReviewTarget) -> list[Finding]:
    """Whether a receipt belongs to this packet as admitted here; a finding per difference."""
    problems = [
        error(
            ReviewCode.RECEIPT_MISMATCH,
            join(name),
            f"{name} is {receipt.get(name)!r}, but the open packet's is {target.receipt[name]!r}",
        )
        for name in (
            "correlationId",
            "packetId",
            "packetNonce",
            "manifestRootHash",
            "destinationInstallationKeyId",
            "targetDigest",
        )
        if receipt.get(name) != target.receipt.get(name)
    ]
    review = receipt.get("review")
    decisions = review.get("decisions") if isinstance(review, dict) else None
    refs = target.refs
    for index, decision in enumerate(decisions if isinstance(decisions, list) else []):
        ref = decision.get("portableRef") if isinstance(decision, dict) else None
        if ref not in refs:
            problems.append(
                error(
                    ReviewCode.RECEIPT_MISMATCH,
                    join("review", "decisions", index, "portableRef"),
                    f"{ref!r} is not a belief admitted from the open packet",
                )
            )
    return problems


def _text(value: JsonValue) -> str:
    assert isinstance(value, str)  # checked by structure or by the caller
    return value


def _optional_text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class ReviewPreparation:
    """What a review of one packet starts from: its target, or why there is none."""

    target: ReviewTarget | None
    problem: str = ""


def prepare_review(
    data: bytes, inspection: PacketInspection, destination: Destination
) -> ReviewPreparation:
    """Ingest under ``destination`` and build the review target (worker-thread work).

    A packet inspected without a destination has no policy verdict yet: it is ingested
    again under this one rather than refused.
    """
    if inspection.stage(Stage.POLICY).status is StageStatus.NOT_CHECKABLE:
        result = ingest_bytes(data, destination)
    else:
        result = ingest_inspection(inspection, destination)
    try:
        return ReviewPreparation(ReviewTarget.from_ingest(result))
    except ReviewError as exc:
        return ReviewPreparation(None, exc.findings[0].message)
