"""Issue 11 in the window: the plan at the root, every subject reached by a named edge,
the "why" of each subject, hover texts, the legend's relations, other plans' subjects on
request, the report's plan first, and the palette's colours on the new marks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPointF
from PySide6.QtGui import QHelpEvent, QPalette

from tests.core.continuation.spec_examples import (
    raw_report,
    raw_session,
    report_names,
    session_names,
    session_of,
)
from tests.gui.plangraph.helpers import open_pane
from zcf_inspector.core.continuation.subjects import EdgeKind
from zcf_inspector.core.continuation.why import entry_path, why_text
from zcf_inspector.gui.plain_tooltip import tip_label
from zcf_inspector.gui.plangraph.edge_bundle import EdgeStyle
from zcf_inspector.gui.plangraph.pane import PlanGraphPane
from zcf_inspector.gui.plangraph.plan_scene import OUTSIDE_OPACITY
from zcf_inspector.gui.theme import dark_palette, light_palette


@pytest.mark.parametrize("name", session_names())
def test_every_subject_is_drawn_reached_from_the_plan(qtbot: Any, name: str) -> None:
    """Every drawn subject: its why path is lit edge by edge from the plan node, and the
    detail pane says the chain in words."""
    pane = open_pane(qtbot, raw_session(name))
    assert pane._result is not None
    for index, plan in enumerate(pane._result.plans):
        pane.select_plan(index)
        scene = pane.scene
        assert scene is not None
        root = f"plan:{plan.id}"
        box = {b.id: b for b in scene.layout.nodes}
        assert box[root].layer == 0  # the plan node first
        assert [b.id for b in scene.layout.nodes if b.layer == 0] == [root]
        for node in plan.nodes:
            pane.select_node(node.id, centre=False)
            path = entry_path(plan, node.id)
            assert path is not None
            lit = [(d.edge.source, d.edge.target, d.edge.kind) for d in scene.path_edges]
            assert lit == [(e.source, e.target, e.kind) for e in path]
            assert pane.details.why.text() == (
                f"Why: {why_text(plan, node)}"
                if path
                else f"Why: plan {plan.id} is the plan being assessed"
            )
        # Drawn edge styles say the relation's kind: selection dotted, prerequisite solid.
        for drawn in scene.edges:
            if drawn.style in (EdgeStyle.NEEDS, EdgeStyle.SELECTS):
                expected = EdgeStyle.NEEDS if drawn.edge.prerequisite else EdgeStyle.SELECTS
                assert drawn.style is expected


def test_the_why_text_of_the_issue(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    assert pane._result is not None
    pane.select_plan([p.id for p in pane._result.plans].index("await_user"))
    pane.select_node("resource:source-csv")
    assert pane.details.why.text() == (
        "Why: plan await_user → context continue-context (context_id) → resource source-csv (input)"
    )
    assert pane.scene is not None
    assert pane.scene.highlighted == {
        "plan:await_user",
        "context:continue-context",
        "resource:source-csv",
    }
    assert "Optional: nothing required needs it" in pane.details.toPlainText()


def _centre(pane: PlanGraphPane, node_id: str) -> QPointF:
    assert pane.scene is not None
    return QPointF(pane.view.mapFromScene(pane.scene.nodes[node_id].sceneBoundingRect().center()))


def test_hover_names_a_subjects_why_and_an_edges_relation(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("another-computer"))
    qtbot.waitExposed(pane)
    pane.view.resetTransform()  # 1:1, so edges are a few pixels wide
    scene = pane.scene
    assert scene is not None
    text = pane.view.tip_at(_centre(pane, "resource:source-csv"))
    assert text.splitlines() == [
        "resource:source-csv",
        "Why: plan continue-main → context continue-context (context_id)"
        " → resource source-csv (input)",
        "Required: needed by context continue-context (input), which is required"
        " (2 more required subjects need it)",
    ]
    # An edge: a point on its visible piece names its relation, field and kind.
    drawn = next(d for d in scene.edges if d.edge.kind == "input_resource")
    route = drawn.route.drawn or drawn.route.points
    (x0, y0), (x1, y1) = route[-2], route[-1]
    middle = QPointF((x0 + x1) / 2, (y0 + y1) / 2)
    pane.view.centerOn(middle)
    where = QPointF(pane.view.mapFromScene(middle))
    lines = pane.view.tip_at(where).splitlines()
    assert lines[1].startswith("input_resource (input): ")
    assert lines[2].startswith("field: /contexts/0/inputs/")
    assert lines[3].startswith("prerequisite")
    # Qt's own tooltip event shows it as plain text.
    event = QHelpEvent(
        QEvent.Type.ToolTip, where.toPoint(), pane.view.viewport().mapToGlobal(where.toPoint())
    )
    pane.view.viewportEvent(event)
    label = tip_label()
    assert label is not None
    assert label.text().splitlines()[1] == lines[1]


def test_the_legend_names_every_relation(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("another-computer"))
    entries = pane.legend.entries()
    for kind in EdgeKind:
        assert f"{kind.value} ({kind.label})" in entries
    assert "selects (selection edge, dotted)" in entries
    assert "why: the path from the plan (click)" in entries
    row = entries.index("selects_context (context_id)")
    heading_rows = 3  # Types, States, then Relations: one heading each before the row
    y = 4 + 22 * heading_rows + 24 * row + 12
    assert pane.legend.tip_at(y).startswith("the plan selects this context")


def test_other_plans_subjects_only_on_request_set_apart_and_dimmed(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    assert pane._result is not None
    plans = pane._result.plans
    pane.select_plan([p.id for p in plans].index("await_user"))
    plan = pane.current_plan
    assert plan is not None
    own = {n.id for n in plan.nodes}
    everything = {n.id for p in plans for n in p.nodes}
    assert pane.scene is not None
    assert set(pane.scene.nodes) == own  # not drawn unless asked
    pane.show_all_box.setChecked(True)
    scene = pane.scene
    assert scene is not None
    assert set(scene.nodes) == everything
    assert scene.outside == everything - own
    assert scene.caption is not None
    bottom = max(b.y + b.height for b in scene.layout.nodes if b.id in own)
    for node_id in scene.outside:
        assert scene.nodes[node_id].opacity() == pytest.approx(OUTSIDE_OPACITY)
        box = next(b for b in scene.layout.nodes if b.id == node_id)
        assert box.component == 1
        assert box.y > bottom
    outsider = sorted(scene.outside)[0]
    pane.select_node(outsider, centre=False)
    assert pane.details.why.text().startswith(f"Not in plan {plan.id}'s inventory. In plan ")
    pane.show_all_box.setChecked(False)
    assert pane.scene is not None
    assert set(pane.scene.nodes) == own


@pytest.mark.parametrize("name", report_names())
def test_the_pane_opens_on_the_plan_the_report_assesses(qtbot: Any, name: str) -> None:
    pane = open_pane(qtbot, raw_session(session_of(name)), raw_report(name))
    plan = pane.current_plan
    assert plan is not None
    assert plan.id == json.loads(raw_report(name))["source"]["plan_id"]
    assert pane.plan_box.currentText() == plan.id


def test_new_marks_take_the_palettes_colours(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    scene = pane.scene
    assert scene is not None
    light = scene.colours
    selects = next(b for b in scene.bundles if b.edges[0].style is EdgeStyle.SELECTS)
    assert selects.pen().color().name() == light.selection
    pane.setPalette(dark_palette())
    dark = scene.colours
    assert dark.dark
    assert scene.backgroundBrush().color().name() == dark.background
    assert selects.pen().color().name() == dark.selection
    assert dark.selection != light.selection
    pane.setPalette(light_palette())
    assert not scene.colours.dark
    assert isinstance(pane.palette(), QPalette)
