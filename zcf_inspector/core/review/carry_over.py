"""Carrying earlier decisions over (see `review.previous`): the candidates this review
has not decided yet, as one bulk step of decision requests, each noted with where it came
from; never automatic, and from a receipt no trusted key signed only when accepted."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.review.decisions import Decision, DecisionRequest, normal_note, refuse
from zcf_inspector.core.review.previous import Carryable, PreviousGeneration
from zcf_inspector.core.review.previous_trust import UNSIGNED_ORIGIN, untrusted_refusal

_CHUNK = 10_000  # beliefs between two cancellation points


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
