"""Layout off the UI thread: a ``QRunnable`` that calls the core and posts the result.

Node sizes are measured on the UI thread first (font metrics need the GUI), so the
worker only runs pure Python. Each job carries a ticket; the pane ignores a result
whose ticket is stale (the user picked another plan meanwhile).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QObject, QRunnable, Signal

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.present.layout import GraphLayout, Size, layout_plan
from zcf_inspector.present.layout.rooted import TARGET_ASPECT

# Plans with more nodes than this are laid out in the background; smaller ones are
# quick enough (a few milliseconds) to lay out at once, without a flash of "laying out…".
BACKGROUND_THRESHOLD = 300


class LayoutSignals(QObject):
    finished = Signal(int, object)  # ticket, GraphLayout


class LayoutJob(QRunnable):
    """``signals`` belongs to the pane and must outlive the pool that runs the job."""

    def __init__(
        self,
        ticket: int,
        plan: PlanResult,
        sizes: Mapping[str, Size],
        signals: LayoutSignals,
        *,
        others: Sequence[str] = (),
        aspect: float = TARGET_ASPECT,
    ) -> None:
        super().__init__()
        self.ticket = ticket
        self.plan = plan
        self.sizes = dict(sizes)
        self.signals = signals
        self.others = tuple(others)  # other plans' subjects, set apart (All subjects)
        self.aspect = aspect  # the canvas's width over its height
        self.setAutoDelete(True)

    def run(self) -> None:
        layout: GraphLayout = layout_plan(
            self.plan, self.sizes, others=self.others, aspect=self.aspect
        )
        self.signals.finished.emit(self.ticket, layout)
