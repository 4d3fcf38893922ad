"""The ASIF core record a continuation stands on: participants, events, branches, history.

Run over a schema-checked session (so every field the schema requires is present with
its type). Each rule's finding names both sides: what refers and what it found.

- participants: parents resolve and form no cycle;
- events: unique sequences in document order; actors, executions, causes, provenance
  (event inputs, source resources and their locators) and typed parts resolve; causes are
  earlier and unique; a supersession names an earlier event of the same kind (a decision
  correction keeps its request); call amendments keep the invocation, retries take a new
  call ID; tools, contexts, configurations, executions and resources named by an event
  exist; an extension that requires interpretation is gated by a required feature;
- branches: events resolve, the head is the last event, causes within a branch come first;
- history: each branch folds without contradiction (rules.history); results and
  resolutions answer a call or request of the session or an external binding;
- external bindings, tools' schemas and resources, configurations' secrets and instruction
  provenance, executions, session-memory provenance, loss references, known-empty coverage.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import ResourceBytes
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.history import event_record, fold_history
from zcf_inspector.core.continuation.rules.resource_bytes import decode_json
from zcf_inspector.core.continuation.rules.tool_schemas import json_schema_problem
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.continuation.walks import cycles
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue
from zcf_inspector.core.regex_budget import PatternBudget

_TARGETS = {
    "context_checkpoint": ("context_id", "contexts"),
    "configuration_change": ("configuration_id", "configurations"),
    "execution_transition": ("execution_id", "executions"),
    "resource_change": ("resource_id", "resources"),
}
_PREDECESSORS = {"replaced_context_id": "contexts", "previous_resource_id": "resources"}
_LOSS_TYPES = {
    "event": "events",
    "resource": "resources",
    "context": "contexts",
    "configuration": "configurations",
    "participant": "participants",
    "execution": "executions",
    "branch": "branches",
    "checkpoint": "checkpoints",
    "tool": "tools",
    "environment": "environments",
}


# The tables whose records a plan inventories as nodes (subjects.py), by their node kind:
# a reference into one that resolves nowhere is about that missing subject. The core's
# other records (events, participants, branches, tools…) are no plan subject: findings
# about them name the subject whose record is being read (`CoreEvents.owner`), if any.
_NODE_TABLES = {
    "resources": "resource",
    "contexts": "context",
    "configurations": "configuration",
    "environments": "environment",
}


def _objects(value: JsonValue) -> list[JsonObject]:
    return [cast(JsonObject, v) for v in value] if isinstance(value, list) else []


def _ids(items: Iterable[JsonObject], key: str = "id") -> dict[str, int]:
    """ID → first index (duplicates are reported by the caller where it matters)."""
    out: dict[str, int] = {}
    for i, item in enumerate(items):
        out.setdefault(cast(str, item[key]), i)
    return out


def partial_tasks(doc: JsonObject) -> bool:
    for item in _objects(doc.get("coverage")):
        if item.get("scope") == "tasks":
            return item.get("status") == "partial"
    return False


def external_descriptors(doc: JsonObject) -> tuple[dict[str, JsonObject], dict[str, JsonObject]]:
    calls: dict[str, JsonObject] = {}
    requests: dict[str, JsonObject] = {}
    for binding in _objects(doc.get("external_bindings")):
        target = calls if binding["kind"] == "call" else requests
        target.setdefault(cast(str, binding["id"]), cast(JsonObject, binding["descriptor"]))
    return calls, requests


class CoreEvents:
    """The rules above, over one schema-checked session."""

    def __init__(self, doc: JsonObject, resources: ResourceBytes, findings: list[Finding]) -> None:
        self.doc = doc
        self.resources = resources
        self.findings = findings
        self.events = _objects(doc["events"])
        self.event_index = _ids(self.events)
        self.tables = {
            name: _ids(_objects(doc[name]))
            for name in (
                "participants",
                "branches",
                "executions",
                "contexts",
                "configurations",
                "tools",
                "environments",
                "checkpoints",
            )
        }
        self.tables["events"] = self.event_index
        self.tables["resources"] = dict.fromkeys(resources.records, 0)
        self.external_calls, self.external_requests = external_descriptors(doc)
        self.owner: str | None = None  # the node of the record being read, if it is one

    def add(self, code: PlanCode, where: str, message: str, subject: str | None = None) -> None:
        """A finding about ``subject`` (a node ID), by default the record being read."""
        self.findings.append(error(code, where, message, subject or self.owner))

    def exists(self, table: str, ident: str, where: str, what: str) -> bool:
        if ident in self.tables[table]:
            return True
        kind = _NODE_TABLES.get(table)
        subject = None if kind is None else node_of(kind, ident)
        self.add(PlanCode.DANGLING_REFERENCE, where, f"{what} {ident!r} resolves nowhere", subject)
        return False

    def run(self) -> None:
        self._unique()
        self._participants()
        self._sequences()
        self._branches()
        self._external_bindings()
        self._events()
        self._branch_history()
        self._tools()
        self._configurations()
        self._executions()
        self._resources()
        self._losses()
        self._coverage()

    # -- identity ----------------------------------------------------------------------
    def _unique(self) -> None:
        for name in ("executions", "losses"):
            seen: set[str] = set()
            for i, item in enumerate(_objects(self.doc[name])):
                ident = cast(str, item["id"])
                if ident in seen:
                    self.add(PlanCode.DUPLICATE_ID, f"/{name}/{i}/id", f"id {ident!r} repeats")
                seen.add(ident)

    def _participants(self) -> None:
        parents: dict[str, list[str]] = {}
        for i, person in enumerate(_objects(self.doc["participants"])):
            parent = person.get("parent_participant_id")
            ident = cast(str, person["id"])
            parents.setdefault(ident, [])
            if isinstance(parent, str) and self.exists(
                "participants",
                parent,
                f"/participants/{i}/parent_participant_id",
                "parent participant",
            ):
                parents[ident].append(parent)
        for members in cycles(parents.keys(), parents):
            first = self.tables["participants"][members[0]]
            self.add(
                PlanCode.REFERENCE_CYCLE,
                f"/participants/{first}/parent_participant_id",
                "participant parents form a cycle among " + ", ".join(members),
            )

    # -- order ---------------------------------------------------------------------------
    def _sequences(self) -> None:
        seen: dict[int, int] = {}
        previous: int | None = None
        for i, event in enumerate(self.events):
            tick()
            sequence = cast(int, event["sequence"])
            where = f"/events/{i}/sequence"
            if sequence in seen:
                self.add(
                    PlanCode.EVENT_ORDER_INVALID,
                    where,
                    f"sequence {sequence} repeats /events/{seen[sequence]}",
                )
            elif previous is not None and sequence < previous:
                self.add(
                    PlanCode.EVENT_ORDER_INVALID,
                    where,
                    f"sequence {sequence} follows {previous}: events are not serialised in "
                    "sequence order",
                )
            seen.setdefault(sequence, i)
            previous = sequence if previous is None else max(previous, sequence)

    def _branches(self) -> None:
        for b, branch in enumerate(_objects(self.doc["branches"])):
            at = f"/branches/{b}"
            ids = [cast(str, x) for x in cast(list[JsonValue], branch["event_ids"])]
            last = ids[-1] if ids else None
            if branch["head_event_id"] != last:
                self.add(
                    PlanCode.EVENT_ORDER_INVALID,
                    at + "/head_event_id",
                    f"head {branch['head_event_id']!r} is not the branch's last event {last!r}",
                )
            positions = {ident: i for i, ident in enumerate(ids)}
            for i, ident in enumerate(ids):
                index = self.event_index.get(ident)
                if index is None:
                    continue  # reported as a dangling reference
                for cause in _objects(self.events[index]["causes"]):
                    if "capture_id" in cause:
                        continue
                    where = positions.get(cast(str, cause["event_id"]))
                    if where is not None and where >= i:
                        self.add(
                            PlanCode.EVENT_ORDER_INVALID,
                            f"{at}/event_ids/{i}",
                            f"event {ident!r} comes before its cause {cause['event_id']!r} "
                            f"in branch {branch['id']!r}",
                        )

    # -- events ------------------------------------------------------------------------
    def event_ref(self, ref: JsonObject, where: str, what: str = "event") -> str | None:
        """The local event ``ref`` names (None for an external or dangling one)."""
        if "capture_id" in ref:
            return None
        ident = cast(str, ref["event_id"])
        return ident if self.exists("events", ident, where + "/event_id", what) else None

    def parts(self, parts: JsonValue, where: str) -> None:
        for i, part in enumerate(_objects(parts)):
            if part.get("kind") in ("resource", "opaque"):
                self.exists(
                    "resources",
                    cast(str, part["resource_id"]),
                    f"{where}/{i}/resource_id",
                    "resource",
                )

    def provenance(self, value: JsonObject, where: str) -> None:
        for i, ref in enumerate(_objects(value.get("inputs"))):
            self.event_ref(ref, f"{where}/inputs/{i}")
        for i, source in enumerate(_objects(value.get("sources"))):
            at = f"{where}/sources/{i}"
            ident = cast(str, source["resource_id"])
            if not self.exists("resources", ident, at + "/resource_id", "resource"):
                continue
            locator = source.get("locator")
            if isinstance(locator, dict):
                self._locator(ident, locator, at + "/locator")

    def _locator(self, ident: str, locator: JsonObject, where: str) -> None:
        """A provenance locator into resource ``ident``: its findings are about the
        resource it cannot be found in."""
        owner, self.owner = self.owner, node_of("resource", ident)
        try:
            self._locate(ident, locator, where)
        finally:
            self.owner = owner

    def _locate(self, ident: str, locator: JsonObject, where: str) -> None:
        syntax = locator["syntax"]
        record = self.resources.records[ident]
        if syntax == "bytes":
            offset, length = locator.get("offset"), locator.get("length")
            if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
                self.add(PlanCode.POINTER_UNRESOLVED, where, "a bytes locator names its offset")
                return
            if not isinstance(length, int) or isinstance(length, bool) or length < 0:
                self.add(PlanCode.POINTER_UNRESOLVED, where, "a bytes locator names its length")
                return
            size = record.get("bytes")
            if not isinstance(size, int) or offset + length > size:
                self.add(
                    PlanCode.POINTER_UNRESOLVED,
                    where,
                    f"bytes {offset}+{length} lie outside resource {ident!r} "
                    f"({size if isinstance(size, int) else 'of unknown length'})",
                )
        elif syntax == "json_pointer":
            value = locator.get("value")
            if not isinstance(value, str):
                self.add(
                    PlanCode.POINTER_UNRESOLVED, where + "/value", "a JSON pointer is a string"
                )
                return
            raw = self.resources.verified.get(ident)
            if raw is None:
                return  # not inline (or refused already): nothing to resolve in
            content = decode_json(raw)
            if isinstance(content, str):
                self.add(PlanCode.POINTER_UNRESOLVED, where, f"resource {ident!r} is {content}")
                return
            try:
                pointer.resolve_strictly(content, value)
            except (KeyError, ValueError):
                self.add(
                    PlanCode.POINTER_UNRESOLVED,
                    where + "/value",
                    f"{value!r} names nothing in resource {ident!r}",
                )

    def _events(self) -> None:
        calls: dict[str, int] = {}
        requests: set[str] = set()
        task_revisions: set[tuple[str, int]] = set()
        features = set(cast(list[str], self.doc["required_features"]))
        for i, event in enumerate(self.events):
            tick()
            at = f"/events/{i}"
            ident = cast(str, event["id"])
            sequence = cast(int, event["sequence"])
            self.exists("participants", cast(str, event["actor_id"]), at + "/actor_id", "actor")
            if "execution_id" in event:
                self.exists(
                    "executions",
                    cast(str, event["execution_id"]),
                    at + "/execution_id",
                    "execution",
                )
            self.provenance(cast(JsonObject, event["provenance"]), at + "/provenance")
            local_causes: list[str] = []
            for c, cause in enumerate(_objects(event["causes"])):
                target = self.event_ref(cause, f"{at}/causes/{c}", "cause")
                if target is None:
                    continue
                if cast(int, self.events[self.event_index[target]]["sequence"]) >= sequence:
                    self.add(
                        PlanCode.EVENT_ORDER_INVALID,
                        f"{at}/causes/{c}/event_id",
                        f"event {ident!r} (sequence {sequence}) is caused by {target!r}, "
                        "which is not earlier",
                    )
                if target in local_causes:
                    self.add(
                        PlanCode.EVENT_ORDER_INVALID,
                        f"{at}/causes/{c}/event_id",
                        f"cause {target!r} repeats",
                    )
                local_causes.append(target)
            prior = self._supersedes(event, at)
            data = cast(JsonObject, event["data"])
            kind = event["kind"]
            for name in ("parts", "prompt", "answer"):
                if name in data:
                    self.parts(data[name], f"{at}/data/{name}")
            if kind == "tool_call":
                self._call(event, prior, calls, i)
            elif kind == "decision_request":
                request = cast(str, data["request_id"])
                if request in requests or request in self.external_requests:
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/data/request_id",
                        f"decision request {request!r} repeats",
                    )
                requests.add(request)
                self._option_ids(data["options"], at + "/data/options")
            elif kind == "task_update":
                key = (cast(str, data["task_id"]), cast(int, data["revision"]))
                if key in task_revisions:
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/data/revision",
                        f"task {key[0]!r} revision {key[1]} repeats",
                    )
                task_revisions.add(key)
                if "supersedes" in event:
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/supersedes",
                        "task revisions chain by previous_revision, not supersedes",
                    )
                if key[0] in _strs(data.get("dependencies")):
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/data/dependencies",
                        f"task {key[0]!r} depends on itself",
                    )
                previous = data.get("previous_revision")
                if isinstance(previous, int) and previous >= key[1]:
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/data/previous_revision",
                        f"previous_revision {previous} is not before revision {key[1]}",
                    )
            elif kind in _TARGETS:
                field_name, table = _TARGETS[cast(str, kind)]
                self.exists(
                    table, cast(str, data[field_name]), f"{at}/data/{field_name}", field_name
                )
                for name, other in _PREDECESSORS.items():
                    if name in data:
                        self.exists(other, cast(str, data[name]), f"{at}/data/{name}", name)
            elif (
                kind == "extension"
                and data["interpretation_required"] is True
                and data["type"] not in features
            ):
                self.add(
                    PlanCode.UNGATED_EXTENSION,
                    at + "/data/type",
                    f"extension {data['type']!r} requires interpretation but is not a "
                    "required feature",
                )
        self._reference_cycles()
        self._answers(calls, requests, task_revisions)

    def _supersedes(self, event: JsonObject, at: str) -> JsonObject | None:
        ref = event.get("supersedes")
        if not isinstance(ref, dict):
            return None
        target = self.event_ref(ref, at + "/supersedes")
        if target is None:
            return None
        prior = self.events[self.event_index[target]]
        if (
            cast(int, prior["sequence"]) >= cast(int, event["sequence"])
            or prior["kind"] != event["kind"]
        ):
            self.add(
                PlanCode.HISTORY_STATE_INVALID,
                at + "/supersedes/event_id",
                f"{event['kind']} {event['id']!r} supersedes {prior['kind']} {target!r}, which "
                "is not an earlier event of the same kind",
            )
        elif event["kind"] == "decision_resolution":
            old = cast(JsonObject, prior["data"]).get("request_id")
            new = cast(JsonObject, event["data"]).get("request_id")
            if old != new:
                self.add(
                    PlanCode.HISTORY_STATE_INVALID,
                    at + "/data/request_id",
                    f"a correction of the resolution of {old!r} answers {new!r}",
                )
        return prior

    def _call(
        self, event: JsonObject, prior: JsonObject | None, calls: dict[str, int], i: int
    ) -> None:
        at = f"/events/{i}"
        data = cast(JsonObject, event["data"])
        call = cast(str, data["call_id"])
        code = PlanCode.HISTORY_STATE_INVALID
        if call in self.external_calls:
            self.add(code, at + "/data/call_id", f"call {call!r} is also an external binding")
        ref = event.get("supersedes")
        if isinstance(ref, dict):
            if "capture_id" in ref:
                self.add(code, at + "/supersedes", "a call amendment supersedes a local call")
            elif prior is not None:
                before = cast(JsonObject, prior["data"])
                changes = []
                if before.get("call_id") != call or before.get("tool_id") != data["tool_id"]:
                    changes.append("the invocation (call_id, tool_id)")
                if before.get("retry_of") != data.get("retry_of"):
                    changes.append("the retry relationship")
                if prior["actor_id"] != event["actor_id"] or prior.get("execution_id") != event.get(
                    "execution_id"
                ):
                    changes.append("the actor or execution")
                if changes:
                    self.add(
                        code,
                        at + "/supersedes",
                        f"amendment of {prior['id']!r} changes " + ", ".join(changes),
                    )
                if before.get("arguments_status") == "complete":
                    self.add(
                        code, at + "/supersedes", f"call {prior['id']!r} is complete: no amendment"
                    )
                elif (
                    before.get("arguments_status") == "partial"
                    and data["arguments_status"] == "unknown"
                ):
                    self.add(
                        code,
                        at + "/data/arguments_status",
                        "an amendment cannot regress partial arguments to unknown",
                    )
        elif call in calls:
            self.add(code, at + "/data/call_id", f"call {call!r} repeats /events/{calls[call]}")
        if data.get("retry_of") == call:
            self.add(code, at + "/data/retry_of", f"a retry of {call!r} takes a new call ID")
        self.exists("tools", cast(str, data["tool_id"]), at + "/data/tool_id", "tool")
        calls.setdefault(call, i)

    def _option_ids(self, options: JsonValue, where: str) -> None:
        seen: set[str] = set()
        for j, option in enumerate(_objects(options)):
            ident = cast(str, option["id"])
            if ident in seen:
                self.add(PlanCode.DUPLICATE_ID, f"{where}/{j}/id", f"option {ident!r} repeats")
            seen.add(ident)

    def _reference_cycles(self) -> None:
        causes: dict[str, list[str]] = {}
        supersessions: dict[str, list[str]] = {}
        for event in self.events:
            tick()
            ident = cast(str, event["id"])
            causes.setdefault(ident, [])
            supersessions.setdefault(ident, [])
            for cause in _objects(event["causes"]):
                if "capture_id" not in cause and cause["event_id"] in self.event_index:
                    causes[ident].append(cast(str, cause["event_id"]))
            ref = event.get("supersedes")
            if (
                isinstance(ref, dict)
                and "capture_id" not in ref
                and ref["event_id"] in self.event_index
            ):
                supersessions[ident].append(cast(str, ref["event_id"]))
        for label, graph in (("causes", causes), ("supersessions", supersessions)):
            for members in cycles(graph.keys(), graph):
                self.add(
                    PlanCode.REFERENCE_CYCLE,
                    f"/events/{self.event_index[members[0]]}",
                    f"event {label} form a cycle among " + ", ".join(members),
                )

    def _answers(
        self, calls: dict[str, int], requests: set[str], task_revisions: set[tuple[str, int]]
    ) -> None:
        tasks = {task for task, _ in task_revisions}
        gaps_allowed = partial_tasks(self.doc)
        for i, event in enumerate(self.events):
            tick()
            data = cast(JsonObject, event["data"])
            at = f"/events/{i}/data"
            if event["kind"] == "task_update":
                for j, other in enumerate(_strs(data.get("dependencies"))):
                    if other not in tasks:
                        self.add(
                            PlanCode.DANGLING_REFERENCE,
                            f"{at}/dependencies/{j}",
                            f"task {other!r} resolves nowhere",
                        )
                previous = data.get("previous_revision")
                if (
                    isinstance(previous, int)
                    and not gaps_allowed
                    and (data["task_id"], previous) not in task_revisions
                ):
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/previous_revision",
                        f"task {data['task_id']!r} revision {previous} is absent and task "
                        "coverage is not partial",
                    )
            elif event["kind"] == "tool_result":
                call = cast(str, data["call_id"])
                if call not in calls and call not in self.external_calls:
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/call_id",
                        f"result for call {call!r}, which no event or binding declares",
                    )
            elif event["kind"] == "decision_resolution":
                request = cast(str, data["request_id"])
                if request not in requests and request not in self.external_requests:
                    self.add(
                        PlanCode.HISTORY_STATE_INVALID,
                        at + "/request_id",
                        f"resolution of {request!r}, which no event or binding requests",
                    )

    def _branch_history(self) -> None:
        """Each branch's whole history folds without contradiction."""
        partial = partial_tasks(self.doc)
        for branch in _objects(self.doc["branches"]):
            records = []
            for ident in _strs(branch["event_ids"]):
                index = self.event_index.get(ident)
                if index is not None:
                    records.append(event_record(self.events[index], f"/events/{index}"))
            fold_history(
                records,
                self.findings,
                external_calls=self.external_calls,
                external_requests=self.external_requests,
                partial_tasks=partial,
            )

    # -- other collections --------------------------------------------------------------
    def _external_bindings(self) -> None:
        seen: set[tuple[str, str]] = set()
        for i, binding in enumerate(_objects(self.doc.get("external_bindings"))):
            at = f"/external_bindings/{i}"
            key = (cast(str, binding["kind"]), cast(str, binding["id"]))
            if key in seen:
                self.add(PlanCode.DUPLICATE_ID, at + "/id", f"{key[0]} binding {key[1]!r} repeats")
            seen.add(key)
            descriptor = cast(JsonObject, binding["descriptor"])
            if key[0] == "call":
                self.exists(
                    "tools", cast(str, descriptor["tool_id"]), at + "/descriptor/tool_id", "tool"
                )
            else:
                self.parts(descriptor["prompt"], at + "/descriptor/prompt")
                self._option_ids(descriptor["options"], at + "/descriptor/options")

    def _tools(self) -> None:
        patterns = PatternBudget()  # one per document: its regexes cost a bounded time
        for i, tool in enumerate(_objects(self.doc["tools"])):
            tick()
            for name in ("input_schema", "output_schema"):
                if name in tool:
                    problem = json_schema_problem(tool[name], patterns)
                    if problem is not None:
                        self.add(
                            problem.code,
                            f"/tools/{i}/{name}{problem.pointer}",
                            f"tool {tool['id']!r}: {problem.message}",
                        )

    def _configurations(self) -> None:
        for i, config in enumerate(_objects(self.doc["configurations"])):
            tick()
            at = f"/configurations/{i}"
            self.owner = node_of("configuration", cast(str, config["id"]))
            seen: set[str] = set()
            for j, secret in enumerate(_objects(config["secret_requirements"])):
                handle = cast(str, secret["handle"])
                if handle in seen:
                    self.add(
                        PlanCode.DUPLICATE_ID,
                        f"{at}/secret_requirements/{j}/handle",
                        f"secret handle {handle!r} repeats",
                    )
                seen.add(handle)
            for j, instruction in enumerate(_objects(config["instructions"])):
                self.owner = node_of(
                    "instruction", cast(str, instruction["id"]), cast(str, config["id"])
                )
                self.provenance(
                    cast(JsonObject, instruction["provenance"]),
                    f"{at}/instructions/{j}/provenance",
                )
        self.owner = None

    def _executions(self) -> None:
        for i, execution in enumerate(_objects(self.doc["executions"])):
            tick()
            at = f"/executions/{i}"
            self.exists(
                "participants",
                cast(str, execution["participant_id"]),
                at + "/participant_id",
                "participant",
            )
            for j, ctx in enumerate(_strs(execution["context_ids"])):
                self.exists("contexts", ctx, f"{at}/context_ids/{j}", "context")

    def _resources(self) -> None:
        for ident, record in self.resources.records.items():
            tick()
            at = self.resources.pointers[ident]
            self.owner = node_of("resource", ident)
            if record.get("purpose") == "session_memory" and "provenance" not in record:
                self.add(
                    PlanCode.SCHEMA_VIOLATION,
                    at,
                    f"session-memory resource {ident!r} records its provenance",
                )
            if isinstance(record.get("provenance"), dict):
                self.provenance(cast(JsonObject, record["provenance"]), at + "/provenance")
        self.owner = None

    def _losses(self) -> None:
        for i, loss in enumerate(_objects(self.doc["losses"])):
            tick()
            for j, ref in enumerate(_objects(loss.get("references"))):
                table = _LOSS_TYPES.get(cast(str, ref["type"]))
                if table is not None:
                    self.exists(
                        table,
                        cast(str, ref["id"]),
                        f"/losses/{i}/references/{j}/id",
                        cast(str, ref["type"]),
                    )

    def _coverage(self) -> None:
        doc = self.doc
        kinds = {e["kind"] for e in self.events}
        nonempty = {
            "participants": bool(doc["participants"]),
            "branches": bool(doc["branches"]),
            "executions": bool(doc["executions"]),
            "contexts": bool(doc["contexts"]),
            "resources": bool(doc["resources"]),
            "configuration": bool(doc["configurations"]),
            "environment": bool(doc["environments"]),
            "conversation": "message" in kinds,
            "tools": bool(doc["tools"]) or "tool_call" in kinds,
            "decisions": "decision_request" in kinds,
            "tasks": "task_update" in kinds,
            "native": any(r.get("purpose") == "native" for r in self.resources.records.values()),
            "usage": bool(doc.get("usage")),
        }
        for i, item in enumerate(_objects(doc["coverage"])):
            scope = cast(str, item["scope"])
            if item["status"] == "known_empty" and nonempty.get(scope, False):
                self.add(
                    PlanCode.COVERAGE_CONTRADICTION,
                    f"/coverage/{i}/status",
                    f"scope {scope!r} is declared known_empty but the session has records of it",
                )


def _strs(value: JsonValue) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def check_core_events(doc: JsonObject, resources: ResourceBytes, findings: list[Finding]) -> None:
    CoreEvents(doc, resources, findings).run()
