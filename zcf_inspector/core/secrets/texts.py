"""Which texts of a packet the secret scan reads, and where each is (its path).

Each belief's content, every capsule string, the evidence sources' locators, the anchors'
locators and excerpts, the receipts' and verification entries' summaries, the review
events' notes, the packet's intent and the manifests' reasons. Ids, digests, nonces and
signatures are not read: they are the format's own, and a digest is random by design.

One walk: the structure stage already took the columns of a large array of like objects
(each belief's content among them) to check them (`bounded_validation.column_tap`); the
packet's inspection lends those to the scan (`lend_columns`), which reads them instead of
taking them again. Any other array's field is taken as a column too, in C
(`operator.itemgetter` over a slice of the items): no Python step per belief, and no path
is made for a text until a finding needs it (`TextPaths`).
"""

from __future__ import annotations

import bisect
import operator
import time
import weakref
from collections.abc import Iterator, Sequence
from typing import Any, Final, overload

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor

Path = tuple[str | int, ...]
FIELDS_SLICE: Final = 4096  # array items taken between two looks at the clock
BREATH_S: Final = 0.010  # the longest the scan runs between two breaths (see `Pacer`)
_ARRAYS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("beliefs", ("content",)),
    ("evidenceSources", ("locator",)),
    ("evidenceAnchors", ("locator", "excerpt")),
    ("receipts", ("summary",)),
    ("verification", ("summary",)),
    ("reviewEvents", ("note",)),
)


class Pacer:
    """Breathes (`Monitor.breathe`: a cancellation point and, on the window's runner, a
    2 ms sleep) once `BREATH_S` has passed since the last breath. Counting candidates was
    not enough: 4,096 keyword candidates of the 200,000-belief packet took 40+ ms, and a
    window repainting its tree beside the scan waits out the GIL's switch interval on every
    Python model call (UI-thread stalls of 300-480 ms, tests/perf/bench_briefing_window).
    At most one sleep per 10 ms of work: the sleeps cost a sixth of the time or less."""

    __slots__ = ("_last", "_monitor")

    def __init__(self, monitor: Monitor) -> None:
        self._monitor = monitor
        self._last = time.perf_counter()

    def tick(self) -> None:
        now = time.perf_counter()
        if now - self._last >= BREATH_S or self._monitor.cancelled:
            self._monitor.breathe()
            self._last = time.perf_counter()


class TextPaths(Sequence[Path]):
    """The paths of the texts, kept as runs (one text, or one field of an array's items)
    and made one at a time when asked for."""

    __slots__ = ("_count", "_firsts", "_runs")

    def __init__(self) -> None:
        self._firsts: list[int] = []  # the index of each run's first text
        self._runs: list[tuple[Path, str | None, Sequence[int]]] = []
        self._count = 0

    def one(self, path: Path) -> None:
        self._add(path, None, (0,))

    def field(self, prefix: Path, name: str, indices: Sequence[int]) -> None:
        if indices:
            self._add(prefix, name, indices)

    def _add(self, prefix: Path, name: str | None, indices: Sequence[int]) -> None:
        self._firsts.append(self._count)
        self._runs.append((prefix, name, indices))
        self._count += len(indices)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Path: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Path]: ...
    def __getitem__(self, index: int | slice) -> Path | Sequence[Path]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        run = bisect.bisect_right(self._firsts, index) - 1
        prefix, name, indices = self._runs[run]
        if name is None:
            return prefix
        return (*prefix, indices[index - self._firsts[run]], name)


class LentColumns:
    """The columns the structure stage took of one packet's large arrays, block by block
    (`bounded_validation.column_tap` hands them to `offer`), lent to the scan of that
    packet. The packet's inspection holds them: they go when it goes."""

    __slots__ = ("__weakref__", "_arrays", "packet")

    def __init__(self, packet: dict[str, JsonValue]) -> None:
        self.packet = packet
        self._arrays: dict[tuple[str | int, ...], dict[int, dict[str, list[Any]]]] = {}

    def offer(self, base: Sequence[str | int], first: int, columns: dict[str, list[Any]]) -> None:
        if tuple(base) in _LENDABLE:
            self._arrays.setdefault(tuple(base), {})[first] = columns

    def blocks(self, prefix: Path, items: list[Any], name: str) -> list[list[Any]] | None:
        """The column of ``name`` over every item of ``items`` (the array at ``prefix``), as
        the structure stage took it block by block; None unless its blocks cover exactly
        these items (the same first and last strings: the array the stage checked)."""
        taken = self._arrays.get(prefix)
        if not taken or not items:
            return None
        blocks: list[list[Any]] = []
        for first in sorted(taken):
            column = taken[first].get(name)
            if column is None or first != sum(map(len, blocks)):
                return None
            blocks.append(column)
        if sum(map(len, blocks)) != len(items):
            return None
        head, tail = items[0], items[-1]
        if not (isinstance(head, dict) and isinstance(tail, dict)):
            return None
        if head.get(name) is not blocks[0][0] or tail.get(name) is not blocks[-1][-1]:
            return None
        return blocks  # strings all: the stage checked each against its schema (str)


