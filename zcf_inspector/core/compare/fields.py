"""Equality as canonical bytes see it, and the differences inside one changed element.

Python's ``==`` says ``True == 1`` and ``False == 0``; canonical bytes do not (``true``
is not ``1``). Every other difference between two values the strict reader returned
shows in ``==`` (integral numbers are always ``int``, others ``float``, and member
order is not canonical), so `same` is ``==`` (in C) and then a walk over the types.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Final

from zcf_inspector.core import headroom
from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.compare.matching import Matching, match
from zcf_inspector.core.compare.model import ABSENT, FieldChange
from zcf_inspector.core.jsontypes import JsonValue

try:  # optional, as for canonical bytes: it only makes equal slices cheaper to skip
    import orjson as _orjson
except ImportError:  # pragma: no cover - the test environment has orjson
    _orjson = None  # type: ignore[assignment]

MAX_FIELDS: Final = 64  # differences listed per element; the rest are counted
SLICE: Final = 1024  # paired elements compared at once before one by one
SHORT_RUN: Final = 8  # runs shorter than this are compared one by one straight away


def same(a: JsonValue, b: JsonValue) -> bool:
    """Whether ``a`` and ``b`` have the same canonical bytes (for values the reader made)."""
    return a == b and _same_types(a, b)


def _same_types(a: object, b: object) -> bool:
    """For ``a == b``: no ``bool`` stands where the other side has a number."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        other: dict[str, object] = b  # type: ignore[assignment]
        for key, value in a.items():  # type: ignore[attr-defined]
            theirs = other[key]  # a == b: the same keys
            inner = type(value)
            if inner is not type(theirs):
                return False
            if (inner is dict or inner is list) and not _same_types(value, theirs):
                return False
        return True
    if kind is list:
        for value, theirs in zip(a, b, strict=True):  # type: ignore[call-overload]
            inner = type(value)
            if inner is not type(theirs):
                return False
            if (inner is dict or inner is list) and not _same_types(value, theirs):
                return False
    return True


def differing_pairs(
    items_a: list[JsonValue],
    items_b: list[JsonValue],
    found: Matching,
    between: Callable[[], None],
) -> tuple[array[int], array[int]]:
    """The pairs of ``found`` whose elements differ or moved: (indexes in A, indexes in
    B), two arrays in B's order.

    A run of pairs is compared a slice at a time: two slices that encode to the same
    bytes (member order included) hold the same values of the same types, so the
    elements of most slices of a large, mostly unchanged section are never visited one
    by one. Any other slice is checked element by element with `same`.
    """
    diff_a, diff_b = array("i"), array("i")
    visited = 0
    for start_a, start_b, length in found.runs:  # in B's order: so are the differences
        for offset in range(0, length, SLICE):
            count = min(SLICE, length - offset)
            slice_a = items_a[start_a + offset : start_a + offset + count]
            slice_b = items_b[start_b + offset : start_b + offset + count]
            visited += count
            if visited >= SLICE:
                visited = 0
                between()
            # Short runs (a reordered section is many runs of one) go one by one.
            if count >= SHORT_RUN and _same_encoding(slice_a, slice_b):
                continue
            for k in range(count):
                if not same(slice_a[k], slice_b[k]) or (
                    found.moved and start_b + offset + k in found.moved
                ):
                    diff_a.append(start_a + offset + k)
                    diff_b.append(start_b + offset + k)
    if found.moved:  # a moved pair whose slice encoded the same was skipped above
        listed = set(diff_b)
        extra = sorted((b, a) for a, b in found.pairs if b in found.moved and b not in listed)
        if extra:
            merged = sorted([*zip(diff_b, diff_a, strict=True), *extra])
            diff_b = array("i", (b for b, _ in merged))
            diff_a = array("i", (a for _, a in merged))
    return diff_a, diff_b


