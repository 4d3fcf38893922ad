"""Pydantic models of the Continuation Profile Object and everything it contains (§2 to §10).

Field tables, enums, minimum lengths and the conditional rules follow the continuation
object reference 0.4 and `schemas/continuation.schema.json`; extra fields are preserved.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.base import ExactJsonValue as JsonValue
from zcf_inspector.core.continuation.models.base import (
    Id,
    Sha256Hex,
    SpecModel,
    Text,
    Unique,
    UniqueIds,
    require,
    rule_error,
)
from zcf_inspector.core.continuation.versions import ASIF_0_4, Contract

RequiredFor = Literal["read", "context", "continue"]
Effects = Literal["none", "local", "remote", "unknown"]
Replay = Literal["never", "idempotent", "reconcile", "unknown"]
NullableId = Id | None


class Agent(SpecModel):
    id: Id
    version: NullableId
    state_format: NullableId


class RuntimeAdapter(SpecModel):
    id: Id
    version: NullableId


class Runtime(SpecModel):
    agent: Agent
    adapter: RuntimeAdapter
    os: Text
    architecture: Text


class Model(SpecModel):
    provider: Text
    id: Id
    revision: NullableId


class WorkspaceEntry(SpecModel):
    not_null = frozenset({"mode", "resource_id", "target"})

    path: Text
    kind: Literal["file", "directory", "symlink"]
    mode: Annotated[int, Field(ge=0, le=511)] | None = None
    resource_id: Id | None = None
    target: Text | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> WorkspaceEntry:
        if self.kind == "file":
            require(self, ("mode", "resource_id"), PlanCode.SCHEMA_VIOLATION, "a file entry")
        elif self.kind == "directory":
            require(self, ("mode",), PlanCode.SCHEMA_VIOLATION, "a directory entry")
        else:
            require(self, ("target",), PlanCode.SCHEMA_VIOLATION, "a symlink entry")
        return self


class GitPrerequisite(SpecModel):
    not_null = frozenset({"resource_id"})

    object_id: Id
    availability: Literal["embedded", "external", "unavailable", "unknown"]
    resource_id: Id | None = None


class GitIndexEntry(SpecModel):
    path: Text
    stage: Annotated[int, Field(ge=0, le=3)]
    mode: Text
    resource_id: NullableId
    object_id: NullableId


class GitSubmodule(SpecModel):
    path: Text
    object_id: Id
    dependency_id: Id


class GitState(SpecModel):
    object_format: Text
    head: NullableId
    branch: NullableId
    bundle_resource_ids: UniqueIds
    prerequisites: list[GitPrerequisite]
    index_entries: list[GitIndexEntry]
    submodules: list[GitSubmodule]
    lfs_dependency_ids: UniqueIds


class WorkspaceSelection(SpecModel):
    include: list[Text]
    exclude: list[Text]
    complete_for_selection: bool


class Workspace(SpecModel):
    not_null = frozenset({"git"})

    id: Id
    environment_id: Id
    root_id: Id
    at_event_id: NullableId
    source_root: Text
    mode: Literal["snapshot", "delta", "refs"]
    selection: WorkspaceSelection
    entries: list[WorkspaceEntry]
    deletions: list[Text]
    base_snapshot_id: NullableId
    git: GitState | None = None

    @model_validator(mode="after")
    def _mode_rules(self) -> Workspace:
        code = PlanCode.WORKSPACE_STATE_INVALID
        if self.mode == "delta" and self.base_snapshot_id is None:
            raise rule_error(code, "a delta workspace requires a base_snapshot_id")
        if self.mode == "snapshot" and self.base_snapshot_id is not None:
            raise rule_error(code, "a snapshot workspace lists its whole tree: base must be null")
        if self.mode == "snapshot" and self.deletions:
            raise rule_error(code, "a snapshot workspace cannot declare deletions")
        if self.mode == "refs":
            require(self, ("git",), code, "a refs workspace")
        return self


class ToolBehavior(SpecModel):
    id: Id
    revision: Text
    effects: Effects
    replay: Replay


class DependencyPlatform(SpecModel):
    os: UniqueIds
    architectures: UniqueIds


class DependencyBinding(SpecModel):
    kind: Literal["builtin", "package", "command", "service", "opaque"]
    reference: Text


class Dependency(SpecModel):
    not_null = frozenset({"tool_id", "behavior"})

    id: Id
    kind: Literal[
        "agent_runtime",
        "model",
        "executable",
        "package",
        "skill",
        "plugin",
        "hook",
        "tool",
        "policy",
        "service",
        "resource",
    ]
    identity: Text
    accepted_versions: UniqueIds
    platform: DependencyPlatform
    required_for: Annotated[list[RequiredFor], Unique]
    depends_on: UniqueIds
    resource_ids: UniqueIds
    binding: DependencyBinding
    tool_id: Id | None = None
    behavior: ToolBehavior | None = None

    @model_validator(mode="after")
    def _tool_contract(self) -> Dependency:
        if self.kind == "tool":
            require(
                self,
                ("tool_id", "behavior"),
                PlanCode.TOOL_DEPENDENCY_INCOMPLETE,
                "a tool dependency",
            )
        return self


class InstructionScope(SpecModel):
    not_null = frozenset({"root_id", "relative_path"})

    kind: Literal["global", "root", "path_prefix"]
    root_id: Id | None = None
    relative_path: str | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> InstructionScope:
        if self.kind == "root":
            require(self, ("root_id",), PlanCode.SCHEMA_VIOLATION, "a root scope")
        elif self.kind == "path_prefix":
            require(
                self, ("root_id", "relative_path"), PlanCode.SCHEMA_VIOLATION, "a path_prefix scope"
            )
        return self


class Activation(SpecModel):
    not_null = frozenset({"dialect"})

    kind: Literal["always", "predicate"]
    dialect: Text | None = None
    expression: JsonValue = None

    @model_validator(mode="after")
    def _predicate_fields(self) -> Activation:
        if self.kind == "predicate":
            require(self, ("dialect", "expression"), PlanCode.SCHEMA_VIOLATION, "a predicate")
        return self


class InstructionRule(SpecModel):
    instruction_id: Id
    authority: Literal["system", "developer", "user", "untrusted", "unknown"]
    merge_behavior: Literal["append", "replace_same_scope", "reject_conflict", "unknown"]
    group_id: Id
    priority: int
    scope: InstructionScope
    activation: Activation


class ConfigurationBinding(SpecModel):
    configuration_id: Id
    effective_order: UniqueIds
    instruction_rules: list[InstructionRule]
    policy_ids: UniqueIds


class ServiceEndpoint(SpecModel):
    kind: Literal["https", "stdio", "local_socket", "other"]
    locator: Text


class ServiceAccount(SpecModel):
    provider: Text
    subject: Text


class ServiceBinding(SpecModel):
    id: Id
    service: Text
    endpoint: ServiceEndpoint
    account: ServiceAccount
    auth_method: Literal["none", "api_key", "oauth", "login", "other"]
    audience: Text
    scopes: UniqueIds
    secret_handles: UniqueIds
    dependency_ids: UniqueIds


class ExternalIdentity(SpecModel):
    namespace: Text
    value: Text


class OperationRecovery(SpecModel):
    strategy: Literal["reconcile", "reconnect", "restart", "refuse"]
    handler_dependency_id: NullableId
    idempotency_ref: NullableId
    evidence_resource_ids: UniqueIds


class Operation(SpecModel):
    not_null = frozenset({"call_id"})

    id: Id
    call_id: Id | None = None
    kind: Literal["tool", "process", "service_job", "agent"]
    external_identity: ExternalIdentity | None
    state: Literal["pending", "running", "succeeded", "failed", "cancelled", "outcome_unknown"]
    effects: Effects
    replay: Replay
    evidence_resource_ids: UniqueIds
    recovery: OperationRecovery

    @model_validator(mode="after")
    def _tool_call(self) -> Operation:
        if self.kind == "tool":
            require(self, ("call_id",), PlanCode.SCHEMA_VIOLATION, "a tool operation")
        return self


class NativeAdapter(SpecModel):
    id: Id
    version: Text


class NativeImport(SpecModel):
    not_null = frozenset({"baseline_sha256"})

    id: Id
    adapter: NativeAdapter
    source_state_format: Text
    accepted_target_agent_versions: UniqueIds
    resource_ids: UniqueIds
    mode: Literal["copy", "continue", "translate"]
    identity_policy: Literal["new", "preserve_if_safe", "map"]
    ordering_contract: Text
    index_contract: Text
    conflict_policy: Literal["reject", "new_identity", "replace_if_unchanged"]
    baseline_sha256: Sha256Hex | None = None

    @model_validator(mode="after")
    def _import_rules(self) -> NativeImport:
        code = PlanCode.NATIVE_IMPORT_INVALID
        if self.conflict_policy == "replace_if_unchanged":
            # §10: existing target state is replaced only against a matching baseline.
            require(self, ("baseline_sha256",), code, "conflict_policy replace_if_unchanged")
        if self.mode == "copy" and self.identity_policy != "new":
            raise rule_error(code, "mode copy creates a new identity: identity_policy must be new")
        return self


class PlanBoundary(SpecModel):
    method: Literal["quiesced", "transactional", "bounded_read", "best_effort"]
    consistency: Literal["consistent", "partial", "unknown"]
    evidence_resource_ids: UniqueIds
    explanation: Text


class ContextAccounting(SpecModel):
    event_id: Id
    disposition: Literal["included", "summarized", "not_input", "unavailable"]
    input_ids: UniqueIds
    explanation: Text

    @model_validator(mode="after")
    def _names_inputs(self) -> ContextAccounting:
        if self.disposition in ("included", "summarized") and not self.input_ids:
            raise rule_error(
                PlanCode.CONTEXT_ACCOUNTING_INCOMPLETE,
                f"a {self.disposition} event names the inputs that carry it",
            )
        return self


class PlanCwd(SpecModel):
    root_id: Id
    relative_path: str


class PathReference(SpecModel):
    entity_type: Literal["event", "resource", "environment", "configuration", "dependency"]
    entity_id: Id
    json_pointer: Text
    root_id: Id
    relative_path: str


class ModelRequirements(SpecModel):
    source_model: Model
    capabilities: UniqueIds
    media_types: UniqueIds
    overflow_policy: Literal["block", "propose_compaction"]


ActionKind = Literal[
    "model_request", "await_user", "await_decision", "reconcile_operation", "resume_native"
]


class NextAction(SpecModel):
    not_null = frozenset({"request_id", "operation_id", "native_import_id"})

    kind: ActionKind
    request_id: Id | None = None
    operation_id: Id | None = None
    native_import_id: Id | None = None

    @model_validator(mode="after")
    def _binding(self) -> NextAction:
        needs = {
            "await_decision": "request_id",
            "reconcile_operation": "operation_id",
            "resume_native": "native_import_id",
        }
        if self.kind in needs:
            require(self, (needs[self.kind],), PlanCode.NEXT_ACTION_UNBOUND, f"{self.kind}")
        return self


class ContinuationPlan(SpecModel):
    id: Id
    checkpoint_id: Id
    context_id: Id
    configuration_id: Id
    workspace_ids: UniqueIds
    dependency_ids: UniqueIds
    service_binding_ids: UniqueIds
    operation_ids: UniqueIds
    native_import_id: NullableId
    boundary: PlanBoundary
    context_accounting: list[ContextAccounting]
    cwd: PlanCwd | None
    path_references: list[PathReference]
    model_requirements: ModelRequirements
    next_action: NextAction


class ContinuationProfile(SpecModel):
    contract: ClassVar[Contract] = ASIF_0_4

    profile_version: Literal["0.2"]
    source_runtime: Runtime
    workspaces: list[Workspace]
    dependencies: list[Dependency]
    configuration_bindings: list[ConfigurationBinding]
    service_bindings: list[ServiceBinding]
    operations: list[Operation]
    native_imports: list[NativeImport]
    plans: Annotated[list[ContinuationPlan], Field(min_length=1)]
