"""Report cases of the spec's result listing, reproduced as mutations of the fixtures."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.core.continuation.spec_examples import (
    Json,
    codes,
    dump,
    expected_results,
    inspect,
    mutated,
    raw_session,
    report,
    schema_valid,
    session_of,
)
from zcf_inspector.core.continuation.models.report import DestinationReport
from zcf_inspector.core.continuation.models.validation import validate_at


def _subject(r: Json, kind: str, ident: str | None = None) -> Json:
    return next(
        a
        for a in r["assessments"]
        if a["subject"]["kind"] == kind and (ident is None or a["subject"]["id"] == ident)
    )


def _extra_subject(r: Json) -> None:
    r["assessments"].append(
        dict(_subject(r, "model"), subject={"kind": "resource", "id": "absent"})
    )


@dataclass(frozen=True)
class Case:
    name: str
    fixture: str  # report name
    mutate: Callable[[Json], object]
    code: str


REJECTED = [
    Case(
        "changed-source-digest",
        "another-computer",
        lambda r: r["source"].update(document_sha256="0" * 64),
        "report_binding_mismatch",
    ),
    Case(
        "expired-assessment",
        "another-computer",
        lambda r: r.update(expires_at="2026-09-26T12:01:00Z"),
        "report_expired",
    ),
    Case(
        "missing-assessment",
        "another-computer",
        lambda r: r["assessments"].pop(),
        "assessment_missing",
    ),
    Case(
        "optional-downgrade",
        "another-computer",
        lambda r: r["assessments"][0].update(required=False),
        "required_flag_mismatch",
    ),
    Case("extra-subject-refused", "action-specific", _extra_subject, "assessment_extraneous"),
    Case(
        "optional-subject-must-be-inventoried",
        "action-specific",
        lambda r: r["assessments"].remove(_subject(r, "model")),
        "assessment_missing",
    ),
    Case(
        "optional-flag-cannot-be-promoted",
        "action-specific",
        lambda r: _subject(r, "model").update(required=True),
        "required_flag_mismatch",
    ),
    Case(
        "pending-operation-marked-ready",
        "pending-remote-operation",
        lambda r: r.update(outcome="ready"),
        "outcome_mismatch",
    ),
    Case(
        "synthetic-import-claim",
        "another-computer",
        lambda r: r["import_result"].update(status="imported"),
        "synthetic_execution_claim",
    ),
    Case(
        "adaptation-without-mapping",
        "another-agent",
        lambda r: r["transformations"].pop(),
        "adaptation_without_mapping",
    ),
]


@pytest.mark.parametrize("case", REJECTED, ids=lambda c: c.name)
def test_rejected_report_case(case: Case) -> None:
    assert expected_results()[case.name] == "rejected"
    receipt = mutated(report(case.fixture), case.mutate)
    result = inspect(raw_session(session_of(case.fixture)), dump(receipt))
    assert result.report is not None
    assert not result.report.ok
    assert case.code in codes(result), [f.to_json() for f in result.all_findings()]


@pytest.mark.parametrize("case", REJECTED, ids=lambda c: c.name)
def test_report_schema_agrees_with_models_on_mutation(case: Case) -> None:
    receipt = mutated(report(case.fixture), case.mutate)
    model, _ = validate_at(DestinationReport, receipt)
    assert (model is not None) == schema_valid("continuation-report", receipt)


def test_duplicate_assessment_is_reported() -> None:
    receipt = mutated(
        report("another-computer"),
        lambda r: r["assessments"].append(copy.deepcopy(r["assessments"][1])),
    )
    result = inspect(raw_session("another-computer"), dump(receipt))
    assert "assessment_duplicate" in codes(result)
    assert result.report is not None
    (subject,) = [s for s in result.report.subjects if s.node_id == "context:continue-context"]
    assert subject.assessments == 2


def test_expiry_is_exclusive_at_the_expiry_instant() -> None:
    receipt = mutated(
        report("another-computer"), lambda r: r.update(expires_at="2026-09-26T12:30:00Z")
    )
    assert "report_expired" in codes(inspect(raw_session("another-computer"), dump(receipt)))


def test_a_reformatted_session_breaks_the_binding() -> None:
    """The digest binds exact bytes: the same JSON spelled differently is another source."""
    import json

    respelled = (json.dumps(json.loads(raw_session("another-computer"))) + "\n").encode()
    result = inspect(respelled, dump(report("another-computer")))
    assert codes(result) == {"report_binding_mismatch"}


def _accept_all(r: Json) -> None:
    for transformation in r["transformations"]:
        transformation["accepted"] = True
    r["outcome"] = "ready"


def _unsupported_model(r: Json) -> None:
    _subject(r, "model").update(status="unsupported")


def _unaccepted_optional_adaptation(r: Json) -> None:
    _subject(r, "capability", "optional-formatting").update(status="adapted")
    t = copy.deepcopy(report("another-agent")["transformations"][0])
    t["subject"] = _subject(r, "capability", "optional-formatting")["subject"]
    t["accepted"] = False
    r["transformations"] = [t]


ACCEPTED = [
    ("accepted-adaptations-simulated", "another-agent", _accept_all),
    ("optional-unsupported-does-not-block-wait", "action-specific", _unsupported_model),
    (
        "optional-unaccepted-adaptation-does-not-block-wait",
        "action-specific",
        _unaccepted_optional_adaptation,
    ),
]


@pytest.mark.parametrize(("name", "fixture", "mutate"), ACCEPTED, ids=[c[0] for c in ACCEPTED])
def test_accepted_report_case_recomputes_the_listed_outcome(
    name: str, fixture: str, mutate: Callable[[Json], object]
) -> None:
    receipt = mutated(report(fixture), mutate)
    assert schema_valid("continuation-report", receipt)
    result = inspect(raw_session(session_of(fixture)), dump(receipt))
    assert result.report is not None
    assert result.report.findings == ()
    assert result.report.recomputed_outcome == expected_results()[name]
