"""The review pane's actions and their keys, made in one place.

C, R, S, U decide the highlighted belief (each decides and moves on), J/K move, and their
keys work only while the table has focus; Ctrl+Z / Ctrl+Shift+Z, Ctrl+Shift+P,
Ctrl+Shift+R and Esc while the pane (or a child) has focus, so other panes keep their
keys. The window's Review menu and Help → Shortcuts list the same objects
(`PaneActions.for_menu`), so a key is never described apart from what it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.review.layout import PaneWidgets

DECISION_KEYS = {
    ReviewState.CONFIRMED: ("Confirm", "C"),
    ReviewState.REJECTED: ("Reject…", "R"),
    ReviewState.SUPERSEDED: ("Supersede…", "S"),
    ReviewState.UNREVIEWED: ("Back to unreviewed", "U"),
}
BULK_STATES = (ReviewState.CONFIRMED, ReviewState.REJECTED, ReviewState.UNREVIEWED)


class ReviewCommands(Protocol):
    """What the actions trigger (the review pane)."""

    def decide_current(self, state: ReviewState) -> None: ...
    def move_by(self, delta: int) -> None: ...
    def undo(self) -> None: ...
    def redo(self) -> None: ...
    def bulk_decide(self, state: ReviewState) -> None: ...
    def compare_with_previous(self) -> None: ...
    def repeat_earlier(self) -> None: ...
    def stop_comparing(self) -> None: ...
    def edit_reviewer(self) -> None: ...
    def export_receipt(self) -> None: ...
    def cancel_step(self) -> None: ...


@dataclass(frozen=True, slots=True)
class PaneActions:
    decide: dict[ReviewState, QAction]
    next: QAction
    previous: QAction
    undo: QAction
    redo: QAction
    bulk: dict[ReviewState, QAction]
    compare_previous: QAction
    repeat: QAction
    stop_previous: QAction
    settings: QAction
    export: QAction
    cancel_step: QAction

    def for_menu(self) -> list[QAction]:
        """For a Review menu and Help → Shortcuts (the same objects, so no ambiguity)."""
        return [
            *self.decide.values(),
            self.next,
            self.previous,
            self.undo,
            self.redo,
            *self.bulk.values(),
            self.compare_previous,
            self.repeat,
            self.stop_previous,
            self.settings,
        ]


def make_actions(owner: QWidget, ui: PaneWidgets, commands: ReviewCommands) -> PaneActions:
    """The pane's actions, owned by ``owner``, and its buttons that trigger them; the
    per-belief keys live on the table."""
    table = ui.table

    def action(text: str, key: str, host: QWidget) -> QAction:
        made = QAction(text, owner)
        if key:
            made.setShortcut(QKeySequence(key))
            # Only while the pane (or its table) has focus: other panes keep their keys.
            made.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            host.addAction(made)
        return made

    decide: dict[ReviewState, QAction] = {}
    for state, (text, key) in DECISION_KEYS.items():
        decide[state] = action(text, key, table)
        decide[state].triggered.connect(lambda _=False, s=state: commands.decide_current(s))
    next_action = action("Next belief", "J", table)
    next_action.triggered.connect(lambda: commands.move_by(1))
    previous_action = action("Previous belief", "K", table)
    previous_action.triggered.connect(lambda: commands.move_by(-1))
    undo = action("Undo decision", "Ctrl+Z", owner)
    undo.triggered.connect(commands.undo)
    redo = action("Redo decision", "Ctrl+Shift+Z", owner)
    redo.triggered.connect(commands.redo)
    bulk: dict[ReviewState, QAction] = {}
    for state in BULK_STATES:
        bulk[state] = action(f"Bulk: {state}…", "", owner)
        bulk[state].triggered.connect(lambda _=False, s=state: commands.bulk_decide(s))
    compare = action("Compare with previous generation…", "Ctrl+Shift+P", owner)
    compare.triggered.connect(commands.compare_with_previous)
    repeat = action("Repeat earlier decisions…", "Ctrl+Shift+R", owner)
    repeat.triggered.connect(commands.repeat_earlier)
    stop = action("Stop comparing with previous generation", "", owner)
    stop.triggered.connect(commands.stop_comparing)
    settings = action("Reviewer identity…", "", owner)
    settings.triggered.connect(commands.edit_reviewer)
    export = action("Export receipt…", "", owner)
    export.triggered.connect(commands.export_receipt)
    cancel = action("Cancel the step in progress", "Esc", owner)
    cancel.triggered.connect(commands.cancel_step)
    cancel.setEnabled(False)
    for state, button in ui.bulk_buttons.items():
        button.clicked.connect(lambda _=False, s=state: commands.bulk_decide(s))
    ui.undo_button.setDefaultAction(undo)
    ui.redo_button.setDefaultAction(redo)
    ui.export_button.setDefaultAction(export)
    ui.settings_button.setDefaultAction(settings)
    return PaneActions(
        decide,
        next_action,
        previous_action,
        undo,
        redo,
        bulk,
        compare,
        repeat,
        stop,
        settings,
        export,
        cancel,
    )
