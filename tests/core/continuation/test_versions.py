"""Both ASIF versions, each read under the contract it declares; mixed pairs refused."""

from __future__ import annotations

import json

import pytest

from tests.core.continuation import spec_examples as v04
from tests.core.continuation import upstream_cases_05 as v05
from tests.core.continuation.upstream_cases import verdict
from zcf_inspector.core.continuation.export.to_json import continuation_json
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.models.schema_check import load_schema
from zcf_inspector.core.document_kind import DocumentKind

OUTCOMES = {
    "another-computer": "ready",
    "another-agent": "adaptation_required",
    "pending-remote-operation": "blocked",
    "action-specific": "ready",
    "action-specific-await_decision": "ready",
    "action-specific-reconcile_operation": "ready",
    "action-specific-model_request": "blocked",
    "action-specific-resume_native": "blocked",
}


def _session_of(report: str) -> str:
    return "action-specific" if report.startswith("action-specific") else report


def _errors(result: object) -> set[tuple[str, str]]:
    return {
        (str(f.code), f.pointer)
        for f in result.all_findings()  # type: ignore[attr-defined]
        if f.severity == "error"
    }


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_each_0_5_example_pair_gives_the_reference_outcome(name: str) -> None:
    result = v05.check(v05.raw_session(_session_of(name)), v05.raw_report(name))
    assert verdict(result, True) == OUTCOMES[name], _errors(result)
    assert result.report is not None
    assert result.report.snapshot is not None
    assert result.report.snapshot.state == "verified"
    assert result.report.report_version == "0.3"


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_each_0_4_example_pair_is_read_as_0_4_without_a_snapshot(name: str) -> None:
    result = v04.inspect(v04.raw_session(_session_of(name)), v04.raw_report(name))
    assert verdict(result, True) == OUTCOMES[name]
    assert result.report is not None
    assert result.report.snapshot is None
    report = continuation_json(result)["report"]
    assert isinstance(report, dict)
    assert "snapshot" not in report


@pytest.mark.parametrize("name", ["session", "continuation", "continuation-report"])
def test_the_shipped_0_5_schemas_are_the_test_data(name: str) -> None:
    shipped = load_schema(name, "asif-0.5")
    assert shipped == json.loads((v05.SPEC_05 / "schemas" / f"{name}.schema.json").read_text())
    assert shipped != load_schema(name)


def test_a_0_3_report_for_a_0_4_session_is_a_mixed_pair() -> None:
    result = inspect_continuation(
        v04.raw_session("another-computer"),
        now=v04.CLOCK,
        report=v05.raw_report("another-computer"),
    )
    assert _errors(result) == {("version_mixed", "/report_version")}
    assert result.report is not None
    assert (
        "'0.3' is an ASIF 0.5 report; the session is ASIF 0.4" in result.report.findings[0].message
    )


def test_a_0_2_report_for_a_0_5_session_is_a_mixed_pair() -> None:
    result = v05.check(v05.raw_session("another-computer"), v04.raw_report("another-computer"))
    assert _errors(result) == {("version_mixed", "/report_version")}


def _mutated_05(change: object) -> bytes:
    doc = json.loads(v05.raw_session("another-computer"))
    change(doc)  # type: ignore[operator]
    return v04.dump(doc)


def test_a_0_2_profile_in_a_0_5_session_is_refused_at_the_profile() -> None:
    data = _mutated_05(lambda d: d["continuation"].update(profile_version="0.2"))
    result = v05.check(data, None)
    assert _errors(result) == {("version_mixed", "/continuation/profile_version")}
    assert result.kind is DocumentKind.ASIF_SESSION


def test_a_0_2_feature_named_in_a_0_5_session_is_refused_at_the_feature() -> None:
    data = _mutated_05(lambda d: d.update(required_features=["asif.portable-continuation/0.2"]))
    assert _errors(v05.check(data, None)) == {("version_mixed", "/required_features/0")}


