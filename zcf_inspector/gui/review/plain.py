"""Packet strings shown as plain text only: never interpreted as rich text, never hidden."""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

PREVIEW_CHARS = 120
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})


def one_line(text: str, limit: int = PREVIEW_CHARS) -> str:
    """A single-line preview: newlines, controls and bidi marks shown as escapes."""
    clipped = text if len(text) <= limit else text[:limit] + "…"
    if clipped.isprintable():
        return clipped
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in _HIDDEN else c for c in clipped)


def plain_label(text: str = "", *, wrap: bool = True) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    label.setText(text)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
