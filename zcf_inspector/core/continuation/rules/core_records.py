"""The look-ups and reference checks every rule family over the ASIF core record shares.

`CoreRecords` indexes one schema-checked session's collections once and answers whether a
reference resolves (a dangling one is a finding about the missing subject when a plan
inventories that kind, else about the record being read: `owner`); provenance and typed
parts are checked here because events, configurations and resources all carry them. The
families build on it: `core_events.py` (events, branches, history) and
`core_collections.py` (participants, bindings, tools, configurations, executions,
resources, losses, coverage).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import ResourceBytes
from zcf_inspector.core.continuation.rules.resource_bytes import decode_json
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

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


def objects(value: JsonValue) -> list[JsonObject]:
    return [cast(JsonObject, v) for v in value] if isinstance(value, list) else []


def _ids(items: Iterable[JsonObject], key: str = "id") -> dict[str, int]:
    """ID → first index (duplicates are reported by the caller where it matters)."""
    out: dict[str, int] = {}
    for i, item in enumerate(items):
        out.setdefault(cast(str, item[key]), i)
    return out


def partial_tasks(doc: JsonObject) -> bool:
    for item in objects(doc.get("coverage")):
        if item.get("scope") == "tasks":
            return item.get("status") == "partial"
    return False


def external_descriptors(doc: JsonObject) -> tuple[dict[str, JsonObject], dict[str, JsonObject]]:
    calls: dict[str, JsonObject] = {}
    requests: dict[str, JsonObject] = {}
    for binding in objects(doc.get("external_bindings")):
        target = calls if binding["kind"] == "call" else requests
        target.setdefault(cast(str, binding["id"]), cast(JsonObject, binding["descriptor"]))
    return calls, requests


class CoreRecords:
    """One schema-checked session's collections by ID, and the references among them."""

    def __init__(self, doc: JsonObject, resources: ResourceBytes, findings: list[Finding]) -> None:
        self.doc = doc
        self.resources = resources
        self.findings = findings
        self.events = objects(doc["events"])
        self.event_index = _ids(self.events)
        self.tables = {
            name: _ids(objects(doc[name]))
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

    def event_ref(self, ref: JsonObject, where: str, what: str = "event") -> str | None:
        """The local event ``ref`` names (None for an external or dangling one)."""
        if "capture_id" in ref:
            return None
        ident = cast(str, ref["event_id"])
        return ident if self.exists("events", ident, where + "/event_id", what) else None

    def parts(self, parts: JsonValue, where: str) -> None:
        for i, part in enumerate(objects(parts)):
            if part.get("kind") in ("resource", "opaque"):
                self.exists(
                    "resources",
                    cast(str, part["resource_id"]),
                    f"{where}/{i}/resource_id",
                    "resource",
                )

    def provenance(self, value: JsonObject, where: str) -> None:
        for i, ref in enumerate(objects(value.get("inputs"))):
            self.event_ref(ref, f"{where}/inputs/{i}")
        for i, source in enumerate(objects(value.get("sources"))):
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

    def _option_ids(self, options: JsonValue, where: str) -> None:
        seen: set[str] = set()
        for j, option in enumerate(objects(options)):
            ident = cast(str, option["id"])
            if ident in seen:
                self.add(PlanCode.DUPLICATE_ID, f"{where}/{j}/id", f"option {ident!r} repeats")
            seen.add(ident)


def strs(value: JsonValue) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
