"""The audit report as plain frozen data: sections of facts, tables and per-belief entries,
every string already in the text policy's form (`core.visible_text`: invisible and
reordering characters escaped; credentials masked). A writer (`present.audit_html`) only
lays them out, escaping each string once more for its own markup."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.present.vocabulary import Trust


class Tone(StrEnum):
    """How a line or a cell reads: the writer's colour, never its words."""

    PLAIN = "plain"
    GOOD = "good"
    CAUTION = "caution"
    BAD = "bad"
    DETAIL = "detail"


@dataclass(frozen=True, slots=True)
class Fact:
    label: str
    value: str
    tone: Tone = Tone.PLAIN


@dataclass(frozen=True, slots=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    tones: tuple[Tone, ...] = ()  # one per row, when some rows stand out


@dataclass(frozen=True, slots=True)
class Line:
    text: str
    tone: Tone = Tone.PLAIN
    indent: int = 0


@dataclass(frozen=True, slots=True)
class Entry:
    """One belief's block: a title and its lines."""

    title: str
    lines: tuple[Line, ...]
    tone: Tone = Tone.PLAIN


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    paragraphs: tuple[str, ...] = ()
    facts: tuple[Fact, ...] = ()
    table: Table | None = None
    entries: tuple[Entry, ...] = ()


@dataclass(frozen=True, slots=True)
class AuditReport:
    """``stopped``: the receipt does not belong to the packet (or the packet or receipt
    could not be read): the report says so and holds nothing else of the review."""

    title: str
    headline: str
    trust: Trust
    sections: tuple[Section, ...]
    stopped: bool = False
