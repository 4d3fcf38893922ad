"""Known blockers: plan subjects the session itself shows cannot be supported or adapted.

Derived from the session, never from a report's word (§3, §7, §10a, §11). A report may
assess a known blocker only as `unresolved`, `unsupported` or `omitted`; whether it then
blocks readiness depends on whether the subject is required for the plan's action.

- plan: the boundary is not `consistent`, or its method is `best_effort`; an agent action
  while the checkpoint has pending decisions;
- configuration: its knowledge is not `effective`;
- instruction: its rule's authority or merge behaviour is `unknown`;
- context: its fidelity is `partial` or `unknown`; an event is accounted `unavailable`;
- resource: an inventoried resource that is unavailable, excluded, redacted or unknown;
- operation: the reconciliation target's recovery is not `reconcile`/`reconnect`; another
  selected operation is pending, running or of unknown outcome;
- feature: a required feature this checker does not interpret;
- model (from a report): the model fit is not `fits`.
"""

from __future__ import annotations

from zcf_inspector.core.codes import BlockerCode
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.results import Blocker
from zcf_inspector.core.continuation.subjects import AGENT_ACTIONS, SubjectKey

UNAVAILABLE = frozenset({"unavailable", "excluded", "redacted", "unknown"})
UNRESOLVED_STATES = frozenset({"pending", "running", "outcome_unknown"})

Blockers = dict[SubjectKey, list[Blocker]]


def _add(out: Blockers, key: SubjectKey, code: BlockerCode, reason: str, where: str) -> None:
    out.setdefault(key, []).append(Blocker(code, reason, where))


def plan_blockers(
    plan: ContinuationPlan,
    where: str,
    profile: ProfileIndex,
    core: CoreIndex | None,
    inventory: set[SubjectKey],
) -> Blockers:
    """Every known blocker of ``plan``'s inventoried subjects, with its reason and pointer."""
    out: Blockers = {}
    plan_key = SubjectKey("plan", None, plan.id)
    boundary = plan.boundary
    if boundary.consistency != "consistent" or boundary.method == "best_effort":
        _add(
            out,
            plan_key,
            BlockerCode.BOUNDARY_NOT_CONSISTENT,
            f"the boundary is {boundary.consistency} ({boundary.method}); a new consistent "
            "capture is needed before it can be ready",
            where
            + (
                "/boundary/consistency"
                if boundary.consistency != "consistent"
                else "/boundary/method"
            ),
        )
    action = plan.next_action
    agent = action.kind in AGENT_ACTIONS
    for op_id in plan.operation_ids:
        operation = profile.operations.get(op_id)
        if operation is None:
            continue
        at = profile.operations.at(op_id)
        key = SubjectKey("operation", None, op_id)
        if action.kind == "reconcile_operation" and action.operation_id == op_id:
            if operation.recovery.strategy not in ("reconcile", "reconnect"):
                _add(
                    out,
                    key,
                    BlockerCode.RECOVERY_REFUSED,
                    f"the reconciliation target's recovery strategy is "
                    f"{operation.recovery.strategy!r}, not reconcile or reconnect",
                    at + "/recovery/strategy",
                )
        elif operation.state in UNRESOLVED_STATES:
            _add(
                out,
                key,
                BlockerCode.OPERATION_UNRESOLVED,
                f"operation {op_id!r} is {operation.state} and is not the reconciliation target",
                at + "/state",
            )
    if core is None:
        return out
    checkpoint = core.checkpoints.get(plan.checkpoint_id)
    if agent and checkpoint is not None and checkpoint.open_decisions:
        pending = ", ".join(repr(d.request_id) for d in checkpoint.open_decisions)
        _add(
            out,
            plan_key,
            BlockerCode.PENDING_DECISION,
            f"{action.kind} while decision {pending} is pending at checkpoint {checkpoint.id!r}",
            core.checkpoints.at(checkpoint.id) + "/open_decisions",
        )
    config = core.configurations.get(plan.configuration_id)
    if config is not None and config.knowledge != "effective":
        _add(
            out,
            SubjectKey("configuration", None, config.id),
            BlockerCode.CONFIGURATION_NOT_EFFECTIVE,
            f"configuration {config.id!r} is {config.knowledge}, not the effective one",
            core.configurations.at(config.id) + "/knowledge",
        )
    binding = profile.bindings.get(plan.configuration_id)
    if binding is not None:
        base = profile.bindings.at(plan.configuration_id)
        for i, rule in enumerate(binding.instruction_rules):
            key = SubjectKey("instruction", plan.configuration_id, rule.instruction_id)
            if rule.authority == "unknown":
                _add(
                    out,
                    key,
                    BlockerCode.UNKNOWN_AUTHORITY,
                    f"instruction {rule.instruction_id!r} has unknown authority",
                    f"{base}/instruction_rules/{i}/authority",
                )
            if rule.merge_behavior == "unknown":
                _add(
                    out,
                    key,
                    BlockerCode.UNKNOWN_MERGE_BEHAVIOR,
                    f"instruction {rule.instruction_id!r} has unknown merge behaviour",
                    f"{base}/instruction_rules/{i}/merge_behavior",
                )
    ctx = core.contexts.get(plan.context_id)
    if ctx is not None:
        key = SubjectKey("context", None, ctx.id)
        if ctx.fidelity in ("partial", "unknown"):
            _add(
                out,
                key,
                BlockerCode.CONTEXT_NOT_FAITHFUL,
                f"context {ctx.id!r} has {ctx.fidelity} fidelity",
                core.contexts.at(ctx.id) + "/fidelity",
            )
        for i, entry in enumerate(plan.context_accounting):
            if entry.disposition == "unavailable":
                _add(
                    out,
                    key,
                    BlockerCode.CONTEXT_INPUT_UNAVAILABLE,
                    f"event {entry.event_id!r} is unavailable as input",
                    f"{where}/context_accounting/{i}/disposition",
                )
    for key in inventory:
        if key.kind == "resource":
            resource = core.resources.get(key.id)
            if resource is not None and resource.availability in UNAVAILABLE:
                _add(
                    out,
                    key,
                    BlockerCode.RESOURCE_UNAVAILABLE,
                    f"resource {key.id!r} is {resource.availability}",
                    core.resources.at(key.id) + "/availability",
                )
    # The features whose rules this checker implements (and so can say they hold).
    interpreted = core.session.contract.interpreted_features
    for i, feature in enumerate(core.session.required_features):
        if feature not in interpreted:
            _add(
                out,
                SubjectKey("feature", None, feature),
                BlockerCode.FEATURE_UNSUPPORTED,
                f"required feature {feature!r} is not one this checker interprets",
                f"/required_features/{i}",
            )
    return out


def model_fit_blocker(plan_id: str, fit: str) -> tuple[SubjectKey, Blocker] | None:
    """The report-derived blocker: a model fit other than `fits` (§10a, §11)."""
    if fit == "fits":
        return None
    return (
        SubjectKey("model", None, plan_id),
        Blocker(
            BlockerCode.MODEL_FIT_UNKNOWN,
            f"the destination report gives the model fit as {fit!r}",
            "/model_assessment/fit",
            in_report=True,
        ),
    )
