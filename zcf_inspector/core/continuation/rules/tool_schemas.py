"""Is a tool's `input_schema` / `output_schema` a JSON Schema (draft 2020-12)?

The check follows the 2020-12 meta-schema keyword by keyword (core, applicator,
unevaluated, validation, meta-data, format-annotation and content vocabularies, plus the
deprecated keywords the meta-schema still types): a schema is an object or a boolean,
every known keyword has a value of its declared shape, subschemas are schemas, and
`pattern` (and every `patternProperties` key) compiles as a regular expression — under
the document's `PatternBudget` (core/regex_budget.py): a pattern too long, too deeply
nested or past the budget is reported as not checked (`pattern_too_complex`), and nothing
the compiler raises escapes. Unknown keywords are allowed, as the meta-schema allows them.
URI formats are not asserted.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import NamedTuple, cast

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.exact_numbers import is_integral
from zcf_inspector.core.jsontypes import JsonObject, JsonValue
from zcf_inspector.core.regex_budget import PatternBudget

_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
_ANCHOR = re.compile(r"^[A-Za-z_][-A-Za-z0-9._]*$")
_ID = re.compile(r"^[^#]*#?$")
_SCHEMA: tuple[str, ...] = (
    "items",
    "contains",
    "additionalProperties",
    "propertyNames",
    "if",
    "then",
    "else",
)
_SCHEMA += ("not", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_SCHEMA_ARRAYS = ("prefixItems", "allOf", "anyOf", "oneOf")
_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
_STRINGS: tuple[str, ...] = ("$schema", "$ref", "$dynamicRef", "$recursiveRef", "$comment", "title")
_STRINGS += ("description", "format", "contentEncoding", "contentMediaType")
_NUMBERS = ("maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum")
_COUNTS: tuple[str, ...] = (
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "maxContains",
    "minContains",
)
_COUNTS += ("maxProperties", "minProperties")
_BOOLEANS = ("uniqueItems", "deprecated", "readOnly", "writeOnly")


class Problem(NamedTuple):
    pointer: str  # inside the schema
    message: str  # what is wrong
    code: PlanCode = PlanCode.TOOL_SCHEMA_INVALID  # or PATTERN_TOO_COMPLEX: not checked


# A keyword's problem: a message (the schema is invalid), or a Problem with its own code.
_KeywordProblem = str | Problem | None


def _number(value: JsonValue) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _integer(value: JsonValue) -> bool:
    # Exactly integral (the reader keeps numbers exact): never through a double, which
    # would call 1.00000000000000001 an integer and overflow on 1e400.
    return is_integral(value)


def _string_array(value: JsonValue) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(v, str) for v in value)
        and len(set(cast(list[str], value))) == len(value)
    )


def _regex(value: str, patterns: PatternBudget) -> _KeywordProblem:
    verdict = patterns.check(value)
    if verdict.problem is None or verdict.checked:
        return verdict.problem
    return Problem("", verdict.problem, PlanCode.PATTERN_TOO_COMPLEX)


def _keyword_problem(key: str, value: JsonValue, patterns: PatternBudget) -> _KeywordProblem:
    if key in _STRINGS and not isinstance(value, str):
        return f"{key} must be a string"
    if key == "$id" and not (isinstance(value, str) and _ID.match(value)):
        return "$id must be a URI reference without a fragment"
    if key in ("$anchor", "$dynamicAnchor", "$recursiveAnchor") and not (
        isinstance(value, str) and _ANCHOR.match(value)
    ):
        return f"{key} must be a plain name"
    if key == "$vocabulary" and not (
        isinstance(value, dict) and all(isinstance(v, bool) for v in value.values())
    ):
        return "$vocabulary must map URIs to booleans"
    if key == "type":
        names = value if isinstance(value, list) else [value]
        if isinstance(value, list) and (not value or len(set(map(str, value))) != len(value)):
            return "type must be one name or a non-empty list of distinct names"
        if not all(isinstance(n, str) and n in _SIMPLE_TYPES for n in names):
            return f"type {value!r} names no JSON type"
    if key == "enum" and not isinstance(value, list):
        return "enum must be an array"
    if key == "multipleOf" and not (_number(value) and cast(float, value) > 0):
        return "multipleOf must be a number above 0"
    if key in _NUMBERS and not _number(value):
        return f"{key} must be a number"
    if key in _COUNTS and not (_integer(value) and cast(float, value) >= 0):
        return f"{key} must be a non-negative integer"
    if key in _BOOLEANS and not isinstance(value, bool):
        return f"{key} must be a boolean"
    if key == "pattern":
        return "pattern must be a string" if not isinstance(value, str) else _regex(value, patterns)
    if key == "required" and not _string_array(value):
        return "required must be an array of distinct strings"
    if key == "dependentRequired" and not (
        isinstance(value, dict) and all(_string_array(v) for v in value.values())
    ):
        return "dependentRequired must map names to arrays of distinct strings"
    if key == "examples" and not isinstance(value, list):
        return "examples must be an array"
    if key in _SCHEMA_ARRAYS and not (isinstance(value, list) and value):
        return f"{key} must be a non-empty array of schemas"
    if key in _SCHEMA_MAPS and not isinstance(value, dict):
        return f"{key} must be an object of schemas"
    if key == "dependencies" and not isinstance(value, dict):
        return "dependencies must be an object"
    if key == "patternProperties" and isinstance(value, dict):
        for name in value:
            problem = _regex(name, patterns)
            if problem:
                return problem
    return None


def json_schema_problem(schema: JsonValue, patterns: PatternBudget | None = None) -> Problem | None:
    """The first place ``schema`` is not a draft 2020-12 JSON Schema, or None; its
    regular expressions spend ``patterns`` (one budget per document)."""
    patterns = PatternBudget() if patterns is None else patterns
    pending: list[tuple[JsonValue, str]] = [(schema, "")]
    while pending:
        value, where = pending.pop()
        if isinstance(value, bool):
            continue
        if not isinstance(value, dict):
            return Problem(where, "a schema is an object or a boolean")
        node = value
        for key, member in node.items():
            tick()
            at = pointer.child(where, key)
            problem = _keyword_problem(key, member, patterns)
            if isinstance(problem, Problem):
                return problem._replace(pointer=at + problem.pointer)
            if problem is not None:
                return Problem(at, problem)
            if key in _SCHEMA:
                pending.append((member, at))
            elif key in _SCHEMA_ARRAYS:
                pending.extend(
                    (m, pointer.child(at, i)) for i, m in enumerate(cast(list[JsonValue], member))
                )
            elif key in _SCHEMA_MAPS:
                pending.extend(
                    (m, pointer.child(at, k)) for k, m in cast(JsonObject, member).items()
                )
            elif key == "dependencies":
                for name, m in cast(JsonObject, member).items():
                    if not _string_array(m):  # each is a schema or an array of names
                        pending.append((m, pointer.child(at, name)))
    return None
