"""Who is reviewing, asked once above the table before the first decision.

The question is a bar in the pane, shown as soon as a review opens with no reviewer
chosen for its destination — never a dialog popped up by a decision key, whose field
would take the next key typed as the name (C, then R: a reviewer called "r"). The bar
never takes the keyboard by itself: a decision key pressed before a name is chosen only
says where to type it (`ReviewPane._reviewer`).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout, QWidget

from zcf_inspector.core.formats import is_id
from zcf_inspector.gui.plain_text import plain_label
from zcf_inspector.gui.theme import Tone, ToneLabel

PROMPT = (
    "Who is reviewing? Your name goes into every decision and the receipt; it is "
    "remembered for this destination."
)
NAME_FIRST = "Type your reviewer name above the table and press Start Reviewing first."


class IdentityBar(QWidget):
    """The name field and its button; ``chosen`` carries a valid name."""

    chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prompt = ToneLabel(Tone.CAUTION, wrap=True, bold=True)
        self.prompt.setText(PROMPT)
        self.field = QLineEdit()
        self.field.setPlaceholderText("Reviewer name")
        self.field.setAccessibleName("Reviewer name")
        self.button = QPushButton("Start Reviewing")
        self.problem = plain_label(wrap=True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.field, 1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.prompt)
        layout.addLayout(row)
        layout.addWidget(self.problem)
        self.field.textChanged.connect(self._update)
        self.field.returnPressed.connect(self._choose)
        self.button.clicked.connect(self._choose)
        self._update()

    def offer(self, suggested: str) -> None:
        """Show the question, the field holding ``suggested`` (a name used elsewhere)."""
        if self.isHidden() or not self.field.text():
            self.field.setText(suggested)
        self.show()

    def _update(self) -> None:
        ok = is_id(self.field.text())
        self.button.setEnabled(ok)
        self.problem.setText("" if ok else "A name is 1-256 characters, none below U+0020.")

    def _choose(self) -> None:
        name = self.field.text()
        if is_id(name):
            self.chosen.emit(name)
