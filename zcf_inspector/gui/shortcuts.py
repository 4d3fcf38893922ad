"""Help → Keyboard Shortcuts: every key of the window, the panes and the plan graph.

The window's keys are read from its actions. The panes' keys are listed here because
they exist only while such a pane is open (and the plan graph's are handled by its view,
not by actions); a test compares these lists with the panes' real actions and keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.gui.briefing_pane import BRIEFING_KEYS
from zcf_inspector.gui.dialog_keys import add_submit_keys
from zcf_inspector.gui.plain_text import plain_label
from zcf_inspector.gui.review.detail import DETAIL_KEYS
from zcf_inspector.gui.review.triage import TRIAGE_KEYS

WINDOW: Final = "Window"
REVIEW: Final = "Review pane (while its table has the focus)"
PLAN_GRAPH: Final = "Plan graph (while the graph has the focus)"
BRIEFING: Final = "Briefing pane (while its text has the focus)"
REVIEW_DETAIL: Final = (
    "Review pane's selected belief (its table, evidence or content has the focus)"
)
DIALOGS: Final = "Every dialog"

REVIEW_KEYS: Final = (
    ("C", "Confirm the belief and move to the next"),
    ("R", "Reject the belief (a note is required) and move on"),
    ("S", "Supersede the belief (pick its replacement) and move on"),
    ("U", "Back to unreviewed and move on"),
    ("J", "Next belief"),
    ("K", "Previous belief"),
    ("Ctrl+Z", "Undo the last decision (until the receipt is exported)"),
    ("Ctrl+Shift+Z", "Redo the decision undone"),
    ("Ctrl+Shift+P", "Compare with the previous generation and its receipt"),
    ("Ctrl+Shift+R", "Repeat the previous receipt's decisions on unchanged beliefs (asks first)"),
    *((key, text) for _mark, key, text in TRIAGE_KEYS),
    *((f"Shift+{key}", f"Previous: {mark}") for mark, key, _text in TRIAGE_KEYS),
)
PLAN_GRAPH_KEYS: Final = (
    ("Ctrl+F", "Find a node by ID"),
    ("F", "Fit the plan in view"),
    ("+", "Zoom in"),
    ("\N{MINUS SIGN}", "Zoom out (the - key)"),
    ("Right", "Move to a prerequisite of the selected node"),
    ("Left", "Move to a dependent of the selected node"),
    ("Up / Down", "Move to the node above / below"),
    ("Esc", "Clear the selection and the highlighted closure"),
    ("Shift+click", "Show the path from the selected node to the clicked one"),
)

DIALOG_KEYS: Final = (
    ("Ctrl+Enter", "Submit: record the note, answer Yes or OK, close a viewer"),
    ("Esc", "Cancel: nothing is recorded"),
)


@dataclass(frozen=True, slots=True)
class ShortcutEntry:
    section: str
    keys: str
    action: str


def _native(keys: QKeySequence) -> str:
    return keys.toString(QKeySequence.SequenceFormat.NativeText)


def shortcut_entries(window_actions: Iterable[QAction]) -> list[ShortcutEntry]:
    entries = [
        ShortcutEntry(WINDOW, _native(a.shortcut()), a.text().replace("&&", "\0").replace("&", ""))
        for a in window_actions
        if not a.shortcut().isEmpty()
    ]
    entries = [ShortcutEntry(e.section, e.keys, e.action.replace("\0", "&")) for e in entries]
    entries += [ShortcutEntry(REVIEW, _native(QKeySequence(k)), t) for k, t in REVIEW_KEYS]
    entries += [ShortcutEntry(REVIEW_DETAIL, _native(QKeySequence(k)), t) for k, t in DETAIL_KEYS]
    entries += [ShortcutEntry(PLAN_GRAPH, k, t) for k, t in PLAN_GRAPH_KEYS]
    entries += [ShortcutEntry(BRIEFING, k, t) for k, t in BRIEFING_KEYS]
    # Written as users say them: Ctrl+Enter is either Enter key (dialog_keys.SUBMIT_KEYS).
    entries += [ShortcutEntry(DIALOGS, k, t) for k, t in DIALOG_KEYS]
    return entries


class ShortcutsDialog(QDialog):
    """Every shortcut, grouped by where it works (plain-text tree items)."""

    def __init__(self, entries: list[ShortcutEntry], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.resize(620, 640)
        self.entries = entries
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Keys", "Action"])
        self.tree.setUniformRowHeights(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        bold = QFont(self.tree.font())
        bold.setBold(True)
        sections: dict[str, QTreeWidgetItem] = {}
        for entry in entries:
            section = sections.get(entry.section)
            if section is None:
                section = QTreeWidgetItem(self.tree, [entry.section])
                section.setFirstColumnSpanned(True)
                section.setFont(0, bold)
                sections[entry.section] = section
            QTreeWidgetItem(section, [entry.keys, entry.action])
        self.tree.expandAll()
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label(
                "Pane keys work while that pane has the keyboard focus; the Review menu "
                "holds the review's actions for the current tab.",
                wrap=True,
            )
        )
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        add_submit_keys(self)

    def rows(self) -> list[tuple[str, str, str]]:
        """(section, keys, action) as shown, read back from the tree."""
        shown = []
        for i in range(self.tree.topLevelItemCount()):
            section = self.tree.topLevelItem(i)
            assert section is not None
            for j in range(section.childCount()):
                item = section.child(j)
                assert item is not None
                shown.append((section.text(0), item.text(0), item.text(1)))
        return shown
