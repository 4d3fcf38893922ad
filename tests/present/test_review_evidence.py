"""The review's evidence, rows, secrets and old-beside-new text, computed in the
presentation layer (issue 20: present/review_evidence.py, review_rows.py,
review_secrets.py, text_changes.py) — pure Python, no Qt."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.core.helpers import destination, golden_bytes, to_bytes
from tests.present.review_packets import AWS_KEY, SECRET_KEY, evidence_packet, make_workspace
from zcf_inspector.core.claims.workspace import check_workspace
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import ReviewTarget
from zcf_inspector.present.review_evidence import (
    NO_WORKSPACE,
    LineStyle,
    detail_index,
    event_note,
    evidence_lines,
    workspace_facts,
)
from zcf_inspector.present.review_rows import content_cell, evidence_cell
from zcf_inspector.present.review_secrets import (
    confirm_flagged_question,
    flagged_among,
    masked,
)
from zcf_inspector.present.review_table import Filters, TableFacts, evidence_counts, shown_rows
from zcf_inspector.present.text_changes import TOKEN_DIFF_LIMIT, text_change


@pytest.fixture
def target() -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(to_bytes(evidence_packet()), destination()))


def texts(lines: tuple[object, ...]) -> list[str]:
    return [line.text for line in lines]  # type: ignore[attr-defined]


def test_each_anchor_shows_its_source_in_full_with_its_pointer() -> None:
    value = ingest_bytes(golden_bytes("full-handoff"), destination())
    target = ReviewTarget.from_ingest(value)
    index = detail_index(target.packet, target.beliefs)
    lines = evidence_lines(index, "b-order")
    assert texts(lines) == [
        NO_WORKSPACE,
        "Anchor a-1 → source src-spec",
        "      where in the source: §2",
        "      excerpt: members sorted by key comparing Unicode code points",
        "Source src-spec — local",
        "      locator: spec/zcf-v1-profile.md",
        "      digest: sha256:1900eab6c028483d7126599ee6f50de0d27907b5c65fa90524580b4b0f9852b0",
        "Anchor a-2 → source src-rfc",
        "Source src-rfc — external",
        "      locator: https://www.rfc-editor.org/rfc/rfc8785",
        "      no digest given",
    ]
    pointers = [line.pointer for line in lines]
    assert pointers[1:4] == [
        "/content/evidenceAnchors/0",
        "/content/evidenceAnchors/0/locator",
        "/content/evidenceAnchors/0/excerpt",
    ]
    assert pointers[4] == "/content/evidenceSources/0"
    assert pointers[8] == "/content/evidenceSources/1"
    # Entries: each anchor and each source is one, its lines share the number.
    assert [line.entry for line in lines] == [0, 1, 1, 1, 2, 2, 2, 3, 4, 4, 4]
    # No evidence: said, in the detail and in the row.
    assert texts(evidence_lines(index, "b-reader")) == [
        "No evidence cited: no anchor names this belief."
    ]
    assert evidence_cell(0) == "no evidence cited"
    assert evidence_cell(1) == "1 anchor"
    assert evidence_cell(2) == "2 anchors"


def test_workspace_statuses_receipts_and_verification_under_the_belief(
    target: ReviewTarget, tmp_path: Path
) -> None:
    index = detail_index(target.packet, target.beliefs)
    check = check_workspace(dict(target.packet), make_workspace(tmp_path / "ws"))
    facts = workspace_facts(check, index)
    lines = evidence_lines(index, "b-reader", facts)
    shown = texts(lines)
    assert shown[0] == f"Claims vs workspace ({check.folder}): cites a mismatch"
    assert lines[0].style is LineStyle.CAUTION
    differs = shown.index(
        "      claims vs workspace: differs — the file in the workspace has other bytes than "
        "the packet's digest says"
    )
    assert lines[differs].style is LineStyle.CAUTION
    assert lines[differs].pointer == "/content/evidenceSources/1"
    assert shown[differs + 1].startswith("      the workspace file's digest: sha256:7aa7a5")
    # The patch source's bytes are the patch receipt's: the receipt and the verification
    # entry naming it are listed, each with its own node.
    receipt = shown.index("Receipt r-patch — patch, the bytes of source s-patch (same digest)")
    assert lines[receipt].pointer == "/content/receipts/0"
    assert shown[receipt + 1] == "      summary: the reader patch"
    verification = shown.index("Verification v-1 — pytest passed (its receipt: r-patch)")
    assert lines[verification].pointer == "/content/verification/0"
    # Escaped by the one rule: the hostile excerpt shows its invisible characters.
    assert "      excerpt: zero\\u200bwidth and \\u202eevil" in shown
    assert not any("\u202e" in text or "\u200b" in text for text in shown)
    matches = evidence_lines(index, "b-spec", facts)
    assert matches[0].text.endswith("all cited sources match")
    assert matches[0].style is LineStyle.GOOD
    external = texts(evidence_lines(index, "b-key", facts))
    assert "      claims vs workspace: not checkable — an external source" in external


def test_a_check_of_other_bytes_is_not_shown_as_this_packets(
    target: ReviewTarget, tmp_path: Path
) -> None:
    index = detail_index(target.packet, target.beliefs)
    check = check_workspace(dict(target.packet), make_workspace(tmp_path / "ws"))
    # The packet was reloaded with another digest for s-reader: its old check says nothing.
    stale = dataclasses.replace(
        check,
        sources=tuple(
            dataclasses.replace(c, claimed="sha256:" + "0" * 64) if i == 1 else c
            for i, c in enumerate(check.sources)
        ),
    )
    shown = texts(evidence_lines(index, "b-reader", workspace_facts(stale, index)))
    assert "      claims vs workspace: not checked" in shown
    assert shown[0].endswith("none of its cited sources could be checked")


def test_the_scan_flags_the_admitted_content_and_the_row_masks_it(target: ReviewTarget) -> None:
    index = detail_index(target.packet, target.beliefs)
    secrets = index.secrets
    assert secrets.flagged == frozenset({"b-key"})
    hits = secrets.by_ref["b-key"]
    belief = target.beliefs[2]
    cell = content_cell(belief, hits)
    assert cell.startswith("[suspected credential, masked]\n")
    assert AWS_KEY not in cell
    assert AWS_KEY[4:] not in masked(belief.content, hits)
    assert content_cell(target.beliefs[0]) == "The spec says keys sort by code point."
    # A note of the packet's history is masked too (the belief itself is not flagged).
    (event,) = index.events["b-spec"]
    assert SECRET_KEY not in event_note(index, event)
    assert event_note(index, event).startswith("checked with aws_secret_access_key = ")
    assert "b-spec" not in secrets.flagged
    # Without the scan (an index made for the detail alone) nothing is flagged.
    assert detail_index(target.packet).secrets.flagged == frozenset()


def test_filters_with_and_without_evidence_and_secret_suspected(target: ReviewTarget) -> None:
    index = detail_index(target.packet, target.beliefs)
    facts = TableFacts(
        target.beliefs, {}, evidence_counts(target.packet), None, index.secrets.flagged
    )
    refs = [b.portable_ref for b in target.beliefs]

    def rows(filters: Filters) -> list[str]:
        return [refs[r] for r in shown_rows(facts, filters)]

    assert rows(Filters(has_evidence=True)) == ["b-spec", "b-reader", "b-key"]
    assert rows(Filters(has_evidence=False)) == ["b-bare"]
    assert rows(Filters(secret=True)) == ["b-key"]
    assert rows(Filters(secret=False)) == ["b-spec", "b-reader", "b-bare"]


def test_the_bulk_confirms_second_question_and_which_refs_it_names() -> None:
    assert flagged_among(["a", "b", "c"], {"c", "a"}) == ("a", "c")
    assert flagged_among(["a"], frozenset()) == ()
    title, text = confirm_flagged_question(3, 10)
    assert title == "Confirm suspected credentials?"
    assert text.startswith("3 of these 10 beliefs may contain a credential — confirm them too?")
    assert "No confirms the other 7 and leaves those as they are." in text
    assert confirm_flagged_question(1, 1)[1].startswith(
        "This belief may contain a credential — confirm it too?"
    )
    assert "No confirms none of them." in confirm_flagged_question(2, 2)[1]


# --- old text beside new -----------------------------------------------------------------


def test_a_changed_word_is_marked_on_both_sides() -> None:
    change = text_change(
        "Validation of 50 MB takes about two seconds.", "Validation of 50 MB takes under a second."
    )
    assert change.earlier.text == "Validation of 50 MB takes about two seconds."
    assert change.now.text == "Validation of 50 MB takes under a second."
    assert change.earlier.spans == ((26, 17),)
    assert change.earlier.changed() == ("about two seconds",)
    assert change.now.changed() == ("under a second",)


def test_a_one_letter_edit_marks_its_word_and_an_insertion_only_the_new_side() -> None:
    change = text_change("the cat sat", "the cut sat")
    assert change.earlier.changed() == ("cat",)
    assert change.now.changed() == ("cut",)
    inserted = text_change("keys sort", "keys always sort")
    assert inserted.earlier.spans == ()
    assert inserted.now.changed() == ("always ",)
    assert text_change("same", "same").same


def test_spans_cover_escapes_and_count_utf16_units() -> None:
    change = text_change("plain text", "plain\u202e text")
    # The bidi override is shown as its escape, and the escape is what is marked.
    assert change.now.text == "plain\\u202e text"
    assert change.now.changed() == ("\\u202e",)
    assert "\u202e" not in change.now.text
    # A character beyond the BMP is two UTF-16 units: the span after it says so.
    astral = text_change("\U0001f600 ok", "\U0001f600 no")
    assert astral.now.spans == ((3, 2),)
    assert astral.now.changed() == ("no",)
    # Line breaks are kept as line breaks (a block each in the view).
    lines = text_change("one\ntwo", "one\nthree")
    assert lines.now.text == "one\nthree"
    assert lines.now.changed() == ("three",)


def test_a_large_rewrite_is_one_span_each_side_not_a_quadratic_diff() -> None:
    words = int(TOKEN_DIFF_LIMIT**0.5) + 10
    old = " ".join(f"a{i}" for i in range(words))
    new = " ".join(f"b{i}" for i in range(words))
    change = text_change("x " + old + " y", "x " + new + " y")
    assert change.earlier.spans == ((2, len(old)),)
    assert change.now.spans == ((2, len(new)),)
