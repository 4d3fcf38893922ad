"""The 120 upstream ASIF 0.5 checks, our further snapshot mutations and the documented
differences, as data, through `plan` (scripts/compare_reference.py runs the same bytes
through the 0.5 reference checker)."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from tests.core.continuation.upstream_cases import verdict
from tests.core.continuation.upstream_cases_05 import (
    DIFFERENCES_05,
    EXAMPLES_05,
    FAMILIES_05,
    SPEC_05,
    Case05,
    cases,
    check,
    materialise,
    raw_capabilities,
    raw_report,
)
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.findings import Severity

UPSTREAM = cases()
FURTHER = cases(FAMILIES_05)


def _ids(listed: list[Case05]) -> list[str]:
    return [c.name for c in listed]


def _listed() -> dict[str, str]:
    listing = json.loads((SPEC_05 / "tests" / "continuation-results.json").read_text())
    assert listing["checks"] == 120
    return {r["case"]: r["outcome"] for r in listing["results"]}


def _assert_case(case: Case05) -> None:
    source, receipt, current = case.materialise()
    result = check(source, receipt, current)
    errors = [f for f in result.all_findings() if f.severity is Severity.ERROR]
    shown = [f.to_json() for f in result.all_findings()]
    assert verdict(result, receipt is not None) == case.expect["verdict"], shown
    code = case.expect.get("code")
    if code is not None:
        hits = [f for f in errors if f.code == code]
        assert hits, shown
        if "pointer" in case.expect:
            assert case.expect["pointer"] in {f.pointer for f in hits}, shown
    if case.expect.get("new_fingerprint"):
        assert result.report is not None
        assert result.report.snapshot is not None
        original = json.loads(raw_report(case.report or ""))["destination"]
        assert result.report.snapshot.digest != original["capabilities_sha256"]


def test_the_data_restates_all_120_upstream_checks_in_order() -> None:
    listed = _listed()
    assert _ids(UPSTREAM) == list(listed)
    for case in UPSTREAM:
        assert case.expect["verdict"] == listed[case.name], case.name


@pytest.mark.parametrize("case", UPSTREAM, ids=_ids(UPSTREAM))
def test_upstream_0_5_check(case: Case05) -> None:
    _assert_case(case)


@pytest.mark.parametrize("case", FURTHER, ids=_ids(FURTHER))
def test_further_snapshot_mutation(case: Case05) -> None:
    _assert_case(case)


def test_further_mutations_cover_every_family_and_the_snapshot_codes() -> None:
    assert not set(_ids(FURTHER)) & set(_ids(UPSTREAM))
    families = {c.family for c in FURTHER}
    assert families == {
        "snapshot-envelope",
        "snapshot-object",
        "snapshot-components",
        "component-bindings",
        "snapshot-times",
        "current-snapshot",
    }
    known = {str(c) for c in PlanCode}
    for case in UPSTREAM + FURTHER:
        assert case.expect.get("code", "document_refused") in known, case.name


def test_where_the_text_and_the_reference_disagree_the_text_wins() -> None:
    listing = json.loads(DIFFERENCES_05.read_text(encoding="utf-8"))
    assert listing["cases"]
    for diff in listing["cases"]:
        source, receipt, current = materialise(
            diff["session"],
            diff.get("session_patch", ()),
            diff["report"],
            diff.get("report_patch", ()),
            snapshot_patch=diff.get("snapshot_patch"),
        )
        result = check(source, receipt, current)
        assert verdict(result, True) == diff["plan"]["verdict"]
        assert diff["plan"]["pointer"] in {
            f.pointer for f in result.all_findings() if f.code == diff["plan"]["code"]
        }
        # Without the changed component the report stands, as the reference says.
        source, receipt, _ = materialise(
            diff["session"], (), diff["report"], diff.get("report_patch", ())
        )
        assert verdict(check(source, receipt), True) == diff["reference"]["verdict"]


REPORTS = sorted(p.name.removesuffix(".report.json") for p in EXAMPLES_05.glob("*.report.json"))


@pytest.mark.parametrize("name", REPORTS)
def test_each_capabilities_copy_is_the_report_s_embedded_bytes(name: str) -> None:
    report = json.loads(raw_report(name))
    snapshot = report["destination"]["capabilities_snapshot"]
    raw = base64.b64decode(snapshot["data"], validate=True)
    assert raw == raw_capabilities(name)
    assert snapshot["bytes"] == len(raw)
    assert report["destination"]["capabilities_sha256"] == hashlib.sha256(raw).hexdigest()


def test_the_four_snapshot_byte_vectors_are_pinned() -> None:
    listing = json.loads((SPEC_05 / "tests" / "capability-snapshot-vectors.json").read_text())
    vectors = listing["vectors"]
    assert [v["name"] for v in vectors] == ["utf8", "escaped", "reordered", "crlf"]
    pinned = {
        "utf8": (507, "50a181014493ac3cf845f3cfd03e8bc289b8723d2d1939064a51feb551db4a1c"),
        "escaped": (511, "eed137ab896470b48ba309fc9f32da6ab133d0606dd9a23dd2c82262c98762ea"),
        "reordered": (507, "e14709d599351020d6db31481d0eb120cbb2f01e4d25944a3c3328ea106548e8"),
        "crlf": (664, "50d77b0cc188c4636756add659f286504e3ddf31cfce42e910752960e15ce956"),
    }
    for vector in vectors:
        raw = vector["utf8"].encode("utf-8")
        assert (len(raw), hashlib.sha256(raw).hexdigest()) == pinned[vector["name"]]
        assert (vector["bytes"], vector["sha256"]) == pinned[vector["name"]]
