"""The window's one message box and one yes/no question.

Every message and question quotes file names, refs and reasons that may come from a
packet, so the title and text pass the one escaping rule and are shown as plain text
(Qt's rich-text auto-detection would render a file name's markup). A question answers
No by default; Ctrl+Enter submits and Esc cancels, like every other dialog.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from zcf_inspector.gui.dialog_keys import add_submit_keys
from zcf_inspector.gui.plain_text import visible, visible_lines


def message_box(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    *,
    details: str = "",
    question: bool = False,
) -> QMessageBox:
    """A message box (Yes/No, No by default, when ``question``), not yet shown."""
    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(visible(title))
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(visible_lines(text))
    if details:
        box.setDetailedText(visible_lines(details))
    if question:
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.No)
    add_submit_keys(box)  # Ctrl+Enter: Yes (or OK); Esc: No
    return box


def confirm(parent: QWidget, title: str, text: str) -> bool:
    """Ask ``text``; True only for Yes (closing the box is No)."""
    box = message_box(parent, QMessageBox.Icon.Question, title, text, question=True)
    try:
        return box.exec() == QMessageBox.StandardButton.Yes
    finally:
        box.deleteLater()
