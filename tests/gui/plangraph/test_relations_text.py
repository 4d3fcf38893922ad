"""The words the pane shows for a subject's place in the plan (no window needed)."""

from __future__ import annotations

from tests.core.continuation.spec_examples import CLOCK, raw_session
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.gui.plangraph.relations import (
    distance_to_route,
    edge_text,
    requirement_line,
    why_line,
)


def _plan(plan_id: str) -> PlanResult:
    result = inspect_continuation(raw_session("action-specific"), now=CLOCK)
    return next(p for p in result.plans if p.id == plan_id)


def test_why_and_requirement_lines() -> None:
    plan = _plan("await_user")
    node = plan.node("resource:source-csv")
    assert node is not None
    assert why_line(plan, node) == (
        "Why: plan await_user → context continue-context (context_id) → resource source-csv (input)"
    )
    # await_user requires no execution subject: the context's input stays optional.
    assert requirement_line(plan, node).startswith("Optional:")
    root = plan.node("plan:await_user")
    assert root is not None
    assert why_line(plan, root) == "Why: plan await_user is the plan being assessed"
    assert requirement_line(plan, root) == "Required: always, whatever the next action (§10a)"
    agent = _plan("model_request")
    source = agent.node("resource:source-csv")
    assert source is not None
    assert requirement_line(agent, source) == (
        "Required: needed by context continue-context (input), which is required"
        " (2 more required subjects need it)"
    )


def test_edge_text_names_relation_field_and_kind() -> None:
    plan = _plan("await_user")
    edge = next(e for e in plan.edges if e.target == "context:continue-context")
    assert edge_text(edge).splitlines() == [
        "plan await_user → context continue-context",
        "selects_context (context_id): the plan selects this context",
        f"field: {plan.pointer}/context_id",
        "selection: inventoried by it, not thereby required",
    ]


def test_distance_to_a_polyline() -> None:
    route = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0))
    assert distance_to_route((5.0, 3.0), route) == 3.0
    assert distance_to_route((13.0, 5.0), route) == 3.0
    assert distance_to_route((10.0, 14.0), route) == 4.0
