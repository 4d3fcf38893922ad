"""The `plan --json` shape of an `InspectionResult` (stable keys scripts rely on).

Each finding carries its ``subject`` (the node ID it is about, or null). Each
``findings`` list has a ``findingsOmitted`` beside it: the findings past the
document's budget, counted per code with the first pointer of each (``[]`` when nothing
was cut)."""

from __future__ import annotations

from zcf_inspector.core.continuation.results import (
    InspectionResult,
    PlanResult,
    ReportResult,
    SnapshotResult,
)
from zcf_inspector.core.findings import Finding, OmittedFindings
from zcf_inspector.core.jsontypes import JsonValue


def _findings(findings: tuple[Finding, ...]) -> list[JsonValue]:
    # ``subject``: the node ID (`TYPE:ID`) the finding is about, as its rule named it, or
    # null — what a script attaches the finding to, rather than guessing from the pointer.
    return [{**f.to_json(), "subject": f.subject} for f in findings]


def _omitted(omitted: tuple[OmittedFindings, ...]) -> list[JsonValue]:
    return [dict(o.to_json()) for o in omitted]


def plan_json(plan: PlanResult) -> dict[str, JsonValue]:
    return {
        "id": plan.id,
        "nextAction": plan.next_action,
        "activeScopes": list(plan.active_scopes),
        "nodes": [
            {
                "id": n.id,
                "type": n.type,
                "selected": n.selected,
                "required": n.required,
                "missing": n.missing,
                "blockers": [{"code": str(b.code), "reason": b.reason} for b in n.blockers],
                # The edge by which the §10a walk reached it (null for the plan itself).
                "via": None
                if n.via is None
                else {"from": n.via.source, "kind": n.via.kind, "pointer": n.via.pointer},
            }
            for n in plan.nodes
        ],
        "edges": [
            {
                "from": e.source,
                "to": e.target,
                "kind": e.kind,
                "pointer": e.pointer,
                "prerequisite": e.prerequisite,
            }
            for e in plan.edges
        ],
        "closure": {
            "dependencies": list(plan.closure.dependencies),
            "missing": list(plan.closure.missing),
        },
        "cycles": [list(members) for members in plan.cycles],
        "findings": _findings(plan.findings),
        "findingsOmitted": _omitted(plan.omitted),
    }


def snapshot_json(snapshot: SnapshotResult) -> dict[str, JsonValue]:
    """An ASIF 0.5 report's destination snapshot (CAPABILITIES.md), as `plan --json` gives it."""
    return {
        "state": str(snapshot.state),
        "format": snapshot.format,
        "availability": snapshot.availability,
        "sha256": snapshot.digest,
        "bytes": snapshot.size,
        "components": [
            {"id": c.id, "kind": c.kind, "status": c.status, "revision": c.revision}
            for c in snapshot.components
        ],
        "bindings": [
            {
                "subject": b.node_id,
                "componentIds": list(b.component_ids),
                "matching": b.matching,
                "problems": list(b.problems),
            }
            for b in snapshot.bindings
        ],
        "current": None if snapshot.current is None else str(snapshot.current),
        "changes": list(snapshot.changes),
    }


def report_json(report: ReportResult) -> dict[str, JsonValue]:
    times = report.times
    out: dict[str, JsonValue] = {
        "outcome": report.outcome,
        "recomputedOutcome": report.recomputed_outcome,
        "blockingReasons": [
            {"subject": r.node_id, "reason": r.reason} for r in report.blocking_reasons
        ],
        "times": None
        if times is None
        else {
            "assessedAt": times.assessed_at,
            "expiresAt": times.expires_at,
            "checkedAt": times.checked_at,
            "expired": times.expired,
        },
        "findings": _findings(report.findings),
        "findingsOmitted": _omitted(report.omitted),
    }
    if report.snapshot is not None:  # only ASIF 0.5 reports: the 0.4 shape is unchanged
        out["snapshot"] = snapshot_json(report.snapshot)
    return out


def continuation_json(result: InspectionResult) -> dict[str, JsonValue]:
    """The whole `plan --json` shape of one checked file (`cli.output.inspection_json` is
    the packet's)."""
    return {
        "kind": None if result.kind is None else str(result.kind),
        "findings": _findings(result.findings),
        "findingsOmitted": _omitted(result.omitted),
        "plans": [plan_json(p) for p in result.plans],
        "report": None if result.report is None else report_json(result.report),
    }
