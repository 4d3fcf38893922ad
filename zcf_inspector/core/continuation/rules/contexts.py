"""Contexts and checkpoints against the history they stand at (ASIF core, profile §3 and §4).

Every context: its boundary is an event of its branch; no input uses an event after that
boundary (a stale context); a tool call input names a known tool; its typed tool inputs
fold like history (a result follows its call, indexes increase, a terminal result closes
the call, a call ID is not selected twice).

Every checkpoint: its boundary is an event of its branch; its context is on the same
branch and not newer; what it lists as open (calls, decisions, task revisions) is open at
that point of the branch; with complete tool/decision coverage (and known checkpoint
knowledge) it lists every open call and decision; each branch has exactly one checkpoint
at its head.

For the context a plan selects (`check_plan_context`): each tool input agrees with its
source event's kind and call ID and, without a recorded `transformation`, with its
arguments or result; the calls left open in the context are exactly the checkpoint's
open calls, each bound to one selected operation whose call is in the context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.schema_check import json_key, short_json
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.core_events import (
    external_descriptors,
    partial_tasks,
)
from zcf_inspector.core.continuation.rules.history import (
    HistoryState,
    Record,
    event_record,
    fold_history,
)
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

_CALL_FIELDS = ("tool_id", "arguments", "arguments_status")
_RESULT_FIELDS = ("parts", "result_index", "terminal", "outcome")


def _objects(value: JsonValue) -> list[JsonObject]:
    return [cast(JsonObject, v) for v in value] if isinstance(value, list) else []


def _first_index(items: list[JsonObject]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, item in enumerate(items):
        out.setdefault(cast(str, item["id"]), i)
    return out


class SessionHistory:
    """Look-ups over one schema-checked session shared by the context and checkpoint rules."""

    def __init__(self, doc: JsonObject) -> None:
        self.doc = doc
        self.events = _objects(doc["events"])
        self.event_index = _first_index(self.events)
        self.branches = _objects(doc["branches"])
        self.branch_index = _first_index(self.branches)
        self.contexts = _objects(doc["contexts"])
        self.context_index = _first_index(self.contexts)
        self.tools = _first_index(_objects(doc["tools"]))
        self.configurations = _first_index(_objects(doc["configurations"]))
        self.external_calls, self.external_requests = external_descriptors(doc)
        self.partial_tasks = partial_tasks(doc)
        self.coverage = {
            cast(str, c["scope"]): cast(str, c["status"]) for c in _objects(doc["coverage"])
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


def _typed_inputs(ctx: JsonObject, where: str) -> list[Record]:
    out = []
    for j, item in enumerate(_objects(ctx["inputs"])):
        if item["kind"] in ("tool_call", "tool_result"):
            # A context input carries its call or result fields at its own top level.
            out.append(
                Record(
                    cast(str, item["id"]),
                    cast(str, item["kind"]),
                    item,
                    None,
                    f"{where}/inputs/{j}",
                    f"{where}/inputs/{j}",
                )
            )
    return out


def check_contexts(history: SessionHistory, findings: list[Finding]) -> None:
    """Each context against its history; every finding is about that context's subject."""
    for i, ctx in enumerate(history.contexts):
        tick()
        found: list[Finding] = []
        _check_context(history, ctx, f"/contexts/{i}", found)
        subject = node_of("context", cast(str, ctx["id"]))
        findings.extend(replace(f, subject=subject) for f in found)


def _check_context(
    history: SessionHistory, ctx: JsonObject, at: str, findings: list[Finding]
) -> None:
    events = history.branch_events(cast(str, ctx["branch_id"]))
    boundary = ctx["at_event_id"]
    bound: int | None = None
    if isinstance(boundary, str):
        if events is not None and not history.in_branch(cast(str, ctx["branch_id"]), boundary):
            findings.append(
                error(
                    PlanCode.BOUNDARY_INVALID,
                    at + "/at_event_id",
                    f"context {ctx['id']!r} stands at {boundary!r}, which is not an event "
                    f"of branch {ctx['branch_id']!r}",
                )
            )
        bound = history.sequence(boundary)
    for j, item in enumerate(_objects(ctx["inputs"])):
        tick()
        for k, source in enumerate(_objects(item["source_events"])):
            if "capture_id" in source or bound is None:
                continue
            used = history.sequence(cast(str, source["event_id"]))
            if used is not None and used > bound:
                findings.append(
                    error(
                        PlanCode.STALE_CONTEXT,
                        f"{at}/inputs/{j}/source_events/{k}/event_id",
                        f"input {item['id']!r} uses event {source['event_id']!r} (sequence "
                        f"{used}), after the context boundary {boundary!r} (sequence {bound})",
                    )
                )
        if item["kind"] == "tool_call" and item["tool_id"] not in history.tools:
            findings.append(
                error(
                    PlanCode.DANGLING_REFERENCE,
                    f"{at}/inputs/{j}/tool_id",
                    f"tool {item['tool_id']!r} of call input {item['id']!r} resolves nowhere",
                )
            )
    fold_history(_typed_inputs(ctx, at), findings, code=PlanCode.CONTEXT_TOOL_CORRELATION)


