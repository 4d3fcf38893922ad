"""The decisions made so far on one review target, with undo and redo (pure, no storage).

The receipt lists every decision in the order made, so the last decision for a belief is
its state. Undo takes a whole step (one decision, or one bulk decision) off the end of that
list; redo puts it back. An export seals what was exported: nothing before it can be undone
any more. `DecisionIndex` keeps what the applied steps add up to, per belief.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.findings import Finding, FindingBudget
from zcf_inspector.core.formats import ReviewState, is_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.receipt import finish_receipt
from zcf_inspector.core.pointer import join
from zcf_inspector.core.review.decisions import (
    Decision,
    DecisionRequest,
    ReviewError,
    check_request,
    check_reviewer,
    make_decision,
    refuse,
)
from zcf_inspector.core.review.target import ReviewTarget

# Decisions between two cancellation points (and pauses for the UI thread) of a large step.
_INDEX_CHUNK = 2_000


@dataclass(frozen=True, slots=True)
class Step:
    """One undoable unit: a single decision, or every decision of one bulk action."""

    number: int
    decisions: tuple[Decision, ...]


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


@dataclass(frozen=True, slots=True)
class _Link:
    """One decision of a belief's history and the history before it.

    A history is a chain of these, newest first: a decision adds one link and an undo
    drops one, whatever the length of the history (rebuilding a tuple each time made
    80,000 decisions on one belief quadratic). Links are never changed, so an index and
    its `copy` share them safely; `history_of` freezes a chain into a tuple when read.
    """

    decision: Decision
    previous: _Link | None


class DecisionIndex:
    """What the applied steps add up to, per belief: its last decision, its decisions in
    order, and the count of beliefs in each state.

    Kept beside the steps so that a belief's state, its history and the counts are read
    without walking every decision (a review of 200,000 beliefs has as many decisions).
    Applying or taking back a step costs its own decisions only, one link each (O(1) per
    decision). `copy` is cheap (three dictionary copies in C): a worker applies a large
    step to a copy while the window keeps reading the original, and the session then
    takes the copy whole (`commit`).
    """

    __slots__ = ("_weights", "counts", "decision_count", "history", "last")

    def __init__(self, refs: Sequence[str], weights: Mapping[str, int] | None = None) -> None:
        self.last: dict[str, Decision] = {}
        self.history: dict[str, _Link] = {}  # newest link of each decided belief
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

    def history_of(self, ref: str) -> tuple[Decision, ...]:
        """The decisions on one belief, oldest first (walks that belief's chain only)."""
        newest_first: list[Decision] = []
        link = self.history.get(ref)
        while link is not None:
            newest_first.append(link.decision)
            link = link.previous
        return tuple(reversed(newest_first))

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
            history[ref] = _Link(decision, history.get(ref))
        self.decision_count += len(step.decisions)

    def remove(self, step: Step, monitor: Monitor = NULL_MONITOR) -> None:
        """The step taken back (undone): each belief returns to its decision before it."""
        last, history, counts = self.last, self.history, self.counts
        for index, decision in enumerate(reversed(step.decisions)):
            if index % _INDEX_CHUNK == 0:
                monitor.breathe()
            ref = decision.portable_ref
            earlier = history[ref].previous
            weight = self._weights.get(ref, 1)
            counts[decision.state] -= weight
            if earlier is not None:
                history[ref] = earlier
                last[ref] = earlier.decision
                counts[earlier.decision.state] += weight
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
        return self.index.history_of(ref)

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
