"""Triage keys: from the highlighted belief to the next (or previous) shown row that is
flagged as a suspected credential, cut by maxBeliefBytes, or changed since the previous
generation compared with (issue 31, point 5).

They walk the rows the filters show, in the table's order, from the highlighted row,
wrapping once; with none to go to the status line says so and the highlight stays.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Final, Protocol

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QTableView

from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.previous import BeliefChange, PreviousGeneration
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.gui.review.cursor import TableCursor
from zcf_inspector.gui.review.layout import PaneWidgets
from zcf_inspector.gui.review.table_model import ReviewRows, ReviewTableModel


class TriageHost(Protocol):
    """What the keys read of the review pane (its table, rows and review)."""

    @property
    def target(self) -> ReviewTarget | None: ...
    @property
    def review(self) -> JournaledReview | None: ...
    @property
    def previous(self) -> PreviousGeneration | None: ...

    model: ReviewTableModel
    proxy: ReviewRows
    table: QTableView
    table_cursor: TableCursor
    ui: PaneWidgets


class Mark(StrEnum):
    FLAGGED = "flagged as a suspected credential"
    CUT = "cut by maxBeliefBytes"
    CHANGED = "new or changed since the previous receipt"


# (mark, key forward, what the sheet says); Shift+key goes back.
TRIAGE_KEYS: Final = (
    (Mark.FLAGGED, "F", "Next belief flagged as a suspected credential (Shift+F: previous)"),
    (Mark.CUT, "X", "Next belief cut by maxBeliefBytes (Shift+X: previous)"),
    (Mark.CHANGED, "N", "Next belief new or changed since the previous receipt (Shift+N)"),
)
CHANGED: Final = frozenset({BeliefChange.NEW, BeliefChange.CHANGED})


def has_mark(pane: TriageHost, mark: Mark) -> Callable[[str], bool]:
    """Whether a belief (by ref) bears ``mark`` in ``pane``'s review as it is now."""
    if mark is Mark.FLAGGED:
        flagged = pane.model.flagged
        return lambda ref: ref in flagged
    if mark is Mark.CUT:
        target = pane.target

        def cut(ref: str) -> bool:
            belief = target.belief(ref) if target is not None else None
            return belief is not None and belief.cut is not None

        return cut
    previous = pane.previous
    changes = previous.classification.changes if previous is not None else {}
    return lambda ref: changes.get(ref) in CHANGED


def jump(pane: TriageHost, mark: Mark, *, backwards: bool = False) -> str | None:
    """Highlight the next (previous) shown belief bearing ``mark``; its ref, or None."""
    rows = pane.proxy.rowCount()
    if not rows or pane.review is None:
        return None
    test = has_mark(pane, mark)
    here = pane.table.currentIndex().row()
    step = -1 if backwards else 1
    start = here if here >= 0 else (0 if not backwards else rows - 1) - step
    for offset in range(1, rows + 1):
        row = (start + step * offset) % rows
        ref = pane.table_cursor.ref_at(row)
        if ref is not None and test(ref):
            pane.table_cursor.select_row(row)
            return ref
    pane.ui.status.setText(f"No belief shown is {mark}.")
    return None


def make_triage_actions(pane: TriageHost, owner: QObject) -> list[QAction]:
    """The keys, on the table (they work while it has the focus), forward and back."""
    made: list[QAction] = []
    for mark, key, text in TRIAGE_KEYS:
        for backwards in (False, True):
            label = text.split(" (")[0].replace("Next", "Previous") if backwards else text
            action = QAction(label, owner)
            action.setShortcut(QKeySequence(f"Shift+{key}" if backwards else key))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(
                lambda _=False, m=mark, b=backwards: jump(pane, m, backwards=b)
            )
            pane.table.addAction(action)
            made.append(action)
    return made
