"""The plan graph's tool row: plan picker, find and path fields, All subjects, zoom,
export and, for an ASIF 0.5 report, the snapshot chip and the current-snapshot button.

It only builds and lays out the widgets and says what was asked (its signals); the pane
(`pane.py`) connects them and keeps the widgets under the same names.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QToolButton,
    QWidget,
)

from zcf_inspector.gui.plain_text import set_tooltip
from zcf_inspector.gui.plangraph.snapshot_chip import SnapshotChip


class PlanToolbar(QHBoxLayout):
    """The widgets of the tool row, laid out in it."""

    zoom_in = Signal()
    zoom_out = Signal()
    fit = Signal()
    export_requested = Signal(str)  # "svg", "png" or "dot"

    def __init__(self, parent: QWidget) -> None:
        super().__init__()
        self.setContentsMargins(4, 4, 4, 2)
        self.plan_box = QComboBox()
        self.plan_box.setMinimumContentsLength(18)
        set_tooltip(self.plan_box, "Plan to show")
        self.find_edit = QLineEdit()
        self.find_edit.setPlaceholderText("Find node by ID…  (Ctrl+F)")
        self.find_edit.setClearButtonEnabled(True)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("Path to node…  (or Shift+click)")
        self.path_edit.setClearButtonEnabled(True)
        self.completer = QCompleter([], parent)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.find_edit.setCompleter(self.completer)
        self.path_edit.setCompleter(self.completer)
        self.addWidget(QLabel("Plan:"))
        self.addWidget(self.plan_box)
        self.addWidget(self.find_edit, 2)
        self.addWidget(self.path_edit, 2)
        self.show_all_box = QCheckBox("All subjects")
        set_tooltip(
            self.show_all_box,
            "Also draw the subjects of the document's other plans, set apart and dimmed",
        )
        self.addWidget(self.show_all_box)
        for text, tip, signal in (
            ("\N{MINUS SIGN}", "Zoom out (-)", self.zoom_out),
            ("+", "Zoom in (+)", self.zoom_in),
            ("Fit", "Fit the plan in view (F)", self.fit),
        ):
            button = QToolButton()
            button.setText(text)
            set_tooltip(button, tip)
            button.clicked.connect(signal)
            self.addWidget(button)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for label, kind in (("SVG…", "svg"), ("PNG…", "png"), ("DOT…", "dot")):
            menu.addAction(label, partial(self.export_requested.emit, kind))
        self.export_button.setMenu(menu)
        self.addWidget(self.export_button)
        # ASIF 0.5 reports: the snapshot they bind, and the caller's current one.
        self.snapshot_chip = SnapshotChip()
        self.current_button = QToolButton()
        self.current_button.setText("Current snapshot…")
        set_tooltip(
            self.current_button,
            "Compare the destination's current capability snapshot (its exact bytes) with "
            "the one the report binds; any difference makes the whole report stale",
        )
        self.current_button.setVisible(False)
        self.addWidget(self.snapshot_chip)
        self.addWidget(self.current_button)