def _same_encoding(a: list[JsonValue], b: list[JsonValue]) -> bool:
    """True only if ``a`` and ``b`` are the same values of the same types, in the same
    member order; False says nothing (the caller then looks element by element)."""
    if not orjson_usable():
        return False
    try:
        return bool(_orjson.dumps(a) == _orjson.dumps(b))
    except (_orjson.JSONEncodeError, TypeError):
        return False  # something orjson refuses (a huge integer): decided one by one


def orjson_usable() -> bool:
    """Whether orjson may be called: it is there, and no memory limit is in force (out
    of memory its allocator crashes the process; see `core.headroom`)."""
    return _orjson is not None and not headroom.limited()


def content_keys(values: list[JsonValue]) -> list[str | bytes | int]:
    """`content_key` of each value (whether orjson may be used is asked once)."""
    fast = orjson_usable()
    return [content_key(value, fast=fast) for value in values]


def content_key(value: JsonValue, *, fast: bool | None = None) -> str | bytes | int:
    """An identity for an element that has none: its content. Strings are their own
    key; anything else its JSON with sorted members, which tells ``true`` from ``1``
    (orjson's, when it is there and ``fast`` (default: `orjson_usable`): the keys need
    only be distinct, not canonical)."""
    if isinstance(value, str):
        return value
    if fast is None:
        fast = orjson_usable()
    if fast and _orjson is not None:
        try:
            return bytes(_orjson.dumps(value, option=_orjson.OPT_SORT_KEYS))
        except (_orjson.JSONEncodeError, TypeError):
            pass  # a lone surrogate or a huge integer: canonical() decides
    try:
        return canonical(value)
    except ValueError:
        return id(value)  # not a value the reader makes: equal to nothing else


class _Fields:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.found: list[FieldChange] = []
        self.omitted = 0

    def add(self, change: FieldChange) -> None:
        if len(self.found) < self.limit:
            self.found.append(change)
        else:
            self.omitted += 1

    def walk(self, a: JsonValue, b: JsonValue, path: str) -> None:
        if same(a, b):
            return
        if type(a) is dict and type(b) is dict:
            for key in sorted(a.keys() | b.keys()):  # code-point order, as canonical bytes
                inner = jpointer.child(path, key)
                if key not in b:
                    self.add(FieldChange(inner, a[key], ABSENT))
                elif key not in a:
                    self.add(FieldChange(inner, ABSENT, b[key]))
                else:
                    self.walk(a[key], b[key], inner)
        elif type(a) is list and type(b) is list:
            self.walk_array(a, b, path)
        else:
            self.add(FieldChange(path, a, b))

    def walk_array(self, a: list[JsonValue], b: list[JsonValue], path: str) -> None:
        """Items have no identity here: each is known by its content, so an inserted item
        is one addition; a removed and an added item at the same index are one change."""
        found = match(content_keys(a), content_keys(b))
        removed = dict.fromkeys(found.removed)
        for index_b in found.added:
            if index_b in removed:
                del removed[index_b]
                self.walk(a[index_b], b[index_b], jpointer.child(path, index_b))
            else:
                self.add(FieldChange(jpointer.child(path, index_b), ABSENT, b[index_b]))
        for index_a in removed:
            self.add(FieldChange(jpointer.child(path, index_a), a[index_a], ABSENT))
        for index_a, index_b in found.pairs if found.moved else ():
            if index_b in found.moved:
                item = b[index_b]
                self.add(
                    FieldChange(jpointer.child(path, index_b), a[index_a], item, (index_a, index_b))
                )


def field_changes(
    a: JsonValue, b: JsonValue, limit: int = MAX_FIELDS
) -> tuple[tuple[FieldChange, ...], int]:
    """The differences inside a changed element (at most ``limit``) and how many more."""
    fields = _Fields(limit)
    fields.walk(a, b, "")
    return tuple(sorted(fields.found, key=_path_order)), fields.omitted


def _path_order(change: FieldChange) -> tuple[tuple[int, int | str], ...]:
    """Document order of relative pointers: array indexes as numbers, keys as text."""
    return tuple(
        (0, int(t)) if t.isdigit() and t.isascii() else (1, t) for t in jpointer.split(change.path)
    )
