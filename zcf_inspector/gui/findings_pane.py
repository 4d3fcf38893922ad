"""The findings list: severity, code, pointer, message; filter by severity; selecting a
finding selects its node in the tree (`pointerSelected`)."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import (
    QItemSelection,
    QObject,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.findings import (
    FINDINGS_LIMIT,
    Finding,
    OmittedFindings,
    Severity,
    omitted_total,
)
from zcf_inspector.core.secrets.masking import mask_text
from zcf_inspector.gui.escape_tokens import install_tokens
from zcf_inspector.gui.icons import IconName, icon
from zcf_inspector.gui.plain_text import masked_visible, plain_label, visible
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE, POINTER_ROLE, SEVERITY_ROLE
from zcf_inspector.gui.row_table_model import ModelIndex, RowTableModel

SEVERITY_ICONS: Final = {
    Severity.ERROR: IconName.FAIL,
    Severity.WARNING: IconName.WARNING,
    Severity.INFO: IconName.INFO,
}


def cut_text(omitted: tuple[OmittedFindings, ...]) -> str:
    """What the list does not show, said plainly: how many more of each code, and where
    the first of them is (empty when nothing was cut)."""
    if not omitted:
        return ""
    lines = [
        f"Only the first {FINDINGS_LIMIT:,} findings are listed; "
        f"{omitted_total(omitted):,} more were counted but not listed:"
    ]
    lines += [
        f"  {o.severity} {o.code}: {o.count:,} more, the first at {visible(o.first_pointer or '/')}"
        for o in omitted
    ]
    return "\n".join(lines)


def finding_line(finding: Finding) -> str:
    """A finding as one line (its tooltip, and what Copy Value copies): masked."""
    where = mask_text(finding.pointer) or "(document)"
    offset = f" at byte {finding.offset}" if finding.offset is not None else ""
    return f"{finding.severity} {finding.code} {where}{offset}: {mask_text(finding.message)}"


class FindingsModel(RowTableModel[Finding]):
    HEADERS = ("Severity", "Code", "Pointer", "Message")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._elsewhere: tuple[str, ...] = ()  # per row: "" or the other file it points into

    def set_findings(self, findings: tuple[Finding, ...], elsewhere: tuple[str, ...] = ()) -> None:
        self._elsewhere = elsewhere + ("",) * (len(findings) - len(elsewhere))
        self.replace_rows(findings)

    def elsewhere(self, row: int) -> str:
        """The file a finding's pointer points into when it is not the shown document."""
        return self._elsewhere[row]

    def finding(self, row: int) -> Finding:
        return self._rows[row]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        finding = self.row_at(index)
        if finding is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            texts = (
                str(finding.severity),
                str(finding.code),
                self._where(index.row(), finding),
                masked_visible(finding.message),
            )
            return texts[column]
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return icon(SEVERITY_ICONS[finding.severity])
        if role == PLAIN_TOOLTIP_ROLE:
            return finding_line(finding)
        if role == POINTER_ROLE:
            return None if self._elsewhere[index.row()] else finding.pointer
        if role == SEVERITY_ROLE:
            return str(finding.severity)
        return None

    def _where(self, row: int, finding: Finding) -> str:
        where = masked_visible(finding.pointer or "(document)")
        other = self._elsewhere[row]
        return f"{visible(other)}: {where}" if other else where


class SeverityFilter(QSortFilterProxyModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._shown: set[str] = {str(s) for s in Severity}

    def set_shown(self, severity: Severity, shown: bool) -> None:
        self.beginFilterChange()
        if shown:
            self._shown.add(str(severity))
        else:
            self._shown.discard(str(severity))
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: ModelIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        return index.data(SEVERITY_ROLE) in self._shown


class FindingsPane(QWidget):
    pointerSelected = Signal(str)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = FindingsModel(self)
        self.proxy = SeverityFilter(self)
        self.proxy.setSourceModel(self.model)
        self.filters: dict[Severity, QCheckBox] = {}
        bar = QHBoxLayout()
        bar.addWidget(plain_label("Show:"))
        for severity in Severity:
            box = QCheckBox()
            box.setIcon(icon(SEVERITY_ICONS[severity]))
            box.setChecked(True)
            box.toggled.connect(lambda shown, s=severity: self.proxy.set_shown(s, shown))
            self.filters[severity] = box
            bar.addWidget(box)
        bar.addStretch(1)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        install_on_view(self.table)
        install_tokens(self.table)
        self.detail = plain_label(wrap=True, selectable=True)
        self.empty = plain_label("No findings.")
        # Findings past the document's budget: counted in the core, said here.
        self.cut = plain_label(wrap=True, selectable=True)
        self.cut.hide()
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.cut)
        layout.addWidget(self.detail)

    def set_findings(
        self,
        findings: tuple[Finding, ...],
        elsewhere: tuple[str, ...] = (),
        omitted: tuple[OmittedFindings, ...] = (),
    ) -> None:
        self.model.set_findings(findings, elsewhere)
        for severity, box in self.filters.items():
            count = sum(1 for f in findings if f.severity is severity)
            more = sum(o.count for o in omitted if o.severity is severity)
            box.setText(
                f"{severity} ({count:,} + {more:,} not listed)" if more else f"{severity} ({count})"
            )
        self.cut.setText(cut_text(omitted))
        self.cut.setVisible(bool(omitted))
        self.detail.setText("No findings." if not findings else "")

    def select_finding(self, row: int) -> None:
        """Select the finding at ``row`` of the (unfiltered) list."""
        proxy_index = self.proxy.mapFromSource(self.model.index(row, 0))
        if proxy_index.isValid():
            self.table.selectRow(proxy_index.row())

    def _selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        if not indexes:
            return
        source = self.proxy.mapToSource(indexes[0])
        finding = self.model.finding(source.row())
        other = self.model.elsewhere(source.row())
        self.detail.setText((f"in {other}: " if other else "") + finding_line(finding))
        if not other:
            self.pointerSelected.emit(finding.pointer)
