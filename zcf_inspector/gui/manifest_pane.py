"""The manifest pane: each covered section's listed and computed digest, and the root."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import (
    QItemSelection,
    QObject,
    Qt,
    Signal,
)
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.packet.manifest import ManifestReport
from zcf_inspector.gui.escape_tokens import install_tokens
from zcf_inspector.gui.icons import IconName, icon
from zcf_inspector.gui.plain_text import masked_shown, plain_label, visible
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE, POINTER_ROLE
from zcf_inspector.gui.row_table_model import ModelIndex, RowTableModel

ROOT_NAME: Final = "(root)"


@dataclass(frozen=True, slots=True)
class ManifestRow:
    name: str
    pointer: str | None  # the covered value, or None for a listed section covering nothing
    listed: str | None
    computed: str | None
    match: bool


def manifest_rows(report: ManifestReport) -> list[ManifestRow]:
    rows = [ManifestRow(s.name, s.pointer, s.listed, s.computed, s.match) for s in report.sections]
    rows.append(
        ManifestRow(
            ROOT_NAME,
            jpointer.join("manifest", "rootHash"),
            report.root_listed,
            report.root_computed,
            report.root_match,
        )
    )
    return rows


def short_digest(digest: str | None) -> str:
    if digest is None:
        return "—"
    hexpart = digest.removeprefix("sha256:")
    return hexpart if len(hexpart) <= 16 else f"{hexpart[:10]}…{hexpart[-6:]}"


class ManifestTableModel(RowTableModel[ManifestRow]):
    HEADERS = ("Section", "Match", "Listed", "Computed", "Covers")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    def set_report(self, report: ManifestReport | None) -> None:
        self.replace_rows([] if report is None else manifest_rows(report))

    def row(self, number: int) -> ManifestRow:
        return self._rows[number]

    def row_of(self, name: str) -> int | None:
        return next((i for i, r in enumerate(self._rows) if r.name == name), None)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.row_at(index)
        if row is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            match = "match" if row.match else "MISMATCH"
            texts = (
                visible(row.name),
                match,
                short_digest(row.listed),
                short_digest(row.computed),
                row.pointer or "(nothing in the packet)",
            )
            return texts[column]
        if role == Qt.ItemDataRole.DecorationRole and column == 1:
            return icon(IconName.PASS if row.match else IconName.FAIL)
        if role == Qt.ItemDataRole.FontRole and column in (2, 3):
            return self._mono
        if role == PLAIN_TOOLTIP_ROLE:
            return f"{row.name}\nlisted:   {row.listed}\ncomputed: {row.computed}"
        if role == POINTER_ROLE:
            return row.pointer
        return None


class ManifestPane(QWidget):
    """Selecting a row selects the section in the tree (`pointerSelected`)."""

    pointerSelected = Signal(str)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ManifestTableModel(self)
        self._quiet = False  # True while the pane selects a row by itself
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # fixed widths: sizing to contents would ask every row for every column up front
        for column, width in enumerate((120, 100, 135, 135)):
            self.table.setColumnWidth(column, width)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        install_on_view(self.table)
        install_tokens(self.table)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.listed = QLineEdit()
        self.computed = QLineEdit()
        for field in (self.listed, self.computed):
            field.setReadOnly(True)
            field.setFont(mono)
        self.verdict = plain_label(wrap=True, selectable=True)
        self.uncovered = plain_label(wrap=True, selectable=True)
        form = QFormLayout()
        form.addRow("Listed:", self.listed)
        form.addRow("Computed:", self.computed)
        form.addRow("", self.verdict)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(form)
        layout.addWidget(self.uncovered)

    def set_report(self, report: ManifestReport | None) -> None:
        self.model.set_report(report)
        self._quiet = False
        self.listed.clear()
        self.computed.clear()
        self.verdict.setText("")
        if report is None:
            self.uncovered.setText("No manifest: the packet was refused before it could be read.")
        elif report.uncovered:
            self.uncovered.setText(
                "Not covered by the root, so not integrity-protected (profile §4): "
                + ", ".join(visible(name) for name in report.uncovered)
            )
        else:
            self.uncovered.setText("Every top-level field is covered by the root.")
        mismatch = next(
            (i for i in range(self.model.rowCount()) if not self.model.row(i).match), None
        )
        if mismatch is not None:  # show the first changed section's digests, quietly
            self._quiet = True
            self.table.selectRow(mismatch)
            self._quiet = False

    def select_row(self, number: int) -> None:
        self.table.selectRow(number)

    def _selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = {i.row() for i in selected.indexes()}
        if not rows:
            return
        row = self.model.row(min(rows))
        self.listed.setText(masked_shown(row.listed, 200) if row.listed else "(not listed)")
        self.computed.setText(row.computed or "(nothing to compute: not in the packet)")
        # Show digests from their start ("sha256:…"): the end is what a reader compares last.
        self.listed.setCursorPosition(0)
        self.computed.setCursorPosition(0)
        self.verdict.setText(
            f"{row.name}: the listed digest matches the computed one"
            if row.match
            else f"{row.name}: MISMATCH — the listed digest is not the digest of these bytes"
        )
        if self._quiet:
            return
        self.pointerSelected.emit(
            row.pointer
            if row.pointer is not None
            else jpointer.join("manifest", "sections", row.name)
        )
