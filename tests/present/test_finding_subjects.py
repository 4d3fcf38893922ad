"""Findings land on the plan node they are about by identity: each rule names the subject
of each finding it raises (`Finding.subject`), and the listing, the plan graph, `plan
--json` and the API carry that name — nothing is guessed from the pointer any more."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.core.continuation import upstream_cases as u4
from tests.core.continuation import upstream_cases_05 as u5
from tests.core.continuation.spec_examples import (
    CLOCK,
    CLOCK_TEXT,
    dump,
    inspect,
    mutated,
    raw_session,
    rebind,
    report,
    session,
)
from zcf_inspector import api
from zcf_inspector.cli import main
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.results import InspectionResult, PlanResult
from zcf_inspector.core.continuation.subjects import SubjectKey
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.present.asif_listing import plan_facts

Json = Any


def _prefix_node(plan: PlanResult, pointer: str) -> str | None:
    """What the listing used to guess (kept here only to find the findings the guess gave
    a node): the edge whose field the pointer is, else the longest declared prefix."""
    for edge in plan.edges:
        if edge.pointer == pointer:
            target = plan.node(edge.target)
            return edge.target if target is not None and target.missing else edge.source
    best: tuple[int, str] | None = None
    for node in plan.nodes:
        at = node.pointer
        inside = at is not None and (pointer == at or pointer.startswith(at + "/"))
        if at is not None and inside and (best is None or len(at) > best[0]):
            best = (len(at), node.id)
    return None if best is None else best[1]


def _listed_on(result: InspectionResult, code: PlanCode) -> list[str | None]:
    facts = plan_facts(result, result.plans[0])
    return [item.node_id for item in facts.findings if item.finding.code == code]


def _on_node(result: InspectionResult, node_id: str, code: PlanCode) -> bool:
    facts = plan_facts(result, result.plans[0])
    return any(f.code == code for f in facts.nodes[node_id].findings)


# -- findings a pointer would put on the wrong node -----------------------------------------


def test_a_missing_dependency_is_the_missing_ones_finding_not_its_dependents() -> None:
    """A's `depends_on` entry names B, which the plan does not select: the finding points
    into A's declaration but is about B, and lands on B's (ghost) node."""

    def add_unselected(doc: Json) -> None:
        deps = doc["continuation"]["dependencies"]
        helper = copy.deepcopy(next(d for d in deps if d["id"] == "summary-tool"))
        helper["id"] = "summary-helper"
        deps.append(helper)
        next(d for d in deps if d["id"] == "summary-skill")["depends_on"].append("summary-helper")

    result = inspect(dump(mutated(session("another-computer"), add_unselected)))
    (plan,) = result.plans
    (finding,) = [f for f in plan.findings if f.code == PlanCode.CLOSURE_INCOMPLETE]
    assert finding.pointer == "/continuation/dependencies/2/depends_on/1"  # A's field
    assert finding.subject == "dependency:summary-helper"
    assert _listed_on(result, PlanCode.CLOSURE_INCOMPLETE) == ["dependency:summary-helper"]
    assert _on_node(result, "dependency:summary-helper", PlanCode.CLOSURE_INCOMPLETE)
    assert not _on_node(result, "dependency:summary-skill", PlanCode.CLOSURE_INCOMPLETE)


def test_a_workspace_off_the_boundary_lands_on_the_workspace_not_the_plan() -> None:
    """The finding points at the plan's `workspace_ids` entry (a field of the plan node):
    the pointer named the plan, but the finding is about the workspace."""

    def move(doc: Json) -> None:
        doc["continuation"]["workspaces"][0]["at_event_id"] = "e3"

    result = inspect(dump(mutated(session("another-computer"), move)))
    (plan,) = result.plans
    hits = [f for f in plan.findings if f.code == PlanCode.WORKSPACE_BOUNDARY_MISMATCH]
    assert [f.pointer for f in hits] == ["/continuation/plans/0/workspace_ids/0"]
    assert _prefix_node(plan, hits[0].pointer) == "plan:continue-main"  # the old guess
    assert [f.subject for f in hits] == ["workspace:workspace-head"]
    assert _on_node(result, "workspace:workspace-head", PlanCode.WORKSPACE_BOUNDARY_MISMATCH)
    assert not _on_node(result, "plan:continue-main", PlanCode.WORKSPACE_BOUNDARY_MISMATCH)


def test_a_report_finding_about_an_assessment_lands_on_the_assessed_node() -> None:
    """Report pointers point into the report, never at a session node: the assessment's
    subject is what attaches the finding (before, an ASIF 0.4 report finding had no node)."""
    source = raw_session("another-computer")
    receipt = report("another-computer")
    index = next(
        i for i, a in enumerate(receipt["assessments"]) if a["subject"]["kind"] == "resource"
    )
    receipt["assessments"][index]["required"] = False
    result = inspect(source, dump(rebind(receipt, source)))
    assert result.report is not None
    (finding,) = [f for f in result.report.findings if f.code == PlanCode.REQUIRED_FLAG_MISMATCH]
    node = "resource:" + receipt["assessments"][index]["subject"]["id"]
    assert finding.pointer == f"/assessments/{index}/required"
    assert finding.subject == node
    assert _listed_on(result, PlanCode.REQUIRED_FLAG_MISMATCH) == [node]
    assert _on_node(result, node, PlanCode.REQUIRED_FLAG_MISMATCH)


def test_a_known_blocker_lands_on_the_node_that_holds_it() -> None:
    case = next(c for c in u4.cases() if c.expect.get("code") == "known_blocker_claimed")
    result = u4.check(*u4.case_bytes(case))
    blocked = [(p, n) for p in result.plans for n in p.nodes if n.blockers]
    assert blocked
    for plan, node in blocked:
        facts = plan_facts(result, plan)
        rows = [i for i in facts.findings if i.source == "known blocker"]
        assert {i.finding.pointer for i in rows if i.node_id == node.id} == {
            b.pointer for b in node.blockers
        }
        assert all(i.node_id is not None and facts.nodes[i.node_id].blockers for i in rows)


def test_a_subject_outside_the_plan_lands_on_no_node() -> None:
    plan = inspect(raw_session("another-computer")).plans[0]
    # Pointing at the plan's own declaration, about a subject no plan inventories.
    stray = Finding(
        PlanCode.DANGLING_REFERENCE, Severity.ERROR, plan.pointer, "x", subject="tool:elsewhere"
    )
    result = InspectionResult(None, (stray,), (plan,), None)
    assert [i.node_id for i in plan_facts(result, plan).findings if i.finding is stray] == [None]


# -- every rule names the subject where there is one ------------------------------------------


def _upstream_results() -> Iterator[tuple[str, InspectionResult, bytes | None]]:
    for case in u4.cases() + u4.cases(u4.FAMILIES):
        source, receipt = u4.case_bytes(case)
        yield case.name, u4.check(source, receipt), receipt
    for case05 in u5.cases():
        source, receipt, current = u5.case_bytes(case05)
        yield case05.name, u5.check(source, receipt, current), receipt


@pytest.fixture(scope="module")
def upstream() -> list[tuple[str, InspectionResult, bytes | None]]:
    return list(_upstream_results())


def test_every_finding_inside_a_node_names_a_subject_of_the_plan(
    upstream: list[tuple[str, InspectionResult, bytes | None]],
) -> None:
    """Over the upstream checks: each session or plan finding whose pointer lies in some
    node's declaration (where the old guess found a node) names a subject the plan holds."""
    checked = 0
    for name, result, _ in upstream:
        for plan in result.plans:
            known = {n.id for n in plan.nodes}
            for finding in (*plan.findings, *result.findings):
                if _prefix_node(plan, finding.pointer) is None:
                    continue
                checked += 1
                assert finding.subject in known, (name, finding)
    assert checked > 50  # the property is not vacuous (67 findings today)


