"""The full value of one node, one click away from its elided preview in the tree.

The tree shows the first `PREVIEW_CHARS` of a string; this viewer shows all of it (up to
`VIEW_MAX_CHARS`) and its Copy button copies the exact value. Qt lays a text block out
as a whole, and a multi-megabyte block without line breaks stalls the UI thread for
seconds, so the view breaks long lines every `VIEW_LINE_CHARS` characters (display only).
Hidden and reordering characters are shown as escapes, as everywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.gui.canonical_bytes import value_text
from zcf_inspector.gui.clipboard import set_clipboard
from zcf_inspector.gui.dialog_keys import add_submit_keys
from zcf_inspector.gui.plain_text import plain_label, type_name, visible

VIEW_LINE_CHARS: Final = 1000
VIEW_MAX_CHARS: Final = 16_000_000  # about 0.2 s of layout; Copy still copies everything
_STEP_CHARS: Final = 1_000_000  # how often the worker reports progress (and may be cancelled)


@dataclass(frozen=True, slots=True)
class FullValue:
    pointer: str
    kind: str  # "string", "object", …
    exact: str  # what Copy puts on the clipboard: the value itself
    shown: str  # what the viewer shows
    note: str  # how `shown` differs from `exact`, if it does


def full_value(pointer: str, value: JsonValue, monitor: Monitor) -> FullValue:
    """Worker side: the exact text and its display form."""
    monitor.step("preparing the full value", 0.0)
    exact = value_text(value)
    shown = exact[:VIEW_MAX_CHARS]
    pieces: list[str] = []
    done = since_step = 0
    broken = False
    for line in shown.split("\n"):
        broken = broken or len(line) > VIEW_LINE_CHARS
        for start in range(0, max(len(line), 1), VIEW_LINE_CHARS):
            piece = line[start : start + VIEW_LINE_CHARS]
            pieces.append(visible(piece))
            since_step += len(piece)
            if since_step >= _STEP_CHARS:
                done += since_step
                since_step = 0
                monitor.step("preparing the full value", done / len(shown))
    notes = []
    if len(exact) > VIEW_MAX_CHARS:
        notes.append(
            f"Showing the first {VIEW_MAX_CHARS:,} of {len(exact):,} characters; "
            "Copy Value copies all of them."
        )
    if broken:
        notes.append(f"Lines longer than {VIEW_LINE_CHARS:,} characters are broken for display.")
    return FullValue(pointer, type_name(value), exact, "\n".join(pieces), " ".join(notes))


class FullValueDialog(QDialog):
    """A read-only, plain-text view of one value, with Copy."""

    def __init__(self, value: FullValue, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.value = value
        self.setWindowTitle(f"Full value — {visible(value.pointer or '/')}")
        self.resize(820, 560)
        self.summary = plain_label(
            f"{visible(value.pointer or '/')} — {value.kind}, {len(value.exact):,} characters",
            selectable=True,
        )
        self.note = plain_label(value.note, wrap=True)
        self.note.setVisible(bool(value.note))
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlainText(value.shown)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton("Copy Value", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(lambda: set_clipboard(value.exact))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.note)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        add_submit_keys(self)
