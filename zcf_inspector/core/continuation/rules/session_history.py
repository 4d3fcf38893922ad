"""Look-ups over one schema-checked session's history, shared by the context and
checkpoint rules (`contexts.py`) and the per-plan context rules (`context_calls.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from zcf_inspector.core.continuation.rules.core_records import (
    external_descriptors,
    objects,
    partial_tasks,
)
from zcf_inspector.core.continuation.rules.history import HistoryState, event_record, fold_history
from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonObject, JsonValue


def _first_index(items: list[JsonObject]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, item in enumerate(items):
        out.setdefault(cast(str, item["id"]), i)
    return out


class SessionHistory:
    """Look-ups over one schema-checked session shared by the context and checkpoint rules."""

    def __init__(self, doc: JsonObject) -> None:
        self.doc = doc
        self.events = objects(doc["events"])
        self.event_index = _first_index(self.events)
        self.branches = objects(doc["branches"])
        self.branch_index = _first_index(self.branches)
        self.contexts = objects(doc["contexts"])
        self.context_index = _first_index(self.contexts)
        self.tools = _first_index(objects(doc["tools"]))
        self.configurations = _first_index(objects(doc["configurations"]))
        self.external_calls, self.external_requests = external_descriptors(doc)
        self.partial_tasks = partial_tasks(doc)
        self.coverage = {
            cast(str, c["scope"]): cast(str, c["status"]) for c in objects(doc["coverage"])
        }
        self.context_calls: dict[str, ContextCalls] = {}
        self._branch_events: dict[str, list[str]] = {}
        self._branch_sets: dict[str, frozenset[str]] = {}

    def sequence(self, event_id: str) -> int | None:
        index = self.event_index.get(event_id)
        return None if index is None else cast(int, self.events[index]["sequence"])

    def branch_events(self, branch_id: str) -> list[str] | None:
        """The branch's event IDs (one list per branch, built once: do not change it)."""
        found = self._branch_events.get(branch_id)
        if found is not None:
            return found
        index = self.branch_index.get(branch_id)
        if index is None:
            return None
        found = [cast(str, e) for e in cast(list[JsonValue], self.branches[index]["event_ids"])]
        self._branch_events[branch_id] = found
        self._branch_sets[branch_id] = frozenset(found)
        return found

    def in_branch(self, branch_id: str, event_id: object) -> bool:
        if self.branch_events(branch_id) is None:
            return False
        return event_id in self._branch_sets[branch_id]

    def prefix_state(
        self, branch_id: str, at_event: str | None, findings: list[Finding]
    ) -> HistoryState:
        ids = self.branch_events(branch_id) or []
        ids = ids[: ids.index(at_event) + 1] if at_event in ids else []
        records = [
            event_record(self.events[self.event_index[i]], f"/events/{self.event_index[i]}")
            for i in ids
            if i in self.event_index
        ]
        return fold_history(
            records,
            findings,
            external_calls=self.external_calls,
            external_requests=self.external_requests,
            partial_tasks=self.partial_tasks,
        )


@dataclass(frozen=True, slots=True)
class ContextCalls:
    """A context's tool calls and the calls its terminal results close."""

    calls: frozenset[str]
    terminal: frozenset[str]
    findings: tuple[Finding, ...]  # §4 correlation of its tool inputs with their sources
