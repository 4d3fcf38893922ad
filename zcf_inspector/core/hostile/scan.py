"""Hostile text: every string of a document (member names too) read once for what a
reader cannot see — bidi controls (Trojan Source, CVE-2021-42574), zero-width and other
invisible characters, C0 and C1 controls other than tab and line breaks — and for words
that mix scripts beyond UTS #39's moderately restrictive level (`scripts`); each text
that has any is a ``hostile_text`` warning at its pointer. The identifiers a destination
acts on are also compared for look-alikes (`confusables`: ``confusable_identifier``).

One pass, linear in the input: the document is written once as JSON by orjson (in C) and
searched for anything that could be hostile; a plain-ASCII document with no control
escape ends there. Otherwise each string is looked at once, a C-level regular expression
search over it, and a non-ASCII one has its distinct characters' scripts looked up.
Nothing here changes a text or the packet's validity: warnings for the reader.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

import orjson

from zcf_inspector.core import headroom
from zcf_inspector.core.codes import AdvisoryCode
from zcf_inspector.core.findings import (
    FINDINGS_LIMIT,
    Finding,
    FindingBudget,
    OmittedFindings,
    Severity,
)
from zcf_inspector.core.hostile.confusables import ConfusablePair, confusable_pairs
from zcf_inspector.core.hostile.scripts import allowed, script_words, scripts_of
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join
from zcf_inspector.core.visible_text import IGNORABLE_RANGES

BIDI: Final = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# Format characters Default_Ignorable leaves out: still drawn as nothing, or as a sign
# that changes what is around it (Arabic number signs, Egyptian and interlinear controls).
_OTHER_FORMAT: Final = (
    (0x0600, 0x0605),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1345F),
    (0xFFF9, 0xFFFB),
    (0x2028, 0x2029),  # line and paragraph separators: a line break no editor shows
)


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(
        re.escape(chr(low)) if low == high else f"{re.escape(chr(low))}-{re.escape(chr(high))}"
        for low, high in ranges
    )


# Everything the scan reports: controls but tab, line feed and carriage return; DEL and
# C1; the ignorable and blank characters of the escaping rule; the format characters above.
_HOSTILE: Final = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f" + _class(IGNORABLE_RANGES) + _class(_OTHER_FORMAT) + "]"
)
# In orjson's output: a control it escaped (\u00XX, \b, \f) or DEL, each looked for by a
# substring search (a regular expression's alternation took ten times as long). A typed
# backslash may match too (a needless look, never a miss).
_CONTROL_ESCAPES: Final = (b"\\u00", b"\\b", b"\\f", b"\x7f")
_WORD: Final = re.compile(r"\w+")
HITS_LIMIT: Final = 10_000  # texts kept in full; past it counted
CHECK_EVERY: Final = 4096  # strings between two looks at the monitor


@dataclass(frozen=True, slots=True)
class HostileText:
    """One text holding what a reader cannot see or should not trust: counts by kind, and
    the first such character (or word) named by code point, never quoted."""

    pointer: str
    bidi: int
    invisible: int
    controls: int
    mixed_words: int
    first: str  # "U+202E RIGHT-TO-LEFT OVERRIDE at character 4"
    mixed: str  # "a word at character 12 mixes Cyrillic and Latin" ("" when none)
    in_name: bool = False  # the member name at the pointer, not its value

    @property
    def message(self) -> str:
        parts = [
            _count(self.bidi, "bidi control"),
            _count(self.invisible, "invisible character"),
            _count(self.controls, "control character"),
        ]
        held = [p for p in parts if p]
        what = "the member name" if self.in_name else "the text"
        words: list[str] = []
        if held:
            words.append(f"{what} holds {_and(held)} (the first: {self.first}), each shown escaped")
        if self.mixed:
            words.append(self.mixed if held else f"in {what}, {self.mixed}")
        return (
            "; ".join(words) + " — it may read otherwise than it is: read it before "
            "admitting or confirming it"
        )

    def to_finding(self) -> Finding:
        return Finding(AdvisoryCode.HOSTILE_TEXT, Severity.WARNING, self.pointer, self.message)


@dataclass(frozen=True, slots=True)
class TextScan:
    """What the hostile-text scan of one document found."""

    hits: tuple[HostileText, ...]  # in document order, at most `HITS_LIMIT`
    more: int  # texts past the limit, counted
    pairs: tuple[ConfusablePair, ...]

    @property
    def count(self) -> int:
        """Warnings in all: texts flagged and confusable pairs."""
        return len(self.hits) + self.more + len(self.pairs)

    @property
    def flagged_pointers(self) -> frozenset[str]:
        return frozenset(
            [h.pointer for h in self.hits]
            + [p.pointer for p in self.pairs]
            + [p.other_pointer for p in self.pairs]
        )

    def findings(
        self, limit: int = FINDINGS_LIMIT
    ) -> tuple[tuple[Finding, ...], tuple[OmittedFindings, ...]]:
        """The warnings: the first ``limit`` in full, the rest counted."""
        budget = FindingBudget(limit)
        for finding in (
            *(h.to_finding() for h in self.hits),
            *(p.to_finding() for p in self.pairs),
        ):
            if budget.full:
                budget.tally(finding.code, finding.severity, finding.pointer)
            else:
                budget.append(finding)
        for _ in range(self.more):
            budget.tally(AdvisoryCode.HOSTILE_TEXT, Severity.WARNING, "")
        return tuple(budget.kept), budget.omitted()

    def summary(self) -> str:
        texts = len(self.hits) + self.more
        parts = []
        if texts:
            parts.append(f"{texts:,} text{'' if texts == 1 else 's'} with hidden characters")
        if self.pairs:
            count = len(self.pairs)
            parts.append(f"{count:,} look-alike identifier pair{'' if count == 1 else 's'}")
        return " and ".join(parts) if parts else "no hidden character or look-alike found"


NO_HOSTILE_TEXT: Final = TextScan((), 0, ())


def _count(count: int, noun: str) -> str:
    return "" if not count else f"{count:,} {noun}{'' if count == 1 else 's'}"


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'UNNAMED')}"


_JOINERS: Final = (0x200C, 0x200D)  # zero-width non-joiner and joiner
_SELECTORS: Final = range(0xFE00, 0xFE10)  # variation selectors 1-16


def _letter(char: str) -> bool:
    return not char.isascii() and not char.isspace()


def _joins(text: str, at: int, code: int) -> bool:
    """A joiner between two letters of a non-Latin script (Persian's ZWNJ, Indic
    conjuncts, emoji sequences), or a variation selector after such a character (an
    emoji's ❤️): part of how the language or the emoji is written, not hidden."""
    if code in _JOINERS:
        return 0 < at < len(text) - 1 and _letter(text[at - 1]) and _letter(text[at + 1])
    return code in _SELECTORS and at > 0 and _letter(text[at - 1])


def _one_word_scripts(text: str) -> bool:
    """No word of ``text`` mixes scripts beyond the level (a quick look, then each word)."""
    if text.isascii() or allowed(scripts_of(text)):
        return True
    return all(allowed(scripts_of(m.group())) for m in _WORD.finditer(text))


def text_hit(text: str, pointer: str, *, in_name: bool = False) -> HostileText | None:
    """What ``text`` holds that a reader cannot see or should not trust, or None."""
    if text.isascii() and text.isprintable():
        return None  # the common case, in C
    bidi = invisible = controls = 0
    first = ""
    for match in _HOSTILE.finditer(text):
        char = match.group()
        code = ord(char)
        if _joins(text, match.start(), code):
            continue
        if code in BIDI:
            bidi += 1
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            controls += 1
        else:
            invisible += 1
        if not first:
            first = f"{_name(char)} at character {match.start():,}"
    mixed_words = 0
    mixed = ""
    if not text.isascii() and not allowed(scripts_of(text)):
        for match in _WORD.finditer(text):
            word = match.group()
            if word.isascii():
                continue
            scripts = scripts_of(word)
            if not allowed(scripts):
                mixed_words += 1
                if not mixed:
                    mixed = f"a word at character {match.start():,} mixes {script_words(scripts)}"
    if not (bidi or invisible or controls or mixed_words):
        return None
    return HostileText(pointer, bidi, invisible, controls, mixed_words, first, mixed, in_name)


class _Walk:
    """Every string of a value and every member name looked at once, depth-first in
    document order; a pointer is made only for a text that holds something."""

    __slots__ = ("hits", "monitor", "more", "seen")

    def __init__(self, monitor: Monitor) -> None:
        self.hits: list[HostileText] = []
        self.more = 0
        self.seen = 0
        self.monitor = monitor

    def look(
        self, text: str, path: tuple[str | int, ...], last: str | int, *, in_name: bool = False
    ) -> None:
        if len(self.hits) >= HITS_LIMIT:  # past the kept ones: only counted, found in C
            hidden = (not _joins(text, m.start(), ord(m.group())) for m in _HOSTILE.finditer(text))
            if any(hidden) or not _one_word_scripts(text):
                self.more += 1
            return
        self.found(text_hit(text, join(*path, last), in_name=in_name))

    def found(self, hit: HostileText | None) -> None:
        if hit is None:
            return
        if len(self.hits) < HITS_LIMIT:
            self.hits.append(hit)
        else:
            self.more += 1

    def value(self, item: JsonValue, path: tuple[str | int, ...]) -> None:
        # The walk is recursive: a packet's depth is bounded by the reader (`reading`).
        self.seen += 1
        if self.seen % CHECK_EVERY == 0:
            self.monitor.breathe()
        if isinstance(item, dict):
            for key, child in item.items():
                if not (key.isascii() and key.isprintable()):
                    self.look(key, path, key, in_name=True)
                if type(child) is str:
                    if not (child.isascii() and child.isprintable()):
                        self.look(child, path, key)
                elif isinstance(child, dict | list):
                    self.value(child, (*path, key))
        elif isinstance(item, list):
            for index, child in enumerate(item):
                if type(child) is str:
                    if not (child.isascii() and child.isprintable()):
                        self.look(child, path, index)
                elif isinstance(child, dict | list):
                    self.value(child, (*path, index))
        elif isinstance(item, str):
            self.look(item, path[:-1], path[-1]) if path else self.found(text_hit(item, ""))


def _nothing_to_see(value: JsonValue) -> bool:
    """True when no string of ``value`` can hold anything the scan reports, found in C:
    its JSON as orjson writes it holds no control escape, no hidden character, and its
    letters all together are of scripts one word may mix (so no word mixes more)."""
    if headroom.limited():
        # orjson's allocator aborts the process when a limit refuses it (core.headroom):
        # under one, the walk in Python looks at every string instead.
        return False
    try:
        data = orjson.dumps(value)
    except (orjson.JSONEncodeError, TypeError):  # a number orjson cannot write: look closer
        return False
    if any(escape in data for escape in _CONTROL_ESCAPES):
        return False
    if data.isascii():
        return True
    # Its distinct characters, made in C (a search for the hidden ones over the whole text
    # took five times as long): each is looked at once.
    distinct = "".join(char for char in set(data.decode("utf-8")) if not char.isascii())
    return _HOSTILE.search(distinct) is None and allowed(scripts_of(distinct))


def scan_text(value: JsonValue, monitor: Monitor = NULL_MONITOR) -> TextScan:
    """The hostile-text scan of a whole document (`scan_packet` adds the identifiers)."""
    if _nothing_to_see(value):
        return NO_HOSTILE_TEXT
    walk = _Walk(monitor)
    walk.value(value, ())
    return TextScan(tuple(walk.hits), walk.more, ())


def scan_packet(packet: JsonValue, monitor: Monitor = NULL_MONITOR) -> TextScan:
    """Hostile text anywhere in a packet, and look-alikes among the identifiers its
    destination acts on: a pure function of the packet's value."""
    found = scan_text(packet, monitor)
    pairs = confusable_pairs(packet, monitor) if isinstance(packet, dict) else ()
    if not pairs:
        return found
    return TextScan(found.hits, found.more, pairs)