def test_a_consistent_profile_under_the_other_core_version_is_an_unsupported_version() -> None:
    data = _mutated_05(lambda d: d.update(asif_version="0.4"))
    (finding,) = v05.check(data, None).findings
    assert (str(finding.code), finding.pointer) == ("unsupported_version", "/asif_version")
    assert "not supported with the portable-continuation profile 0.3" in finding.message


def test_a_bare_0_3_profile_is_read_under_0_5() -> None:
    profile = json.loads(v05.raw_session("another-computer"))["continuation"]
    result = v05.check(v04.dump(profile), None)
    assert result.kind is DocumentKind.CONTINUATION_PROFILE
    assert result.ok, _errors(result)
    assert [p.id for p in result.plans] == ["continue-main"]


def test_the_0_5_plan_graph_is_the_0_4_one() -> None:
    """The plan logic is unchanged from 0.4: same subjects, edges and required flags."""
    for name in ("another-computer", "action-specific", "pending-remote-operation"):
        old = v04.inspect(v04.raw_session(name))
        new = v05.check(v05.raw_session(name), None)
        old_shape = [(n.id, n.required, n.missing) for p in old.plans for n in p.nodes]
        new_shape = [(n.id, n.required, n.missing) for p in new.plans for n in p.nodes]
        # Only the profile feature's identifier moves from /0.2 to /0.3.
        assert [s for s in old_shape if "portable-continuation" not in s[0]] == [
            s for s in new_shape if "portable-continuation" not in s[0]
        ]


def test_unknown_versions_name_both_supported_ones() -> None:
    data = _mutated_05(lambda d: d.update(asif_version="0.6"))
    (finding,) = v05.check(data, None).findings
    assert finding.message == "asif_version '0.6' is not supported (only '0.4' or '0.5')"


# --- an unknown required feature beside the session's own (issue 34) ------------------------

BOTH_FEATURES = ["asif.portable-continuation/0.2", "asif.portable-continuation/0.3"]


def _with_both_features() -> bytes:
    doc = v04.session("another-computer")
    doc["required_features"] = list(BOTH_FEATURES)
    return v04.dump(doc)


def test_a_0_4_session_also_requiring_0_3_is_a_valid_0_4_document() -> None:
    # The 0.4 reference accepts it and lists /0.3 among its unsupported features (SPEC.md:
    # report the limitation, never claim the continuation): no version_mixed.
    result = v04.inspect(_with_both_features())
    assert result.kind is DocumentKind.ASIF_SESSION
    assert result.ok, _errors(result)
    assert verdict(result, with_report=False) == "accepted"
    (plan,) = result.plans
    blocked = {n.subject_id: [str(b.code) for b in n.blockers] for n in plan.nodes if n.blockers}
    assert blocked == {"asif.portable-continuation/0.3": ["feature_unsupported"]}
    (node,) = [n for n in plan.nodes if n.subject_id == "asif.portable-continuation/0.3"]
    assert node.pointer == "/required_features/1"
    assert "'asif.portable-continuation/0.3' is not one this checker interprets" in (
        node.blockers[0].reason
    )


def test_with_a_report_the_report_rules_decide_about_the_unknown_feature() -> None:
    source = _with_both_features()
    # The example report does not assess the feature this checker cannot interpret: the
    # report's own rules refuse it, as for any known blocker left unassessed.
    receipt = v04.dump(v04.rebind(v04.report("another-computer"), source))
    result = v04.inspect(source, receipt)
    assert ("version_mixed", "/required_features/1") not in _errors(result)
    assert result.report is not None
    assert ("assessment_missing", "/assessments") in _errors(result)
    assert verdict(result, with_report=True) == "rejected"


def test_the_other_contracts_feature_alone_is_still_a_mix() -> None:
    doc = v04.session("another-computer")
    doc["required_features"] = ["asif.portable-continuation/0.3"]
    result = v04.inspect(v04.dump(doc))
    assert ("version_mixed", "/required_features/0") in _errors(result)
