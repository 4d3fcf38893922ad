"""The session view's table models: a session's timeline, contexts and resources.

Thin and lazy: each holds the core's `SessionOutline` and asks `present.asif_session`
for the words of a row only when the view paints it (100,000 events cost nothing until
scrolled to), escaped by the one text rule as they are returned.
"""

from __future__ import annotations

from typing import ClassVar, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QBrush, QFontDatabase, QGuiApplication

from zcf_inspector.core.continuation.outline import SessionOutline
from zcf_inspector.gui.plain_text import shown
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE, POINTER_ROLE
from zcf_inspector.gui.row_table_model import ModelIndex
from zcf_inspector.gui.theme import tone_colour
from zcf_inspector.gui.verdict_header import LEVEL_TONES
from zcf_inspector.present import asif_session as words

CELL_CHARS: Final = 200  # of one cell's text (the tooltip and detail say the rest)
EMPTY: Final = SessionOutline((), (), (), ())


class OutlineModel(QAbstractTableModel):
    HEADERS: ClassVar[tuple[str, ...]] = ()
    MONO: ClassVar[frozenset[int]] = frozenset()  # columns shown in the fixed-width font

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.outline = EMPTY
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    def set_outline(self, outline: SessionOutline) -> None:
        self.beginResetModel()
        self.outline = outline
        self.endResetModel()

    def count(self) -> int:
        raise NotImplementedError

    def cells(self, row: int) -> tuple[str, ...]:
        raise NotImplementedError

    def pointer(self, row: int) -> str:
        raise NotImplementedError

    def tooltip(self, row: int) -> str:
        return "\n".join(f"{h}: {c}" for h, c in zip(self.HEADERS, self.cells(row), strict=True))

    def foreground(self, row: int, column: int) -> QBrush | None:
        return None

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else self.count()

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section] if 0 <= section < len(self.HEADERS) else None
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row, column = index.row(), index.column()
        if not index.isValid() or not 0 <= row < self.count():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return shown(self.cells(row)[column], CELL_CHARS)
        if role == PLAIN_TOOLTIP_ROLE:
            return self.tooltip(row)  # plain_tooltip escapes it as it shows it
        if role == POINTER_ROLE:
            return self.pointer(row)
        if role == Qt.ItemDataRole.FontRole and column in self.MONO:
            return self._mono
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.foreground(row, column)
        return None


class TimelineModel(OutlineModel):
    HEADERS = words.TIMELINE_HEADERS
    MONO = frozenset({4})  # the lanes line up in the fixed-width font

    def count(self) -> int:
        return len(self.outline.events)

    def cells(self, row: int) -> tuple[str, ...]:
        return words.event_cells(self.outline, row)

    def pointer(self, row: int) -> str:
        return self.outline.events[row].pointer

    def tooltip(self, row: int) -> str:
        return words.event_detail(self.outline, self.outline.events[row])


class ContextsModel(OutlineModel):
    HEADERS = words.CONTEXT_HEADERS

    def count(self) -> int:
        return len(self.outline.contexts)

    def cells(self, row: int) -> tuple[str, ...]:
        return words.context_cells(self.outline, row)

    def pointer(self, row: int) -> str:
        return self.outline.contexts[row].pointer


class ResourcesModel(OutlineModel):
    HEADERS = words.RESOURCE_HEADERS
    MONO = frozenset({5})

    def count(self) -> int:
        return len(self.outline.resources)

    def cells(self, row: int) -> tuple[str, ...]:
        return words.resource_cells(self.outline.resources[row])

    def pointer(self, row: int) -> str:
        return self.outline.resources[row].pointer

    def tooltip(self, row: int) -> str:
        return words.resource_summary(self.outline.resources[row])

    def foreground(self, row: int, column: int) -> QBrush | None:
        if column != 3:
            return None
        tone = LEVEL_TONES[words.integrity_trust(self.outline.resources[row])]
        return None if tone is None else QBrush(tone_colour(tone, QGuiApplication.palette()))
