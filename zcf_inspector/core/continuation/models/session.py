"""Pydantic models of the ASIF 0.4 core entities that continuation plans reference.

Modelled as far as the continuation checks read them (`schemas/session.schema.json`):
events and branches, contexts and their typed inputs, configurations, tools, resources,
environments and checkpoints. Everything else in a session is kept as raw JSON.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.base import ExactJsonValue as JsonValue
from zcf_inspector.core.continuation.models.base import (
    Id,
    SafeCount,
    Sha256Hex,
    SpecModel,
    Text,
    Unique,
    UniqueIds,
    require,
    rule_error,
)
from zcf_inspector.core.continuation.models.profile import ContinuationProfile, RequiredFor
from zcf_inspector.core.continuation.versions import ASIF_0_4, Contract

FEATURE = ASIF_0_4.feature
Role = Literal["user", "assistant", "system", "developer", "tool", "unknown"]


class Part(SpecModel):
    """One content part; `resource` and `opaque` parts name a resource by typed reference."""

    not_null = frozenset(
        {"text", "media_type", "resource_id", "description", "schema_", "semantic_type", "reason"}
    )

    kind: Literal["text", "resource", "structured", "opaque"]
    text: str | None = None
    media_type: Text | None = None
    resource_id: Id | None = None
    description: str | None = None
    schema_: Text | None = Field(default=None, alias="schema")
    value: JsonValue = None
    semantic_type: Text | None = None
    reason: Text | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> Part:
        needs = {
            "text": ("text",),
            "resource": ("resource_id",),
            "structured": ("schema", "value"),
            "opaque": ("resource_id", "semantic_type", "reason"),
        }[self.kind]
        absent = [n for n in needs if not self.has("schema_" if n == "schema" else n)]
        if absent:
            raise rule_error(
                PlanCode.SCHEMA_VIOLATION, f"a {self.kind} part requires {', '.join(absent)}"
            )
        return self


class EventRef(SpecModel):
    not_null = frozenset({"session_id", "capture_id"})

    event_id: Id
    session_id: Id | None = None
    capture_id: Id | None = None

    @model_validator(mode="after")
    def _external_pair(self) -> EventRef:
        if self.has("session_id") != self.has("capture_id"):
            raise rule_error(PlanCode.SCHEMA_VIOLATION, "session_id and capture_id occur together")
        return self


class Event(SpecModel):
    id: Id
    sequence: SafeCount
    actor_id: Id
    kind: Literal[
        "message",
        "tool_call",
        "tool_result",
        "decision_request",
        "decision_resolution",
        "task_update",
        "context_checkpoint",
        "configuration_change",
        "execution_transition",
        "resource_change",
        "note",
        "extension",
    ]
    causes: list[EventRef]
    provenance: dict[str, JsonValue]
    data: dict[str, JsonValue]


class DecisionRequestData(SpecModel):
    """The `data` of a `decision_request` event (its prompt parts select resources)."""

    request_id: Id
    decision_kind: Literal["approval", "question", "plan_review"]
    prompt: list[Part]
    options: list[dict[str, JsonValue]]


class Branch(SpecModel):
    id: Id
    event_ids: UniqueIds
    head_event_id: Id | None


class ContextInput(SpecModel):
    not_null = frozenset(
        {
            "transformation",
            "call_id",
            "tool_id",
            "arguments_status",
            "result_index",
            "terminal",
            "outcome",
        }
    )

    id: Id
    kind: Literal["message", "tool_call", "tool_result"]
    role: Role
    parts: list[Part]
    source_events: list[EventRef]
    transformation: Text | None = None
    call_id: Id | None = None
    tool_id: Id | None = None
    arguments: JsonValue = None
    arguments_status: Literal["complete", "partial", "unknown"] | None = None
    result_index: SafeCount | None = None
    terminal: bool | None = None
    outcome: Literal["success", "error", "cancelled", "unknown"] | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> ContextInput:
        code = PlanCode.SCHEMA_VIOLATION
        if self.kind == "tool_call":
            require(
                self,
                ("call_id", "tool_id", "arguments", "arguments_status"),
                code,
                "a tool_call input",
            )
            if self.role != "assistant":
                raise rule_error(code, "a tool_call input has role assistant")
        elif self.kind == "tool_result":
            require(
                self,
                ("call_id", "result_index", "terminal", "outcome"),
                code,
                "a tool_result input",
            )
            if self.role != "tool":
                raise rule_error(code, "a tool_result input has role tool")
            if self.terminal is False and self.outcome != "unknown":
                raise rule_error(code, "a non-terminal result has outcome unknown")
        return self


class Context(SpecModel):
    not_null = frozenset({"configuration_id", "model", "request_parameters"})

    id: Id
    branch_id: Id
    at_event_id: Id | None
    purpose: Literal["model_request", "continuation", "summary"]
    fidelity: Literal["exact", "reconstructed", "partial", "unknown"]
    inputs: list[ContextInput]
    tool_ids: UniqueIds
    configuration_id: Id | None = None
    model: dict[str, JsonValue] | None = None
    request_parameters: dict[str, JsonValue] | None = None

    @model_validator(mode="after")
    def _exact_fields(self) -> Context:
        if self.fidelity == "exact":
            require(
                self,
                ("configuration_id", "request_parameters"),
                PlanCode.SCHEMA_VIOLATION,
                "an exact context",
            )
        return self


class Instruction(SpecModel):
    id: Id
    parts: list[Part]
    scope: dict[str, JsonValue]
    activation: dict[str, JsonValue]
    provenance: dict[str, JsonValue]


class Capability(SpecModel):
    id: Id
    type: Text
    definition: JsonValue
    resource_ids: UniqueIds
    required: bool


class Policy(SpecModel):
    id: Id
    type: Text
    definition: JsonValue
    enforcing: bool


class SecretRequirement(SpecModel):
    handle: Text
    purpose: Text


class Configuration(SpecModel):
    not_null = frozenset({"model", "environment_ids"})

    id: Id
    instructions: list[Instruction]
    capabilities: list[Capability]
    policies: list[Policy]
    secret_requirements: list[SecretRequirement]
    knowledge: Literal["effective", "declared", "partial", "unknown"]
    model: dict[str, JsonValue] | None = None
    environment_ids: UniqueIds | None = None


class Tool(SpecModel):
    not_null = frozenset({"resource_ids"})

    id: Id
    name: Text
    description: str
    input_schema: dict[str, JsonValue] | bool
    resource_ids: UniqueIds | None = None


_PAYLOAD = ("text", "data", "path")


class Resource(SpecModel):
    not_null = frozenset(
        {
            "name",
            "original_location",
            "bytes",
            "sha256",
            "text",
            "data",
            "path",
            "locator",
            "explanation",
            "provenance",
        }
    )

    id: Id
    media_type: Text
    availability: Literal["embedded", "external", "unavailable", "excluded", "redacted", "unknown"]
    purpose: Text
    name: str | None = None
    original_location: str | None = None
    bytes: SafeCount | None = None
    sha256: Sha256Hex | None = None
    text: str | None = None
    data: str | None = None
    path: Text | None = None
    locator: Text | None = None
    explanation: Text | None = None
    provenance: dict[str, JsonValue] | None = None

    @model_validator(mode="after")
    def _availability_fields(self) -> Resource:
        code = PlanCode.SCHEMA_VIOLATION
        payloads = [n for n in _PAYLOAD if self.has(n)]
        if self.availability == "embedded":
            require(self, ("bytes", "sha256"), code, "an embedded resource")
            if len(payloads) != 1:
                raise rule_error(
                    code, "an embedded resource carries exactly one of text, data, path"
                )
            return self
        if payloads:
            raise rule_error(code, f"a {self.availability} resource carries no payload")
        needs = ("locator", "explanation") if self.availability == "external" else ("explanation",)
        require(self, needs, code, f"a {self.availability} resource")
        return self


class Requirement(SpecModel):
    """A checkpoint or environment requirement with its typed references (§10a step 3)."""

    not_null = frozenset({"resource_id", "capability_id", "environment_id", "secret_handle"})

    id: Id
    kind: Text
    description: Text
    required_for: Annotated[list[RequiredFor], Unique]
    status: Literal["available", "unresolved", "unavailable", "unsupported"]
    resource_id: Id | None = None
    capability_id: Id | None = None
    environment_id: Id | None = None
    secret_handle: Text | None = None


class Environment(SpecModel):
    not_null = frozenset({"definition"})

    id: Id
    kind: Literal["workspace", "service", "runtime", "other"]
    description: Text
    resource_ids: UniqueIds
    requirements: list[Requirement]
    definition: dict[str, JsonValue] | None = None


class OpenItem(SpecModel):
    state: Literal["pending", "outcome_unknown"]


class OpenCall(OpenItem):
    call_id: Id


class OpenDecision(OpenItem):
    request_id: Id


class Checkpoint(SpecModel):
    id: Id
    branch_id: Id
    at_event_id: Id | None
    knowledge: Literal["observed", "derived", "unknown"]
    status: Literal["idle", "active", "waiting", "stopped", "ended", "unknown"]
    context_id: Id | None
    configuration_id: Id | None
    open_calls: list[OpenCall]
    open_decisions: list[OpenDecision]
    tasks: list[dict[str, JsonValue]]
    requirements: list[Requirement]


class Capture(SpecModel):
    id: Id
    producer: dict[str, JsonValue]
    consistency: Literal["consistent", "partial", "unknown"]
    boundary: Text


class SessionIdentity(SpecModel):
    id: Id
    native_ids: list[dict[str, JsonValue]]
    lineage: list[dict[str, JsonValue]]


class ExternalBinding(SpecModel):
    kind: Literal["call", "request"]
    id: Id
    source: dict[str, JsonValue]
    descriptor: dict[str, JsonValue]


class ChildSession(SpecModel):
    session_id: Id
    capture_id: Id


class Participant(SpecModel):
    not_null = frozenset(
        {"name", "provider", "native_id", "parent_participant_id", "child_session"}
    )

    id: Id
    kind: Literal["human", "agent", "tool", "service", "unknown"]
    name: str | None = None
    provider: Id | None = None
    native_id: Id | None = None
    parent_participant_id: Id | None = None
    child_session: ChildSession | None = None


class AsifSession(SpecModel):
    """An ASIF 0.4 session; `continuation` and the profile feature require each other."""

    not_null = frozenset({"continuation", "external_bindings"})
    contract: ClassVar[Contract] = ASIF_0_4

    asif_version: Literal["0.4"]
    capture: Capture
    session: SessionIdentity
    participants: list[Participant]
    events: list[Event]
    branches: Annotated[list[Branch], Field(min_length=1)]
    executions: list[dict[str, JsonValue]]
    contexts: list[Context]
    configurations: list[Configuration]
    tools: list[Tool]
    resources: list[Resource]
    environments: list[Environment]
    checkpoints: Annotated[list[Checkpoint], Field(min_length=1)]
    coverage: list[dict[str, JsonValue]]
    losses: list[dict[str, JsonValue]]
    required_features: Annotated[list[Text], Unique]
    continuation: ContinuationProfile | None = None
    external_bindings: list[ExternalBinding] | None = None

    @model_validator(mode="after")
    def _profile_activation(self) -> AsifSession:
        # §1: a session using the profile carries the data and declares the feature.
        feature = self.contract.feature
        declared = feature in self.required_features
        if declared != self.has("continuation"):
            raise rule_error(
                PlanCode.PROFILE_ACTIVATION_MISMATCH,
                f"continuation data and the required feature {feature} each require the other",
            )
        return self
