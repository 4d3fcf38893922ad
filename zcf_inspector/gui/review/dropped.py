"""The beliefs admission left out (past ``maxBeliefs``), browsable and read-only.

They are not part of the review (nothing admitted them), but a reviewer must be able
to see what was not admitted: the table reads them from the core's `DroppedBeliefs`
a screenful at a time, and the selected one is shown in full below it — a suspected
credential masked, in the words of `present.review.dropped`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.packet.admission import DroppedBelief, DroppedBeliefs
from zcf_inspector.gui.dialog_keys import add_submit_keys
from zcf_inspector.gui.plain_text import ONE_LINE_CHARS, masked_shown, plain_label
from zcf_inspector.present.review.dropped import dropped_cell, dropped_detail

AnyIndex = QModelIndex | QPersistentModelIndex
HEADERS = ("#", "portableRef", "Arrived", "Content")


class DroppedBeliefsModel(QAbstractTableModel):
    def __init__(self, dropped: DroppedBeliefs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dropped = dropped

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.dropped)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(HEADERS)

    def belief(self, row: int) -> DroppedBelief:
        return self.dropped[row]

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or not index.isValid():
            return None
        belief = self.dropped[index.row()]
        return (
            f"{belief.index:,}",
            masked_shown(belief.portable_ref, ONE_LINE_CHARS),
            masked_shown(belief.review_state, ONE_LINE_CHARS),
            dropped_cell(belief),  # a suspected credential masked
        )[index.column()]

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None


class DroppedBeliefsDialog(QDialog):
    """Modeless: the reviewer may keep it open beside the review."""

    def __init__(self, dropped: DroppedBeliefs, why: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Dropped beliefs ({len(dropped):,}) — not admitted, read only")
        self.resize(820, 560)
        self.model = DroppedBeliefsModel(dropped, self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        rows = self.table.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        metrics = self.table.fontMetrics()
        for column, sample in enumerate(("200,000", "portableRef-000", "superseded")):
            header.resizeSection(column, metrics.horizontalAdvance(sample) + 24)
        header.setStretchLastSection(True)
        self.table.setAccessibleName("Dropped beliefs")
        self.content = QPlainTextEdit()
        self.content.setReadOnly(True)
        self.content.setAccessibleName("Content of the dropped belief")
        splitter = QSplitter()
        splitter.setOrientation(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.content)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(why, wrap=True, selectable=True))
        layout.addWidget(splitter, 1)
        layout.addWidget(buttons)
        add_submit_keys(self)
        self.table.selectionModel().currentRowChanged.connect(self._show)
        if self.model.rowCount():
            self.table.selectRow(0)
        self.table.setFocus()

    def _show(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.content.setPlainText("")
            return
        belief = self.model.belief(current.row())
        self.content.setPlainText(dropped_detail(belief))
