"""Every public example: sessions carry no error, reports check clean with the listed outcome."""

from __future__ import annotations

import pytest

from tests.core.continuation.spec_examples import (
    expected_results,
    inspect,
    raw_report,
    raw_session,
    report,
    report_names,
    session_names,
    session_of,
)
from zcf_inspector.core.continuation.subjects import SubjectKey
from zcf_inspector.core.document_kind import DocumentKind


@pytest.mark.parametrize("name", session_names())
def test_example_session_has_no_error(name: str) -> None:
    result = inspect(raw_session(name))
    assert result.kind is DocumentKind.ASIF_SESSION
    assert [f for f in result.all_findings() if f.severity == "error"] == []
    assert result.plans


@pytest.mark.parametrize("name", report_names())
def test_example_report_checks_clean_against_its_session(name: str) -> None:
    result = inspect(raw_session(session_of(name)), raw_report(name))
    assert result.report is not None
    assert result.report.findings == ()
    assert result.ok
    assert result.report.recomputed_outcome == report(name)["outcome"]


@pytest.mark.parametrize("name", report_names())
def test_recomputed_outcome_matches_the_spec_result_listing(name: str) -> None:
    listed = expected_results()
    case = name if name in listed else "same-capture-" + name.rsplit("-", 1)[-1]
    if name == "action-specific":
        case = "action-specific"
    result = inspect(raw_session(session_of(name)), raw_report(name))
    assert result.report is not None
    assert result.report.recomputed_outcome == listed[case]


@pytest.mark.parametrize("name", report_names())
def test_computed_inventory_is_exactly_the_example_report_subjects(name: str) -> None:
    """§10a: the fixture reports list every inventoried subject with its computed flag."""
    receipt = report(name)
    result = inspect(raw_session(session_of(name)), plan_id=receipt["source"]["plan_id"])
    (plan,) = result.plans
    computed = {(n.type, n.owner, n.subject_id): n.required for n in plan.nodes}
    listed = {
        (a["subject"]["kind"], a["subject"].get("owner_id"), a["subject"]["id"]): a["required"]
        for a in receipt["assessments"]
    }
    assert computed == listed


@pytest.mark.parametrize("name", report_names())
def test_report_alone_is_recognised_and_checked_without_its_session(name: str) -> None:
    result = inspect(raw_report(name))
    assert result.kind is DocumentKind.CONTINUATION_REPORT
    assert result.plans == ()
    assert result.report is not None
    assert result.report.findings == ()
    assert result.report.recomputed_outcome == report(name)["outcome"]
    assert all(s.computed_required is None for s in result.report.subjects)


def test_bare_profile_is_recognised_and_walked() -> None:
    import json

    profile = json.loads(raw_session("another-computer"))["continuation"]
    result = inspect(json.dumps(profile).encode())
    assert result.kind is DocumentKind.CONTINUATION_PROFILE
    assert result.ok
    (plan,) = result.plans
    assert set(plan.closure.dependencies) == set(profile["plans"][0]["dependency_ids"])
    assert plan.closure.missing == ()
    assert [str(f.code) for f in result.findings] == ["core_check_skipped"]


def test_subject_key_node_ids_are_owner_scoped() -> None:
    assert SubjectKey("resource", None, "report").node_id == "resource:report"
    assert SubjectKey("capability", "effective", "summary-skill").node_id == (
        "capability:effective/summary-skill"
    )
