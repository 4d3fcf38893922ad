"""One packet through every stage of profile §3: bytes → structure → manifest →
authentication → policy, with a verdict per stage and every finding in order.

The findings of a packet share one budget (`FINDINGS_LIMIT`): the first ones in full,
across the stages in order, and past it only a count per code with the first pointer of
each (`PacketInspection.omitted`), so that no input costs more than its size. A stage
after structure keeps at least its first `STAGE_FLOOR` findings even when structure spent
the budget: which section's digest changed is worth seeing next to a thousand schema
errors."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from zcf_inspector.core.bounded_validation import column_tap
from zcf_inspector.core.findings import (
    FINDINGS_LIMIT,
    Finding,
    FindingBudget,
    OmittedFindings,
    Severity,
    has_error,
    merge_omitted,
)
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
    packet_refusal,
    read_document,
)
from zcf_inspector.core.secrets.texts import LentColumns, lend_columns

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
    omitted: tuple[OmittedFindings, ...] = ()  # counted past the packet's findings budget


@dataclass(frozen=True, slots=True)
class PacketInspection:
    value: dict[str, JsonValue] | None  # None when refused at the byte stage
    read_error: ReadError | None
    stages: tuple[StageResult, ...]
    manifest: ManifestReport | None
    auth: AuthReport | None
    # The structure stage's columns of the texts, lent to the secret scan of ``value``
    # (issue 29: one walk); held here so that they go when the inspection goes.
    lent: LentColumns | None = field(default=None, compare=False, repr=False)

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The findings kept in full, stage by stage (at most the budget's limit)."""
        return tuple(f for s in self.stages for f in s.findings)

    @property
    def omitted(self) -> tuple[OmittedFindings, ...]:
        """Findings past the budget, counted per code and severity (empty when none)."""
        return merge_omitted(*(s.omitted for s in self.stages))

    @property
    def valid(self) -> bool:
        return not has_error(self.findings) and not any(
            o.severity is Severity.ERROR for o in self.omitted
        )

    def stage(self, stage: Stage) -> StageResult:
        return next(s for s in self.stages if s.stage is stage)


def _informational(result: StageResult) -> StageResult:
    findings = tuple(
        replace(
            f,
            severity=Severity.INFO,
            message=f"{f.message} (not part of the verdict: an earlier stage failed)",
        )
        for f in result.findings
    )
    omitted = merge_omitted(replace(o, severity=Severity.INFO) for o in result.omitted)
    return StageResult(result.stage, StageStatus.NOT_RUN, findings, omitted)


def inspect_bytes(
    data: bytes,
    destination: Destination | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    monitor: Monitor = NULL_MONITOR,
    findings_limit: int = FINDINGS_LIMIT,
) -> PacketInspection:
    """Every stage over ``data``; raises `Cancelled` only if ``monitor`` was cancelled."""
    monitor.step("reading bytes", 0.0)
    read: ReadDocument | ReadError
    try:
        read = read_document(data, max_bytes=max_bytes, monitor=monitor)
    except ReadError as exc:
        read = exc
    return inspect_read(read, data, destination, monitor=monitor, findings_limit=findings_limit)


def inspect_read(
    read: ReadDocument | ReadError,
    data: bytes,
    destination: Destination | None = None,
    *,
    monitor: Monitor = NULL_MONITOR,
    findings_limit: int = FINDINGS_LIMIT,
) -> PacketInspection:
    """The stages after a read already made from ``data`` (the window reads each file once,
    to recognise what it is, and inspects that read)."""
    if isinstance(read, ReadDocument):
        try:
            read = packet_document(read, data)
        except ReadError as exc:
            read = exc
    else:
        read = packet_refusal(read, data)  # a top level not an object comes first
    if isinstance(read, ReadError):
        stages = (
            StageResult(Stage.BYTES, StageStatus.FAILED, (read.to_finding(),)),
            *(StageResult(s, StageStatus.NOT_RUN) for s in list(Stage)[1:]),
        )
        return PacketInspection(None, read, stages, None, None)
    value = read.value
    assert isinstance(value, dict)  # packet_document refused anything else
    return inspect_value(
        value,
        destination,
        monitor=monitor,
        reader_plain=not read.has_fractions,
        findings_limit=findings_limit,
    )


