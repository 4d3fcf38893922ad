"""Tell the user's own column resizing from the window's: a header's sections are also
resized by the window (stretching, fitting to the width), and only what the user chose
should be remembered."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QHeaderView


class UserResizes(QObject):
    """Calls ``on_user_resize`` when a section is resized while the mouse is pressed on
    the header (a drag of a section's edge, or a double-click that fits it)."""

    def __init__(self, header: QHeaderView, on_user_resize: Callable[[], None]) -> None:
        super().__init__(header)
        self._pressed = False
        self._callback = on_user_resize
        header.viewport().installEventFilter(self)
        header.sectionResized.connect(self._resized)

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick):
            self._pressed = True
        elif kind == QEvent.Type.MouseButtonRelease:
            self._pressed = False
        return False

    def _resized(self, *_: object) -> None:
        if self._pressed:
            self._callback()
