"""What the review pane's parts share: the pane, its controller, dialogs, runner, widgets.

The parts (`steps`, `open_flow`, `deciding`, `comparing`) each get one `PaneContext`
instead of the same five collaborators apiece. The pane is held weakly (`weak`): a part
never keeps it alive.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QWidget

from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.gui.review.layout import PaneWidgets
from zcf_inspector.gui.review.row_filter import RowFilter
from zcf_inspector.gui.review.weak import WeakParent
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.present.review.controller import ReviewController


@dataclass(frozen=True, slots=True)
class PaneContext:
    pane: WeakParent  # the review pane: the parent of every dialog its parts open
    controller: ReviewController
    prompter: Prompter
    runner: TaskRunner
    ui: PaneWidgets
    rows: RowFilter  # the table's rows for its filters

    @property
    def parent(self) -> QWidget:
        return self.pane.widget
