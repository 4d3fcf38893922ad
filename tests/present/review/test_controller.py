"""The review controller on its own (no Qt): what may be done when, each step, its words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import verify_receipt
from zcf_inspector.core.reading import read_json
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError, refuse
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.present.review.controller import (
    NO_DESTINATION,
    SYNC_DECISIONS,
    Enabled,
    ReviewController,
)
from zcf_inspector.present.review.export import Exported

PATH = "/packets/full-handoff.json"


def reviewing(
    tmp_path: Path, golden: str = "full-handoff", dest: Destination | None = None
) -> ReviewController:
    """A controller showing ``golden``'s review, journalled under ``tmp_path``."""
    chosen = dest if dest is not None else destination()
    target = ReviewTarget.from_ingest(ingest_bytes(golden_bytes(golden), chosen))
    review = JournaledReview.open(tmp_path / "journals", target, keys=tmp_path / "keys")
    controller = ReviewController()
    controller.show(PATH, chosen)
    controller.target = target
    assert controller.journal_opened(review) is None
    return controller


def test_nothing_is_enabled_without_a_review() -> None:
    controller = ReviewController()
    assert controller.enabled() == Enabled(
        decide=False,
        set_aside=True,
        cancel=False,
        undo=False,
        redo=False,
        comparing=False,
        stop_previous=False,
        repeat=False,
    )
    assert controller.export_plan() is None
    assert controller.summary_line() == ""
    assert controller.stale_text() is None
    assert controller.close_question() is None
    assert controller.signer_label() == ("", "")
    assert "No destination is in force" in NO_DESTINATION


def test_a_step_is_undone_and_redone_and_the_buttons_follow(tmp_path: Path) -> None:
    controller = reviewing(tmp_path)
    enabled = controller.enabled()
    assert (enabled.decide, enabled.undo, enabled.redo) == (True, False, False)
    assert not enabled.cancel
    with pytest.raises(ReviewError):
        controller.history_candidate(redo=False)  # nothing to undo yet
    step = controller.record([DecisionRequest("b-reader", ReviewState.CONFIRMED)], "carol")
    assert [d.portable_ref for d in step.decisions] == ["b-reader"]
    assert controller.enabled().undo
    assert controller.history_candidate(redo=False) is step
    assert controller.review is not None
    controller.review.undo()
    assert (controller.enabled().undo, controller.enabled().redo) == (False, True)
    assert controller.history_candidate(redo=True) is step


def test_no_step_starts_while_one_runs_or_an_open_is_under_way(tmp_path: Path) -> None:
    controller = reviewing(tmp_path)
    controller.step_task = 7  # a large step on the runner
    enabled = controller.enabled()
    assert (enabled.decide, enabled.set_aside, enabled.cancel) == (False, False, True)
    assert not controller.idle
    controller.step_task = None
    controller.opening = True
    enabled = controller.enabled()
    assert (enabled.decide, enabled.cancel, controller.idle) == (False, True, False)
    controller.opening = False
    assert controller.enabled().decide


def test_a_decision_that_changes_nothing_is_told_apart(tmp_path: Path) -> None:
    controller = reviewing(tmp_path)
    assert controller.unchanged(DecisionRequest("b-order", ReviewState.UNREVIEWED))
    assert not controller.unchanged(DecisionRequest("b-order", ReviewState.CONFIRMED))
    controller.record([DecisionRequest("b-order", ReviewState.CONFIRMED)], "carol")
    assert controller.unchanged(DecisionRequest("b-order", ReviewState.CONFIRMED))
    # A note is something to record, even on the same state.
    assert not controller.unchanged(DecisionRequest("b-order", ReviewState.CONFIRMED, "again"))
    assert not controller.unchanged(DecisionRequest("b-order", ReviewState.UNREVIEWED))


def test_large_steps_go_to_the_runner_and_bulk_questions_count() -> None:
    assert not ReviewController.on_runner(SYNC_DECISIONS)
    assert ReviewController.on_runner(SYNC_DECISIONS + 1)
    question = ReviewController.bulk_question(ReviewState.CONFIRMED, 3, ["a", "b"])
    assert question == "Mark 2 beliefs as confirmed?\n1 already confirmed is left as it is."
    question = ReviewController.bulk_question(ReviewState.REJECTED, 1, ["a"])
    assert question == "Mark 1 belief as rejected?"


def test_supersede_offers_every_other_belief(tmp_path: Path) -> None:
    controller = reviewing(tmp_path)
    assert [ref for ref, _ in controller.replacements("b-order")] == ["b-reader", "b-bench"]


