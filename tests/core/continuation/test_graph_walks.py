"""Named table of graph shapes: the closure (and its order), cycles and required flags.

Each case replaces the dependencies of the another-computer profile and selects all of
them except the ones the case leaves out; the profile is checked as a bare profile.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

import pytest

from tests.core.continuation.spec_examples import Json, inspect, session
from zcf_inspector.core.continuation.walks import breadth_first, cycles, reachable


def _dependency(ident: str, depends_on: list[str], required_for: list[str]) -> Json:
    return {
        "id": ident,
        "kind": "package",
        "identity": f"example.{ident}",
        "accepted_versions": ["1"],
        "platform": {"os": [], "architectures": []},
        "required_for": required_for,
        "depends_on": depends_on,
        "resource_ids": [],
        "binding": {"kind": "package", "reference": f"example.{ident}"},
    }


def _profile(
    graph: dict[str, list[str]],
    selected: list[str],
    required_for: dict[str, list[str]] | None = None,
) -> bytes:
    profile = session("another-computer")["continuation"]
    profile["dependencies"] = [
        _dependency(ident, deps, (required_for or {}).get(ident, []))
        for ident, deps in graph.items()
    ]
    profile["plans"][0]["dependency_ids"] = selected
    profile["service_bindings"] = []
    profile["operations"] = []
    profile["plans"][0]["next_action"] = {"kind": "model_request"}
    return json.dumps(profile).encode()


@dataclass(frozen=True)
class Case:
    name: str
    graph: dict[str, list[str]]
    selected: list[str]
    closure: tuple[str, ...]
    missing: tuple[str, ...]
    cycles: tuple[tuple[str, ...], ...]


CASES = [
    Case("chain", {"a": ["b"], "b": ["c"], "c": []}, ["a", "b", "c"], ("a", "b", "c"), (), ()),
    Case(
        "diamond",
        {"a": ["b", "c"], "b": ["d"], "c": ["d"], "d": []},
        ["a", "b", "c", "d"],
        ("a", "b", "c", "d"),
        (),
        (),
    ),
    Case(
        "cycle",
        {"a": ["b"], "b": ["c"], "c": ["a"]},
        ["a", "b", "c"],
        ("a", "b", "c"),
        (),
        (("dependency:a", "dependency:b", "dependency:c"),),
    ),
    Case("self-loop", {"a": ["a"]}, ["a"], ("a",), (), (("dependency:a",),)),
    Case(
        "missing transitive",
        {"a": ["b"], "b": ["c"], "c": []},
        ["a"],
        ("a", "b", "c"),
        ("b", "c"),
        (),
    ),
    Case("undeclared transitive", {"a": ["ghost"]}, ["a"], ("a", "ghost"), ("ghost",), ()),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_plan_closure(case: Case) -> None:
    result = inspect(_profile(case.graph, case.selected))
    (plan,) = result.plans
    assert plan.closure.dependencies == case.closure
    assert plan.closure.missing == case.missing
    assert plan.cycles == case.cycles
    codes = {str(f.code) for f in result.all_findings()}
    assert ("dependency_cycle" in codes) == bool(case.cycles)
    assert ("closure_incomplete" in codes) == bool(case.missing)


def test_empty_required_for_does_not_opt_out_of_transitive_requirement() -> None:
    """§10a: a required dependency makes its prerequisites required, whatever they declare."""
    result = inspect(_profile({"a": ["b"], "b": []}, ["a", "b"], {"a": ["context"]}))
    (plan,) = result.plans
    flags = {n.subject_id: n.required for n in plan.nodes if n.type == "dependency"}
    assert flags == {"a": True, "b": True}


def test_deep_chain_needs_no_recursion() -> None:
    length = 100_000
    adjacency = {i: [i + 1] for i in range(length)}
    limit = sys.getrecursionlimit()
    assert len(reachable([0], adjacency)) == length + 1
    assert len(breadth_first([0], adjacency)) == length + 1
    assert cycles(range(length), adjacency) == []
    adjacency[length] = [0]
    (members,) = cycles(range(length + 1), adjacency)
    assert len(members) == length + 1
    assert sys.getrecursionlimit() == limit


def test_deep_depends_on_chain_through_the_plan_graph() -> None:
    length = 20_000
    graph = {f"d{i}": [f"d{i + 1}"] for i in range(length)}
    graph[f"d{length}"] = []
    result = inspect(_profile(graph, list(graph), {"d0": ["continue"]}))
    (plan,) = result.plans
    assert len(plan.closure.dependencies) == length + 1
    assert all(n.required for n in plan.nodes if n.type == "dependency")
