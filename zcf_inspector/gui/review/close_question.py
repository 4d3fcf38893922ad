"""The question asked before a review with unexported decisions is closed (a tab, the
window, Quit): Export…, Keep for later, Discard — or, with Esc, not closing at all.

Keep for later closes and leaves the journal as it is: the next open of the packet
restores every decision. Discard sets the journal aside (renamed with its key, never
deleted: `storage.set_aside_journal`), so the next open starts a new review. Export…
runs the pane's export and closes only once the receipt is on disk.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from zcf_inspector.gui.messages import message_box

EXPORT_TEXT = "&Export…"
KEEP_TEXT = "&Keep for Later"
DISCARD_TEXT = "&Discard"


class CloseAnswer(StrEnum):
    EXPORT = "export"
    KEEP = "keep"
    DISCARD = "discard"
    CANCEL = "cancel"  # Esc, or the box closed: nothing is closed


def close_box(parent: QWidget, text: str) -> tuple[QMessageBox, dict[CloseAnswer, QPushButton]]:
    """The question, not yet shown: its box and its buttons by answer."""
    box = message_box(parent, QMessageBox.Icon.Question, "Unexported decisions", text)
    role = QMessageBox.ButtonRole
    buttons = {
        CloseAnswer.EXPORT: box.addButton(EXPORT_TEXT, role.AcceptRole),
        CloseAnswer.KEEP: box.addButton(KEEP_TEXT, role.ActionRole),
        CloseAnswer.DISCARD: box.addButton(DISCARD_TEXT, role.DestructiveRole),
        CloseAnswer.CANCEL: box.addButton(QMessageBox.StandardButton.Cancel),
    }
    # Keep is the default: Enter never discards and never starts a dialog by surprise.
    box.setDefaultButton(buttons[CloseAnswer.KEEP])
    box.setEscapeButton(buttons[CloseAnswer.CANCEL])
    return box, buttons


def ask_close(parent: QWidget, text: str) -> CloseAnswer:
    box, buttons = close_box(parent, text)
    try:
        box.exec()
        clicked = box.clickedButton()
        return next((a for a, b in buttons.items() if b is clicked), CloseAnswer.CANCEL)
    finally:
        box.deleteLater()
