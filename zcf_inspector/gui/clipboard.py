"""Copy actions on a node: value, key, JSON pointer, canonical JSON, digest.

Key and pointer are copied at once; value, canonical JSON and digest of a node may be
megabytes, so they are made on a worker and copied when ready.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from PySide6.QtGui import QGuiApplication, QKeySequence

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.gui.canonical_bytes import canonical_form, value_text


class CopyKind(StrEnum):
    VALUE = "Copy Value"
    KEY = "Copy Key"
    POINTER = "Copy JSON Pointer"
    CANONICAL = "Copy Canonical JSON"
    DIGEST = "Copy Digest (SHA-256 of the canonical bytes)"


_SHORTCUTS = {
    CopyKind.VALUE: "Ctrl+C",
    CopyKind.KEY: "Ctrl+Shift+K",
    CopyKind.POINTER: "Ctrl+Shift+C",
    CopyKind.CANONICAL: "Ctrl+Alt+C",
    CopyKind.DIGEST: "Ctrl+Shift+D",
}


def shortcut(kind: CopyKind) -> QKeySequence:
    return QKeySequence(_SHORTCUTS[kind])


def set_clipboard(text: str) -> None:
    clipboard = QGuiApplication.clipboard()
    clipboard.setText(text)


def slow_copy_work(kind: CopyKind, pointer: str, value: JsonValue) -> Callable[[Monitor], str]:
    """The worker function for the copies that may take long."""

    def work(monitor: Monitor) -> str:
        if kind is CopyKind.VALUE:
            monitor.step("encoding", 0.0)
            return value_text(value)
        form = canonical_form(pointer, value, monitor)
        return form.text if kind is CopyKind.CANONICAL else form.digest

    return work
