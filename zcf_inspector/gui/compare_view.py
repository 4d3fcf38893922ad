"""The compare view: two packets side by side in facts — which sections changed (those
first), every element change, and the selected change's fields with the changed
characters highlighted.

The highlighted text is built from plain text with `QTextCharFormat` on a
`QPlainTextEdit`'s document: no packet string is ever read as rich text. The field
texts and their changed ranges come from the core (`compare_work.change_detail`),
made on a worker; this view only paints them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import QEvent, QItemSelection, QModelIndex, Qt, Signal
from PySide6.QtGui import QFontDatabase, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.compare.model import Change, ChangeKind, Comparison, SideSummary
from zcf_inspector.core.compare.render import FieldLine
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.gui.compare_models import (
    ChangesModel,
    PartsModel,
    change_summary,
    change_word,
    recolour,
)
from zcf_inspector.gui.compare_work import ComparedPackets, change_detail
from zcf_inspector.gui.escape_tokens import install_tokens
from zcf_inspector.gui.plain_text import masked_visible, plain_label, visible
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.theme import Tone, light_palette, tone_background
from zcf_inspector.present.comparison import side_words

# (label, work, on_done): how the view asks for background work (the window's TaskRunner)
Runner = Callable[[str, Callable[[Monitor], Any], Callable[[Any], None]], object]

# The marks behind removed (A) and added (B) characters come from the theme
# (`tone_background` for the detail's palette); these are the light theme's.
REMOVED_BACKGROUND: Final = tone_background(Tone.BAD, light_palette())
ADDED_BACKGROUND: Final = tone_background(Tone.GOOD, light_palette())
SIDE_PREFIX: Final = "  A  ", "  B  "


def side_line(label: str, path: str, side: SideSummary) -> str:
    """A side in `validate`'s words (the comparison presenter's), as `diff` prints it."""
    return f"{label}: {visible(path)} — {visible(side_words(side))}"


def header_text(compared: ComparedPackets) -> str:
    """The banner: each side in `validate`'s words, then what differs."""
    comparison = compared.comparison
    return "\n".join(
        (
            side_line("A", compared.path_a, comparison.a),
            side_line("B", compared.path_b, comparison.b),
            summary_line(comparison),
        )
    )


def summary_line(comparison: Comparison) -> str:
    if comparison.identical:
        return "Canonically identical: every section and every field outside the root."
    sections = sum(1 for p in comparison.sections if p.status != "same")
    outside = sum(1 for p in comparison.uncovered if p.status != "same")
    total = sum(p.change_count for p in comparison.parts)
    text = (
        f"{sections} of {len(comparison.sections)} covered sections differ, "
        f"{outside} field{'s' if outside != 1 else ''} outside the root (not integrity-"
        f"protected); {total:,} change{'s' if total != 1 else ''}."
    )
    if comparison.omitted:
        text += f" {comparison.omitted:,} of them are counted but not listed (listing budget)."
    return text


