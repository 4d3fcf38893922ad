"""The ASIF core record a continuation stands on: events, branches and history.

Run over a schema-checked session (so every field the schema requires is present with
its type). Each rule's finding names both sides: what refers and what it found. The
look-ups and reference checks are `core_records.py`'s; the other collections' rules are
`core_collections.py`'s; `check_core_events` runs every family, in the document's order.

- events: unique sequences in document order; actors, executions, causes, provenance
  (event inputs, source resources and their locators) and typed parts resolve; causes are
  earlier and unique; a supersession names an earlier event of the same kind (a decision
  correction keeps its request); call amendments keep the invocation, retries take a new
  call ID; tools, contexts, configurations, executions and resources named by an event
  exist; an extension that requires interpretation is gated by a required feature;
- branches: events resolve, the head is the last event, causes within a branch come first;
- history: each branch folds without contradiction (rules.history); results and
  resolutions answer a call or request of the session or an external binding.
"""

from __future__ import annotations

from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import ResourceBytes
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.core_collections import CollectionRules
from zcf_inspector.core.continuation.rules.core_records import (
    CoreRecords,
    objects,
    partial_tasks,
    strs,
)
from zcf_inspector.core.continuation.rules.history import event_record, fold_history
from zcf_inspector.core.continuation.walks import cycles
from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

_TARGETS = {
    "context_checkpoint": ("context_id", "contexts"),
    "configuration_change": ("configuration_id", "configurations"),
    "execution_transition": ("execution_id", "executions"),
    "resource_change": ("resource_id", "resources"),
}
_PREDECESSORS = {"replaced_context_id": "contexts", "previous_resource_id": "resources"}


class EventRules(CoreRecords):
    """The event, branch and history rules above."""

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
        for b, branch in enumerate(objects(self.doc["branches"])):
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
                for cause in objects(self.events[index]["causes"]):
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
            for c, cause in enumerate(objects(event["causes"])):
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
                if key[0] in strs(data.get("dependencies")):
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

    def _reference_cycles(self) -> None:
        causes: dict[str, list[str]] = {}
        supersessions: dict[str, list[str]] = {}
        for event in self.events:
            tick()
            ident = cast(str, event["id"])
            causes.setdefault(ident, [])
            supersessions.setdefault(ident, [])
            for cause in objects(event["causes"]):
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
                for j, other in enumerate(strs(data.get("dependencies"))):
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
        for branch in objects(self.doc["branches"]):
            records = []
            for ident in strs(branch["event_ids"]):
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


class CoreEvents(EventRules, CollectionRules):
    """Every rule family over one schema-checked session, run in the document's order."""

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


def check_core_events(doc: JsonObject, resources: ResourceBytes, findings: list[Finding]) -> None:
    CoreEvents(doc, resources, findings).run()
