"""Continuation documents validated by their pydantic models, problems as findings.

The translation itself is the program's one (`core.pydantic_findings`); here only the code:
a conditional rule raised with a `PlanCode` as its error type keeps that code, every other
pydantic error (type, enum, length, missing or unknown field) is a schema violation.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import ValidationError

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.base import SpecModel
from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pydantic_findings import (
    ValidationIssue,
    findings_from_validation_error,
)

M = TypeVar("M", bound=SpecModel)

_CODES = {code.value: code for code in PlanCode}


def _plan_code(issue: ValidationIssue) -> PlanCode:
    return _CODES.get(issue.error_type, PlanCode.SCHEMA_VIOLATION)


def findings_of(exc: ValidationError, prefix: str = "") -> list[Finding]:
    """One finding per pydantic error, each pinned to the pointer of the offending member."""
    return findings_from_validation_error(exc, prefix=prefix, code_of=_plan_code)


def validate_at(
    model: type[M], value: JsonValue, prefix: str = ""
) -> tuple[M | None, list[Finding]]:
    """``model`` parsed from ``value`` (found at ``prefix``), or None and the findings."""
    try:
        return model.model_validate(value), []
    except ValidationError as exc:
        return None, findings_of(exc, prefix)
