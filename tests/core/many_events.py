"""An ASIF 0.5 core session with many events (the session view's tests and benchmark):
the compaction example with ``count`` events in all, the extra ones alternating between
the person and the agent on the main branch, each caused by the one before it, the
checkpoint moved to the new head."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

EXAMPLE = (
    Path(__file__).parents[1]
    / "data"
    / "asif-0.5-package"
    / "examples"
    / "compaction-with-attachment.session.json"
)


@cache
def _base() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(EXAMPLE.read_bytes())
    return value


def many_events(count: int) -> dict[str, Any]:
    session = copy.deepcopy(_base())
    events = session["events"]
    template = events[1]  # an agent's message caused by the event before it
    for n in range(len(events), count):
        event = copy.deepcopy(template)
        event["id"] = f"e{n + 1}"
        event["sequence"] = n
        event["actor_id"] = ("person", "agent")[n % 2]
        event["data"]["role"] = ("user", "assistant")[n % 2]
        event["time"] = f"2026-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
        event["causes"] = [{"event_id": f"e{n}"}]
        events.append(event)
    main = session["branches"][0]
    main["event_ids"] = [e["id"] for e in events]
    main["head_event_id"] = events[-1]["id"]
    session["checkpoints"][0]["at_event_id"] = events[-1]["id"]  # a checkpoint is at a head
    return session


def many_events_bytes(count: int) -> bytes:
    return json.dumps(many_events(count)).encode()
