"""Review only what changed: the previous generation and its receipt, classified and checked."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from tests.core.generations import (
    EARLIER_AT,
    earlier_receipt,
    gen1_beliefs,
    generation_1,
    generation_2,
    target_of,
    write_generations,
)
from tests.core.helpers import destination, golden_bytes, to_bytes
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ErrorCode, ReviewCode
from zcf_inspector.core.files import UnreadableFileError
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.keyfile import new_ed25519_key
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import ReceiptStatus, finish_receipt, receipt_bytes
from zcf_inspector.core.review.carry_over import plan_carry_over, repeat_note
from zcf_inspector.core.review.decisions import Decision, DecisionRequest, ReviewError
from zcf_inspector.core.review.previous import (
    BeliefChange,
    PreviousGeneration,
    classify,
    compare_with_previous,
    load_previous,
)
from zcf_inspector.core.review.previous_trust import check_previous_receipt
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import AdmittedBelief, ReviewTarget

NEW, CHANGED, UNCHANGED = BeliefChange.NEW, BeliefChange.CHANGED, BeliefChange.UNCHANGED


def previous_generation(
    receipt: dict[str, Any] | None = None, current: ReviewTarget | None = None
) -> PreviousGeneration:
    chosen = receipt if receipt is not None else earlier_receipt()
    report = check_previous_receipt(chosen, destination())
    return compare_with_previous(
        target_of(generation_1()), chosen, report, current or target_of(generation_2())
    )


def refusal(exc: pytest.ExceptionInfo[ReviewError]) -> tuple[ReviewCode, list[str]]:
    code = exc.value.code
    assert isinstance(code, ReviewCode)
    return code, [f"{f.code} {f.pointer}" for f in exc.value.findings[1:]]


def admitted(ref: str, content: str, source: str | None = None) -> AdmittedBelief:
    return AdmittedBelief(ref, source or f"mem-{ref}", content, "unreviewed")


# --- classification -------------------------------------------------------------------


def test_each_current_belief_is_new_changed_or_unchanged() -> None:
    p = previous_generation()
    assert dict(p.classification.changes) == {
        "b-sup2": UNCHANGED,
        "b-open": UNCHANGED,
        "b-new": NEW,
        "b-edit": CHANGED,  # other content
        "b-src": CHANGED,  # other sourceId: the claim comes from another memory
        "b-old": UNCHANGED,
        "b-reject": UNCHANGED,
        "b-keep": UNCHANGED,  # arrived claiming "confirmed": admission demoted it
    }
    assert p.classification.removed == ("b-gone",)
    assert p.changed_refs == {"b-new", "b-edit", "b-src"}
    assert p.summary() == "1 new, 2 changed, 5 unchanged, 1 no longer admitted"
    assert p.notes == ()  # same source installation, created later


def test_unchanged_means_identical_canonical_admitted_objects() -> None:
    """The rule, checked against canonical bytes computed independently."""
    before = target_of(generation_1())
    after = target_of(generation_2())
    changes = classify(before.beliefs, after.beliefs).changes

    def wire(t: ReviewTarget) -> dict[str, bytes]:
        return {
            b.portable_ref: canonical(
                {"portableRef": b.portable_ref, "sourceId": b.source_id, "content": b.content}
            )
            for b in t.beliefs
        }

    old, new = wire(before), wire(after)
    for ref, change in changes.items():
        assert (change is UNCHANGED) == (ref in old and old[ref] == new[ref])
        assert (change is NEW) == (ref not in old)


def test_reordering_alone_changes_nothing() -> None:
    beliefs = gen1_beliefs()
    before = target_of(generation_1())
    after = target_of(generation_2(list(reversed(beliefs))))
    c = classify(before.beliefs, after.beliefs)
    assert set(c.changes.values()) == {UNCHANGED}
    assert c.removed == ()
    assert list(c.changes) == [b["portableRef"] for b in reversed(beliefs)]  # current order


def test_content_is_what_was_admitted_after_the_cut() -> None:
    """maxBeliefBytes cuts content: the reviewer read, and the receipt bound, the cut text.
    A change past the cut is not admitted, so it is not a change of what was decided on."""
    head = "x" * 160  # the golden destination admits 160 UTF-8 bytes of content
    one = [g.belief("b-long", head + " tail one"), g.belief("b-short", "short")]
    two = [g.belief("b-long", head + " tail two"), g.belief("b-short", "short!")]
    before = target_of(generation_2(one))
    after = target_of(generation_2(two))
    assert [b.content for b in after.beliefs] == [head, "short!"]
    assert dict(classify(before.beliefs, after.beliefs).changes) == {
        "b-long": UNCHANGED,
        "b-short": CHANGED,
    }
    # The same packets under a destination that admits it whole: now it is a change.
    wide = destination(maxBeliefBytes=1000)
    whole = classify(
        target_of(generation_2(one), wide).beliefs, target_of(generation_2(two), wide).beliefs
    )
    assert whole.changes["b-long"] is CHANGED


def test_repeated_refs_are_never_unchanged() -> None:
    """Ingest refuses a repeated portableRef (duplicate_id); a target made otherwise
    that repeats one is ambiguous on either side, so it is a change, never carried."""
    before = [admitted("a", "1"), admitted("b", "2"), admitted("b", "2"), admitted("c", "3")]
    after = [admitted("a", "1"), admitted("a", "1"), admitted("b", "2"), admitted("c", "3")]
    c = classify(before, after)
    assert dict(c.changes) == {"a": CHANGED, "b": CHANGED, "c": UNCHANGED}
    assert c.repeated == {"a", "b"}
    twice_new = classify([], [admitted("n", "1"), admitted("n", "1")])
    assert dict(twice_new.changes) == {"n": NEW}


def test_a_previous_packet_with_a_repeated_ref_is_refused(tmp_path: Path) -> None:
    beliefs = gen1_beliefs()
    beliefs[1] = dict(beliefs[1], portableRef="b-keep")
    bad = generation_2(beliefs)
    path = tmp_path / "bad.json"
    path.write_bytes(to_bytes(bad))
    receipt = tmp_path / "r.json"
    receipt.write_bytes(receipt_bytes(earlier_receipt()))
    with pytest.raises(ReviewError) as exc:
        load_previous(str(path), str(receipt), destination(), target_of(generation_2()))
    code, reasons = refusal(exc)
    assert code is ReviewCode.PREVIOUS_PACKET_REFUSED
    assert f"{ErrorCode.DUPLICATE_ID} /content/beliefs/1/portableRef" in reasons


# --- the receipt: verified and matched ----------------------------------------------------


def test_the_earlier_states_are_the_last_decision_per_belief() -> None:
    p = previous_generation()
    assert {ref: str(d.state) for ref, d in p.earlier.items()} == {
        "b-keep": "confirmed",
        "b-reject": "rejected",
        "b-old": "superseded",
        "b-edit": "confirmed",
        "b-src": "confirmed",
        "b-gone": "confirmed",
        "b-sup2": "superseded",
        "b-open": "unreviewed",
    }
    assert [(c.portable_ref, str(c.earlier.state)) for c in p.candidates] == [
        ("b-old", "superseded"),
        ("b-reject", "rejected"),
        ("b-keep", "confirmed"),
    ]
    [withheld] = p.withheld
    assert withheld.portable_ref == "b-sup2"
    assert withheld.reason == "its replacement 'b-edit' is changed since that receipt"
    assert p.receipt_status is ReceiptStatus.VALID_SIGNED
    assert p.trust_text().endswith("signature verified under this destination's key")


def test_a_supersede_whose_replacement_is_gone_is_withheld() -> None:
    requests = [DecisionRequest("b-keep", "superseded", "moved", "b-gone")]
    p = previous_generation(earlier_receipt(requests=requests))
    assert p.candidates == ()
    assert [(w.portable_ref, w.reason) for w in p.withheld] == [
        ("b-keep", "its replacement 'b-gone' is not admitted in this packet")
    ]


def test_an_earlier_decision_this_tool_refuses_is_withheld() -> None:
    """Another tool's receipt may say a belief supersedes itself: the rules still apply."""
    receipt = earlier_receipt(requests=[DecisionRequest("b-keep", "confirmed")])
    receipt["review"]["decisions"].append(
        {
            "portableRef": "b-old",
            "state": "superseded",
            "reviewer": "alice",
            "at": EARLIER_AT,
            "note": "itself",
            "supersededBy": "b-old",
        }
    )
    p = previous_generation(finish_receipt(receipt, destination().signing_key))
    assert [c.portable_ref for c in p.candidates] == ["b-keep"]
    assert [(w.portable_ref, w.reason) for w in p.withheld] == [
        ("b-old", "'b-old' cannot supersede itself")
    ]


