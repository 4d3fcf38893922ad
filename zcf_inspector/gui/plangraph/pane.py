"""`PlanGraphPane`: the "Plan graph" tool pane of the inspector window.

About 590 lines, kept whole on purpose: it is the one widget where the plan view's parts
meet (selection, find, paths, zoom, background layout, export), and each method is a
few lines of wiring. Its parts are built elsewhere — the tool row (`toolbar.py`), the
side pane (`side_pane.py`), the export dialog (`export_dialog.py`) — and what it shows
is computed in the presentation layer (`present/asif_listing.py`, `present/layout/`).

Shows one plan of an `InspectionResult` at a time, the plan's node first and its
inventory laid out from it by distance: a plan selector and tools on top, the graph on
the left, and on the right the clicked subject (why it is in the plan, its facts,
assessment and findings, its object as a tree), the plan's findings and the legend.
Clicking a subject lights the path by which the plan reached it. Subjects of the
document's other plans are drawn only when "All subjects" is on, set apart and dimmed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, QPointF, Qt, QThreadPool, Signal, Slot
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.continuation.results import InspectionResult, PlanResult
from zcf_inspector.core.continuation.why import entry_path
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.masking import prime
from zcf_inspector.gui.messages import confirm
from zcf_inspector.gui.plain_text import masked_visible
from zcf_inspector.gui.plangraph import export
from zcf_inspector.gui.plangraph.export_dialog import (
    ask_open_path,
    ask_save_path,
    export_with_dialog,
)
from zcf_inspector.gui.plangraph.findings_model import NODE_ROLE
from zcf_inspector.gui.plangraph.graph_view import GraphView
from zcf_inspector.gui.plangraph.layout_worker import BACKGROUND_THRESHOLD, LayoutJob, LayoutSignals
from zcf_inspector.gui.plangraph.navigation import next_node
from zcf_inspector.gui.plangraph.node_item import SHAPE_LOD, NodeText, node_text, node_texts
from zcf_inspector.gui.plangraph.palette import colours_for
from zcf_inspector.gui.plangraph.picking import edge_at
from zcf_inspector.gui.plangraph.plan_scene import PlanScene
from zcf_inspector.gui.plangraph.relations import edge_text, requirement_line, why_line
from zcf_inspector.gui.plangraph.side_pane import PlanSidePane
from zcf_inspector.gui.plangraph.snapshot_chip import chip_state
from zcf_inspector.gui.plangraph.summary import plan_summary, summary_line
from zcf_inspector.gui.plangraph.toolbar import PlanToolbar
from zcf_inspector.present.asif_listing import (
    NodeFacts,
    PlanFacts,
    next_match,
    other_subjects,
    plan_facts,
)
from zcf_inspector.present.layout import GraphLayout, layout_plan
from zcf_inspector.present.layout.rooted import TARGET_ASPECT
from zcf_inspector.present.reach import Reach

_EMPTY, _BUSY, _GRAPH = 0, 1, 2
SIDE_SHARE = 0.29  # of the pane's width, for the side pane (Node, Findings, Legend)
OVERVIEW_ZOOM = SHAPE_LOD  # below this zoom, nodes are drawn by the overview item


class PlanGraphPane(QWidget):
    plan_shown = Signal(str)  # a plan's graph is on screen (after any background layout)
    node_selected = Signal(str)  # "" when the selection is cleared
    exported = Signal(str)  # the path of an export just written
    # A file offered as the destination's current capability snapshot (button or drop).
    current_snapshot_chosen = Signal(str)

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
        self._layouts: dict[tuple[int, bool], GraphLayout] = {}  # (plan, all subjects)
        self._plan_index = -1
        self._facts: PlanFacts | None = None
        self._texts: dict[str, NodeText] = {}
        # The small plan laid out before the canvas had a size (laid out again once it has).
        self._unsized: tuple[int, bool] | None = None
        self._outside: dict[str, NodeFacts] = {}  # other plans' subjects, when shown
        self._outside_plan: dict[str, PlanResult] = {}  # ... and the plan each is from
        self._ticket = 0
        self._scene: PlanScene | None = None
        self._current: str | None = None
        self._matches: list[str] = []
        # Exports are proposed beside the document (the host sets its path); the two
        # questions are replaceable so tests answer them without native dialogs.
        self.document_path: str | None = None
        self.ask_save_path: Callable[[QWidget, str, str, str], str | None] = ask_save_path
        self.ask_open_path: Callable[[QWidget, str], str | None] = ask_open_path
        self.confirm: Callable[[QWidget, str, str], bool] = confirm
        self._build()

    # ---- building the widgets -------------------------------------------------------

    def _build(self) -> None:
        # The tool row's widgets (toolbar.py), kept here under their names.
        tools = PlanToolbar(self)
        self.plan_box, self.find_edit, self.path_edit = (
            tools.plan_box,
            tools.find_edit,
            tools.path_edit,
        )
        self._completer, self.show_all_box = tools.completer, tools.show_all_box
        self.export_button, self.snapshot_chip = tools.export_button, tools.snapshot_chip
        self.current_button = tools.current_button
        self.plan_box.currentIndexChanged.connect(self._plan_picked)
        self.find_edit.returnPressed.connect(self._find_next)
        self.path_edit.returnPressed.connect(self._path_entered)
        self.show_all_box.toggled.connect(self._show_all_toggled)
        tools.zoom_out.connect(self._zoom_out)
        tools.zoom_in.connect(self._zoom_in)
        tools.fit.connect(self._fit)
        tools.export_requested.connect(self._export_dialog)
        self.snapshot_chip.dropped.connect(self.current_snapshot_chosen)
        self.current_button.clicked.connect(self._ask_current_snapshot)

        self.view = GraphView()
        self.view.node_clicked.connect(self._node_clicked)
        self.view.background_clicked.connect(self.clear_selection)
        self.view.escape_pressed.connect(self.clear_selection)
        self.view.move_requested.connect(self._move)
        self.view.zoom_changed.connect(self._zoomed)
        self.view.tip_for = self._tip
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

        # The side pane's tabs (side_pane.py), kept here under their names.
        self.side = side = PlanSidePane()
        self.details, self.legend, self.snapshot_tree = (
            side.details,
            side.legend,
            side.snapshot_tree,
        )
        self.findings_model, self.findings_view = side.findings_model, side.findings_view
        self._snapshot_tab = side.snapshot_tab
        self.findings_view.activated.connect(self._finding_activated)
        self.findings_view.clicked.connect(self._finding_activated)

        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.stack)
        self.splitter.addWidget(self.side)
        # The side pane keeps a share of the width (room for the "why" line and the
        # object's tree) until the user moves the splitter.
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.splitterMoved.connect(self._split_moved)
        self._side_share: float | None = SIDE_SHARE
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(tools)
        outer.addWidget(self.splitter, 1)
        outer.addWidget(self.status)
        find = QShortcut(QKeySequence.StandardKey.Find, self)
        find.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        find.activated.connect(self.find_edit.setFocus)
        self._set_enabled(False)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt virtual)
        super().resizeEvent(event)
        total = sum(self.splitter.sizes())
        if self._side_share is not None and total > 0:
            side = round(total * self._side_share)
            self.splitter.setSizes([total - side, side])
        self._fit_to_shape()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt virtual)
        super().showEvent(event)
        self._fit_to_shape()

    def _fit_to_shape(self) -> None:
        """A small plan laid out before the canvas had a size is laid out again for the
        canvas's shape (tall columns fold to fit it), once, keeping the selection."""
        key = self._unsized
        if key is None or key != (self._plan_index, self.show_all_box.isChecked()):
            return
        if self._view_aspect() is None:
            return
        self._unsized = None
        self._layouts.pop(key, None)
        current = self._current
        self._show_plan(self._plan_index)
        if current is not None:
            self.select_node(current, centre=False)

    def _split_moved(self, _position: int, _index: int) -> None:
        self._side_share = None  # the user's width from now on

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt virtual)
        """A new theme: the canvas, nodes and edges take the new palette's colours."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self._scene is not None:
            self._scene.restyle(colours_for(self.palette()))

    def _set_enabled(self, enabled: bool) -> None:
        for widget in (
            self.plan_box,
            self.find_edit,
            self.path_edit,
            self.show_all_box,
            self.export_button,
        ):
            widget.setEnabled(enabled)

    # ---- the host's interface ---------------------------------------------------------

    def show_result(self, result: InspectionResult, document: JsonValue | None = None) -> None:
        """Show ``result``'s plans; ``document`` (the parsed session or profile, optional)
        lets the side pane show each node's object."""
        self.clear()
        self._result = result
        self._document = document
        self._show_snapshot(result)
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
            self.plan_box.addItem(masked_visible(plan.id))
        self.plan_box.blockSignals(False)
        # A loaded report assesses one plan: open on it.
        assessed = result.report.plan_id if result.report is not None else None
        ids = [p.id for p in result.plans]
        index = ids.index(assessed) if assessed in ids else 0
        self.plan_box.blockSignals(True)
        self.plan_box.setCurrentIndex(index)
        self.plan_box.blockSignals(False)
        self._show_plan(index)

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
        self.findings_model.replace_rows(())
        self.details.clear()
        self._outside = {}
        self._outside_plan = {}
        self.status.setText("")
        self._completer.model().setProperty("stringList", [])
        self._set_enabled(False)
        self.stack.setCurrentIndex(_EMPTY)
        self._show_snapshot(None)

    def _show_snapshot(self, result: InspectionResult | None) -> None:
        state = chip_state(result)
        self.snapshot_chip.show_state(state)
        self.current_button.setVisible(state is not None)
        snapshot = None if result is None or result.report is None else result.report.snapshot
        self.side.setTabVisible(self._snapshot_tab, snapshot is not None)
        if snapshot is None or snapshot.value is None:
            self.snapshot_tree.clear()
        else:
            self.snapshot_tree.show_object(snapshot.value, "")
        if snapshot is not None:
            self.side.setTabText(self._snapshot_tab, f"Snapshot ({snapshot.state})")

    def _ask_current_snapshot(self) -> None:
        path = self.ask_open_path(self, "Current capability snapshot")
        if path:
            self.current_snapshot_chosen.emit(path)

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
        show_all = self.show_all_box.isChecked()
        self._outside, self._outside_plan = (
            other_subjects(self._result, plan) if show_all else ({}, {})
        )
        # The texts the nodes show are masked (issue 34, point 1): scanned here in one go,
        # so that drawing a node is a look-up, not a scan of its own.
        prime(node_texts([*facts.nodes.values(), *self._outside.values()]))
        self._texts = {n: node_text(f, facts.has_report) for n, f in facts.nodes.items()}
        self._texts.update({n: node_text(f, has_report=False) for n, f in self._outside.items()})
        self.findings_model.replace_rows(facts.findings)
        # Findings past the document's budget are counted in the core: said, not listed.
        report = self._result.report
        cut = sum(o.count for o in (*self._result.omitted, *plan.omitted))
        if report is not None and report.plan_id == plan.id:
            cut += sum(o.count for o in report.omitted)
        more = f" + {cut:,} not listed" if cut else ""
        self.side.setTabText(1, f"Findings ({len(facts.findings)}{more})")
        self.status.setText(summary_line(facts))
        model = self._completer.model()
        model.setProperty("stringList", sorted([*facts.nodes, *self._outside]))
        cached = self._layouts.get((index, show_all))
        if cached is not None:
            self._show_layout(cached)
            return
        sizes = {n: (t.width, t.height) for n, t in self._texts.items()}
        others = sorted(self._outside)
        aspect = self._view_aspect()
        if len(plan.nodes) + len(others) <= BACKGROUND_THRESHOLD:
            layout = layout_plan(plan, sizes, others=others, aspect=aspect or TARGET_ASPECT)
            self._layouts[(index, show_all)] = layout
            self._unsized = None if aspect else (index, show_all)
            self._show_layout(layout)
            return
        self._ticket += 1
        self._replace_scene(None)
        self._show_message(f"Laying out {len(plan.nodes) + len(others):,} subjects…")
        job = LayoutJob(
            self._ticket, plan, sizes, self._signals, others=others, aspect=aspect or TARGET_ASPECT
        )
        self._pool.start(job)

    def _view_aspect(self) -> float | None:
        """The canvas's width over its height, once it has a real size (None before)."""
        area = self.stack.size()
        if not self.isVisible() or area.width() < 200 or area.height() < 150:
            return None
        return area.width() / area.height()

    @Slot(bool)
    def _show_all_toggled(self, _checked: bool) -> None:
        if self._result is not None and 0 <= self._plan_index < len(self._result.plans):
            self._show_plan(self._plan_index)

    @Slot(int, object)
    def _layout_finished(self, ticket: int, layout: GraphLayout) -> None:
        if ticket != self._ticket or self._facts is None:
            return  # the user moved on to another plan or document
        self._layouts[(self._plan_index, self.show_all_box.isChecked())] = layout
        self._show_layout(layout)

    def wait_for_layout(self, msecs: int = 30_000) -> bool:
        """Block until no layout runs in the background (for scripts and tests)."""
        return bool(self._pool.waitForDone(msecs))

    def _show_layout(self, layout: GraphLayout) -> None:
        assert self._facts is not None
        colours = colours_for(self.palette())
        scene = PlanScene(self._facts, self._texts, layout, colours, self._outside)
        self._replace_scene(scene)
        self.stack.setCurrentIndex(_GRAPH)
        self.details.show_summary(plan_summary(self._facts))
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
        """Select ``node_id``: light the path by which the plan reached it and what it
        needs, and say in the side pane why it is in the plan."""
        scene, facts = self._scene, self._facts
        if scene is None or facts is None or node_id not in scene.nodes:
            return frozenset()
        self._current = node_id
        plan = facts.plan
        if node_id in facts.nodes:
            path = entry_path(plan, node_id) or ()
            lit = scene.focus_why(node_id, path, scene.reach.prerequisites(node_id))
            self.details.show_node(plan, facts.nodes[node_id], scene.reach, self._document)
        else:  # a subject of another plan, shown because All subjects is on
            lit = scene.focus_closure(node_id)
            other = self._outside_plan[node_id]
            self.details.show_node(
                other, self._outside[node_id], Reach.of_plan(other), self._document
            )
            self.details.why.setText(
                f"Not in plan {masked_visible(plan.id)}'s inventory."
                f" In plan {masked_visible(other.id)}:"
                f" {why_line(other, self._outside[node_id].node).removeprefix('Why: ')}"
            )
        self.side.setCurrentIndex(0)
        if centre:
            self.view.centerOn(scene.nodes[node_id])
        self.node_selected.emit(node_id)
        return lit

    def clear_selection(self) -> None:
        if self._scene is not None:
            self._scene.clear_emphasis()
            self._zoomed(self.view.zoom)
        self._current = None
        if self._facts is not None:
            self.details.show_summary(plan_summary(self._facts))
        self.node_selected.emit("")

    def _tip(self, point: QPointF, reach: float) -> str:
        """Hover text: a subject's why and requiredness, or an edge's relation and field."""
        scene, facts = self._scene, self._facts
        if scene is None or facts is None:
            return ""
        node = self.view.node_at(self.view.mapFromScene(point).toPointF())
        if node is not None:
            node_facts = facts.nodes.get(node.node_id)
            if node_facts is None:
                plan_id = masked_visible(facts.plan.id)
                return f"{masked_visible(node.node_id)}\nnot in plan {plan_id}'s inventory"
            return "\n".join(
                (
                    masked_visible(node.node_id),
                    why_line(facts.plan, node_facts.node),
                    requirement_line(facts.plan, node_facts.node),
                )
            )
        drawn = edge_at(scene, point, reach)
        return "" if drawn is None else edge_text(drawn.edge)

    def show_path(self, start: str, end: str) -> tuple[str, ...] | None:
        """Highlight a shortest prerequisite chain between two nodes (either direction)."""
        scene = self._scene
        if scene is None:
            return None
        path = scene.reach.path(start, end)
        if path is None:
            self.status.setText(
                f"No prerequisite path between {masked_visible(start)} and {masked_visible(end)}"
            )
            return None
        scene.focus_path(path)
        self.status.setText("Path: " + " → ".join(masked_visible(p) for p in path))
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
        matches, found = next_match(scene.nodes, needle, self._matches, self._current)
        if found is None:
            self.status.setText(f"No node ID contains {masked_visible(text)!r}")
            return None
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
        # it shows a lit path or closure too.
        if self._scene is not None:
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
            export.export_svg(self._scene, path, f"plan {masked_visible(self._facts.plan.id)}")

    def export_png(self, path: Path) -> None:
        if self._scene is not None:
            export.export_png(self._scene, path)

    def export_dot(self, path: Path) -> None:
        plan = self.current_plan
        if plan is not None:
            export.export_dot(plan, path)

    def _export_dialog(self, kind: str) -> str | None:
        """Ask where, ask before replacing, write, and say which file was written."""
        plan = self.current_plan
        if plan is None:
            return None
        writers = {"svg": self.export_svg, "png": self.export_png, "dot": self.export_dot}
        name = export_with_dialog(
            self,
            kind,
            plan.id,
            self.document_path,
            ask_save_path=self.ask_save_path,
            confirm=self.confirm,
            write=writers[kind],
        )
        if name is not None:
            self.exported.emit(name)
        return name
