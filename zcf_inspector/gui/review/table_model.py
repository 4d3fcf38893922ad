"""The review table: one row per admitted belief, and the filters over it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.review.decisions import AdmittedBelief, Decision
from zcf_inspector.gui.plain_text import one_line

AnyIndex = QModelIndex | QPersistentModelIndex
REF_ROLE = Qt.ItemDataRole.UserRole + 1  # the belief's portableRef, whatever the column
STATE_ROLE = Qt.ItemDataRole.UserRole + 2  # its current ReviewState


class Column(IntEnum):
    REF = 0
    CONTENT = 1
    CURRENT = 2
    NOTE = 3
    ARRIVED = 4
    EVIDENCE = 5


HEADERS = {
    Column.REF: "portableRef",
    Column.CONTENT: "Content",
    Column.CURRENT: "Decision",
    Column.NOTE: "Note",
    Column.ARRIVED: "Arrived",
    Column.EVIDENCE: "Evidence",
}
# A cell shows this much of a belief's content, wrapped over the row's lines; the detail
# below the table shows all of it.
CONTENT_CHARS = 1000
NOTE_CHARS = 400


class ReviewTableModel(QAbstractTableModel):
    """A thin adapter: the beliefs are fixed, the decisions come from the review session."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._beliefs: tuple[AdmittedBelief, ...] = ()
        self._evidence: Mapping[str, int] = {}
        self._last: Mapping[str, Decision] = {}

    def reset(
        self,
        beliefs: tuple[AdmittedBelief, ...],
        evidence: Mapping[str, int],
        last: Mapping[str, Decision],
    ) -> None:
        self.beginResetModel()
        self._beliefs, self._evidence, self._last = beliefs, evidence, dict(last)
        self.endResetModel()

    def update_decisions(self, last: Mapping[str, Decision]) -> None:
        changed = [
            row
            for row, b in enumerate(self._beliefs)
            if self._last.get(b.portable_ref) != last.get(b.portable_ref)
        ]
        self._last = dict(last)
        if changed:
            self.dataChanged.emit(
                self.index(min(changed), 0), self.index(max(changed), len(Column) - 1)
            )

    def belief(self, row: int) -> AdmittedBelief:
        return self._beliefs[row]

    def row_of(self, ref: str) -> int:
        return next(i for i, b in enumerate(self._beliefs) if b.portable_ref == ref)

    def state(self, ref: str) -> ReviewState:
        last = self._last.get(ref)
        return ReviewState.UNREVIEWED if last is None else last.state

    def evidence_count(self, ref: str) -> int:
        return self._evidence.get(ref, 0)

    def note(self, ref: str) -> str:
        last = self._last.get(ref)
        return "" if last is None or last.note is None else last.note

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._beliefs)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(Column)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._beliefs):
            return None
        belief = self._beliefs[index.row()]
        ref = belief.portable_ref
        if role == REF_ROLE:
            return ref
        if role == STATE_ROLE:
            return str(self.state(ref))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if index.column() == Column.EVIDENCE:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return self._display(belief, Column(index.column()))

    def _display(self, belief: AdmittedBelief, column: Column) -> str:
        ref = belief.portable_ref
        last = self._last.get(ref)
        if column is Column.REF:
            return one_line(ref)
        if column is Column.CONTENT:
            return one_line(belief.content, CONTENT_CHARS)
        if column is Column.ARRIVED:
            arrived = one_line(belief.incoming_state)
            return f"{arrived}, demoted" if belief.demoted else arrived
        if column is Column.CURRENT:
            if last is not None and last.superseded_by is not None:
                return f"superseded by {one_line(last.superseded_by)}"
            return str(self.state(ref))
        if column is Column.EVIDENCE:
            return str(self.evidence_count(ref))
        return one_line(self.note(ref), NOTE_CHARS)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(Column):
            return HEADERS[Column(section)]
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._beliefs):
            return str(section + 1)
        return None


@dataclass(frozen=True, slots=True)
class Filters:
    state: ReviewState | None = None
    demoted: bool | None = None
    has_evidence: bool | None = None
    text: str = ""


class ReviewFilterModel(QSortFilterProxyModel):
    """Filters: state, demoted, has evidence, and text in the ref, content or note."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.filters = Filters()
        self.setDynamicSortFilter(True)  # a decision re-filters its row at once

    def set_filters(self, filters: Filters) -> None:
        self.beginFilterChange()
        self.filters = filters
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        if source_parent.isValid() or not isinstance(model, ReviewTableModel):
            return False
        belief = model.belief(source_row)
        ref = belief.portable_ref
        f = self.filters
        if f.state is not None and model.state(ref) is not f.state:
            return False
        if f.demoted is not None and belief.demoted != f.demoted:
            return False
        if f.has_evidence is not None and (model.evidence_count(ref) > 0) != f.has_evidence:
            return False
        if f.text:
            haystack = "\n".join((ref, belief.content, model.note(ref))).casefold()
            return f.text.casefold() in haystack
        return True
