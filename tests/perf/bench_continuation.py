"""Benchmark of the continuation walks (not part of the default test run).

Run: ``.venv/bin/python -m tests.perf.bench_continuation`` from the repository root.

1. A generated plan with 5,000 dependencies and 20,000 `depends_on` edges (a DAG: each
   dependency needs four later ones): inventory, closure, cycles and required flags must
   take under 1 s. The full pipeline from bytes (strict reading, pydantic, all checks) is
   timed too, for reference.
2. A 100,000-long `depends_on` chain walked with the recursion limit lowered to 200, so
   any recursive walk would fail.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

from tests.conftest import CONTINUATION_SPEC
from zcf_inspector.core.continuation.index import index_profile
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.models.profile import ContinuationProfile
from zcf_inspector.core.continuation.rules.document import check_profile
from zcf_inspector.core.continuation.rules.plan_check import plan_graph, plan_result
from zcf_inspector.core.continuation.rules.workspace_state import workspace_trees
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.continuation.walks import cycles, reachable

DEPENDENCIES = 5_000
FAN_OUT = 4
CHAIN = 100_000
BUDGET_SECONDS = 1.0
NOW = parse_datetime("2026-09-26T12:30:00Z")


def dependency(ident: str, depends_on: list[str]) -> dict[str, Any]:
    return {
        "id": ident,
        "kind": "package",
        "identity": f"bench.{ident}",
        "accepted_versions": ["1"],
        "platform": {"os": [], "architectures": []},
        "required_for": ["continue"],
        "depends_on": depends_on,
        "resource_ids": [],
        "binding": {"kind": "package", "reference": f"bench.{ident}"},
    }


def generated_profile(graph: dict[str, list[str]]) -> dict[str, Any]:
    example = CONTINUATION_SPEC / "examples" / "continuation" / "another-computer.session.json"
    profile: dict[str, Any] = json.loads(example.read_text())["continuation"]
    profile["dependencies"] = [dependency(i, deps) for i, deps in graph.items()]
    profile["plans"][0]["dependency_ids"] = list(graph)
    profile["plans"][0]["next_action"] = {"kind": "model_request"}
    return profile


def dag(count: int, fan_out: int) -> dict[str, list[str]]:
    """``count`` dependencies with exactly ``count * fan_out`` edges, all to later ones."""
    graph = {
        f"d{i}": [f"d{t}" for t in range(i + 1, min(i + 1 + fan_out, count))] for i in range(count)
    }
    # The last few cannot point forward fan_out times; the first ones take the rest.
    missing = count * fan_out - sum(len(v) for v in graph.values())
    graph["d0"] += [f"d{t}" for t in range(fan_out + 1, fan_out + 1 + missing)]
    return graph


def timed(label: str, work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    elapsed = time.perf_counter() - start
    print(f"{label}: {elapsed * 1000:.1f} ms")
    return elapsed


def main() -> int:
    graph = dag(DEPENDENCIES, FAN_OUT)
    edges = sum(len(v) for v in graph.values())
    profile_json = generated_profile(graph)
    data = json.dumps(profile_json).encode()
    print(f"generated plan: {len(graph)} dependencies, {edges} depends_on edges, {len(data)} bytes")
    model = ContinuationProfile.model_validate(profile_json)
    findings: list[Any] = []
    profile = index_profile(model, "", profile_json, findings)
    check_profile(profile, None, findings)
    trees = workspace_trees(profile, findings)
    plan = model.plans[0]

    def graph_phase() -> None:
        built = plan_graph(plan, "/plans/0", profile, None, trees)
        result = plan_result(built, "/plans/0", profile, None)
        assert len(result.closure.dependencies) == len(graph)
        assert all(n.required for n in result.nodes if n.type == "dependency")

    best = min(
        timed("inventory + edges + closure + cycles + required flags", graph_phase)
        for _ in range(3)
    )
    timed(
        "full pipeline from bytes (read, models, all checks)",
        lambda: inspect_continuation(data, now=NOW),
    )

    chain = {i: [i + 1] for i in range(CHAIN)}
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        timed(f"{CHAIN}-long chain: reachable", lambda: reachable([0], chain))
        timed(f"{CHAIN}-long chain: cycles", lambda: cycles(range(CHAIN), chain))
        chain_graph = {f"c{i}": [f"c{i + 1}"] for i in range(CHAIN)}
        chain_graph[f"c{CHAIN}"] = []
        chain_profile = generated_profile(chain_graph)
        chain_model = ContinuationProfile.model_validate(chain_profile)
        chain_index = index_profile(chain_model, "", chain_profile, [])
        chain_trees = workspace_trees(chain_index, [])

        def chain_plan() -> None:
            built = plan_graph(chain_model.plans[0], "/plans/0", chain_index, None, chain_trees)
            result = plan_result(built, "/plans/0", chain_index, None)
            assert len(result.closure.dependencies) == CHAIN + 1

        timed(
            f"{CHAIN}-long depends_on chain through the plan graph (recursion limit 200)",
            chain_plan,
        )
    finally:
        sys.setrecursionlimit(old_limit)
    verdict = "within" if best < BUDGET_SECONDS else "OVER"
    print(f"best graph phase {best * 1000:.1f} ms: {verdict} the {BUDGET_SECONDS:.0f} s budget")
    return 0 if best < BUDGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
