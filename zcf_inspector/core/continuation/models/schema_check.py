"""The published ASIF 0.4 JSON schemas, applied exactly (draft 2020-12, the keywords they use).

The pydantic models give typed access and specific codes for the rules they model; the
schemas (shipped in `zcf_inspector/resources/asif/`, MIT, see SOURCE.md there) are then
applied whole, so that no part of a session the models keep as raw JSON (event data,
coverage, usage, streams, provenance…) escapes its published shape.

Only the keywords these schemas use are implemented (a test checks that no other keyword
occurs): type, const, enum, properties, required, additionalProperties, items, minItems,
maxItems, uniqueItems, contains/minContains/maxContains, minLength, pattern, minimum,
maximum, allOf, anyOf, oneOf, not, if/then/else, dependentRequired and local `$ref`.
Annotations (title, description, contentEncoding, $schema, $id) assert nothing.
Equality follows JSON: `true` is not `1`, `1` is `1.0`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from decimal import Decimal
from functools import cache, partial
from importlib import resources
from typing import cast

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.json_values import SIMPLE_TYPES, is_type, json_key

# The failing value as every message below quotes it (short: the messages are long lines).
from zcf_inspector.core.continuation.models.json_values import short_json as _short
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.errors import FormatError
from zcf_inspector.core.findings import FINDINGS_LIMIT, Finding, FindingBudget, Severity, error
from zcf_inspector.core.jsontypes import JsonValue

# A compiled schema: does ``value`` (at ``where``) conform? With a sink (the document's
# findings budget), every failure goes to it; without one, the check stops at the first.
Check = Callable[[JsonValue, str, "FindingBudget | None"], bool]

ANNOTATIONS = frozenset({"title", "description", "contentEncoding", "$schema", "$id", "$defs"})
KEYWORDS = frozenset(
    {
        "type",
        "const",
        "enum",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
        "minLength",
        "pattern",
        "minimum",
        "maximum",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "$ref",
    }
)


class SchemaError(FormatError):
    """A schema this module cannot apply exactly (a keyword it does not implement)."""

    code = "schema_unsupported"


def _fail(sink: FindingBudget | None, where: str, message: Callable[[], str]) -> bool:
    if sink is not None:
        if sink.full:
            # Past the document's budget: counted, never phrased.
            sink.tally(PlanCode.SCHEMA_VIOLATION, Severity.ERROR, where)
        else:
            # The message is built only when findings are collected: a failing `if`
            # condition or anyOf branch (most of them) costs no formatting.
            sink.append(error(PlanCode.SCHEMA_VIOLATION, where, message()))
    return False


class _Compiler:
    def __init__(self) -> None:
        self.refs: dict[tuple[int, str], Check] = {}

    def ref(self, target: str, base: dict[str, JsonValue]) -> Check:
        """``target`` resolved in ``base``, the nearest enclosing schema with an `$id`."""
        if not target.startswith("#"):
            raise SchemaError(f"only local references are supported: {target!r}")
        found = self.refs.get((id(base), target))
        if found is not None:
            return found
        table: dict[str, Check] = {}

        def late(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
            return table["check"](value, where, sink)

        self.refs[(id(base), target)] = late  # breaks recursion: the body compiles once
        table["check"] = self.compile(pointer.resolve(base, target[1:]), base)
        return late

    def compile(self, schema: JsonValue, base: dict[str, JsonValue] | None = None) -> Check:
        if schema is True:
            return lambda value, where, sink: True
        if schema is False:
            return lambda value, where, sink: _fail(sink, where, lambda: "no value is allowed here")
        if not isinstance(schema, dict):
            raise SchemaError(f"not a schema: {_short(schema)}")
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise SchemaError(f"keywords not implemented: {sorted(unknown)}")
        if base is None or "$id" in schema:
            base = schema
        fast = self._plain_string(schema)
        if fast is not None:
            return fast
        checks = [c for c in (self._keyword(schema, k, base) for k in schema) if c is not None]
        if not checks:
            return lambda value, where, sink: True
        if len(checks) == 1:
            return checks[0]

        def all_of(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
            if sink is None:
                return all(check(value, where, None) for check in checks)
            ok = True
            for check in checks:
                if not check(value, where, sink):
                    ok = False
            return ok

        return all_of

    @staticmethod
    def _plain_string(schema: dict[str, JsonValue]) -> Check | None:
        """`{"type": "string", "minLength": N}` (400 of them in the schemas) as one check."""
        if schema.get("type") != "string" or not set(schema) <= {"type", "minLength"} | ANNOTATIONS:
            return None
        least = cast(int, schema.get("minLength", 0))

        def plain_string(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
            if isinstance(value, str) and len(value) >= least:
                return True
            if not isinstance(value, str):
                return _fail(sink, where, lambda: f"{_short(value)} is not of type string")
            return _fail(sink, where, lambda: f"{_short(value)} is shorter than {least} characters")

        return plain_string

    def _keyword(
        self, schema: dict[str, JsonValue], key: str, base: dict[str, JsonValue]
    ) -> Check | None:
        arg = schema[key]
        if key == "type":
            names = [arg] if isinstance(arg, str) else cast(list[str], arg)
            simple = SIMPLE_TYPES.get(names[0]) if len(names) == 1 else None
            wanted = " or ".join(names)
            if simple is not None:
                # The common case, a single plain type: one isinstance check.
                exact, excluded = simple

                def one_type(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                    if isinstance(value, exact) and not isinstance(value, excluded):
                        return True
                    return _fail(sink, where, lambda: f"{_short(value)} is not of type {wanted}")

                return one_type

            def type_check(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                if any(is_type(value, n) for n in names):
                    return True
                return _fail(sink, where, lambda: f"{_short(value)} is not of type {wanted}")

            return type_check
        if key == "const":
            expected = json_key(arg)
            return lambda v, w, s: (
                json_key(v) == expected or _fail(s, w, lambda: f"{_short(v)} is not {_short(arg)}")
            )
        if key == "enum":
            options = {json_key(x) for x in cast(list[JsonValue], arg)}
            return lambda v, w, s: (
                json_key(v) in options
                or _fail(s, w, lambda: f"{_short(v)} is not one of {_short(arg)}")
            )
        if key == "properties":
            props = {k: self.compile(v, base) for k, v in cast(dict[str, JsonValue], arg).items()}
            return self._properties(props)
        if key == "additionalProperties":
            if arg is True:
                return None
            known = set(cast(dict[str, JsonValue], schema.get("properties", {})))
            extra = self.compile(arg, base)
            return self._additional(known, extra, arg is False)
        if key == "required":
            names = cast(list[str], arg)

            def required(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                if not isinstance(value, dict):
                    return True
                ok = True
                for name in names:
                    if name not in value:
                        ok = _fail(
                            sink, where, partial("required field {!r} is missing".format, name)
                        )
                        if sink is None:
                            return False
                return ok

            return required
        if key == "dependentRequired":
            table = cast(dict[str, list[str]], arg)

            def dependent(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                if not isinstance(value, dict):
                    return True
                ok = True
                for name, needs in table.items():
                    if name in value:
                        for need in needs:
                            if need not in value:
                                ok = _fail(
                                    sink, where, partial("{!r} requires {!r}".format, name, need)
                                )
                return ok

            return dependent
        if key == "items":
            item = self.compile(arg, base)

            def items(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                if not isinstance(value, list):
                    return True
                ok = True
                if sink is None:
                    for element in value:
                        tick()  # a cancellation point every EVERY elements (pulse.py)
                        if not item(element, where, None):
                            return False
                    return True
                for i, element in enumerate(value):
                    tick()
                    if not item(element, pointer.child(where, i), sink):
                        ok = False
                return ok

            return items
        if key in ("minItems", "maxItems", "minLength", "minimum", "maximum"):
            return self._bound(key, cast(int | float, arg))
        if key == "uniqueItems":
            if arg is not True:
                return None

            def unique(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                if not isinstance(value, list):
                    return True
                seen: set[object] = set()
                for element in value:
                    k = json_key(element)
                    if k in seen:
                        return _fail(
                            sink,
                            where,
                            partial("items are not unique: {} repeats".format, _short(element)),
                        )
                    seen.add(k)
                return True

            return unique
        if key == "contains":
            return self._contains(schema, base)
        if key in ("minContains", "maxContains", "then", "else"):
            return None  # applied by `contains` and `if`
        if key == "pattern":
            regex = re.compile(cast(str, arg))
            return lambda v, w, s: (
                not isinstance(v, str)
                or regex.search(v) is not None
                or _fail(s, w, lambda: f"{_short(v)} does not match {arg!r}")
            )
        if key == "allOf":
            parts = [self.compile(x, base) for x in cast(list[JsonValue], arg)]

            def all_of(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                ok = True
                for part in parts:
                    if not part(value, where, sink):
                        ok = False
                        if sink is None:
                            return False
                return ok

            return all_of
        if key == "anyOf":
            parts = [self.compile(x, base) for x in cast(list[JsonValue], arg)]
            return lambda v, w, s: (
                any(p(v, w, None) for p in parts)
                or _fail(s, w, lambda: f"{_short(v)} matches none of the allowed shapes")
            )
        if key == "oneOf":
            parts = [self.compile(x, base) for x in cast(list[JsonValue], arg)]

            def one_of(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                matches = sum(1 for p in parts if p(value, where, None))
                if matches == 1:
                    return True
                if matches == 0:
                    return _fail(
                        sink,
                        where,
                        lambda: f"{_short(value)} matches none of the allowed shapes",
                    )
                return _fail(
                    sink, where, lambda: f"{_short(value)} matches more than one allowed shape"
                )

            return one_of
        if key == "not":
            inner = self.compile(arg, base)
            return lambda v, w, s: (
                not inner(v, w, None)
                or _fail(s, w, lambda: f"{_short(v)} has a shape that is not allowed here")
            )
        if key == "if":
            condition = self.compile(arg, base)
            then = self.compile(schema["then"], base) if "then" in schema else None
            otherwise = self.compile(schema["else"], base) if "else" in schema else None

            def if_then(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
                branch = then if condition(value, where, None) else otherwise
                return branch is None or branch(value, where, sink)

            return if_then
        if key == "$ref":
            return self.ref(cast(str, arg), base)
        return None  # annotations

    @staticmethod
    def _properties(props: dict[str, Check]) -> Check:
        def properties(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
            if not isinstance(value, dict):
                return True
            ok = True
            for name, check in props.items():
                if name not in value:
                    continue
                # Pointers are only built when findings are collected.
                at = where if sink is None else pointer.child(where, name)
                if not check(value[name], at, sink):
                    ok = False
                    if sink is None:
                        return False
            return ok

        return properties

    @staticmethod
    def _additional(known: set[str], extra: Check, closed: bool) -> Check:
        def additional(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
            if not isinstance(value, dict):
                return True
            ok = True
            for name, member in value.items():
                if name in known:
                    continue
                tick()  # a map of many members (pulse.py)
                at = pointer.child(where, name)
                if closed:
                    ok = _fail(sink, at, partial("field {!r} is not allowed here".format, name))
                elif not extra(member, at, sink):
                    ok = False
                if not ok and sink is None:
                    return False
            return ok

        return additional

    @staticmethod
    def _bound(key: str, limit: int | float) -> Check:
        lower = key in ("minItems", "minLength", "minimum")

        def what(value: JsonValue) -> str:
            if isinstance(value, list):
                return f"{len(value)} items"
            if isinstance(value, str):
                return f"{_short(value)} has {len(value)} characters"
            if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
                return _short(value)
            return str(value)

        def bound(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
            if key in ("minItems", "maxItems"):
                if not isinstance(value, list):
                    return True
                size: int | float = len(value)
            elif key == "minLength":
                if not isinstance(value, str):
                    return True
                size = len(value)
            else:
                if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
                    return True
                size = value  # type: ignore[assignment]  # compared exactly, never rounded
            if lower and size < limit:
                return _fail(sink, where, lambda: f"{what(value)}: less than the minimum {limit}")
            if not lower and size > limit:
                return _fail(sink, where, lambda: f"{what(value)}: more than the maximum {limit}")
            return True

        return bound

    def _contains(self, schema: dict[str, JsonValue], base: dict[str, JsonValue]) -> Check:
        inner = self.compile(schema["contains"], base)
        low = cast(int, schema.get("minContains", 1))
        high = cast("int | None", schema.get("maxContains"))

        def contains(value: JsonValue, where: str, sink: FindingBudget | None) -> bool:
            if not isinstance(value, list):
                return True
            count = sum(1 for i, v in enumerate(value) if inner(v, pointer.child(where, i), None))
            if count < low:
                return _fail(sink, where, lambda: f"fewer than {low} items have the required shape")
            if high is not None and count > high:
                return _fail(sink, where, lambda: f"more than {high} items have the required shape")
            return True

        return contains


SCHEMA_FILES = {
    "session": "session.schema.json",
    "continuation": "continuation.schema.json",
    "continuation-report": "continuation-report.schema.json",
}


def load_schema(name: str, folder: str = "asif") -> dict[str, JsonValue]:
    """Published schema ``name`` of the contract whose schemas are in ``folder``."""
    text = resources.files("zcf_inspector.resources").joinpath(folder, SCHEMA_FILES[name])
    return cast(dict[str, JsonValue], json.loads(text.read_text(encoding="utf-8")))


@cache
def compiled(name: str, folder: str = "asif", definition: str | None = None) -> Check:
    """Schema ``name`` compiled, or with ``definition`` only its `$defs` entry of that name."""
    schema = load_schema(name, folder)
    if definition is not None:
        schema = {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}
    return _Compiler().compile(schema)


def check_schema(
    name: str,
    value: JsonValue,
    budget: FindingBudget,
    prefix: str = "",
    *,
    folder: str = "asif",
    definition: str | None = None,
) -> bool:
    """Whether ``value`` keeps the published schema ``name``; where it does not, every
    violation goes to ``budget`` (in full while it has room, then counted)."""
    check = compiled(name, folder, definition)
    if check(value, prefix, None):
        return True
    before = budget.total
    check(value, prefix, budget)
    if budget.total == before:  # pragma: no cover - a failing check always reports
        budget.append(error(PlanCode.SCHEMA_VIOLATION, prefix, "the document breaks the schema"))
    return False


def schema_findings(
    name: str,
    value: JsonValue,
    prefix: str = "",
    limit: int = FINDINGS_LIMIT,
    *,
    folder: str = "asif",
) -> list[Finding]:
    """The places (the first ``limit`` in full) where ``value`` breaks schema ``name``."""
    budget = FindingBudget(limit)
    check_schema(name, value, budget, prefix, folder=folder)
    return list(budget.kept)


def compile_schema(schema: JsonValue) -> Check:
    """A check for any schema restricted to the implemented keywords (tests use it)."""
    return _Compiler().compile(schema)
