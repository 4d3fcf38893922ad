"""The ASIF 0.5 models, where they differ from 0.4 (MIGRATION.md, CAPABILITIES.md).

A 0.5 session is a 0.4 session with `asif_version` "0.5" and the profile 0.3, whose
objects are the 0.2 ones; a 0.3 report adds `destination.capabilities_snapshot` and
`component_ids` on every assessment. Everything else is the 0.4 model, inherited, so the
0.4 rules apply unchanged. The snapshot object itself is read from its exact bytes by
`rules.snapshot` (it is not part of the report's JSON).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.base import (
    Id,
    SafeCount,
    SpecModel,
    Text,
    UniqueIds,
    rule_error,
)
from zcf_inspector.core.continuation.models.profile import ContinuationProfile
from zcf_inspector.core.continuation.models.report import (
    Assessment,
    DestinationReport,
    ReportDestination,
)
from zcf_inspector.core.continuation.models.session import AsifSession
from zcf_inspector.core.continuation.versions import ASIF_0_5, Contract

# CAPABILITIES.md: "This format limits snapshots to 1 MiB of decoded bytes."
MAX_SNAPSHOT_BYTES = 1024 * 1024
SNAPSHOT_FORMAT = "asif.destination-capabilities/0.1"


class ContinuationProfile03(ContinuationProfile):
    contract: ClassVar[Contract] = ASIF_0_5

    profile_version: Literal["0.3"]  # type: ignore[assignment]  # the one field that differs


class AsifSession05(AsifSession):
    contract: ClassVar[Contract] = ASIF_0_5

    asif_version: Literal["0.5"]  # type: ignore[assignment]
    continuation: ContinuationProfile03 | None = None


class SnapshotEvidence(SpecModel):
    """`destination.capabilities_snapshot`: the exact snapshot bytes, or why there are none."""

    not_null = frozenset({"data", "bytes", "explanation"})

    format: Text
    availability: Literal["supplied", "unavailable"]
    evidence_id: Id
    data: Text | None = None
    bytes: SafeCount | None = None
    explanation: Text | None = None

    @model_validator(mode="after")
    def _declared_size(self) -> SnapshotEvidence:
        # The schema bounds `bytes` to 1 … 1 MiB when supplied; a specific code says so.
        declared = self.bytes
        supplied = self.availability == "supplied" and declared is not None
        if supplied and not 1 <= (declared or 0) <= MAX_SNAPSHOT_BYTES:
            raise rule_error(
                PlanCode.SNAPSHOT_TOO_LARGE,
                f"the snapshot declares {declared:,} bytes; this format allows "
                f"1 to {MAX_SNAPSHOT_BYTES:,}",
            )
        return self


class ReportDestination03(ReportDestination):
    capabilities_snapshot: SnapshotEvidence


class Assessment03(Assessment):
    component_ids: UniqueIds


class DestinationReport03(DestinationReport):
    report_version: Literal["0.3"]  # type: ignore[assignment]
    destination: ReportDestination03
    assessments: Annotated[list[Assessment03], Field(min_length=1)]  # type: ignore[assignment]
