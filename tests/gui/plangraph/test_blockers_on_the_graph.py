"""Known blockers and the report's blocking reasons on the plan graph: badge, detail pane,
findings, legend and summary — drawn from the core's results, the same as `plan --json`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.continuation.spec_examples import (
    EXAMPLES,
    dump,
    mutated,
    raw_report,
    raw_session,
    rebind,
    report,
    session,
)
from tests.gui.plangraph.helpers import cli_json, open_pane
from zcf_inspector.gui.plangraph.pane import PlanGraphPane


def _show(pane: PlanGraphPane, plan_id: str) -> None:
    pane.select_plan(pane.plan_box.findText(plan_id))
    assert pane.current_plan is not None
    assert pane.current_plan.id == plan_id


def test_every_node_with_a_known_blocker_wears_the_badge(
    qtbot: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = cli_json(capsys, EXAMPLES / "action-specific.session.json")
    pane = open_pane(qtbot, raw_session("action-specific"))
    for plan in expected["plans"]:
        _show(pane, plan["id"])
        assert pane.scene is not None
        for node in plan["nodes"]:
            item = pane.scene.nodes[node["id"]]
            assert ("known-blocker" in item.marks()) == bool(node["blockers"]), node["id"]
            if node["blockers"]:
                assert "⊘ blocker" in item.text.top
    _show(pane, "await_user")
    assert "3 known blockers" in pane.status.text()


def test_the_detail_pane_gives_each_blocker_and_the_reports_reason(qtbot: Any) -> None:
    pane = open_pane(
        qtbot, raw_session("action-specific"), raw_report("action-specific-model_request")
    )
    _show(pane, "model_request")
    pane.select_node("plan:model_request")
    text = pane.details.toPlainText()
    assert "Known blockers (1): no report may claim it supported" in text
    assert "⊘ pending_decision: model_request while decision 'choose-next' is pending" in text
    assert "(the session at /checkpoints/0/open_decisions)" in text
    assert "The report's blocking reason: Required input, model fit, decision" in text
    pane.select_node("model:model_request")
    text = pane.details.toPlainText()
    assert "⊘ model_fit_unknown: the destination report gives the model fit as 'unknown'" in text
    assert "(the report at /model_assessment/fit)" in text


def test_blockers_and_reasons_are_listed_with_the_findings(qtbot: Any) -> None:
    pane = open_pane(
        qtbot, raw_session("action-specific"), raw_report("action-specific-model_request")
    )
    _show(pane, "model_request")
    model = pane.findings_model
    listed = [model.listed(r) for r in range(model.rowCount())]
    blockers = [x for x in listed if x.source == "known blocker"]
    reasons = [x for x in listed if x.source == "report reason"]
    assert {x.node_id for x in blockers} == {
        "plan:model_request",
        "model:model_request",
        "resource:missing-media",
        "resource:optional-asset",
        "operation:remote-job",
    }
    required = {x.node_id: str(x.finding.severity) for x in blockers}
    assert required["resource:optional-asset"] == "info"  # optional: cannot block readiness
    assert required["resource:missing-media"] == "warning"
    assert [x.node_id for x in reasons] == [
        "plan:model_request",
        "model:model_request",
        "resource:missing-media",
        "operation:remote-job",
        "checkpoint_requirement:head/media-input",
    ]
    row = listed.index(reasons[0])
    assert pane.select_finding(row) == "plan:model_request"
    assert str(reasons[0].finding.code) == "blocking_reason"


def test_a_report_claiming_support_over_a_blocker_is_shown_as_such(qtbot: Any) -> None:
    partial = dump(
        mutated(
            session("another-computer"),
            lambda d: d["configurations"][0].update(knowledge="partial"),
        )
    )
    pane = open_pane(qtbot, partial, dump(rebind(report("another-computer"), partial)))
    assert pane.scene is not None
    item = pane.scene.nodes["configuration:effective"]
    assert "known-blocker" in item.marks()
    assert item.facts.status == "supported"
    model = pane.findings_model
    codes = [str(model.listed(r).finding.code) for r in range(model.rowCount())]
    assert "known_blocker_claimed" in codes
    assert "configuration_not_effective" in codes


def test_the_legend_explains_the_badge(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("another-computer"))
    assert any(e.startswith("known blocker (⊘, ! badge)") for e in pane.legend.entries())
