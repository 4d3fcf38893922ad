"""Pydantic models of the capability snapshot object (`#/$defs/capability_snapshot`).

They are the fast path of the snapshot's schema check: each is at least as strict as the
schema (strict types, the same lengths, enums, uniqueness and the kind-specific required
fields), so a snapshot they accept keeps the schema; one they refuse is then held against
the published schema itself, which decides and says where (rules/snapshot.py). A 1 MiB
snapshot of five thousand components takes pydantic-core a few milliseconds, the
generic schema walk a few hundred.
"""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.base import (
    Id,
    SafeCount,
    SpecModel,
    Text,
    UniqueIds,
    require,
)
from zcf_inspector.core.continuation.models.profile import ExternalIdentity, Model, Runtime
from zcf_inspector.core.continuation.models.report import ResolvedAccount

ComponentKind = Literal[
    "dependency",
    "configuration",
    "policy",
    "capability",
    "model",
    "service",
    "workspace",
    "operation",
    "native_import",
    "environment",
]
# The fields each kind must carry (the schema's allOf of if/then).
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "model": ("model", "tokenizer", "input_limit", "media_types", "capabilities"),
    "service": ("account", "audience", "scopes", "secret_handles", "endpoint"),
    "workspace": ("root_id", "destination_path", "case_sensitive", "unicode_normalization"),
    "operation": ("recovery_strategy", "external_identity"),
}


class CapabilityComponent(SpecModel):
    not_null = frozenset(
        {
            "model",
            "media_types",
            "capabilities",
            "account",
            "audience",
            "scopes",
            "secret_handles",
            "root_id",
            "destination_path",
            "case_sensitive",
            "unicode_normalization",
            "recovery_strategy",
        }
    )

    id: Id
    kind: ComponentKind
    identity: Text
    version: Text | None
    revision: Text
    status: Literal["available", "unavailable", "unknown"]
    model: Model | None = None
    tokenizer: Text | None = None
    input_limit: SafeCount | None = None
    media_types: UniqueIds | None = None
    capabilities: UniqueIds | None = None
    account: ResolvedAccount | None = None
    audience: Text | None = None
    scopes: UniqueIds | None = None
    secret_handles: UniqueIds | None = None
    endpoint: Text | None = None
    root_id: Text | None = None
    destination_path: Text | None = None
    case_sensitive: bool | None = None
    unicode_normalization: Literal["none", "NFC", "NFD"] | None = None
    recovery_strategy: Literal["reconcile", "reconnect", "restart", "refuse"] | None = None
    external_identity: ExternalIdentity | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> CapabilityComponent:
        needed = KIND_FIELDS.get(self.kind)
        if needed:
            require(self, needed, PlanCode.SCHEMA_VIOLATION, f"a {self.kind} component")
        return self


class CapabilitySnapshot(SpecModel):
    snapshot_version: Literal["0.1"]
    id: Id
    destination_id: Id
    producer: Text
    evaluation_mode: Literal["synthetic", "observed"]
    observed_at: Text
    expires_at: Text
    runtime: Runtime
    runtime_revision: Text
    supported_features: UniqueIds
    components: list[CapabilityComponent]
