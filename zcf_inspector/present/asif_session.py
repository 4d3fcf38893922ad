"""The words of the session view: an ASIF session's timeline, contexts and resources.

Every cell the window's session view shows is made here from the core's
`SessionOutline` (the facts), unescaped: the view applies the one text rule
(`core.visible_text`) as it renders. Branches are lanes, drawn as one glyph per branch
(``●`` the event is on it, ``│`` the branch runs past it, blank outside it); a resource's
integrity carries its trust level, never more than it is: bytes that match what the
session declares are intact, not authentic (nothing signs a resource but the package).
"""

from __future__ import annotations

from typing import Final

from zcf_inspector.core.continuation.outline import (
    EventRow,
    Integrity,
    Mark,
    MarkKind,
    ResourceRow,
    SessionOutline,
)
from zcf_inspector.present.vocabulary import Trust

LANES_DRAWN: Final = 12  # branches drawn as lanes; more are counted ("+N")
TIMELINE_HEADERS: Final = ("#", "Time", "Actor", "Kind", "Branches", "Marks", "Event")
CONTEXT_HEADERS: Final = ("Context", "Branch", "At event", "Purpose", "Fidelity", "Inputs")
RESOURCE_HEADERS: Final = ("Resource", "Type", "Availability", "Integrity", "Bytes", "SHA-256")

_MARK_WORDS: Final = {
    MarkKind.COMPACTION: "compaction",
    MarkKind.CHECKPOINT: "checkpoint",
    MarkKind.CONTINUATION: "continuation boundary",
    MarkKind.HEAD: "head of",
}

_INTEGRITY_TRUST: Final = {
    # intact bytes claim no identity: neutral, as an unsigned document is
    Integrity.VERIFIED: Trust.UNSIGNED,
    Integrity.DIFFERS: Trust.REFUSED,
    Integrity.NOT_CHECKED: Trust.UNCHECKED,
    Integrity.NO_BYTES: Trust.UNSIGNED,
}

_INTEGRITY_WORDS: Final = {
    Integrity.VERIFIED: "bytes and SHA-256 match",
    Integrity.DIFFERS: "DIFFERS",
    Integrity.NOT_CHECKED: "not checked (file not given)",
    Integrity.NO_BYTES: "—",
}


def mark_words(mark: Mark) -> str:
    words = _MARK_WORDS[mark.kind]
    if mark.kind is MarkKind.COMPACTION:
        return f"{words} → {mark.id}" if mark.id else words
    return f"{words} {mark.id}"


def lanes(outline: SessionOutline, row_number: int) -> str:
    """The lane glyphs of one timeline row."""
    row = outline.events[row_number]
    glyphs = []
    for lane, branch in enumerate(outline.branches[:LANES_DRAWN]):
        if lane in row.branches:
            glyphs.append("●")
        elif branch.first_row <= row_number <= branch.last_row:
            glyphs.append("│")
        else:
            glyphs.append(" ")
    extra = len(outline.branches) - LANES_DRAWN
    on_extra = sum(1 for lane in row.branches if lane >= LANES_DRAWN)
    if extra > 0:
        glyphs.append(f" +{on_extra}" if on_extra else "")
    return "".join(glyphs).rstrip()


def event_cells(outline: SessionOutline, row_number: int) -> tuple[str, ...]:
    row = outline.events[row_number]
    return (
        "" if row.sequence is None else str(row.sequence),
        row.time or "",
        row.actor,
        row.kind,
        lanes(outline, row_number),
        ", ".join(mark_words(m) for m in row.marks),
        row.id,
    )


def event_detail(outline: SessionOutline, row: EventRow) -> str:
    branches = ", ".join(outline.branches[lane].id for lane in row.branches) or "(none)"
    marks = "; ".join(mark_words(m) for m in row.marks) or "(none)"
    return (
        f"event {row.id} (sequence {row.sequence}) at {row.pointer}\n"
        f"time: {row.time or '(not recorded)'}\nactor: {row.actor}\nkind: {row.kind}\n"
        f"branches: {branches}\nmarks: {marks}"
    )


def integrity_trust(row: ResourceRow) -> Trust:
    return _INTEGRITY_TRUST[row.integrity]


def integrity_words(row: ResourceRow) -> str:
    return _INTEGRITY_WORDS[row.integrity]


def _count(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def resource_cells(row: ResourceRow) -> tuple[str, ...]:
    size = row.actual_bytes if row.actual_bytes is not None else row.declared_bytes
    digest = row.actual_sha256 or row.declared_sha256 or ""
    return (
        row.id,
        row.media_type,
        row.availability,
        integrity_words(row),
        _count(size),
        digest,
    )


def resource_summary(row: ResourceRow) -> str:
    """The safe summary of a resource: what it is, never its bytes."""
    lines = [
        f"resource {row.id} at {row.pointer}",
        f"type: {row.media_type or '(not given)'} · purpose: {row.purpose or '(not given)'}",
        f"availability: {row.availability}",
    ]
    if row.name:
        lines.append(f"name: {row.name}")
    if row.carrier == "path" and row.path:
        lines.append(f"file: {row.path}")
    elif row.carrier:
        lines.append(f"carried inline as {row.carrier}")
    if row.locator:
        lines.append(f"locator (recorded only, never fetched): {row.locator}")
    if row.explanation:
        lines.append(f"explanation: {row.explanation}")
    if row.declared_bytes is not None or row.declared_sha256:
        lines.append(f"declares: {_count(row.declared_bytes)} bytes, SHA-256 {row.declared_sha256}")
    if row.actual_bytes is not None:
        lines.append(f"holds: {_count(row.actual_bytes)} bytes, SHA-256 {row.actual_sha256}")
    lines.append(f"integrity: {integrity_words(row)}")
    if row.problem:
        lines.append(f"why: {row.problem}")
    return "\n".join(lines)


def context_cells(outline: SessionOutline, row_number: int) -> tuple[str, ...]:
    row = outline.contexts[row_number]
    return (
        row.id,
        row.branch,
        row.at_event or "(empty boundary)",
        row.purpose,
        row.fidelity,
        str(row.inputs),
    )


def _many(count: int, one: str, more: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else more or one + 's'}"


def outline_summary(outline: SessionOutline) -> str:
    """One line over the timeline: what the session holds."""
    embedded = sum(1 for r in outline.resources if r.availability == "embedded")
    differs = sum(1 for r in outline.resources if r.integrity is Integrity.DIFFERS)
    words = (
        f"{_many(len(outline.events), 'event')} on "
        f"{_many(len(outline.branches), 'branch', 'branches')} · "
        f"{_many(len(outline.contexts), 'context')} · "
        f"{_many(len(outline.resources), 'resource')} ({embedded} embedded"
    )
    return words + (f", {differs} DIFFER)" if differs else ")")
