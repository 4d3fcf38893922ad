"""Issue 11: every subject of a plan's inventory is reached from the plan by a named edge.

Checked on every plan of the public examples, the upstream-check and family mutations,
the benchmark generators and the graph cases; the fuzz checks hold every random plan to
the same invariant (``tests/fuzz/checks.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.core.continuation.relations import (
    assert_explained,
    assert_pointers_name_their_fields,
)
from tests.core.continuation.spec_examples import (
    CLOCK,
    inspect,
    raw_session,
    session,
    session_names,
)
from tests.core.continuation.test_graph_walks import CASES, _profile
from tests.core.continuation.upstream_cases import FAMILIES, case_bytes, cases, check
from tests.perf.bench_continuation import dag, generated_profile
from tests.perf.bench_limits import chain_session
from zcf_inspector.core.continuation.export.to_dot import plan_dot
from zcf_inspector.core.continuation.export.to_json import plan_json
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.subjects import RELATIONS, SELECTIONS, EdgeKind
from zcf_inspector.core.continuation.why import entry_path, why_text


@pytest.mark.parametrize("name", session_names())
def test_every_example_subject_is_reached_from_its_plan(name: str) -> None:
    result = inspect_continuation(raw_session(name), now=CLOCK)
    assert result.plans
    for plan in result.plans:
        assert assert_explained(plan) == len(plan.nodes)
        assert_pointers_name_their_fields(plan, session(name))


def test_every_bare_profile_subject_is_reached_from_its_plan() -> None:
    profile = session("another-computer")["continuation"]
    result = inspect_continuation(json.dumps(profile).encode(), now=CLOCK)
    for plan in result.plans:
        assert_explained(plan)
        assert_pointers_name_their_fields(plan, profile)


@pytest.mark.parametrize("listing", [None, FAMILIES], ids=["upstream-checks", "family-mutations"])
def test_every_mutated_case_subject_is_reached_from_its_plan(listing: Any) -> None:
    checked = 0
    for case in cases() if listing is None else cases(listing):
        source, receipt = case_bytes(case)
        result = check(source, receipt)
        document = json.loads(source)
        for plan in result.plans:
            checked += assert_explained(plan)
            if result.ok:  # a valid source: every pointer resolves to its field
                assert_pointers_name_their_fields(plan, document)
    assert checked


@pytest.mark.parametrize("count", [1, 60, 400])
def test_every_generated_plan_subject_is_reached_from_its_plan(count: int) -> None:
    profile = generated_profile(dag(count, 4))
    (plan,) = inspect_continuation(json.dumps(profile).encode(), now=CLOCK).plans
    assert assert_explained(plan) == len(plan.nodes)
    assert_pointers_name_their_fields(plan, profile)
    inventoried = {n.subject_id for n in plan.nodes if n.type == "dependency"}
    assert inventoried >= {d["id"] for d in profile["dependencies"]}


def test_a_long_generated_chain_is_reached_from_its_plan() -> None:
    data = chain_session(3_000)
    (plan,) = inspect_continuation(data, now=CLOCK).plans
    assert_explained(plan)
    assert_pointers_name_their_fields(plan, json.loads(data))
    deepest = entry_path(plan, "dependency:c2999")
    # Every dependency is selected by the plan, so each one is one selection away.
    assert deepest is not None
    assert [e.kind for e in deepest] == ["selects_dependency"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_graph_cases_are_reached_from_their_plan(case: Any) -> None:
    (plan,) = inspect(_profile(case.graph, case.selected)).plans
    assert_explained(plan)


def test_unselected_dependency_is_explained_by_what_needs_it() -> None:
    (plan,) = inspect(_profile({"a": ["b"], "b": ["c"], "c": []}, ["a"])).plans
    path = entry_path(plan, "dependency:c")
    assert path is not None
    assert [(e.source, e.kind) for e in path] == [
        ("plan:continue-main", "selects_dependency"),
        ("dependency:a", "depends_on"),
        ("dependency:b", "depends_on"),
    ]


def test_why_text_of_a_context_input() -> None:
    result = inspect_continuation(raw_session("action-specific"), now=CLOCK)
    plan = next(p for p in result.plans if p.id == "await_user")
    node = plan.node("resource:source-csv")
    assert node is not None
    assert why_text(plan, node) == (
        "plan await_user → context continue-context (context_id) → resource source-csv (input)"
    )
    root = plan.node("plan:await_user")
    assert root is not None
    assert why_text(plan, root) == "plan await_user"


def test_selection_edges_carry_no_requirement() -> None:
    """await_user requires no execution subject: the context is inventoried, not required,
    although the plan's selection edge reaches it."""
    result = inspect_continuation(raw_session("action-specific"), now=CLOCK)
    plan = next(p for p in result.plans if p.id == "await_user")
    context = plan.node("context:continue-context")
    assert context is not None
    assert not context.required
    assert context.via is not None
    assert not context.via.prerequisite
    assert context.referenced_by == ()  # only prerequisite edges count as references


def test_relation_set_is_closed_and_described() -> None:
    assert set(RELATIONS) == set(EdgeKind)
    assert set(EdgeKind) > SELECTIONS
    assert len({k.value for k in EdgeKind}) == len(EdgeKind)


def test_json_and_dot_carry_the_relations() -> None:
    result = inspect_continuation(raw_session("action-specific"), now=CLOCK)
    plan = next(p for p in result.plans if p.id == "await_user")
    doc = plan_json(plan)
    edges = doc["edges"]
    nodes = doc["nodes"]
    assert isinstance(edges, list)
    assert isinstance(nodes, list)
    assert {
        "from": "plan:await_user",
        "to": "context:continue-context",
        "kind": "selects_context",
        "pointer": plan.pointer + "/context_id",
        "prerequisite": False,
    } in edges
    via = {n["id"]: n["via"] for n in nodes if isinstance(n, dict)}
    assert via["plan:await_user"] is None
    assert via["resource:source-csv"] == {
        "from": "context:continue-context",
        "kind": "input_resource",
        "pointer": "/contexts/0/inputs/1/parts/1/resource_id",
    }
    dot = plan_dot(plan)
    # DOT ids are synthetic (n0, n1, … in node order); the labels name the subjects.
    order = [n.id for n in plan.nodes]
    source, target = order.index("plan:await_user"), order.index("context:continue-context")
    assert f'  n{source} [label="plan:await_user"' in dot
    assert f'  n{target} [label="context:continue-context"' in dot
    assert (
        f'n{source} -> n{target} [label="selects_context",'
        f' tooltip="{plan.pointer}/context_id", style="dashed", color="gray40",'
        ' fontcolor="gray40"];'
    ) in dot


def test_docs_list_every_relation() -> None:
    # The plan graph's page of the manual (docs/guide/plan-graph.md) holds the table.
    readme = (Path(__file__).parents[3] / "docs" / "guide" / "plan-graph.md").read_text(
        encoding="utf-8"
    )
    rows = {
        line.split("|")[1].strip().strip("`"): line
        for line in readme.splitlines()
        if line.startswith("| `")
    }
    for kind in EdgeKind:
        relation = "prerequisite" if kind.prerequisite else "selection"
        assert f"| {relation} | {kind.label} | {kind.meaning} |" in rows[kind.value]