def test_a_tampered_receipt_is_refused() -> None:
    receipt = earlier_receipt()
    receipt["review"]["decisions"][0]["state"] = "rejected"
    receipt["review"]["decisions"][0]["note"] = "forged"
    with pytest.raises(ReviewError) as exc:
        check_previous_receipt(receipt, destination())
    code, reasons = refusal(exc)
    assert code is ReviewCode.PREVIOUS_RECEIPT_INVALID
    assert reasons == [f"{ErrorCode.INVALID_VALUE} /receiptDigest"]


def test_a_receipt_resealed_without_the_key_is_refused() -> None:
    """Recomputing the digest after a change does not help: the signature claims this
    destination's key and no longer verifies under it."""
    receipt = earlier_receipt()
    receipt["review"]["decisions"][0]["state"] = "rejected"
    receipt["review"]["decisions"][0]["note"] = "forged"
    resealed = finish_receipt(receipt, None)
    resealed["signature"] = receipt["signature"]
    with pytest.raises(ReviewError) as exc:
        check_previous_receipt(resealed, destination())
    assert refusal(exc) == (
        ReviewCode.PREVIOUS_RECEIPT_INVALID,
        [f"{ErrorCode.SIGNATURE_INVALID} /signature/value"],
    )


def test_unsigned_and_foreign_signed_receipts_are_used_and_said_so() -> None:
    unsigned = finish_receipt(earlier_receipt(), None)
    p = previous_generation(unsigned)
    assert p.receipt_status is ReceiptStatus.VALID_UNSIGNED
    assert "nothing proves who made these decisions" in p.trust_text()
    other = finish_receipt(earlier_receipt(), new_ed25519_key().seed)
    q = previous_generation(other)
    assert q.receipt_status is ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED
    assert "signed, but by no key this destination trusts, so not checked" in q.trust_text()
    assert [f.code for f in q.receipt_notes] == [ErrorCode.SOURCE_KEY_UNKNOWN]
    assert len(p.candidates) == len(q.candidates) == 3


