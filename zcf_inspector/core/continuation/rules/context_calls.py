"""The context a plan selects (profile §4 and §9): each tool input agrees with its
source event's kind and call ID and, without a recorded `transformation`, with its
arguments or result; the calls left open in the context are exactly the checkpoint's open
calls, each bound to one selected operation whose call is in the context."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.json_values import json_key, short_json
from zcf_inspector.core.continuation.rules.core_records import objects
from zcf_inspector.core.continuation.rules.session_history import ContextCalls, SessionHistory
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

_CALL_FIELDS = ("tool_id", "arguments", "arguments_status")
_RESULT_FIELDS = ("parts", "result_index", "terminal", "outcome")


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
    for j, item in enumerate(objects(ctx["inputs"])):
        kind = item["kind"]
        if kind not in ("tool_call", "tool_result"):
            continue
        call = cast(str, item["call_id"])
        if kind == "tool_call":
            calls.add(call)
        elif item["terminal"] is True:
            terminal.add(call)
        for k, source in enumerate(objects(item["source_events"])):
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
