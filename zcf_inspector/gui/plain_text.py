"""Packet strings as plain, visible text: nothing hidden, nothing interpreted.

Every string from a document is shown through these helpers and then only in plain-text
widgets (``Qt.TextFormat.PlainText`` labels, item views, plain-text editors). Characters
that would hide or reorder text are escaped by the core's one rule
(`zcf_inspector.core.visible_text`), which the CLI uses too.
"""

from __future__ import annotations

import html
import json
from decimal import Decimal
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QTabWidget, QWidget

from zcf_inspector.core.exact_numbers import number_text
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.jsontypes import json_type_name as type_name
from zcf_inspector.core.secrets.masking import masked_clip, masked_shown, masked_visible
from zcf_inspector.core.visible_text import clip, shown, visible, visible_lines
from zcf_inspector.gui.plain_tooltip import TOOLTIP_CHARS, set_plain_tooltip

__all__ = [
    "ONE_LINE_CHARS",
    "PREVIEW_CHARS",
    "TOOLTIP_CHARS",
    "ElidedLabel",
    "clip",
    "masked_shown",
    "masked_visible",
    "plain_label",
    "plain_tip",
    "preview",
    "scalar_json",
    "set_tab_tooltip",
    "set_tooltip",
    "shown",
    "type_name",
    "visible",
    "visible_lines",
]

PREVIEW_CHARS: Final = 240
ONE_LINE_CHARS: Final = 120  # of a single-line preview (`shown(text, ONE_LINE_CHARS)`)


def preview(value: JsonValue, limit: int = PREVIEW_CHARS) -> str:
    """One line for the value column: strings quoted, containers as a count."""
    if isinstance(value, dict):
        return f"{{{len(value):,}}}"
    if isinstance(value, list):
        return f"[{len(value):,}]"
    if isinstance(value, str):
        return '"' + visible(masked_clip(value, limit)) + '"'
    return scalar_json(value)


def scalar_json(value: JsonValue) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int | Decimal):
        # Exact, whatever its size (a continuation document's numbers are never rounded).
        return number_text(value)
    return json.dumps(value, ensure_ascii=False)


# Qt's own tooltips guess rich text (``Qt::mightBeRichText``): a name like "<b>x</b>.json"
# would render as HTML. A tooltip made here IS rich text, with the text escaped inside, so
# Qt shows it literally, line breaks and spaces kept.
TIP_START: Final = "<p style='white-space:pre-wrap'>"
TIP_END: Final = "</p>"


def plain_tip(text: str) -> str:
    """``text`` as a tooltip Qt shows literally: cut to `TOOLTIP_CHARS`, characters that
    hide or reorder text escaped (`visible_lines`), then HTML-escaped and wrapped."""
    return TIP_START + html.escape(visible_lines(clip(text, TOOLTIP_CHARS))) + TIP_END


def set_tooltip(target: QWidget | QAction, text: str) -> None:
    """Every tooltip and status tip of the window goes through here (or through
    `plain_tooltip` for item views); an empty text clears it."""
    target.setToolTip(plain_tip(text) if text else "")


def set_tab_tooltip(tabs: QTabWidget, index: int, text: str) -> None:
    tabs.setTabToolTip(index, plain_tip(text) if text else "")


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


class ElidedLabel(QLabel):
    """A one-line plain-text label that shrinks with its window, eliding in the middle
    (a file path keeps its folder's start and its name); the whole text is its (plain)
    tooltip and what ``full_text`` returns."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.full_text = ""
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        # A plain-text tooltip: QToolTip would render a name like "<b>x</b>.json" as HTML.
        set_plain_tooltip(self, text)
        self._elide()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = self.width()
        shown = self.fontMetrics().elidedText(
            self.full_text, Qt.TextElideMode.ElideMiddle, max(width, 40)
        )
        if shown != self.text():
            QLabel.setText(self, shown)
