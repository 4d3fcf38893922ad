"""Look-alike identifiers: the names a destination acts on, compared by their UTS #39
skeleton (section 4: each character replaced by its confusable prototype, between two
NFD normalisations), so ``github.com/acme`` beside the same with a Cyrillic a (U+0430) is
one ``confusable_identifier`` warning that names both pointers. (A word of an identifier
that mixes scripts is the text scan's ``hostile_text``; the identifier as a whole is not
held to one script: ``https://пример.рф`` is a real address.)

Which identifiers, in a packet: the evidence sources' ids and locators (URLs, paths),
the beliefs' ``portableRef`` and ``sourceId``, the ``allowedTools`` entries. Any other
document's identifiers go through `identifier_pairs` as (pointer, text).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Final

from zcf_inspector.core.codes import AdvisoryCode
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join

PAIRS_LIMIT: Final = 1_000  # warnings kept; a document of look-alikes needs no more
CHECK_EVERY: Final = 4096
# (array under /content, its members that are identifiers); and arrays of identifiers.
_MEMBERS: Final = (
    ("evidenceSources", ("id", "locator")),
    ("beliefs", ("portableRef", "sourceId")),
)
_LISTS: Final = ("allowedTools",)


@dataclass(frozen=True, slots=True)
class ConfusablePair:
    """An identifier that looks like another one of the document (``other_pointer``)."""

    pointer: str
    other_pointer: str
    detail: str  # the first character that differs, by code point

    @property
    def message(self) -> str:
        return (
            f"the identifier looks like the one at {self.other_pointer} (the same UTS #39 "
            f"skeleton) but is not the same: {self.detail}; a destination acting on one may "
            "be given the other"
        )

    def to_finding(self) -> Finding:
        return Finding(
            AdvisoryCode.CONFUSABLE_IDENTIFIER, Severity.WARNING, self.pointer, self.message
        )


@cache
def _table() -> dict[int, str]:
    from zcf_inspector.core.hostile import tables  # noqa: PLC0415 - 6,000 entries, when asked

    return {ord(char): prototype for char, prototype in tables.PROTOTYPES.items()}


def skeleton(text: str) -> str:
    """UTS #39 ``skeleton(X)``: NFD, each character to its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_table()))


def packet_identifiers(packet: dict[str, JsonValue]) -> list[tuple[str, str]]:
    """The identifiers of a packet a destination acts on, as (pointer, text)."""
    found: list[tuple[str, str]] = []
    content = packet.get("content")
    if not isinstance(content, dict):
        return found
    for name, members in _MEMBERS:
        items = content.get(name)
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if isinstance(item, dict):
                for member in members:
                    text = item.get(member)
                    if isinstance(text, str):
                        found.append((join("content", name, index, member), text))
    for name in _LISTS:
        entries = content.get(name)
        if isinstance(entries, list):
            found.extend(
                (join("content", name, index), text)
                for index, text in enumerate(entries)
                if isinstance(text, str)
            )
    return found


def _difference(text: str, other: str) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b),
        min(len(text), len(other)),
    )
    if at < len(text):
        char = text[at]
        name = unicodedata.name(char, "UNNAMED")
        return f"U+{ord(char):04X} {name} at character {at:,}"
    return f"it is {len(other) - len(text):,} character(s) shorter"


def identifier_pairs(
    identifiers: Iterable[tuple[str, str]], monitor: Monitor = NULL_MONITOR
) -> tuple[ConfusablePair, ...]:
    """Each identifier whose skeleton another, different identifier shares, paired with
    the first of that skeleton: linear, one dict."""
    first_of: dict[str, tuple[str, str]] = {}  # skeleton -> (text, pointer) seen first
    reported: set[tuple[str, str]] = set()
    pairs: list[ConfusablePair] = []
    for seen, (pointer, text) in enumerate(identifiers, 1):
        if len(pairs) >= PAIRS_LIMIT:
            break
        if seen % CHECK_EVERY == 0:
            monitor.breathe()
        key = skeleton(text)
        earlier = first_of.setdefault(key, (text, pointer))
        if earlier[0] != text and (earlier[0], text) not in reported:
            reported.add((earlier[0], text))
            pairs.append(ConfusablePair(pointer, earlier[1], _difference(text, earlier[0])))
    return tuple(pairs)


def confusable_pairs(
    packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR
) -> tuple[ConfusablePair, ...]:
    """`identifier_pairs` of a packet's identifiers."""
    return identifier_pairs(packet_identifiers(packet), monitor)
