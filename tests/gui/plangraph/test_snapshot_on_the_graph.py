"""ASIF 0.5 on the plan graph: the snapshot chip, the snapshot as a tree, each assessed
node's bound component, a binding problem as a finding on its node, and the current
snapshot offered by button or drop — all drawn from the core's `SnapshotResult`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from tests.core.continuation.upstream_cases_05 import (
    EXAMPLES_05,
    check,
    raw_capabilities,
    raw_report,
    raw_session,
)
from tests.gui.driving import _drag_enter, drop_and_wait, wait_idle
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.reading import read_json
from zcf_inspector.gui.plangraph.pane import PlanGraphPane
from zcf_inspector.gui.plangraph.snapshot_chip import chip_state
from zcf_inspector.gui.theme import Tone
from zcf_inspector.opener.documents import ContinuationDocument
from zcf_inspector.present.asif_listing import plan_facts


def _open(qtbot: Any, source: bytes, receipt: bytes, current: bytes | None = None) -> PlanGraphPane:
    pane = PlanGraphPane()
    qtbot.addWidget(pane)
    pane.resize(1400, 900)
    pane.show_result(check(source, receipt, current), read_json(source))
    pane.show()
    pane.wait_for_layout()
    qtbot.waitUntil(lambda: pane.scene is not None)
    return pane


def test_the_chip_and_the_snapshot_tree_show_the_verified_snapshot(qtbot: Any) -> None:
    pane = _open(qtbot, raw_session("another-computer"), raw_report("another-computer"))
    chip = pane.snapshot_chip
    assert chip.isVisible()
    assert chip.text() == "Snapshot: verified (12 components)"
    assert chip.state is not None
    assert chip.state.tone is None
    assert "does not authenticate their producer" in chip.toolTip()
    assert pane.current_button.isVisible()
    tab = pane.side.indexOf(pane.snapshot_tree)
    assert pane.side.isTabVisible(tab)
    assert pane.side.tabText(tab) == "Snapshot (verified)"
    model = pane.snapshot_tree.model
    keys = [model.item(r, 0).text() for r in range(model.rowCount())]
    assert "components" in keys
    assert "runtime_revision" in keys


def test_each_assessed_node_shows_its_bound_component(qtbot: Any) -> None:
    pane = _open(qtbot, raw_session("another-computer"), raw_report("another-computer"))
    assert pane.scene is not None
    result = check(raw_session("another-computer"), raw_report("another-computer"))
    assert result.report is not None
    assert result.report.snapshot is not None
    matched = [b for b in result.report.snapshot.bindings if b.matching is not None]
    assert len(matched) >= 10
    for binding in matched:
        item = pane.scene.nodes[binding.node_id]
        assert item.text.extra is not None
        assert f"→ {binding.matching}" in item.text.extra, binding.node_id
    binding = matched[0]
    pane.select_node(binding.node_id)
    text = pane.details.toPlainText()
    assert f"bound to {binding.matching}:" in text
    assert "Destination components named:" in text


def test_a_broken_binding_is_a_finding_on_its_node(qtbot: Any) -> None:
    receipt = json.loads(raw_report("another-computer"))
    index = next(
        i for i, a in enumerate(receipt["assessments"]) if a["subject"]["kind"] == "dependency"
    )
    receipt["assessments"][index]["component_ids"] = []
    data = json.dumps(receipt).encode()
    result = check(raw_session("another-computer"), data)
    plan = result.plans[0]
    facts = plan_facts(result, plan)
    subject = receipt["assessments"][index]["subject"]
    node_id = f"dependency:{subject['id']}"
    node = facts.nodes[node_id]
    assert node.binding_problem
    assert [str(f.code) for f in node.findings] == ["component_binding_missing"]
    listed = [f for f in facts.findings if f.finding.code == "component_binding_missing"]
    assert [f.node_id for f in listed] == [node_id]
    pane = _open(qtbot, raw_session("another-computer"), data)
    assert pane.scene is not None
    assert "⚠ binding" in (pane.scene.nodes[node_id].text.extra or "")
    assert pane.snapshot_chip.text() == "Snapshot: refused"
    assert pane.snapshot_chip.state is not None
    assert pane.snapshot_chip.state.tone is Tone.BAD
    row = next(
        r
        for r in range(pane.findings_model.rowCount())
        if "component_binding_missing" in str(pane.findings_model.index(r, 0).data())
        or "component_binding_missing" in str(pane.findings_model.index(r, 1).data())
    )
    assert pane.select_finding(row) == node_id


def test_a_changed_current_snapshot_makes_the_chip_say_stale(qtbot: Any) -> None:
    snapshot = json.loads(raw_capabilities("another-computer"))
    for component in snapshot["components"]:
        if component["kind"] == "model":
            component["input_limit"] = 4000
    current = json.dumps(snapshot).encode()
    pane = _open(qtbot, raw_session("another-computer"), raw_report("another-computer"), current)
    state = pane.snapshot_chip.state
    assert state is not None
    assert state.tone is Tone.BAD
    assert pane.snapshot_chip.text() == "Snapshot: current differs — report stale"
    assert "REPORT STALE: destination changed since assessment — model context 8k → 4k" in (
        pane.snapshot_chip.toolTip()
    )
    same = check(
        raw_session("another-computer"),
        raw_report("another-computer"),
        raw_capabilities("another-computer"),
    )
    matches = chip_state(same)
    assert matches is not None
    assert matches.text == "Snapshot: current matches"


def test_no_chip_for_a_0_4_report(qtbot: Any) -> None:
    from tests.core.continuation.spec_examples import inspect
    from tests.core.continuation.spec_examples import raw_report as report_04
    from tests.core.continuation.spec_examples import raw_session as session_04

    pane = PlanGraphPane()
    qtbot.addWidget(pane)
    pane.show_result(inspect(session_04("another-computer"), report_04("another-computer")))
    assert not pane.snapshot_chip.isVisibleTo(pane)
    assert not pane.current_button.isVisibleTo(pane)
    assert not pane.side.isTabVisible(pane.side.indexOf(pane.snapshot_tree))


def test_the_button_and_a_drop_offer_the_current_snapshot(qtbot: Any, tmp_path: Path) -> None:
    pane = _open(qtbot, raw_session("another-computer"), raw_report("another-computer"))
    chosen: list[str] = []
    pane.current_snapshot_chosen.connect(chosen.append)
    pane.ask_open_path = lambda parent, title: str(tmp_path / "asked.json")
    qtbot.mouseClick(pane.current_button, Qt.MouseButton.LeftButton)
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(tmp_path / "dropped.json"))])
    enter = _drag_enter(QPointF(5, 5), data)
    QApplication.sendEvent(pane.snapshot_chip, enter)
    assert enter.isAccepted()
    event = QDropEvent(
        QPointF(5, 5),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(pane.snapshot_chip, event)
    assert chosen == [str(tmp_path / "asked.json"), str(tmp_path / "dropped.json")]


def test_the_window_checks_a_current_snapshot_off_the_ui_thread(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    window.apply_settings(None, parse_datetime("2026-09-26T12:30:00Z"))
    tab = drop_and_wait(
        qtbot,
        window,
        [
            EXAMPLES_05 / "another-computer.session.json",
            EXAMPLES_05 / "another-computer.report.json",
        ],
    )
    pane = tab.plan_graph_pane
    assert isinstance(pane, PlanGraphPane)
    assert pane.snapshot_chip.text() == "Snapshot: verified (12 components)"
    snapshot = json.loads(raw_capabilities("another-computer"))
    snapshot["runtime_revision"] = "changed"
    current = tmp_path / "current.json"
    current.write_text(json.dumps(snapshot))
    pane.current_snapshot_chosen.emit(str(current))
    qtbot.waitUntil(lambda: pane.snapshot_chip.text() != "Snapshot: verified (12 components)")
    wait_idle(qtbot, window)
    assert pane.snapshot_chip.text() == "Snapshot: current differs — report stale"
    assert "runtime revision" in pane.snapshot_chip.toolTip()
    document = tab.document
    assert isinstance(document, ContinuationDocument)
    assert document.current_path == str(current)
    # The current snapshot is kept when the document is checked again (Settings).
    window.apply_settings(None, parse_datetime("2026-09-26T12:31:00Z"))
    wait_idle(qtbot, window)
    pane = tab.plan_graph_pane
    assert pane is not None
    assert pane.snapshot_chip.text() == "Snapshot: current differs — report stale"
