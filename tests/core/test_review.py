"""Review decisions (profile §6 ``review``): the rules, undo/redo, and the reviewed receipt."""

from __future__ import annotations

import json

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination, golden_bytes
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import ReceiptStatus, receipt_bytes, verify_receipt
from zcf_inspector.core.packet.receipt_shape import check_receipt_shape
from zcf_inspector.core.review.decisions import (
    Decision,
    DecisionRequest,
    ReviewError,
    check_request,
)
from zcf_inspector.core.review.decisions_file import parse_decision_requests
from zcf_inspector.core.review.receipt_match import match_receipt
from zcf_inspector.core.review.session import ReviewSession, apply_decisions, review_receipt
from zcf_inspector.core.review.target import ReviewTarget

NOW = g.NOW
KEY = ed25519_public_key(g.RECEIPT_SEED)


def target(name: str = "full-handoff") -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(golden_bytes(name), destination()))


def session(name: str = "full-handoff") -> ReviewSession:
    return ReviewSession(target(name))


def decide(s: ReviewSession, *requests: DecisionRequest, reviewer: str = "carol") -> None:
    s.apply(s.plan(list(requests), reviewer, NOW))


def test_the_code_enum_is_closed_and_stable() -> None:
    assert {c.value for c in ReviewCode} == {
        "unknown_portable_ref",
        "illegal_state",
        "note_required",
        "superseded_by_invalid",
        "invalid_decision",
        "invalid_reviewer",
        "packet_refused",
        "nothing_to_undo",
        "nothing_to_redo",
        "journal_corrupt",
        "journal_mismatch",
        "journal_unsupported_version",
        "journal_conflict",
        "journal_unavailable",
        "receipt_mismatch",
        "previous_receipt_invalid",
        "previous_packet_refused",
        "previous_receipt_untrusted",
        "reconcile_receipt_invalid",
        "reconcile_receipt_untrusted",
    }


def test_target_knows_incoming_states_and_demotions() -> None:
    t = target("demotion")
    assert [(b.portable_ref, b.incoming_state, b.demoted) for b in t.beliefs] == [
        ("b-c", "confirmed", True),
        ("b-r", "rejected", True),
        ("b-s", "superseded", True),
        ("b-u", "unreviewed", False),
        ("b-n", "unreviewed", False),
    ]


def test_only_admitted_beliefs_are_reviewable() -> None:
    t = target("truncation")
    assert len(t.refs) == 8  # the golden destination admits 8 of 10
    dropped = json.loads(golden_bytes("truncation"))["content"]["beliefs"][9]["portableRef"]
    [problem] = check_request(DecisionRequest(dropped, "confirmed"), t.refs)
    assert problem.code is ReviewCode.UNKNOWN_PORTABLE_REF


def test_refused_packet_has_nothing_to_review() -> None:
    data = (GOLDENS / "negative" / "tampered-capsule.json").read_bytes()
    with pytest.raises(ReviewError) as caught:
        ReviewTarget.from_ingest(ingest_bytes(data, destination()))
    assert caught.value.code is ReviewCode.PACKET_REFUSED


RULES = {
    "unknown ref": (DecisionRequest("b-nope", "confirmed"), [ReviewCode.UNKNOWN_PORTABLE_REF]),
    "illegal state": (DecisionRequest("b-reader", "approved"), [ReviewCode.ILLEGAL_STATE]),
    "reject without note": (DecisionRequest("b-reader", "rejected"), [ReviewCode.NOTE_REQUIRED]),
    "reject with blank note": (
        DecisionRequest("b-reader", "rejected", " \n"),
        [ReviewCode.NOTE_REQUIRED],
    ),
    "supersede without note": (
        DecisionRequest("b-reader", "superseded", None, "b-order"),
        [ReviewCode.NOTE_REQUIRED],
    ),
    "supersede without replacement": (
        DecisionRequest("b-reader", "superseded", "why"),
        [ReviewCode.SUPERSEDED_BY_INVALID],
    ),
    "supersede by itself": (
        DecisionRequest("b-reader", "superseded", "why", "b-reader"),
        [ReviewCode.SUPERSEDED_BY_INVALID],
    ),
    "supersede by a stranger": (
        DecisionRequest("b-reader", "superseded", "why", "b-nope"),
        [ReviewCode.SUPERSEDED_BY_INVALID],
    ),
    "replacement on a confirm": (
        DecisionRequest("b-reader", "confirmed", None, "b-order"),
        [ReviewCode.SUPERSEDED_BY_INVALID],
    ),
    "everything wrong": (
        DecisionRequest("b-nope", "rejected"),
        [ReviewCode.UNKNOWN_PORTABLE_REF, ReviewCode.NOTE_REQUIRED],
    ),
    "confirm": (DecisionRequest("b-reader", "confirmed"), []),
    "confirm with note": (DecisionRequest("b-reader", "confirmed", "ok"), []),
    "reject": (DecisionRequest("b-reader", "rejected", "stale"), []),
    "supersede": (DecisionRequest("b-reader", "superseded", "newer", "b-order"), []),
    "back to unreviewed": (DecisionRequest("b-reader", "unreviewed"), []),
}


