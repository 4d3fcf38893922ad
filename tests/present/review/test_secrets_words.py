"""Suspected credentials beyond the row and the detail, in the presentation layer (no Qt):
the Supersede dialog's choices, the carry-over's second question and which beliefs it is
about, a decision's note, and the dropped beliefs' window — each masked, never the value."""

from __future__ import annotations

from pathlib import Path

from tests.core.generations import earlier_receipt, gen1_beliefs, gen2_beliefs, packet, target_of
from tests.core.helpers import destination, to_bytes
from tests.present.review_packets import AWS_KEY, evidence_packet
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.admission import DroppedBelief
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import load_previous
from zcf_inspector.present.review.controller import ReviewController
from zcf_inspector.present.review.dropped import dropped_cell, dropped_detail
from zcf_inspector.present.review.rows import note_text
from zcf_inspector.present.review.secrets import (
    confirm_flagged_question,
    flagged_repeats,
    repeat_flagged_question,
    scan_review,
)
from zcf_inspector.present.review.table import Filters, TableFacts, shown_rows

MASKED = "AKIA…(20 characters, hidden)"


def test_the_supersede_choices_mask_a_flagged_belief_and_leave_the_others() -> None:
    target = target_of(evidence_packet())
    controller = ReviewController()
    controller.show("/p.json", destination())
    controller.target = target
    secrets = scan_review(target.packet, target.beliefs)
    choices = dict(controller.replacements("b-spec", secrets))
    assert choices["b-key"] == (
        f"[suspected credential, masked] Deploy with aws_access_key_id = {MASKED} from the vault."
    )
    assert choices["b-reader"] == "The reader patch keeps duplicate keys out."
    # Without the scan (before it came back), as admitted: the pane always passes it.
    assert AWS_KEY in dict(controller.replacements("b-spec"))["b-key"]


def test_the_carry_overs_question_counts_the_flagged_confirms_among_the_repeated() -> None:
    assert repeat_flagged_question(1, 3) == (
        "Confirm suspected credentials?",
        "1 of the 3 earlier decisions to repeat confirms a belief that may contain a "
        "credential — confirm it too?\n\nA destination agent acts on a confirmed belief. No "
        "repeats the other 2 and leaves that belief as it is. The detail shows each value "
        "masked until you reveal it.",
    )
    title, text = repeat_flagged_question(2, 2)
    assert title == confirm_flagged_question(2, 2)[0]  # the same question
    assert text.startswith(
        "2 of the 2 earlier decisions to repeat confirm beliefs that may contain a "
        "credential — confirm them too?"
    )
    assert "No repeats none of them." in text


def test_flagged_repeats_are_the_flagged_pending_confirms(tmp_path: Path) -> None:
    secret = f"deploy key aws_access_key_id = {AWS_KEY}"

    def keyed(beliefs: list[dict[str, object]]) -> list[dict[str, object]]:
        flagged = {"b-keep", "b-reject"}  # confirmed, and rejected last, earlier
        return [dict(b, content=secret) if b["portableRef"] in flagged else b for b in beliefs]

    gen1 = packet("stream-gen1", keyed(gen1_beliefs()), created="2026-09-29T10:00:00Z")
    gen2 = packet("stream-gen2", keyed(gen2_beliefs()), created="2026-09-30T18:00:00Z")
    (tmp_path / "gen1.json").write_bytes(to_bytes(gen1))
    (tmp_path / "r.json").write_bytes(receipt_bytes(earlier_receipt(gen1)))
    current = target_of(gen2)
    previous = load_previous(
        str(tmp_path / "gen1.json"), str(tmp_path / "r.json"), destination(), current
    )
    flagged = scan_review(current.packet, current.beliefs).flagged
    assert flagged == {"b-keep", "b-reject"}
    # b-reject is repeated as a rejection: no question for it.
    assert flagged_repeats(previous, {}, flagged) == ("b-keep",)
    assert flagged_repeats(previous, {}, frozenset()) == ()
    mine = Decision("b-keep", ReviewState.REJECTED, "carol", "2026-10-01T00:00:00Z")
    assert flagged_repeats(previous, {"b-keep": mine}, flagged) == ()  # decided here
    back = Decision("b-keep", ReviewState.UNREVIEWED, "carol", "2026-10-01T00:00:00Z")
    assert flagged_repeats(previous, {"b-keep": back}, flagged) == ("b-keep",)


def test_a_note_is_masked_as_it_is_shown() -> None:
    assert note_text(f"checked; aws_access_key_id = {AWS_KEY}") == (
        f"checked; aws_access_key_id = {MASKED}"
    )
    assert note_text("read the diff\nall good") == "read the diff\\nall good"
    long = "x " * 5000 + AWS_KEY  # past what is scanned and shown: cut, never shown
    assert AWS_KEY not in note_text(long)


def test_a_dropped_belief_is_masked_in_its_cell_and_in_full() -> None:
    belief = DroppedBelief(9, "b-late", "mem-1", "confirmed", f"key {AWS_KEY}\u202e")
    assert dropped_cell(belief) == f"[suspected credential, masked] key {MASKED}\\u202e"
    detail = dropped_detail(belief)
    assert AWS_KEY not in detail
    assert detail == (
        "content.beliefs[9]  portableRef b-late  source mem-1  arrived confirmed\n"
        "Suspected credential: may hold an AWS access key id; shown masked (not admitted, "
        f"not revealable here).\n\nkey {MASKED}\\u202e"
    )
    plain = DroppedBelief(10, "b-7", "mem-1", "unreviewed", "Belief number 7.")
    assert dropped_cell(plain) == "Belief number 7."
    assert dropped_detail(plain).endswith("arrived unreviewed\n\nBelief number 7.")


def test_the_text_filter_reads_flagged_content_masked() -> None:
    target = target_of(evidence_packet())
    secrets = scan_review(target.packet, target.beliefs)
    facts = TableFacts(target.beliefs, {}, {}, None, secrets.flagged, secrets.by_ref)
    row = [b.portable_ref for b in target.beliefs].index("b-key")
    assert shown_rows(facts, Filters(text=AWS_KEY[6:])) == ()
    assert shown_rows(facts, Filters(text="from the VAULT")) == (row,)
    unscanned = TableFacts(target.beliefs, {}, {})  # no scan: as admitted
    assert shown_rows(unscanned, Filters(text=AWS_KEY[6:])) == (row,)
