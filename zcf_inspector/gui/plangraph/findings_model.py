"""The plan's findings as a table: severity, code, node, message (all plain text)."""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import Qt

from zcf_inspector.gui.plain_text import visible
from zcf_inspector.gui.row_table_model import ModelIndex, RowTableModel
from zcf_inspector.present.asif_listing import ListedFinding

NODE_ROLE = Qt.ItemDataRole.UserRole + 1  # the node ID a row selects (or None)

_SEVERITY_GLYPHS = {"error": "✖ error", "warning": "⚠ warning", "info": "• info"}


class PlanFindingsModel(RowTableModel[ListedFinding]):
    """The plan graph's findings list: each row a listed finding and the node it is about
    (``NODE_ROLE``); the document's findings pane is `gui.findings_pane.FindingsModel`."""

    HEADERS: ClassVar[tuple[str, ...]] = ("Severity", "Code", "Node", "Message", "Pointer")

    def listed(self, row: int) -> ListedFinding:
        return self._rows[row]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        item = self.row_at(index)
        if item is None:
            return None
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
