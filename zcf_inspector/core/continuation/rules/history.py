"""Folding a run of selected history into its state: calls, results, decisions, tasks.

One fold serves three readers: a branch's whole history, a checkpoint's prefix of it
(what is open at the boundary) and the typed tool inputs of a context (whose calls and
results must correlate the same way). Each record is a raw, schema-checked event, or a
context input restated as one, with the pointer where it sits.

The rules (ASIF core, §4 of the profile for contexts): a call amendment supersedes the
selected version of the same call; a result follows its call, result indexes increase
and a terminal result closes the call; a decision request is unique and a resolution
answers an open request once, with one of its options; task revisions chain through
`previous_revision` without reopening a finished task silently or forming a dependency
cycle; a finished execution is not reopened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

TERMINAL_TASKS = frozenset({"completed", "failed", "cancelled", "superseded"})
OPEN_TASKS = frozenset({"proposed", "pending", "in_progress"})
TERMINAL_EXECUTIONS = frozenset({"completed", "failed", "cancelled", "interrupted"})
# Each task update walks the dependencies it can reach to find a cycle; a hostile history
# could make that quadratic. Past this many steps in one fold the walk stops and the
# history is refused as too large to check (no real session comes near it).
MAX_TASK_WALK = 2_000_000


@dataclass(frozen=True, slots=True)
class Record:
    """One event of a fold: its ID, kind, data, supersession (if any) and pointers."""

    id: str
    kind: str
    data: JsonObject
    supersedes: JsonObject | None
    pointer: str  # the record
    data_pointer: str  # where its call/result/decision fields sit


@dataclass(slots=True)
class HistoryState:
    calls: dict[str, JsonObject] = field(default_factory=dict)
    closed_calls: dict[str, str] = field(default_factory=dict)
    requests: dict[str, JsonObject] = field(default_factory=dict)
    decisions: dict[str, JsonObject] = field(default_factory=dict)
    tasks: dict[str, JsonObject] = field(default_factory=dict)
    executions: dict[str, str] = field(default_factory=dict)

    def open_calls(self) -> set[str]:
        return set(self.calls) - set(self.closed_calls)

    def open_requests(self) -> set[str]:
        return set(self.requests) - set(self.decisions)


def event_record(event: JsonObject, where: str) -> Record:
    supersedes = event.get("supersedes")
    return Record(
        id=cast(str, event["id"]),
        kind=cast(str, event["kind"]),
        data=cast(JsonObject, event["data"]),
        supersedes=supersedes if isinstance(supersedes, dict) else None,
        pointer=where,
        data_pointer=where + "/data",
    )


def _local_target(record: Record) -> str | None:
    """The local event a record supersedes (None when none, or one in another capture)."""
    if record.supersedes is None or "capture_id" in record.supersedes:
        return None
    return cast(str, record.supersedes["event_id"])


class _Fold:
    def __init__(
        self,
        code: PlanCode,
        findings: list[Finding],
        external_calls: dict[str, JsonObject],
        external_requests: dict[str, JsonObject],
        partial_tasks: bool,
    ) -> None:
        self.code = code
        self.findings = findings
        self.partial_tasks = partial_tasks
        self.state = HistoryState(calls=dict(external_calls), requests=dict(external_requests))
        self.call_events: dict[str, str] = {}
        self.indexes: dict[str, int] = {}
        self.walked = 0
        self.walk_exhausted = False

    def bad(self, where: str, message: str) -> None:
        self.findings.append(error(self.code, where, message))

    def run(
        self,
        records: list[Record],
        stops: dict[int, Callable[[HistoryState], None]] | None = None,
    ) -> HistoryState:
        superseded = {t for t in (_local_target(r) for r in records) if t is not None}
        for i, record in enumerate(records):
            # Call amendments fold in place: dropping the superseded call could orphan a
            # result or decision recorded before the amendment was captured.
            if record.kind == "tool_call" or record.id not in superseded:
                handler = getattr(self, "_" + record.kind, None)
                if handler is not None:
                    handler(record)
            if stops is not None and i in stops:
                stops[i](self.state)
        return self.state

    def _tool_call(self, r: Record) -> None:
        call = cast(str, r.data["call_id"])
        if call in self.state.calls:
            prior = self.call_events.get(call)
            if prior is None or _local_target(r) != prior or r.supersedes is None:
                self.bad(
                    r.data_pointer + "/call_id",
                    f"call {call!r} is already selected"
                    + (f" (by {prior!r})" if prior else " (an external binding)")
                    + " and this one does not supersede it",
                )
        self.state.calls[call] = r.data
        self.call_events[call] = r.id

    def _tool_result(self, r: Record) -> None:
        call = cast(str, r.data["call_id"])
        index = cast(int, r.data["result_index"])
        if call not in self.state.calls:
            self.bad(r.data_pointer + "/call_id", f"result for call {call!r}, which has no call")
            return
        if call in self.state.closed_calls:
            self.bad(
                r.data_pointer + "/call_id",
                f"result for call {call!r} after its terminal result",
            )
            return
        last = self.indexes.get(call, -1)
        if index <= last:
            self.bad(
                r.data_pointer + "/result_index",
                f"result_index {index} of call {call!r} does not follow {last}",
            )
        self.indexes[call] = index
        if r.data["terminal"] is True:
            self.state.closed_calls[call] = cast(str, r.data["outcome"])

    def _decision_request(self, r: Record) -> None:
        request = cast(str, r.data["request_id"])
        if request in self.state.requests:
            self.bad(r.data_pointer + "/request_id", f"decision request {request!r} repeats")
        self.state.requests[request] = r.data
        call = r.data.get("call_id")
        if isinstance(call, str) and call not in self.state.calls:
            self.bad(r.data_pointer + "/call_id", f"decision request for call {call!r}, no call")
        task = r.data.get("task_id")
        if isinstance(task, str):
            known = self.state.tasks.get(task)
            revision = r.data.get("task_revision")
            if known is None or known["revision"] != revision:
                self.bad(
                    r.data_pointer + "/task_revision",
                    f"decision request for task {task!r} revision {revision!r}, which is not "
                    "the task's selected revision",
                )

    def _decision_resolution(self, r: Record) -> None:
        request = cast(str, r.data["request_id"])
        asked = self.state.requests.get(request)
        if asked is None:
            self.bad(r.data_pointer + "/request_id", f"resolution of {request!r}, never requested")
            return
        if request in self.state.decisions:
            self.bad(r.data_pointer + "/request_id", f"decision {request!r} is resolved twice")
            return
        option = r.data.get("selected_option_id")
        options = asked.get("options")
        ids = (
            {o.get("id") for o in options if isinstance(o, dict)}
            if isinstance(options, list)
            else set()
        )
        if "selected_option_id" in r.data and option not in ids:
            self.bad(
                r.data_pointer + "/selected_option_id",
                f"option {option!r} is not an option of request {request!r}",
            )
        self.state.decisions[request] = r.data

    def _task_update(self, r: Record) -> None:
        data = r.data
        task = cast(str, data["task_id"])
        revision = cast(int, data["revision"])
        previous = data.get("previous_revision")
        prior = self.state.tasks.get(task)
        if r.supersedes is not None:
            self.bad(r.pointer + "/supersedes", "task revisions chain by previous_revision")
        if isinstance(previous, int) and previous >= revision:
            self.bad(
                r.data_pointer + "/previous_revision",
                f"previous_revision {previous} is not before revision {revision}",
            )
        if prior is not None:
            if previous != prior["revision"] or revision <= cast(int, prior["revision"]):
                self.bad(
                    r.data_pointer + "/revision",
                    f"task {task!r} revision {revision} (previous {previous!r}) does not follow "
                    f"its selected revision {prior['revision']}",
                )
            if (
                prior.get("status") in TERMINAL_TASKS
                and data.get("status") in OPEN_TASKS
                and not data.get("reopen_reason")
            ):
                self.bad(r.data_pointer + "/status", f"task {task!r} is reopened without a reason")
        elif previous is not None and not self.partial_tasks:
            self.bad(
                r.data_pointer + "/previous_revision",
                f"task {task!r} names revision {previous} that is not in the selected history "
                "(task coverage is not partial)",
            )
        self.state.tasks[task] = data
        # Only this task's changed edges can close a cycle; an unknown task is a leaf.
        pending = [] if self.walk_exhausted else list(_strings(data.get("dependencies")))
        seen: set[str] = set()
        while pending:
            other = pending.pop()
            if other == task:
                self.bad(r.data_pointer + "/dependencies", f"task {task!r} depends on itself")
                break
            if other not in seen:
                seen.add(other)
                self.walked += 1
                if self.walked > MAX_TASK_WALK:
                    self.bad(
                        r.data_pointer + "/dependencies",
                        f"task dependencies are too large to check for cycles within "
                        f"{MAX_TASK_WALK:,} steps",
                    )
                    self.walk_exhausted = True  # reported once; no further walks
                    break
                pending.extend(_strings(self.state.tasks.get(other, {}).get("dependencies")))

    def _execution_transition(self, r: Record) -> None:
        execution = cast(str, r.data["execution_id"])
        old = self.state.executions.get(execution)
        if old in TERMINAL_EXECUTIONS:
            self.bad(r.data_pointer + "/status", f"execution {execution!r} was already {old}")
        self.state.executions[execution] = cast(str, r.data["status"])


def _strings(value: JsonValue) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def fold_history(
    records: list[Record],
    findings: list[Finding],
    *,
    code: PlanCode = PlanCode.HISTORY_STATE_INVALID,
    external_calls: dict[str, JsonObject] | None = None,
    external_requests: dict[str, JsonObject] | None = None,
    partial_tasks: bool = False,
    stops: dict[int, Callable[[HistoryState], None]] | None = None,
) -> HistoryState:
    """The state after ``records``; each contradiction is a finding with ``code``.

    ``stops`` maps a record index to a callback that sees the state right after that
    record (the state of that prefix, when no record of the prefix is superseded later).
    """
    fold = _Fold(code, findings, external_calls or {}, external_requests or {}, partial_tasks)
    return fold.run(records, stops)
