"""Carrying decisions over needs a receipt a trusted key signed (issue 19, defect 12).

An unsigned receipt is one anyone can compute; one signed by an unknown key proves
nothing here. Both can be compared and shown, but their decisions are repeated only when
that is accepted explicitly, and every repeated note then says so.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from goldens import generate as g
from tests.core.generations import earlier_receipt, generation_1, generation_2, target_of
from tests.core.helpers import destination
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.keyfile import new_ed25519_key
from zcf_inspector.core.packet.receipt import ReceiptStatus, finish_receipt
from zcf_inspector.core.review.carry_over import plan_carry_over
from zcf_inspector.core.review.decisions import ReviewError
from zcf_inspector.core.review.previous import PreviousGeneration, compare_with_previous
from zcf_inspector.core.review.previous_trust import (
    UNSIGNED_ORIGIN,
    check_previous_receipt,
    trust_words,
)

NOTE = "read the gen2 diff"


def compared(receipt: dict[str, Any]) -> PreviousGeneration:
    dest = destination()
    report = check_previous_receipt(receipt, dest)
    p = compare_with_previous(target_of(generation_1()), receipt, report, target_of(generation_2()))
    return dataclasses.replace(p, trust_words=trust_words(receipt, dest, report.status))


def unsigned() -> dict[str, Any]:
    return finish_receipt(earlier_receipt(), None)


def foreign() -> dict[str, Any]:
    seed = new_ed25519_key().seed
    assert seed is not None
    return finish_receipt(earlier_receipt(), seed)


@pytest.mark.parametrize("make", [unsigned, foreign], ids=["unsigned", "foreign-signed"])
def test_an_untrusted_receipt_is_compared_but_not_carried_over(make: Any) -> None:
    p = compared(make())
    assert not p.trusted
    assert len(p.candidates) == 3  # compared and shown as before
    with pytest.raises(ReviewError) as exc:
        plan_carry_over(p, {}, NOTE)
    assert exc.value.code is ReviewCode.PREVIOUS_RECEIPT_UNTRUSTED
    assert "--accept-unsigned-previous" in str(exc.value)


@pytest.mark.parametrize("make", [unsigned, foreign], ids=["unsigned", "foreign-signed"])
def test_accepted_explicitly_the_notes_say_it_came_from_an_unsigned_receipt(make: Any) -> None:
    p = compared(make())
    plan = plan_carry_over(p, {}, NOTE, accept_untrusted=True)
    assert len(plan.requests) == 3
    for request in plan.requests:
        assert request.note is not None
        assert request.note.startswith(f"{NOTE} — repeated {UNSIGNED_ORIGIN} sha256:")


def test_the_destinations_own_key_is_trusted() -> None:
    p = compared(earlier_receipt())
    assert p.trusted
    assert p.receipt_status is ReceiptStatus.VALID_SIGNED
    plan = plan_carry_over(p, {}, NOTE)
    assert all(UNSIGNED_ORIGIN not in (r.note or "") for r in plan.requests)
    assert all("repeated from receipt sha256:" in (r.note or "") for r in plan.requests)


def test_a_trusted_keys_entry_is_trusted_and_named() -> None:
    # The destination's trustedKeys hold the source signing key of the goldens.
    receipt = finish_receipt(earlier_receipt(), g.SOURCE_SEED)
    p = compared(receipt)
    assert p.trusted
    assert p.receipt_status is ReceiptStatus.VALID_SIGNED
    assert "one of this destination's trustedKeys" in p.trust_text()
    assert len(plan_carry_over(p, {}, NOTE).requests) == 3


def test_a_signature_claiming_a_trusted_key_must_verify_under_it() -> None:
    receipt: dict[str, Any] = finish_receipt(earlier_receipt(), g.SOURCE_SEED)
    signature: dict[str, Any] = receipt["signature"]
    signature["value"] = signature["value"][::-1]
    with pytest.raises(ReviewError) as exc:
        check_previous_receipt(receipt, destination())
    assert exc.value.code is ReviewCode.PREVIOUS_RECEIPT_INVALID