def test_a_receipt_of_another_packet_is_refused() -> None:
    other = ReviewTarget.from_ingest(ingest_bytes(golden_bytes("full-handoff"), destination()))
    session = ReviewSession(other)
    session.apply(session.plan([DecisionRequest("b-reader", "confirmed")], "alice", EARLIER_AT))
    receipt = session.receipt(EARLIER_AT, destination().signing_key)
    with pytest.raises(ReviewError) as exc:
        previous_generation(receipt)
    code, reasons = refusal(exc)
    assert code is ReviewCode.RECEIPT_MISMATCH
    assert reasons[:4] == [
        "receipt_mismatch /correlationId",
        "receipt_mismatch /packetId",
        "receipt_mismatch /packetNonce",
        "receipt_mismatch /manifestRootHash",
    ]
    assert "receipt_mismatch /review/decisions/0/portableRef" in reasons


def test_a_receipt_of_another_admission_is_refused() -> None:
    """Decisions were made on what was admitted: a destination that now admits other
    beliefs (here fewer) no longer has the admission the receipt binds (targetDigest)."""
    narrower = destination(maxBeliefs=6)
    receipt = earlier_receipt()
    with pytest.raises(ReviewError) as exc:
        compare_with_previous(
            target_of(generation_1(), narrower),
            receipt,
            check_previous_receipt(receipt, narrower),
            target_of(generation_2(), narrower),
        )
    code, reasons = refusal(exc)
    assert code is ReviewCode.RECEIPT_MISMATCH
    assert reasons[0] == "receipt_mismatch /targetDigest"


def test_the_previous_packet_is_admitted_at_the_receipts_time(tmp_path: Path) -> None:
    """An earlier generation has often expired by now; it was not when it was reviewed."""
    old = generation_1(expires="2026-10-01T13:00:00Z")  # after the receipt, before now
    later = destination(now="2026-11-01T00:00:00Z")
    path = tmp_path / "gen1.json"
    path.write_bytes(to_bytes(old))
    receipt = tmp_path / "gen1.receipt.json"
    receipt.write_bytes(receipt_bytes(earlier_receipt(old)))
    assert ingest_bytes(path.read_bytes(), later).receipt is None  # refused now: expired
    current = target_of(generation_2(), later)
    p = load_previous(str(path), str(receipt), later, current)
    assert p.imported_at == g.NOW
    assert len(p.candidates) == 3


