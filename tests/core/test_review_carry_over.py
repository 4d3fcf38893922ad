"""The carry-over as one journalled step: undo/redo, the journal's rows, a crash, the receipt."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

from goldens import generate as g
from tests.core.generations import earlier_receipt, generation_1, generation_2, target_of
from tests.core.helpers import destination
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.receipt import ReceiptStatus, receipt_bytes, verify_receipt
from zcf_inspector.core.review.carry_over import plan_carry_over
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.core.review.previous import PreviousGeneration, compare_with_previous
from zcf_inspector.core.review.previous_trust import check_previous_receipt
from zcf_inspector.core.review.target import ReviewTarget

NOTE = "gen2 diff read: unchanged claims hold"
KEY = ed25519_public_key(g.RECEIPT_SEED)
# sha256 of the receipt file written after the carry-over and two decisions of carol's
# (see test_the_receipt_records_them_as_this_reviewers_decisions): any change to the
# note, the order or the step is a change to these bytes.
PINNED_RECEIPT_SHA256 = "e68af7c80e666d72c8bbf82f801abd246e54d064c647216e4747be39daab5bb6"


def previous(current: ReviewTarget) -> PreviousGeneration:
    receipt = earlier_receipt()
    report = check_previous_receipt(receipt, destination())
    return compare_with_previous(target_of(generation_1()), receipt, report, current)


def keys_beside(folder: Path) -> Path:
    """Where the journal's key is kept: outside its folder, as beside the settings."""
    return folder.with_name(folder.name + "-journal-keys")


def carried(folder: Path) -> tuple[JournaledReview, PreviousGeneration]:
    current = target_of(generation_2())
    review = JournaledReview.open(folder, current, keys=keys_beside(folder))
    p = previous(current)
    plan = plan_carry_over(p, review.session.last_decisions(), NOTE)
    review.decide(list(plan.requests), "carol", g.NOW)
    return review, p


def journal_rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
        return conn.execute(
            "SELECT op, step, portable_ref, state, reviewer, at, superseded_by FROM entry "
            "ORDER BY seq"
        ).fetchall()


def test_the_carry_over_is_one_step_undone_and_redone_whole(tmp_path: Path) -> None:
    review, _ = carried(tmp_path)
    session = review.session
    assert len(session.applied) == 1
    assert [(d.portable_ref, d.state) for d in session.applied[0].decisions] == [
        ("b-old", ReviewState.SUPERSEDED),
        ("b-reject", ReviewState.REJECTED),
        ("b-keep", ReviewState.CONFIRMED),
    ]
    assert {d.reviewer for d in session.decisions} == {"carol"}  # this reviewer's
    assert {d.at for d in session.decisions} == {g.NOW}  # now, not the earlier time
    assert session.summary().unreviewed == 5
    review.undo()
    assert session.decisions == ()
    assert session.summary().unreviewed == 8
    review.redo()
    assert len(session.decisions) == 3
    # Carrying over again finds nothing left: the review decided them all.
    again = plan_carry_over(previous(session.target), session.last_decisions(), NOTE)
    assert again.requests == ()
    assert again.already_decided == ("b-old", "b-reject", "b-keep")


def test_the_journal_holds_them_as_ordinary_decisions(tmp_path: Path) -> None:
    review, _ = carried(tmp_path)
    review.undo()
    review.redo()
    path = journal_path(tmp_path, review.session.target.correlation_id)
    assert journal_rows(path) == [
        ("decide", 1, "b-old", "superseded", "carol", g.NOW, "b-keep"),
        ("decide", 1, "b-reject", "rejected", "carol", g.NOW, None),
        ("decide", 1, "b-keep", "confirmed", "carol", g.NOW, None),
        ("undo", 1, None, None, None, None, None),
        ("redo", 1, None, None, None, None, None),
    ]


def test_a_crash_after_the_step_restores_it_whole(tmp_path: Path) -> None:
    """What is on disk when the process dies right after the step (no export, nothing
    closed): the journal and any WAL beside it. A new window restores the step as one."""
    live = tmp_path / "live"
    review, _ = carried(live)
    crashed = tmp_path / "after-crash"
    shutil.copytree(live, crashed)  # the files as they are, WAL included
    # The key stays beside the user's settings, outside the journal folder: the copy of
    # the journal is verified with the same key.
    restored = JournaledReview.open(crashed, target_of(generation_2()), keys=keys_beside(live))
    assert restored.session.decisions == review.session.decisions
    assert [s.number for s in restored.session.applied] == [1]
    restored.undo()  # the whole carry-over, as before the crash
    assert restored.session.decisions == ()
    again = JournaledReview.open(crashed, target_of(generation_2()), keys=keys_beside(live))
    assert again.session.decisions == ()
    assert again.session.can_redo


def test_the_receipt_records_them_as_this_reviewers_decisions(tmp_path: Path) -> None:
    review, p = carried(tmp_path)
    # Then the new and changed beliefs, reviewed by hand.
    review.decide([DecisionRequest("b-new", "confirmed")], "carol", g.NOW)
    review.decide([DecisionRequest("b-edit", "rejected", "not measured")], "carol", g.NOW)
    destination_now = destination()
    receipt = review.session.receipt(g.NOW, destination_now.signing_key)
    assert verify_receipt(receipt, KEY).status is ReceiptStatus.VALID_SIGNED
    review_part = receipt["review"]
    assert isinstance(review_part, dict)
    decisions = review_part["decisions"]
    assert isinstance(decisions, list)
    assert decisions[2] == {
        "portableRef": "b-keep",
        "state": "confirmed",
        "reviewer": "carol",
        "at": g.NOW,
        "note": f"{NOTE} — repeated from receipt {p.receipt_digest} (packet pkt-stream-gen1; "
        "confirmed by alice at 2026-09-30T16:00:00Z)",
    }
    assert [d["portableRef"] for d in decisions if isinstance(d, dict)] == [
        "b-old",
        "b-reject",
        "b-keep",
        "b-new",
        "b-edit",
    ]
    data = receipt_bytes(receipt)
    assert hashlib.sha256(data).hexdigest() == PINNED_RECEIPT_SHA256
