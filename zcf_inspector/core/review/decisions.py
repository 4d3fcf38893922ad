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
from functools import partial
from types import MappingProxyType

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import RefusalError
from zcf_inspector.core.findings import Finding, FindingBudget, Severity, error
from zcf_inspector.core.formats import ReviewState, is_id, is_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
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
_STATES = frozenset(s.value for s in ReviewState)
# Decisions between two cancellation points (and pauses for the UI thread) of a large step.
_INDEX_CHUNK = 2_000


class ReviewError(RefusalError):
    """A refused review operation; ``findings`` holds every reason, each with its code, and
    ``code`` is the first reason's `ReviewCode` (``review_refused`` only if none is given)."""

    code = "review_refused"

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.findings = tuple(findings)
        super().__init__("; ".join(f"{f.code}: {f.message}" for f in self.findings))
        if self.findings:
            self.code = self.findings[0].code


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
    _rows: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen: computed once here (on the worker that prepares a review). The first
        # belief of a repeated ref is the one found.
        object.__setattr__(self, "_refs", AdmittedRefs(b.portable_ref for b in self.beliefs))
        by_ref: dict[str, AdmittedBelief] = {}
        rows: dict[str, int] = {}
        for row, b in enumerate(self.beliefs):
            if b.portable_ref not in rows:
                by_ref[b.portable_ref] = b
                rows[b.portable_ref] = row
        object.__setattr__(self, "_by_ref", by_ref)
        object.__setattr__(self, "_rows", rows)

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

    @property
    def rows(self) -> Mapping[str, int]:
        """Each admitted ref's position in ``beliefs`` (its first, when repeated)."""
        return self._rows


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
    if request.state not in _STATES:
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


class DecisionIndex:
    """What the applied steps add up to, per belief: its last decision, its decisions in
    order, and the count of beliefs in each state.

    Kept beside the steps so that a belief's state, its history and the counts are read
    without walking every decision (a review of 200,000 beliefs has as many decisions).
    Applying or taking back a step costs its own decisions only. `copy` is cheap (three
    dictionary copies in C): a worker applies a large step to a copy while the window
    keeps reading the original, and the session then takes the copy whole (`commit`).
    """

    __slots__ = ("_weights", "counts", "decision_count", "history", "last")

    def __init__(self, refs: Sequence[str], weights: Mapping[str, int] | None = None) -> None:
        self.last: dict[str, Decision] = {}
        self.history: dict[str, tuple[Decision, ...]] = {}
        self.counts: dict[ReviewState, int] = dict.fromkeys(ReviewState, 0)
        self.counts[ReviewState.UNREVIEWED] = len(refs)
        self.decision_count = 0
        # How often each admitted ref occurs (a ref admitted twice counts twice); only
        # the repeated ones are kept.
        self._weights: Mapping[str, int] = weights if weights is not None else _repeats(refs)

    def copy(self) -> DecisionIndex:
        made = DecisionIndex.__new__(DecisionIndex)
        made.last = dict(self.last)
        made.history = dict(self.history)
        made.counts = dict(self.counts)
        made.decision_count = self.decision_count
        made._weights = self._weights
        return made

    def state_of(self, ref: str) -> ReviewState:
        last = self.last.get(ref)
        return ReviewState.UNREVIEWED if last is None else last.state

    def add(self, step: Step, monitor: Monitor = NULL_MONITOR) -> None:
        """The step applied (or redone): each decision is its belief's latest."""
        last, history, counts = self.last, self.history, self.counts
        for index, decision in enumerate(step.decisions):
            if index % _INDEX_CHUNK == 0:
                monitor.breathe()
            ref = decision.portable_ref
            before = last.get(ref)
            weight = self._weights.get(ref, 1)
            counts[ReviewState.UNREVIEWED if before is None else before.state] -= weight
            counts[decision.state] += weight
            last[ref] = decision
            history[ref] = (*history.get(ref, ()), decision)
        self.decision_count += len(step.decisions)

    def remove(self, step: Step, monitor: Monitor = NULL_MONITOR) -> None:
        """The step taken back (undone): each belief returns to its decision before it."""
        last, history, counts = self.last, self.history, self.counts
        for index, decision in enumerate(reversed(step.decisions)):
            if index % _INDEX_CHUNK == 0:
                monitor.breathe()
            ref = decision.portable_ref
            earlier = history[ref][:-1]
            weight = self._weights.get(ref, 1)
            counts[decision.state] -= weight
            if earlier:
                history[ref] = earlier
                last[ref] = earlier[-1]
                counts[earlier[-1].state] += weight
            else:
                del history[ref]
                del last[ref]
                counts[ReviewState.UNREVIEWED] += weight
        self.decision_count -= len(step.decisions)


def _repeats(refs: Sequence[str]) -> dict[str, int]:
    seen: dict[str, int] = {}
    for ref in refs:
        seen[ref] = seen.get(ref, 0) + 1
    return {ref: n for ref, n in seen.items() if n > 1}


@dataclass(frozen=True, slots=True)
class Prepared:
    """A step and the index after it, made off the UI thread; `ReviewSession.commit`
    installs both at once, if the session is still where it was when they were made."""

    kind: str  # "apply", "undo" or "redo"
    step: Step
    index: DecisionIndex
    version: int  # the session's version they were made from