# The arrays whose columns the scan reads (the others are small or optional fields).
_LENDABLE: Final = frozenset({("content", "beliefs")})
_LENT: weakref.WeakValueDictionary[int, LentColumns] = weakref.WeakValueDictionary()


def lend_columns(packet: dict[str, JsonValue]) -> LentColumns:
    """A place for the structure stage's columns of ``packet``, found by the first scan of
    that very packet (`gather`). The caller keeps it alive (the packet's inspection)."""
    lent = LentColumns(packet)
    _LENT[id(packet)] = lent
    return lent


def _borrowed(packet: dict[str, JsonValue]) -> LentColumns | None:
    # Taken once: a later scan of the same packet (a re-check after an edit in memory)
    # takes its columns again rather than trust an earlier walk.
    lent = _LENT.pop(id(packet), None)
    return lent if lent is not None and lent.packet is packet else None


def _strings(value: JsonValue, path: Path) -> Iterator[tuple[Path, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*path, key))


def _column(
    items: list[Any],  # JSON values
    begin: int,
    name: str,
    *,
    paths: TextPaths,
    prefix: Path,
    texts: list[str],
) -> None:
    """The strings at ``name`` of ``items`` (array items from ``begin`` on): in C when each
    item is an object with a string there (the usual case), else item by item."""
    try:
        column = list(map(operator.itemgetter(name), items))
    except (KeyError, TypeError, IndexError):
        column = None
    if column is not None and set(map(type, column)) == {str}:
        paths.field(prefix, name, range(begin, begin + len(column)))
        texts.extend(column)  # each a str: checked above
        return
    indices: list[int] = []
    for index, item in enumerate(items, begin):
        if type(item) is dict:
            text = item.get(name)
            if type(text) is str:
                indices.append(index)
                texts.append(text)
    paths.field(prefix, name, indices)


def _fields(
    value: JsonValue,
    prefix: Path,
    *,
    names: Sequence[str],
    paths: TextPaths,
    texts: list[str],
    pacer: Pacer,
    lent: LentColumns | None = None,
) -> None:
    """``names`` of each object in the array ``value`` (at ``prefix``), where they are
    strings, name by name: the structure stage's columns when ``lent`` has them, else in
    slices so the pacer is consulted between them."""
    if not isinstance(value, list):
        return
    for name in names:
        blocks = lent.blocks(prefix, value, name) if lent is not None else None
        if blocks is not None:
            paths.field(prefix, name, range(len(value)))
            for column in blocks:
                texts.extend(column)
            continue
        for begin in range(0, len(value), FIELDS_SLICE):
            pacer.tick()
            part = value[begin : begin + FIELDS_SLICE]
            _column(part, begin, name, paths=paths, prefix=prefix, texts=texts)


def gather(
    packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR
) -> tuple[TextPaths, list[str]]:
    """The texts the scan reads, as (paths, texts): see the module for which. (Several
    names of one array are listed name by name: the scan's order is not the document's.)"""
    pacer = Pacer(monitor)
    lent = _borrowed(packet)
    paths = TextPaths()
    texts: list[str] = []
    identity = packet.get("packet")
    intent = identity.get("intent") if isinstance(identity, dict) else None
    if isinstance(intent, str):
        paths.one(("packet", "intent"))
        texts.append(intent)
    for manifest in ("redactionManifest", "omissionManifest"):
        section = packet.get(manifest)
        if isinstance(section, dict):
            entries = section.get("entries")
            _fields(
                entries,
                (manifest, "entries"),
                names=("reason",),
                paths=paths,
                texts=texts,
                pacer=pacer,
            )
    content = packet.get("content")
    if not isinstance(content, dict):
        return paths, texts
    if "capsule" in content:
        for path, text in _strings(content["capsule"], ("content", "capsule")):
            paths.one(path)
            texts.append(text)
    for name, fields in _ARRAYS:
        _fields(
            content.get(name),
            ("content", name),
            names=fields,
            paths=paths,
            texts=texts,
            pacer=pacer,
            lent=lent,
        )
    return paths, texts
