"""The plan graph's side pane: the selected node, the plan's findings, the legend and, for
an ASIF 0.5 report, the destination snapshot as a tree — one tab each.

It only builds the tabs; the pane (`pane.py`) fills them and reacts to a finding picked.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QScrollArea, QTableView, QTabWidget

from zcf_inspector.gui.plangraph.detail_pane import NodeDetailPane
from zcf_inspector.gui.plangraph.findings_model import PlanFindingsModel
from zcf_inspector.gui.plangraph.legend import LegendWidget
from zcf_inspector.gui.plangraph.object_tree import ObjectTree


class PlanSidePane(QTabWidget):
    """Node, Findings, Legend and (hidden until a 0.5 report shows one) Snapshot."""

    def __init__(self) -> None:
        super().__init__()
        self.details = NodeDetailPane()
        self.findings_model = PlanFindingsModel(self)
        self.findings_view = QTableView()
        self.findings_view.setModel(self.findings_model)
        self.findings_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.findings_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.findings_view.setWordWrap(False)
        self.findings_view.verticalHeader().setVisible(False)
        header = self.findings_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.legend = LegendWidget()
        legend_scroll = QScrollArea()
        legend_scroll.setWidget(self.legend)
        legend_scroll.setWidgetResizable(True)
        self.addTab(self.details, "Node")
        self.addTab(self.findings_view, "Findings")
        self.addTab(legend_scroll, "Legend")
        # The report's destination snapshot as a tree (ASIF 0.5): its components, each
        # with its kind, status, revision and typed facts.
        self.snapshot_tree = ObjectTree()
        self.snapshot_tab = self.addTab(self.snapshot_tree, "Snapshot")
        self.setTabVisible(self.snapshot_tab, False)