@dataclass
class ReviewSession:
    """The decisions made so far on one target, with undo and redo; pure, no storage.

    ``applied``, ``undone`` and ``sealed`` change only through the methods below, which
    keep `index` (each belief's decisions, the counts) in step with them; ``version``
    counts the changes, so that work made from one state can tell it is out of date.
    """

    target: ReviewTarget
    applied: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)  # redo stack, most recent undo last
    sealed: int = 0  # how many applied steps an export made final
    next_number: int = 1
    index: DecisionIndex = field(init=False, repr=False, compare=False)
    version: int = field(default=0, init=False, compare=False)

    def __post_init__(self) -> None:
        self.index = DecisionIndex(self.target.refs)
        for step in self.applied:
            self.index.add(step)

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every applied decision in order (the receipt's list): walks them all."""
        return tuple(d for step in self.applied for d in step.decisions)

    def last_decisions(self) -> Mapping[str, Decision]:
        """Each decided belief's last decision (read-only; kept up to date, not copied)."""
        return MappingProxyType(self.index.last)

    def history_of(self, ref: str) -> tuple[Decision, ...]:
        """The decisions on one belief, in order."""
        return self.index.history.get(ref, ())

    def state_of(self, ref: str) -> ReviewState:
        return self.index.state_of(ref)

    @property
    def last_decision(self) -> Decision | None:
        """The most recent decision still applied (None when there is none)."""
        return self.applied[-1].decisions[-1] if self.applied else None

    def plan(
        self,
        requests: Sequence[DecisionRequest],
        reviewer: str,
        at: str,
        monitor: Monitor = NULL_MONITOR,
    ) -> Step:
        """The next step for ``requests`` (checked, not yet applied): journal it, then apply."""
        check_reviewer(reviewer)
        if not is_timestamp(at):
            raise refuse(ReviewCode.INVALID_DECISION, f"{at!r} is not a timestamp")
        refs = self.target.refs
        problems: list[Finding] = []
        for index, request in enumerate(requests):
            if index % _INDEX_CHUNK == 0:
                monitor.breathe()
            problems.extend(check_request(request, refs, join(index)))
        if problems:
            raise ReviewError(problems)
        decisions = tuple(make_decision(r, reviewer, at) for r in requests)
        return Step(self.next_number, decisions)

    def apply(self, step: Step, monitor: Monitor = NULL_MONITOR) -> None:
        self._check_next(step)
        self.index.add(step, monitor)
        self._applied(step)

    def _check_next(self, step: Step) -> None:
        if step.number < self.next_number or not step.decisions:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"step {step.number} is out of order")

    def _applied(self, step: Step) -> None:
        self.applied.append(step)
        self.undone.clear()  # a new decision forks history: what was undone is gone
        self.next_number = step.number + 1
        self.version += 1

    def undo_candidate(self) -> Step:
        if len(self.applied) <= self.sealed:
            reason = "the receipt was exported" if self.sealed else "no decision has been made"
            raise refuse(ReviewCode.NOTHING_TO_UNDO, f"nothing to undo: {reason}")
        return self.applied[-1]

    def redo_candidate(self) -> Step:
        if not self.undone:
            raise refuse(ReviewCode.NOTHING_TO_REDO, "nothing to redo")
        return self.undone[-1]

    def undo(self, number: int, monitor: Monitor = NULL_MONITOR) -> Step:
        step = self._undo_step(number)
        self.index.remove(step, monitor)
        self.undone.append(self.applied.pop())
        self.version += 1
        return step

    def _undo_step(self, number: int) -> Step:
        step = self.undo_candidate()
        if step.number != number:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"undo of step {number} is out of order")
        return step

    def redo(self, number: int, monitor: Monitor = NULL_MONITOR) -> Step:
        step = self._redo_step(number)
        self.index.add(step, monitor)
        self.applied.append(self.undone.pop())
        self.version += 1
        return step

    def _redo_step(self, number: int) -> Step:
        step = self.redo_candidate()
        if step.number != number:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"redo of step {number} is out of order")
        return step

    # -- a large step prepared off the UI thread, installed at once --------------------

    def prepare(self, kind: str, step: Step, monitor: Monitor = NULL_MONITOR) -> Prepared:
        """The index after ``step`` is applied, undone or redone, made on a copy: the
        session itself is not touched (a worker may call this while the window reads it,
        provided nothing changes the session meanwhile)."""
        if kind == "apply":
            self._check_next(step)
        elif kind == "undo":
            self._undo_step(step.number)
        elif kind == "redo":
            self._redo_step(step.number)
        else:
            raise ValueError(f"unknown step kind {kind!r}")
        index = self.index.copy()
        if kind == "undo":
            index.remove(step, monitor)
        else:
            index.add(step, monitor)
        return Prepared(kind, step, index, self.version)

    def commit(self, prepared: Prepared) -> Step:
        """Install a prepared step and its index (constant time)."""
        if prepared.version != self.version:
            raise refuse(
                ReviewCode.JOURNAL_CONFLICT,
                "the review changed while a step was being prepared; it was not applied",
            )
        step = prepared.step
        if prepared.kind == "apply":
            self._check_next(step)
            self.index = prepared.index
            self._applied(step)
            return step
        if prepared.kind == "undo":
            self._undo_step(step.number)
            self.undone.append(self.applied.pop())
        else:
            self._redo_step(step.number)
            self.applied.append(self.undone.pop())
        self.index = prepared.index
        self.version += 1
        return step

    def seal(self) -> None:
        self.sealed = len(self.applied)
        self.undone.clear()
        self.version += 1

    @property
    def can_undo(self) -> bool:
        return len(self.applied) > self.sealed

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def summary(self) -> ReviewSummary:
        return ReviewSummary(dict(self.index.counts), self.index.decision_count)

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
