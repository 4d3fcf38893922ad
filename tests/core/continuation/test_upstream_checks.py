"""The 71 upstream ASIF 0.4 checks and our further mutations, as data, through `plan`.

Each case (tests/data/asif-0.4/upstream-checks.json, family-mutations.json) is a JSON
Patch mutation of a public example with the verdict and finding code `plan` must give;
scripts/compare_reference.py runs the same bytes through the reference checker.
"""

from __future__ import annotations

import pytest

from tests.core.continuation.spec_examples import expected_results
from tests.core.continuation.upstream_cases import (
    FAMILIES,
    Case,
    PatchError,
    apply_patch,
    case_bytes,
    cases,
    check,
    verdict,
)
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.findings import Severity

UPSTREAM = cases()
FURTHER = cases(FAMILIES)


def _ids(listed: list[Case]) -> list[str]:
    return [c.name for c in listed]


def _assert_case(case: Case) -> None:
    source, receipt = case_bytes(case)
    result = check(source, receipt)
    errors = [f for f in result.all_findings() if f.severity is Severity.ERROR]
    shown = [f.to_json() for f in result.all_findings()]
    assert verdict(result, receipt is not None) == case.expect["verdict"], shown
    code = case.expect.get("code")
    if code is not None:
        hits = [f for f in errors if f.code == code]
        assert hits, shown
        if "pointer" in case.expect:
            assert case.expect["pointer"] in {f.pointer for f in hits}, shown
    for row in case.expect.get("required", []):
        (plan,) = [p for p in result.plans if p.id == row["plan"]]
        node = plan.node(f"{row['kind']}:{row['id']}") or next(
            n for n in plan.nodes if n.type == row["kind"] and n.subject_id == row["id"]
        )
        assert node.required is row["required"], row
    for subject in case.expect.get("not_inventoried", []):
        assert all(
            not any(n.type == subject["kind"] and n.subject_id == subject["id"] for n in p.nodes)
            for p in result.plans
        )


def test_the_data_restates_all_71_upstream_checks_in_order() -> None:
    listed = expected_results()
    assert _ids(UPSTREAM) == list(listed)
    assert len(UPSTREAM) == 71
    for case in UPSTREAM:
        assert case.expect["verdict"] == listed[case.name], case.name


@pytest.mark.parametrize("case", UPSTREAM, ids=_ids(UPSTREAM))
def test_upstream_check(case: Case) -> None:
    _assert_case(case)


@pytest.mark.parametrize("case", FURTHER, ids=_ids(FURTHER))
def test_further_mutation_of_a_rule_family(case: Case) -> None:
    _assert_case(case)


def test_every_expected_code_is_a_plan_code() -> None:
    known = {str(c) for c in PlanCode}
    for case in UPSTREAM + FURTHER:
        assert case.expect.get("code", "document_refused") in known, case.name


def test_further_mutations_are_new_names_and_cover_the_families() -> None:
    assert not set(_ids(FURTHER)) & set(_ids(UPSTREAM))
    assert len(set(_ids(FURTHER))) == len(FURTHER)
    families = {c.family for c in FURTHER}
    assert {
        "tool-correlation",
        "instruction-binding",
        "resource-integrity",
        "model-fit",
        "dependency-resolution",
        "path-bindings",
        "known-blockers",
        "services",
        "recovery",
        "core-requirements",
        "observed-evidence",
        "blocking-reasons",
        "omissions",
    } <= families
    outcomes = {c.expect["verdict"] for c in FURTHER}
    assert {"rejected", "accepted", "ready", "blocked"} <= outcomes


def test_a_patch_that_does_not_apply_is_refused() -> None:
    with pytest.raises(PatchError):
        apply_patch({"a": [1]}, [{"op": "remove", "path": "/a/3"}])
    with pytest.raises(PatchError):
        apply_patch({"a": 1}, [{"op": "replace", "path": "/b", "value": 2}])
    assert apply_patch({"a": [1]}, [{"op": "add", "path": "/a/-", "value": 2}]) == {"a": [1, 2]}
