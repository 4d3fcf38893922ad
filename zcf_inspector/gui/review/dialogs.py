"""The review pane's dialogs, behind one `Prompter` so tests can answer them in order.

Every message box uses plain text: its text carries packet strings and file paths.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.formats import is_id
from zcf_inspector.core.hostile.scan import text_hit
from zcf_inspector.gui.dialog_keys import add_submit_keys
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.plain_text import ONE_LINE_CHARS, masked_shown, plain_label, visible_lines
from zcf_inspector.gui.review.close_question import CloseAnswer, ask_close
from zcf_inspector.gui.review.previous_dialog import OpenFile, PreviousGenerationDialog
from zcf_inspector.gui.review.settings import load_identity, save_identity


def note_text(editor: QPlainTextEdit) -> str:
    """The note as typed or pasted: ``toPlainText`` turns a pasted U+2028 LINE SEPARATOR
    into a line feed; the raw text keeps it (a paragraph break, Enter, is a line feed)."""
    return editor.document().toRawText().replace("\u2029", "\n")


def kept_words(note: str) -> str:
    """What a note holding hidden characters says under its editor: kept as given, and
    how it reads escaped (the editor itself draws a line separator as a line break)."""
    hidden = text_hit(note, "")
    if hidden is None or not hidden.first:
        return ""
    return (
        f"Kept as given, with a character a reader cannot see ({hidden.first}); "
        f"escaped, the note reads: {visible_lines(note)}"
    )


class NoteDialog(QDialog):
    """A note for a decision; OK stays disabled while a required note is blank.

    Keys: type the note (Enter is a new line), Ctrl+Enter submits, Esc cancels.
    """

    def __init__(
        self, parent: QWidget | None, title: str, prompt: str, initial: str, *, required: bool
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.required = required
        self.editor = QPlainTextEdit()
        self.editor.setPlainText(initial)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        # The prompt may quote the packet (a ref, a reviewer): shown by the one text rule.
        layout.addWidget(plain_label(visible_lines(prompt), wrap=True, selectable=True))
        layout.addWidget(self.editor)
        self.kept = plain_label(wrap=True, selectable=True)  # what a hidden character is
        layout.addWidget(self.kept)
        layout.addWidget(plain_label("Ctrl+Enter records it, Esc cancels."))
        layout.addWidget(self.buttons)
        self.editor.textChanged.connect(self._update)
        self.editor.moveCursor(self.editor.textCursor().MoveOperation.End)
        self.editor.setFocus()
        add_submit_keys(self)
        self._update()

    def note(self) -> str:
        return note_text(self.editor)

    def _update(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        note = self.note()
        ok.setEnabled(not self.required or bool(note.strip()))
        self.kept.setText(kept_words(note))
        self.kept.setVisible(bool(self.kept.text()))


class SupersedeDialog(QDialog):
    """Pick the belief that replaces ``ref`` from the packet, and say why (required).

    Keys: type to filter, Up/Down pick a belief (from the filter too), Tab to the note,
    Ctrl+Enter submits, Esc cancels.
    """

    def __init__(
        self,
        parent: QWidget | None,
        ref: str,
        candidates: Sequence[tuple[str, str]],
        initial_note: str,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Supersede belief")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter beliefs")
        self.choices = QListWidget()
        for candidate_ref, content in candidates:
            item = QListWidgetItem(
                f"{masked_shown(candidate_ref, ONE_LINE_CHARS)} — {masked_shown(content, 80)}"
            )
            item.setData(Qt.ItemDataRole.UserRole, candidate_ref)
            self.choices.addItem(item)
        self.editor = QPlainTextEdit()
        self.editor.setPlainText(initial_note)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label(
                f"Which belief replaces {masked_shown(ref, ONE_LINE_CHARS)}?",
                wrap=True,
                selectable=True,
            )
        )
        layout.addWidget(self.search)
        layout.addWidget(self.choices)
        layout.addWidget(plain_label("Note (required):", wrap=True, selectable=True))
        layout.addWidget(self.editor)
        layout.addWidget(plain_label("Ctrl+Enter records it, Esc cancels."))
        layout.addWidget(self.buttons)
        self.search.textChanged.connect(self._filter)
        self.search.installEventFilter(self)
        self.choices.currentItemChanged.connect(self._update)
        self.editor.textChanged.connect(self._update)
        self.setTabOrder(self.search, self.choices)
        self.setTabOrder(self.choices, self.editor)
        self.search.setFocus()
        add_submit_keys(self)
        self._update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        """Up and Down in the filter move the pick in the list, as in a completer."""
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self._step(-1 if event.key() == Qt.Key.Key_Up else 1)
                return True
        return super().eventFilter(watched, event)

    def _step(self, delta: int) -> None:
        shown = [r for r in range(self.choices.count()) if not self.choices.item(r).isHidden()]
        if not shown:
            return
        current = self.choices.currentRow()
        if current not in shown:
            self.choices.setCurrentRow(shown[0] if delta > 0 else shown[-1])
            return
        position = min(max(shown.index(current) + delta, 0), len(shown) - 1)
        self.choices.setCurrentRow(shown[position])

    def replacement(self) -> str | None:
        item = self.choices.currentItem()
        if item is None or item.isHidden():
            return None
        value = item.data(Qt.ItemDataRole.UserRole)
        return value if isinstance(value, str) else None

    def note(self) -> str:
        return note_text(self.editor)

    def select(self, ref: str) -> None:
        for row in range(self.choices.count()):
            if self.choices.item(row).data(Qt.ItemDataRole.UserRole) == ref:
                self.choices.setCurrentRow(row)

    def _filter(self, text: str) -> None:
        needle = text.casefold()
        for row in range(self.choices.count()):
            item = self.choices.item(row)
            item.setHidden(needle not in item.text().casefold())
        current = self.choices.currentItem()
        if needle and (current is None or current.isHidden()):
            self._step(1)  # the first match, so Tab and Ctrl+Enter need no arrow key
        self._update()

    def _update(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(self.replacement() is not None and bool(self.note().strip()))


KEY_FILE_LABEL = "Your public key file (optional)"
KEY_FILE_HELP = (
    "Only used to warn you when you review a packet signed with this key (self-review). "
    "Receipts are not signed with it: the destination's signingKey signs them "
    "(Settings shows that key)."
)


class ReviewerSettingsDialog(QDialog):
    """The reviewer's name (an id) and optional key file, kept in ``settings``."""

    def __init__(self, parent: QWidget | None, settings: QSettings, scope: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Reviewer identity")
        self.settings = settings
        self.scope = scope  # the destination it is kept for (`settings.identity_scope`)
        identity = load_identity(settings, scope)
        self.name = QLineEdit(identity.name)
        self.key_file = QLineEdit(identity.key_file)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_file)
        key_row.addWidget(browse)
        self.problem = plain_label(wrap=True, selectable=True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._save)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Reviewer name", self.name)
        form.addRow(KEY_FILE_LABEL, key_row)
        form.addRow(plain_label(KEY_FILE_HELP, wrap=True))
        form.addRow(self.problem)
        form.addRow(self.buttons)
        self.name.textChanged.connect(self._update)
        add_submit_keys(self)
        self._update()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Your public key file (for the self-review warning)", "", "Key files (*.json)"
        )
        if path:
            self.key_file.setText(path)

    def _update(self) -> None:
        name = self.name.text()
        hidden = text_hit(name, "")
        if not is_id(name):
            problem = "The name must be 1-256 characters, none below U+0020."
        elif hidden is not None and hidden.first:
            # Refused, never changed: a reviewer name others read on every receipt.
            problem = (
                f"The name holds a character a reader cannot see ({hidden.first}): "
                f"{masked_shown(name, ONE_LINE_CHARS)} — type it without."
            )
        else:
            problem = ""
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    def _save(self) -> None:
        save_identity(self.settings, self.name.text(), self.key_file.text().strip(), self.scope)
        self.accept()


