"""The plan's findings as a table: severity, code, node, message (all plain text)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from zcf_inspector.gui.plain_text import visible
from zcf_inspector.present.asif_listing import ListedFinding

NODE_ROLE = Qt.ItemDataRole.UserRole + 1  # the node ID a row selects (or None)

_HEADERS = ("Severity", "Code", "Node", "Message", "Pointer")
_SEVERITY_GLYPHS = {"error": "✖ error", "warning": "⚠ warning", "info": "• info"}

Index = QModelIndex | QPersistentModelIndex


class FindingsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self._rows: tuple[ListedFinding, ...] = ()

    def set_findings(self, rows: tuple[ListedFinding, ...]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def listed(self, row: int) -> ListedFinding:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt virtual)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt virtual)
        return 0 if parent.isValid() else len(_HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows[index.row()]
        if role == NODE_ROLE:
            return item.node_id
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        finding = item.finding
        column = index.column()
        if column == 0:
            return _SEVERITY_GLYPHS.get(str(finding.severity), str(finding.severity))
        if column == 1:
            return str(finding.code)
        if column == 2:
            return visible(item.node_id) if item.node_id else f"({item.source})"
        if column == 3:
            return visible(finding.message)
        if column == 4:
            return visible(finding.pointer) or "(document)"
        return None

    def headerData(  # noqa: N802 (Qt virtual)
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(_HEADERS)
        ):
            return _HEADERS[section]
        return None
