"""A refusal at the byte stage: code, message, offset, and the raw bytes around it."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QFormLayout, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget

from zcf_inspector.core.reading import ReadError
from zcf_inspector.gui.canonical_bytes import hex_dump
from zcf_inspector.gui.plain_text import plain_label, visible

RADIUS = 48


def excerpt(data: bytes, offset: int, radius: int = RADIUS) -> tuple[str, int]:
    """One line of text around ``offset`` (escaped, so nothing hides or reorders) and
    the column of the byte at ``offset`` in it."""
    start = max(0, offset - radius)
    before = data[start:offset].decode("utf-8", errors="backslashreplace")
    after = data[offset : offset + radius].decode("utf-8", errors="backslashreplace")
    lead = "…" if start > 0 else ""
    shown_before = lead + visible(before)
    return shown_before + visible(after) + ("…" if offset + radius < len(data) else ""), len(
        shown_before
    )


def excerpt_block(data: bytes, offset: int | None) -> str:
    if offset is None:
        return "(the reader gave no byte offset)"
    line, column = excerpt(data, offset)
    lines = [line, " " * column + "^ byte " + f"{offset:,}", ""]
    start = max(0, offset - 32) & ~0xF
    lines.append(f"bytes from {start:#x}:")
    lines.append(hex_dump(data[start : start + 96], limit=96, base=start))
    return "\n".join(lines)


class ByteRefusalPane(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.code = QLineEdit()
        self.offset = QLineEdit()
        self.pointer = QLineEdit()
        for field in (self.code, self.offset, self.pointer):
            field.setReadOnly(True)
            field.setFont(mono)
        self.message = plain_label(wrap=True, selectable=True)
        self.raw = QPlainTextEdit()
        self.raw.setReadOnly(True)
        self.raw.setFont(mono)
        self.raw.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        form = QFormLayout()
        form.addRow("Code:", self.code)
        form.addRow("Message:", self.message)
        form.addRow("Byte offset:", self.offset)
        form.addRow("Pointer:", self.pointer)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(plain_label("The raw text around the offset (escaped):"))
        layout.addWidget(self.raw, 1)

    def set_error(self, error: ReadError, data: bytes) -> None:
        self.code.setText(str(error.code))
        self.message.setText(visible(error.message))
        self.offset.setText("—" if error.offset is None else f"{error.offset:,}")
        self.pointer.setText(visible(error.pointer) if error.pointer else "—")
        self.raw.setPlainText(excerpt_block(data, error.offset))