class Prompter:
    """Every question the pane asks. Subclass it to answer without a human (tests)."""

    # Every dialog is parented (so it is modal over the pane) and deleted once answered,
    # so a long review does not pile up hidden dialogs under the pane.

    def confirm(self, parent: QWidget, title: str, text: str) -> bool:
        box = message_box(parent, QMessageBox.Icon.Question, title, text, question=True)
        with _disposed(box):
            return box.exec() == QMessageBox.StandardButton.Yes

    def inform(self, parent: QWidget, title: str, text: str) -> None:
        box = message_box(parent, QMessageBox.Icon.Information, title, text, question=False)
        with _disposed(box):
            box.exec()

    def warn(self, parent: QWidget, title: str, text: str) -> None:
        box = message_box(parent, QMessageBox.Icon.Warning, title, text, question=False)
        with _disposed(box):
            box.exec()

    def ask_note(
        self, parent: QWidget, title: str, prompt: str, initial: str, *, required: bool
    ) -> str | None:
        dialog = NoteDialog(parent, title, prompt, initial, required=required)
        with _disposed(dialog):
            return dialog.note() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def ask_replacement(
        self, parent: QWidget, ref: str, candidates: Sequence[tuple[str, str]], initial_note: str
    ) -> tuple[str, str] | None:
        dialog = SupersedeDialog(parent, ref, candidates, initial_note)
        with _disposed(dialog):
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            replacement = dialog.replacement()
            return None if replacement is None else (replacement, dialog.note())

    def ask_save_path(self, parent: QWidget, suggested: str) -> str | None:
        # The pane asks before replacing a file itself, so the answer is the same everywhere.
        path, _ = QFileDialog.getSaveFileName(
            parent,
            "Export receipt",
            suggested,
            "Receipts (*.json)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        return path or None

    def ask_previous(
        self, parent: QWidget, packets: Sequence[OpenFile], receipts: Sequence[OpenFile]
    ) -> tuple[str, str] | None:
        """The previous generation's packet and its receipt (paths), or None."""
        dialog = PreviousGenerationDialog(parent, packets, receipts)
        with _disposed(dialog):
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            packet, receipt = dialog.chosen()
            return (packet, receipt) if packet and receipt else None

    def ask_close(self, parent: QWidget, text: str) -> CloseAnswer:
        """Before closing a review with unexported decisions (`close_question`)."""
        return ask_close(parent, text)

    def ask_identity(self, parent: QWidget, settings: QSettings, scope: str = "") -> bool:
        dialog = ReviewerSettingsDialog(parent, settings, scope)
        with _disposed(dialog):
            return dialog.exec() == QDialog.DialogCode.Accepted


@contextlib.contextmanager
def _disposed(dialog: QDialog) -> Iterator[None]:
    try:
        yield
    finally:
        dialog.deleteLater()
