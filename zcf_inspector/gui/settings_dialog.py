"""Settings: the destination file (keys, trusted keys, capabilities, strict, limits) that
the window verifies with, exactly like ``validate --destination``."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.packet.destination import Destination, DestinationError, load_destination
from zcf_inspector.gui.plain_text import plain_label, visible, visible_lines


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
    """Choose a destination file; OK only when it loads (or when none is chosen)."""

    def __init__(self, current: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(560)
        self.destination: Destination | None = None
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
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.path.textChanged.connect(self._validate)
        self._validate(self.path.text())

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
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        path = text.strip()
        if not path:
            self.destination = None
            self.status.setText(
                "No destination: MACs are reported as not verified and policy is not checked."
            )
            ok.setEnabled(True)
            return
        try:
            self.destination = load_destination(path)
        except DestinationError as exc:
            self.destination = None
            self.status.setText(visible_lines(f"This file cannot be used:\n{exc}"))
            ok.setEnabled(False)
            return
        self.status.setText(visible_lines(describe_destination(self.destination)))
        ok.setEnabled(True)