def test_export_writes_a_signed_receipt_then_a_later_decision_makes_it_stale(
    tmp_path: Path,
) -> None:
    controller = reviewing(tmp_path)
    controller.record([DecisionRequest("b-reader", ReviewState.CONFIRMED)], "carol")
    plan = controller.export_plan()
    assert plan is not None
    assert plan.unreviewed_question == (
        "2 of 3 beliefs are still unreviewed; they stay unreviewed in the receipt. Export anyway?"
    )
    assert "The receipt will be signed by destination" in plan.summary_text
    path = str(tmp_path / "out.receipt.json")
    written = plan.write(path, overwrite=False)
    assert isinstance(written, Exported)
    assert written.not_journalled is None
    assert written.text.startswith(f"Receipt written to {path}\nsigned by destination ")
    receipt = read_json(Path(path).read_bytes())
    dest = controller.destination
    assert dest is not None
    report = verify_receipt(receipt, dest.signing_public_key)
    assert report.valid
    assert isinstance(receipt, dict)
    assert receipt["receiptDigest"] == written.digest
    assert controller.review is not None
    exported = controller.review.last_export
    assert exported is not None
    assert exported.receipt_digest == written.digest
    assert controller.summary_line() == (
        "3 admitted beliefs: 2 unreviewed, 1 confirmed, 0 rejected, 0 superseded. "
        f"1 decision recorded. — receipt exported at {exported.completed_at}"
    )
    assert controller.stale_text() is None
    assert controller.close_question() is None
    controller.record([DecisionRequest("b-order", ReviewState.CONFIRMED)], "carol")
    stale = controller.stale_text()
    assert stale is not None
    assert "is out of date — export again (Ctrl+E)." in stale
    question = controller.close_question()
    assert question is not None
    # The question says the receipt is out of date, by how many decisions, and what each
    # of its three answers does.
    assert "is out of date: 1 decision was taken after it." in question
    assert "Export… writes the receipt first. Keep for later closes" in question
    assert "Discard sets the saved review aside" in question
    assert " — receipt exported" not in controller.summary_line()


def test_an_export_that_cannot_be_written_says_why_and_writes_nothing(tmp_path: Path) -> None:
    controller = reviewing(tmp_path)
    plan = controller.export_plan()
    assert plan is not None
    taken = tmp_path / "taken.json"
    taken.write_bytes(b"{}")
    answer = plan.write(str(taken), overwrite=False)
    assert answer == (
        f"The receipt could not be written to {taken}: a file of that name appeared "
        "meanwhile.\nNothing was written; the review is kept and can be exported again."
    )
    assert taken.read_bytes() == b"{}"
    assert controller.review is not None
    assert controller.review.last_export is None


def test_an_unsigned_destination_says_so_and_the_label_shortens_a_fingerprint(
    tmp_path: Path,
) -> None:
    signed = reviewing(tmp_path / "signed")
    text, tooltip = signed.signer_label()
    signer = signed.signer
    assert signer is not None
    assert signer.fingerprint is not None
    assert signer.fingerprint in tooltip
    assert signer.fingerprint not in text
    assert text.startswith("Receipts are signed by destination ")
    unsigned = reviewing(tmp_path / "unsigned", dest=destination(signingKey=None))
    text, tooltip = unsigned.signer_label()
    assert text.startswith("Receipts are UNSIGNED")
    plan = unsigned.export_plan()
    assert plan is not None
    assert "The receipt will be UNSIGNED" in plan.summary_text


def test_a_refused_journal_is_offered_to_be_set_aside_unless_it_is_sound() -> None:
    controller = ReviewController()
    busy = controller.journal_opened(refuse(ReviewCode.JOURNAL_CONFLICT, "in use elsewhere"))
    assert busy is not None
    assert not busy.set_aside
    assert busy.title == "Saved review not opened"
    broken = controller.journal_opened(refuse(ReviewCode.JOURNAL_CORRUPT, "bad row"))
    assert broken is not None
    assert broken.set_aside
    assert broken.title == "Saved review refused"
    assert controller.review is None
    assert controller.restored_text() == ""


def test_restored_decisions_are_counted(tmp_path: Path) -> None:
    first = reviewing(tmp_path)
    first.record([DecisionRequest("b-reader", ReviewState.CONFIRMED)], "carol")
    again = reviewing(tmp_path)
    assert again.restored_text() == "Restored 1 decision from the review journal."


def test_admission_words_and_the_dropped_beliefs(tmp_path: Path) -> None:
    whole = reviewing(tmp_path / "whole")
    assert whole.admission_text() is None
    assert whole.dropped_count == 0
    assert whole.dropped_text() is None
    cut = reviewing(tmp_path / "cut", dest=destination(maxBeliefs=1))
    assert cut.admission_text() == "1 of 3 beliefs admitted — 2 dropped by maxBeliefs 1"
    assert cut.dropped_count == 2
    text = cut.dropped_text()
    assert text is not None
    assert text.startswith("1 of 3 beliefs admitted — 2 dropped by maxBeliefs 1. These beliefs")


def test_self_review_is_said_only_for_the_packets_own_key(tmp_path: Path) -> None:
    controller = reviewing(tmp_path, "recipient-bound-mac")
    source = controller.source_fingerprint()
    assert source is not None
    assert controller.self_review_text(None) == ""
    assert controller.self_review_text("sha256:" + "0" * 64) == ""
    warning = controller.self_review_text(source)
    assert warning.startswith(f"Self-review: your reviewer key {source} is the key")


def test_previous_tickets_make_older_comparisons_stale() -> None:
    controller = ReviewController()
    first = controller.new_previous_ticket()
    second = controller.new_previous_ticket()
    assert second == first + 1
    assert not controller.forget_previous()  # nothing was compared: nothing to say
    assert controller.previous_ticket == second + 1
    assert controller.repeat_counts() is None
    assert controller.previous_banner() == ""
    assert controller.repeat_button_text() == ""


def test_the_controller_loads_no_qt() -> None:
    # Run apart: this test process has Qt loaded by the GUI tests beside it.
    script = (
        "import sys\n"
        "import zcf_inspector.present.review.controller\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "[]"
