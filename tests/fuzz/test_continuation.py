"""Fuzz the continuation walk: mutated ASIF sessions and reports, raw bytes, random graphs."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.checks import check_continuation
from tests.fuzz.harness import fuzz
from tests.fuzz.strategies.continuations import ContinuationCase, mutated_continuations
from tests.fuzz.strategies.corpus import example_corpus, example_values
from tests.fuzz.strategies.raw_bytes import mutated_bytes
from tests.fuzz.strategies.trees import render
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.timestamps import parse_datetime

# The fixed clock the spec's own checker evaluates the example reports at.
CLOCK = parse_datetime("2026-09-26T12:30:00Z")
_CLOCKS = st.sampled_from(
    [CLOCK, parse_datetime("1970-01-01T00:00:00Z"), parse_datetime("9999-12-31T23:59:59Z")]
)


@fuzz(mutated_continuations(), _CLOCKS, weight=4, rounds=4)
def test_mutated_sessions_and_reports_get_findings_never_exceptions(
    case: ContinuationCase, now: Any
) -> None:
    result = inspect_continuation(case.session, now=now, plan_id=case.plan_id, report=case.report)
    check_continuation(result)


@fuzz(
    mutated_bytes(example_corpus()),
    st.one_of(st.none(), mutated_bytes(example_corpus())),
    weight=2,
    rounds=3,
)
def test_mutated_example_bytes_get_findings_never_exceptions(
    data: bytes, report: bytes | None
) -> None:
    check_continuation(inspect_continuation(data, now=CLOCK, report=report))


def _dependency(ident: str, depends_on: list[str]) -> dict[str, Any]:
    return {
        "id": ident,
        "kind": "package",
        "identity": f"fuzz.{ident}",
        "accepted_versions": ["1"],
        "platform": {"os": [], "architectures": []},
        "required_for": ["continue"],
        "depends_on": depends_on,
        "resource_ids": [],
        "binding": {"kind": "package", "reference": f"fuzz.{ident}"},
    }


_GRAPHS = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n),
        st.lists(st.integers(0, n - 1), max_size=n),
    )
)


def _has_cycle(nodes: int, edges: set[tuple[int, int]]) -> bool:
    graph: dict[int, list[int]] = {i: [] for i in range(nodes)}
    for a, b in edges:
        graph[a].append(b)
    state = dict.fromkeys(graph, 0)  # 0 new, 1 on the stack, 2 done
    for start in range(nodes):
        if state[start]:
            continue
        stack = [(start, iter(graph[start]))]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif state[child] == 1:
                return True
            elif state[child] == 0:
                state[child] = 1
                stack.append((child, iter(graph[child])))
    return False


@fuzz(_GRAPHS, st.booleans(), weight=2, rounds=3)
def test_dependency_graphs_report_cycles_exactly_when_there_are_some(
    graph: tuple[int, list[tuple[int, int]], list[int]], in_session: bool
) -> None:
    """Any graph of ``depends_on`` edges (self-loops, cycles, repeats) in a real session."""
    nodes, edge_list, selected = graph
    edges = set(edge_list)
    session = copy.deepcopy(example_values()["another-computer.session.json"])
    profile = session["continuation"]
    profile["dependencies"] = [
        _dependency(f"d{i}", [f"d{b}" for a, b in sorted(edges) if a == i]) for i in range(nodes)
    ]
    # The plan selects every dependency, so only cycles can make it fail.
    plan = profile["plans"][0]
    plan["dependency_ids"] = [f"d{i}" for i in range(nodes)]
    plan["next_action"] = {"kind": "model_request"}
    data = render(session if in_session else profile)
    result = inspect_continuation(data, now=CLOCK)
    check_continuation(result)
    cycle_findings = [f for f in result.all_findings() if f.code is PlanCode.DEPENDENCY_CYCLE]
    assert bool(cycle_findings) == _has_cycle(nodes, edges), cycle_findings
    del selected
