"""The review table: one row per admitted belief, and the rows its filters let through."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.core.review.target import AdmittedBelief
from zcf_inspector.gui.release import RELEASER
from zcf_inspector.present.review import rows
from zcf_inspector.present.review.secrets import NO_SECRETS, ReviewSecrets

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


class ReviewTableModel(QAbstractTableModel):
    """A thin adapter: the beliefs are fixed, the decisions are read from the review
    session's index (each belief's last decision), never copied."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._beliefs: tuple[AdmittedBelief, ...] = ()
        self._rows: Mapping[str, int] = {}
        self._evidence: Mapping[str, int] = {}
        self._last: Mapping[str, Decision] = {}
        # Against the previous generation's receipt, when one is being compared with.
        self._changes: Mapping[str, BeliefChange] | None = None
        self._secrets: ReviewSecrets = NO_SECRETS  # what the secret scan flags

    def reset(
        self,
        beliefs: tuple[AdmittedBelief, ...],
        evidence: Mapping[str, int],
        last: Mapping[str, Decision],
        rows: Mapping[str, int] | None = None,
    ) -> None:
        """``rows``: each ref's first row (the target's ``rows``), else made here."""
        self.beginResetModel()
        # What the rows showed is freed off the UI thread (`gui/release.py`).
        RELEASER.let_go(self._beliefs, self._evidence, self._last, self._rows, self._changes)
        self._beliefs, self._evidence, self._last = beliefs, evidence, last
        self._rows = rows if rows is not None else _first_rows(beliefs)
        self._changes = None
        self._secrets = NO_SECRETS
        self.endResetModel()

    @property
    def beliefs(self) -> tuple[AdmittedBelief, ...]:
        return self._beliefs

    @property
    def first_rows(self) -> Mapping[str, int]:
        """Each ref's row (its first, when admitted twice)."""
        return self._rows

    @property
    def evidence(self) -> Mapping[str, int]:
        return self._evidence

    @property
    def changes(self) -> Mapping[str, BeliefChange] | None:
        return self._changes

    @property
    def last(self) -> Mapping[str, Decision]:
        return self._last

    @property
    def secrets(self) -> ReviewSecrets:
        return self._secrets

    @property
    def flagged(self) -> frozenset[str]:
        """The beliefs whose admitted content the secret scan flags."""
        return self._secrets.flagged

    def set_secrets(self, secrets: ReviewSecrets) -> None:
        """What the secret scan (made with the review's open, on the runner) flags."""
        self._secrets = secrets
        if self._beliefs:
            self.dataChanged.emit(
                self.index(0, Column.CONTENT), self.index(len(self._beliefs) - 1, Column.CONTENT)
            )

    def set_changes(self, changes: Mapping[str, BeliefChange] | None) -> None:
        """New / changed / unchanged since the previous receipt (None: not comparing)."""
        self._changes = changes
        if self._beliefs:
            self.dataChanged.emit(
                self.index(0, Column.ARRIVED), self.index(len(self._beliefs) - 1, Column.ARRIVED)
            )

    def change(self, ref: str) -> BeliefChange | None:
        return None if self._changes is None else self._changes.get(ref)

    def update_decisions(
        self, last: Mapping[str, Decision], refs: Iterable[str] | None = None
    ) -> None:
        """Read decisions from ``last`` now; ``refs``: the beliefs whose decision changed
        (None: any may have)."""
        self._last = last
        if not self._beliefs:
            return
        if refs is None:
            rows = [0, len(self._beliefs) - 1]
        else:
            rows = [self._rows[ref] for ref in refs if ref in self._rows]
        if rows:
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), len(Column) - 1))

    def belief(self, row: int) -> AdmittedBelief:
        return self._beliefs[row]

    def row_of(self, ref: str) -> int:
        return self._rows[ref]

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
        # The words are the presentation layer's (`present.review.rows`).
        ref = belief.portable_ref
        last = self._last.get(ref)
        if column is Column.REF:
            return rows.ref_cell(belief)
        if column is Column.CONTENT:
            return rows.content_cell(belief, self._secrets.by_ref.get(ref, ()))
        if column is Column.ARRIVED:
            return rows.arrived_cell(belief, self.change(ref))
        if column is Column.CURRENT:
            return rows.decision_cell(last)
        if column is Column.EVIDENCE:
            return rows.evidence_cell(self.evidence_count(ref))
        return rows.note_cell(last)

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


