"""The plan-graph pane against the CLI: every example plan, the ghost of a missing
dependency, closure highlighting on click, paths, find, keys, findings and exports."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage

from tests.core.continuation.spec_examples import (
    EXAMPLES,
    dump,
    mutated,
    raw_report,
    raw_session,
    report_names,
    session,
    session_names,
    session_of,
)
from tests.gui.plangraph.helpers import cli, cli_json, open_pane
from zcf_inspector.core.continuation.subjects import RELATIONS, EdgeKind
from zcf_inspector.gui.plangraph.edge_bundle import DrawnEdge, EdgeBundle, EdgeStyle
from zcf_inspector.gui.plangraph.export_dialog import export_stem
from zcf_inspector.gui.plangraph.node_item import NodeItem
from zcf_inspector.gui.plangraph.pane import PlanGraphPane
from zcf_inspector.gui.plangraph.style import DIMMED_OPACITY


def _expected_marks(node: dict[str, Any]) -> set[str]:
    marks = {k for k in ("selected", "required", "missing") if node[k]}
    return marks | ({"known-blocker"} if node["blockers"] else set())


def _drawn(pane: PlanGraphPane) -> dict[str, NodeItem]:
    assert pane.scene is not None
    return pane.scene.nodes


def _bundle_of(pane: PlanGraphPane, drawn: DrawnEdge) -> EdgeBundle:
    assert pane.scene is not None
    return next(b for b in pane.scene.bundles if drawn in b.edges)


def _click(qtbot: Any, pane: PlanGraphPane, node_id: str, shift: bool = False) -> None:
    item = _drawn(pane)[node_id]
    point = pane.view.mapFromScene(item.sceneBoundingRect().center())
    modifier = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(pane.view.viewport(), Qt.MouseButton.LeftButton, modifier, QPoint(point))


@pytest.mark.parametrize("name", session_names())
def test_each_plan_agrees_with_plan_json(
    qtbot: Any, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    expected = cli_json(capsys, EXAMPLES / f"{name}.session.json")
    pane = open_pane(qtbot, raw_session(name))
    assert pane.plan_box.count() == len(expected["plans"])
    for index, plan in enumerate(expected["plans"]):
        pane.select_plan(index)  # example plans are small: laid out at once
        assert pane.current_plan is not None
        assert pane.current_plan.id == plan["id"]
        drawn = _drawn(pane)
        assert len(drawn) == len(plan["nodes"])
        for node in plan["nodes"]:
            assert drawn[node["id"]].marks() - {"blocking", "cycle"} == _expected_marks(node)
            assert drawn[node["id"]].facts.node.type == node["type"]
        assert pane.scene is not None
        assert sorted((e.edge.source, e.edge.target, e.edge.kind) for e in pane.scene.edges) == (
            sorted((e["from"], e["to"], e["kind"]) for e in plan["edges"])
        )


@pytest.mark.parametrize("name", report_names())
def test_report_statuses_are_shown_and_blocking_stands_out(
    qtbot: Any, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    source = session_of(name)
    expected = cli_json(
        capsys,
        EXAMPLES / f"{source}.session.json",
        "--report",
        str(EXAMPLES / f"{name}.report.json"),
    )
    pane = open_pane(qtbot, raw_session(source), raw_report(name))
    result_report = expected["report"]
    plan_ids = [p["id"] for p in expected["plans"]]
    report_plan = json.loads(raw_report(name))["source"]["plan_id"]
    pane.select_plan(plan_ids.index(report_plan))
    drawn = _drawn(pane)
    blocking = {n for n, item in drawn.items() if "blocking" in item.marks()}
    assert bool(blocking) == (result_report["recomputedOutcome"] == "blocked")
    for item in drawn.values():
        status = item.facts.status
        assert item.text.extra is not None
        if status is not None:
            assert status in item.text.extra
        assert ("⚑ blocks" in item.text.extra) == (item.node_id in blocking)


def test_incomplete_closure_shows_a_ghost_naming_its_referrer(
    qtbot: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = dump(
        mutated(
            session("another-computer"),
            lambda d: d["continuation"]["plans"][0]["dependency_ids"].remove("summary-tool"),
        )
    )
    path = tmp_path / "incomplete.session.json"
    path.write_bytes(data)
    expected = cli_json(capsys, path)["plans"][0]
    missing = [n["id"] for n in expected["nodes"] if n["missing"]]
    assert missing == ["dependency:summary-tool"]
    pane = open_pane(qtbot, data)
    ghost = _drawn(pane)["dependency:summary-tool"]
    assert "missing" in ghost.marks()
    assert ghost.text.main == "missing: dependency:summary-tool"
    assert ghost.text.extra == "referenced by dependency:summary-skill"
    assert pane.scene is not None
    ghost_edges = [e for e in pane.scene.edges if e.edge.target == "dependency:summary-tool"]
    assert [e.style for e in ghost_edges] == [EdgeStyle.TO_MISSING]
    assert [_bundle_of(pane, e).pen().style() for e in ghost_edges] == [Qt.PenStyle.DashLine]
    # The closure finding is listed and selects the ghost.
    rows = [pane.findings_model.listed(r) for r in range(pane.findings_model.rowCount())]
    row = next(i for i, r in enumerate(rows) if str(r.finding.code) == "closure_incomplete")
    assert pane.select_finding(row) == "dependency:summary-tool"
    assert "Missing: dependency:summary-skill need it" in pane.details.toPlainText()


def _needs(edges: list[dict[str, Any]], start: str) -> set[str]:
    """What ``start`` needs, walked here from the CLI's prerequisite edges."""
    seen: set[str] = set()
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for edge in edges:
            if edge["prerequisite"] and edge["from"] == node and edge["to"] not in seen:
                seen.add(edge["to"])
                queue.append(edge["to"])
    return seen


