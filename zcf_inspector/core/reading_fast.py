"""The strict reader's fast path (`core.reading`): orjson builds the value, and cheap
checks decide whether §1 accepts that very value. It only ever says "clean"; on any doubt
the exact reader reads the input again.

orjson parses bytes as strictly as RFC 8259 asks (trailing data, comments, NaN, leading
zeros, control characters: all refused) and refuses a byte-order mark, bytes that are not
UTF-8 (overlong forms and encoded surrogates included) and numbers beyond a double. What
§1 adds is checked here, each in a few C-level passes and never a Python step per value:

- a surrogate escape anywhere (a search of the raw bytes): a doubt, whether lone or
  paired, so that this rule never rests on one version of one library;
- nesting and numbers: one walk over the parsed value, a level at a time: the depth is
  the number of levels; a level holding a float (the exact reader decides how a
  non-integer literal reads) or an int beyond ±(2^53 - 1) is a doubt;
- repeated keys: orjson keeps one member per key, so an object that repeats a key comes
  back with fewer members than it wrote. The walk sums the members of every object, and
  the bytes say how many members were written: exactly one ':' outside string literals
  per member, counted with the string-aware pass of the nesting check. Equal sums: no
  object repeats a key.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, compress, repeat
from typing import Final

from zcf_inspector.core import headroom
from zcf_inspector.core.jsontypes import MAX_SAFE_INTEGER, JsonValue
from zcf_inspector.core.reading_scan import MAX_DEPTH, SURROGATE_ESCAPE_HINT, members_written

try:  # the fast path's parser; without it every input takes the exact path
    import orjson as _orjson
except ImportError:  # pragma: no cover - a dependency: the tests run with it
    _orjson = None  # type: ignore[assignment]

_ALLOWED_KINDS: Final = frozenset({dict, list, str, int, bool, type(None)})
_FEW_CONTAINERS: Final = 64


def fast_read(data: bytes) -> tuple[JsonValue] | None:
    """The value §1 reads from ``data`` (alone in a tuple) if the fast path can vouch for
    it, else None."""
    if _orjson is None or (b"\\" in data and SURROGATE_ESCAPE_HINT.search(data)):
        return None
    if headroom.limited():
        # Under a memory limit orjson's allocator crashes the process where the exact
        # reader raises MemoryError (core.headroom): same verdict, slower, in words.
        return None
    try:
        value: JsonValue = _orjson.loads(data)
    except _orjson.JSONDecodeError:
        return None
    members = _plain_members(value)
    if members is None or members != members_written(data):
        return None
    return (value,)


def _plain_members(value: JsonValue) -> int | None:
    """How many members the objects in ``value`` hold; None if §1 might object to it.

    Breadth-first, a level at a time: each level is a few passes of ``map``, ``set`` and
    ``compress`` over the values the level above holds, so no Python code runs per value.
    A level held by few containers is taken container by container (a large array of
    objects is then seen to hold only objects without sorting it out from its siblings).
    """
    groups: list[Iterable[JsonValue]] = [(value,)]  # each can be iterated again
    members = 0
    level = 0  # of the containers the groups' values may include
    while True:
        dicts: list[dict[str, JsonValue]] = []
        lists: list[list[JsonValue]] = []
        for group in groups:
            kinds = set(map(type, group))
            if not kinds <= _ALLOWED_KINDS:
                return None
            if int in kinds and not _safe_ints(iter(group)):
                return None
            if dict in kinds or list in kinds:
                found_dicts, found_lists = _containers(iter(group), kinds)
                dicts += found_dicts
                lists += found_lists
        if not dicts and not lists:
            return members
        level += 1
        if level > MAX_DEPTH:
            return None
        members += sum(map(len, dicts))
        if len(dicts) + len(lists) <= _FEW_CONTAINERS:
            groups = [*map(dict.values, dicts), *lists]
        else:
            groups = [_LevelValues(dicts, lists)]


class _LevelValues:
    """The values many containers hold, as one group that can be iterated again."""

    __slots__ = ("dicts", "lists")

    def __init__(self, dicts: list[dict[str, JsonValue]], lists: list[list[JsonValue]]) -> None:
        self.dicts = dicts
        self.lists = lists

    def __iter__(self) -> Iterator[JsonValue]:
        return _level_values(self.dicts, self.lists)


def _level_values(
    dicts: list[dict[str, JsonValue]], lists: list[list[JsonValue]]
) -> Iterator[JsonValue]:
    """The values the containers of one level hold: the next level down."""
    if not lists:  # most levels hold one kind: one iterator less per value
        return chain.from_iterable(map(dict.values, dicts))
    if not dicts:
        return chain.from_iterable(lists)
    return chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists))


def _safe_ints(values: Iterator[JsonValue]) -> bool:
    """Whether every int among ``values`` is within ±(2^53 - 1) (bools pass, as 0 and 1)."""
    found = list(values)
    ints: list[int] = list(compress(found, map(isinstance, found, repeat(int))))  # type: ignore[arg-type]
    return min(ints) >= -MAX_SAFE_INTEGER and max(ints) <= MAX_SAFE_INTEGER


def _containers(
    values: Iterator[JsonValue], kinds: set[type]
) -> tuple[list[dict[str, JsonValue]], list[list[JsonValue]]]:
    """The objects and the arrays among ``values``, whose types are ``kinds``."""
    if kinds == {dict}:
        return list(values), []  # type: ignore[arg-type]
    if kinds == {list}:
        return [], list(values)  # type: ignore[arg-type]
    found = list(values)
    dicts = list(compress(found, map(isinstance, found, repeat(dict))))
    lists = list(compress(found, map(isinstance, found, repeat(list))))
    return dicts, lists  # type: ignore[return-value]