def test_files_that_cannot_be_used(tmp_path: Path) -> None:
    gen1, receipt, gen2 = write_generations(tmp_path)
    current = target_of(generation_2())
    with pytest.raises(UnreadableFileError):
        load_previous(str(gen1), str(tmp_path / "missing.json"), destination(), current)
    with pytest.raises(UnreadableFileError):
        load_previous(str(tmp_path / "missing.json"), str(receipt), destination(), current)
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{"format": ')
    with pytest.raises(ReviewError) as exc:
        load_previous(str(gen1), str(broken), destination(), current)
    assert exc.value.code is ReviewCode.PREVIOUS_RECEIPT_INVALID
    # A packet given as the receipt: its shape is refused, not its decisions guessed at.
    with pytest.raises(ReviewError) as exc:
        load_previous(str(gen1), str(gen2), destination(), current)
    assert exc.value.code is ReviewCode.PREVIOUS_RECEIPT_INVALID


def test_what_the_two_packets_say_of_their_relation() -> None:
    same = previous_generation(current=target_of(generation_1()))
    assert same.notes == ("the previous packet is the packet under review itself",)
    p = generation_2()
    p["packet"]["createdAt"] = "2026-09-28T00:00:00Z"
    p["retention"]["exportedAt"] = "2026-09-28T00:00:00Z"
    older = g.mac(p)
    assert previous_generation(current=target_of(older)).notes == (
        "the previous packet was created at 2026-09-29T10:00:00Z, after this one "
        "(2026-09-28T00:00:00Z)",
    )


# --- the carry-over step ----------------------------------------------------------------


def test_the_carry_over_repeats_each_candidate_with_where_it_came_from() -> None:
    p = previous_generation()
    plan = plan_carry_over(p, {}, "checked the diff of gen2")
    digest = p.receipt_digest
    origin = f"repeated from receipt {digest} (packet pkt-stream-gen1; "
    assert plan.requests == (
        DecisionRequest(
            "b-old",
            "superseded",
            f"checked the diff of gen2 — {origin}superseded by alice at {EARLIER_AT}): "
            "b-keep says it better",
            "b-keep",
        ),
        DecisionRequest(
            "b-reject",
            "rejected",
            f"checked the diff of gen2 — {origin}rejected by alice at {EARLIER_AT}): "
            "stale: the reader changed",
        ),
        DecisionRequest(
            "b-keep",
            "confirmed",
            f"checked the diff of gen2 — {origin}confirmed by alice at {EARLIER_AT})",
        ),
    )
    assert plan.already_decided == ()
    assert repeat_note("n", p, p.candidates[2].earlier) == (
        f"n — {origin}confirmed by alice at {EARLIER_AT})"
    )


def test_the_carry_over_never_overwrites_this_reviews_decisions() -> None:
    p = previous_generation()
    mine = {
        "b-keep": Decision("b-keep", ReviewState.REJECTED, "carol", g.NOW, "no"),
        "b-old": Decision("b-old", ReviewState.UNREVIEWED, "carol", g.NOW),  # back: open
    }
    plan = plan_carry_over(p, mine, "n")
    assert [r.portable_ref for r in plan.requests] == ["b-old", "b-reject"]
    assert plan.already_decided == ("b-keep",)


@pytest.mark.parametrize("note", ["", "   ", "\n"])
def test_the_carry_over_needs_a_note(note: str) -> None:
    with pytest.raises(ReviewError) as exc:
        plan_carry_over(previous_generation(), {}, note)
    assert exc.value.code is ReviewCode.NOTE_REQUIRED


def test_a_receipt_with_a_million_decisions_is_bounded_by_its_refusal() -> None:
    """A hostile receipt of another packet lists every difference? No: twenty, then a count."""
    receipt = copy.deepcopy(earlier_receipt())
    decision = receipt["review"]["decisions"][0]
    receipt["review"]["decisions"] = [dict(decision, portableRef=f"x{i}") for i in range(5000)]
    receipt = finish_receipt(receipt, destination().signing_key)
    with pytest.raises(ReviewError) as exc:
        previous_generation(receipt)
    findings = exc.value.findings
    assert len(findings) == 22
    assert findings[-1].message == "… and 4,980 more"
    assert json.dumps([f.to_json() for f in findings])  # plain data, shown as it is