def test_every_report_finding_at_an_assessment_names_its_subject(
    upstream: list[tuple[str, InspectionResult, bytes | None]],
) -> None:
    checked = 0
    for name, result, receipt in upstream:
        if result.report is None or receipt is None:
            continue
        try:
            assessments = json.loads(receipt)["assessments"]
        except (ValueError, KeyError, TypeError):
            continue
        for finding in result.report.findings:
            parts = finding.pointer.split("/")
            if len(parts) < 3 or parts[1] != "assessments" or not parts[2].isdigit():
                continue
            subject = assessments[int(parts[2])]["subject"]
            key = SubjectKey(subject["kind"], subject.get("owner_id"), subject["id"])
            checked += 1
            assert finding.subject == key.node_id, (name, finding)
    assert checked > 40


def test_every_subject_is_a_node_id(
    upstream: list[tuple[str, InspectionResult, bytes | None]],
) -> None:
    named = [f.subject for _, r, _ in upstream for f in r.all_findings() if f.subject]
    assert named
    assert all(":" in s and s.split(":", 1)[0].rstrip("!").isidentifier() for s in named)


# -- every front end carries it -------------------------------------------------------------


def test_plan_json_and_the_api_carry_each_findings_subject(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    source = raw_session("another-computer")
    receipt = report("another-computer")
    receipt["assessments"][1]["required"] = False
    (tmp_path / "s.json").write_bytes(source)
    (tmp_path / "r.json").write_bytes(dump(rebind(receipt, source)))
    args = [str(tmp_path / "s.json"), "--report", str(tmp_path / "r.json"), "--now", CLOCK_TEXT]
    main(["plan", "--json", *args])
    shown = json.loads(capsys.readouterr().out)
    rows = shown["report"]["findings"]
    assert all("subject" in row for row in rows)
    (row,) = [r for r in rows if r["code"] == "required_flag_mismatch"]
    assert row["subject"] == "context:continue-context"
    from_api = api.inspect_continuation(source, report=dump(rebind(receipt, source)), now=CLOCK)
    assert from_api.report is not None
    assert [f.subject for f in from_api.report.findings if f.code == row["code"]] == [
        row["subject"]
    ]