@pytest.mark.parametrize("case", sorted(RULES))
def test_decision_rules(case: str) -> None:
    request, codes = RULES[case]
    assert [p.code for p in check_request(request, target().refs)] == codes


def test_plan_refuses_with_every_reason_and_changes_nothing() -> None:
    s = session()
    with pytest.raises(ReviewError) as caught:
        s.plan(
            [DecisionRequest("b-reader", "confirmed"), DecisionRequest("b-order", "rejected")],
            "carol",
            NOW,
        )
    assert [(f.code, f.pointer) for f in caught.value.findings] == [
        (ReviewCode.NOTE_REQUIRED, "/1/note")
    ]
    assert s.decisions == ()
    with pytest.raises(ReviewError) as bad_reviewer:
        s.plan([DecisionRequest("b-reader", "confirmed")], "", NOW)
    assert bad_reviewer.value.code is ReviewCode.INVALID_REVIEWER


def test_wire_form_of_a_decision() -> None:
    plain = Decision("b-1", ReviewState.CONFIRMED, "carol", NOW)
    assert list(plain.to_json()) == ["portableRef", "state", "reviewer", "at"]
    full = Decision("b-1", ReviewState.SUPERSEDED, "carol", NOW, "newer", "b-2")
    assert full.to_json() == {
        "portableRef": "b-1",
        "state": "superseded",
        "reviewer": "carol",
        "at": NOW,
        "note": "newer",
        "supersededBy": "b-2",
    }
    s = session()
    decide(s, DecisionRequest("b-reader", "confirmed", ""))
    assert s.decisions[0].note is None  # an empty note is no note


def test_undo_redo_and_export_seal() -> None:
    s = session()
    decide(s, DecisionRequest("b-reader", "confirmed"))
    decide(
        s,
        DecisionRequest("b-order", "rejected", "bulk"),
        DecisionRequest("b-bench", "rejected", "bulk"),
    )
    assert s.state_of("b-bench") is ReviewState.REJECTED
    step = s.undo(s.undo_candidate().number)
    assert len(step.decisions) == 2  # a bulk decision is undone as one step
    assert s.state_of("b-bench") is ReviewState.UNREVIEWED
    assert s.can_redo
    s.redo(s.redo_candidate().number)
    assert len(s.decisions) == 3
    s.undo(s.undo_candidate().number)
    decide(s, DecisionRequest("b-order", "confirmed"))
    assert not s.can_redo  # a new decision forks history
    with pytest.raises(ReviewError) as nothing:
        s.redo_candidate()
    assert nothing.value.code is ReviewCode.NOTHING_TO_REDO
    s.seal()
    with pytest.raises(ReviewError) as sealed:
        s.undo_candidate()
    assert sealed.value.code is ReviewCode.NOTHING_TO_UNDO
    assert "exported" in str(sealed.value)
    decide(s, DecisionRequest("b-bench", "confirmed"))
    assert s.can_undo  # decisions after an export can still be undone


def test_summary_counts() -> None:
    s = session()
    decide(s, DecisionRequest("b-reader", "confirmed"))
    decide(s, DecisionRequest("b-reader", "rejected", "changed my mind"))
    summary = s.summary()
    assert dict(summary.counts) == {
        ReviewState.UNREVIEWED: 2,
        ReviewState.CONFIRMED: 0,
        ReviewState.REJECTED: 1,
        ReviewState.SUPERSEDED: 0,
    }
    assert (summary.decisions, summary.unreviewed, summary.total) == (2, 2, 3)


