"""How a destination report's records are read by the report rules: the subject key an
assessment or transformation names, the subject a finding at an assessment is about,
and a parsed record as the exact JSON it was read from (and equality over that)."""

from __future__ import annotations

from typing import cast

from pydantic import BaseModel

from zcf_inspector.core.continuation.models.json_values import json_key
from zcf_inspector.core.continuation.models.report import DestinationReport, Subject
from zcf_inspector.core.continuation.subjects import SubjectKey
from zcf_inspector.core.jsontypes import JsonValue


def subject_key(subject: Subject) -> SubjectKey:
    return SubjectKey(subject.kind, subject.owner_id, subject.id)


def assessment_subject(report: DestinationReport, where: str) -> str | None:
    """The node ID of the subject the assessment at ``where`` (``/assessments/N…`` in the
    report) names; None for a pointer elsewhere in the report."""
    parts = where.split("/")
    if len(parts) < 3 or parts[1] != "assessments" or not parts[2].isdigit():
        return None
    index = int(parts[2])
    if index >= len(report.assessments):
        return None
    return subject_key(report.assessments[index].subject).node_id


def as_json(model: BaseModel | None) -> JsonValue:
    """A parsed object as the JSON it was read from (extra fields kept, unset ones absent)."""
    if model is None:
        return None
    return cast(JsonValue, model.model_dump(mode="json", by_alias=True, exclude_unset=True))


def same(a: BaseModel | None, b: BaseModel | None) -> bool:
    return json_key(as_json(a)) == json_key(as_json(b))
