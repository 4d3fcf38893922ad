"""The outline of an ASIF session: its events as a timeline, its contexts and resources.

What the window's session view lists, as facts (the words are `present.asif_session`'s):
each event's sequence, time, actor and kind, the branches it is on (a lane per branch,
and the span of rows each branch covers), what marks it (a compaction, a checkpoint, the
boundary a continuation plan resumes from, a branch head); each context's boundary; each
resource's availability and, for an embedded one, its integrity — its bytes counted and
hashed here against what it declares, the same decoding the core rules use — with the
first bytes of a text or image kept for a bounded preview. Nothing is fetched: an
external resource is its locator only.

Made from any JSON value (a refused session too): what is not the expected shape is
skipped, never raised on. Linear in the session's size, but for the events' sort.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from zcf_inspector.core.continuation.rules.resource_bytes import MAX_RESOURCE, inline_bytes
from zcf_inspector.core.gc_pause import paused_gc
from zcf_inspector.core.jsontypes import JsonObject, JsonValue

PREVIEW_BYTES = 256 * 1024  # of a text or an image's bytes kept for its preview
PREVIEWED_TYPES = ("text/", "image/")  # media types a preview is made for


class MarkKind(StrEnum):
    COMPACTION = "compaction"  # a context_checkpoint event whose reason is compaction
    CHECKPOINT = "checkpoint"  # a checkpoint object's boundary event
    CONTINUATION = "continuation"  # the boundary a continuation plan resumes from
    HEAD = "head"  # a branch's head event


class Integrity(StrEnum):
    VERIFIED = "verified"  # the bytes are the declared count and SHA-256
    DIFFERS = "differs"  # they are not (or cannot be decoded, or exceed the limit)
    NOT_CHECKED = "not checked"  # a file beside the session that was not given
    NO_BYTES = "no bytes"  # not embedded: nothing to check


class Mark(NamedTuple):
    kind: MarkKind
    id: str  # the checkpoint's, the plan's or the branch's id ("" for a compaction)


# Named tuples, not dataclasses: as immutable, and made five times faster (a frozen
# dataclass's __init__ sets each field through object.__setattr__), for 100,000 events.
class EventRow(NamedTuple):
    id: str
    sequence: int | None
    time: str | None
    actor: str
    kind: str
    branches: tuple[int, ...]  # the lanes (indexes into `SessionOutline.branches`) it is on
    marks: tuple[Mark, ...]
    pointer: str  # /events/N


@dataclass(frozen=True, slots=True)
class BranchLane:
    id: str
    first_row: int  # the first and last timeline rows the branch's events are on
    last_row: int
    head: str | None
    pointer: str


@dataclass(frozen=True, slots=True)
class ContextRow:
    id: str
    branch: str
    at_event: str | None
    purpose: str
    fidelity: str
    inputs: int
    pointer: str


@dataclass(frozen=True, slots=True)
class ResourceRow:
    id: str
    media_type: str
    availability: str  # embedded, external, unavailable, redacted, excluded, unknown
    purpose: str
    name: str | None
    carrier: str | None  # how embedded bytes are carried: "text", "data" or "path"
    path: str | None
    locator: str | None  # an external resource's locator (never fetched)
    explanation: str | None
    declared_bytes: int | None
    declared_sha256: str | None
    actual_bytes: int | None  # of the bytes at hand (None: none were)
    actual_sha256: str | None
    integrity: Integrity
    problem: str | None  # why the bytes differ, in the core rules' words
    preview: bytes | None  # the first PREVIEW_BYTES of a verified text or image
    pointer: str  # /resources/N


@dataclass(frozen=True, slots=True)
class SessionOutline:
    events: tuple[EventRow, ...]  # in sequence order (document order among equals)
    branches: tuple[BranchLane, ...]
    contexts: tuple[ContextRow, ...]
    resources: tuple[ResourceRow, ...]


def _objects(value: JsonObject, name: str) -> list[tuple[int, JsonObject]]:
    items = value.get(name)
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)]


def _text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: JsonValue) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _plans(value: JsonObject) -> list[JsonObject]:
    continuation = value.get("continuation")
    if not isinstance(continuation, dict):
        return []
    return [plan for _, plan in _objects(continuation, "plans")]


def _marks(value: JsonObject) -> dict[str, list[Mark]]:
    """Event id -> what marks it, in the order checkpoints, plans, heads."""
    marks: dict[str, list[Mark]] = {}
    checkpoints: dict[str, str] = {}  # checkpoint id -> its boundary event
    for _, checkpoint in _objects(value, "checkpoints"):
        ident, at = _text(checkpoint.get("id")), _text(checkpoint.get("at_event_id"))
        if ident is not None and at is not None:
            checkpoints.setdefault(ident, at)
            marks.setdefault(at, []).append(Mark(MarkKind.CHECKPOINT, ident))
    for plan in _plans(value):
        ident, at = _text(plan.get("id")), checkpoints.get(str(plan.get("checkpoint_id")))
        if ident is not None and at is not None:
            marks.setdefault(at, []).append(Mark(MarkKind.CONTINUATION, ident))
    for _, branch in _objects(value, "branches"):
        ident, head = _text(branch.get("id")), _text(branch.get("head_event_id"))
        if ident is not None and head is not None:
            marks.setdefault(head, []).append(Mark(MarkKind.HEAD, ident))
    return marks


def _events(value: JsonObject) -> tuple[list[EventRow], list[BranchLane]]:
    marks = _marks(value)
    lanes_of: dict[str, list[int]] = {}
    raw_branches = _objects(value, "branches")
    for lane, (_, branch) in enumerate(raw_branches):
        ids = branch.get("event_ids")
        for ident in ids if isinstance(ids, list) else []:
            if isinstance(ident, str):
                lanes = lanes_of.setdefault(ident, [])
                if not lanes or lanes[-1] != lane:
                    lanes.append(lane)
    found = _objects(value, "events")
    # Sequence order is the capture's serialisation order; an event without a usable
    # sequence keeps its document place after those that have one.
    sequences = [_int(event.get("sequence")) for _, event in found]
    order = sorted(range(len(found)), key=lambda k: (sequences[k] is None, sequences[k] or 0, k))
    rows: list[EventRow] = []
    spans: dict[int, list[int]] = {}
    for row_number, k in enumerate(order):
        i, event = found[k]
        ident = _text(event.get("id")) or ""
        data = event.get("data")
        event_marks = list(marks.get(ident, ()))
        kind = _text(event.get("kind")) or ""
        compaction = isinstance(data, dict) and data.get("reason") == "compaction"
        if kind == "context_checkpoint" and isinstance(data, dict) and compaction:
            into = _text(data.get("context_id")) or ""
            event_marks.insert(0, Mark(MarkKind.COMPACTION, into))
        on = tuple(lanes_of.get(ident, ()))
        for lane in on:
            span = spans.setdefault(lane, [row_number, row_number])
            span[1] = row_number
        rows.append(
            EventRow(
                ident,
                sequences[k],
                _text(event.get("time")),
                _text(event.get("actor_id")) or "",
                kind,
                on,
                tuple(event_marks),
                f"/events/{i}",
            )
        )
    branches = []
    for lane, (i, branch) in enumerate(raw_branches):
        first, last = spans.get(lane, (-1, -1))
        branches.append(
            BranchLane(
                _text(branch.get("id")) or "",
                first,
                last,
                _text(branch.get("head_event_id")),
                f"/branches/{i}",
            )
        )
    return rows, branches


def _contexts(value: JsonObject) -> list[ContextRow]:
    out = []
    for i, context in _objects(value, "contexts"):
        inputs = context.get("inputs")
        out.append(
            ContextRow(
                _text(context.get("id")) or "",
                _text(context.get("branch_id")) or "",
                _text(context.get("at_event_id")),
                _text(context.get("purpose")) or "",
                _text(context.get("fidelity")) or "",
                len(inputs) if isinstance(inputs, list) else 0,
                f"/contexts/{i}",
            )
        )
    return out


def _bytes_at_hand(
    resource: JsonObject, files: Mapping[str, bytes] | None
) -> tuple[str | None, bytes | str | None]:
    """(carrier, the bytes or why they cannot be had; None: not at hand)."""
    if isinstance(resource.get("text"), str):
        return "text", inline_bytes(resource)
    if isinstance(resource.get("data"), str):
        return "data", inline_bytes(resource)
    path = resource.get("path")
    if isinstance(path, str):
        return "path", None if files is None or path not in files else files[path]
    return None, None


def _resource(i: int, resource: JsonObject, files: Mapping[str, bytes] | None) -> ResourceRow:
    availability = _text(resource.get("availability")) or ""
    media_type = _text(resource.get("media_type")) or ""
    declared_bytes, declared_sha = _int(resource.get("bytes")), _text(resource.get("sha256"))
    carrier, raw = _bytes_at_hand(resource, files) if availability == "embedded" else (None, None)
    actual_bytes = actual_sha = problem = preview = None
    if availability != "embedded":
        integrity = Integrity.NO_BYTES
    elif isinstance(raw, str):
        integrity, problem = Integrity.DIFFERS, raw
    elif raw is None:
        integrity = Integrity.NOT_CHECKED if carrier == "path" else Integrity.DIFFERS
        if carrier != "path":
            problem = "it carries no text, data or path"
    else:
        actual_bytes, actual_sha = len(raw), hashlib.sha256(raw).hexdigest()
        if actual_bytes > MAX_RESOURCE:
            problem = f"{actual_bytes} bytes exceed the {MAX_RESOURCE}-byte resource limit"
        elif actual_bytes != declared_bytes:
            problem = f"it declares {declared_bytes} bytes; its content has {actual_bytes}"
        elif actual_sha != declared_sha:
            problem = f"it declares SHA-256 {declared_sha}; its content hashes to {actual_sha}"
        integrity = Integrity.DIFFERS if problem else Integrity.VERIFIED
        if integrity is Integrity.VERIFIED and media_type.startswith(PREVIEWED_TYPES):
            preview = raw[:PREVIEW_BYTES]
    return ResourceRow(
        _text(resource.get("id")) or "",
        media_type,
        availability,
        _text(resource.get("purpose")) or "",
        _text(resource.get("name")),
        carrier,
        _text(resource.get("path")),
        _text(resource.get("locator")),
        _text(resource.get("explanation")),
        declared_bytes,
        declared_sha,
        actual_bytes,
        actual_sha,
        integrity,
        problem,
        preview,
        f"/resources/{i}",
    )


def session_outline(value: JsonValue, files: Mapping[str, bytes] | None = None) -> SessionOutline:
    """The outline of the session ``value`` (``files``: the members beside it, by name,
    for the resources it names by ``path``; None: they were not given)."""
    if not isinstance(value, dict):
        return SessionOutline((), (), (), ())
    # 100,000 events make half a million small acyclic objects: no collector passes
    # over the growing heap meanwhile (each a pause of every thread).
    with paused_gc():
        events, branches = _events(value)
        resources = [_resource(i, r, files) for i, r in _objects(value, "resources")]
        contexts = _contexts(value)
    return SessionOutline(tuple(events), tuple(branches), tuple(contexts), tuple(resources))