class ReviewRows(QAbstractProxyModel):
    """The rows the filters let through, as the core computed them (`present.review.table`):
    source rows in ascending order, swapped in whole (`set_rows`) or changed one at a
    time after a small step (`drop`, `admit`). It computes nothing itself: filtering
    200,000 rows in a proxy's ``filterAcceptsRow`` held the window for over a second.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[int] = []

    def setSourceModel(self, model: QAbstractItemModel) -> None:  # noqa: N802
        super().setSourceModel(model)
        self._rows = list(range(model.rowCount()))
        model.dataChanged.connect(self._source_changed)
        model.modelAboutToBeReset.connect(self.beginResetModel)
        model.modelReset.connect(self._source_reset)

    @property
    def rows(self) -> Sequence[int]:
        """The shown source rows, ascending (read-only: do not change it)."""
        return self._rows

    def set_rows(self, rows: Sequence[int]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def drop(self, source_row: int) -> None:
        at = bisect_left(self._rows, source_row)
        if at < len(self._rows) and self._rows[at] == source_row:
            self.beginRemoveRows(QModelIndex(), at, at)
            del self._rows[at]
            self.endRemoveRows()

    def admit(self, source_row: int) -> None:
        at = bisect_left(self._rows, source_row)
        if at == len(self._rows) or self._rows[at] != source_row:
            self.beginInsertRows(QModelIndex(), at, at)
            self._rows.insert(at, source_row)
            self.endInsertRows()

    def position(self, source_row: int) -> int:
        """The shown row of ``source_row``, or of the first shown row after it."""
        return bisect_left(self._rows, source_row)

    def _source_reset(self) -> None:
        model = self.sourceModel()
        self._rows = list(range(model.rowCount())) if model is not None else []
        self.endResetModel()

    def _source_changed(
        self, top_left: QModelIndex, bottom_right: QModelIndex, roles: list[int]
    ) -> None:
        first = bisect_left(self._rows, top_left.row())
        last = bisect_right(self._rows, bottom_right.row()) - 1
        if first <= last:
            self.dataChanged.emit(
                self.index(first, top_left.column()), self.index(last, bottom_right.column()), roles
            )

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        # The base class maps the header through row 0, which is missing when no row shows.
        model = self.sourceModel()
        if model is None:
            return None
        if orientation == Qt.Orientation.Vertical:
            if not 0 <= section < len(self._rows):
                return None
            section = self._rows[section]
        return model.headerData(section, orientation, role)

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        if parent.isValid() or not (0 <= row < len(self._rows)):
            return QModelIndex()
        if not 0 <= column < self.columnCount():
            return QModelIndex()
        return self.createIndex(row, column)

    def parent(self, child: AnyIndex | None = None) -> Any:
        if child is None:
            return QObject.parent(self)  # the QObject parent, when asked without an index
        return QModelIndex()

    def sibling(self, row: int, column: int, index: AnyIndex) -> QModelIndex:
        return self.index(row, column)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        model = self.sourceModel()
        return 0 if parent.isValid() or model is None else model.columnCount()

    def mapToSource(self, proxy_index: AnyIndex) -> QModelIndex:  # noqa: N802
        model = self.sourceModel()
        if model is None or not proxy_index.isValid() or proxy_index.row() >= len(self._rows):
            return QModelIndex()
        return model.index(self._rows[proxy_index.row()], proxy_index.column())

    def mapFromSource(self, source_index: AnyIndex) -> QModelIndex:  # noqa: N802
        if not source_index.isValid():
            return QModelIndex()
        at = bisect_left(self._rows, source_index.row())
        if at < len(self._rows) and self._rows[at] == source_index.row():
            return self.index(at, source_index.column())
        return QModelIndex()


def _first_rows(beliefs: Sequence[AdmittedBelief]) -> dict[str, int]:
    rows: dict[str, int] = {}
    for row, belief in enumerate(beliefs):
        rows.setdefault(belief.portable_ref, row)
    return rows
