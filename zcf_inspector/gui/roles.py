"""Item data roles shared by the window's models."""

from __future__ import annotations

from PySide6.QtCore import Qt

_BASE = int(Qt.ItemDataRole.UserRole)

# Tooltip text for `plain_tooltip` (never Qt.ToolTipRole: Qt guesses rich text there).
PLAIN_TOOLTIP_ROLE = _BASE + 1
POINTER_ROLE = _BASE + 2  # the RFC 6901 pointer an item refers to (str or None)
SEVERITY_ROLE = _BASE + 3  # a finding's severity, for filtering
