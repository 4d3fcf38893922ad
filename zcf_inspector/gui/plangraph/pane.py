"""`PlanGraphPane`: the "Plan graph" tool pane of the inspector window.

Shows one plan of an `InspectionResult` at a time: a plan selector and tools on top,
the graph on the left, and on the right the clicked node (its object, findings and
assessment), the plan's findings and the legend.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, QThreadPool, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.continuation.layout import GraphLayout, layout_plan
from zcf_inspector.core.continuation.results import InspectionResult, PlanResult
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.gui.plain_text import visible
from zcf_inspector.gui.plangraph import export
from zcf_inspector.gui.plangraph.findings_model import NODE_ROLE, FindingsModel
from zcf_inspector.gui.plangraph.graph_view import GraphView
from zcf_inspector.gui.plangraph.layout_worker import BACKGROUND_THRESHOLD, LayoutJob, LayoutSignals
from zcf_inspector.gui.plangraph.legend import LegendWidget
from zcf_inspector.gui.plangraph.navigation import next_node
from zcf_inspector.gui.plangraph.node_details import node_details
from zcf_inspector.gui.plangraph.node_item import SHAPE_LOD, NodeText, node_text
from zcf_inspector.gui.plangraph.plan_facts import PlanFacts, plan_facts
from zcf_inspector.gui.plangraph.plan_scene import PlanScene
from zcf_inspector.gui.plangraph.summary import plan_summary, summary_line

_EMPTY, _BUSY, _GRAPH = 0, 1, 2
OVERVIEW_ZOOM = SHAPE_LOD  # below this zoom, nodes are drawn by the overview item


class PlanGraphPane(QWidget):
    plan_shown = Signal(str)  # a plan's graph is on screen (after any background layout)
    node_selected = Signal(str)  # "" when the selection is cleared

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The pool is created before the signals object so that, as children are
        # destroyed in creation order, it waits for a running job before the job's
        # signals object goes away.
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = LayoutSignals(self)
        self._signals.finished.connect(self._layout_finished)
        self._result: InspectionResult | None = None
        self._document: JsonValue | None = None
        self._layouts: dict[int, GraphLayout] = {}
        self._plan_index = -1
        self._facts: PlanFacts | None = None
        self._texts: dict[str, NodeText] = {}
        self._ticket = 0
        self._scene: PlanScene | None = None
        self._current: str | None = None
        self._matches: list[str] = []
        self._build()

    # ---- building the widgets -------------------------------------------------------

    def _build(self) -> None:
        self.plan_box = QComboBox()
        self.plan_box.setMinimumContentsLength(18)
        self.plan_box.setToolTip("Plan to show")
        self.plan_box.currentIndexChanged.connect(self._plan_picked)
        self.find_edit = QLineEdit()
        self.find_edit.setPlaceholderText("Find node by ID…  (Ctrl+F)")
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.returnPressed.connect(self._find_next)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("Path to node…  (or Shift+click)")
        self.path_edit.setClearButtonEnabled(True)
        self.path_edit.returnPressed.connect(self._path_entered)
        self._completer = QCompleter([], self)
        self._completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.find_edit.setCompleter(self._completer)
        self.path_edit.setCompleter(self._completer)
        tools = QHBoxLayout()
        tools.setContentsMargins(4, 4, 4, 2)
        tools.addWidget(QLabel("Plan:"))
        tools.addWidget(self.plan_box)
        tools.addWidget(self.find_edit, 2)
        tools.addWidget(self.path_edit, 2)
        for text, tip, slot in (
            ("\N{MINUS SIGN}", "Zoom out (-)", self._zoom_out),
            ("+", "Zoom in (+)", self._zoom_in),
            ("Fit", "Fit the plan in view (F)", self._fit),
        ):
            button = QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.clicked.connect(slot)
            tools.addWidget(button)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        menu.addAction("SVG…", lambda: self._export_dialog("svg"))
        menu.addAction("PNG…", lambda: self._export_dialog("png"))
        menu.addAction("DOT…", lambda: self._export_dialog("dot"))
        self.export_button.setMenu(menu)
        tools.addWidget(self.export_button)

        self.view = GraphView()
        self.view.node_clicked.connect(self._node_clicked)
        self.view.background_clicked.connect(self.clear_selection)
        self.view.escape_pressed.connect(self.clear_selection)
        self.view.move_requested.connect(self._move)
        self.view.zoom_changed.connect(self._zoomed)
        self.message = QLabel()
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.stack = QStackedWidget()
        self.stack.addWidget(QLabel("No continuation plan to show."))
        self.stack.addWidget(self.message)
        self.stack.addWidget(self.view)
        empty = self.stack.widget(_EMPTY)
        if isinstance(empty, QLabel):
            empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.findings_model = FindingsModel()
        self.findings_view = QTableView()
        self.findings_view.setModel(self.findings_model)
        self.findings_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.findings_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.findings_view.setWordWrap(False)
        self.findings_view.verticalHeader().setVisible(False)
        header = self.findings_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.findings_view.activated.connect(self._finding_activated)
        self.findings_view.clicked.connect(self._finding_activated)
        self.legend = LegendWidget()
        legend_scroll = QScrollArea()
        legend_scroll.setWidget(self.legend)
        legend_scroll.setWidgetResizable(True)
        self.side = QTabWidget()
        self.side.addTab(self.details, "Node")
        self.side.addTab(self.findings_view, "Findings")
        self.side.addTab(legend_scroll, "Legend")

        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.stack)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(tools)
        outer.addWidget(self.splitter, 1)
        outer.addWidget(self.status)
        find = QShortcut(QKeySequence.StandardKey.Find, self)
        find.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        find.activated.connect(self.find_edit.setFocus)
        self._set_enabled(False)

    def _set_enabled(self, enabled: bool) -> None:
        for widget in (self.plan_box, self.find_edit, self.path_edit, self.export_button):
            widget.setEnabled(enabled)

    # ---- the host's interface ---------------------------------------------------------

    def show_result(self, result: InspectionResult, document: JsonValue | None = None) -> None:
        """Show ``result``'s plans; ``document`` (the parsed session or profile, optional)
        lets the side pane show each node's object."""
        self.clear()
        self._result = result
        self._document = document
        if not result.plans:
            self._show_message(
                "This document has no continuation plan to draw."
                if result.kind is not None
                else "Not a continuation document."
            )
            return
        self._set_enabled(True)
        self.plan_box.blockSignals(True)
        for plan in result.plans:
            self.plan_box.addItem(visible(plan.id))
        self.plan_box.blockSignals(False)
        self._show_plan(0)

    def clear(self) -> None:
        self._ticket += 1  # any layout still running is now stale
        self._result = None
        self._document = None
        self._layouts.clear()
        self._plan_index = -1
        self._facts = None
        self._current = None
        self._matches = []
        self.plan_box.blockSignals(True)
        self.plan_box.clear()
        self.plan_box.blockSignals(False)
        self._replace_scene(None)
        self.findings_model.set_findings(())
        self.details.setPlainText("")
        self.status.setText("")
        self._completer.model().setProperty("stringList", [])
        self._set_enabled(False)
        self.stack.setCurrentIndex(_EMPTY)

    # ---- plans and layout ---------------------------------------------------------------

    @property
    def scene(self) -> PlanScene | None:
        return self._scene

    @property
    def current_plan(self) -> PlanResult | None:
        if self._result is None or not 0 <= self._plan_index < len(self._result.plans):
            return None
        return self._result.plans[self._plan_index]

    @property
    def current_node(self) -> str | None:
        return self._current

    def select_plan(self, index: int) -> None:
        self.plan_box.setCurrentIndex(index)

    @Slot(int)
    def _plan_picked(self, index: int) -> None:
        if self._result is not None and 0 <= index < len(self._result.plans):
            self._show_plan(index)

    def _show_plan(self, index: int) -> None:
        assert self._result is not None
        plan = self._result.plans[index]
        self._plan_index = index
        self._current = None
        self._facts = facts = plan_facts(self._result, plan)
        self._texts = {n: node_text(f, facts.has_report) for n, f in facts.nodes.items()}
        self.findings_model.set_findings(facts.findings)
        # Findings past the document's budget are counted in the core: said, not listed.
        report = self._result.report
        cut = sum(o.count for o in (*self._result.omitted, *plan.omitted))
        if report is not None and report.plan_id == plan.id:
            cut += sum(o.count for o in report.omitted)
        more = f" + {cut:,} not listed" if cut else ""
        self.side.setTabText(1, f"Findings ({len(facts.findings)}{more})")
        self.status.setText(summary_line(facts))
        model = self._completer.model()
        model.setProperty("stringList", sorted(facts.nodes))
        cached = self._layouts.get(index)
        if cached is not None:
            self._show_layout(cached)
            return
        sizes = {n: (t.width, t.height) for n, t in self._texts.items()}
        if len(plan.nodes) <= BACKGROUND_THRESHOLD:
            self._layouts[index] = layout = layout_plan(plan, sizes)
            self._show_layout(layout)
            return
        self._ticket += 1
        self._replace_scene(None)
        self._show_message(f"Laying out {len(plan.nodes):,} subjects…")
        self._pool.start(LayoutJob(self._ticket, plan, sizes, self._signals))

    @Slot(int, object)
    def _layout_finished(self, ticket: int, layout: GraphLayout) -> None:
        if ticket != self._ticket or self._facts is None:
            return  # the user moved on to another plan or document
        self._layouts[self._plan_index] = layout
        self._show_layout(layout)

    def wait_for_layout(self, msecs: int = 30_000) -> bool:
        """Block until no layout runs in the background (for scripts and tests)."""
        return bool(self._pool.waitForDone(msecs))

    def _show_layout(self, layout: GraphLayout) -> None:
        assert self._facts is not None
        self._replace_scene(PlanScene(self._facts, self._texts, layout))
        self.stack.setCurrentIndex(_GRAPH)
        self.details.setPlainText(plan_summary(self._facts))
        self.view.fit()
        self.plan_shown.emit(self._facts.plan.id)

    def _replace_scene(self, scene: PlanScene | None) -> None:
        old = self._scene
        self._scene = scene
        self.view.setScene(scene)
        if old is not None:
            old.deleteLater()

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.stack.setCurrentIndex(_BUSY)

    # ---- selection, closure and paths -----------------------------------------------------

    def select_node(self, node_id: str, centre: bool = True) -> frozenset[str]:
        """Select ``node_id``: show it in the side pane and highlight its closure both ways."""
        scene, facts = self._scene, self._facts
        if scene is None or facts is None or node_id not in scene.nodes:
            return frozenset()
        self._current = node_id
        closure = scene.focus_closure(node_id)
        self.details.setPlainText(node_details(facts.nodes[node_id], scene.reach, self._document))
        self.side.setCurrentIndex(0)
        if centre:
            self.view.centerOn(scene.nodes[node_id])
        self.node_selected.emit(node_id)
        return closure

    def clear_selection(self) -> None:
        if self._scene is not None:
            self._scene.clear_emphasis()
            self._zoomed(self.view.zoom)
        self._current = None
        if self._facts is not None:
            self.details.setPlainText(plan_summary(self._facts))
        self.node_selected.emit("")

    def show_path(self, start: str, end: str) -> tuple[str, ...] | None:
        """Highlight a shortest prerequisite chain between two nodes (either direction)."""
        scene = self._scene
        if scene is None:
            return None
        path = scene.reach.path(start, end)
        if path is None:
            self.status.setText(f"No prerequisite path between {visible(start)} and {visible(end)}")
            return None
        scene.focus_path(path)
        self.status.setText("Path: " + " → ".join(visible(p) for p in path))
        return path

    @Slot(str, bool)
    def _node_clicked(self, node_id: str, shift: bool) -> None:
        if shift and self._current is not None and self._current != node_id:
            self.show_path(self._current, node_id)
            return
        self.select_node(node_id, centre=False)

    @Slot(str)
    def _move(self, direction: str) -> None:
        scene = self._scene
        if scene is None:
            return
        target = next_node(scene.layout, scene.reach, self._current, direction)
        if target is not None:
            self.select_node(target)

    # ---- find -------------------------------------------------------------------------------

    def find_node(self, text: str) -> str | None:
        """Select the next node whose ID contains ``text`` (case-insensitive); cycles."""
        scene = self._scene
        needle = text.strip().casefold()
        if scene is None or not needle:
            return None
        matches = sorted(n for n in scene.nodes if needle in n.casefold())
        exact = [n for n in matches if n.casefold() == needle]
        if not matches:
            self.status.setText(f"No node ID contains {visible(text)!r}")
            return None
        if exact:
            found = exact[0]
        elif matches == self._matches and self._current in matches:
            found = matches[(matches.index(self._current) + 1) % len(matches)]
        else:
            found = matches[0]
        self._matches = matches
        self.select_node(found)
        self.status.setText(f"{matches.index(found) + 1} of {len(matches)} matching nodes")
        return found

    @Slot()
    def _find_next(self) -> None:
        self.find_node(self.find_edit.text())

    @Slot()
    def _path_entered(self) -> None:
        end = self.path_edit.text().strip()
        if self._current is None:
            self.status.setText("Select a start node first, then name the path's end")
            return
        if end:
            self.show_path(self._current, end)

    @Slot(QModelIndex)
    def _finding_activated(self, index: QModelIndex) -> None:
        node_id = self.findings_model.data(index, NODE_ROLE)
        if isinstance(node_id, str):
            self.select_node(node_id)
            self.side.setCurrentIndex(1)

    def select_finding(self, row: int) -> str | None:
        """Act as if finding ``row`` were clicked; returns the node it selected."""
        index = self.findings_model.index(row, 0)
        self.findings_view.setCurrentIndex(index)
        self._finding_activated(index)
        return self._current

    # ---- zoom ----------------------------------------------------------------------------------

    @Slot(float)
    def _zoomed(self, zoom: float) -> None:
        # Far out, one overview item replaces thousands of node items (see OverviewItem);
        # a highlighted closure keeps the node items, which carry the highlight.
        if self._scene is not None and not self._scene.highlighted:
            self._scene.set_detailed(zoom >= OVERVIEW_ZOOM)

    @Slot()
    def _zoom_in(self) -> None:
        self.view.zoom_by(1.25)

    @Slot()
    def _zoom_out(self) -> None:
        self.view.zoom_by(0.8)

    @Slot()
    def _fit(self) -> None:
        self.view.fit()

    # ---- export --------------------------------------------------------------------------------

    def export_svg(self, path: Path) -> None:
        if self._scene is not None and self._facts is not None:
            export.export_svg(self._scene, path, f"plan {self._facts.plan.id}")

    def export_png(self, path: Path) -> None:
        if self._scene is not None:
            export.export_png(self._scene, path)

    def export_dot(self, path: Path) -> None:
        plan = self.current_plan
        if plan is not None:
            export.export_dot(plan, path)

    def _export_dialog(self, kind: str) -> None:
        plan = self.current_plan
        if plan is None:
            return
        filters = {
            "svg": "SVG image (*.svg)",
            "png": "PNG image (*.png)",
            "dot": "Graphviz (*.dot)",
        }
        suggested = export.suggested_name(plan.id, kind)
        name, _ = QFileDialog.getSaveFileName(
            self, f"Export plan as {kind.upper()}", suggested, filters[kind]
        )
        if not name:
            return
        writers = {"svg": self.export_svg, "png": self.export_png, "dot": self.export_dot}
        try:
            writers[kind](Path(name))
        except export.ExportError as exc:
            box = QMessageBox(QMessageBox.Icon.Warning, "Export failed", str(exc), parent=self)
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.exec()
