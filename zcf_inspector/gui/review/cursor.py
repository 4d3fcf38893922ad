"""Where the reviewer is in the review table: the highlighted and selected beliefs.

The table's rows change under the reviewer (a filter, a decision that takes a row out of
the filter, a new open); `TableCursor` keeps the highlighted belief by its portableRef,
moves on after a decision, finds the next unreviewed belief, and records and puts back
what the reviewer looked at (`opening.ReviewView`) when the same packet is opened again.
Rows here are the shown (proxy) rows unless a name says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QItemSelection, QItemSelectionModel
from PySide6.QtWidgets import QAbstractItemView, QTableView

from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.gui.review.opening import OpenedReview, ReviewView
from zcf_inspector.gui.review.row_filter import RowFilter, facts_of
from zcf_inspector.gui.review.table_model import REF_ROLE, ReviewRows, ReviewTableModel
from zcf_inspector.present.review_table import Filters, TableFacts, next_unreviewed


class TableCursor:
    """The table's current and selected rows, by belief; ``shown`` is called when a move
    finds no row to make current (the detail then shows none)."""

    def __init__(
        self,
        table: QTableView,
        proxy: ReviewRows,
        model: ReviewTableModel,
        shown: Callable[[], None],
    ) -> None:
        self.table = table
        self.proxy = proxy
        self.model = model
        self._shown = shown
        # After an open: what to put back once its rows are in, or the row to continue at.
        self.restoring: ReviewView | None = None
        self.continue_at: int | None = None
        self._current_before_reset: str | None = None

    def current_ref(self) -> str | None:
        value = self.table.currentIndex().data(REF_ROLE)
        return value if isinstance(value, str) else None

    def ref_at(self, proxy_row: int) -> str | None:
        value = self.proxy.index(proxy_row, 0).data(REF_ROLE)
        return value if isinstance(value, str) else None

    def table_facts(self) -> TableFacts:
        return facts_of(self.model)

    def move_by(self, delta: int) -> None:
        row = self.table.currentIndex().row()
        self.select_row(max(0, row + delta) if row >= 0 else 0)

    def advance_from(self, ref: str) -> None:
        """After ``ref`` was decided: the row below it."""
        source_row = self.model.row_of(ref)
        here = self.proxy.mapFromSource(self.model.index(source_row, 0))
        if here.isValid():
            self.select_row(here.row() + 1)
            return
        # The decided row left the filter: the row now in its place is the next one.
        self.select_row(self.proxy.position(source_row))

    def select_row(self, row: int) -> None:
        count = self.proxy.rowCount()
        if count == 0:
            self._shown()
            return
        index = self.proxy.index(min(row, count - 1), 0)
        self.table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def select_ref(self, ref: str) -> None:
        here = self.proxy.mapFromSource(self.model.index(self.model.row_of(ref), 0))
        if here.isValid():
            self.select_row(here.row())

    def select_next_unreviewed(self, last: Decision | None) -> None:
        """The first unreviewed belief after ``last`` (the last one decided, wrapping), so
        a restored review continues where it stopped; the first row when nothing was."""
        rows = self.proxy.rows
        if last is None or not rows:
            self.select_row(0)
            return
        here = self.proxy.mapFromSource(self.model.index(self.model.row_of(last.portable_ref), 0))
        after = here.row() if here.isValid() else None
        found = next_unreviewed(self.table_facts(), rows, after)
        if found is not None:
            self.select_row(found)
        else:
            self.select_row(after if after is not None else 0)

    def opened(
        self,
        rows: RowFilter,
        filters: Filters,
        opened: OpenedReview,
        last: Decision | None,
    ) -> None:
        """An open is shown: its rows when they were computed for ``filters`` (else asked
        for), then where the review continues after ``last`` (a first open) or what the
        reviewer looked at (the same packet again), once the rows are in."""
        view = opened.request.view
        self.restoring = view  # put back once the rows are in (`rows_shown`)
        if opened.rows is not None and filters == opened.filters:
            self.continue_at = None if view is not None else opened.start
            rows.show_rows(filters, opened.rows)  # computed with the open
        else:  # the filters changed meanwhile, or the comparison could not be made again
            rows.request(filters)
            if view is None:
                self.select_next_unreviewed(last)  # continue where the review stopped

    def selected_rows(self, limit: int | None = None) -> list[int]:
        """The highlighted rows of the table (shown rows, ascending), up to ``limit``."""
        rows: set[int] = set()
        selection = self.table.selectionModel().selection()
        for i in range(selection.count()):
            span = selection.at(i)
            end = span.bottom() + 1 if limit is None else min(span.bottom() + 1, span.top() + limit)
            rows.update(range(span.top(), end))
            if limit is not None and len(rows) >= limit:
                break
        return sorted(rows)[:limit]

    def bulk_rows(self) -> Sequence[int]:
        """The selected rows (when several are selected), else every shown row, as rows
        of the model, ascending."""
        shown = self.proxy.rows
        # The selection's ranges, not selectedRows(): Ctrl+A over 200,000 rows would make
        # 200,000 indexes on the UI thread.
        picked: set[int] = set()
        selection = self.table.selectionModel().selection()
        for i in range(selection.count()):
            span = selection.at(i)
            picked.update(shown[span.top() : span.bottom() + 1])
        return sorted(picked) if len(picked) > 1 else shown

    def view_state(self, comparing: tuple[str, str] | None, since_index: int) -> ReviewView:
        """What the reviewer looks at now (to put back after the packet is opened again)."""
        selection = self.table.selectionModel().selection()
        ranges = []
        for i in range(selection.count()):
            span = selection.at(i)
            first, last = self.ref_at(span.top()), self.ref_at(span.bottom())
            if first is not None and last is not None:
                ranges.append((first, last))
        return ReviewView(
            self.current_ref(),
            tuple(ranges),
            self.table.verticalScrollBar().value(),
            comparing,
            since_index,
        )

    def _row_of(self, ref: str | None) -> int | None:
        row = self.model.first_rows.get(ref) if ref is not None else None
        here = self.proxy.mapFromSource(self.model.index(row, 0)) if row is not None else None
        return here.row() if here is not None and here.isValid() else None

    def put_back(self, view: ReviewView) -> None:
        """The highlighted and selected rows and the scroll position of ``view``, as far
        as those beliefs are still shown."""
        current = self._row_of(view.current)
        if current is None:
            self.select_row(0)
            return
        last_column = self.proxy.columnCount() - 1
        selection = QItemSelection()
        for first_ref, last_ref in view.selected:
            first, last = self._row_of(first_ref), self._row_of(last_ref)
            if first is not None and last is not None:
                selection.select(self.proxy.index(first, 0), self.proxy.index(last, last_column))
        model = self.table.selectionModel()
        flags = QItemSelectionModel.SelectionFlag
        model.setCurrentIndex(self.proxy.index(current, 0), flags.NoUpdate)
        model.select(selection, flags.ClearAndSelect | flags.Rows)
        self.table.updateGeometries()  # the scroll range of the new rows, before it is set
        self.table.verticalScrollBar().setValue(view.scroll)

    def remember_current(self) -> None:
        """A new set of rows is coming: the current belief stays current when still shown."""
        self._current_before_reset = self.current_ref()

    def rows_shown(self) -> None:
        """New rows are in: the current belief stays current if still shown, else the
        first row; after an open, where the review continues (a first open) or what
        the reviewer looked at (the same packet again)."""
        view, self.restoring = self.restoring, None
        start, self.continue_at = self.continue_at, None
        if view is not None or start is not None:
            self._current_before_reset = None
            if view is not None:
                self.put_back(view)
            else:
                self.select_row(start or 0)
            return
        ref, self._current_before_reset = self._current_before_reset, None
        row = self.model.first_rows.get(ref) if ref is not None else None
        if row is not None:
            here = self.proxy.mapFromSource(self.model.index(row, 0))
            if here.isValid():
                self.select_row(here.row())
                return
        self.select_row(0)
