"""What the review pane asks the reviewer before a step, through its `Prompter`.

Each function asks its questions in order and returns what was answered, or None when
the reviewer said no or cancelled (nothing is then done). The words of the questions are
the controller's and `present.review`'s; the steps themselves are taken by the pane.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QWidget

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.previous import PreviousGeneration, RepeatCounts
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.present.review.controller import ReviewController
from zcf_inspector.present.review.previous_texts import repeat_prompt, untrusted_prompt


def ask_request(
    prompter: Prompter,
    parent: QWidget,
    controller: ReviewController,
    ref: str,
    state: ReviewState,
    *,
    typed: str,
) -> DecisionRequest | None:
    """The decision on ``ref``: a rejection asks why, a supersession for what replaces it;
    ``typed`` is the note field's text."""
    if state is ReviewState.REJECTED:
        note = prompter.ask_note(
            parent, "Reject belief", f"Why is {ref} rejected? (required)", typed, required=True
        )
        return None if note is None else DecisionRequest(ref, state, note)
    if state is ReviewState.SUPERSEDED:
        candidates = controller.replacements(ref)
        if not candidates:
            prompter.inform(parent, "Supersede", "No other belief in this packet can replace it.")
            return None
        answer = prompter.ask_replacement(parent, ref, candidates, typed)
        return None if answer is None else DecisionRequest(ref, state, answer[1], answer[0])
    return DecisionRequest(ref, state, typed or None)


def confirm_bulk(
    prompter: Prompter,
    parent: QWidget,
    state: ReviewState,
    asked: int,
    refs: Sequence[str],
    *,
    typed: str,
) -> tuple[bool, str | None]:
    """Whether to mark ``refs`` (of ``asked`` rows) ``state``, and the note a rejection
    needs (None for the other states)."""
    note: str | None = None
    if state is ReviewState.REJECTED:
        note = prompter.ask_note(
            parent,
            "Reject beliefs",
            f"Why are these {len(refs):,} beliefs rejected? (required)",
            typed,
            required=True,
        )
        if note is None:
            return False, None
    question = ReviewController.bulk_question(state, asked, refs)
    return prompter.confirm(parent, f"Bulk decision: {state}", question), note


def ask_carry_over(
    prompter: Prompter,
    parent: QWidget,
    previous: PreviousGeneration,
    counts: RepeatCounts,
    *,
    reviewer: str,
    typed: str,
) -> tuple[str, bool] | None:
    """The note for repeating the earlier decisions, and whether the reviewer accepted a
    receipt no trusted key signed (asked twice: anyone could have written it)."""
    accepted = not previous.trusted
    if accepted and not prompter.confirm(
        parent, "Repeat decisions nobody can vouch for?", untrusted_prompt(previous, counts)
    ):
        return None
    note = prompter.ask_note(
        parent,
        "Repeat earlier decisions",
        repeat_prompt(previous, counts, reviewer),
        typed,
        required=True,
    )
    return None if note is None else (note, accepted)
