"""One packet through every stage of profile §3: bytes → structure → manifest →
authentication → policy, with a verdict per stage and every finding in order."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from zcf_inspector.core.findings import Finding, Severity, has_error
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.auth import AuthReport, AuthStatus, check_authentication
from zcf_inspector.core.packet.manifest import ManifestReport, check_manifest
from zcf_inspector.core.packet.policy import check_policy
from zcf_inspector.core.packet.structure import check_structure
from zcf_inspector.core.reading import (
    DEFAULT_MAX_BYTES,
    ReadDocument,
    ReadError,
    packet_document,
    read_document,
)

if TYPE_CHECKING:  # annotations only: `validate` without a destination never loads it
    from zcf_inspector.core.packet.destination import Destination


class Stage(StrEnum):
    BYTES = "bytes"
    STRUCTURE = "structure"
    MANIFEST = "manifest"
    AUTHENTICATION = "authentication"
    POLICY = "policy"


class StageStatus(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_RUN = "not_run"  # an earlier stage failed; anything shown is informational
    NOT_CHECKABLE = "not_checkable"  # needs a destination (keys, clock, policy)


@dataclass(frozen=True, slots=True)
class StageResult:
    stage: Stage
    status: StageStatus
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True)
class PacketInspection:
    value: dict[str, JsonValue] | None  # None when refused at the byte stage
    read_error: ReadError | None
    stages: tuple[StageResult, ...]
    manifest: ManifestReport | None
    auth: AuthReport | None

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for s in self.stages for f in s.findings)

    @property
    def valid(self) -> bool:
        return not has_error(self.findings)

    def stage(self, stage: Stage) -> StageResult:
        return next(s for s in self.stages if s.stage is stage)


def _informational(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    return tuple(
        replace(
            f,
            severity=Severity.INFO,
            message=f"{f.message} (not part of the verdict: an earlier stage failed)",
        )
        for f in findings
    )


def inspect_bytes(
    data: bytes,
    destination: Destination | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    monitor: Monitor = NULL_MONITOR,
) -> PacketInspection:
    """Every stage over ``data``; raises `Cancelled` only if ``monitor`` was cancelled."""
    monitor.step("reading bytes", 0.0)
    read: ReadDocument | ReadError
    try:
        read = read_document(data, max_bytes=max_bytes)
    except ReadError as exc:
        read = exc
    return inspect_read(read, data, destination, monitor=monitor)


def inspect_read(
    read: ReadDocument | ReadError,
    data: bytes,
    destination: Destination | None = None,
    *,
    monitor: Monitor = NULL_MONITOR,
) -> PacketInspection:
    """The stages after a read already made from ``data`` (the window reads each file once,
    to recognise what it is, and inspects that read)."""
    if isinstance(read, ReadDocument):
        try:
            read = packet_document(read, data)
        except ReadError as exc:
            read = exc
    if isinstance(read, ReadError):
        stages = (
            StageResult(Stage.BYTES, StageStatus.FAILED, (read.to_finding(),)),
            *(StageResult(s, StageStatus.NOT_RUN) for s in list(Stage)[1:]),
        )
        return PacketInspection(None, read, stages, None, None)
    value = read.value
    assert isinstance(value, dict)  # packet_document refused anything else
    return inspect_value(value, destination, monitor=monitor, reader_plain=not read.has_fractions)


def inspect_value(
    value: dict[str, JsonValue],
    destination: Destination | None = None,
    *,
    monitor: Monitor = NULL_MONITOR,
    reader_plain: bool = False,
) -> PacketInspection:
    """The stages after §1, for a value the strict reader returned.

    ``reader_plain``: the value is exactly what the reader returned for a document without
    non-integral numbers, so canonical bytes can skip their validation pass.
    """
    stages = [StageResult(Stage.BYTES, StageStatus.PASSED)]
    monitor.step("checking structure", 0.4)
    structure = check_structure(value)
    structure_ok = not has_error(structure)
    stages.append(_result(Stage.STRUCTURE, structure))
    # The manifest is recomputed even over a damaged packet, so a viewer can show which
    # section changed; it only counts for the verdict when the structure is sound.
    monitor.step("hashing sections", 0.6)
    manifest = check_manifest(value, monitor, reader_plain=reader_plain)
    monitor.step("checking authentication", 0.9)
    if structure_ok:
        stages.append(_result(Stage.MANIFEST, manifest.findings))
    else:
        stages.append(
            StageResult(Stage.MANIFEST, StageStatus.NOT_RUN, _informational(manifest.findings))
        )
    auth: AuthReport | None = None
    if structure_ok and not has_error(manifest.findings):
        auth = check_authentication(value, destination)
        stages.append(StageResult(Stage.AUTHENTICATION, _auth_status(auth), auth.findings))
    else:
        auth = AuthReport(None, AuthStatus.NOT_CHECKED, "not checked: an earlier stage failed")
        stages.append(StageResult(Stage.AUTHENTICATION, StageStatus.NOT_RUN))
    if destination is None:
        stages.append(StageResult(Stage.POLICY, StageStatus.NOT_CHECKABLE))
    elif all(s.status is StageStatus.PASSED for s in stages):
        stages.append(_result(Stage.POLICY, check_policy(value, destination)))
    else:
        stages.append(StageResult(Stage.POLICY, StageStatus.NOT_RUN))
    monitor.step("done", 1.0)
    return PacketInspection(value, None, tuple(stages), manifest, auth)


def _result(stage: Stage, findings: tuple[Finding, ...]) -> StageResult:
    status = StageStatus.FAILED if has_error(findings) else StageStatus.PASSED
    return StageResult(stage, status, findings)


def _auth_status(auth: AuthReport) -> StageStatus:
    if auth.status is AuthStatus.REFUSED:
        return StageStatus.FAILED
    if auth.status is AuthStatus.NOT_VERIFIED:
        return StageStatus.NOT_CHECKABLE
    return StageStatus.PASSED
