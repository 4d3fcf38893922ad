"""The ASIF core record's collections other than events (one rule family of
`core_events.check_core_events`): participants' parents resolve and form no cycle; IDs of
executions and losses are unique; external bindings, tools' schemas, configurations'
secrets and instruction provenance, executions, session-memory provenance, loss
references and known-empty coverage hold.
"""

from __future__ import annotations

from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.core_records import CoreRecords, objects, strs
from zcf_inspector.core.continuation.rules.tool_schemas import json_schema_problem
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.continuation.walks import cycles
from zcf_inspector.core.jsontypes import JsonObject
from zcf_inspector.core.regex_budget import PatternBudget

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


class CollectionRules(CoreRecords):
    """The rules above (`CoreEvents.run` calls them in the document's order)."""

    # -- identity ----------------------------------------------------------------------
    def _unique(self) -> None:
        for name in ("executions", "losses"):
            seen: set[str] = set()
            for i, item in enumerate(objects(self.doc[name])):
                ident = cast(str, item["id"])
                if ident in seen:
                    self.add(PlanCode.DUPLICATE_ID, f"/{name}/{i}/id", f"id {ident!r} repeats")
                seen.add(ident)

    def _participants(self) -> None:
        parents: dict[str, list[str]] = {}
        for i, person in enumerate(objects(self.doc["participants"])):
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

    # -- other collections --------------------------------------------------------------
    def _external_bindings(self) -> None:
        seen: set[tuple[str, str]] = set()
        for i, binding in enumerate(objects(self.doc.get("external_bindings"))):
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
        for i, tool in enumerate(objects(self.doc["tools"])):
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
        for i, config in enumerate(objects(self.doc["configurations"])):
            tick()
            at = f"/configurations/{i}"
            self.owner = node_of("configuration", cast(str, config["id"]))
            seen: set[str] = set()
            for j, secret in enumerate(objects(config["secret_requirements"])):
                handle = cast(str, secret["handle"])
                if handle in seen:
                    self.add(
                        PlanCode.DUPLICATE_ID,
                        f"{at}/secret_requirements/{j}/handle",
                        f"secret handle {handle!r} repeats",
                    )
                seen.add(handle)
            for j, instruction in enumerate(objects(config["instructions"])):
                self.owner = node_of(
                    "instruction", cast(str, instruction["id"]), cast(str, config["id"])
                )
                self.provenance(
                    cast(JsonObject, instruction["provenance"]),
                    f"{at}/instructions/{j}/provenance",
                )
        self.owner = None

    def _executions(self) -> None:
        for i, execution in enumerate(objects(self.doc["executions"])):
            tick()
            at = f"/executions/{i}"
            self.exists(
                "participants",
                cast(str, execution["participant_id"]),
                at + "/participant_id",
                "participant",
            )
            for j, ctx in enumerate(strs(execution["context_ids"])):
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
        for i, loss in enumerate(objects(self.doc["losses"])):
            tick()
            for j, ref in enumerate(objects(loss.get("references"))):
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
        for i, item in enumerate(objects(doc["coverage"])):
            scope = cast(str, item["scope"])
            if item["status"] == "known_empty" and nonempty.get(scope, False):
                self.add(
                    PlanCode.COVERAGE_CONTRADICTION,
                    f"/coverage/{i}/status",
                    f"scope {scope!r} is declared known_empty but the session has records of it",
                )