# Checkpoints over a history with corrections need one fold each (below); past this many
# folded events in all, the rest are refused as too large to check.
MAX_PREFIX_WORK = 2_000_000


def check_checkpoints(history: SessionHistory, findings: list[Finding]) -> None:
    heads: dict[str, list[str]] = {cast(str, b["id"]): [] for b in history.branches}
    # branch → (boundary event or None, checkpoint, pointer) of each checkpoint on it
    stands: dict[str, list[tuple[str | None, JsonObject, str]]] = {}
    for i, cp in enumerate(_objects(history.doc["checkpoints"])):
        at = f"/checkpoints/{i}"
        branch_id = cast(str, cp["branch_id"])
        events = history.branch_events(branch_id)
        if events is None:
            continue  # reported as a dangling reference
        boundary = cp["at_event_id"]
        if not (boundary is None and not events) and not history.in_branch(branch_id, boundary):
            findings.append(
                error(
                    PlanCode.BOUNDARY_INVALID,
                    at + "/at_event_id",
                    f"checkpoint {cp['id']!r} stands at {boundary!r}, which is not "
                    + (
                        f"an event of branch {branch_id!r}" if events else "the empty branch's null"
                    ),
                )
            )
        head = history.branches[history.branch_index[branch_id]]["head_event_id"]
        if boundary == head:
            heads[branch_id].append(cast(str, cp["id"]))
        _checkpoint_context(
            history,
            cp,
            at,
            branch_id=branch_id,
            boundary=cast("str | None", boundary),
            findings=findings,
        )
        where = (
            boundary
            if isinstance(boundary, str) and history.in_branch(branch_id, boundary)
            else None
        )
        stands.setdefault(branch_id, []).append((where, cp, at))
    for branch_id, listed in stands.items():
        _open_at_boundaries(history, branch_id, listed, findings)
    for branch_id, found in heads.items():
        if len(found) != 1:
            where = f"/branches/{history.branch_index[branch_id]}/head_event_id"
            findings.append(
                error(
                    PlanCode.CHECKPOINT_NOT_HEAD,
                    where,
                    f"branch {branch_id!r} has {len(found)} checkpoints at its head "
                    f"({', '.join(found) or 'none'}); exactly one is required",
                )
            )


def _checkpoint_context(
    history: SessionHistory,
    cp: JsonObject,
    at: str,
    *,
    branch_id: str,
    boundary: str | None,
    findings: list[Finding],
) -> None:
    ctx_id = cp["context_id"]
    if not isinstance(ctx_id, str) or ctx_id not in history.context_index:
        return
    ctx = history.contexts[history.context_index[ctx_id]]
    if ctx["branch_id"] != branch_id:
        findings.append(
            error(
                PlanCode.BOUNDARY_INVALID,
                at + "/context_id",
                f"checkpoint {cp['id']!r} on branch {branch_id!r} names context "
                f"{ctx_id!r} of branch {ctx['branch_id']!r}",
            )
        )
    ctx_at = ctx["at_event_id"]
    if isinstance(ctx_at, str):
        newer = boundary is None
        if boundary is not None:
            a, b = history.sequence(ctx_at), history.sequence(boundary)
            newer = a is not None and b is not None and a > b
        if newer:
            findings.append(
                error(
                    PlanCode.BOUNDARY_INVALID,
                    at + "/context_id",
                    f"context {ctx_id!r} stands at {ctx_at!r}, after checkpoint "
                    f"{cp['id']!r}'s boundary {boundary!r}",
                )
            )


