"""Known blockers per plan node (blockers.py): derived from the session, with reasons.

Every row of the derivation table, on a mutation of a public example: which node gets
which blocker code, pointing where the session shows it; and the report-derived one.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.continuation.spec_examples import (
    dump,
    inspect,
    mutated,
    raw_report,
    raw_session,
    session,
)
from zcf_inspector.core.codes import BlockerCode
from zcf_inspector.core.continuation.results import InspectionResult, PlanNode

Json = Any


def _node(result: InspectionResult, plan_id: str, node_id: str) -> PlanNode:
    (plan,) = [p for p in result.plans if p.id == plan_id]
    node = plan.node(node_id)
    assert node is not None
    return node


def _blocked(result: InspectionResult) -> dict[tuple[str, str], list[str]]:
    return {
        (p.id, n.id): [str(b.code) for b in n.blockers]
        for p in result.plans
        for n in p.nodes
        if n.blockers
    }


def test_a_clean_session_has_no_blockers() -> None:
    assert _blocked(inspect(raw_session("another-computer"))) == {}


def _set(*steps: tuple[list[str | int], Json]) -> Any:
    def mutate(d: Json) -> None:
        for path, value in steps:
            target = d
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value

    return mutate


PLAN: list[str | int] = ["continuation", "plans", 0]
CASES = [
    (
        _set(([*PLAN, "boundary", "consistency"], "partial")),
        "plan:continue-main",
        BlockerCode.BOUNDARY_NOT_CONSISTENT,
        "/continuation/plans/0/boundary/consistency",
    ),
    (
        _set(([*PLAN, "boundary", "method"], "best_effort")),
        "plan:continue-main",
        BlockerCode.BOUNDARY_NOT_CONSISTENT,
        "/continuation/plans/0/boundary/method",
    ),
    (
        _set((["configurations", 0, "knowledge"], "declared")),
        "configuration:effective",
        BlockerCode.CONFIGURATION_NOT_EFFECTIVE,
        "/configurations/0/knowledge",
    ),
    (
        _set(
            (
                ["continuation", "configuration_bindings", 0, "instruction_rules", 0, "authority"],
                "unknown",
            )
        ),
        "instruction:effective/workspace-rule",
        BlockerCode.UNKNOWN_AUTHORITY,
        "/continuation/configuration_bindings/0/instruction_rules/0/authority",
    ),
    (
        _set(
            (
                [
                    "continuation",
                    "configuration_bindings",
                    0,
                    "instruction_rules",
                    0,
                    "merge_behavior",
                ],
                "unknown",
            )
        ),
        "instruction:effective/workspace-rule",
        BlockerCode.UNKNOWN_MERGE_BEHAVIOR,
        "/continuation/configuration_bindings/0/instruction_rules/0/merge_behavior",
    ),
    (
        _set((["contexts", 0, "fidelity"], "unknown")),
        "context:continue-context",
        BlockerCode.CONTEXT_NOT_FAITHFUL,
        "/contexts/0/fidelity",
    ),
    (
        _set(([*PLAN, "context_accounting", 1, "disposition"], "unavailable")),
        "context:continue-context",
        BlockerCode.CONTEXT_INPUT_UNAVAILABLE,
        "/continuation/plans/0/context_accounting/1/disposition",
    ),
    (
        _set((["required_features"], ["asif.portable-continuation/0.2", "example.later/1"])),
        "feature:example.later/1",
        BlockerCode.FEATURE_UNSUPPORTED,
        "/required_features/1",
    ),
]


@pytest.mark.parametrize(("mutate", "node_id", "code", "pointer"), CASES)
def test_each_session_rule_marks_its_node(
    mutate: Any, node_id: str, code: BlockerCode, pointer: str
) -> None:
    result = inspect(dump(mutated(session("another-computer"), mutate)))
    node = _node(result, "continue-main", node_id)
    assert [(b.code, b.pointer, b.in_report) for b in node.blockers] == [(code, pointer, False)]
    assert node.blockers[0].reason
    assert _blocked(result) == {("continue-main", node_id): [str(code)]}


def test_unavailable_resources_block_whether_required_or_not() -> None:
    result = inspect(raw_session("action-specific"))
    await_user = _node(result, "await_user", "resource:missing-media")
    model_request = _node(result, "model_request", "resource:missing-media")
    assert not await_user.required
    assert model_request.required
    for node in (await_user, model_request):
        assert [b.code for b in node.blockers] == [BlockerCode.RESOURCE_UNAVAILABLE]
        assert node.blockers[0].reason == "resource 'missing-media' is unavailable"


def test_operations_block_unless_they_are_the_reconciliation_target() -> None:
    result = inspect(raw_session("action-specific"))
    for plan in ("await_user", "await_decision", "model_request", "resume_native"):
        node = _node(result, plan, "operation:remote-job")
        assert [b.code for b in node.blockers] == [BlockerCode.OPERATION_UNRESOLVED]
    assert _node(result, "reconcile_operation", "operation:remote-job").blockers == ()


def test_a_refused_recovery_blocks_the_reconciliation_target() -> None:
    refused = mutated(
        session("action-specific"),
        _set((["continuation", "operations", 0, "recovery", "strategy"], "refuse")),
    )
    node = _node(inspect(dump(refused)), "reconcile_operation", "operation:remote-job")
    assert [(b.code, b.pointer) for b in node.blockers] == [
        (BlockerCode.RECOVERY_REFUSED, "/continuation/operations/0/recovery/strategy")
    ]


def test_pending_decisions_block_agent_actions_only() -> None:
    result = inspect(raw_session("action-specific"))
    for plan in ("model_request", "resume_native"):
        (blocker,) = _node(result, plan, f"plan:{plan}").blockers
        assert blocker.code is BlockerCode.PENDING_DECISION
        assert "'choose-next'" in blocker.reason
    for plan in ("await_user", "await_decision", "reconcile_operation"):
        assert _node(result, plan, f"plan:{plan}").blockers == ()


def test_the_model_fit_blocker_comes_from_the_report() -> None:
    alone = inspect(raw_session("action-specific"))
    assert _node(alone, "model_request", "model:model_request").blockers == ()
    both = inspect(raw_session("action-specific"), raw_report("action-specific-model_request"))
    (blocker,) = _node(both, "model_request", "model:model_request").blockers
    assert blocker.code is BlockerCode.MODEL_FIT_UNKNOWN
    assert blocker.in_report
    assert blocker.pointer == "/model_assessment/fit"
    # Only the plan the report assesses carries it.
    assert _node(both, "resume_native", "model:resume_native").blockers == ()