def _why_chain(plan: dict[str, Any], node_id: str) -> list[dict[str, Any]]:
    """The CLI's ``via`` edges followed back from ``node_id`` to the plan, plan first."""
    nodes = {n["id"]: n for n in plan["nodes"]}
    chain = []
    while nodes[node_id]["via"] is not None:
        via = nodes[node_id]["via"]
        chain.append({"from": via["from"], "to": node_id, "kind": via["kind"]})
        node_id = via["from"]
    return chain[::-1]


@pytest.mark.parametrize(
    "node_id",
    [
        "dependency:summary-tool",
        "resource:missing-media",
        "plan:model_request",
        "resource:skill-template",
        "checkpoint_requirement:head/viewer",
        "environment:project-env",
    ],
)
def test_clicking_a_node_lights_its_why_path_and_what_it_needs(
    qtbot: Any, capsys: pytest.CaptureFixture[str], node_id: str
) -> None:
    expected = cli_json(capsys, EXAMPLES / "action-specific.session.json")
    pane = open_pane(qtbot, raw_session("action-specific"))
    qtbot.waitExposed(pane)
    index = [p["id"] for p in expected["plans"]].index("model_request")
    pane.select_plan(index)
    plan = expected["plans"][index]
    if node_id not in {n["id"] for n in plan["nodes"]}:
        pytest.fail(f"{node_id} is not in the example plan any more")
    _click(qtbot, pane, node_id)
    assert pane.current_node == node_id
    chain = _why_chain(plan, node_id)
    needs = _needs(plan["edges"], node_id)
    members = {node_id, *needs, *(e["from"] for e in chain)}
    assert pane.scene is not None
    assert pane.scene.highlighted == members
    for other, item in _drawn(pane).items():
        assert item.opacity() == (1.0 if other in members else pytest.approx(DIMMED_OPACITY))
    # The path lit in the path colour is exactly the CLI's chain of `via` edges.
    assert [
        {"from": d.edge.source, "to": d.edge.target, "kind": d.edge.kind}
        for d in pane.scene.path_edges
    ] == chain
    closure = {node_id, *needs}
    lit = {(e["from"], e["to"], e["kind"]) for e in chain} | {
        (e["from"], e["to"], e["kind"])
        for e in plan["edges"]
        if e["prerequisite"] and {e["from"], e["to"]} <= closure
    }
    assert {(d.edge.source, d.edge.target, d.edge.kind) for d in pane.scene.lit} == lit
    assert all(b.opacity() == pytest.approx(DIMMED_OPACITY) for b in pane.scene.bundles)
    # The detail pane says why, in the words of the chain.
    words = " → ".join(
        ["plan model_request"]
        + [f"{e['to'].replace(':', ' ', 1)} ({RELATIONS[EdgeKind(e['kind'])][0]})" for e in chain]
    )
    if chain:
        assert pane.details.why.text() == f"Why: {words}"
    else:
        assert pane.details.why.text() == "Why: plan model_request is the plan being assessed"
    assert pane.details.toPlainText().startswith(node_id)
    # A click on empty canvas clears it.
    qtbot.mouseClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(3, 3))
    assert pane.current_node is None
    assert all(item.opacity() == 1.0 for item in _drawn(pane).values())
    assert pane.scene.lit == ()
    assert pane.scene.path_edges == ()
    assert all(b.opacity() == 1.0 for b in pane.scene.bundles)


