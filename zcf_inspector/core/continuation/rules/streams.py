"""Streams (`asif.streams/0.1`): segments that assemble a call's arguments or a result's text.

A stream names its event and call; its segments have unique increasing indexes, at most
one terminal segment and only as the last one; each segment is a span of an inline
resource. The contiguous run from index 0 assembles the content; the stream is complete
exactly when that run covers every segment and ends with the terminal one. A complete
arguments stream decodes to the call's arguments (whose status is complete); a complete
result stream is the UTF-8 text of the result's single text part; a partial arguments
stream belongs to a call whose arguments are partial, never to an executable one.
Nothing is fetched or executed.
"""

from __future__ import annotations

from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import ResourceBytes
from zcf_inspector.core.continuation.models.json_values import json_key
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.resource_bytes import MAX_RESOURCE, decode_json
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject, JsonValue


def _objects(value: JsonValue) -> list[JsonObject]:
    return [cast(JsonObject, v) for v in value] if isinstance(value, list) else []


def check_streams(doc: JsonObject, resources: ResourceBytes, findings: list[Finding]) -> None:
    events = {cast(str, e["id"]): e for e in reversed(_objects(doc["events"]))}
    seen: set[str] = set()
    for i, stream in enumerate(_objects(doc.get("streams"))):
        tick()
        at = f"/streams/{i}"
        problem = _stream(stream, at, events, resources, seen)
        if problem is not None:
            where, message = problem
            code = (
                PlanCode.DANGLING_REFERENCE
                if message.startswith("event ")
                else PlanCode.STREAM_INVALID
            )
            findings.append(error(code, where, message))


def _stream(
    stream: JsonObject,
    at: str,
    events: dict[str, JsonObject],
    resources: ResourceBytes,
    seen: set[str],
) -> tuple[str, str] | None:
    ident = cast(str, stream["id"])
    if ident in seen:
        return at + "/id", f"stream {ident!r} repeats"
    seen.add(ident)
    event = events.get(cast(str, stream["event_id"]))
    if event is None:
        return at + "/event_id", f"event {stream['event_id']!r} resolves nowhere"
    data = cast(JsonObject, event["data"])
    kind = stream["kind"]
    if data.get("call_id") != stream["call_id"]:
        return at + "/call_id", (
            f"stream {ident!r} is for call {stream['call_id']!r}; event {event['id']!r} "
            f"is {data.get('call_id')!r}"
        )
    result_matches = event["kind"] == "tool_result" and data.get("result_index") == stream.get(
        "result_index"
    )
    if kind == "tool_result_text" and not result_matches:
        return at + "/event_id", f"stream {ident!r} is not the text of result {event['id']!r}"
    segments = _objects(stream["segments"])
    indexes = [cast(int, s["index"]) for s in segments]
    if len(set(indexes)) != len(indexes) or indexes != sorted(indexes):
        return at + "/segments", "segment indexes repeat or are out of order"
    terminals = [s for s in segments if s["terminal"] is True]
    if len(terminals) > 1:
        return at + "/segments", "more than one terminal segment"
    if terminals and segments[-1]["terminal"] is not True:
        return at + "/segments", "a terminal segment before the last one"
    assembled = bytearray()
    expected = 0
    gap = False
    for j, segment in enumerate(segments):
        rid = cast(str, segment["resource_id"])
        content = resources.verified.get(rid)
        where = f"{at}/segments/{j}"
        if content is None:
            return where + "/resource_id", f"resource {rid!r} has no verified inline bytes"
        start = cast(int, segment["offset"])
        end = start + cast(int, segment["length"])
        if end > len(content):
            return (
                where,
                f"span {start}..{end} lies outside resource {rid!r} ({len(content)} bytes)",
            )
        if segment["index"] != expected:
            gap = True
        if not gap:
            assembled.extend(content[start:end])
            expected += 1
        if len(assembled) > MAX_RESOURCE:
            return where, f"the assembled stream exceeds {MAX_RESOURCE} bytes"
    complete = not gap and bool(segments) and segments[-1]["terminal"] is True
    status = "complete" if complete else "partial"
    if stream["status"] != status:
        return (
            at + "/status",
            f"stream {ident!r} says {stream['status']}; its segments are {status}",
        )
    if complete and kind == "tool_arguments":
        if event["kind"] != "tool_call" or data.get("arguments_status") != "complete":
            return (
                at + "/event_id",
                f"a complete arguments stream for {event['id']!r}, not a complete call",
            )
        value = decode_json(bytes(assembled))
        if isinstance(value, str) or json_key(value) != json_key(data.get("arguments")):
            return at, f"the assembled arguments are not the arguments of call {event['id']!r}"
    elif complete:
        if not result_matches:
            return at + "/event_id", f"stream {ident!r} is not the text of result {event['id']!r}"
        try:
            text = bytes(assembled).decode("utf-8")
        except UnicodeDecodeError:
            return at, "the assembled result text is not UTF-8"
        if json_key(data.get("parts")) != json_key([{"kind": "text", "text": text}]):
            return at, f"the assembled text is not the single text part of {event['id']!r}"
    elif kind == "tool_arguments" and (
        event["kind"] != "tool_call" or data.get("arguments_status") != "partial"
    ):
        return at + "/status", (
            f"a partial arguments stream for {event['id']!r}, whose arguments are not partial"
        )
    return None
