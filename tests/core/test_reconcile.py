"""Two reviewers' receipts reconciled (issue 32): Cohen's kappa against hand-computed
values, agreement per state, disagreements and one-sided beliefs, the choices file, the
receipts' trust and matching, and the reconciled receipt (signed, naming both)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination, golden_bytes
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.receipt import ReceiptStatus, receipt_bytes, verify_receipt
from zcf_inspector.core.review.agreement import cohen_kappa, compare_decisions
from zcf_inspector.core.review.batch import review_packet
from zcf_inspector.core.review.reconcile import reconcile_receipts
from zcf_inspector.core.review.reconcile_choices import (
    ChoicesFileError,
    OneSided,
    Take,
    parse_choices,
    read_choices,
)

PACKET = golden_bytes("full-handoff")  # admits b-reader, b-order, b-bench
KEY = ed25519_public_key(g.RECEIPT_SEED)
A_DECISIONS = [
    {"portableRef": "b-reader", "state": "confirmed", "note": "<img src=x onerror=alert(1)>"},
    {"portableRef": "b-order", "state": "rejected", "note": "stale"},
    {"portableRef": "b-bench", "state": "confirmed"},
]
B_DECISIONS = [
    {"portableRef": "b-reader", "state": "rejected", "note": "wrong"},
    {"portableRef": "b-order", "state": "confirmed"},
    {"portableRef": "b-bench", "state": "confirmed"},
]


def receipt(decisions: Any, reviewer: str, **dest: Any) -> dict[str, Any]:
    made = review_packet(PACKET, destination(**dest), decisions, reviewer=reviewer).receipt
    assert made is not None
    return made


# --- kappa, exactly --------------------------------------------------------------------


def test_kappa_of_the_textbook_table() -> None:
    # 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15 (the Wikipedia example):
    # p_o = 35/50, p_e = (25·30 + 25·20)/2500 = 1/2, kappa = (7/10 - 1/2) / (1/2) = 2/5.
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    assert cohen_kappa(pairs) == Fraction(2, 5)


def test_kappa_of_three_labels() -> None:
    # A: c c r s ; B: c r r s. p_o = 3/4; A: c2 r1 s1, B: c1 r2 s1;
    # p_e = (2·1 + 1·2 + 1·1)/16 = 5/16; kappa = (12/16 - 5/16) / (11/16) = 7/11.
    pairs = [("c", "c"), ("c", "r"), ("r", "r"), ("s", "s")]
    assert cohen_kappa(pairs) == Fraction(7, 11)


def test_kappa_of_full_agreement_full_disagreement_and_undefined() -> None:
    assert cohen_kappa([("a", "a"), ("b", "b")]) == 1
    assert cohen_kappa([("a", "b"), ("b", "a")]) == -1
    assert cohen_kappa([("a", "a"), ("a", "a")]) is None  # p_e = 1
    assert cohen_kappa([]) is None


# --- the comparison --------------------------------------------------------------------


def test_two_receipts_that_differ_in_two_decisions() -> None:
    a, b = receipt(A_DECISIONS, "alice"), receipt(B_DECISIONS, "bob")
    agreement = compare_decisions(("b-reader", "b-order", "b-bench"), a, b)
    assert [p.portable_ref for p in agreement.disagreements] == ["b-reader", "b-order"]
    assert [p.portable_ref for p in agreement.agreed] == ["b-bench"]
    assert agreement.observed == Fraction(1, 3)
    # A: c r c, B: r c c: p_e = (2·2 + 1·1)/9 = 5/9; kappa = (3/9 - 5/9) / (4/9) = -1/2.
    assert agreement.kappa == Fraction(-1, 2)
    confirmed = next(r for r in agreement.per_state if r.state is ReviewState.CONFIRMED)
    assert (confirmed.a, confirmed.b, confirmed.both, confirmed.specific) == (
        2,
        2,
        1,
        Fraction(1, 2),
    )
    reader = agreement.disagreements[0]
    assert reader.a is not None
    assert reader.a.note == "<img src=x onerror=alert(1)>"
    assert reader.b is not None
    assert (reader.b.reviewer, reader.b.note) == ("bob", "wrong")


def test_a_belief_one_reviewer_left_undecided() -> None:
    a = receipt(A_DECISIONS, "alice")
    b = receipt(
        [*B_DECISIONS[:2], {"portableRef": "b-bench", "state": "unreviewed"}], "bob"
    )  # bob undid his decision on b-bench: undecided
    agreement = compare_decisions(("b-reader", "b-order", "b-bench"), a, b)
    assert [p.portable_ref for p in agreement.one_sided] == ["b-bench"]
    assert len(agreement.compared) == 2
    assert agreement.neither == 0


def test_superseded_naming_different_replacements_is_a_disagreement() -> None:
    a = receipt(
        [
            {
                "portableRef": "b-bench",
                "state": "superseded",
                "note": "n",
                "supersededBy": "b-reader",
            }
        ],
        "alice",
    )
    b = receipt(
        [{"portableRef": "b-bench", "state": "superseded", "note": "n", "supersededBy": "b-order"}],
        "bob",
    )
    agreement = compare_decisions(("b-reader", "b-order", "b-bench"), a, b)
    assert [p.portable_ref for p in agreement.disagreements] == ["b-bench"]


# --- receipts verified and matched first -----------------------------------------------


def test_reconcile_compares_two_signed_receipts() -> None:
    a, b = receipt(A_DECISIONS, "alice"), receipt(B_DECISIONS, "bob")
    result = reconcile_receipts(PACKET, destination(), receipt_bytes(a), receipt_bytes(b))
    assert not result.refused
    assert [c.trusted for c in result.receipts] == [True, True]
    assert result.agreement is not None
    assert result.agreement.kappa == Fraction(-1, 2)
    assert result.receipt is None  # none asked for


def test_an_unsigned_receipt_needs_accepting() -> None:
    unsigned = receipt(A_DECISIONS, "alice", signingKey=None)
    signed = receipt(B_DECISIONS, "bob")
    result = reconcile_receipts(
        PACKET, destination(), receipt_bytes(unsigned), receipt_bytes(signed)
    )
    assert result.refused
    assert result.agreement is None
    assert [f.code for f in result.findings] == [ReviewCode.RECONCILE_RECEIPT_UNTRUSTED]
    assert "receipt A is unsigned" in result.findings[0].message
    accepted = reconcile_receipts(
        PACKET, destination(), receipt_bytes(unsigned), receipt_bytes(signed), accept_unsigned=True
    )
    assert not accepted.refused
    assert [c.trusted for c in accepted.receipts] == [False, True]


def test_a_changed_receipt_and_another_packets_receipt_are_refused() -> None:
    a, b = receipt(A_DECISIONS, "alice"), receipt(B_DECISIONS, "bob")
    a["review"]["decisions"][0]["state"] = "rejected"  # its digest no longer holds
    result = reconcile_receipts(PACKET, destination(), receipt_bytes(a), receipt_bytes(b))
    assert result.findings[0].code is ReviewCode.RECONCILE_RECEIPT_INVALID
    assert "receipt A does not verify" in result.findings[0].message
    other = review_packet(golden_bytes("minimal"), destination(), [], reviewer="x").receipt
    assert other is not None
    result = reconcile_receipts(PACKET, destination(), receipt_bytes(other), receipt_bytes(b))
    assert {f.code for f in result.findings} == {ReviewCode.RECEIPT_MISMATCH}
    result = reconcile_receipts(PACKET, destination(), b'{"a": 1, "a": 2}', receipt_bytes(b))
    assert result.findings[0].code is ReviewCode.RECONCILE_RECEIPT_INVALID
    assert [str(f.code) for f in result.findings[1:]] == ["duplicate_key"]  # the reader's


# --- the reconciled receipt ------------------------------------------------------------


def test_the_reconciled_receipt_takes_agreed_and_chosen_decisions() -> None:
    a, b = receipt(A_DECISIONS, "alice"), receipt(B_DECISIONS, "bob")
    choices = parse_choices(
        {
            "disagreed": "b",
            "note": "discussed",
            "beliefs": {"b-order": {"state": "rejected", "note": "stale after all"}},
        }
    )
    result = reconcile_receipts(
        PACKET,
        destination(),
        receipt_bytes(a),
        receipt_bytes(b),
        choices=choices,
        reconciler="carol",
    )
    made: dict[str, Any] | None = result.receipt
    assert made is not None
    assert not result.findings
    assert verify_receipt(made, KEY).status is ReceiptStatus.VALID_SIGNED
    decisions = made["review"]["decisions"]
    assert [(d["portableRef"], d["state"], d["reviewer"]) for d in decisions] == [
        ("b-reader", "rejected", "carol"),  # the rule took B
        ("b-order", "rejected", "carol"),  # the reconciler's own decision
        ("b-bench", "confirmed", "carol"),  # agreed
    ]
    for d in decisions:  # every note names both earlier receipts by digest
        assert a["receiptDigest"] in d["note"]
        assert b["receiptDigest"] in d["note"]
        assert d["note"].startswith("discussed — ")
    assert "the rule took B" in decisions[0]["note"]
    assert "stale after all" in decisions[1]["note"]
    assert "both reviewers agreed" in decisions[2]["note"]


def test_leaving_disagreements_and_taking_one_sided() -> None:
    a = receipt(A_DECISIONS, "alice")
    b = receipt(B_DECISIONS[:2], "bob")  # bob never decided b-bench
    left = reconcile_receipts(
        PACKET, destination(), receipt_bytes(a), receipt_bytes(b),
        choices=parse_choices({}), reconciler="carol",
    )  # fmt: skip
    left_receipt: dict[str, Any] | None = left.receipt
    assert left_receipt is not None
    assert left_receipt["review"]["decisions"] == []
    taken = reconcile_receipts(
        PACKET, destination(), receipt_bytes(a), receipt_bytes(b),
        choices=parse_choices({"oneSided": "take", "beliefs": {"b-reader": "a"}}),
        reconciler="carol",
    )  # fmt: skip
    taken_receipt: dict[str, Any] | None = taken.receipt
    assert taken_receipt is not None
    made = [(d["portableRef"], d["state"]) for d in taken_receipt["review"]["decisions"]]
    assert made == [("b-reader", "confirmed"), ("b-bench", "confirmed")]


def test_a_choice_for_an_unknown_belief_or_an_illegal_decision_is_refused() -> None:
    a, b = receipt(A_DECISIONS, "alice"), receipt(B_DECISIONS, "bob")
    result = reconcile_receipts(
        PACKET, destination(), receipt_bytes(a), receipt_bytes(b),
        choices=parse_choices({"beliefs": {"b-nope": "a", "b-order": {"state": "maybe"}}}),
        reconciler="carol",
    )  # fmt: skip
    assert result.receipt is None
    codes = {f.code for f in result.findings}
    assert codes == {ReviewCode.UNKNOWN_PORTABLE_REF, ReviewCode.ILLEGAL_STATE}


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ([], "a choices file is a JSON object"),
        ({"disagreed": "c"}, "/disagreed: must be one of a, b, leave"),
        ({"oneSided": "a"}, "/oneSided: must be one of take, leave"),
        ({"extra": 1}, "/extra: unknown member"),
        ({"beliefs": {"b-x": 3}}, "/beliefs/b-x: must be a, b, leave or a decision object"),
        ({"beliefs": {"b-x": {"note": "n"}}}, "/beliefs/b-x/state: is missing"),
        ({"beliefs": {"b-x": {"state": "confirmed", "portableRef": "b"}}}, "unknown member"),
    ],
)
def test_choices_file_errors_name_the_member(value: Any, words: str) -> None:
    with pytest.raises(ChoicesFileError, match=words):
        parse_choices(value)


def test_choices_defaults_and_strict_reading() -> None:
    parsed = read_choices(json.dumps({"beliefs": {"b-x": "leave"}}).encode())
    assert (parsed.disagreed, parsed.one_sided, parsed.beliefs) == (
        Take.LEAVE,
        OneSided.LEAVE,
        {"b-x": Take.LEAVE},
    )
    with pytest.raises(ChoicesFileError, match="not strict JSON"):
        read_choices(b'{"a": 1, "a": 2}')


def test_a_packet_refused_here_has_nothing_to_reconcile() -> None:
    a, b = receipt(A_DECISIONS, "alice"), receipt(B_DECISIONS, "bob")
    tampered = (GOLDENS / "negative" / "tampered-capsule.json").read_bytes()
    result = reconcile_receipts(tampered, destination(), receipt_bytes(a), receipt_bytes(b))
    assert result.refused
    assert result.agreement is None
    assert [f.code for f in result.findings] == [ReviewCode.PACKET_REFUSED]


LABELS = st.sampled_from(["confirmed", "rejected", "superseded"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(LABELS, LABELS), max_size=40))
def test_kappa_is_symmetric_bounded_and_matches_its_definition(
    pairs: list[tuple[str, str]],
) -> None:
    kappa = cohen_kappa(pairs)
    swapped = cohen_kappa([(b, a) for a, b in pairs])
    assert kappa == swapped
    if kappa is None:
        return
    assert -1 <= kappa <= 1
    # The definition, term by term, in fractions.
    n = len(pairs)
    observed = Fraction(sum(a == b for a, b in pairs), n)
    chance = sum(
        Fraction(sum(a == label for a, _ in pairs), n)
        * Fraction(sum(b == label for _, b in pairs), n)
        for label in {x for pair in pairs for x in pair}
    )
    assert kappa == (observed - chance) / (1 - chance)
    if all(a == b for a, b in pairs):
        assert kappa == 1
