"""Taking the review's steps: small ones at once, large ones on the window's runner.

A step of up to `SYNC_DECISIONS` decisions is made on the UI thread (a few milliseconds);
a larger one — a bulk decision, the carry-over, undoing or redoing either — runs on the
window's runner as a durable task: progress in the status bar, Esc or Cancel stops it
until it is in the journal, and once it is, its answer always comes back and is shown.
While one runs no other step starts (the controller's ``step_task``), nor does an open;
an open asked for meanwhile starts once the step has reported.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import partial
from typing import Any, TypeVar

from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.review.decisions import DecisionRequest, Prepared, ReviewError, Step
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.gui.review.context import PaneContext
from zcf_inspector.gui.review.row_filter import ROW_BY_ROW

T = TypeVar("T")


def last_line(details: str) -> str:
    """A failure's last line (its exception), for a message."""
    return details.strip().splitlines()[-1] if details.strip() else "unknown error"


class StepRunner:
    """The pane's steps. ``refresh`` redraws its actions and counts (of the beliefs given,
    or all); ``reported`` follows whenever a task on the runner reports."""

    def __init__(
        self,
        context: PaneContext,
        *,
        refresh: Callable[[Collection[str] | None], None],
        reported: Callable[[], None],
    ) -> None:
        self.context = context
        self.controller = context.controller
        self.runner = context.runner
        self.prompter = context.prompter
        self._refresh = refresh
        self._reported = reported

    def _say(self, text: str) -> None:
        self.context.ui.status.setText(text)

    def _shown(self, step: Step) -> None:
        """Show what ``step`` changed: its rows, the filters that read decisions, counts."""
        refs: Collection[str] | None = None  # a large step: every row may have changed
        if len(step.decisions) <= ROW_BY_ROW:
            refs = {d.portable_ref for d in step.decisions}
        self._refresh(refs)
        self.context.rows.decisions_changed(refs)

    def record(self, requests: list[DecisionRequest], reviewer: str) -> bool:
        """A small step, on the UI thread (a single decision takes a few milliseconds)."""
        try:
            step = self.controller.record(requests, reviewer)
        except ReviewError as exc:
            self.prompter.warn(self.context.parent, "Decision not recorded", str(exc))
            return False
        self._shown(step)
        return True

    def record_many(
        self,
        requests: Callable[[Monitor], Sequence[DecisionRequest]],
        count: int,
        reviewer: str,
        label: str,
        done: Callable[[Step], None] | None,
    ) -> None:
        """A step of ``count`` decisions: on the UI thread when small, else on the runner
        (`start`). ``requests`` makes them (on the runner for a large step: making
        200,000 requests takes a while too); ``done`` follows once the step is shown."""
        review, destination = self.controller.review, self.controller.destination
        assert review is not None
        assert destination is not None
        at = destination.now_text()

        def finished(step: Step) -> None:
            self.context.ui.note_field.clear()  # it went into the step
            if done is not None:
                done(step)

        if not self.controller.on_runner(count):
            try:
                made = list(requests(Monitor()))
            except ReviewError as exc:
                self.prompter.warn(self.context.parent, "Decision not recorded", str(exc))
                return
            if self.record(made, reviewer):
                finished(review.session.applied[-1])
            return

        def work(monitor: Monitor) -> Prepared:
            return review.write_decision(list(requests(monitor)), reviewer, at, monitor)

        self.start(label, work, finished)

    def start(
        self, label: str, work: Callable[[Monitor], Prepared], done: Callable[[Step], None] | None
    ) -> None:
        """Run a step on the runner as a durable task: Esc/Cancel stops it until it is in
        the journal; once it is, its answer always comes and is installed at once."""
        review = self.controller.review
        assert review is not None

        def guarded(monitor: Monitor) -> Prepared | ReviewError:
            try:
                return work(monitor)
            except ReviewError as exc:
                return exc  # a refusal (a rule, the journal): said, not a failure

        self._hold(label, guarded, partial(self._step_done, review, done), review)

    def count(self, label: str, work: Callable[[Monitor], T], then: Callable[[T], None]) -> None:
        """Count on the runner what a step would change, held like a step (durable: its end
        always comes back to clear it) so that no step changes the decisions meanwhile;
        ``then`` gets the count unless another packet, or the same one again, is coming."""
        review = self.controller.review
        assert review is not None
        self._hold(label, work, partial(self._counted, review, then), review)

    def _hold(
        self,
        label: str,
        work: Callable[[Monitor], object],
        finished: Callable[[object], None],
        review: JournaledReview,
    ) -> None:
        self.controller.step_task = self.runner.start(
            label,
            work,
            finished,
            partial(self._step_failed, review),
            durable=True,
            on_cancelled=partial(self._step_cancelled, review),
        )
        self._say(f"{label[:1].upper()}{label[1:]}… (Esc cancels)")
        self._refresh(None)

    def _counted(self, review: JournaledReview, then: Callable[[Any], None], result: Any) -> None:
        if not self._step_reported(review) or self.controller.opening:
            return  # another packet, or the same one again, is coming: no question
        self._say("")
        self._refresh(None)
        then(result)

    def _step_done(
        self, review: JournaledReview, done: Callable[[Step], None] | None, result: object
    ) -> None:
        if not self._step_reported(review):
            return  # another packet came meanwhile; the journal has the step
        if isinstance(result, ReviewError):
            self._say("")
            self.prompter.warn(self.context.parent, "Decision not recorded", str(result))
            self._refresh(None)
            return
        assert isinstance(result, Prepared)
        try:
            step = review.install(result)
        except ReviewError as exc:
            self.prompter.warn(self.context.parent, "Decision not shown", str(exc))
            self._refresh(None)
            return
        self._say("")
        self._shown(step)
        if done is not None:
            done(step)

    def _step_failed(self, review: JournaledReview, details: str) -> None:
        if not self._step_reported(review):
            return
        self.prompter.warn(
            self.context.parent, "Step failed", f"The step was not completed: {last_line(details)}"
        )
        self._refresh(None)

    def _step_cancelled(self, review: JournaledReview) -> None:
        if not self._step_reported(review):
            return
        self._say("Cancelled before it was journalled: nothing was changed.")
        self._refresh(None)

    def cancel(self) -> None:
        """Esc: stop the step in progress (it stops unless it is in the journal already)."""
        if self.controller.step_task is not None:
            self.runner.cancel(self.controller.step_task)
            self._say("Cancelling…")

    def _step_reported(self, review: JournaledReview) -> bool:
        """A step (or a count) on the runner reported: no step runs now, so an open
        waiting for it may read the journal. Whether ``review`` is still the one shown."""
        self.controller.step_task = None
        self._reported()
        return review is self.controller.review and self.context.pane.alive

    def history(self, *, redo: bool, done: Callable[[Step], None]) -> None:
        """Undo (or redo) the last step: on the runner when it is large."""
        review = self.controller.review
        if review is None or self.controller.step_task is not None:
            return
        try:
            candidate = self.controller.history_candidate(redo=redo)
        except ReviewError as exc:
            self._say(exc.findings[0].message)
            return
        if self.controller.on_runner(len(candidate.decisions)):
            count = len(candidate.decisions)
            label = f"{'redoing' if redo else 'undoing'} a step of {count:,} decisions"
            work = review.write_redo if redo else review.write_undo
            self.start(label, work, done)
            return
        try:
            step = review.redo() if redo else review.undo()
        except ReviewError as exc:
            self.prompter.warn(self.context.parent, "Undo/redo not recorded", str(exc))
            return
        self._shown(step)
        done(step)
