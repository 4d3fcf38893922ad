"""Settings: the destination file (keys, trusted keys, capabilities, strict, limits) that
the window verifies with, exactly like ``validate --destination``, the public half of the
key that signs its receipts (to copy, or to export as a key file for
``receipt verify --key``), and the "Assess at" clock continuation reports are checked at,
exactly like ``plan --now``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.atomic import TargetExistsError, UnwritableFileError, write_atomic
from zcf_inspector.core.continuation.timestamps import TimestampError, parse_datetime
from zcf_inspector.core.formats import b64u_encode
from zcf_inspector.core.packet.destination import Destination, DestinationError, load_destination
from zcf_inspector.core.packet.receipt_keys import key_file_bytes, public_key_file, receipt_signer
from zcf_inspector.gui.clipboard import set_clipboard
from zcf_inspector.gui.dialog_keys import add_submit_keys
from zcf_inspector.gui.file_names import free_name, safe_part
from zcf_inspector.gui.messages import confirm
from zcf_inspector.gui.package_keys_box import PackageKeysBox
from zcf_inspector.gui.plain_text import plain_label, set_tooltip, visible, visible_lines


def clock_text(moment: datetime) -> str:
    """An RFC 3339 UTC spelling of ``moment``, as ``--now`` takes it."""
    text = moment.astimezone(UTC).isoformat()
    return text.replace("+00:00", "Z")


def describe_destination(destination: Destination) -> str:
    capabilities = ", ".join(sorted(destination.capabilities)) or "none"
    clock = destination.fixed_now.isoformat() if destination.fixed_now else "system clock"
    lines = [
        f"installation key id: {visible(destination.installation_key_id)}",
        f"installation key: {'set' if destination.installation_key else 'not set'}",
        f"source installation keys: {len(destination.source_installation_keys)}",
        f"trusted keys: {len(destination.trusted_keys)}",
        f"capabilities: {capabilities}",
        f"strict: {'yes' if destination.strict else 'no'}; "
        f"refuse unsigned: {'yes' if destination.refuse_unsigned else 'no'}",
        f"limits: {destination.max_beliefs:,} beliefs, {destination.max_belief_bytes:,} bytes each",
        f"clock: {clock}",
        f"receipt signing key: {'set' if destination.signing_key else 'not set'}",
    ]
    return "\n".join(lines)


def _ask_save_path(parent: QWidget, suggested: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(
        parent,
        "Export the receipt signing key (public)",
        suggested,
        "Key files (*.json)",
        options=QFileDialog.Option.DontConfirmOverwrite,  # asked below, the same everywhere
    )
    return path or None


WIDTH = 560  # the dialog's width where the screen allows it


class SettingsDialog(QDialog):
    """Choose a destination file and the "Assess at" clock; OK only when both are usable."""

    statusMessage = Signal(str)  # noqa: N815 - for the window's status bar

    def __init__(
        self,
        current: str | None,
        parent: QWidget | None = None,
        *,
        assess_at: datetime | None = None,
        restore: bool = True,
        package_keys: list[str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.package_keys_box = PackageKeysBox(package_keys or [])
        # Issue 31: the last session's tabs reopened at a bare start (`session_restore`).
        self.restore_box = QCheckBox("Reopen the last session's tabs when the window starts")
        self.restore_box.setChecked(restore)
        self.setMinimumWidth(WIDTH)
        # Replaceable, so tests answer without a native dialog.
        self.ask_save_path: Callable[[QWidget, str], str | None] = _ask_save_path
        self.confirm: Callable[[QWidget, str, str], bool] = confirm
        self.destination: Destination | None = None
        self._destination_ok = True
        self._clock: datetime | None = assess_at
        self._clock_ok = True
        self.path = QLineEdit(current or "")
        self.path.setPlaceholderText("none — MACs cannot be verified, policy is not checked")
        browse = QPushButton("Browse…")
        clear = QPushButton("None")
        browse.clicked.connect(self._browse)
        clear.clicked.connect(self.path.clear)
        self.status = plain_label(wrap=True, selectable=True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        row.addWidget(clear)
        # Issue 31: the settings scroll inside the dialog rather than clip their wrapped
        # text, at 1024x700 and at 200% (a destination's description is long).
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(content)
        outer = QVBoxLayout(self)
        outer.addWidget(self.scroll_area, 1)
        layout.addWidget(
            plain_label(
                "Destination file (profile §6): the installation keys, trusted signing keys, "
                "capabilities, strictness and limits to verify with — as validate --destination.",
                wrap=True,
            )
        )
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self._receipt_key_box())
        layout.addWidget(self._clock_box(assess_at))
        layout.addWidget(self.package_keys_box)
        layout.addWidget(self.restore_box)
        layout.addStretch(1)
        outer.addWidget(self.buttons)
        self.path.textChanged.connect(self._validate)
        add_submit_keys(self)
        self._validate(self.path.text())
        self._clock_changed()
        # As tall as its content wants, never past the screen (then it scrolls).
        screen = self.screen().availableGeometry()
        width = min(WIDTH, int(screen.width() * 0.95))
        self.setMinimumWidth(width)
        wanted = content.heightForWidth(width) if content.hasHeightForWidth() else -1
        wanted = max(wanted, content.sizeHint().height()) + self.buttons.sizeHint().height() + 32
        self.resize(width, min(wanted, int(screen.height() * 0.9)))

    def _clock_box(self, assess_at: datetime | None) -> QGroupBox:
        box = QGroupBox("Continuation reports")
        self.use_now = QCheckBox("Assess at the current time")
        self.use_now.setChecked(assess_at is None)
        self.clock_edit = QLineEdit("" if assess_at is None else clock_text(assess_at))
        self.clock_edit.setPlaceholderText("2026-09-26T12:30:00Z")
        set_tooltip(
            self.clock_edit,
            "An RFC 3339 date-time with an offset, as plan --now takes it: an archived "
            "report is checked as of its own time.",
        )
        self.clock_status = plain_label(wrap=True)
        row = QHBoxLayout()
        row.addWidget(plain_label("Assess at:"))
        row.addWidget(self.clock_edit, 1)
        inner = QVBoxLayout(box)
        inner.addWidget(
            plain_label(
                "The clock a destination report's validity window is checked at "
                "(assessed_at ≤ clock < expires_at), the same as plan --now. It is kept "
                "for this window only.",
                wrap=True,
            )
        )
        inner.addWidget(self.use_now)
        inner.addLayout(row)
        inner.addWidget(self.clock_status)
        self.use_now.toggled.connect(self._clock_changed)
        self.clock_edit.textChanged.connect(self._clock_changed)
        return box

    def chosen_clock(self) -> datetime | None:
        """The clock to assess at: None for the current time."""
        return self._clock

    def _clock_changed(self, *_: object) -> None:
        now = self.use_now.isChecked()
        self.clock_edit.setEnabled(not now)
        if now:
            self._clock, self._clock_ok = None, True
            self.clock_status.setText("Reports are checked at the current time.")
        else:
            try:
                self._clock = parse_datetime(self.clock_edit.text().strip())
                self._clock_ok = True
                self.clock_status.setText(f"Reports are checked as of {clock_text(self._clock)}.")
            except TimestampError as exc:
                self._clock, self._clock_ok = None, False
                self.clock_status.setText(f"Not a clock plan --now would take: {exc}")
        self._update_ok()

    def _update_ok(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(self._destination_ok and self._clock_ok)

    def _receipt_key_box(self) -> QGroupBox:
        box = QGroupBox("Receipt signing key")
        self.signing_note = plain_label(wrap=True, selectable=True)
        self.public_key = QLineEdit()
        self.public_key.setReadOnly(True)
        self.public_key.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.public_key.setAccessibleName("Public key that verifies this destination's receipts")
        self.copy_key = QPushButton("Copy")
        set_tooltip(self.copy_key, "Copy the public key (base64url) to the clipboard")
        self.export_key = QPushButton("Export…")
        set_tooltip(
            self.export_key, "Write a public key file for zcf-inspector receipt verify --key"
        )
        self.copy_key.clicked.connect(self.copy_public_key)
        self.export_key.clicked.connect(self.export_public_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.public_key, 1)
        key_row.addWidget(self.copy_key)
        key_row.addWidget(self.export_key)
        self.key_status = plain_label(wrap=True, selectable=True)
        inner = QVBoxLayout(box)
        inner.addWidget(self.signing_note)
        inner.addLayout(key_row)
        inner.addWidget(self.key_status)
        return box

    def _show_receipt_key(self) -> None:
        destination = self.destination
        signer = None if destination is None else receipt_signer(destination)
        key = None if signer is None else signer.public_key
        self.public_key.setText("" if key is None else b64u_encode(key))
        self.copy_key.setEnabled(key is not None)
        self.export_key.setEnabled(key is not None)
        self.key_status.setText("")
        if signer is None:
            self.signing_note.setText("No destination: nothing signs receipts.")
        elif signer.fingerprint is None:
            self.signing_note.setText(
                f"{signer.describe()[:1].upper()}{signer.describe()[1:]}. Add a signingKey to "
                "the destination file to sign them."
            )
        else:
            self.signing_note.setText(
                "Receipts exported here are signed by this destination's signingKey (not by "
                f"the reviewer). Its public key, fingerprint {signer.fingerprint}, verifies them:"
            )

    def copy_public_key(self) -> None:
        text = self.public_key.text()
        if text:
            set_clipboard(text)
            self.key_status.setText("Public key copied to the clipboard.")

    def export_public_key(self) -> str | None:
        """Write the public key file (never over a file without asking); its path."""
        destination = self.destination
        if destination is None or destination.signing_key is None:
            return None
        chosen = self.chosen_path()
        folder = Path(chosen).parent if chosen else Path.home()
        stem = safe_part(destination.installation_key_id) or "destination"
        suggested = free_name(folder, f"{stem}.receipt-key", ".pub.json")
        path = self.ask_save_path(self, str(suggested))
        if path is None:
            return None
        overwrite = Path(path).exists()
        if overwrite and not self.confirm(
            self, "Replace key file?", f"{visible(path)} already exists. Replace it?"
        ):
            return None
        try:
            write_atomic(path, key_file_bytes(public_key_file(destination)), overwrite=overwrite)
        except (UnwritableFileError, TargetExistsError) as exc:
            self.key_status.setText(visible_lines(f"Nothing written: {exc}"))
            return None
        message = f"Public key written to {visible(path)}"
        self.key_status.setText(
            f"{message}. Check a receipt with: zcf-inspector receipt verify RECEIPT "
            f"--key {visible(path)}"
        )
        self.statusMessage.emit(message)
        return path

    def chosen_path(self) -> str | None:
        return self.path.text().strip() or None

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Choose a destination file",
            self.path.text(),
            "JSON files (*.json);;All files (*)",
        )
        if path:
            self.path.setText(path)

    def _validate(self, text: str) -> None:
        path = text.strip()
        if not path:
            self.destination = None
            self.status.setText(
                "No destination: MACs are reported as not verified and policy is not checked."
            )
            self._destination_ok = True
        else:
            try:
                self.destination = load_destination(path)
            except DestinationError as exc:
                self.destination = None
                self.status.setText(visible_lines(f"This file cannot be used:\n{exc}"))
                self._destination_ok = False
            else:
                self.status.setText(visible_lines(describe_destination(self.destination)))
                self._destination_ok = True
        self._show_receipt_key()
        self._update_ok()
