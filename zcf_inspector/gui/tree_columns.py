"""The tree's columns at any width: Key, Value, Type, Status and Digest, with Status
never lost.

Until the user sizes a column, the columns follow the tree's width: Key and Status get a
share each, Type its word, Digest its short form, and Value the rest (elided), so at
1024x700 the status column stays in view. Once the user drags a column, those widths are
kept — and remembered in the window's settings for the next tab and the next start. At
any widths, when the tree is narrow Digest and then Type step aside (Copy Digest and a
value's preview still give them) and come back when it is wide enough again.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHeaderView, QTreeView

from zcf_inspector.gui.header_drag import UserResizes
from zcf_inspector.gui.packet_tree_model import (
    DIGEST_COLUMN,
    KEY_COLUMN,
    STATUS_COLUMN,
    TYPE_COLUMN,
    VALUE_COLUMN,
)

WIDTHS_KEY = "layout/treeColumns"
COLUMNS = 5
KEY_SHARE, KEY_MIN, KEY_MAX = 0.3, 90, 240
STATUS_SHARE, STATUS_MIN, STATUS_MAX = 0.26, 80, 240
TYPE_SAMPLE = "boolean"
DIGEST_SAMPLE = "4f53cda18c2b…02b945"  # as short_digest writes one
HIDE_DIGEST_BELOW = 620  # px of tree: Digest steps aside first (Copy Digest still works)
HIDE_TYPE_BELOW = 380  # then Type (a value's preview shows its type)


def _clamp(value: float, low: int, high: int) -> int:
    return int(min(max(value, low), high))


def load_widths(store: QSettings) -> list[int] | None:
    value = store.value(WIDTHS_KEY)
    parts = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    try:
        widths = [int(p) for p in parts]
    except ValueError:
        return None
    return widths if len(widths) == COLUMNS and all(w >= 0 for w in widths) else None


class TreeColumns(QObject):
    """Sizes one tree's columns; ``apply`` after every model change."""

    def __init__(self, tree: QTreeView, store: QSettings) -> None:
        super().__init__(tree)
        self.tree = tree
        self.store = store
        self.remembered = load_widths(store)  # None: follow the width
        self._applying = False
        self._alive = True
        # The tree's children go after its own destructor ran: stop before that.
        tree.destroyed.connect(self._tree_gone)
        tree.viewport().installEventFilter(self)  # its Resize carries the width to fit
        self._user = UserResizes(tree.header(), self._user_resized)

    def _tree_gone(self) -> None:
        self._alive = False

    def apply(self) -> None:
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(VALUE_COLUMN, QHeaderView.ResizeMode.Stretch)
        header.setTextElideMode(self.tree.textElideMode())
        self.fit()

    def natural(self, width: int) -> list[int]:
        """The widths for a tree ``width`` pixels wide (Value: 0, it stretches)."""
        metrics = self.tree.fontMetrics()
        return [
            _clamp(width * KEY_SHARE, KEY_MIN, KEY_MAX),
            0,
            metrics.horizontalAdvance(TYPE_SAMPLE) + 18,
            _clamp(width * STATUS_SHARE, STATUS_MIN, STATUS_MAX),
            metrics.horizontalAdvance(DIGEST_SAMPLE) + 24,
        ]

    def fit(self, width: int | None = None) -> None:
        """The remembered widths, or the natural ones for the tree's width now; at any
        width Digest, then Type, step aside when the tree is too narrow for them (never
        for good: they come back when it is wide enough)."""
        width = self.tree.viewport().width() if width is None else width
        if width <= 0:
            return
        widths = list(self.remembered) if self.remembered is not None else self.natural(width)
        self._set(widths, hide_type=width < HIDE_TYPE_BELOW, hide_digest=width < HIDE_DIGEST_BELOW)

    def _set(self, widths: list[int], *, hide_type: bool, hide_digest: bool) -> None:
        self._applying = True
        try:
            for column in (KEY_COLUMN, TYPE_COLUMN, STATUS_COLUMN, DIGEST_COLUMN):
                self.tree.setColumnWidth(column, widths[column])
            self.tree.setColumnHidden(TYPE_COLUMN, hide_type)
            self.tree.setColumnHidden(DIGEST_COLUMN, hide_digest)
        finally:
            self._applying = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if self._alive and event.type() == QEvent.Type.Resize and isinstance(event, QResizeEvent):
            self.fit(event.size().width())
        return False

    def _user_resized(self) -> None:
        if self._alive and not self._applying:
            self.remember()

    def remember(self) -> None:
        """Keep the widths as they are now (the user sized a column); a column that has
        stepped aside keeps the width it had."""
        natural = self.natural(self.tree.viewport().width())
        widths = [
            (self.remembered or natural)[c]
            if self.tree.isColumnHidden(c)
            else self.tree.columnWidth(c)
            for c in range(COLUMNS)
        ]
        widths[VALUE_COLUMN] = 0  # it stretches
        self.remembered = widths
        self.store.setValue(WIDTHS_KEY, [str(w) for w in widths])
