"""Is the destination still what was assessed? The caller's current snapshot bytes against
the report's (CAPABILITIES.md "Changes, expiry and report reuse").

Version 0.1 uses whole-report invalidation: any difference in the exact bytes — even a
re-serialisation of equal JSON — invalidates every assessment of the report. The
comparison is of bytes only; the description of what changed (runtime revision,
component revisions, a model's input limit…) is for the reader and decides nothing.
The comparison does not probe a destination or authenticate the current evidence.
"""

from __future__ import annotations

from zcf_inspector.core.continuation.results import CurrentState, SnapshotResult
from zcf_inspector.core.continuation.rules.snapshot import first_difference, read_snapshot
from zcf_inspector.core.jsontypes import JsonValue

MAX_CHANGES = 8


def tokens(count: JsonValue) -> str:
    """A token count as a person says it: 128000 → "128k", 32768 → "32,768"."""
    if isinstance(count, int) and not isinstance(count, bool):
        if count >= 1000 and count % 1000 == 0:
            return f"{count // 1000:,}k"
        return f"{count:,}"
    return "unknown" if count is None else repr(count)


def _components(value: dict[str, JsonValue]) -> dict[str, dict[str, JsonValue]]:
    listed = value.get("components")
    out: dict[str, dict[str, JsonValue]] = {}
    if isinstance(listed, list):
        for item in listed:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                out.setdefault(str(item["id"]), item)
    return out


def _component_changes(
    ident: str, was: dict[str, JsonValue], now: dict[str, JsonValue]
) -> list[str]:
    kind = str(was.get("kind", "component"))
    out: list[str] = []
    if kind == "model" and was.get("input_limit") != now.get("input_limit"):
        out.append(
            f"model context {tokens(was.get('input_limit'))} → "
            f"{tokens(now.get('input_limit'))} ({ident})"
        )
    if was.get("status") != now.get("status"):
        out.append(f"{kind} {ident} {was.get('status')} → {now.get('status')}")
    if was.get("version") != now.get("version"):
        out.append(f"{kind} {ident} version {was.get('version')!r} → {now.get('version')!r}")
    if was.get("revision") != now.get("revision"):
        out.append(f"{kind} {ident} revision {was.get('revision')!r} → {now.get('revision')!r}")
    if not out:
        where = first_difference(was, now)
        if where is not None:
            out.append(f"{kind} {ident} {where.lstrip('/')} changed")
    return out


def describe_changes(
    report_bytes: bytes, current: bytes, before: dict[str, JsonValue] | None = None
) -> tuple[str, ...]:
    """What differs between the report's snapshot and the current one, in words
    (``before``: the report's snapshot as already read from ``report_bytes``)."""
    if report_bytes == current:
        return ()
    if before is None:
        before, _ = read_snapshot(report_bytes)
    after, why = read_snapshot(current)
    if after is None:
        return (f"the current snapshot is unreadable ({why})",)
    if before is None:  # pragma: no cover - the report's bytes were verified first
        return ("the snapshot bytes differ",)
    out: list[str] = []
    if before.get("runtime_revision") != after.get("runtime_revision"):
        out.append(
            f"runtime revision {before.get('runtime_revision')!r} → "
            f"{after.get('runtime_revision')!r}"
        )
    was, now = _components(before), _components(after)
    for ident, item in was.items():
        if ident not in now:
            out.append(f"{item.get('kind', 'component')} {ident} removed")
        elif first_difference(item, now[ident]) is not None:
            out.extend(_component_changes(ident, item, now[ident]))
    for ident, item in now.items():
        if ident not in was:
            out.append(f"{item.get('kind', 'component')} {ident} added")
    for name in ("destination_id", "runtime", "supported_features", "observed_at", "expires_at"):
        if first_difference(before.get(name), after.get(name)) is not None:
            out.append(f"{name} changed")
    if not out:
        where = first_difference(before, after)
        out.append(
            "the same snapshot re-serialised (other bytes, other SHA-256)"
            if where is None
            else f"snapshot {where} changed"
        )
    if len(out) > MAX_CHANGES:
        out = [*out[:MAX_CHANGES], f"{len(out) - MAX_CHANGES} more changes"]
    return tuple(out)


def stale_headline(snapshot: SnapshotResult) -> str | None:
    """The currentness verdict in the shared vocabulary, or None when none was asked for."""
    if snapshot.current is CurrentState.DIFFERS:
        return "REPORT STALE: destination changed since assessment — " + "; ".join(snapshot.changes)
    if snapshot.current is CurrentState.MATCHES:
        return (
            "CURRENT: the destination snapshot is byte for byte the one assessed (this "
            "compares bytes; it does not probe, authenticate or authorise the destination)"
        )
    if snapshot.current is CurrentState.UNVERIFIED:
        return (
            "CURRENTNESS UNVERIFIED: the report's own snapshot is not verified, so the "
            "current snapshot was not compared"
        )
    return None