def _open_at_boundaries(
    history: SessionHistory,
    branch_id: str,
    listed: list[tuple[str | None, JsonObject, str]],
    findings: list[Finding],
) -> None:
    """What each checkpoint lists as open, against the history through its boundary.

    Without a correction (a superseding event) of anything but a call, the state of every
    prefix is met on one fold of the branch. With corrections, a prefix may select an
    event a later correction drops, so each checkpoint gets its own fold (bounded).
    The branch's own fold has already reported what the prefixes share with it.
    """
    records = [
        event_record(history.events[history.event_index[e]], f"/events/{history.event_index[e]}")
        for e in history.branch_events(branch_id) or []
        if e in history.event_index
    ]
    position = {r.id: i for i, r in enumerate(records)}
    known = set(findings)
    prefix: list[Finding] = []

    def fold(
        upto: list[Record], stops: dict[int, Callable[[HistoryState], None]] | None
    ) -> HistoryState:
        return fold_history(
            upto,
            prefix,
            external_calls=history.external_calls,
            external_requests=history.external_requests,
            partial_tasks=history.partial_tasks,
            stops=stops,
        )

    kinds = {r.id: r.kind for r in records}
    corrected = any(
        r.supersedes is not None
        and "capture_id" not in r.supersedes
        and kinds.get(cast(str, r.supersedes["event_id"]), "tool_call") != "tool_call"
        for r in records
    )
    empty = fold([], None)
    waiting: dict[int, list[tuple[JsonObject, str]]] = {}
    for boundary, cp, at in listed:
        if boundary is None or boundary not in position:
            _open_items(history, cp, at, empty, findings)
        else:
            waiting.setdefault(position[boundary], []).append((cp, at))
    if not corrected:

        def check_group(group: list[tuple[JsonObject, str]]) -> Callable[[HistoryState], None]:
            def check(state: HistoryState) -> None:
                for cp, at in group:
                    _open_items(history, cp, at, state, findings)

            return check

        stops = {index: check_group(group) for index, group in waiting.items()}
        fold(records, stops)
    else:
        work = 0
        for index, group in sorted(waiting.items()):
            work += index + 1
            if work > MAX_PREFIX_WORK:
                for _, at in group:
                    findings.append(
                        error(
                            PlanCode.HISTORY_STATE_INVALID,
                            at,
                            f"too many checkpoints over a corrected history to check within "
                            f"{MAX_PREFIX_WORK:,} folded events",
                        )
                    )
                continue
            state = fold(records[: index + 1], None)
            for cp, at in group:
                _open_items(history, cp, at, state, findings)
    findings.extend(f for f in dict.fromkeys(prefix) if f not in known)


def _open_items(
    history: SessionHistory, cp: JsonObject, at: str, state: HistoryState, findings: list[Finding]
) -> None:
    code = PlanCode.HISTORY_STATE_INVALID
    listed_calls: list[str] = []
    for j, call in enumerate(_objects(cp["open_calls"])):
        ident = cast(str, call["call_id"])
        if ident in listed_calls:
            findings.append(
                error(
                    PlanCode.DUPLICATE_ID,
                    f"{at}/open_calls/{j}/call_id",
                    f"open call {ident!r} repeats",
                )
            )
        listed_calls.append(ident)
        if ident not in state.calls or ident in state.closed_calls:
            findings.append(
                error(
                    code,
                    f"{at}/open_calls/{j}/call_id",
                    f"checkpoint {cp['id']!r} lists call {ident!r} as open; at its boundary it "
                    + ("has no call" if ident not in state.calls else "has a terminal result"),
                )
            )
    listed_requests: list[str] = []
    for j, decision in enumerate(_objects(cp["open_decisions"])):
        ident = cast(str, decision["request_id"])
        if ident in listed_requests:
            findings.append(
                error(
                    PlanCode.DUPLICATE_ID,
                    f"{at}/open_decisions/{j}/request_id",
                    f"open decision {ident!r} repeats",
                )
            )
        listed_requests.append(ident)
        if ident not in state.requests or ident in state.decisions:
            findings.append(
                error(
                    code,
                    f"{at}/open_decisions/{j}/request_id",
                    f"checkpoint {cp['id']!r} lists decision {ident!r} as open; at its "
                    "boundary it "
                    + ("was never requested" if ident not in state.requests else "is resolved"),
                )
            )
    seen_tasks: set[str] = set()
    for j, task in enumerate(_objects(cp["tasks"])):
        ident = cast(str, task["task_id"])
        if ident in seen_tasks:
            findings.append(
                error(PlanCode.DUPLICATE_ID, f"{at}/tasks/{j}/task_id", f"task {ident!r} repeats")
            )
        seen_tasks.add(ident)
        known = state.tasks.get(ident)
        if known is None or task["revision"] != known["revision"]:
            findings.append(
                error(
                    code,
                    f"{at}/tasks/{j}/revision",
                    f"checkpoint {cp['id']!r} lists task {ident!r} revision {task['revision']!r}; "
                    "at its boundary the task "
                    + ("is unknown" if known is None else f"is at revision {known['revision']}"),
                )
            )
    if cp["knowledge"] == "unknown":
        return
    if history.coverage.get("tools") == "complete" and set(listed_calls) != state.open_calls():
        findings.append(
            error(
                code,
                at + "/open_calls",
                f"with complete tool coverage the open calls are {sorted(state.open_calls())}; "
                f"checkpoint {cp['id']!r} lists {sorted(set(listed_calls))}",
            )
        )
    if (
        history.coverage.get("decisions") == "complete"
        and set(listed_requests) != state.open_requests()
    ):
        findings.append(
            error(
                code,
                at + "/open_decisions",
                f"with complete decision coverage the open decisions are "
                f"{sorted(state.open_requests())}; checkpoint {cp['id']!r} lists "
                f"{sorted(set(listed_requests))}",
            )
        )


