"""The snapshot contract of one ASIF 0.5 report, end to end: bytes, object, bindings and,
when the caller gives them, the current snapshot bytes (CAPABILITIES.md)."""

from __future__ import annotations

from datetime import datetime

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.models.v0_5 import DestinationReport03
from zcf_inspector.core.continuation.results import CurrentState, SnapshotResult, SnapshotState
from zcf_inspector.core.continuation.rules.snapshot import (
    Verified,
    check_object,
    read_snapshot,
    snapshot_bytes,
)
from zcf_inspector.core.continuation.rules.snapshot_bindings import PlanView, check_bindings
from zcf_inspector.core.continuation.rules.snapshot_current import describe_changes
from zcf_inspector.core.findings import Finding, error


def plan_view(plan: ContinuationPlan | None, roots: dict[str, str] | None) -> PlanView:
    if plan is None:
        return PlanView(None, None, None, roots)
    return PlanView(
        tuple(plan.model_requirements.capabilities),
        tuple(plan.model_requirements.media_types),
        plan.next_action.kind,
        roots,
    )


def check_snapshot(
    report: DestinationReport03,
    view: PlanView,
    now: datetime,
    current: bytes | None,
) -> tuple[SnapshotResult, list[Finding]]:
    evidence = report.destination.capabilities_snapshot
    out = Verified(SnapshotState.REFUSED)
    raw = snapshot_bytes(report, out)
    bindings: tuple = ()  # type: ignore[type-arg]
    if raw is not None:
        check_object(report, out, now)
    if out.value is not None:
        bindings, found = check_bindings(report, out.components, out.value, view)
        out.findings.extend(found)
    state = out.state
    if state is SnapshotState.REFUSED and out.value is not None and not out.findings:
        state = SnapshotState.VERIFIED
    current_state: CurrentState | None = None
    changes: tuple[str, ...] = ()
    if current is not None:
        if state is not SnapshotState.VERIFIED or raw is None:
            current_state = CurrentState.UNVERIFIED
        elif current == raw:
            current_state = CurrentState.MATCHES
        else:
            current_state = CurrentState.DIFFERS
            changes = describe_changes(raw, current, out.value)
            readable, why = read_snapshot(current)
            code = PlanCode.CURRENT_SNAPSHOT_DIFFERS
            if readable is None:
                # No current evidence to compare: currentness is unverified, and the bytes
                # differ, so the report may not be reused either way.
                code = PlanCode.CURRENT_SNAPSHOT_UNREADABLE
                lead = f"the current snapshot cannot be read ({why}): currentness is unverified"
            else:
                lead = "the destination changed since assessment — " + "; ".join(changes)
            out.findings.append(
                error(
                    code,
                    "/destination/capabilities_sha256",
                    lead + f": the current snapshot ({len(current):,} bytes) is not the "
                    f"{len(raw):,} bytes the report binds, so no assessment of the report "
                    "may be reused",
                )
            )
    result = SnapshotResult(
        state=state,
        format=evidence.format,
        availability=evidence.availability,
        digest=out.digest,
        size=None if raw is None else len(raw),
        value=out.value,
        components=tuple(out.components.values()),
        bindings=bindings,
        current=current_state,
        changes=changes,
    )
    return result, out.findings
