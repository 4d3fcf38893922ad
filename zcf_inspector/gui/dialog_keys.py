"""Every dialog answers the same keys: Ctrl+Enter submits it, Esc cancels it.

Enter alone cannot submit a dialog whose text editor takes Enter as a new line (a note),
so Ctrl+Enter is the one key that submits every dialog, as in many editors and chats.
Esc is Qt's own cancel for a dialog (and a message box's No or Cancel).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractButton, QDialog, QDialogButtonBox, QMessageBox

SUBMIT_KEYS = ("Ctrl+Return", "Ctrl+Enter")  # the main key and the keypad's
_ACCEPTING = (
    QDialogButtonBox.StandardButton.Ok,
    QDialogButtonBox.StandardButton.Save,
    QDialogButtonBox.StandardButton.Yes,
    QDialogButtonBox.StandardButton.Apply,
)
_MESSAGE_ACCEPTING = (
    QMessageBox.StandardButton.Yes,
    QMessageBox.StandardButton.Ok,
    QMessageBox.StandardButton.Save,
)


def add_submit_keys(dialog: QDialog) -> None:
    for keys in SUBMIT_KEYS:
        shortcut = QShortcut(QKeySequence(keys), dialog)
        shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        shortcut.activated.connect(lambda d=dialog: submit(d))


def _accepting_button(dialog: QDialog) -> QAbstractButton | None:
    if isinstance(dialog, QMessageBox):
        for kind in _MESSAGE_ACCEPTING:
            button = dialog.button(kind)
            if button is not None:
                return button
        return None
    for box in dialog.findChildren(QDialogButtonBox):
        for standard in _ACCEPTING:
            button = box.button(standard)
            if button is not None:
                return button
    return None


def submit(dialog: QDialog) -> None:
    """What Ctrl+Enter does: press the accepting button (only when it is enabled, so a
    required note stays required), or accept a dialog that has none."""
    button = _accepting_button(dialog)
    if button is None:
        dialog.accept()
    elif button.isEnabled():
        button.click()