class CompareView(QWidget):
    statusMessage = Signal(str)  # noqa: N815 - a short note for the window's status bar

    def __init__(self, compared: ComparedPackets, run: Runner, parent: QWidget | None = None):
        super().__init__(parent)
        self.compared = compared
        self._run = run
        self._ticket = 0
        self.detail_lines: tuple[FieldLine, ...] = ()
        # What the detail shows (a change, and its field lines once they arrived), so a
        # theme change can paint it again in the new colours.
        self._painted: tuple[Change, tuple[FieldLine, ...] | None] | None = None
        comparison = compared.comparison
        self.header = plain_label(header_text(compared), wrap=True, selectable=True)
        self.parts_model = PartsModel(self)
        self.parts_model.replace_rows(comparison.changed_first())
        self.parts = self._table(self.parts_model, "Sections compared")
        self.parts.resizeColumnsToContents()  # a few dozen rows at most
        self.changes_model = ChangesModel(self)
        self.changes_model.replace_rows(comparison.changes)
        self.changes = self._table(self.changes_model, "Changes")
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.detail.setAccessibleName("Change detail")
        lists = QSplitter(Qt.Orientation.Vertical)
        lists.addWidget(self.parts)
        lists.addWidget(self.changes)
        lists.setStretchFactor(1, 2)
        lists.setSizes([260, 520])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(lists)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.header)
        layout.addWidget(self.splitter, 1)
        self.parts.clicked.connect(self._part_clicked)
        self.parts.activated.connect(self._part_clicked)
        self.changes.selectionModel().selectionChanged.connect(self._change_selected)
        if comparison.changes:
            self.select_change(0)
        else:
            self.detail.setPlainText(
                "No change to show: A and B are canonically identical."
                if comparison.identical
                else "No element change is listed."
            )

    @property
    def title(self) -> str:
        return self.compared.title

    def set_compared(self, compared: ComparedPackets) -> None:
        """Show ``compared`` (the same pair checked again, under another destination): the
        banner says the sides' new words; the selected change and the scroll position come
        back as they were."""
        row = self.changes.currentIndex().row()
        scroll = self.changes.verticalScrollBar().value()
        self.compared = compared
        comparison = compared.comparison
        self.header.setText(header_text(compared))
        self.parts_model.replace_rows(comparison.changed_first())
        self.changes_model.replace_rows(comparison.changes)
        if 0 <= row < self.changes_model.rowCount():
            self.select_change(row)
            self.changes.verticalScrollBar().setValue(scroll)
        elif comparison.changes:
            self.select_change(0)

    def _table(self, model: PartsModel | ChangesModel, name: str) -> QTableView:
        table = QTableView()
        table.setModel(model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setAlternatingRowColors(True)
        table.verticalHeader().hide()
        table.setWordWrap(False)
        table.setAccessibleName(name)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column in range(model.columnCount() - 1):
            table.setColumnWidth(column, 150 if column else 170)
        install_on_view(table)
        install_tokens(table)
        return table

    # --- moving between changes -----------------------------------------------------

    def current_change(self) -> Change | None:
        return self.changes_model.row_at(self.changes.currentIndex())

    def select_change(self, row: int) -> None:
        index = self.changes_model.index(row, 0)
        if index.isValid():
            self.changes.setCurrentIndex(index)
            self.changes.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def next_change(self) -> None:
        self._step(1)

    def previous_change(self) -> None:
        self._step(-1)

    def _step(self, delta: int) -> None:
        count = self.changes_model.rowCount()
        if not count:
            self.statusMessage.emit("No change to move to.")
            return
        current = self.changes.currentIndex()
        row = current.row() + delta if current.isValid() else (0 if delta > 0 else count - 1)
        if not 0 <= row < count:
            self.statusMessage.emit(
                "That was the last change." if delta > 0 else "That was the first change."
            )
            return
        self.select_change(row)

    def _part_clicked(self, index: QModelIndex) -> None:
        part = self.parts_model.row_at(index)
        if part is None:
            return
        row = self.changes_model.first_row_of(part)
        if row is not None:
            self.select_change(row)
        elif part.change_count:
            self.statusMessage.emit(
                f"The changes in {masked_visible(part.name)} are past the listing budget."
            )

    # --- the selected change --------------------------------------------------------

    def _change_selected(self, selected: QItemSelection, _old: QItemSelection) -> None:
        indexes = selected.indexes()
        change = self.changes_model.row_at(indexes[0]) if indexes else None
        self._ticket += 1
        if change is None:
            self._painted = None
            self.detail.clear()
            return
        ticket = self._ticket
        self._paint(change, None)

        def done(lines: object) -> None:
            if ticket == self._ticket and isinstance(lines, tuple):
                self._paint(change, lines)

        self._run("highlighting the change", lambda monitor: change_detail(change, monitor), done)

    def dispose(self) -> None:
        self._ticket += 1  # a detail still on its way is dropped

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            # View → Theme: the tables' tones and the detail's marks follow the palette.
            recolour(self.parts_model)
            recolour(self.changes_model)
            if self._painted is not None:
                self._paint(*self._painted)

    def _paint(self, change: Change, lines: tuple[FieldLine, ...] | None) -> None:
        """The change's facts, then each field's two sides with the changed characters
        highlighted (only once ``lines`` arrived from the worker)."""
        self._painted = (change, lines)
        self.detail_lines = lines or ()
        document = self.detail.document()
        document.clear()
        cursor = QTextCursor(document)
        plain = QTextCharFormat()
        bold = QTextCharFormat()
        bold.setFontWeight(700)
        who = f' "{masked_visible(change.id)}"' if change.id is not None else ""
        where = change.section or f"{masked_visible(change.part)} (not integrity-protected)"
        cursor.insertText(f"{change_word(change)} — {where}{who}", bold)
        facts = []
        for label, pointer, digest in (
            ("A", change.pointer_a, change.digest_a),
            ("B", change.pointer_b, change.digest_b),
        ):
            if pointer is not None:
                facts += [f"{label}  {masked_visible(pointer)}", f"   {digest or '—'}"]
        summary = change_summary(change)
        if summary:
            facts.append(summary)
        for fact in facts:
            cursor.insertBlock()
            cursor.insertText(fact, plain)
        if change.change is not ChangeKind.CHANGED:
            return
        if lines is None:
            cursor.insertBlock()
            cursor.insertBlock()
            cursor.insertText("highlighting…", plain)
            return
        palette = self.palette()  # updated before its PaletteChange arrives here
        removed = QTextCharFormat()
        removed.setBackground(tone_background(Tone.BAD, palette))
        added = QTextCharFormat()
        added.setBackground(tone_background(Tone.GOOD, palette))
        for line in lines:
            cursor.insertBlock()
            cursor.insertBlock()
            note = f"   ({line.note})" if line.note else ""
            cursor.insertText((line.path or "(the value itself)") + note, bold)
            for prefix, text, spans, marked in (
                (SIDE_PREFIX[0], line.a, line.a_spans, removed),
                (SIDE_PREFIX[1], line.b, line.b_spans, added),
            ):
                cursor.insertBlock()
                cursor.insertText(prefix, plain)
                _insert_spans(cursor, text, spans, plain, marked)
        if change.fields_omitted:
            cursor.insertBlock()
            cursor.insertBlock()
            cursor.insertText(f"… {change.fields_omitted:,} more fields differ", plain)
        self.detail.moveCursor(QTextCursor.MoveOperation.Start)


def _insert_spans(
    cursor: QTextCursor,
    text: str,
    spans: tuple[tuple[int, int], ...],
    plain: QTextCharFormat,
    marked: QTextCharFormat,
) -> None:
    position = 0
    for start, end in spans:
        if start > position:
            cursor.insertText(text[position:start], plain)
        cursor.insertText(text[start:end], marked)
        position = end
    if position < len(text):
        cursor.insertText(text[position:], plain)
