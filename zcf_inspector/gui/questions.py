"""The window's one yes/no question: plain text (a question quotes file names and packet
strings), No by default, Enter and Space answer as the focused button says."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from zcf_inspector.gui.dialog_keys import add_submit_keys


def confirm(parent: QWidget, title: str, text: str) -> bool:
    """Ask ``text``; True only for Yes (closing the box is No)."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    add_submit_keys(box)
    try:
        return box.exec() == QMessageBox.StandardButton.Yes
    finally:
        box.deleteLater()
