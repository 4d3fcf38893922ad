"""Pydantic validation turned into findings with JSON pointers, never raw errors."""

from __future__ import annotations

from typing import TypeVar

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from zcf_inspector.core import pointer
from zcf_inspector.core.continuation.codes import PlanCode
from zcf_inspector.core.continuation.models.base import SpecModel
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonValue

M = TypeVar("M", bound=SpecModel)

_CODES = {code.value: code for code in PlanCode}


def _finding(detail: ErrorDetails, prefix: str) -> Finding:
    # A conditional rule raised with a PlanCode as its error type keeps that code; every
    # other pydantic error (type, enum, length, missing field) is a schema violation.
    code = _CODES.get(detail["type"], PlanCode.SCHEMA_VIOLATION)
    loc = detail["loc"]
    message = detail["msg"]
    if detail["type"] == "missing":
        message = f"required field {loc[-1]!r} is missing"
        loc = loc[:-1]
    elif detail["type"] in ("literal_error", "enum"):
        message = f"{message}, got {detail.get('input')!r}"
    where = prefix + pointer.join(*(str(p) for p in loc))
    return error(code, where, message)


def findings_of(exc: ValidationError, prefix: str = "") -> list[Finding]:
    """One finding per pydantic error, each pinned to the pointer of the offending value."""
    seen: set[tuple[str, str, str]] = set()
    out: list[Finding] = []
    for detail in exc.errors(include_url=False):
        finding = _finding(detail, prefix)
        key = (str(finding.code), finding.pointer, finding.message)
        if key not in seen:
            seen.add(key)
            out.append(finding)
    return out


def validate_at(
    model: type[M], value: JsonValue, prefix: str = ""
) -> tuple[M | None, list[Finding]]:
    """``model`` parsed from ``value`` (found at ``prefix``), or None and the findings."""
    try:
        return model.model_validate(value), []
    except ValidationError as exc:
        return None, findings_of(exc, prefix)