def test_reviewed_receipt_verifies_and_lists_decisions() -> None:
    s = session()
    decide(s, DecisionRequest("b-reader", "confirmed"))
    decide(s, DecisionRequest("b-bench", "superseded", "newer numbers", "b-order"))
    receipt = s.receipt("2026-10-01T12:30:00Z", g.RECEIPT_SEED)
    assert check_receipt_shape(receipt) == []
    assert verify_receipt(receipt, KEY).status is ReceiptStatus.VALID_SIGNED
    assert receipt["review"] == {
        "decisions": [d.to_json() for d in s.decisions],
        "completedAt": "2026-10-01T12:30:00Z",
    }
    golden = json.loads((GOLDENS / "publication" / "full-handoff.receipt.json").read_bytes())
    same = {k for k in golden if golden[k] == receipt[k]}
    assert set(golden) - same == {"review", "receiptDigest", "signature"}
    unsigned = review_receipt(s.target.receipt, s.decisions, NOW, None)
    assert "signature" not in unsigned
    assert verify_receipt(unsigned).status is ReceiptStatus.VALID_UNSIGNED


def test_receipt_bytes_are_the_golden_file_form() -> None:
    # Golden receipts are written by the generator; every writer must use the same form.
    path = GOLDENS / "publication" / "full-handoff.receipt.json"
    assert receipt_bytes(json.loads(path.read_bytes())) == path.read_bytes()


def test_parse_decision_file_reports_every_problem() -> None:
    requests, problems = parse_decision_requests(
        [
            {"portableRef": "b-reader", "state": "confirmed"},
            "confirm everything",
            {"portableRef": "b-order"},
            {"portableRef": "b-order", "state": "rejected", "note": 3, "why": "x"},
        ]
    )
    assert requests[0] == DecisionRequest("b-reader", "confirmed")
    assert requests[1:] == [None, None, None]
    assert [(p.code, p.pointer) for p in problems] == [
        (ReviewCode.INVALID_DECISION, "/1"),
        (ReviewCode.INVALID_DECISION, "/2"),
        (ReviewCode.INVALID_DECISION, "/3/why"),
        (ReviewCode.INVALID_DECISION, "/3/note"),
    ]
    _, top = parse_decision_requests({"decisions": []})
    assert [p.pointer for p in top] == [""]


def test_apply_decisions_in_order_with_the_clock() -> None:
    s = session()
    ticks = iter(["2026-10-01T12:00:01Z", "2026-10-01T12:00:02Z"])
    problems = apply_decisions(
        s,
        [
            DecisionRequest("b-reader", "confirmed"),
            DecisionRequest("b-nope", "confirmed"),
            DecisionRequest("b-reader", "rejected", "on second thought"),
            DecisionRequest("b-order", "maybe"),
        ],
        "carol",
        lambda: next(ticks),
    )
    assert [(p.code, p.pointer) for p in problems] == [
        (ReviewCode.UNKNOWN_PORTABLE_REF, "/1/portableRef"),
        (ReviewCode.ILLEGAL_STATE, "/3/state"),
    ]
    assert [(d.state, d.at) for d in s.decisions] == [
        (ReviewState.CONFIRMED, "2026-10-01T12:00:01Z"),
        (ReviewState.REJECTED, "2026-10-01T12:00:02Z"),
    ]


def test_match_receipt() -> None:
    t = target()
    s = ReviewSession(t)
    decide(s, DecisionRequest("b-reader", "confirmed"))
    assert match_receipt(s.receipt(NOW, None), t) == []
    other = ReviewSession(target("demotion"))
    decide(other, DecisionRequest("b-c", "confirmed"))
    problems = match_receipt(other.receipt(NOW, None), t)
    assert {p.code for p in problems} == {ReviewCode.RECEIPT_MISMATCH}
    pointers = {p.pointer for p in problems}
    assert {"/correlationId", "/packetId", "/review/decisions/0/portableRef"} <= pointers
