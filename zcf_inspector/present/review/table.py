"""Which admitted beliefs the review table shows, for its filters: the rows, computed here.

The window asks for them on a worker when the review is large (200,000 admitted beliefs
take a few hundred milliseconds to filter in Python) and swaps the answer in; a view
computes nothing. Rows are positions in the target's ``beliefs`` (packet order), always
ascending, so the view maps a belief to its row by bisection.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.core.review.target import AdmittedBelief
from zcf_inspector.core.secrets.scan import SecretHit
from zcf_inspector.present.review.secrets import masked, masked_note

_CHUNK = 5_000  # rows between two cancellation points (and pauses for the UI thread)


@dataclass(frozen=True, slots=True)
class Filters:
    """The review table's filters; ``None`` (or an empty text) lets every row through."""

    state: ReviewState | None = None
    demoted: bool | None = None
    cut: bool | None = None  # content cut to maxBeliefBytes by admission
    has_evidence: bool | None = None
    secret: bool | None = None  # the secret scan flags its admitted content
    text: str = ""  # found, case-folded, in the ref, the content or the current note
    since: frozenset[BeliefChange] | None = None  # against the previous receipt

    @property
    def open(self) -> bool:
        """Whether every row passes (nothing to compute)."""
        return self == Filters()

    @property
    def reads_decisions(self) -> bool:
        """Whether a decision can move a row in or out (its state, or its note's text)."""
        return self.state is not None or bool(self.text)


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the filters read beside the beliefs; the mappings are not changed while a
    worker reads them (the session replaces its index whole after a large step)."""

    beliefs: Sequence[AdmittedBelief]
    last: Mapping[str, Decision]  # each decided belief's last decision
    evidence: Mapping[str, int]  # evidence anchors per portableRef
    changes: Mapping[str, BeliefChange] | None = None  # while comparing with a receipt
    flagged: AbstractSet[str] = frozenset()  # beliefs the secret scan flags
    # Their content's hits: the text filter reads a flagged content masked, as its row
    # shows it, so typing part of a credential cannot find (and so confirm) the value.
    hidden: Mapping[str, Sequence[SecretHit]] = field(default_factory=dict)


def evidence_counts(packet: Mapping[str, JsonValue]) -> dict[str, int]:
    """How many evidence anchors name each portableRef (the table's Evidence column)."""
    content = packet.get("content")
    anchors = content.get("evidenceAnchors") if isinstance(content, dict) else None
    counts: dict[str, int] = {}
    for anchor in anchors if isinstance(anchors, list) else ():
        ref = anchor.get("beliefRef") if isinstance(anchor, dict) else None
        if isinstance(ref, str):
            counts[ref] = counts.get(ref, 0) + 1
    return counts


def shows(facts: TableFacts, row: int, filters: Filters) -> bool:
    """Whether the belief at ``row`` passes ``filters``."""
    belief = facts.beliefs[row]
    ref = belief.portable_ref
    last = facts.last.get(ref)
    if filters.state is not None:
        state = ReviewState.UNREVIEWED if last is None else last.state
        if state is not filters.state:
            return False
    if filters.demoted is not None and belief.demoted != filters.demoted:
        return False
    if filters.cut is not None and (belief.cut is not None) != filters.cut:
        return False
    if (
        filters.has_evidence is not None
        and (facts.evidence.get(ref, 0) > 0) != filters.has_evidence
    ):
        return False
    if filters.secret is not None and (ref in facts.flagged) != filters.secret:
        return False
    if filters.since is not None:
        change = None if facts.changes is None else facts.changes.get(ref)
        if change not in filters.since:
            return False
    if filters.text:
        # A note is read masked too, as its cell shows it (`masked_note`).
        note = "" if last is None or last.note is None else masked_note(last.note)
        hits = facts.hidden.get(ref) if facts.hidden else None
        content = masked(belief.content, hits) if hits else belief.content
        haystack = "\n".join((ref, content, note)).casefold()
        return filters.text.casefold() in haystack
    return True


def shown_rows(
    facts: TableFacts, filters: Filters, monitor: Monitor = NULL_MONITOR
) -> tuple[int, ...]:
    """Every row that passes ``filters``, ascending."""
    count = len(facts.beliefs)
    if filters.open:
        return tuple(range(count))
    found: list[int] = []
    for start in range(0, count, _CHUNK):
        monitor.breathe()
        found.extend(
            r for r in range(start, min(start + _CHUNK, count)) if shows(facts, r, filters)
        )
    return tuple(found)


def position(rows: Sequence[int], row: int) -> int:
    """Where ``row`` is (or would be) in ascending ``rows``."""
    return bisect_left(rows, row)


def next_unreviewed(
    facts: TableFacts, rows: Sequence[int], after: int | None, monitor: Monitor = NULL_MONITOR
) -> int | None:
    """The first shown row after the shown row ``after`` (a position in ``rows``;
    None: from the top) whose belief is unreviewed, wrapping; None when there is none."""
    count = len(rows)
    start = 0 if after is None else after + 1
    last = facts.last
    beliefs = facts.beliefs
    for offset in range(count):
        if offset % _CHUNK == 0:
            monitor.breathe()
        at = (start + offset) % count
        decided = last.get(beliefs[rows[at]].portable_ref)
        if decided is None or decided.state is ReviewState.UNREVIEWED:
            return at
    return None


def not_yet(
    facts: TableFacts, rows: Sequence[int], state: ReviewState, monitor: Monitor = NULL_MONITOR
) -> tuple[str, ...]:
    """The portableRefs of the beliefs at ``rows`` that are not ``state`` now, in row
    order: what a bulk step to ``state`` over those rows would decide (the rest already
    are; deciding them again would only add noise to the journal)."""
    last, beliefs = facts.last, facts.beliefs
    unreviewed = ReviewState.UNREVIEWED
    found: list[str] = []
    for start in range(0, len(rows), _CHUNK):
        monitor.step("counting the beliefs to change", start / len(rows))
        for row in rows[start : start + _CHUNK]:
            ref = beliefs[row].portable_ref
            decided = last.get(ref)
            if (unreviewed if decided is None else decided.state) != state:
                found.append(ref)
    return tuple(found)
