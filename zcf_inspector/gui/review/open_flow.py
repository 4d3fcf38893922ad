"""The pane's side of opening a review: one open at a time, on the runner, after any step.

An open (`opening.open_review`) reads the journal a running step may be writing, so it
waits for the step to report; a newer open makes an older one's answer stale (a ticket);
and it is durable: the window's Cancel stops it but it still reports, so the pane never
waits for an answer that will not come. Its answer — or why there is none — goes to
``show`` in one go.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QTimer
from shiboken6 import isValid

from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.review.target import ReviewPreparation
from zcf_inspector.gui.calm import when_calm
from zcf_inspector.gui.review.context import PaneContext
from zcf_inspector.gui.review.opening import OpenedReview, ReviewOpen, ReviewView, open_review
from zcf_inspector.gui.review.steps import last_line

# Shows an open's answer: (path, data, inspection, destination, opened); ``opened`` None:
# no review, with ``destination`` None saying why.
Show = Callable[[str, bytes, PacketInspection, Destination | None, OpenedReview | None], None]


class ReviewOpener:
    """The open waiting for the runner (or on it), for the pane (whose answer may come
    after the pane was closed)."""

    def __init__(self, context: PaneContext, *, show: Show, problem: Callable[[str], None]) -> None:
        self.context = context
        self.controller = context.controller
        self.runner = context.runner
        self._show = show
        self._problem = problem
        self._waiting: ReviewOpen | None = None
        self._task: int | None = None
        self._ticket = 0  # a newer open makes an older one's answer stale

    @property
    def waiting_view(self) -> ReviewView | None:
        """What an open still waiting is to put back."""
        return self._waiting.view if self._waiting is not None else None

    def open(
        self,
        path: str,
        data: bytes,
        inspection: PacketInspection,
        destination: Destination | None,
        prepared: ReviewPreparation | None,
        *,
        dirs: tuple[Path, Path],
        view_now: Callable[[], ReviewView],
    ) -> bool:
        """Open the review of the packet at ``path`` on the runner, once no step runs;
        ``dirs`` are the journals' and their keys' folders, ``view_now`` what the reviewer
        looks at (put back when it is the same packet again). False: there is no
        destination, so no review to open (the pane shows why at once)."""
        c = self.controller
        if c.step_task is not None:
            # Asked to stop; if it was journalled already, the journal has it: the open
            # starts once it has reported, so it reads the journal with it.
            self.runner.cancel(c.step_task)
        self.stop()
        view = self.waiting_view
        if view is None and path == c.packet_path and c.target is not None:
            view = view_now()
        if destination is None:
            self.wait(None)
            return False
        filters = self.context.ui.filters()
        self.wait(ReviewOpen(path, data, inspection, destination, prepared, *dirs, filters, view))
        self.context.ui.status.setText("Restoring the saved review…")
        self.start()
        return True

    def stop(self) -> None:
        """A new open comes: the one on the runner (if any) is cancelled and its answer,
        whenever it reports, is stale."""
        if self._task is not None:
            self.runner.cancel(self._task)
            self._task = None
        self._ticket += 1

    def wait(self, request: ReviewOpen | None) -> None:
        """``request`` is the open to run next (None: none is)."""
        self._waiting = request
        self.controller.opening = request is not None

    def _alive(self) -> bool:
        return self.context.pane.alive and isValid(self.context.parent)

    def start(self) -> None:
        """Run the waiting open on the runner, once no step is running (a step may be
        writing the journal the open reads)."""
        if not self._alive():
            return  # closed meanwhile (a deferred start after a step)
        request = self._waiting
        if request is None or self.controller.step_task is not None or self._task is not None:
            return
        ticket = self._ticket
        self._task = self.runner.start(
            f"restoring the review of {Path(request.path).name}",
            # It waits for the UI thread to be calm: an open follows a load (`gui/calm.py`).
            partial(open_review, request, ready=when_calm(self.context.parent)),
            partial(self._opened, ticket),
            partial(self._open_failed, ticket),
            # Durable: the window's Cancel stops it but it still reports, so the pane
            # never waits for an answer that will not come.
            durable=True,
            on_cancelled=partial(self._open_cancelled, ticket),
        )

    def resume(self) -> None:
        """A step reported: an open waiting for it starts once this report is handled."""
        if self._waiting is not None:
            QTimer.singleShot(0, self.start)

    def _reported(self) -> ReviewOpen | None:
        """The open still wanted reported: it is no longer waiting nor on the runner."""
        self._task = None
        request = self._waiting
        self.wait(None)
        return request

    def _opened(self, ticket: int, result: object) -> None:
        if not self._alive() or ticket != self._ticket:
            return  # another open came since
        assert isinstance(result, OpenedReview)
        self._reported()
        request = result.request
        self._show(request.path, request.data, request.inspection, request.destination, result)

    def _open_failed(self, ticket: int, details: str) -> None:
        if not self._alive() or ticket != self._ticket:
            return
        request = self._reported()
        if request is not None:
            self._show(request.path, request.data, request.inspection, None, None)
        self._problem(f"The review could not be opened: {last_line(details)}")

    def _open_cancelled(self, ticket: int) -> None:
        if not self._alive() or ticket != self._ticket:
            return
        request = self._reported()
        if request is not None:
            self._show(request.path, request.data, request.inspection, None, None)
            self._problem(
                "Restoring the review was cancelled; nothing is shown. Reload the packet "
                "(F5) to restore it."
            )
