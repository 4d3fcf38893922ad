"""The review pane's widgets and their layout, kept apart from its behaviour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.plain_text import plain_label
from zcf_inspector.gui.review.detail import BeliefDetail
from zcf_inspector.gui.review.table_model import (
    Column,
    Filters,
    ReviewFilterModel,
    ReviewTableModel,
)

ANY = "any"
BULK_LABELS = {
    ReviewState.CONFIRMED: "Confirm…",
    ReviewState.REJECTED: "Reject…",
    ReviewState.UNREVIEWED: "Unreviewed…",
}


@dataclass
class PaneWidgets:
    problem: QLabel
    set_aside: QPushButton
    self_review: QLabel
    reviewer: QLabel
    settings_button: QToolButton
    state_filter: QComboBox
    demoted_filter: QComboBox
    evidence_filter: QComboBox
    text_filter: QLineEdit
    bulk_buttons: dict[ReviewState, QPushButton]
    table: QTableView
    model: ReviewTableModel
    proxy: ReviewFilterModel
    detail: BeliefDetail
    note_field: QLineEdit
    summary: QLabel
    status: QLabel
    receipt_status: QLabel
    undo_button: QToolButton
    redo_button: QToolButton
    export_button: QToolButton

    def filters(self) -> Filters:
        state = self.state_filter.currentData()
        demoted = self.demoted_filter.currentData()
        evidence = self.evidence_filter.currentData()
        return Filters(
            state=ReviewState(state) if state in set(ReviewState) else None,
            demoted=demoted if isinstance(demoted, bool) else None,
            has_evidence=evidence if isinstance(evidence, bool) else None,
            text=self.text_filter.text(),
        )


def _combo(items: Sequence[tuple[str, object]]) -> QComboBox:
    combo = QComboBox()
    for text, data in items:
        combo.addItem(text, data)
    return combo


# The widest word each narrow column shows: it gets that much room, and Content the rest.
_COLUMN_SAMPLES = {
    Column.REF: "portableRef",
    Column.INCOMING: "superseded",
    Column.DEMOTED: "demoted",
    Column.CURRENT: "superseded",
    Column.EVIDENCE: "Evidence",
    Column.NOTE: "Note",
}


def _size_columns(table: QTableView) -> None:
    """One line per belief, narrow columns sized to their words, Content stretched.

    Measured from a sample, not from the rows: sizing to contents reads every row, and a
    packet admits up to 10,000 beliefs.
    """
    table.setWordWrap(False)
    table.verticalHeader().hide()
    rows = table.verticalHeader()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 8)
    header = table.horizontalHeader()
    metrics = table.fontMetrics()
    for column, sample in _COLUMN_SAMPLES.items():
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(column, metrics.horizontalAdvance(sample) + 24)
    header.setSectionResizeMode(Column.CONTENT, QHeaderView.ResizeMode.Stretch)
    header.setMinimumSectionSize(metrics.horizontalAdvance("Demoted") + 16)


def build_widgets(pane: QWidget) -> PaneWidgets:
    model = ReviewTableModel(pane)
    proxy = ReviewFilterModel(pane)
    proxy.setSourceModel(model)
    table = QTableView()
    table.setModel(proxy)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setTabKeyNavigation(False)
    _size_columns(table)
    note_field = QLineEdit()
    note_field.setPlaceholderText("Note for the next decision (Enter returns to the table)")
    w = PaneWidgets(
        problem=plain_label(wrap=True, selectable=True),
        set_aside=QPushButton("Set the saved review aside and start over"),
        self_review=plain_label(wrap=True, selectable=True),
        reviewer=plain_label(selectable=True),
        settings_button=QToolButton(),
        state_filter=_combo([("Any state", ANY)] + [(str(s), str(s)) for s in ReviewState]),
        demoted_filter=_combo(
            [("Demoted or not", None), ("Demoted", True), ("Not demoted", False)]
        ),
        evidence_filter=_combo(
            [("Any evidence", None), ("Has evidence", True), ("No evidence", False)]
        ),
        text_filter=QLineEdit(),
        bulk_buttons={s: QPushButton(text) for s, text in BULK_LABELS.items()},
        table=table,
        model=model,
        proxy=proxy,
        detail=BeliefDetail(),
        note_field=note_field,
        summary=plain_label(wrap=True, selectable=True),
        status=plain_label(wrap=True, selectable=True),
        receipt_status=plain_label(wrap=True, selectable=True),
        undo_button=QToolButton(),
        redo_button=QToolButton(),
        export_button=QToolButton(),
    )
    w.text_filter.setPlaceholderText("Filter: ref, content or note")
    w.self_review.setStyleSheet("QLabel { color: #a40000; font-weight: bold; }")
    w.problem.setStyleSheet("QLabel { color: #a40000; }")
    for hidden in (w.problem, w.set_aside, w.self_review, w.receipt_status):
        hidden.hide()
    _lay_out(pane, w)
    return w


def _row(*widgets: QWidget, stretch_after: bool = True) -> QHBoxLayout:
    row = QHBoxLayout()
    for widget in widgets:
        row.addWidget(widget)
    if stretch_after:
        row.addStretch(1)
    return row


def _lay_out(pane: QWidget, w: PaneWidgets) -> None:
    layout = QVBoxLayout(pane)
    layout.addWidget(w.problem)
    layout.addLayout(_row(w.set_aside))
    layout.addWidget(w.self_review)
    layout.addLayout(_row(w.reviewer, w.settings_button))
    filters = _row(w.state_filter, w.demoted_filter, w.evidence_filter, stretch_after=False)
    filters.addWidget(w.text_filter, 1)
    layout.addLayout(filters)
    bulk_label = plain_label("Bulk (selected rows, or all shown):", selectable=True)
    layout.addLayout(_row(bulk_label, *w.bulk_buttons.values()))
    right = QWidget()
    right_layout = QVBoxLayout(right)
    right_layout.setContentsMargins(0, 0, 0, 0)
    right_layout.addWidget(w.detail, 1)
    right_layout.addWidget(w.note_field)
    splitter = QSplitter()
    splitter.addWidget(w.table)
    splitter.addWidget(right)
    splitter.setStretchFactor(0, 3)
    splitter.setStretchFactor(1, 2)
    layout.addWidget(splitter, 1)
    layout.addWidget(w.receipt_status)
    bottom = _row(w.summary)
    for button in (w.undo_button, w.redo_button, w.export_button):
        bottom.addWidget(button)
    layout.addLayout(bottom)
    layout.addWidget(w.status)
