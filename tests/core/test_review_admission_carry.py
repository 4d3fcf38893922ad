"""Issue 31, point 2: a review carried across an admission change keeps the decisions on
beliefs admitted byte for byte as before, reopens the rest, and says how many of each."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.review.admission_carry import carry_across_admission
from zcf_inspector.core.review.admitted_digest import CARRIED_FROM
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.core.review.journal_keys import JournalKeys
from zcf_inspector.core.review.target import ReviewTarget, prepare_review

AT = "2026-10-01T12:00:00Z"


def target_under(dest: Destination) -> ReviewTarget:
    data = golden_bytes("full-handoff")
    target = prepare_review(data, inspect_bytes(data, dest), dest).target
    assert target is not None
    return target


def decide_all(folder: Path, keys: JournalKeys, target: ReviewTarget) -> None:
    review = JournaledReview.open(folder, target, keys=keys)
    for belief in target.beliefs:
        review.decide([DecisionRequest(belief.portable_ref, ReviewState.CONFIRMED)], "carol", AT)
    review.decide([DecisionRequest("b-reader", ReviewState.REJECTED, "too vague")], "dave", AT)


def test_decisions_on_unchanged_beliefs_are_carried_and_cut_ones_reopen(tmp_path: Path) -> None:
    folder, keys = tmp_path / "journals", JournalKeys(tmp_path / "keys")
    before = target_under(destination())
    decide_all(folder, keys, before)
    # b-bench is 59 bytes: a limit of 55 cuts it, and only it
    after = target_under(dataclasses.replace(destination(), max_belief_bytes=55))
    assert after.correlation_id == before.correlation_id
    with pytest.raises(ReviewError) as refused:
        JournaledReview.open(folder, after, keys=keys)
    assert refused.value.code == ReviewCode.JOURNAL_MISMATCH
    review, carry = carry_across_admission(folder, after, keys)
    assert (carry.carried, carry.cut, carry.demoted, carry.changed, carry.dropped) == (
        2,
        1,
        0,
        0,
        0,
    )
    last = review.session.last_decisions()
    assert last["b-reader"].state is ReviewState.REJECTED  # its last decision, note and all
    assert last["b-reader"].note == "too vague"
    assert last["b-reader"].reviewer == "dave"
    assert last["b-order"].reviewer == "carol"
    assert "b-bench" not in last  # reopened
    assert carry.reopened_refs == (("b-bench", "confirmed", "carol"),)  # and what it was
    assert Path(carry.kept_as).exists()  # the earlier journal is kept, renamed
    # the journal records that they were carried under the new settings
    conn = sqlite3.connect(journal_path(folder, after.correlation_id))
    details = [json.loads(d) for (d,) in conn.execute("SELECT detail FROM entry")]
    conn.close()
    assert len(details) == 2
    assert all(d[CARRIED_FROM] == carry.from_digest for d in details)
    # and it opens as the review of the new admission from now on
    again = JournaledReview.open(folder, after, keys=keys)
    assert again.session.last_decisions().keys() == last.keys()


def test_switching_back_carries_again_and_a_decision_without_a_digest_reopens(
    tmp_path: Path,
) -> None:
    folder, keys = tmp_path / "journals", JournalKeys(tmp_path / "keys")
    before = target_under(destination())
    decide_all(folder, keys, before)
    after = target_under(dataclasses.replace(destination(), max_belief_bytes=55))
    carry_across_admission(folder, after, keys)
    # back to the first settings: the carried decisions come back, b-bench stays open
    back, carry = carry_across_admission(folder, before, keys)
    assert (carry.carried, carry.reopened) == (2, 0)
    assert set(back.session.last_decisions()) == {"b-reader", "b-order"}


def test_another_packets_journal_is_still_refused(tmp_path: Path) -> None:
    folder, keys = tmp_path / "journals", JournalKeys(tmp_path / "keys")
    target = target_under(destination())
    with pytest.raises(ReviewError) as refused:
        carry_across_admission(folder, target, keys)  # no journal at all
    assert refused.value.code == ReviewCode.JOURNAL_MISMATCH
