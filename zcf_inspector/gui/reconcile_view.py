"""Two receipts of one packet side by side (File → Reconcile Two Receipts…): the
reconciliation's words (`present.reconcile`) in a read-only plain-text summary, and one
row per admitted belief with each reviewer's decision and whether they agree. Keyboard:
Tab moves between the summary, the table and Close; the arrows walk the table; Esc closes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QPlainTextEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.review.agreement import Pair
from zcf_inspector.core.review.reconcile import ReconcileResult
from zcf_inspector.core.visible_text import visible
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE
from zcf_inspector.gui.row_table_model import RowTableModel
from zcf_inspector.present.reconcile import PAIR_HEADERS, pair_row, text_lines
from zcf_inspector.present.review.secrets import masked_note


class PairsModel(RowTableModel[Pair]):
    HEADERS = PAIR_HEADERS

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        pair = self.row_at(index)
        # Tooltips by the plain-tooltip role only: Qt's own would read a note holding
        # markup as rich text.
        if pair is None or role not in (Qt.ItemDataRole.DisplayRole, PLAIN_TOOLTIP_ROLE):
            return None
        return pair_row(pair)[index.column()]


def summary_text(result: ReconcileResult) -> str:
    lines = list(text_lines(result))
    if result.findings:
        lines.append("refused:")
        lines += [f"  {f.code}: {visible(masked_note(f.message))}" for f in result.findings]
    return "\n".join(lines)


class ReconcileDialog(QDialog):
    def __init__(
        self, result: ReconcileResult, paths: tuple[str, str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.reconciled = result
        names = " and ".join(visible(Path(p).name) for p in paths)
        self.setWindowTitle(f"Reconcile {names}")
        self.resize(960, 620)
        layout = QVBoxLayout(self)
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.setPlainText(summary_text(result))
        self.summary.setAccessibleName("Reconciliation summary")
        self.summary.setTabChangesFocus(True)
        layout.addWidget(self.summary, 1)
        self.model = PairsModel(self)
        agreement = result.agreement
        self.model.replace_rows(agreement.pairs if agreement is not None else ())
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Beliefs side by side")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrows walk it
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((160, 330, 330)):
            self.table.setColumnWidth(column, width)
        install_on_view(self.table)
        layout.addWidget(self.table, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        if self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(0, 0))
        self.table.setFocus()