def test_side_pane_shows_the_object_as_a_tree(qtbot: Any) -> None:
    pane = open_pane(
        qtbot, raw_session("action-specific"), raw_report("action-specific-model_request")
    )
    pane.select_plan([p.id for p in pane._result.plans].index("model_request"))  # type: ignore[union-attr]
    pane.select_node("resource:missing-media")
    text = pane.details.toPlainText()
    assert "Assessment: unresolved" in text
    assert "blocks the report" in text
    tree = pane.details.object_tree
    assert tree.caption.text() == "Object at /resources/5"
    rows = {
        tree.model.item(r, 0).text(): tree.model.item(r, 1).text()
        for r in range(tree.model.rowCount())
    }
    assert rows["id"] == '"missing-media"'
    # The tree takes the side pane's width (the JSON no longer wraps into a thin column).
    assert tree.view.viewport().width() >= pane.side.width() - 60


def test_shift_click_shows_the_path_between_two_nodes(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    qtbot.waitExposed(pane)
    pane.select_plan([p.id for p in pane._result.plans].index("model_request"))  # type: ignore[union-attr]
    _click(qtbot, pane, "plan:model_request")
    _click(qtbot, pane, "resource:missing-media", shift=True)
    assert pane.scene is not None
    assert pane.scene.highlighted == {
        "plan:model_request",
        "checkpoint_requirement:head/media-input",
        "resource:missing-media",
    }
    assert pane.show_path("resource:missing-media", "plan:model_request") == (
        "plan:model_request",
        "checkpoint_requirement:head/media-input",
        "resource:missing-media",
    )
    assert pane.show_path("plan:model_request", "dependency:agent-runtime") is None
    assert "No prerequisite path" in pane.status.text()


def test_find_selects_matching_nodes_in_turn(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    assert pane.find_node("RESOURCE:missing-MEDIA") == "resource:missing-media"
    first = pane.find_node("summary")
    second = pane.find_node("summary")
    assert first is not None
    assert second is not None
    assert first != second
    assert pane.find_node("no such node") is None
    qtbot.keyClicks(pane.find_edit, "skill-template")
    qtbot.keyClick(pane.find_edit, Qt.Key.Key_Return)
    assert pane.current_node == "resource:skill-template"


def test_keyboard_moves_between_neighbours_and_zooms(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    pane.select_plan([p.id for p in pane._result.plans].index("model_request"))  # type: ignore[union-attr]
    pane.select_node("dependency:summary-skill")
    view = pane.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert pane.current_node in {"dependency:summary-tool", "resource:skill-template"}
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert pane.current_node is not None
    assert pane.scene is not None
    assert "dependency:summary-skill" in pane.scene.reach.needed_by[
        "dependency:summary-tool"
    ] or pane.current_node in pane.scene.reach.needed_by.get("resource:skill-template", ())
    before = view.zoom
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    assert view.zoom > before
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    assert view.zoom < before
    qtbot.keyClick(view, Qt.Key.Key_F)
    assert view.zoom == pytest.approx(before)


def test_exports_write_svg_png_and_the_cli_dot(
    qtbot: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    pane.select_plan(1)
    pane.select_node("context:continue-context")
    plan = pane.current_plan
    assert plan is not None
    pane.export_svg(tmp_path / "plan.svg")
    pane.export_png(tmp_path / "plan.png")
    pane.export_dot(tmp_path / "plan.dot")
    root = ET.parse(tmp_path / "plan.svg").getroot()
    assert root.tag.endswith("svg")
    svg_text = (tmp_path / "plan.svg").read_text()
    assert "continue-context" in svg_text
    image = QImage(str(tmp_path / "plan.png"))
    assert not image.isNull()
    assert image.width() > 100
    _, dot = cli(capsys, EXAMPLES / "action-specific.session.json", "--dot", "--plan", plan.id)
    assert (tmp_path / "plan.dot").read_text() == dot
    assert dot.startswith('digraph "plan:')
    assert dot.rstrip().endswith("}")


def test_findings_model_passes_qt_checks(qtbot: Any, qtmodeltester: Any) -> None:
    data = dump(
        mutated(
            session("another-computer"),
            lambda d: d["continuation"]["dependencies"][0].update(depends_on=["agent-runtime"]),
        )
    )
    pane = open_pane(qtbot, data)
    assert pane.findings_model.rowCount() > 0
    qtmodeltester.check(pane.findings_model)
    assert pane.scene is not None
    cyclic = [e for e in pane.scene.edges if e.edge.in_cycle]
    assert cyclic
    assert all(e.style is EdgeStyle.CYCLE for e in cyclic)
    assert all(_bundle_of(pane, e).pen().color().name() == "#d32f2f" for e in cyclic)
    assert all("cycle" in _drawn(pane)[e.edge.source].marks() for e in cyclic)


def test_a_bare_profile_opens_and_clear_empties_the_pane(qtbot: Any) -> None:
    profile = dump(session("pending-remote-operation")["continuation"])
    pane = open_pane(qtbot, profile)
    assert pane.current_plan is not None
    assert pane.scene is not None
    pane.clear()
    assert pane.scene is None
    assert pane.plan_box.count() == 0
    assert pane.findings_model.rowCount() == 0


def test_document_text_is_drawn_as_plain_text(qtbot: Any) -> None:
    data = dump(
        mutated(
            session("another-computer"),
            lambda d: d["continuation"]["plans"][0]["dependency_ids"].append("<b>x</b>\u202e"),
        )
    )
    pane = open_pane(qtbot, data)
    ghost = _drawn(pane)["dependency:<b>x</b>\u202e"]
    assert ghost.text.main == "missing: dependency:<b>x</b>\\u202e"


def test_legend_names_every_type_state_and_status(qtbot: Any) -> None:
    pane = PlanGraphPane()
    qtbot.addWidget(pane)
    entries = " ".join(pane.legend.entries())
    for word in (
        "dependency",
        "workspace",
        "service",
        "operation",
        "native import",
        "context",
        "resource",
        "environment",
        "requirement",
        "required",
        "optional",
        "missing",
        "cycle",
        "supported",
        "adapted",
        "omitted",
        "unresolved",
        "unsupported",
    ):
        assert word in entries


def test_an_exported_svg_carries_no_hostile_character_raw(qtbot: Any, tmp_path: Path) -> None:
    """Issue 18, point 5: exported labels and titles follow the one text rule too."""
    hostile = "\u202e\u2066\u200b\u2028\x1b\x85\x9b"
    document = session("action-specific")
    for plan in document["continuation"]["plans"]:
        plan["id"] = plan["id"] + hostile
    pane = open_pane(qtbot, json.dumps(document, ensure_ascii=False).encode("utf-8"))
    assert pane.current_plan is not None
    assert pane.current_plan.id.endswith(hostile)  # the document's own id, unchanged
    pane.export_svg(tmp_path / "plan.svg")
    svg = (tmp_path / "plan.svg").read_text("utf-8")
    assert not set(hostile) & set(svg)
    assert not any(f"&#{ord(c)};" in svg or f"&#x{ord(c):x};" in svg for c in hostile)
    assert "\\u202e" in svg  # the title names the plan, escaped


def test_exports_mask_a_credential_held_in_an_id(qtbot: Any, tmp_path: Path) -> None:
    """Issue 34, point 1: a token as a plan's id and as a subject's id reaches neither the
    drawn graph (so neither its SVG nor its PNG), the SVG's title nor the DOT export."""
    tokens = ["ghp_" + (f"{n:03d}" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789")[:36] for n in (1, 2)]
    text = json.dumps(session("action-specific"), ensure_ascii=False)
    assert "continue-context" in text
    text = text.replace("continue-context", tokens[1])
    document = json.loads(text)
    document["continuation"]["plans"][0]["id"] = tokens[0]
    pane = open_pane(qtbot, json.dumps(document, ensure_ascii=False).encode("utf-8"))
    pane.select_plan(0)
    assert pane.current_plan is not None
    assert pane.current_plan.id == tokens[0]  # the document's own id, unchanged
    pane.export_svg(tmp_path / "plan.svg")
    pane.export_dot(tmp_path / "plan.dot")
    pane.export_png(tmp_path / "plan.png")
    hidden = "ghp_…(40 characters, hidden)"
    drawn = [item.text.main for item in _drawn(pane).values()]
    assert hidden in drawn
    outputs = {
        "svg": (tmp_path / "plan.svg").read_text("utf-8"),
        "dot": (tmp_path / "plan.dot").read_text("utf-8"),
        "drawn": "\n".join(drawn),
        "plan box": "\n".join(pane.plan_box.itemText(i) for i in range(pane.plan_box.count())),
    }
    assert {name: [t for t in tokens if t in out] for name, out in outputs.items()} == {
        name: [] for name in outputs
    }
    assert f"plan {hidden}" in outputs["svg"]  # the title, masked
    assert f'label="context:{hidden}"' in outputs["dot"]
    stem = export_stem("s.json", tokens[0])  # the name the export dialog suggests
    assert stem.startswith("s.plan-ghp_")
    assert tokens[0] not in stem
