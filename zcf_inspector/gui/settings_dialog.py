"""Settings: the destination file (keys, trusted keys, capabilities, strict, limits) that
the window verifies with, exactly like ``validate --destination``, and the "Assess at"
clock continuation reports are checked at, exactly like ``plan --now``."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.continuation.timestamps import TimestampError, parse_datetime
from zcf_inspector.core.packet.destination import Destination, DestinationError, load_destination
from zcf_inspector.gui.plain_text import plain_label, visible


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


class SettingsDialog(QDialog):
    """Choose a destination file and the "Assess at" clock; OK only when both are usable."""

    def __init__(
        self,
        current: str | None,
        parent: QWidget | None = None,
        *,
        assess_at: datetime | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(560)
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
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label(
                "Destination file (profile §6): the installation keys, trusted signing keys, "
                "capabilities, strictness and limits to verify with — as validate --destination.",
                wrap=True,
            )
        )
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self._clock_box(assess_at))
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.path.textChanged.connect(self._validate)
        self._validate(self.path.text())
        self._clock_changed()

    def _clock_box(self, assess_at: datetime | None) -> QGroupBox:
        box = QGroupBox("Continuation reports")
        self.use_now = QCheckBox("Assess at the current time")
        self.use_now.setChecked(assess_at is None)
        self.clock_edit = QLineEdit("" if assess_at is None else clock_text(assess_at))
        self.clock_edit.setPlaceholderText("2026-09-26T12:30:00Z")
        self.clock_edit.setToolTip(
            "An RFC 3339 date-time with an offset, as plan --now takes it: an archived "
            "report is checked as of its own time."
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
                self.status.setText(f"This file cannot be used:\n{exc}")
                self._destination_ok = False
            else:
                self.status.setText(describe_destination(self.destination))
                self._destination_ok = True
        self._update_ok()
