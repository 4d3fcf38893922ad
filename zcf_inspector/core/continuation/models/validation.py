"""Continuation documents validated by their pydantic models, problems as findings.

The translation itself is the program's one (`core.pydantic_findings`); here only the code:
a conditional rule raised with a `PlanCode` as its error type keeps that code, every other
pydantic error (type, enum, length, missing or unknown field) is a schema violation.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import ValidationError

from zcf_inspector.core.bounded_validation import validate_bounded
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.base import SpecModel
from zcf_inspector.core.continuation.pulse import current_monitor
from zcf_inspector.core.findings import Finding, FindingBudget
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pydantic_findings import (
    FindingSink,
    ValidationIssue,
    findings_from_validation_error,
)

M = TypeVar("M", bound=SpecModel)

_CODES = {code.value: code for code in PlanCode}


def _plan_code(issue: ValidationIssue) -> PlanCode:
    return _plan_code_of_type(issue.error_type)


def _plan_code_of_type(error_type: str) -> PlanCode:
    return _CODES.get(error_type, PlanCode.SCHEMA_VIOLATION)


def findings_of(exc: ValidationError, prefix: str = "") -> list[Finding]:
    """One finding per pydantic error, each pinned to the pointer of the offending member."""
    return findings_from_validation_error(exc, prefix=prefix, code_of=_plan_code)


def validate_at(
    model: type[M], value: JsonValue, prefix: str = "", budget: FindingBudget | None = None
) -> tuple[M | None, list[Finding]]:
    """``model`` parsed from ``value`` (found at ``prefix``), or None and the findings.

    Validated in bounded pieces (`core.bounded_validation`); the findings go to
    ``budget`` when given (the document's), and the ones it keeps are returned.
    """
    budget = FindingBudget() if budget is None else budget
    before = len(budget.kept)
    sink = FindingSink(budget, prefix=prefix, code_of=_plan_code_of_type)
    # Cancel stops a large document inside its validation, not only between the checks.
    ok, parsed = validate_bounded(model, value, sink, monitor=current_monitor())
    if ok and isinstance(parsed, model):
        return parsed, []
    return None, budget.kept[before:]
