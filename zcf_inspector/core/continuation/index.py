"""Look-up tables over one parsed document: each collection by ID, with its pointer.

IDs are unique within their own collection (§2); a repeated ID is reported once and the
first record keeps the ID, so later checks still have one answer for every look-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar, cast

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.profile import (
    ConfigurationBinding,
    ContinuationProfile,
    Dependency,
    NativeImport,
    Operation,
    ServiceBinding,
    Workspace,
    WorkspaceEntry,
)
from zcf_inspector.core.continuation.models.session import (
    AsifSession,
    Branch,
    Checkpoint,
    Configuration,
    Context,
    DecisionRequestData,
    Environment,
    Event,
    Resource,
    Tool,
)
from zcf_inspector.core.continuation.models.validation import validate_at
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Located(Generic[T]):
    """A record and the JSON pointer where it sits in the source document."""

    value: T
    pointer: str


# -- facts the rules establish, carried by the tables and read by the graph walk ------
# Defined here, below graph_build.py and rules/, so neither the tables nor the walk import
# a rule module (that would close an import circle: the rules read these tables).


@dataclass(slots=True)
class ResourceBytes:
    """The session's resources by ID (first wins), with the verified bytes of inline ones."""

    records: dict[str, JsonObject] = field(default_factory=dict)
    pointers: dict[str, str] = field(default_factory=dict)
    verified: dict[str, bytes] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)  # declared inline bytes that failed

    def __contains__(self, ident: str) -> bool:
        return ident in self.records


class WorkspaceView(Protocol):
    """The selected tree of one workspace as the graph walk reads it (made by
    `rules.workspace_state.WorkspaceTree`, when first read)."""

    @property
    def entries(self) -> Mapping[str, Located[WorkspaceEntry]]:
        """Path → entry, with where it was declared."""
        ...

    @property
    def chain(self) -> tuple[str, ...]:
        """This workspace, then its base, its base's base, … (up to a missing base or
        the first repeat of a cycle)."""
        ...


@dataclass(slots=True)
class Table(Generic[T]):
    """One collection keyed by ID (first occurrence wins)."""

    by_id: dict[str, Located[T]] = field(default_factory=dict)

    def __contains__(self, key: str) -> bool:
        return key in self.by_id

    def get(self, key: str) -> T | None:
        found = self.by_id.get(key)
        return None if found is None else found.value

    def at(self, key: str) -> str:
        return self.by_id[key].pointer


def build_table(
    items: Iterable[T],
    base: str,
    key: Callable[[T], str],
    findings: list[Finding],
    field_name: str = "id",
) -> Table[T]:
    table: Table[T] = Table()
    for i, item in enumerate(items):
        tick()
        where = pointer.child(base, i)
        ident = key(item)
        if ident in table.by_id:
            findings.append(
                error(
                    PlanCode.DUPLICATE_ID,
                    pointer.child(where, field_name),
                    f"{field_name} {ident!r} repeats {table.by_id[ident].pointer}",
                )
            )
            continue
        table.by_id[ident] = Located(item, where)
    return table


@dataclass(slots=True)
class CoreIndex:
    """The ASIF core collections a plan resolves references in (absent for a bare profile)."""

    session: AsifSession
    raw: dict[str, JsonValue]
    events: Table[Event]
    branches: Table[Branch]
    contexts: Table[Context]
    configurations: Table[Configuration]
    tools: Table[Tool]
    resources: Table[Resource]
    environments: Table[Environment]
    checkpoints: Table[Checkpoint]
    decisions: dict[str, Located[DecisionRequestData]]
    # The verified bytes of inline resources, once rules.resource_bytes has run.
    resource_bytes: ResourceBytes | None = None

    def raw_entity(self, collection: str, ident: str) -> JsonValue:
        """The raw JSON of ``collection``'s record ``ident`` (extra fields included)."""
        table: Table[object] = getattr(self, collection)
        where = table.at(ident)
        return pointer.resolve(self.raw, where)


@dataclass(slots=True)
class ProfileIndex:
    profile: ContinuationProfile
    base: str  # "/continuation" in a session, "" for a bare profile
    raw: JsonValue
    workspaces: Table[Workspace]
    dependencies: Table[Dependency]
    bindings: Table[ConfigurationBinding]
    services: Table[ServiceBinding]
    operations: Table[Operation]
    natives: Table[NativeImport]


def index_profile(
    profile: ContinuationProfile, base: str, raw: JsonValue, findings: list[Finding]
) -> ProfileIndex:
    def at(name: str) -> str:
        return base + "/" + name

    def ident(item: Workspace | Dependency | ServiceBinding | Operation | NativeImport) -> str:
        return item.id

    plans = build_table(profile.plans, at("plans"), lambda p: p.id, findings)
    del plans  # only checked for duplicates; plans are walked in document order
    return ProfileIndex(
        profile=profile,
        base=base,
        raw=raw,
        workspaces=build_table(profile.workspaces, at("workspaces"), ident, findings),
        dependencies=build_table(profile.dependencies, at("dependencies"), ident, findings),
        bindings=build_table(
            profile.configuration_bindings,
            at("configuration_bindings"),
            lambda b: b.configuration_id,
            findings,
            "configuration_id",
        ),
        services=build_table(profile.service_bindings, at("service_bindings"), ident, findings),
        operations=build_table(profile.operations, at("operations"), ident, findings),
        natives=build_table(profile.native_imports, at("native_imports"), ident, findings),
    )


def index_core(
    session: AsifSession, raw: dict[str, JsonValue], findings: list[Finding]
) -> CoreIndex:
    def ident(
        item: Event | Branch | Context | Configuration | Tool | Resource | Environment | Checkpoint,
    ) -> str:
        return item.id

    events = build_table(session.events, "/events", ident, findings)
    seen: set[str] = set()
    for i, pid in enumerate(p.id for p in session.participants):
        if pid in seen:
            findings.append(
                error(PlanCode.DUPLICATE_ID, f"/participants/{i}/id", f"id {pid!r} repeats")
            )
        seen.add(pid)
    decisions: dict[str, Located[DecisionRequestData]] = {}
    for i, event in enumerate(session.events):
        tick()
        if event.kind != "decision_request":
            continue
        where = f"/events/{i}/data"
        data, problems = validate_at(DecisionRequestData, cast(JsonValue, event.data), where)
        findings.extend(problems)
        if data is not None and data.request_id not in decisions:
            decisions[data.request_id] = Located(data, where)
    for i, binding in enumerate(session.external_bindings or []):
        if binding.kind != "request" or binding.id in decisions:
            continue
        where = f"/external_bindings/{i}/descriptor"
        descriptor = dict(binding.descriptor)
        descriptor.setdefault("request_id", binding.id)
        data, problems = validate_at(DecisionRequestData, cast(JsonValue, descriptor), where)
        findings.extend(problems)
        if data is not None:
            decisions[binding.id] = Located(data, where)
    return CoreIndex(
        session=session,
        raw=raw,
        events=events,
        branches=build_table(session.branches, "/branches", ident, findings),
        contexts=build_table(session.contexts, "/contexts", ident, findings),
        configurations=build_table(session.configurations, "/configurations", ident, findings),
        tools=build_table(session.tools, "/tools", ident, findings),
        resources=build_table(session.resources, "/resources", ident, findings),
        environments=build_table(session.environments, "/environments", ident, findings),
        checkpoints=build_table(session.checkpoints, "/checkpoints", ident, findings),
        decisions=decisions,
    )