def inspect_value(
    value: dict[str, JsonValue],
    destination: Destination | None = None,
    *,
    monitor: Monitor = NULL_MONITOR,
    reader_plain: bool = False,
    findings_limit: int = FINDINGS_LIMIT,
) -> PacketInspection:
    """The stages after §1, for a value the strict reader returned.

    ``reader_plain``: the value is exactly what the reader returned for a document without
    non-integral numbers, so canonical bytes can skip their validation pass.
    ``findings_limit``: the findings kept in full over all stages (see the module).
    """
    stages = [StageResult(Stage.BYTES, StageStatus.PASSED)]
    left = _Left(findings_limit)
    monitor.step("checking structure", 0.4)
    structure_budget = left.budget()
    lent = lend_columns(value)
    with column_tap(lent.offer):
        check_structure(value, structure_budget, monitor)
    structure = left.result(Stage.STRUCTURE, structure_budget)
    structure_ok = structure.status is StageStatus.PASSED
    stages.append(structure)
    # The manifest is recomputed even over a damaged packet, so a viewer can show which
    # section changed; it only counts for the verdict when the structure is sound.
    monitor.step("hashing sections", 0.6)
    manifest_budget = left.budget()
    manifest = check_manifest(value, monitor, reader_plain=reader_plain, budget=manifest_budget)
    manifest_result = left.result(Stage.MANIFEST, manifest_budget)
    monitor.step("checking authentication", 0.9)
    stages.append(manifest_result if structure_ok else _informational(manifest_result))
    auth: AuthReport | None = None
    if structure_ok and manifest_result.status is StageStatus.PASSED:
        auth = check_authentication(value, destination)
        auth_budget = left.budget()
        auth_budget.extend(auth.findings)
        stages.append(
            StageResult(
                Stage.AUTHENTICATION,
                _auth_status(auth),
                tuple(auth_budget.kept),
                auth_budget.omitted(),
            )
        )
        left.spend(auth_budget)
    else:
        auth = AuthReport(None, AuthStatus.NOT_CHECKED, "not checked: an earlier stage failed")
        stages.append(StageResult(Stage.AUTHENTICATION, StageStatus.NOT_RUN))
    if destination is None:
        stages.append(StageResult(Stage.POLICY, StageStatus.NOT_CHECKABLE))
    elif all(s.status is StageStatus.PASSED for s in stages):
        policy_budget = left.budget()
        policy_budget.extend(check_policy(value, destination))
        stages.append(left.result(Stage.POLICY, policy_budget))
    else:
        stages.append(StageResult(Stage.POLICY, StageStatus.NOT_RUN))
    monitor.step("done", 1.0)
    return PacketInspection(value, None, tuple(stages), manifest, auth, lent)


STAGE_FLOOR = 20


class _Left:
    """What is left of the packet's findings budget as the stages use it up."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.limit_given = limit
        self.first = True

    def budget(self) -> FindingBudget:
        floor = 0 if self.first else min(STAGE_FLOOR, self.limit_given)
        self.first = False
        return FindingBudget(max(self.limit, floor))

    def spend(self, budget: FindingBudget) -> None:
        self.limit -= len(budget.kept)

    def result(self, stage: Stage, budget: FindingBudget) -> StageResult:
        self.spend(budget)
        status = StageStatus.FAILED if budget.has_error else StageStatus.PASSED
        return StageResult(stage, status, tuple(budget.kept), budget.omitted())


def _auth_status(auth: AuthReport) -> StageStatus:
    if auth.status is AuthStatus.REFUSED:
        return StageStatus.FAILED
    if auth.status is AuthStatus.NOT_VERIFIED:
        return StageStatus.NOT_CHECKABLE
    return StageStatus.PASSED
