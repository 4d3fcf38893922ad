"""The review table's rows for its filters (present/review/table.py)."""

from __future__ import annotations

import itertools

import pytest

from goldens import generate as g
from tests.core.helpers import destination
from tests.core.many_beliefs import many_beliefs_bytes, many_target
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.present.review.rows import note_cell
from zcf_inspector.present.review.table import (
    Filters,
    TableFacts,
    evidence_counts,
    next_unreviewed,
    not_yet,
    position,
    shown_rows,
)

COUNT = 400


def reviewed() -> tuple[ReviewSession, TableFacts]:
    target = many_target(COUNT)
    session = ReviewSession(target)
    requests = [
        DecisionRequest(f"b-{i:06d}", "rejected", "Stale PARSER notes") for i in range(0, 90, 4)
    ] + [DecisionRequest(f"b-{i:06d}", "confirmed") for i in range(1, 90, 4)]
    session.apply(session.plan(requests, "carol", g.NOW))
    changes = {
        b.portable_ref: list(BeliefChange)[i % 3] for i, b in enumerate(target.beliefs) if i % 11
    }
    facts = TableFacts(
        target.beliefs, session.last_decisions(), evidence_counts(target.packet), changes
    )
    return session, facts


def expected(session: ReviewSession, facts: TableFacts, f: Filters) -> list[int]:
    """The rows, from the session's own answers, one belief at a time."""
    rows = []
    for row, belief in enumerate(session.target.beliefs):
        ref = belief.portable_ref
        note = next(
            (d.note or "" for d in reversed(session.decisions) if d.portable_ref == ref), ""
        )
        checks = [
            f.state is None or session.state_of(ref) is f.state,
            f.demoted is None or belief.demoted is f.demoted,
            f.has_evidence is None or (facts.evidence.get(ref, 0) > 0) is f.has_evidence,
            f.since is None or (facts.changes or {}).get(ref) in f.since,
            not f.text or f.text.casefold() in f"{ref}\n{belief.content}\n{note}".casefold(),
        ]
        if all(checks):
            rows.append(row)
    return rows


FILTERS = [
    Filters(state=state, demoted=demoted, has_evidence=evidence, text=text, since=since)
    for state, demoted, evidence, text, since in itertools.product(
        (None, ReviewState.UNREVIEWED, ReviewState.REJECTED),
        (None, True),
        (None, False),
        ("", "parser", "B-0001"),
        (None, frozenset({BeliefChange.NEW, BeliefChange.CHANGED})),
    )
]


def test_every_filter_combination_matches_the_session() -> None:
    session, facts = reviewed()
    for f in FILTERS:
        assert list(shown_rows(facts, f)) == expected(session, facts, f), f


def test_the_note_is_searched_and_no_filter_shows_all() -> None:
    _session, facts = reviewed()
    # "stale" is only in the reject notes (case-folded), never in a ref or content.
    assert list(shown_rows(facts, Filters(text="STALE"))) == list(range(0, 90, 4))
    assert Filters().open
    assert shown_rows(facts, Filters()) == tuple(range(COUNT))
    assert not Filters(demoted=True).reads_decisions
    assert Filters(text="x").reads_decisions
    assert Filters(state=ReviewState.REJECTED).reads_decisions


def test_a_credential_in_a_note_is_filtered_as_its_cell_shows_it() -> None:
    """Typing part of a credential that a note holds cannot find (and so confirm) it: the
    filter reads the note masked, as the Note cell shows it; the words around it are still
    found."""
    token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    target = many_target(COUNT)
    session = ReviewSession(target)
    note = f"pasted by mistake: {token}"
    session.apply(session.plan([DecisionRequest("b-000007", "rejected", note)], "carol", g.NOW))
    facts = TableFacts(target.beliefs, session.last_decisions(), evidence_counts(target.packet))
    assert token not in note_cell(session.last_decisions()["b-000007"])
    assert shown_rows(facts, Filters(text=token[8:20])) == ()
    assert shown_rows(facts, Filters(text=token)) == ()
    assert shown_rows(facts, Filters(text="pasted by mistake")) == (7,)


def test_since_without_a_comparison_shows_nothing() -> None:
    _session, facts = reviewed()
    plain = TableFacts(facts.beliefs, facts.last, facts.evidence, None)
    assert shown_rows(plain, Filters(since=frozenset(BeliefChange))) == ()


def test_a_cancelled_filter_stops() -> None:
    _, facts = reviewed()
    monitor = Monitor()
    monitor.cancel()
    with pytest.raises(Cancelled):
        shown_rows(facts, Filters(text="parser"), monitor)


def test_next_unreviewed_wraps_and_position_bisects() -> None:
    session, facts = reviewed()
    rows = shown_rows(facts, Filters(has_evidence=True))  # every seventh row
    assert rows[:3] == (0, 7, 14)
    assert position(rows, 14) == 2
    assert position(rows, 15) == 3
    # The first unreviewed row shown after position 0 (row 0 is rejected):
    at = next_unreviewed(facts, rows, 0)
    assert at is not None
    assert session.state_of(facts.beliefs[rows[at]].portable_ref) is ReviewState.UNREVIEWED
    assert all(
        session.state_of(facts.beliefs[rows[p]].portable_ref) is not ReviewState.UNREVIEWED
        for p in range(1, at)
    )
    # From the last shown row, it wraps to the top.
    wrapped = next_unreviewed(facts, rows, len(rows) - 1)
    assert wrapped == next_unreviewed(facts, rows, None)
    decided = shown_rows(facts, Filters(state=ReviewState.CONFIRMED))
    assert next_unreviewed(facts, decided, None) is None


@pytest.mark.parametrize("state", list(ReviewState))
def test_not_yet_lists_the_rows_a_bulk_step_would_change(state: ReviewState) -> None:
    session, facts = reviewed()
    rows = shown_rows(facts, Filters(text="parser")) + tuple(range(200, 260))
    got = not_yet(facts, rows, state)
    refs = [session.target.beliefs[r].portable_ref for r in rows]
    assert got == tuple(ref for ref in refs if session.state_of(ref) is not state)
    if state is not ReviewState.SUPERSEDED:  # none is: every row would change
        assert 0 < len(got) < len(rows)  # rows already in that state among them, and others


def test_a_cancelled_count_stops() -> None:
    _, facts = reviewed()
    monitor = Monitor()
    monitor.cancel()
    with pytest.raises(Cancelled):
        not_yet(facts, range(COUNT), ReviewState.CONFIRMED, monitor)


def test_the_cut_filter_reads_the_cores_admission() -> None:
    """Issue 18, point 7: Cut / Not cut, from what admission recorded (BeliefCut)."""
    dest = destination(maxBeliefs=COUNT, maxBeliefBytes=20)
    target = ReviewTarget.from_ingest(ingest_bytes(many_beliefs_bytes(COUNT), dest))
    facts = TableFacts(target.beliefs, {}, evidence_counts(target.packet))
    cut = shown_rows(facts, Filters(cut=True))
    # every third content says "the parser reads it" (26 bytes): those are cut to 20
    assert cut == tuple(range(0, COUNT, 3))
    assert shown_rows(facts, Filters(cut=False)) == tuple(r for r in range(COUNT) if r % 3)
    assert {target.beliefs[r].cut.kept for r in cut} == {20}  # type: ignore[union-attr]
    assert shown_rows(facts, Filters(cut=True, demoted=True)) == tuple(range(0, COUNT, 15))
    assert not Filters(cut=True).reads_decisions
