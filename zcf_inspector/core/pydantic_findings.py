"""Pydantic `ValidationError`s translated to profile findings with JSON pointers.

A raw pydantic error is never shown: each becomes `unknown_field`, `missing_field` or
`invalid_value`, pinned to the member it is about.
"""

from __future__ import annotations

from pydantic import ValidationError

from zcf_inspector.core.errors import ErrorCode
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.pointer import join


def findings_from_validation_error(
    exc: ValidationError, *, base: tuple[str | int, ...] = ()
) -> list[Finding]:
    findings: list[Finding] = []
    for item in exc.errors(include_url=False, include_context=False):
        # Union members and validator wrappers add their names to `loc`; keep only keys and indices.
        loc = tuple(
            p
            for p in item["loc"]
            if not (isinstance(p, str) and ("[" in p or p.startswith("function-")))
        )
        pointer = join(*base, *loc)
        name = str(loc[-1]) if loc else "(value)"
        kind = item["type"]
        if kind == "extra_forbidden":
            findings.append(error(ErrorCode.UNKNOWN_FIELD, pointer, f"unknown field {name!r}"))
        elif kind == "missing":
            findings.append(error(ErrorCode.MISSING_FIELD, pointer, f"missing field {name!r}"))
        else:
            message = item["msg"].removeprefix("Value error, ")
            findings.append(error(ErrorCode.INVALID_VALUE, pointer, f"{name}: {message}"))
    return findings
