"""Comparing with the previous generation and repeating its decisions, for the review pane.

The previous packet and its receipt are read, verified and compared on the runner (large
files by the exact reader); a newer comparison, or another packet, makes an older one's
answer stale. The table then shows what changed since that receipt. Nothing is repeated
until asked for (`Comparing.repeat_earlier`): with the count and a note, asked twice for
a receipt no trusted key signed, then one undoable step as this reviewer, now.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.reading import fast_path_limit
from zcf_inspector.core.review.decisions import Step
from zcf_inspector.core.review.previous import PreviousGeneration, load_previous
from zcf_inspector.gui.documents import FAST_READ_MAX_BYTES
from zcf_inspector.gui.plain_text import visible
from zcf_inspector.gui.review.context import PaneContext
from zcf_inspector.gui.review.opening import ReviewView
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.review.questions import ask_carry_over
from zcf_inspector.gui.review.steps import StepRunner
from zcf_inspector.present.review.previous_texts import nothing_to_repeat, refusal_text


class Comparing:
    """The pane's comparison. ``offered`` lists the open packets and receipts, ``reviewer``
    is who repeats (None: nobody, nothing is done), ``apply_filters`` and ``refresh``
    redraw the table and the pane."""

    def __init__(
        self,
        context: PaneContext,
        steps: StepRunner,
        *,
        reviewer: Callable[[], str | None],
        apply_filters: Callable[[], None],
        refresh: Callable[[], None],
    ) -> None:
        self.context = context
        self.controller = context.controller
        self.prompter = context.prompter
        self.runner = context.runner
        self.ui = context.ui
        self.steps = steps
        self._reviewer = reviewer
        self._apply_filters = apply_filters
        self._refresh = refresh

    def ask(
        self, offered: Callable[[], tuple[list[OpenFile], list[OpenFile]]]
    ) -> tuple[str, str] | None:
        """The previous generation's packet and receipt, chosen by the reviewer among
        those ``offered`` (the packets and receipts open in the window)."""
        if self.controller.review is None:
            self.prompter.inform(
                self.context.parent,
                "Compare with previous generation",
                "There is no review to compare.",
            )
            return None
        packets, receipts = offered()
        packets = [p for p in packets if p.path != self.controller.packet_path]
        return self.prompter.ask_previous(self.context.parent, packets, receipts)

    def load(self, packet_path: str, receipt_path: str) -> int | None:
        """Read, verify and compare on the runner; returns its task id."""
        target, destination = self.controller.target, self.controller.destination
        if target is None or destination is None:
            return None
        ticket = self.controller.new_previous_ticket()
        paths = (packet_path, receipt_path)

        def work(monitor: Monitor) -> PreviousGeneration | ZcfError:
            try:
                # Large files by the exact reader, which lets the UI thread in (as a load).
                with fast_path_limit(FAST_READ_MAX_BYTES):
                    return load_previous(packet_path, receipt_path, destination, target, monitor)
            except ZcfError as exc:
                if isinstance(exc, Cancelled):
                    raise
                return exc  # a refusal or an unreadable file: shown, not a failure

        def done(result: object) -> None:
            if ticket != self.controller.previous_ticket or not self.context.pane.alive:
                return  # another comparison, or another packet, came since (or it closed)
            if isinstance(result, ZcfError):
                self.ui.status.setText("")
                self.prompter.warn(
                    self.context.parent,
                    "Previous generation not used",
                    f"{paths[0]}\nwith the receipt {paths[1]}\ncannot be compared with: "
                    + refusal_text(result)
                    + "\n\nNothing was repeated; the review is as it was.",
                )
                return
            assert isinstance(result, PreviousGeneration)
            if self.controller.accepts_previous(ticket, result):
                self.show(result, paths)

        self.ui.status.setText(f"Comparing with {visible(Path(packet_path).name)}…")
        return self.runner.start(f"comparing with {Path(packet_path).name}", work, done)

    def show(self, previous: PreviousGeneration, paths: tuple[str, str]) -> None:
        """Show the comparison, and filter to what changed since that receipt."""
        self.install(previous, paths, 0)  # changed since that receipt
        self._apply_filters()
        self._refresh()
        self.ui.status.setText(
            f"Showing what changed since the receipt of {visible(previous.packet_id)}: "
            f"{previous.summary()}."
        )

    def install(
        self, previous: PreviousGeneration, paths: tuple[str, str], since_index: int
    ) -> None:
        self.controller.install_previous(previous, paths)
        self.ui.model.set_changes(previous.classification.changes)
        self.ui.since_filter.show()
        self.ui.since_filter.setCurrentIndex(since_index)

    def made_again(
        self, previous: PreviousGeneration | ZcfError | None, view: ReviewView | None
    ) -> str | None:
        """The comparison an open made again for ``view`` (the same packet again): shown
        when it is of this packet still; why not, for the window, when it was refused."""
        target = self.controller.target
        if isinstance(previous, PreviousGeneration) and view is not None:
            if target is not None and previous.current_correlation_id == target.correlation_id:
                assert view.previous_paths is not None
                self.install(previous, view.previous_paths, view.since_index)
                self._refresh()  # its banner and the carry-over's counts
        elif isinstance(previous, ZcfError):
            return (
                "The comparison with the previous generation could not be made again: "
                + refusal_text(previous)
            )
        return None

    def forget(self) -> bool:
        """No comparison any more; whether one was shown."""
        had = self.controller.forget_previous()
        self.ui.model.set_changes(None)
        self.ui.since_filter.hide()  # no "since" filter without a comparison
        return had

    def repeat_earlier(self) -> None:
        """Repeat the earlier decisions on unchanged beliefs: asked for with the count and a
        note, then one step as this reviewer, now (Ctrl+Z undoes it whole)."""
        c = self.controller
        previous = c.previous
        if previous is None or c.review is None or c.step_task is not None:
            return
        counts = c.repeat_counts()
        assert counts is not None
        if not counts.pending:
            self.prompter.inform(
                self.context.parent, "Nothing to repeat", nothing_to_repeat(previous, counts)
            )
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        typed = self.ui.note_field.text()
        answer = ask_carry_over(
            self.prompter, self.context.parent, previous, counts, reviewer=reviewer, typed=typed
        )
        if answer is None:
            return
        requests = c.carry_over(answer[0], accept_untrusted=answer[1])

        def said(step: Step) -> None:
            self.ui.status.setText(c.repeated_text(step, reviewer))

        label = "repeating earlier decisions"
        self.steps.record_many(requests, counts.pending, reviewer, label, said)
