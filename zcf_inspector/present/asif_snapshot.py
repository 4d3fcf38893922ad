"""The ASIF 0.5 destination snapshot as a verdict chip (one more `asif.ROWS` builder).

An ASIF 0.5 report binds the exact bytes of a destination capability snapshot; the chip
says whether they were verified, refused or unavailable, and — when the caller gave the
destination's current snapshot — whether it matches or the report is stale. A 0.4 report
has no snapshot and gets no chip.
"""

from __future__ import annotations

from collections.abc import Iterable

from zcf_inspector.core.continuation.results import (
    CurrentState,
    InspectionResult,
    SnapshotResult,
    SnapshotState,
)
from zcf_inspector.core.findings import Severity
from zcf_inspector.present.vocabulary import CheckStatus, Chip

CHECK = "destination snapshot"
_SNAPSHOT_CODES = ("snapshot_", "component_", "current_snapshot_")


def snapshot_chip(snapshot: SnapshotResult, first_problem: str | None) -> Chip:
    size = "" if snapshot.size is None else f"{snapshot.size:,} bytes, "
    if snapshot.current is CurrentState.DIFFERS:
        return Chip(
            CHECK,
            CheckStatus.FAIL,
            "current differs — report stale",
            "REPORT STALE: destination changed since assessment — " + "; ".join(snapshot.changes),
        )
    if snapshot.state is SnapshotState.UNAVAILABLE:
        return Chip(
            CHECK,
            CheckStatus.NOT_CHECKABLE,
            "unavailable",
            f"no supported snapshot bytes ({snapshot.format}, {snapshot.availability}): the "
            "report cannot be verified or reused",
        )
    if snapshot.state is SnapshotState.REFUSED:
        return Chip(CHECK, CheckStatus.FAIL, first_problem or "refused", "see the findings")
    components = f"{len(snapshot.components)} components"
    if snapshot.current is CurrentState.MATCHES:
        return Chip(
            CHECK,
            CheckStatus.PASS,
            "current matches",
            f"the current snapshot is byte for byte the one assessed ({size}{components}); "
            "bytes compared, the destination not probed or authenticated",
        )
    return Chip(
        CHECK,
        CheckStatus.PASS,
        f"bytes verified, {components}",
        f"{size}SHA-256 {snapshot.digest}; the fingerprint binds these bytes, it does not "
        "authenticate their producer",
    )


def snapshot_rows(result: InspectionResult) -> Iterable[Chip]:
    report = result.report
    if report is None or report.snapshot is None:
        return
    first = next(
        (
            str(f.code)
            for f in report.findings
            if f.severity is Severity.ERROR and str(f.code).startswith(_SNAPSHOT_CODES)
        ),
        None,
    )
    yield snapshot_chip(report.snapshot, first)
