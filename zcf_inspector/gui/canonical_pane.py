"""The canonical-bytes pane: the selected node's exact ZCF-JSON-v1 bytes (text and hex)
and their SHA-256, computed on a worker so a large node never blocks the window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.gui.canonical_bytes import TEXT_SHOWN, CanonicalForm, canonical_form
from zcf_inspector.gui.plain_text import plain_label, visible

# (label, work, on_done): how the pane asks for background work (the window's TaskRunner)
Runner = Callable[[str, Callable[[Monitor], Any], Callable[[Any], None]], object]


class CanonicalPane(QWidget):
    def __init__(self, run: Runner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._run = run
        self._generation = 0
        self.form: CanonicalForm | None = None
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.pointer = QLineEdit()
        self.size_label = plain_label(selectable=True)
        self.digest = QLineEdit()
        for field in (self.pointer, self.digest):
            field.setReadOnly(True)
            field.setFont(mono)
        self.text = QPlainTextEdit()
        self.hex = QPlainTextEdit()
        for view in (self.text, self.hex):
            view.setReadOnly(True)
            view.setFont(mono)
        self.hex.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.views.addTab(self.text, "Text")
        self.views.addTab(self.hex, "Hex")
        form = QFormLayout()
        form.addRow("Pointer:", self.pointer)
        form.addRow("SHA-256:", self.digest)
        form.addRow("Size:", self.size_label)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.views, 1)
        self.clear()

    def clear(self) -> None:
        self._generation += 1
        self.form = None
        self.pointer.clear()
        self.digest.clear()
        self.size_label.setText("Select a node in the tree.")
        self.text.clear()
        self.hex.clear()

    def show_node(self, pointer: str, value: JsonValue) -> None:
        self._generation += 1
        generation = self._generation
        self.form = None
        self.pointer.setText(visible(pointer) or "/")
        self.digest.setText("computing…")
        self.size_label.setText("")
        self.text.clear()
        self.hex.clear()

        def done(result: object) -> None:
            if generation == self._generation and isinstance(result, CanonicalForm):
                self._show(result)

        self._run("canonical bytes", lambda monitor: canonical_form(pointer, value, monitor), done)

    def _show(self, form: CanonicalForm) -> None:
        self.form = form
        self.digest.setText(form.digest)
        size = len(form.data)
        shown = "" if size <= TEXT_SHOWN else f" — the views show the first {TEXT_SHOWN:,}"
        self.size_label.setText(f"{size:,} bytes{shown}")
        self.text.setPlainText(form.shown_text)
        self.hex.setPlainText(form.shown_hex)
