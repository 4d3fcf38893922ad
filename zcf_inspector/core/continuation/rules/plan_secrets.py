"""§8/§10a for one plan: every secret handle its service bindings, checkpoint and
inventoried environments need is declared by the plan's configuration, and every
capability a requirement names is one of that configuration's (a rule of `plan.py`)."""

from __future__ import annotations

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.models.session import Checkpoint, Requirement
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, error


def undeclared_secrets(
    plan: ContinuationPlan,
    profile: ProfileIndex,
    core: CoreIndex | None,
    checkpoint: Checkpoint | None,
    environments: list[str],
) -> list[Finding]:
    """§8/§10a: secret handles and capabilities are declared by the plan's configuration."""
    findings: list[Finding] = []
    if core is None:
        return findings
    config = core.configurations.get(plan.configuration_id)
    if config is None:
        return findings
    declared = {s.handle for s in config.secret_requirements}
    for svc_id in plan.service_binding_ids:
        service = profile.services.get(svc_id)
        if service is None:
            continue
        for j, handle in enumerate(service.secret_handles):
            if handle not in declared:
                findings.append(
                    error(
                        PlanCode.UNDECLARED_SECRET,
                        f"{profile.services.at(svc_id)}/secret_handles/{j}",
                        f"secret handle {handle!r} is not declared by configuration {config.id!r}",
                        node_of("service", svc_id),
                    )
                )
    # (where, the requirements, their node kind and owner: §10a inventories each)
    owners: list[tuple[str, list[Requirement], str, str]] = []
    if checkpoint is not None:
        owners.append(
            (
                core.checkpoints.at(checkpoint.id),
                checkpoint.requirements,
                "checkpoint_requirement",
                checkpoint.id,
            )
        )
    for env_id in environments:
        env = core.environments.get(env_id)
        if env is not None:
            owners.append(
                (
                    core.environments.at(env_id),
                    env.requirements,
                    "environment_requirement",
                    env_id,
                )
            )
    capabilities = {c.id for c in config.capabilities}
    for base, requirements, kind, owner in owners:
        for j, item in enumerate(requirements):
            subject = node_of(kind, item.id, owner)
            if item.secret_handle is not None and item.secret_handle not in declared:
                findings.append(
                    error(
                        PlanCode.UNDECLARED_SECRET,
                        f"{base}/requirements/{j}/secret_handle",
                        f"secret handle {item.secret_handle!r} is not declared by "
                        f"configuration {config.id!r}",
                        subject,
                    )
                )
            if item.capability_id is not None and item.capability_id not in capabilities:
                findings.append(
                    error(
                        PlanCode.DANGLING_REFERENCE,
                        f"{base}/requirements/{j}/capability_id",
                        f"capability {item.capability_id!r} is not a capability of "
                        f"configuration {config.id!r}",
                        subject,
                    )
                )
    return findings
