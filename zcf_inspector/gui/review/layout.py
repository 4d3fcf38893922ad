"""The review pane's widgets and their layout, kept apart from its behaviour, and the
sizes the reviewer gave its splitters and columns, remembered in the window's settings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QSettings, Qt
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
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.gui.escape_tokens import install_tokens
from zcf_inspector.gui.plain_text import plain_label, set_tooltip
from zcf_inspector.gui.review.detail import BeliefDetail
from zcf_inspector.gui.review.table_model import Column, ReviewRows, ReviewTableModel
from zcf_inspector.gui.review.table_view import ReviewTable
from zcf_inspector.gui.theme import Tone, ToneLabel
from zcf_inspector.present.review.table import Filters

ANY = "any"
# The filter against the previous generation's receipt (shown while comparing with it).
NEW_OR_CHANGED = frozenset({BeliefChange.NEW, BeliefChange.CHANGED})
SINCE_CHOICES: tuple[tuple[str, frozenset[BeliefChange] | None], ...] = (
    ("Changed since that receipt", NEW_OR_CHANGED),
    ("New since that receipt", frozenset({BeliefChange.NEW})),
    ("Changed content only", frozenset({BeliefChange.CHANGED})),
    ("Unchanged since that receipt", frozenset({BeliefChange.UNCHANGED})),
    ("Changed or not", None),
)
# What admission did to a belief, or found in it: (text, key) of the filter's choices,
# and the key's (demoted, cut, secret suspected) filters.
ADMISSION_ITEMS: tuple[tuple[str, str], ...] = (
    ("Demoted or cut, or not", ANY),
    ("Demoted", "demoted"),
    ("Not demoted", "not demoted"),
    ("Cut by maxBeliefBytes", "cut"),
    ("Not cut", "not cut"),
    ("Secret suspected", "secret"),
    ("No secret suspected", "no secret"),
)
ADMISSION_CHOICES: dict[object, tuple[bool | None, bool | None, bool | None]] = {
    "demoted": (True, None, None),
    "not demoted": (False, None, None),
    "cut": (None, True, None),
    "not cut": (None, False, None),
    "secret": (None, None, True),
    "no secret": (None, None, False),
}
# Where the pane's splitters and columns are remembered (the window's settings store).
LAYOUT_KEYS = {
    "splitter": "layout/reviewSplitter",
    "detail": "layout/reviewDetailSplitter",
    "columns": "layout/reviewColumns",
}
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
    admission: QLabel  # what admission dropped, cut, demoted: never hidden
    dropped_button: QPushButton
    stale: QLabel  # the exported receipt is out of date
    previous: QLabel  # comparing with the previous generation's receipt: what and how
    repeat_button: QPushButton  # repeat its decisions on unchanged beliefs
    stop_previous_button: QPushButton
    reviewer: QLabel
    settings_button: QToolButton
    state_filter: QComboBox
    admission_filter: QComboBox  # demoted, cut by maxBeliefBytes
    evidence_filter: QComboBox
    since_filter: QComboBox  # new / changed / unchanged since the previous receipt
    text_filter: QLineEdit
    bulk_buttons: dict[ReviewState, QPushButton]
    table: QTableView
    model: ReviewTableModel
    proxy: ReviewRows  # the rows the filters let through, computed by the core
    detail: BeliefDetail
    splitter: QSplitter  # table above, the selected belief below
    note_field: QLineEdit
    summary: QLabel
    signer: QLabel  # which key signs the receipt
    status: QLabel
    receipt_status: QLabel
    undo_button: QToolButton
    redo_button: QToolButton
    export_button: QToolButton

    def filters(self) -> Filters:
        state = self.state_filter.currentData()
        admission = self.admission_filter.currentData()
        evidence = self.evidence_filter.currentData()
        since = SINCE_CHOICES[self.since_filter.currentIndex()][1]
        demoted, cut, secret = ADMISSION_CHOICES.get(admission, (None, None, None))
        return Filters(
            state=ReviewState(state) if state in set(ReviewState) else None,
            demoted=demoted,
            cut=cut,
            has_evidence=evidence if isinstance(evidence, bool) else None,
            secret=secret,
            text=self.text_filter.text(),
            since=None if self.since_filter.isHidden() else since,  # hidden: not comparing
        )


def _combo(items: Sequence[tuple[str, object]]) -> QComboBox:
    combo = QComboBox()
    for text, data in items:
        combo.addItem(text, data)
    return combo


# The widest word each narrow column shows: it gets that much room, Content the rest.
_COLUMN_SAMPLES = {
    Column.REF: "portableRef",
    Column.CURRENT: "superseded",
    Column.ARRIVED: "confirmed",
    Column.EVIDENCE: "no evidence",  # "no evidence cited" wraps over the row's lines
}
NOTE_SAMPLE = "a short note"
ROW_LINES = 3  # a row shows this many lines of content, wrapped; the detail shows all


def _size_columns(table: QTableView) -> None:
    """Rows three lines high with Content (and Note) wrapped, narrow columns sized to
    their words, Content stretched.

    Rows have one fixed height and columns are measured from samples, not from the
    rows: sizing to contents reads every row, and a packet admits up to 10,000 beliefs.
    """
    table.setWordWrap(True)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.verticalHeader().hide()
    rows = table.verticalHeader()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    metrics = table.fontMetrics()
    rows.setDefaultSectionSize(metrics.lineSpacing() * ROW_LINES + 12)
    header = table.horizontalHeader()
    header.setTextElideMode(Qt.TextElideMode.ElideRight)
    for column, sample in _COLUMN_SAMPLES.items():
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(column, metrics.horizontalAdvance(sample) + 20)
    header.setSectionResizeMode(Column.NOTE, QHeaderView.ResizeMode.Interactive)
    header.resizeSection(Column.NOTE, metrics.horizontalAdvance(NOTE_SAMPLE) + 20)
    header.setSectionResizeMode(Column.CONTENT, QHeaderView.ResizeMode.Stretch)
    header.setMinimumSectionSize(metrics.horizontalAdvance("Decision") + 12)


def build_widgets(pane: QWidget) -> PaneWidgets:
    model = ReviewTableModel(pane)
    proxy = ReviewRows(pane)
    proxy.setSourceModel(model)
    table = ReviewTable()
    table.setModel(proxy)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setTabKeyNavigation(False)
    table.setAccessibleName("Admitted beliefs")
    install_tokens(table)  # an escaped character in a cell drawn as a token
    _size_columns(table)
    note_field = QLineEdit()
    note_field.setPlaceholderText("Note for the next decision (Enter returns to the table)")
    w = PaneWidgets(
        problem=ToneLabel(Tone.BAD, wrap=True),
        set_aside=QPushButton("Set the saved review aside and start over"),
        self_review=ToneLabel(Tone.BAD, wrap=True, bold=True),
        admission=ToneLabel(Tone.CAUTION, wrap=True),
        dropped_button=QPushButton("Show dropped beliefs…"),
        stale=ToneLabel(Tone.CAUTION, wrap=True, bold=True),
        previous=plain_label(wrap=True, selectable=True),
        repeat_button=QPushButton("Repeat earlier decisions…"),
        stop_previous_button=QPushButton("Stop comparing"),
        reviewer=plain_label(wrap=True, selectable=True),
        settings_button=QToolButton(),
        state_filter=_combo([("Any state", ANY)] + [(str(s), str(s)) for s in ReviewState]),
        admission_filter=_combo(ADMISSION_ITEMS),
        evidence_filter=_combo(
            [("Any evidence", None), ("With evidence", True), ("Without evidence", False)]
        ),
        since_filter=_combo([(text, None) for text, _ in SINCE_CHOICES]),
        text_filter=QLineEdit(),
        bulk_buttons={s: QPushButton(text) for s, text in BULK_LABELS.items()},
        table=table,
        model=model,
        proxy=proxy,
        detail=BeliefDetail(),
        splitter=QSplitter(Qt.Orientation.Vertical),
        note_field=note_field,
        summary=plain_label(wrap=True, selectable=True),
        signer=plain_label(wrap=True, selectable=True),
        status=plain_label(wrap=True, selectable=True),
        receipt_status=plain_label(wrap=True, selectable=True),
        undo_button=QToolButton(),
        redo_button=QToolButton(),
        export_button=QToolButton(),
    )
    # The detail's keys work from the table too: E goes to the evidence, Ctrl+Shift+V
    # reveals a suspected credential.
    table.addAction(w.detail.evidence_action)
    table.addAction(w.detail.reveal_action)
    w.text_filter.setPlaceholderText("Filter: ref, content or note")
    w.splitter.setObjectName("reviewSplitter")
    for hidden in (
        w.problem,
        w.set_aside,
        w.self_review,
        w.admission,
        w.dropped_button,
        w.stale,
        w.previous,
        w.repeat_button,
        w.stop_previous_button,
        w.since_filter,
        w.receipt_status,
    ):
        hidden.hide()
    set_tooltip(
        w.since_filter,
        "Against the previous generation's receipt: new beliefs, beliefs whose admitted "
        "content changed, or both",
    )
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
    layout.setSpacing(4)
    layout.addWidget(w.problem)
    layout.addLayout(_row(w.set_aside))
    layout.addWidget(w.self_review)
    admission = QHBoxLayout()
    admission.addWidget(w.admission, 1)
    admission.addWidget(w.dropped_button, 0, Qt.AlignmentFlag.AlignTop)
    layout.addLayout(admission)
    layout.addWidget(w.stale)
    previous = QHBoxLayout()
    previous.addWidget(w.previous, 1)
    previous.addWidget(w.repeat_button, 0, Qt.AlignmentFlag.AlignTop)
    previous.addWidget(w.stop_previous_button, 0, Qt.AlignmentFlag.AlignTop)
    layout.addLayout(previous)
    top = QHBoxLayout()
    top.addWidget(w.reviewer, 1)
    top.addWidget(w.settings_button)
    top.addSpacing(12)
    bulk = plain_label("Bulk:")
    set_tooltip(bulk, "Decide the selected rows at once, or every row shown when one is selected")
    top.addWidget(bulk)
    for button in w.bulk_buttons.values():
        set_tooltip(button, "The selected rows, or every row shown")
        top.addWidget(button)
    layout.addLayout(top)
    filters = _row(
        w.since_filter, w.state_filter, w.admission_filter, w.evidence_filter, stretch_after=False
    )
    filters.addWidget(w.text_filter, 1)
    layout.addLayout(filters)
    below = QWidget()
    below_layout = QVBoxLayout(below)
    below_layout.setContentsMargins(0, 0, 0, 0)
    below_layout.addWidget(w.detail, 1)
    below_layout.addWidget(w.note_field)
    w.splitter.addWidget(w.table)
    w.splitter.addWidget(below)
    w.splitter.setStretchFactor(0, 3)
    w.splitter.setStretchFactor(1, 2)
    w.splitter.setChildrenCollapsible(False)
    layout.addWidget(w.splitter, 1)
    layout.addWidget(w.receipt_status)
    bottom = QHBoxLayout()
    bottom.addWidget(w.summary, 1)
    for tool in (w.undo_button, w.redo_button, w.export_button):
        bottom.addWidget(tool)
    layout.addLayout(bottom)
    layout.addWidget(w.signer)
    layout.addWidget(w.status)


def _layout_parts(
    ui: PaneWidgets,
) -> dict[str, tuple[Callable[[], QByteArray], Callable[[QByteArray], object]]]:
    header = ui.table.horizontalHeader()
    return {
        "splitter": (ui.splitter.saveState, ui.splitter.restoreState),
        "detail": (ui.detail.splitter.saveState, ui.detail.splitter.restoreState),
        "columns": (header.saveState, header.restoreState),
    }


def restore_layout(settings: QSettings, ui: PaneWidgets) -> None:
    for key, state in _layout_parts(ui).items():
        value = settings.value(LAYOUT_KEYS[key])
        if isinstance(value, QByteArray) and not value.isEmpty():
            state[1](value)


def save_layout(settings: QSettings, ui: PaneWidgets) -> None:
    for key, state in _layout_parts(ui).items():
        settings.setValue(LAYOUT_KEYS[key], state[0]())
    settings.sync()
