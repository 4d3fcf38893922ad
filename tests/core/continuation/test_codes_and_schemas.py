"""The closed code tables, the published-schema check and the tool-schema check.

The schema check and the tool-schema check are compared with `jsonschema` (a test tool,
not on the packet path) on the public examples and on seeded random mutations of them.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator, SchemaError

from tests.core.continuation.spec_examples import (
    EXAMPLES,
    SCHEMAS,
    raw_report,
    raw_session,
    report_names,
    schema_valid,
    session_names,
)
from zcf_inspector.core.code_registry import BLOCKER_MEANINGS, meaning_of, severity_of
from zcf_inspector.core.codes import BlockerCode, PlanCode
from zcf_inspector.core.continuation.models.schema_check import (
    ANNOTATIONS,
    KEYWORDS,
    check_schema,
    compile_schema,
    load_schema,
    schema_findings,
)
from zcf_inspector.core.continuation.rules.tool_schemas import json_schema_problem
from zcf_inspector.core.findings import FindingBudget, Severity
from zcf_inspector.core.pointer import resolve

Json = Any


def test_every_plan_code_has_a_severity_and_a_meaning() -> None:
    # (tests/core/test_errors.py checks the whole registry; these are the plan codes' own.)
    for code in PlanCode:
        assert isinstance(severity_of(code), Severity)
        assert 10 < len(meaning_of(code)) <= 100, code
    assert severity_of(PlanCode.RESOURCE_NOT_CHECKED) is Severity.INFO


def test_every_blocker_code_has_a_meaning() -> None:
    assert set(BLOCKER_MEANINGS) == set(BlockerCode)
    assert all(len(m) > 10 for m in BLOCKER_MEANINGS.values())


def test_codes_are_stable_snake_case_strings() -> None:
    for code in [*PlanCode, *BlockerCode]:
        assert code.value == code.name.lower()


def _keywords(value: Json, in_map: bool = False) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, member in value.items():
            if not in_map:
                found.add(key)
            found |= _keywords(member, key in ("properties", "$defs", "dependentRequired"))
    elif isinstance(value, list):
        for member in value:
            found |= _keywords(member)
    return found


@pytest.mark.parametrize("name", ["session", "continuation", "continuation-report"])
def test_the_shipped_schemas_are_the_test_data_and_use_only_implemented_keywords(
    name: str,
) -> None:
    shipped = load_schema(name)
    assert shipped == json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    assert _keywords(shipped) <= KEYWORDS | ANNOTATIONS


@pytest.mark.parametrize("name", session_names() + report_names())
def test_every_example_meets_its_schema(name: str) -> None:
    raw = raw_session(name) if name in session_names() else raw_report(name)
    kind = "session" if name in session_names() else "continuation-report"
    assert schema_findings(kind, json.loads(raw)) == []


def _paths(value: Json, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for key, member in value.items():
            out += _paths(member, (*at, key))
    elif isinstance(value, list):
        for i, member in enumerate(value):
            out += _paths(member, (*at, i))
    return out


REPLACEMENTS: list[Json] = [None, True, 0, 1, -1, 1.5, "", "x", [], {}, ["x"], 2**53]


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_the_schema_check_agrees_with_jsonschema_on_random_mutations(name: str) -> None:
    original = json.loads((EXAMPLES / name).read_text())
    kind = "session" if "asif_version" in original else "continuation-report"
    rng = random.Random(name)
    paths = _paths(original)[1:]
    for _ in range(150):
        doc = copy.deepcopy(original)
        path = rng.choice(paths)
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if rng.random() < 0.7:
            parent[path[-1]] = copy.deepcopy(rng.choice(REPLACEMENTS))
        else:
            del parent[path[-1]]
        findings = schema_findings(kind, doc)
        assert (findings == []) == schema_valid(kind, doc), path
        for finding in findings:
            assert finding.code is PlanCode.SCHEMA_VIOLATION
            resolve(doc, finding.pointer)  # every finding points into the document


def test_a_schema_finding_points_at_the_value_and_names_it() -> None:
    doc = json.loads(raw_session("another-computer"))
    doc["continuation"]["plans"][0]["boundary"]["method"] = "guessed"
    (finding,) = schema_findings("session", doc)
    assert finding.pointer == "/continuation/plans/0/boundary/method"
    assert "'guessed'" in finding.message or '"guessed"' in finding.message


def test_schema_violations_past_the_budget_are_counted_not_dropped() -> None:
    # Every place a document breaks the schema is a finding: the first ones in full, the
    # rest counted with the first pointer (they were once dropped past 200, unsaid).
    check = compile_schema({"items": {"type": "string"}})
    budget = FindingBudget(limit=10)
    assert not check(list(range(50)), "/xs", budget)
    assert [f.pointer for f in budget.kept] == [f"/xs/{i}" for i in range(10)]
    (counted,) = budget.omitted()
    assert (counted.code, counted.count, counted.first_pointer) == (
        PlanCode.SCHEMA_VIOLATION,
        40,
        "/xs/10",
    )
    assert budget.total == 50
    doc = json.loads(raw_session("another-computer"))
    for plan in doc["continuation"]["plans"]:
        plan["boundary"]["method"] = "guessed"
    doc["continuation"]["plans"] *= 300
    everything = FindingBudget(limit=5)
    assert not check_schema("session", doc, everything)
    assert len(everything.kept) == 5
    assert everything.total >= 300


def test_a_failing_value_is_quoted_in_a_few_characters_however_large() -> None:
    check = compile_schema({"type": "string"})
    huge: Json = {"k" * 1_000_000: [list(range(1000))] * 1000}
    budget = FindingBudget()
    assert not check(huge, "", budget)
    (finding,) = budget.kept
    assert len(finding.message) < 200
    assert finding.message.startswith('{"kkkk')


def test_json_equality_keeps_true_apart_from_one() -> None:
    check = compile_schema({"enum": [1]})
    assert check(1, "", None)
    assert not check(True, "", None)
    unique = compile_schema({"uniqueItems": True})
    assert unique([1, True], "", None)
    assert not unique([{"a": 1}, {"a": 1}], "", None)


TOOL_SCHEMAS: list[Json] = [
    True,
    False,
    {},
    {"type": "object", "properties": {"a": {"type": "string", "pattern": "^a+$"}}},
    {"type": "objekt"},
    {"type": ["string", "string"]},
    {"type": []},
    {"required": ["a", "a"]},
    {"required": "a"},
    {"pattern": "("},
    {"properties": []},
    {"properties": {"a": 3}},
    {"minLength": -1},
    {"minLength": 1.0},
    {"minLength": 1.5},
    {"items": [{"type": "string"}]},
    {"prefixItems": []},
    {"$id": "urn:x#frag"},
    {"$id": "urn:x#"},
    {"$anchor": "9bad"},
    {"$anchor": "good_anchor-1"},
    {"enum": "a"},
    {"enum": []},
    {"allOf": []},
    {"anyOf": [{"type": "string"}, True]},
    {"not": 5},
    {"x-unknown": {"type": 3}},
    {"patternProperties": {"(": {}}},
    {"patternProperties": {"^a": {"type": "string"}}},
    {"dependentRequired": {"a": ["b", "b"]}},
    {"dependencies": {"a": ["b"], "c": {"type": "string"}}},
    {"dependencies": {"a": 3}},
    {"multipleOf": 0},
    {"multipleOf": 0.5},
    {"$vocabulary": {"urn:v": "yes"}},
    {"uniqueItems": "yes"},
    {"$defs": {"a": {"type": 1}}},
    {"definitions": {"a": {"type": "string"}}},
    {"contentSchema": {"type": 2}},
    {"if": {"type": "string"}, "then": {"minLength": 2}, "else": []},
    {"deprecated": 1},
    {"examples": {}},
    {"const": {"anything": [1, 2]}},
    {"format": 3},
    {"maxContains": True},
    {"properties": {"a": {"properties": {"b": {"items": {"type": "nope"}}}}}},
    [],
    "string",
]


@pytest.mark.parametrize("schema", TOOL_SCHEMAS, ids=[json.dumps(s)[:40] for s in TOOL_SCHEMAS])
def test_the_tool_schema_check_agrees_with_the_2020_12_meta_schema(schema: Json) -> None:
    try:
        Draft202012Validator.check_schema(schema)
        valid = True
    except SchemaError:
        valid = False
    problem = json_schema_problem(schema)
    assert (problem is None) == valid, problem
    if problem is not None:
        resolve(schema, problem.pointer)
