"""Settings' trusted package public keys: the files whose keys a package's detached
signature is checked under (`package-signature.json` beside a package, TRANSPORT.md).

A key is a file (32 raw bytes, or their hex or base64 text), read when a package is
opened, under the trust-file rule: a key others could have written is refused, and the
package's signature is then not checked. A signature never brings its own trust.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.visible_text import visible
from zcf_inspector.gui.plain_text import plain_label


def _ask_key_file(parent: QWidget) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, "Trusted package public key", "")
    return path or None


class PackageKeysBox(QGroupBox):
    def __init__(self, paths: list[str], parent: QWidget | None = None) -> None:
        super().__init__("Trusted package keys", parent)
        self.ask_key_file: Callable[[QWidget], str | None] = _ask_key_file  # tests answer
        self._paths = list(paths)
        self.list = QListWidget()
        self.list.setMaximumHeight(90)
        add, remove = QPushButton("Add…"), QPushButton("Remove")
        add.clicked.connect(self._add)
        remove.clicked.connect(self._remove)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label(
                "Public keys (files: 32 raw bytes, hex or base64) that package signatures "
                "are checked under. A package signed by any other key is refused; with "
                "none, its signature is read but not checked.",
                wrap=True,
            )
        )
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        self._refill()

    def chosen(self) -> list[str]:
        return list(self._paths)

    def add_path(self, path: str) -> None:
        if path not in self._paths:
            self._paths.append(path)
            self._refill()

    def _add(self) -> None:
        path = self.ask_key_file(self)
        if path:
            self.add_path(path)

    def _remove(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._paths):
            del self._paths[row]
            self._refill()

    def _refill(self) -> None:
        self.list.clear()
        self.list.addItems([visible(p) for p in self._paths])
