"""The elements of the parts two packets differ in (`core.compare.packets`): how each is
known (its identity, else its content), paired (`core.compare.matching`) and listed within
the budget as added, removed or changed, with its digests, fields and review state.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Final

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.compare.fields import (
    MAX_FIELDS,
    content_key,
    differing_pairs,
    field_changes,
    orjson_usable,
    same,
)
from zcf_inspector.core.compare.matching import Matching, Repeated, match
from zcf_inspector.core.compare.model import (
    ABSENT,
    Change,
    ChangeKind,
    FieldChange,
    PartComparison,
    PartStatus,
)
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.structure_models import ARRAY_SECTIONS
from zcf_inspector.core.value_digest import value_digest

TOOLS_SECTION: Final = "allowedTools"
BELIEFS_SECTION: Final = "beliefs"
_BREATHE_EVERY: Final = 4096


@dataclass(frozen=True, slots=True)
class Part:
    name: str
    covered: bool
    pointer: str
    value: JsonValue
    digest: str | None


@dataclass(frozen=True, slots=True)
class _Element:
    pointer: str
    id: str | None
    value: JsonValue
    index: int  # position in its array (or among its object's members)


def _keys(part: Part, items: list[JsonValue]) -> Sequence[Hashable]:
    """How the elements of an array-valued part are known (see the module docstring)."""
    if part.covered and part.name in ARRAY_SECTIONS:
        field = ARRAY_SECTIONS[part.name].id_field
        try:  # the common case, in C: every element an object with a string identity
            keys: list[Hashable] = list(map(itemgetter(field), items))  # type: ignore[arg-type]
        except (KeyError, TypeError):
            pass
        else:
            if set(map(type, keys)) <= {str}:
                return keys
        # None: paired in order with the other elements lacking an identity.
        if not any(type(item) is dict and type(item.get(field)) is str for item in items):
            return Repeated(None, len(items))  # none has one (a bomb of `{}`): no list
        return [
            key if type(item) is dict and type(key := item.get(field)) is str else None
            for item in items
        ]
    if part.covered and part.name == TOOLS_SECTION:
        fast = orjson_usable()
        return [item if type(item) is str else content_key(item, fast=fast) for item in items]
    fast = orjson_usable()
    return [content_key(item, fast=fast) for item in items]


def _shown_id(part: Part, key: Hashable) -> str | None:
    if isinstance(key, str) and (part.name in ARRAY_SECTIONS or part.name == TOOLS_SECTION):
        return key
    return None  # a content key is not an identity worth showing


class Collector:
    """Gathers the changes of every part within the listing budget."""

    def __init__(self, budget: int, monitor: Monitor) -> None:
        self.left = budget
        self.monitor = monitor
        self.changes: list[Change] = []
        self.omitted = 0

    def part(self, a: Part | None, b: Part | None) -> PartComparison:
        here = b if b is not None else a
        assert here is not None
        digest_a = None if a is None else a.digest
        digest_b = None if b is None else b.digest
        if a is None:
            status = PartStatus.ADDED
        elif b is None:
            status = PartStatus.REMOVED
        elif a.covered:
            status = PartStatus.SAME if a.digest == b.digest else PartStatus.CHANGED
        else:
            status = PartStatus.SAME if same(a.value, b.value) else PartStatus.CHANGED
        counts = dict.fromkeys(ChangeKind, 0)
        if status is not PartStatus.SAME:
            before = len(self.changes) + self.omitted
            for kind in self._elements(a, b, here):
                counts[kind] += 1
            if len(self.changes) + self.omitted == before:
                # Nothing element-wise (a scalar, an empty container, another type):
                # the part itself is the change.
                kind = {
                    PartStatus.ADDED: ChangeKind.ADDED,
                    PartStatus.REMOVED: ChangeKind.REMOVED,
                }.get(status, ChangeKind.CHANGED)
                self._whole(a, b, here, kind)
                counts[kind] += 1
        return PartComparison(
            here.name,
            here.covered,
            here.pointer,
            digest_a,
            digest_b,
            status,
            counts[ChangeKind.ADDED],
            counts[ChangeKind.REMOVED],
            counts[ChangeKind.CHANGED],
        )

    def _elements(self, a: Part | None, b: Part | None, here: Part) -> Iterator[ChangeKind]:
        values = [p.value for p in (a, b) if p is not None]  # a part's value may be null
        if all(isinstance(v, list) for v in values):
            yield from self._array(a, b, here)
        elif all(isinstance(v, dict) for v in values):
            yield from self._object(a, b, here)

    def _array(self, a: Part | None, b: Part | None, here: Part) -> Iterator[ChangeKind]:
        items_a: list[JsonValue] = a.value if a is not None else []  # type: ignore[assignment]
        items_b: list[JsonValue] = b.value if b is not None else []  # type: ignore[assignment]
        # Each of these is one long C call on a large section: a window repaints between.
        keys_a = _keys(here, items_a)
        self.monitor.breathe()
        keys_b = _keys(here, items_b)
        self.monitor.breathe()
        found = match(keys_a, keys_b)
        self.monitor.breathe()
        pointer_a = a.pointer if a is not None else here.pointer
        pointer_b = b.pointer if b is not None else here.pointer

        def element_a(index: int) -> _Element:
            return _Element(
                jpointer.child(pointer_a, index),
                _shown_id(here, keys_a[index]),
                items_a[index],
                index,
            )

        def element_b(index: int) -> _Element:
            return _Element(
                jpointer.child(pointer_b, index),
                _shown_id(here, keys_b[index]),
                items_b[index],
                index,
            )

        # Most pairs of a large section are equal: they are skipped before any element,
        # pointer or digest is made for them.
        diff_a, diff_b = differing_pairs(items_a, items_b, found, self.monitor.breathe)
        totals = {
            ChangeKind.CHANGED: len(diff_b),
            ChangeKind.ADDED: len(found.added),
            ChangeKind.REMOVED: len(found.removed),
        }
        listed = dict.fromkeys(ChangeKind, 0)
        for n, (kind, index_a, index_b) in enumerate(_in_order(found, diff_a, diff_b)):
            if n % _BREATHE_EVERY == 0:
                self.monitor.breathe()
            if self.left <= 0:
                break  # past the budget: the rest is counted below, nothing made for it
            listed[kind] += 1
            old = None if index_a is None else element_a(index_a)
            new = None if index_b is None else element_b(index_b)
            occurrence = None
            if index_a is not None:
                occurrence = found.occurrence_a(index_a)
            if occurrence is None and index_b is not None:
                occurrence = found.occurrence_b(index_b)
            if kind is ChangeKind.CHANGED:
                assert old is not None
                assert new is not None
                moved = (old.index, new.index) if new.index in found.moved else None
                self._changed(here, old, new, moved, occurrence)
            else:
                element = old if new is None else new
                assert element is not None
                self._one_sided(here, kind, element, occurrence)
            yield kind
        for kind, total in totals.items():
            rest = total - listed[kind]
            self.omitted += rest
            yield from itertools.repeat(kind, rest)

    def _object(self, a: Part | None, b: Part | None, here: Part) -> Iterator[ChangeKind]:
        members_a: dict[str, JsonValue] = a.value if a is not None else {}  # type: ignore[assignment]
        members_b: dict[str, JsonValue] = b.value if b is not None else {}  # type: ignore[assignment]
        pointer_a = a.pointer if a is not None else here.pointer
        pointer_b = b.pointer if b is not None else here.pointer
        positions_a = {key: n for n, key in enumerate(members_a)}
        positions_b = {key: n for n, key in enumerate(members_b)}
        for n, key in enumerate(sorted(members_a.keys() | members_b.keys())):
            if n % _BREATHE_EVERY == 0:
                self.monitor.breathe()
            if self.left <= 0 and key in members_a and key in members_b:
                if same(members_a[key], members_b[key]):
                    continue
                self.omitted += 1  # past the budget: counted, and nothing is made for it
                yield ChangeKind.CHANGED
                continue
            old = new = None
            if key in members_a:
                old = _Element(
                    jpointer.child(pointer_a, key), key, members_a[key], positions_a[key]
                )
            if key in members_b:
                new = _Element(
                    jpointer.child(pointer_b, key), key, members_b[key], positions_b[key]
                )
            if old is not None and new is not None:
                if same(old.value, new.value):
                    continue
                self._changed(here, old, new, None, None)
                yield ChangeKind.CHANGED
            elif new is not None:
                self._one_sided(here, ChangeKind.ADDED, new, None)
                yield ChangeKind.ADDED
            else:
                assert old is not None
                self._one_sided(here, ChangeKind.REMOVED, old, None)
                yield ChangeKind.REMOVED

    # --- listing, within the budget -----------------------------------------------

    def _room(self) -> bool:
        if self.left > 0:
            return True
        self.omitted += 1
        return False

    def _changed(
        self,
        here: Part,
        old: _Element,
        new: _Element,
        moved: tuple[int, int] | None,
        occurrence: int | None,
    ) -> None:
        if not self._room():
            return
        fields, omitted = field_changes(old.value, new.value, min(MAX_FIELDS, self.left))
        self.left -= 1 + len(fields)
        self.changes.append(
            Change(
                ChangeKind.CHANGED,
                here.name if here.covered else None,
                here.name,
                new.id if new.id is not None else old.id,
                old.pointer,
                new.pointer,
                value_digest(old.value),
                value_digest(new.value),
                fields,
                omitted,
                moved,
                occurrence,
                _review_state(here, old.value, new.value),
            )
        )

    def _one_sided(
        self, here: Part, kind: ChangeKind, element: _Element, occurrence: int | None
    ) -> None:
        if not self._room():
            return
        self.left -= 1
        digest = value_digest(element.value)
        added = kind is ChangeKind.ADDED
        self.changes.append(
            Change(
                kind,
                here.name if here.covered else None,
                here.name,
                element.id,
                None if added else element.pointer,
                element.pointer if added else None,
                None if added else digest,
                digest if added else None,
                occurrence=occurrence,
            )
        )

    def _whole(self, a: Part | None, b: Part | None, here: Part, kind: ChangeKind) -> None:
        if not self._room():
            return
        fields: tuple[FieldChange, ...] = ()
        omitted = 0
        if a is not None and b is not None:
            fields, omitted = field_changes(a.value, b.value, min(MAX_FIELDS, self.left))
        self.left -= 1 + len(fields)
        self.changes.append(
            Change(
                kind,
                here.name if here.covered else None,
                here.name,
                None,
                None if a is None else a.pointer,
                None if b is None else b.pointer,
                None if a is None else a.digest,
                None if b is None else b.digest,
                fields,
                omitted,
            )
        )


def _in_order(
    found: Matching, diff_a: Sequence[int], diff_b: Sequence[int]
) -> Iterator[tuple[ChangeKind, int | None, int | None]]:
    """The added, removed and differing paired elements in B's order, a removed one
    just after the element that preceded it in A (so the list reads like the packet).

    Made one at a time, merging three sorted streams: the listing stops at its budget,
    and a section of millions of changes is never held as a list of them."""
    changed = (((b, 1, b), ChangeKind.CHANGED, a, b) for a, b in zip(diff_a, diff_b, strict=True))
    added = (((b, 1, b), ChangeKind.ADDED, None, b) for b in found.added)
    streams: list[Iterator[tuple[tuple[int, int, int], ChangeKind, int | None, int | None]]]
    streams = [changed, added]
    if found.removed:
        streams.append(_removed_in_order(found))
    for _, kind, index_a, index_b in heapq.merge(*streams, key=itemgetter(0)):
        yield kind, index_a, index_b


def _removed_in_order(
    found: Matching,
) -> Iterator[tuple[tuple[int, int, int], ChangeKind, int | None, int | None]]:
    """Each removed element, anchored after the B element of A's previous paired one
    (tier 2: after that element, before what B added right after it).

    The anchors are worked out by walking the removed indexes (ascending) beside the runs
    of pairs sorted by their start in A — a removed element is in no run, so the last run
    that starts before it ends before it too — and made again for the listing rather than
    kept: memory of the runs, not of the removed elements (all of a section, often)."""
    runs = sorted(found.runs)

    def anchored() -> Iterator[tuple[int, int]]:
        """(anchor in B, index in A) of each removed element, in A's order."""
        previous_b = -1
        following = 0  # the first run that starts after the current removed index
        for index_a in found.removed:
            while following < len(runs) and runs[following][0] < index_a:
                following += 1
            if following:
                _, start_b, length = runs[following - 1]
                previous_b = start_b + length - 1
            yield previous_b, index_a

    last = -1
    monotonic = True
    for anchor, _ in anchored():
        if anchor < last:
            monotonic = False
            break
        last = anchor
    # Only when pairs moved are the anchors out of order: then sorted by (anchor, index).
    order: Iterable[tuple[int, int]] = anchored() if monotonic else sorted(anchored())
    for anchor, index_a in order:
        yield (anchor, 2, index_a), ChangeKind.REMOVED, index_a, None


def _review_state(here: Part, a: JsonValue, b: JsonValue) -> tuple[str | None, str | None] | None:
    if not (here.covered and here.name == BELIEFS_SECTION):
        return None
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return None
    state_a, state_b = a.get("reviewState", ABSENT), b.get("reviewState", ABSENT)
    if state_a is ABSENT or state_b is ABSENT:
        if state_a is state_b:
            return None
    elif same(state_a, state_b):
        return None
    return (
        state_a if isinstance(state_a, str) else None,
        state_b if isinstance(state_b, str) else None,
    )
