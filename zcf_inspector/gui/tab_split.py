"""The share of a document tab's width the tree keeps: the user's (remembered for every
tab, across runs), else widened once for the panes that need room."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QSplitter

from zcf_inspector.gui.tab_kinds import PANE_PLAN_GRAPH, PANE_REVIEW

# The share of the tab's width given to the panes that need room: the plan graph the
# most (its canvas and its side pane both; the tree keeps enough for key and value).
WIDE_PANES: Final = {PANE_REVIEW: 0.62, PANE_PLAN_GRAPH: 0.78}
SPLIT_KEY: Final = "layout/documentSplit"  # the tree's share of the tab, as the user left it


def _fraction(value: object) -> float | None:
    try:
        fraction = float(value) if isinstance(value, str | float | int) else None
    except ValueError:
        return None
    return fraction if fraction is not None and 0.05 <= fraction <= 0.95 else None


class TabSplit:
    """The tab's splitter (tree | panes): moved by the user, kept on resize."""

    def __init__(self, splitter: QSplitter, store: QSettings) -> None:
        self._splitter = splitter
        self._store = store
        self.share = _fraction(store.value(SPLIT_KEY))
        self._widened = self.share is not None  # a remembered split wins over widening
        splitter.splitterMoved.connect(self._moved)

    def _moved(self, _position: int, _index: int) -> None:
        sizes = self._splitter.sizes()
        if sum(sizes) > 0:
            self.share = sizes[0] / sum(sizes)
            self._store.setValue(SPLIT_KEY, f"{self.share:.4f}")

    def resized(self) -> None:
        """The tree keeps its share of the tab (the user's, or the one it was given)."""
        total = sum(self._splitter.sizes())
        if self.share is not None and total > 0:
            left = round(total * self.share)
            self._splitter.setSizes([left, total - left])

    def pane_shown(self, name: str) -> None:
        """The review table and the plan graph need room the tree can spare: the first
        time one of them is shown, the panes get most of the width (once, so a width the
        user chose afterwards is kept)."""
        share = WIDE_PANES.get(name)
        if self._widened or share is None:
            return
        self._widened = True
        total = sum(self._splitter.sizes())
        if total > 0 and self._splitter.sizes()[1] < total * share:
            left = int(total * (1 - share))
            self._splitter.setSizes([left, total - left])
            self.share = left / total  # kept as the window is resized (not remembered)
