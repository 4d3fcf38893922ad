"""The inventory pane: a package's members against its inventory, and the resource closure.

The package's counterpart of the manifest pane. It renders `PackageResult.inventory`
(each member's path, bytes, SHA-256 and status: matches, differs, missing, unlisted,
unrelated) and `PackageResult.closure` in `present.asif_package`'s words; a member or
resource that is refused is shown in the theme's refused colour. Selecting a member
shows its detail; selecting a closure row selects its resource in the session's tree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from PySide6.QtCore import QItemSelection, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.package.results import ClosureEntry, InventoryEntry, PackageResult
from zcf_inspector.core.visible_text import visible_lines
from zcf_inspector.gui.plain_text import plain_label, shown
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE, POINTER_ROLE
from zcf_inspector.gui.row_table_model import ModelIndex, RowTableModel
from zcf_inspector.gui.theme import tone_colour
from zcf_inspector.gui.verdict_header import LEVEL_TONES
from zcf_inspector.present import asif_package as words
from zcf_inspector.present.vocabulary import Trust

CELL_CHARS: Final = 200


def _brush(level: Trust) -> QBrush | None:
    tone = LEVEL_TONES[level]
    return None if tone is None else QBrush(tone_colour(tone, QGuiApplication.palette()))


Row = TypeVar("Row", InventoryEntry, ClosureEntry)


class _Rows(RowTableModel[Row]):
    MONO: frozenset[int] = frozenset()

    def __init__(
        self,
        cells: Callable[[Row], tuple[str, ...]],
        level: Callable[[Row], Trust],
        tip: Callable[[Row], str],
        pointer: Callable[[Row], str | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._cells: Callable[[Row], tuple[str, ...]] = cells
        self._level: Callable[[Row], Trust] = level
        self._tip: Callable[[Row], str] = tip
        self._pointer: Callable[[Row], str | None] = pointer
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    def row(self, number: int) -> Row:
        return self._rows[number]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.row_at(index)
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return shown(self._cells(row)[index.column()], CELL_CHARS)
        if role == Qt.ItemDataRole.ForegroundRole:
            return _brush(self._level(row))  # the whole row: a tampered member is red
        if role == Qt.ItemDataRole.FontRole and index.column() in self.MONO:
            return self._mono
        if role == PLAIN_TOOLTIP_ROLE:
            return visible_lines(self._tip(row))
        if role == POINTER_ROLE:
            return self._pointer(row)
        return None


class MembersModel(_Rows[InventoryEntry]):
    HEADERS = words.INVENTORY_HEADERS
    MONO = frozenset({3, 5})

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            words.member_cells, words.member_trust, words.member_detail, lambda e: e.pointer, parent
        )


class ClosureModel(_Rows[ClosureEntry]):
    HEADERS = words.CLOSURE_HEADERS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            words.closure_cells,
            words.closure_trust,
            lambda e: "\n".join(words.closure_cells(e)),
            lambda e: e.pointer,
            parent,
        )


def _table(model: RowTableModel[Any], widths: tuple[int, ...]) -> QTableView:
    table = QTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setTabKeyNavigation(False)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.horizontalHeader().setStretchLastSection(True)
    for column, width in enumerate(widths):
        table.setColumnWidth(column, width)
    install_on_view(table)
    return table


class InventoryPane(QWidget):
    pointerSelected = Signal(str)  # noqa: N815 - a resource of the session, in the tree

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = plain_label(wrap=True, selectable=True)
        self.members_model = MembersModel(self)
        self.closure_model = ClosureModel(self)
        self.members = _table(self.members_model, (200, 90, 80, 140, 90))
        self.closure = _table(self.closure_model, (140, 200))
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.members)
        split.addWidget(self.detail)
        split.addWidget(self.closure)
        split.setStretchFactor(0, 3)
        split.setSizes([300, 160, 110])
        self._digests = ""
        self.members.selectionModel().selectionChanged.connect(self._member_selected)
        self.closure.selectionModel().selectionChanged.connect(self._closure_selected)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)

    def set_result(self, result: PackageResult) -> None:
        self.members_model.replace_rows(result.inventory)
        self.closure_model.replace_rows(result.closure)
        self.summary.setText(words.inventory_summary(result))
        self._digests = words.package_digests(result)
        self.detail.setPlainText(self._digests)
        refused = next(
            (i for i, e in enumerate(result.inventory) if words.member_trust(e) is Trust.REFUSED),
            None,
        )
        if refused is not None:  # the first tampered member is what to read first
            self.members.selectRow(refused)

    def _member_selected(self, selected: QItemSelection, _old: QItemSelection) -> None:
        rows = {i.row() for i in selected.indexes()}
        if rows:
            entry = self.members_model.row(min(rows))
            text = f"{words.member_detail(entry)}\n\n{self._digests}"
            self.detail.setPlainText(visible_lines(text))

    def _closure_selected(self, selected: QItemSelection, _old: QItemSelection) -> None:
        rows = {i.row() for i in selected.indexes()}
        if rows:
            self.pointerSelected.emit(self.closure_model.row(min(rows)).pointer)
