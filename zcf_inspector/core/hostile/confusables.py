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

import bisect
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, Protocol

from zcf_inspector.core.codes import AdvisoryCode
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join, split

PAIRS_LIMIT: Final = 1_000  # warnings kept; a document of look-alikes needs no more
CHECK_EVERY: Final = 4096
SEPARATOR: Final = "\x00"  # between identifiers joined: no prototype holds it
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
    """UTS #39 ``skeleton(X)``: NFD, each character to its prototype, NFD again (ASCII is
    its own NFD, and so are the prototypes of its characters: one translation, in C)."""
    if text.isascii():
        return text.translate(_table())
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_table()))


Path = tuple[str | int, ...]


class _Node(Protocol):
    @property
    def subject_id(self) -> str: ...
    @property
    def pointer(self) -> str | None: ...


class _HasNodes(Protocol):
    @property
    def nodes(self) -> Sequence[_Node]: ...


@dataclass(frozen=True, slots=True)
class Identifiers:
    """Identifiers as one list of texts, and where each is: the i-th text is at
    ``paths(i)`` (a pointer is made only for the few reported: joining 400,000 took most
    of the scan's time)."""

    texts: list[str]
    # (first position, path of the array, member name or None, index of each text in it)
    _spans: list[tuple[int, Path, str | None, list[str | int]]]

    def path(self, at: int) -> Path:
        starts = [span[0] for span in self._spans]
        first, base, member, indices = self._spans[bisect.bisect_right(starts, at) - 1]
        index = indices[at - first]
        return (*base, index) if member is None else (*base, index, member)

    @classmethod
    def of(cls, pairs: Iterable[tuple[Path, str]]) -> Identifiers:
        """From (path, text) pairs: for documents other than packets."""
        listed = list(pairs)
        spans: list[tuple[int, Path, str | None, list[str | int]]] = [
            (at, path[:-1], None, [path[-1]]) for at, (path, _) in enumerate(listed)
        ]
        return cls([text for _, text in listed], spans)


def packet_identifiers(packet: dict[str, JsonValue]) -> Identifiers:
    """The identifiers of a packet a destination acts on."""
    texts: list[str] = []
    spans: list[tuple[int, Path, str | None, list[str | int]]] = []
    content = packet.get("content")
    if not isinstance(content, dict):
        return Identifiers(texts, spans)
    columns: list[tuple[Path, str | None, list[JsonValue]]] = []
    for name, members in _MEMBERS:
        items = content.get(name)
        if isinstance(items, list):
            for member in members:
                column = [item.get(member) if type(item) is dict else None for item in items]
                columns.append((("content", name), member, column))
    for name in _LISTS:
        entries = content.get(name)
        if isinstance(entries, list):
            columns.append((("content", name), None, entries))
    for base, name_of, column in columns:
        indices: list[str | int] = [i for i, text in enumerate(column) if type(text) is str]
        if indices:
            spans.append((len(texts), base, name_of, indices))
            texts.extend(text for text in column if type(text) is str)
    return Identifiers(texts, spans)


def skeletons(texts: list[str]) -> list[str]:
    """`skeleton` of each text, made over all of them joined: a few calls in C."""
    joined = SEPARATOR.join(texts)
    if joined.count(SEPARATOR) != len(texts) - 1:  # a text holds the separator itself
        return [skeleton(text) for text in texts]
    return skeleton(joined).split(SEPARATOR) if texts else []


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
    identifiers: Identifiers, monitor: Monitor = NULL_MONITOR
) -> tuple[ConfusablePair, ...]:
    """Each identifier whose skeleton another, different identifier shares, paired with
    the first of that skeleton: linear. Whether any does is found in C (distinct
    skeletons against distinct texts); only then are they walked one by one."""
    texts = identifiers.texts
    keys = skeletons(texts)
    monitor.breathe()
    if len(set(keys)) == len(dict.fromkeys(zip(keys, texts, strict=True))):
        return ()
    first_of: dict[str, int] = {}  # skeleton -> the position of its first text
    reported: set[tuple[str, str]] = set()
    pairs: list[ConfusablePair] = []
    for at, key in enumerate(keys):
        if len(pairs) >= PAIRS_LIMIT:
            break
        if at % CHECK_EVERY == 0:
            monitor.breathe()
        first = first_of.setdefault(key, at)
        text, earlier = texts[at], texts[first]
        if earlier != text and (earlier, text) not in reported:
            reported.add((earlier, text))
            where, other = join(*identifiers.path(at)), join(*identifiers.path(first))
            pairs.append(ConfusablePair(where, other, _difference(text, earlier)))
    return tuple(pairs)


def confusable_pairs(
    packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR
) -> tuple[ConfusablePair, ...]:
    """`identifier_pairs` of a packet's identifiers."""
    return identifier_pairs(packet_identifiers(packet), monitor)


def subject_pairs(
    plans: Iterable[_HasNodes], monitor: Monitor = NULL_MONITOR
) -> tuple[ConfusablePair, ...]:
    """`identifier_pairs` of the subject ids of ASIF plans, at each subject's declaration
    (a subject named by several plans is one text: never a pair with itself)."""
    seen: dict[str, tuple[Path, str]] = {}
    for plan in plans:
        for node in plan.nodes:
            if node.pointer is not None:
                seen.setdefault(node.subject_id, (tuple(split(node.pointer)), node.subject_id))
    return identifier_pairs(Identifiers.of(seen.values()), monitor)
