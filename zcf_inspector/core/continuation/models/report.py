"""Pydantic models of the destination report 0.2 (`schemas/continuation-report.schema.json`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.base import (
    Id,
    SafeCount,
    Sha256Hex,
    SpecModel,
    Text,
    UniqueIds,
    rule_error,
)
from zcf_inspector.core.continuation.models.profile import ExternalIdentity, Model, Runtime

SubjectKind = Literal[
    "plan",
    "context",
    "model",
    "workspace",
    "dependency",
    "service",
    "configuration",
    "instruction",
    "capability",
    "policy",
    "resource",
    "operation",
    "native_import",
    "feature",
    "environment",
    "checkpoint_requirement",
    "environment_requirement",
]
Status = Literal["supported", "adapted", "omitted", "unresolved", "unsupported"]
Outcome = Literal["ready", "blocked", "adaptation_required"]


class ReportSource(SpecModel):
    session_id: Id
    capture_id: Id
    plan_id: Id
    document_sha256: Sha256Hex


class ReportDestination(SpecModel):
    id: Id
    runtime: Runtime
    capabilities_sha256: Sha256Hex


class Subject(SpecModel):
    not_null = frozenset({"owner_id"})

    kind: SubjectKind
    id: Id
    owner_id: Id | None = None


class ResolvedAccount(SpecModel):
    provider: Text
    subject: Text


class AssessmentResolved(SpecModel):
    not_null = frozenset(
        {
            "identity",
            "account",
            "scopes",
            "audience",
            "endpoint",
            "secret_handles",
            "status",
            "recovery_strategy",
            "external_identity",
        }
    )

    identity: Text | None = None
    version: Id | None = None
    account: ResolvedAccount | None = None
    scopes: UniqueIds | None = None
    audience: Text | None = None
    endpoint: Text | None = None
    secret_handles: UniqueIds | None = None
    status: Literal["available"] | None = None
    recovery_strategy: Literal["reconcile", "reconnect"] | None = None
    external_identity: ExternalIdentity | None = None


class Assessment(SpecModel):
    not_null = frozenset({"resolved"})

    subject: Subject
    status: Status
    required: bool
    detail: Text
    evidence_ids: UniqueIds
    resolved: AssessmentResolved | None = None


class PathBinding(SpecModel):
    root_id: Id
    destination_path: Text
    case_sensitive: bool
    unicode_normalization: Literal["none", "NFC", "NFD"]


class IdentityMapping(SpecModel):
    entity_type: Text
    source_id: Id
    target_id: Id
    target_namespace: Text


class ModelAssessment(SpecModel):
    source: Model
    target: Model
    tokenizer: Text | None
    input_tokens: SafeCount | None
    input_limit: SafeCount | None
    output_reserve: SafeCount
    fit: Literal["fits", "exceeds", "unknown"]


class BlockingReasonEntry(SpecModel):
    subject: Subject
    reason: Text


class Evidence(SpecModel):
    not_null = frozenset({"reference"})

    id: Id
    producer: Text
    time: Text
    kind: Literal[
        "inspection",
        "compatibility_test",
        "authorization",
        "acceptance",
        "import",
        "continuation",
        "synthetic",
    ]
    detail: Text
    reference: Text | None = None


class Transformation(SpecModel):
    id: Id
    subject: Subject
    target: Text
    rule: Text
    losses: list[Text]
    accepted: bool
    evidence_ids: UniqueIds

    @model_validator(mode="after")
    def _accepted_has_evidence(self) -> Transformation:
        if self.accepted and not self.evidence_ids:
            raise rule_error(
                PlanCode.SCHEMA_VIOLATION, "an accepted transformation names its evidence"
            )
        return self


class ImportResult(SpecModel):
    status: Literal["not_attempted", "imported", "failed", "rolled_back"]
    evidence_ids: UniqueIds
    detail: Text


class ContinuationTestResult(SpecModel):
    status: Literal["not_tested", "continued", "blocked", "failed"]
    evidence_ids: UniqueIds
    detail: Text


class DestinationReport(SpecModel):
    report_version: Literal["0.2"]
    evaluation_mode: Literal["synthetic", "observed"]
    id: Id
    source: ReportSource
    destination: ReportDestination
    assessed_at: Text
    expires_at: Text
    outcome: Outcome
    assessments: Annotated[list[Assessment], Field(min_length=1)]
    path_bindings: list[PathBinding]
    identity_mappings: list[IdentityMapping]
    transformations: list[Transformation]
    model_assessment: ModelAssessment
    blocking_reasons: list[BlockingReasonEntry]
    evidence: list[Evidence]
    import_result: ImportResult
    continuation_result: ContinuationTestResult
