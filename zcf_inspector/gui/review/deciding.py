"""Deciding from the table: the highlighted belief (C, R, S, U) or many at once (bulk).

One highlighted belief is decided and the table moves on; several highlighted rows are
decided together, as one bulk step asked for first. A bulk step first counts which of its
rows it would change — on the runner for a large table (200,000 rows take longer than a
frame) — then asks, then takes one step (`steps.StepRunner`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.gui.review.context import PaneContext
from zcf_inspector.gui.review.cursor import TableCursor
from zcf_inspector.gui.review.questions import ask_request, confirm_bulk
from zcf_inspector.gui.review.row_filter import SYNC_ROWS
from zcf_inspector.gui.review.secret_question import confirm_flagged, confirm_hostile
from zcf_inspector.gui.review.steps import StepRunner
from zcf_inspector.present.review.table import not_yet


class Decider:
    """The pane's decisions; ``reviewer`` is who decides (asked for when not set: None
    then means nothing is decided)."""

    def __init__(
        self,
        context: PaneContext,
        cursor: TableCursor,
        steps: StepRunner,
        *,
        reviewer: Callable[[], str | None],
    ) -> None:
        self.context = context
        self.controller = context.controller
        self.prompter = context.prompter
        self.note_field = context.ui.note_field
        self.cursor = cursor
        self.steps = steps
        self._reviewer = reviewer

    def decide_current(self, state: ReviewState) -> None:
        """C, R, S, U: decide the highlighted belief and move on; several highlighted rows
        are decided together, as one bulk step (asked for first)."""
        c = self.controller
        if c.review is None or c.step_task is not None or c.opening:
            return
        rows = self.cursor.selected_rows(limit=2)
        if len(rows) > 1:
            if state is ReviewState.SUPERSEDED:
                self.prompter.inform(
                    self.context.parent,
                    "Supersede",
                    "Supersede one belief at a time: select only that one.",
                )
                return
            self.bulk_decide(state)
            return
        ref = self.cursor.ref_at(rows[0]) if rows else None
        if ref is None:
            return  # nothing highlighted: nothing is decided
        reviewer = self._reviewer()
        if reviewer is None:
            return
        typed = self.note_field.text()
        secrets = self.context.ui.model.secrets  # the Supersede dialog's choices, masked
        request = ask_request(
            self.prompter, self.context.parent, c, ref, state, typed=typed, secrets=secrets
        )
        if request is None:
            return
        if c.unchanged(request) or self.steps.record([request], reviewer):
            # Re-deciding a belief's current state with no note adds nothing to the receipt.
            self.note_field.clear()
            self.cursor.advance_from(ref)

    def bulk_decide(self, state: ReviewState) -> None:
        """One step over the selected rows (when several are) or every shown row. Which of
        them the step would change is counted first — on the runner for a large table
        (200,000 rows take longer than a frame) — then the reviewer is asked."""
        review = self.controller.review
        if review is None or self.controller.step_task is not None:
            return
        rows = self.cursor.bulk_rows()
        facts = self.cursor.table_facts()
        if len(rows) <= SYNC_ROWS:
            self._ask_bulk(review, state, len(rows), not_yet(facts, rows, state))
            return

        def work(monitor: Monitor) -> tuple[str, ...]:
            refs = not_yet(facts, rows, state, monitor)
            monitor.breathe()  # cancelled meanwhile (Esc, the window's Cancel): no question
            return refs

        def counted(refs: tuple[str, ...]) -> None:
            self._ask_bulk(review, state, len(rows), refs)

        self.steps.count(f"counting the {len(rows):,} beliefs to mark {state}", work, counted)

    def _ask_bulk(
        self, review: JournaledReview, state: ReviewState, asked: int, refs: Sequence[str]
    ) -> None:
        """Ask for the step that marks ``refs`` (of ``asked`` rows) ``state``, then take it."""
        if not refs:
            self.prompter.inform(
                self.context.parent, "Nothing to change", f"All {asked:,} are already {state}."
            )
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        typed = self.note_field.text()
        confirmed, note = confirm_bulk(
            self.prompter, self.context.parent, state, asked, refs, typed=typed
        )
        if not confirmed:
            return
        # issue 20: beliefs that may hold a credential are confirmed only if asked apart.
        flagged = self.context.ui.model.flagged
        refs = confirm_flagged(self.prompter, self.context.parent, state, refs, flagged)
        if not refs:
            return
        refs = confirm_hostile(self.prompter, self.context.parent, state, refs, _content(review))
        if not refs:
            return
        if review is not self.controller.review:
            return  # another packet came while the question was open
        written = note or self.note_field.text() or None

        def requests(monitor: Monitor) -> list[DecisionRequest]:
            return [DecisionRequest(ref, state, written) for ref in refs]

        label = f"marking {len(refs):,} beliefs {state}"
        self.steps.record_many(requests, len(refs), reviewer, label, None)


def _content(review: JournaledReview) -> Callable[[str], str | None]:
    """A belief's admitted content by its portableRef (None: not under review)."""
    target = review.session.target

    def content(ref: str) -> str | None:
        belief = target.belief(ref)
        return None if belief is None else belief.content

    return content
