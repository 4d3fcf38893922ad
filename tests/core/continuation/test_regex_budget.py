"""Issue 19: a tool schema's `pattern` went straight to `re.compile` — `a{4294967296}`
raised OverflowError and 1,200 nested groups RecursionError, out of
`api.inspect_continuation` and as an "Internal error" in the window. Every pattern a
document carries is now compiled under a budget (core/regex_budget.py), and what the
compiler raises is a finding with a code and a pointer."""

from __future__ import annotations

import re

import pytest

from tests.hostile.corpus import by_name, path_of
from zcf_inspector import api
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.rules.tool_schemas import json_schema_problem
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.regex_budget import (
    DOCUMENT_PATTERN_CHARS,
    MAX_GROUP_DEPTH,
    PatternBudget,
    group_depth,
)

BOMBS = {
    "a{4294967296}": PlanCode.TOOL_SCHEMA_INVALID,  # OverflowError in the compiler
    "(" * 1200 + ")" * 1200: PlanCode.PATTERN_TOO_COMPLEX,  # RecursionError
    "(a|b)" * 1000: PlanCode.PATTERN_TOO_COMPLEX,  # 5,000 characters
    "[a-z": PlanCode.TOOL_SCHEMA_INVALID,  # re.error, as before
}


@pytest.mark.parametrize("pattern", list(BOMBS), ids=["overflow", "nesting", "long", "error"])
def test_a_pattern_the_compiler_cannot_take_is_a_finding(pattern: str) -> None:
    cases: list[tuple[JsonValue, str]] = [
        ({"type": "string", "pattern": pattern}, "/pattern"),
        ({"patternProperties": {pattern: {}}}, "/patternProperties"),
    ]
    for schema, where in cases:
        problem = json_schema_problem(schema)
        assert problem is not None
        assert problem.code is BOMBS[pattern]
        assert problem.pointer == where


def test_a_valid_pattern_is_still_valid() -> None:
    assert json_schema_problem({"pattern": "^(?=a)[a-z]{2,8}$"}) is None
    assert json_schema_problem({"patternProperties": {"^x-": {"type": "string"}}}) is None


def test_the_document_budget_stops_compiling_and_says_so() -> None:
    """Distinct patterns are compiled until the document's budget is spent; the next one
    is reported as not checked, and none after it is compiled."""
    budget = PatternBudget()
    size = 40
    count = DOCUMENT_PATTERN_CHARS // size + 10
    verdicts = [budget.check(f"(a|b)*c{{{i}}}".ljust(size, "d")) for i in range(count)]
    checked = [v for v in verdicts if v.checked]
    assert len(checked) == DOCUMENT_PATTERN_CHARS // size
    assert all(v.problem is None for v in checked)
    assert all(v.problem and "not compiled" in v.problem for v in verdicts[len(checked) :])
    # A repeat is answered from the first verdict, at no cost.
    assert budget.check(f"(a|b)*c{{{0}}}".ljust(size, "d")).checked


def test_a_long_pattern_is_not_kept_in_the_regex_cache() -> None:
    re.purge()
    PatternBudget().check("(x|y)" * 500)
    assert "(x|y)" * 500 not in {key[1] for key in re._cache}  # type: ignore[attr-defined]


def test_group_depth_skips_escapes_and_classes() -> None:
    assert group_depth(r"\(\(\(") == 0
    assert group_depth("[(((]") == 0
    assert group_depth("((a)(b))") == 2
    assert group_depth("(" * (MAX_GROUP_DEPTH + 1)) == MAX_GROUP_DEPTH + 1


def test_nothing_but_findings_leaves_inspect_continuation() -> None:
    data = path_of(by_name("regex-bombs")).read_bytes()
    result = api.inspect_continuation(data)
    codes = {f.code for f in result.findings}
    assert {PlanCode.TOOL_SCHEMA_INVALID, PlanCode.PATTERN_TOO_COMPLEX} <= codes
    pointers = {f.pointer for f in result.findings if f.code is PlanCode.PATTERN_TOO_COMPLEX}
    assert "/tools/2/input_schema/pattern" in pointers  # the nested one (tool t1)


@pytest.mark.parametrize("limit", [RecursionError, MemoryError, OverflowError])
def test_an_interpreter_limit_leaves_the_api_as_a_zcf_error(
    monkeypatch: pytest.MonkeyPatch, limit: type[Exception]
) -> None:
    def hits_a_limit(*_args: object, **_kwargs: object) -> None:
        raise limit("a limit")

    monkeypatch.setattr(api, "_continuation", hits_a_limit)
    with pytest.raises(ZcfError, match="too complex to inspect"):
        api.inspect_continuation(b"{}")
