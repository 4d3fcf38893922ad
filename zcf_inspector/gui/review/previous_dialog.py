"""Review → Compare with previous generation…: which packet came before, and its receipt.

ZCF v1 does not link a packet to the one before it (``packet.generation`` is always 1), so
the reviewer names both files: packets and receipts already open in tabs are offered
first (a receipt the window matched to an open packet is chosen with it), any other file
can be typed or browsed for.

Keys: type or pick a path (Up/Down in a list), Tab to the next field, Ctrl+Enter
compares, Esc cancels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.gui.dialog_keys import add_submit_keys
from zcf_inspector.gui.plain_text import plain_label

EXPLANATION = (
    "Choose the previous packet of this stream and the receipt exported for it. The receipt "
    "is verified and must belong to that packet as admitted here. Beliefs are then marked "
    "new, changed or unchanged since that receipt, and you may repeat its decisions on the "
    "unchanged ones — nothing is repeated until you ask."
)


@dataclass(frozen=True, slots=True)
class OpenFile:
    """A document open in a tab, offered in the dialog."""

    title: str
    path: str
    belongs_to: str | None = None  # a receipt: the path of the open packet it matches


class PreviousGenerationDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        packets: Sequence[OpenFile],
        receipts: Sequence[OpenFile],
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare with the previous generation")
        self.receipts = list(receipts)
        self.packet = _path_combo(packets, "Path of the previous packet")
        self.receipt = _path_combo(receipts, "Path of the receipt exported for it")
        self.receipt_note = plain_label(wrap=True, selectable=True)
        browse_packet = QPushButton("Browse…")
        browse_packet.clicked.connect(lambda: self._browse(self.packet, "Previous packet"))
        browse_receipt = QPushButton("Browse…")
        browse_receipt.clicked.connect(lambda: self._browse(self.receipt, "Its receipt"))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Compare")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        grid = QGridLayout()
        packet_label = QLabel("Previous &packet:")
        packet_label.setBuddy(self.packet)
        receipt_label = QLabel("Its &receipt:")
        receipt_label.setBuddy(self.receipt)
        grid.addWidget(packet_label, 0, 0)
        grid.addWidget(self.packet, 0, 1)
        grid.addWidget(browse_packet, 0, 2)
        grid.addWidget(receipt_label, 1, 0)
        grid.addWidget(self.receipt, 1, 1)
        grid.addWidget(browse_receipt, 1, 2)
        grid.addWidget(self.receipt_note, 2, 1, 1, 2)
        grid.setColumnStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(EXPLANATION, wrap=True, selectable=True))
        layout.addLayout(grid)
        layout.addWidget(plain_label("Ctrl+Enter compares, Esc cancels."))
        layout.addWidget(self.buttons)
        self.setTabOrder(self.packet, self.receipt)
        self.packet.currentTextChanged.connect(self._packet_changed)
        self.receipt.currentTextChanged.connect(self._update)
        self.resize(640, self.sizeHint().height())
        self._packet_changed(self.packet.currentText())
        self.packet.setFocus()
        add_submit_keys(self)

    def chosen(self) -> tuple[str, str]:
        return self.packet.currentText().strip(), self.receipt.currentText().strip()

    def _browse(self, combo: QComboBox, title: str) -> None:
        start = combo.currentText().strip()
        path, _ = QFileDialog.getOpenFileName(
            self, title, str(Path(start).parent) if start else "", "JSON (*.json);;All files (*)"
        )
        if path:
            combo.setCurrentText(path)

    def _packet_changed(self, text: str) -> None:
        """Choose the open receipt the window matched to this packet, when there is one."""
        matched = next((r for r in self.receipts if r.belongs_to == text.strip()), None)
        if matched is not None:
            self.receipt.setCurrentText(matched.path)
        self._update()

    def _update(self) -> None:
        packet, receipt = self.chosen()
        known = next((r for r in self.receipts if r.path == receipt), None)
        if known is None or known.belongs_to is None:
            self.receipt_note.setText("")
        elif known.belongs_to == packet:
            self.receipt_note.setText("This open receipt matches that open packet.")
        else:
            self.receipt_note.setText(
                f"This open receipt matches another open packet: {known.belongs_to}"
            )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(packet) and bool(receipt))


def _path_combo(files: Sequence[OpenFile], name: str) -> QComboBox:
    combo = QComboBox()
    combo.setEditable(True)
    combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    combo.setAccessibleName(name)
    combo.setMinimumContentsLength(40)
    for item in files:
        combo.addItem(item.path)  # a combo's items are plain text
    return combo