@dataclass(frozen=True, slots=True)
class ContextCalls:
    """A context's tool calls and the calls its terminal results close."""

    calls: frozenset[str]
    terminal: frozenset[str]
    findings: tuple[Finding, ...]  # §4 correlation of its tool inputs with their sources


def context_calls(history: SessionHistory, context_id: str) -> ContextCalls | None:
    """Computed once per context, however many plans select it."""
    cached = history.context_calls.get(context_id)
    if cached is not None:
        return cached
    index = history.context_index.get(context_id)
    if index is None:
        return None
    found = _correlate(history, history.contexts[index], f"/contexts/{index}", context_id)
    history.context_calls[context_id] = found
    return found


def _correlate(
    history: SessionHistory, ctx: JsonObject, base: str, context_id: str
) -> ContextCalls:
    findings: list[Finding] = []
    calls: set[str] = set()
    terminal: set[str] = set()
    for j, item in enumerate(_objects(ctx["inputs"])):
        kind = item["kind"]
        if kind not in ("tool_call", "tool_result"):
            continue
        call = cast(str, item["call_id"])
        if kind == "tool_call":
            calls.add(call)
        elif item["terminal"] is True:
            terminal.add(call)
        for k, source in enumerate(_objects(item["source_events"])):
            if "capture_id" in source:
                continue
            event_index = history.event_index.get(cast(str, source["event_id"]))
            if event_index is None:
                continue
            event = history.events[event_index]
            data = cast(JsonObject, event["data"])
            at = f"{base}/inputs/{j}"
            if event["kind"] != kind or data.get("call_id") != call:
                findings.append(
                    error(
                        PlanCode.CONTEXT_TOOL_CORRELATION,
                        f"{at}/source_events/{k}/event_id",
                        f"{kind} input {item['id']!r} (call {call!r}) comes from {event['kind']} "
                        f"{event['id']!r}"
                        + (f" of call {data['call_id']!r}" if "call_id" in data else ""),
                    )
                )
                continue
            if "transformation" in item:
                continue
            for name in _CALL_FIELDS if kind == "tool_call" else _RESULT_FIELDS:
                if json_key(item.get(name)) != json_key(data.get(name)):
                    findings.append(
                        error(
                            PlanCode.UNREPORTED_TRANSFORMATION,
                            f"{at}/{name}",
                            f"input {item['id']!r} has {name} {_short(item.get(name))}, its source "
                            f"event {event['id']!r} {_short(data.get(name))}, and no "
                            "transformation is recorded",
                        )
                    )
    subject = node_of("context", context_id)  # what every correlation finding is about
    return ContextCalls(
        frozenset(calls), frozenset(terminal), tuple(replace(f, subject=subject) for f in findings)
    )


def check_open_calls(
    found: ContextCalls,
    context_id: str,
    open_calls: list[str],
    bound_calls: dict[str, str],
    where: str,
) -> list[Finding]:
    """§9: the calls the plan's context leaves open are the checkpoint's open calls, and
    each selected operation's call is in the context.

    ``open_calls`` are the checkpoint's open call IDs; ``bound_calls`` maps the call ID of
    each selected operation to that operation's ID.
    """
    findings: list[Finding] = []
    still_open = found.calls - found.terminal
    if set(open_calls) != still_open:
        findings.append(
            error(
                PlanCode.OPEN_CALL_STATE_MISMATCH,
                where + "/context_id",
                f"context {context_id!r} leaves calls {sorted(still_open)} open; the checkpoint "
                f"lists {sorted(set(open_calls))}",
                node_of("context", context_id),
            )
        )
    for call, operation in bound_calls.items():
        if call not in found.calls:
            findings.append(
                error(
                    PlanCode.OPEN_CALL_STATE_MISMATCH,
                    where + "/operation_ids",
                    f"operation {operation!r} is bound to call {call!r}, which is not in "
                    f"context {context_id!r}",
                    node_of("operation", operation),
                )
            )
    return findings


def _short(value: JsonValue) -> str:
    # As JSON, so that exact numbers read as written (not Decimal('…')) and true as true.
    return short_json(value)
