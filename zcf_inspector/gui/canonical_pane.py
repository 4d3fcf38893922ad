"""The canonical-bytes pane: the selected node's exact ZCF-JSON-v1 bytes (text and hex)
and their SHA-256, computed on a worker so a large node never blocks the window.

A node that holds a text the secret scan flagged shows its digest and size, but its bytes
only after the reviewer asks (Show bytes): selecting a node in the tree is not asking to
see a credential, and the tree shows the same text masked (issue 20).

Whether a node holds one is decided for the whole node, never from the part the views
show (the first `TEXT_SHOWN` characters): a flagged pointer under the node's pointer
(counted per ancestor once, when the document's flagged pointers are set, so a selection
costs a look-up), or — for the texts the packet scan does not read by pointer (an id, a
key, any text of a document with no packet scan) — a string or member name anywhere in
the node that the one masking step masks, all of the node's texts read in one scan on the
worker (issue 34, point 1)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.pointer import split
from zcf_inspector.core.secrets.masking import is_format_own, masked_count
from zcf_inspector.gui.canonical_bytes import TEXT_SHOWN, CanonicalForm, canonical_form
from zcf_inspector.gui.plain_text import masked_visible, plain_label

# (label, work, on_done): how the pane asks for background work (the window's TaskRunner)
Runner = Callable[[str, Callable[[Monitor], Any], Callable[[Any], None]], object]


def flagged_below(flagged: Collection[str]) -> dict[str, int]:
    """For each pointer, how many of the ``flagged`` pointers are it or lie under it (only
    pointers with at least one listed): one walk up each flagged pointer's ancestors, so
    linear in the flagged pointers' total length."""
    counts: dict[str, int] = {}
    for pointer in flagged:
        at = pointer
        while True:
            counts[at] = counts.get(at, 0) + 1
            if not at:
                break
            at = at[: at.rindex("/")]
    return counts


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
        self.flagged: frozenset[str] = frozenset()
        self._below: dict[str, int] = {}  # `flagged_below` of `flagged`
        self.held_back = plain_label(selectable=False)
        self.held_back.setWordWrap(True)
        self.reveal_button = QPushButton("Show bytes")
        self.reveal_button.setToolTip("Show this node's bytes, suspected credentials included")
        self.reveal_button.clicked.connect(self.reveal)
        form = QFormLayout()
        form.addRow("Pointer:", self.pointer)
        form.addRow("SHA-256:", self.digest)
        form.addRow("Size:", self.size_label)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.held_back)
        reveal_row = QHBoxLayout()
        reveal_row.addWidget(self.reveal_button)
        reveal_row.addStretch()
        layout.addLayout(reveal_row)
        layout.addWidget(self.views, 1)
        layout.addStretch()  # takes the views' room while the bytes are held back
        self.clear()

    def set_flagged(self, pointers: Collection[str]) -> None:
        """The pointers of the texts the secret scan flagged in the document shown."""
        self.flagged = frozenset(pointers)
        self._below = flagged_below(self.flagged)

    def holds_flagged(self, pointer: str) -> int:
        """How many of the flagged pointers are ``pointer`` or lie under it."""
        return self._below.get(pointer, 0)

    def clear(self) -> None:
        self._generation += 1
        self.form = None
        self.pointer.clear()
        self.digest.clear()
        self.size_label.setText("Select a node in the tree.")
        self.text.clear()
        self.hex.clear()
        self._hold(0)

    def show_node(self, pointer: str, value: JsonValue) -> None:
        self._generation += 1
        generation = self._generation
        self.form = None
        self.pointer.setText(masked_visible(pointer) or "/")
        self.digest.setText("computing…")
        self.size_label.setText("")
        self.text.clear()
        self.hex.clear()

        def done(result: object) -> None:
            if generation == self._generation and isinstance(result, tuple):
                form, unflagged = result
                if isinstance(form, CanonicalForm) and isinstance(unflagged, int):
                    self._show(form, unflagged)

        base = tuple(split(pointer)) if pointer else ()

        def format_own(path: tuple[str | int, ...]) -> bool:
            return is_format_own((*base, *path))  # a nonce, a signature: the format's own

        def work(monitor: Monitor) -> tuple[CanonicalForm, int]:
            form = canonical_form(pointer, value, monitor)
            # Every text of the node, read by the one masking step (not only the part the
            # views show): a credential the packet scan does not read by pointer (an id, a
            # key, a tool name) holds the bytes back too.
            monitor.step("looking for credentials", 0.9)
            return form, masked_count(value, format_own)

        self._run("canonical bytes", work, done)

    def _show(self, form: CanonicalForm, unflagged: int = 0) -> None:
        self.form = form
        self.digest.setText(form.digest)
        size = len(form.data)
        shown = "" if size <= TEXT_SHOWN else f" — the views show the first {TEXT_SHOWN:,}"
        self.size_label.setText(f"{size:,} bytes{shown}")
        # The larger count: a text the packet scan flagged is one the masking step masks.
        held = max(self.holds_flagged(form.pointer), unflagged)
        self._hold(held)
        if not held:
            self._fill()

    def focus_target(self) -> QWidget:
        """Where the keyboard goes in this pane: Show bytes while the bytes are held back."""
        if self.views.isHidden():
            return self.reveal_button
        current = self.views.currentWidget()
        return current if current is not None else self.views

    def reveal(self) -> None:
        """Show the held-back bytes of the node shown (an explicit action)."""
        if self.form is not None:
            self._hold(0)
            self._fill()
            self.focus_target().setFocus()  # the keyboard stays in the pane: on the bytes

    def _fill(self) -> None:
        assert self.form is not None
        self.text.setPlainText(self.form.shown_text)
        self.hex.setPlainText(self.form.shown_hex)

    def _hold(self, held: int) -> None:
        if held:
            self.held_back.setText(
                f"This node holds {held:,} text{'' if held == 1 else 's'} that may contain a "
                "credential: its bytes are hidden (the digest and size above are of them all)."
            )
        self.held_back.setVisible(bool(held))
        self.reveal_button.setVisible(bool(held))
        self.views.setVisible(not held)
