"""What the window shows with nothing open: an invitation to drop, Open, the bundled
example packet and the recent files."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.gui.icons import IconName, icon
from zcf_inspector.gui.plain_text import plain_label, visible

PATH_ROLE = int(Qt.ItemDataRole.UserRole) + 1


class StartPage(QWidget):
    openRequested = Signal()  # noqa: N815
    exampleRequested = Signal()  # noqa: N815
    recentRequested = Signal(str)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        logo = QLabel()
        logo.setPixmap(icon(IconName.APP).pixmap(96, 96))
        logo.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = plain_label("Drop a packet here")
        font = QFont(title.font())
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        title.setFont(font)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        blurb = plain_label(
            "ZCF packets, transfer receipts, ASIF sessions, continuation profiles and "
            "destination reports — recognised by their content, not their file name. "
            "Drop several files to open them in tabs; drop a session with its report to "
            "check the report against it.",
            wrap=True,
        )
        blurb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.open_button = QPushButton("Open…")
        self.example_button = QPushButton("Open the example packet")
        self.example_button.setIcon(icon(IconName.PASS))
        self.open_button.clicked.connect(self.openRequested)
        self.example_button.clicked.connect(self.exampleRequested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.example_button)
        buttons.addStretch(1)
        self.recent_title = plain_label("Recent files")
        self.recent = QListWidget()
        self.recent.setMaximumHeight(200)
        self.recent.itemActivated.connect(self._recent_activated)
        self.recent.itemClicked.connect(self._recent_activated)
        column = QVBoxLayout()
        column.addStretch(2)
        column.addWidget(logo)
        column.addWidget(title)
        column.addWidget(blurb)
        column.addSpacing(12)
        column.addLayout(buttons)
        column.addSpacing(24)
        column.addWidget(self.recent_title)
        column.addWidget(self.recent)
        column.addStretch(3)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(column, 3)
        outer.addStretch(1)

    def set_recent(self, paths: list[str]) -> None:
        self.recent.clear()
        for path in paths:
            item = QListWidgetItem(
                f"{visible(Path(path).name)}    {visible(str(Path(path).parent))}"
            )
            item.setData(PATH_ROLE, path)
            self.recent.addItem(item)
        self.recent_title.setVisible(bool(paths))
        self.recent.setVisible(bool(paths))

    def _recent_activated(self, item: QListWidgetItem) -> None:
        path = item.data(PATH_ROLE)
        if isinstance(path, str):
            self.recentRequested.emit(path)
