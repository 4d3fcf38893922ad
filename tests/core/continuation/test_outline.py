"""The session outline (core) and its words (present): every example session's timeline,
marks and resources, integrity computed from the bytes, hostile shapes skipped."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.core.many_events import many_events
from zcf_inspector.core.continuation.outline import (
    PREVIEW_BYTES,
    Integrity,
    MarkKind,
    session_outline,
)
from zcf_inspector.present import asif_session as words

DATA = Path(__file__).parents[2] / "data"
PACKAGE_EXAMPLES = DATA / "asif-0.5-package" / "examples"
CONTINUATION = DATA / "asif-0.5" / "examples" / "continuation"
SESSIONS = sorted(PACKAGE_EXAMPLES.glob("*.session.json")) + sorted(
    CONTINUATION.glob("*.session.json")
)


def _load(path: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(path.read_bytes())
    return value


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.stem)
def test_every_example_session_outlines_all_its_events_resources_and_contexts(
    path: Path,
) -> None:
    value = _load(path)
    outline = session_outline(value, files=None)
    assert [e.id for e in outline.events] == [
        e["id"] for e in sorted(value["events"], key=lambda e: e["sequence"])
    ]
    assert [r.id for r in outline.resources] == [r["id"] for r in value["resources"]]
    assert [c.id for c in outline.contexts] == [c["id"] for c in value["contexts"]]
    assert [b.id for b in outline.branches] == [b["id"] for b in value["branches"]]
    heads = {m.id for e in outline.events for m in e.marks if m.kind is MarkKind.HEAD}
    assert heads == {b["id"] for b in value["branches"]}
    for number in range(len(outline.events)):
        cells = words.event_cells(outline, number)
        assert len(cells) == len(words.TIMELINE_HEADERS)
        assert "●" in cells[4] or not outline.events[number].branches
    for resource in outline.resources:
        if resource.availability != "embedded":
            assert resource.integrity is Integrity.NO_BYTES
        elif resource.carrier == "path":  # beside the session, and not given
            assert resource.integrity is Integrity.NOT_CHECKED
        else:
            assert resource.integrity is Integrity.VERIFIED


def test_the_continuation_boundary_and_the_compaction_are_marked() -> None:
    plan = session_outline(_load(CONTINUATION / "another-agent.session.json"))
    (boundary,) = [e for e in plan.events if any(m.kind is MarkKind.CONTINUATION for m in e.marks)]
    assert boundary.id == "e4"
    assert "continuation boundary continue-main" in words.event_cells(plan, 3)[5]
    compacted = session_outline(_load(PACKAGE_EXAMPLES / "compaction-with-attachment.session.json"))
    assert compacted.events[2].marks[0].kind is MarkKind.COMPACTION
    assert words.event_cells(compacted, 2)[5].startswith("compaction → compacted")


def test_availability_of_each_kind_is_said() -> None:
    outline = session_outline(_load(PACKAGE_EXAMPLES / "attachment-availability.session.json"))
    kinds = {r.id: r.availability for r in outline.resources}
    assert kinds == {
        "missing": "unavailable",
        "external": "external",
        "excluded": "excluded",
        "unknown": "unknown",
    }
    external = next(r for r in outline.resources if r.id == "external")
    assert "never fetched" in words.resource_summary(external)
    redacted = session_outline(_load(PACKAGE_EXAMPLES / "redacted-attachment.session.json"))
    assert redacted.resources[0].availability == "redacted"
    assert redacted.resources[1].integrity is Integrity.VERIFIED


def test_files_given_are_checked_and_a_changed_one_differs() -> None:
    value = _load(PACKAGE_EXAMPLES / "tool-generated-files.session.json")
    assets = PACKAGE_EXAMPLES / "assets"
    files = {f"assets/{p.name}": p.read_bytes() for p in assets.iterdir()}
    outline = session_outline(value, files)
    by_path = {r.path: r for r in outline.resources if r.carrier == "path"}
    assert {r.integrity for r in by_path.values()} == {Integrity.VERIFIED}
    files["assets/totals.csv"] = files["assets/totals.csv"].replace(b",", b";", 1)
    changed = {r.path: r for r in session_outline(value, files).resources}["assets/totals.csv"]
    assert changed.integrity is Integrity.DIFFERS
    assert changed.actual_sha256 == hashlib.sha256(files["assets/totals.csv"]).hexdigest()
    assert changed.problem is not None
    assert "hashes to" in changed.problem
    assert words.integrity_trust(changed).value == "refused"


def test_inline_data_is_decoded_and_a_preview_is_bounded() -> None:
    value = many_events(3)
    big = b"x" * (PREVIEW_BYTES + 10)
    value["resources"].append(
        {
            "id": "big",
            "media_type": "text/plain",
            "availability": "embedded",
            "bytes": len(big),
            "sha256": hashlib.sha256(big).hexdigest(),
            "data": base64.b64encode(big).decode(),
        }
    )
    value["resources"].append(
        {"id": "bad", "availability": "embedded", "data": "not base64!", "bytes": 1}
    )
    outline = session_outline(value)
    big_row, bad_row = outline.resources[-2:]
    assert big_row.integrity is Integrity.VERIFIED
    assert big_row.preview is not None
    assert len(big_row.preview) == PREVIEW_BYTES
    assert bad_row.integrity is Integrity.DIFFERS
    assert "base64" in (bad_row.problem or "")


@pytest.mark.parametrize(
    "value",
    [None, [], "session", {"events": "x"}, {"events": [1, None, {"id": 3}]}, {"branches": [{}]}],
)
def test_hostile_shapes_are_skipped_never_raised_on(value: Any) -> None:
    outline = session_outline(value)
    for number in range(len(outline.events)):
        words.event_cells(outline, number)
    assert words.outline_summary(outline)


def test_many_branches_are_drawn_as_lanes_and_counted_past_the_drawn_ones() -> None:
    value = many_events(4)
    ids = [e["id"] for e in value["events"]]
    value["branches"] = [
        {"id": f"b{n}", "event_ids": ids[: 1 + n % 4], "head_event_id": ids[n % 4]}
        for n in range(words.LANES_DRAWN + 3)
    ]
    outline = session_outline(value)
    first = words.lanes(outline, 0)
    assert first.startswith("●" * words.LANES_DRAWN)
    assert first.endswith("+3")
    last = words.lanes(outline, 3)
    assert "●" in last
    assert "│" not in last[-1:]
