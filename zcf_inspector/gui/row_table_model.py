"""The skeleton every flat table in the window shares: a sequence of rows, fixed headers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

ModelIndex = QModelIndex | QPersistentModelIndex
Row = TypeVar("Row")


class RowTableModel(QAbstractTableModel, Generic[Row]):
    """Rows replaced as a whole (``replace_rows``); subclasses name ``HEADERS`` and ``data``."""

    HEADERS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: Sequence[Row] = ()

    def replace_rows(self, rows: Sequence[Row]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def row_at(self, index: ModelIndex) -> Row | None:
        """The row ``index`` shows, or None for an invalid or stale index."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return self._rows[index.row()]

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section] if 0 <= section < len(self.HEADERS) else None
        return None
