"""The compare view's two tables: the parts (changed first) and the element changes.

Rows are core results (`PartComparison`, `Change`); every text from a packet is shown
through `masked` (its suspected credentials masked, then made visible), as plain text.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush, QFontDatabase, QGuiApplication

from zcf_inspector.core.compare.model import Change, ChangeKind, PartComparison, PartStatus
from zcf_inspector.core.secrets.masking import masked_clip
from zcf_inspector.gui.manifest_pane import short_digest
from zcf_inspector.gui.plain_text import masked_visible
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE, POINTER_ROLE
from zcf_inspector.gui.row_table_model import ModelIndex, RowTableModel
from zcf_inspector.gui.theme import Tone, tone_colour

ID_CHARS: Final = 120
UNPROTECTED: Final = "not integrity-protected"

# Change colours, used with the change's word (never colour alone): the theme's tones, so
# they stay readable on a dark palette too (fixed light colours fell to 1.1:1 there).
_KIND_TONES: Final = {
    ChangeKind.ADDED: Tone.GOOD,
    ChangeKind.REMOVED: Tone.BAD,
    ChangeKind.CHANGED: Tone.CAUTION,
}
_STATUS_TONES: Final = {
    PartStatus.ADDED: Tone.GOOD,
    PartStatus.REMOVED: Tone.BAD,
    PartStatus.CHANGED: Tone.CAUTION,
}


def _tone_brush(tone: Tone | None) -> QBrush | None:
    # The application's palette is the theme in force (View → Theme sets it); the view
    # asks again after a theme change (`recolour`).
    return None if tone is None else QBrush(tone_colour(tone, QGuiApplication.palette()))


def recolour(model: PartsModel | ChangesModel) -> None:
    """Repaint a model's coloured column after the theme changed."""
    rows = model.rowCount()
    if rows:
        model.dataChanged.emit(
            model.index(0, 0),
            model.index(rows - 1, model.columnCount() - 1),
            [Qt.ItemDataRole.ForegroundRole],
        )


def change_word(change: Change) -> str:
    """The change as one word; a change of position only reads "moved"."""
    if change.change is ChangeKind.CHANGED and change.moved is not None and not change.fields:
        return "moved"
    return str(change.change)


def change_summary(change: Change) -> str:
    """What else there is to know about a change, in one line."""
    notes = []
    if change.moved is not None:
        notes.append(f"moved {change.moved[0]} → {change.moved[1]}")
    if change.review_state is not None:
        before, after = (s or "unreviewed (absent)" for s in change.review_state)
        notes.append(f"review state {masked_visible(before)} → {masked_visible(after)}")
    if change.fields:
        count = len(change.fields) + change.fields_omitted
        paths = ", ".join(masked_visible(f.path) or "(value)" for f in change.fields[:3])
        more = "…" if count > 3 else ""
        notes.append(f"{count} field{'s' if count != 1 else ''}: {paths}{more}")
    if change.occurrence is not None:
        notes.append(f"occurrence {change.occurrence} of a repeated identity")
    if not change.integrity_protected:
        notes.append(UNPROTECTED)
    return "; ".join(notes)


class PartsModel(RowTableModel[PartComparison]):
    HEADERS = ("Section", "Status", "Changes", "Integrity", "Digest A", "Digest B")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        part = self.row_at(index)
        if part is None:
            return None
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(part, column)
        if role == Qt.ItemDataRole.ForegroundRole and column == 1:
            return _tone_brush(_STATUS_TONES.get(part.status))
        if role == Qt.ItemDataRole.FontRole and column >= 4:
            return self._mono
        if role == PLAIN_TOOLTIP_ROLE:
            where = "covered by the manifest root" if part.covered else UNPROTECTED
            return (
                f"{masked_visible(part.name)} ({where})\n{masked_visible(part.pointer)}\n"
                f"A: {part.digest_a or '—'}\nB: {part.digest_b or '—'}"
            )
        if role == POINTER_ROLE:
            return part.pointer
        return None

    @staticmethod
    def _text(part: PartComparison, column: int) -> str:
        if column == 0:
            return masked_visible(part.name)
        if column == 1:
            return str(part.status)
        if column == 2:
            counts = (("added", part.added), ("removed", part.removed), ("changed", part.changed))
            return ", ".join(f"{n:,} {kind}" for kind, n in counts if n)
        if column == 3:
            return "covered" if part.covered else UNPROTECTED
        digest = part.digest_a if column == 4 else part.digest_b
        return short_digest(digest)


class ChangesModel(RowTableModel[Change]):
    HEADERS = ("Change", "Section", "ID", "Pointer", "Details")

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        change = self.row_at(index)
        if change is None:
            return None
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(change, column)
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            return _tone_brush(_KIND_TONES[change.change])
        if role == PLAIN_TOOLTIP_ROLE:
            return (
                f"{change_word(change)} {masked_visible(change.pointer)}\n{change_summary(change)}"
            )
        if role == POINTER_ROLE:
            return change.pointer
        return None

    @staticmethod
    def _text(change: Change, column: int) -> str:
        if column == 0:
            return change_word(change)
        if column == 1:
            return change.section or f"{masked_visible(change.part)} (outside the root)"
        if column == 2:
            return "" if change.id is None else masked_visible(masked_clip(change.id, ID_CHARS))
        if column == 3:
            return masked_visible(change.pointer)
        return change_summary(change)

    def first_row_of(self, part: PartComparison) -> int | None:
        """The first change listed in ``part`` (None when none is)."""
        return next(
            (
                n
                for n, c in enumerate(self._rows)
                if c.part == part.name and (c.section is not None) == part.covered
            ),
            None,
        )
