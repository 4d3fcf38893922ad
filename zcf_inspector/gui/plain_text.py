"""Packet strings as plain, visible text: nothing hidden, nothing interpreted.

Every string from a document is shown through these helpers and then only in plain-text
widgets (``Qt.TextFormat.PlainText`` labels, item views, plain-text editors). Characters
that would hide or reorder text — controls, bidi overrides, zero-width characters, line
and paragraph separators — are shown as ``\\uXXXX`` escapes in previews.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from zcf_inspector.core.jsontypes import JsonValue

_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})
_SHORT_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
PREVIEW_CHARS: Final = 240
TOOLTIP_CHARS: Final = 4000


def visible(text: str) -> str:
    """``text`` with every invisible or reordering character written as an escape."""
    if text.isprintable():
        return text
    out: list[str] = []
    for char in text:
        if char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif unicodedata.category(char) in _HIDDEN_CATEGORIES or (
            unicodedata.category(char) == "Zs" and char != " "
        ):
            out.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
        else:
            out.append(char)
    return "".join(out)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def preview(value: JsonValue, limit: int = PREVIEW_CHARS) -> str:
    """One line for the value column: strings quoted, containers as a count."""
    if isinstance(value, dict):
        return f"{{{len(value):,}}}"
    if isinstance(value, list):
        return f"[{len(value):,}]"
    if isinstance(value, str):
        return '"' + visible(clip(value, limit)) + '"'
    return scalar_json(value)


def scalar_json(value: JsonValue) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def type_name(value: JsonValue) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "null"


def plain_label(text: str = "", *, wrap: bool = False, selectable: bool = False) -> QLabel:
    """A QLabel that can never interpret its text as HTML."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(wrap)
    if selectable:
        label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
    return label
