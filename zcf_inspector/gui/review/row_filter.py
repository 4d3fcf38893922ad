"""Keeps the review table's shown rows in step with its filters.

The rows are computed by the core (`present.review_table.shown_rows`): on the UI thread
for a small table, on the runner for a large one, whose answer is then swapped in whole.
Typing in the filter box of a large table waits for a pause (`DEBOUNCE_MS`), and a newer
request cancels the computation it makes stale; a stale answer that still arrives is
dropped (each request has a ticket).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal

from zcf_inspector.core.monitor import Monitor
from zcf_inspector.gui.review.table_model import ReviewRows, ReviewTableModel
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.present.review_table import Filters, TableFacts, shown_rows, shows

# Tables up to this many rows are filtered on the UI thread: a few milliseconds.
SYNC_ROWS = 5_000
# A step that changed up to this many beliefs moves their rows in or out one by one.
ROW_BY_ROW = 2_000
DEBOUNCE_MS = 200


class RowFilter(QObject):
    """``request(filters)`` shows the rows that pass; ``decisions_changed`` after a step."""

    rowsShown = Signal()  # noqa: N815 - a computed answer was swapped in

    def __init__(
        self,
        proxy: ReviewRows,
        model: ReviewTableModel,
        runner: TaskRunner,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        # Qt objects only (no reference back to the pane, which would keep it alive).
        self.proxy = proxy
        self.model = model
        self.runner = runner
        self.filters = Filters()  # the filters whose rows are shown, or being computed
        self._ticket = 0
        self._task: int | None = None
        self._waiting: Filters | None = None  # debounced, not yet asked for
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._debounced)

    @property
    def pending(self) -> bool:
        """Whether an answer is still to come (waiting for a pause, or computing)."""
        # A computation the window's Cancel forgot never answers: not pending (the
        # table keeps the rows it shows).
        computing = self._task is not None and self.runner.running(self._task)
        return self._waiting is not None or computing

    def large(self) -> bool:
        return len(self._facts().beliefs) > SYNC_ROWS

    def request(self, filters: Filters, *, debounce: bool = False) -> None:
        """Show the rows that pass ``filters`` (after a pause in typing, with ``debounce``,
        when the table is large)."""
        if debounce and self.large():
            self._waiting = filters
            self._stop()
            self._timer.start()
            return
        self._waiting = None
        self._timer.stop()
        self._compute(filters)

    def show_rows(self, filters: Filters, rows: tuple[int, ...]) -> None:
        """Show ``rows``, computed elsewhere (by a review's open, on the runner) for
        ``filters`` over the model's facts as they are now."""
        self._waiting = None
        self._timer.stop()
        self._stop()
        self.filters = filters
        self._show(rows)

    def refilter(self) -> None:
        """The same filters again (the facts they read changed)."""
        self._compute(self._waiting if self._waiting is not None else self.filters)

    def decisions_changed(self, refs: Collection[str] | None) -> None:
        """Decisions on ``refs`` (None: any belief) changed: rows move in or out when a
        filter reads decisions (state, text in the note)."""
        if not self.filters.reads_decisions and self._waiting is None:
            return
        if self.pending or refs is None or len(refs) > ROW_BY_ROW:
            self.refilter()  # a computation under way read the old decisions
            return
        facts = self._facts()
        first_rows = self.model.first_rows  # each ref's row (its first, when admitted twice)
        if len(first_rows) != len(facts.beliefs):
            self.refilter()  # a ref admitted twice has two rows: not worth a special case
            return
        for ref in refs:
            row = first_rows.get(ref)
            if row is None:
                continue
            if shows(facts, row, self.filters):
                self.proxy.admit(row)
            else:
                self.proxy.drop(row)

    def _facts(self) -> TableFacts:
        return facts_of(self.model)

    def _debounced(self) -> None:
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self._compute(waiting)

    def _stop(self) -> None:
        self._ticket += 1  # whatever is still computing is stale now
        if self._task is not None:
            self.runner.cancel(self._task)
            self._task = None

    def _compute(self, filters: Filters) -> None:
        self._stop()
        self.filters = filters
        facts = self._facts()
        if filters.open or len(facts.beliefs) <= SYNC_ROWS:
            self._show(shown_rows(facts, filters))
            return
        ticket = self._ticket

        def work(monitor: Monitor) -> tuple[int, ...]:
            return shown_rows(facts, filters, monitor)

        self._task = self.runner.start(
            "filtering the beliefs", work, partial(self._computed, ticket)
        )

    def _computed(self, ticket: int, rows: tuple[int, ...]) -> None:
        if ticket != self._ticket:
            return  # a newer request came since: this answer is stale
        self._task = None
        self._show(rows)

    def _show(self, rows: tuple[int, ...]) -> None:
        self.proxy.set_rows(rows)
        self.rowsShown.emit()


def facts_of(model: ReviewTableModel) -> TableFacts:
    """What the core's filters read: the model's beliefs and the review's decisions as
    they are now (replaced whole, never changed in place, by a step made on the runner)."""
    return TableFacts(model.beliefs, model.last, model.evidence, model.changes, model.flagged)
